"""Summary counts of an audit: games and findings per check, per file, per
time control and rating band, the material left at time forfeits, and per
check the games whose "can this side mate?" verdict stayed undecided within
the node budget (never findings).

A summary is a plain JSON-able dict of counters so that it can travel between
processes, be merged in any order and be saved in the resume checkpoint.
"""

from __future__ import annotations

from typing import Any

Summary = dict[str, Any]

_COUNTERS = ("by_check", "by_file", "by_time_control", "games_by_time_control",
             "by_rating_band", "games_by_file", "tf_material", "tf_material_findings",
             "undecided")


def new_summary() -> Summary:
    """An empty summary.

    >>> new_summary()["games"]
    0
    """
    s: Summary = {"games": 0, "findings": 0, "skipped_variants": 0}
    for k in _COUNTERS:
        s[k] = {}
    return s


def bump(counter: dict[str, int], key: str, n: int = 1) -> None:
    """Add ``n`` to ``counter[key]``.

    >>> c: dict[str, int] = {}; bump(c, "x"); bump(c, "x"); c
    {'x': 2}
    """
    counter[key] = counter.get(key, 0) + n


def merge(into: Summary, other: Summary) -> Summary:
    """Add the counts of ``other`` to ``into`` (and return it).

    >>> a, b = new_summary(), new_summary()
    >>> a["games"], b["games"] = 2, 3; bump(b["by_check"], "time_forfeit")
    >>> m = merge(a, b); m["games"], m["by_check"]
    (5, {'time_forfeit': 1})
    """
    for k in ("games", "findings", "skipped_variants"):
        into[k] = into.get(k, 0) + other.get(k, 0)
    for k in _COUNTERS:
        dst = into.setdefault(k, {})
        for key, n in other.get(k, {}).items():
            bump(dst, key, n)
    return into
