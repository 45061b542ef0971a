"""Which Laws of Chess an audited game is judged by (``--laws current|as-played``).

``current`` judges every game by the FIDE Laws of 2023.  ``as-played`` takes
the Laws in force on the game's ``Date`` tag, as far as they matter to the
audit (see ``RULES.md`` section 0):

* 9.6.1 fivefold repetition and 9.6.2 75-move rule: automatic only since
  1 July 2014 (before, a repetition or a long run was a claim, never an end);
* 5.1.2: a resignation against a player who cannot checkmate is a draw only
  since 1 January 2023 (before, always a loss);
* rapid and blitz: a first completed illegal move lost the game until
  31 December 2017; since 1 January 2018 it costs time only.

A game without a readable year is judged by the current Laws, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

LawsMode = Literal["current", "as-played"]

_DATE = re.compile(r"^\s*(\d{4})(?:[.\-/](\d{1,2}|\?\?))?(?:[.\-/](\d{1,2}|\?\?))?")


@dataclass(frozen=True)
class Laws:
    """The rules that matter to the audit, as in force for one game.

    ``label`` is the short text every finding carries (``"laws"`` field).

    >>> CURRENT.automatic_repetition, CURRENT.resignation_draw
    (True, True)
    """

    label: str
    automatic_repetition: bool = True
    resignation_draw: bool = True
    rapid_blitz_first_illegal_loses: bool = False


CURRENT = Laws("FIDE Laws of Chess 2023 (current)")


def game_date(date_tag: str | None) -> tuple[int, int, int] | None:
    """Year, month, day of a PGN ``Date`` tag; unknown month/day count as
    the earliest possible (1); None without a year.

    >>> game_date("1886.02.18"), game_date("2014.??.??"), game_date("????.??.??")
    ((1886, 2, 18), (2014, 1, 1), None)
    """
    if not date_tag:
        return None
    m = _DATE.match(date_tag)
    if not m:
        return None
    year = int(m.group(1))
    parts = []
    for g in (m.group(2), m.group(3)):
        parts.append(int(g) if g and g.isdigit() and int(g) > 0 else 1)
    return year, parts[0], parts[1]


def laws_for(date_tag: str | None, mode: LawsMode = "current") -> Laws:
    """The Laws a game dated ``date_tag`` is judged by under ``mode``.

    A date known only to the year (``2014.??.??``) is taken at its earliest,
    so the 2014 change is not applied to it: the audit only reports what is
    certain.

    >>> laws_for("1886.02.18", "as-played").automatic_repetition
    False
    >>> laws_for("2016.05.01", "as-played").label
    'FIDE Laws in force on 2016.05.01 (Laws of 2014/2017)'
    >>> laws_for("1886.02.18").label
    'FIDE Laws of Chess 2023 (current)'
    """
    if mode == "current":
        return CURRENT
    d = game_date(date_tag)
    if d is None:
        return Laws("FIDE Laws of Chess 2023 (current; the game has no readable date)")
    shown = f"{d[0]:04d}.{d[1]:02d}.{d[2]:02d}"
    if d >= (2023, 1, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2023)")
    if d >= (2018, 1, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2018)", resignation_draw=False)
    if d >= (2014, 7, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2014/2017)",
                    resignation_draw=False, rapid_blitz_first_illegal_loses=True)
    return Laws(f"Laws in force on {shown} (before 1 July 2014: no automatic 9.6 ends)",
                automatic_repetition=False, resignation_draw=False,
                rapid_blitz_first_illegal_loses=True)
