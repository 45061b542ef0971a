"""``benchmarks/page.py`` (``make bench``): the page lists every target the
benchmarks printed with its verdict, and no artefact of a target without a ratio."""

from __future__ import annotations

import datetime
from types import ModuleType

from tests.benchmark_module import load

REPLAY = """\
(a) python-chess push only            2.00 us/ply
History.push + automatic_end + claimable / Board.push     1.500x  target <= 2x: met       3.0 us
remis game --json / Rust read-and-replay floor            7.250x  target <= 5x: MISSED    43125
"""
QUICK = """\
30k       quick CPU: n=30000 median 0.004 ms  mean 0.005 ms
          target: CPU <= 1x CHA's (0.71x): met; every question CHA decides decided (0 not): met
vectors   full  CPU: n=3606 median 0.020 ms
          target: all decided: met; no contradiction: MISSED
"""


def _page() -> ModuleType:
    return load("page")


def test_every_target_is_listed_with_its_verdict() -> None:
    page = _page()
    runs = {r.name: r for r in page.RUNS}
    results = [(runs["replay"], "$ replay", REPLAY, 1.0), (runs["30k"], "$ 30k", QUICK, 1.0)]
    found = page.targets(results)
    assert found == [
        ("Replaying games", "History.push + automatic_end + claimable / Board.push: 1.500x "
         "(target <= 2x)", "met"),
        ("Replaying games", "remis game --json / Rust read-and-replay floor: 7.250x "
         "(target <= 5x)", "MISSED"),
        (runs["30k"].title, "30k, quick mode: CPU <= 1x CHA's (0.71x)", "met"),
        (runs["30k"].title, "30k, quick mode: every question CHA decides decided (0 not)",
         "met"),
        (runs["30k"].title, "vectors, full mode: all decided", "met"),
        (runs["30k"].title, "vectors, full mode: no contradiction", "MISSED"),
    ]
    text = page.page(results, datetime.datetime(2026, 1, 1), [("CPU", "x")])
    assert "## Targets" in text and "| **missed** |" in text and "inf" not in text


def test_a_part_run_alone_replaces_only_its_sections() -> None:
    """``--only`` wrote a page of that one section, and the other benchmarks'
    figures were gone; now its section takes the place of the old one, saying
    when it was run, and its rows of the targets replace theirs."""
    page = _page()
    runs = {r.name: r for r in page.RUNS}
    whole = page.page([(runs["replay"], "$ replay", REPLAY, 1.0),
                       (runs["hostile"], "$ hostile", "p99 9 s", 2.0),
                       (runs["variants"], "$ variants", "8.8x", 3.0)],
                      datetime.datetime(2026, 1, 1), [("CPU", "x")])
    better = REPLAY.replace("7.250x  target <= 5x: MISSED", "4.500x  target <= 5x: met")
    when = datetime.datetime(2026, 1, 2, 9, 30)
    text = page.splice(whole, [(runs["hostile"], "$ hostile", "p99 0.4 s", 4.0),
                               (runs["replay"], "$ replay", better, 5.0)], when)
    assert "p99 9 s" not in text and "p99 0.4 s" in text and "8.8x" in text
    assert text.count("## ") == whole.count("## ")
    assert text.index("## Replaying games") < text.index("## The HTTP service under hostile")
    assert text.count("run on its own on 2026-01-02 at 09:30 UTC") == 2
    assert "7.250x" not in text and "4.500x (target <= 5x) | met |" in text
    assert text.count("| Replaying games |") == 2
