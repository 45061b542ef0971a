"""Which Laws of Chess a game is judged by (``--laws current|as-played``).

``current`` judges every game by the FIDE Laws of 2023.  ``as-played`` takes
the Laws in force on the game's ``Date`` tag, as far as they matter to remis
(the documentation's "Laws as played" page gives the timeline and its sources):

* 9.6.1 fivefold repetition and 9.6.2 75-move rule: automatic only since
  1 July 2014 (before, a repetition or a long run was a claim, never an end);
* 5.1.2: a resignation against a player who cannot checkmate is a draw only
  since 1 January 2023 (before, always a loss);
* rapid and blitz: a first completed illegal move lost the game until
  31 December 2017; since 1 January 2018 it costs time only;
* 9.3: from 1929 to 1992 some endings had a longer count than 50 moves
  (:data:`FIFTY_MOVE_EXCEPTIONS`, :func:`claim_moves`).

A game without a readable year is judged by the current Laws, and says so.
The rules (:mod:`remis.rules`) read :class:`Laws`, so this module sits below
them and imports nothing of remis.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

LawsMode = Literal["current", "as-played"]
#: the values of ``--laws`` (and of the library's ``laws=`` for whole games)
LAWS_MODES: tuple[LawsMode, ...] = ("current", "as-played")
#: year, month, day
Day = tuple[int, int, int]

_DATE = re.compile(r"^\s*(\d{4})(?:[.\-/](\d{1,2}|\?\?))?(?:[.\-/](\d{1,2}|\?\?))?")


@dataclass(frozen=True)
class Laws:
    """The rules that differ between editions of the Laws, as in force for
    one game.

    ``label`` is the short text every finding carries (``"laws"`` field).
    ``day`` is the date whose Laws these are (``as-played``); None for the
    current Laws, which count 50 moves in every position (9.3).

    >>> from remis import laws_for
    >>> laws_for(None).automatic_repetition, laws_for(None).day
    (True, None)
    >>> old = laws_for("1990.06.01", "as-played")
    >>> old.automatic_repetition, old.resignation_draw, old.day
    (False, False, (1990, 6, 1))
    """

    label: str
    automatic_repetition: bool = True
    resignation_draw: bool = True
    rapid_blitz_first_illegal_loses: bool = False
    day: Day | None = None


CURRENT = Laws("FIDE Laws of Chess 2023 (current)")


def game_date(date_tag: str | None) -> Day | None:
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


def day_text(day: Day) -> str:
    """A day as a PGN date.

    >>> day_text((1990, 6, 1))
    '1990.06.01'
    """
    return f"{day[0]:04d}.{day[1]:02d}.{day[2]:02d}"


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
    >>> laws_for("1990.03.01", "as-played").day
    (1990, 3, 1)
    """
    if mode == "current":
        return CURRENT
    d = game_date(date_tag)
    if d is None:
        return Laws("FIDE Laws of Chess 2023 (current; the game has no readable date)")
    shown = day_text(d)
    if d >= (2023, 1, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2023)", day=d)
    if d >= (2018, 1, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2018)", resignation_draw=False,
                    day=d)
    if d >= (2014, 7, 1):
        return Laws(f"FIDE Laws in force on {shown} (Laws of 2014/2017)",
                    resignation_draw=False, rapid_blitz_first_illegal_loses=True, day=d)
    return Laws(f"Laws in force on {shown} (before 1 July 2014: no automatic 9.6 ends)",
                automatic_repetition=False, resignation_draw=False,
                rapid_blitz_first_illegal_loses=True, day=d)


# ------------------------------------------------ 9.3: the historical exceptions
#: the count of Article 9.3, in moves by each player, wherever no exception applies
FIFTY_MOVES = 50


def in_force(year: int) -> Day:
    """The day a FIDE decision of ``year`` took effect: 1 January of the next
    year.  Only the 1988 Laws' day is documented (1 January 1989); the others
    are taken the same way.  Every row of :data:`FIFTY_MOVE_EXCEPTIONS` goes
    through here, so this is the one place to change that choice.

    >>> in_force(1988)
    (1989, 1, 1)
    """
    return (year + 1, 1, 1)


@dataclass(frozen=True)
class FiftyMoveException:
    """One row of the timeline: from the FIDE decision of ``laid_down`` until
    the one of ``repealed``, a 9.3 claim needs ``moves`` moves by each player
    (instead of 50) where the board holds ``material`` (the stronger side
    first, either colour) and the placement meets ``condition`` (a key of
    :data:`CONDITIONS`; empty for none).

    >>> row = FIFTY_MOVE_EXCEPTIONS[0]
    >>> row.material, row.moves, row.since, row.until
    ('K+R+B v K+R', 132, (1929, 1, 1), (1975, 1, 1))
    """

    laid_down: int
    repealed: int
    material: str
    moves: int
    condition: str = ""

    @property
    def since(self) -> Day:
        """The first day the count applies."""
        return in_force(self.laid_down)

    @property
    def until(self) -> Day:
        """The first day it no longer applies."""
        return in_force(self.repealed)

    @property
    def key(self) -> tuple[str, str]:
        """The material as two piece strings: ``("KRB", "KR")``."""
        strong, weak = self.material.split(" v ")
        return strong.replace("+", ""), weak.replace("+", "")


#: The material signatures that had a longer 9.3 count, and when (the stronger
#: side first; a row applies to either colour).  Sources:
#:
#: * G. Haworth, "50-move rule" history, Computer Chess Club forum, 14 Feb 2000
#:   (stmintz.com/ccc/index.php?id=97120): 1974 Art. 12.4 (50 moves, "can be
#:   increased for certain positions" laid down before the game); FIDE
#:   interpretations of 12.4 in 1978 (K+N+N v K+P) and 1982 (K+R+P v K+B+P,
#:   pawns on a2/a3): 100 moves; K+R+B v K+R at 100 "at some time"; 1988:
#:   the 100-move clauses replaced by 75 moves for KBBKN, KNNKP, KQKBB, KQKNN,
#:   KQP(7th)KQ, KRPKBP and KRBKR; 1992: every exception abolished.
#: * M. Plum, Computer Chess Club forum, 22 Apr 1999 (id=49564), reading the
#:   FIDE rules of 1984, Art. 10.9 (in the USCF Official Rules of Chess, 1987):
#:   100 moves for K+R+B v K+R; for K+N+N v K+P when the pawn is blocked by a
#:   knight and no further advanced than a4 b6 c5 d4 e4 f5 g6 h4 (Black's
#:   pawn; the mirror squares for White's); for K+R+P v K+B+P with the rook
#:   side's pawn on a2 and the other on a3 with a dark-squared bishop, or h2
#:   and h3 with a light-squared one (and the colours reversed).
#: * Wikipedia, "Fifty-move rule" (History, citing FIDE 1944:17-18 and
#:   Hooper & Whyld 1992): the 1928 rule allowed twice the moves an ending was
#:   thought to need, 132 for K+R+B v K+R (twice 66); abolition in 1992.
#:   "Rules of chess": the 1988 list of 75-move endings, the pawn of K+Q+P v
#:   K+Q on the seventh rank.
#: * S. Rix, "The 1988 FIDE Laws of Chess", rec.games.chess, 21 Jan 1993:
#:   those Laws came into effect on 1 January 1989.
#: * G. Gijssen, "An Arbiter's Notebook", ChessCafe, May 1999: K+N+N v K+P
#:   had 50 moves in 1999; the blocking squares of White's pawn, a5 b3 c4 d5
#:   e5 f4 g3 h5.
#: * The Czech seed (Wikipedia cs, "Remíza (šachy)"): the first exceptions
#:   were R+B v R, N+N v P and R+P v B+P; computer analysis in the 1970s and
#:   80s added more; all were abolished.
#: * FIDE Arbiters' Manual, "A short history of the Laws of Chess": the first
#:   official rules were published in 1929, new editions in 1952, 1966, 1974.
#:
#: Where they are vague or disagree, the choices made here:
#:
#: * Days of entry into force: 1 January after the decision (:func:`in_force`).
#: * The 1928 rule was general ("twice what theory needs"); only K+R+B v K+R
#:   has a count in the sources, so only it is listed.  The seed instead
#:   speaks of an old clause raising the count to 100 where the need could be
#:   proved; we follow the FIDE text of 1944 that Wikipedia cites.
#: * The 1952 and 1966 editions were not found: the doubling is taken to last
#:   until the 1974 Laws, whose 12.4 is the first text the sources quote.
#: * K+R+B v K+R at 100 moves: undated in the sources and present in 1984;
#:   taken from the 1982 revision, with K+R+P v K+B+P.
#: * 1988 lists only the material: K+N+N v K+P and K+R+P v K+B+P keep the
#:   positions of 1984 (the 1988 text "replaced the 100-move clauses").
#: * "Blocked by a knight": a knight of the side with the knights stands on
#:   the square in front of the pawn, in the position of the claim.
#: * The count that the 1974 Laws (and those after 1992, per Plum) let an
#:   event lay down before the game cannot be known here: 50.
FIFTY_MOVE_EXCEPTIONS: tuple[FiftyMoveException, ...] = (
    FiftyMoveException(1928, 1974, "K+R+B v K+R", 132),
    FiftyMoveException(1978, 1988, "K+N+N v K+P", 100, "troitzky"),
    FiftyMoveException(1982, 1988, "K+R+B v K+R", 100),
    FiftyMoveException(1982, 1988, "K+R+P v K+B+P", 100, "rook_pawns"),
    FiftyMoveException(1988, 1992, "K+B+B v K+N", 75),
    FiftyMoveException(1988, 1992, "K+N+N v K+P", 75, "troitzky"),
    FiftyMoveException(1988, 1992, "K+Q v K+B+B", 75),
    FiftyMoveException(1988, 1992, "K+Q v K+N+N", 75),
    FiftyMoveException(1988, 1992, "K+Q+P v K+Q", 75, "seventh"),
    FiftyMoveException(1988, 1992, "K+R+P v K+B+P", 75, "rook_pawns"),
    FiftyMoveException(1988, 1992, "K+R+B v K+R", 75),
)

#: pieces of one side: letter ("K", "Q", ...) -> squares (0 = a1 ... 63 = h8)
Pieces = dict[str, list[int]]

#: the Troitzky line: on each file (a..h), the furthest rank, counted from the
#: pawn's own side, at which the pawn of K+N+N v K+P still counted (Black's
#: pawn on a4 b6 c5 d4 e4 f5 g6 h4)
_TROITZKY = (5, 3, 4, 5, 5, 4, 3, 5)


def _rank(square: int, white: bool) -> int:
    """The rank of ``square`` (1..8) seen from White's or Black's side."""
    return square // 8 + 1 if white else 8 - square // 8


def _troitzky(strong: Pieces, weak: Pieces, strong_white: bool) -> bool:
    """The pawn is no further advanced than the Troitzky line and a knight of
    the stronger side blocks it."""
    pawn = weak["P"][0]
    front = pawn - 8 if strong_white else pawn + 8
    return (_rank(pawn, not strong_white) <= _TROITZKY[pawn % 8]
            and front in strong["N"])


def _rook_pawns(strong: Pieces, weak: Pieces, strong_white: bool) -> bool:
    """The rook side's pawn on its second rank on the a- or h-file, the other
    pawn just in front of it, and the bishop on that pawn's colour (a2/a3 with
    a dark-squared bishop, h2/h3 with a light-squared one, or mirrored)."""
    mine, theirs, bishop = strong["P"][0], weak["P"][0], weak["B"][0]
    ahead = mine + 8 if strong_white else mine - 8
    return (mine % 8 in (0, 7) and _rank(mine, strong_white) == 2 and theirs == ahead
            and (theirs // 8 + theirs % 8) % 2 == (bishop // 8 + bishop % 8) % 2)


def _seventh(strong: Pieces, weak: Pieces, strong_white: bool) -> bool:
    """The stronger side's pawn stands on its seventh rank."""
    return _rank(strong["P"][0], strong_white) == 7


#: the positional conditions of :data:`FIFTY_MOVE_EXCEPTIONS`, by name
CONDITIONS = {"troitzky": _troitzky, "rook_pawns": _rook_pawns, "seventh": _seventh}

_FIRST = min(row.since for row in FIFTY_MOVE_EXCEPTIONS)
_LAST = max(row.until for row in FIFTY_MOVE_EXCEPTIONS)
_MOST_MEN = max(len("".join(row.key)) for row in FIFTY_MOVE_EXCEPTIONS)
_ORDER = "KQRBNP"


def _sides(placement: str) -> tuple[Pieces, Pieces]:
    """White's and Black's pieces in a FEN piece placement."""
    sides: tuple[Pieces, Pieces] = ({}, {})
    square = 56
    for ch in placement:
        if ch == "/":
            square -= 16
        elif ch.isdigit():
            square += int(ch)
        else:
            sides[ch.islower()].setdefault(ch.upper(), []).append(square)
            square += 1
    return sides


def _signature(pieces: Pieces) -> str:
    return "".join(p * len(pieces.get(p, ())) for p in _ORDER)


def fifty_move_exception(day: Day | None, placement: str) -> FiftyMoveException | None:
    """The row of :data:`FIFTY_MOVE_EXCEPTIONS` in force on ``day`` for the
    material of ``placement`` (a FEN piece placement), or None where 50
    moves apply.  The material cannot change during a run without captures
    or pawn moves, so the position of the claim decides.

    >>> fifty_move_exception((1990, 6, 1), "8/8/8/4k3/8/8/7r/K1BR4").moves
    75
    >>> fifty_move_exception((1995, 6, 1), "8/8/8/4k3/8/8/7r/K1BR4") is None
    True
    """
    if day is None or not _FIRST <= day < _LAST:
        return None
    if sum(ch.isalpha() for ch in placement) > _MOST_MEN:
        return None
    white, black = _sides(placement)
    seen = _signature(white), _signature(black)
    for row in FIFTY_MOVE_EXCEPTIONS:
        if not row.since <= day < row.until:
            continue
        for strong_white, strong, weak in ((True, white, black), (False, black, white)):
            if (seen if strong_white else seen[::-1]) != row.key:
                continue
            if not row.condition or CONDITIONS[row.condition](strong, weak, strong_white):
                return row
    return None


def claim_moves(day: Day | None, placement: str) -> int:
    """The number of moves by each player a 9.3 claim needs on ``day`` with
    the material of ``placement`` (a FEN piece placement): the whole rule, as
    one function of plain values (the table is data).

    >>> rb_v_r = "8/8/8/4k3/8/8/7r/K1BR4"
    >>> [claim_moves(d, rb_v_r) for d in ((1930, 1, 1), (1985, 1, 1), (1990, 1, 1), None)]
    [132, 100, 75, 50]
    """
    row = fifty_move_exception(day, placement)
    return FIFTY_MOVES if row is None else row.moves


def fifty_rule(placement: str, laws: Laws) -> tuple[int, str | None]:
    """The moves by each player a 9.3 claim needs with the units of
    ``placement`` (a FEN piece placement) under ``laws``, and, under the Laws
    of a date, the words naming the rule that applied (None under the current
    Laws).

    >>> rb_v_r = "8/8/8/4k3/8/8/7r/K1BR4"
    >>> fifty_rule(rb_v_r, CURRENT)
    (50, None)
    >>> fifty_rule(rb_v_r, laws_for("1990.05.01", "as-played"))
    (75, "FIDE's 1988 rule (K+R+B v K+R: 75 moves)")
    >>> fifty_rule(rb_v_r, laws_for("1995.05.01", "as-played"))
    (50, 'the Laws in force on 1995.05.01 (50 moves in every position)')
    """
    if laws.day is None:
        return FIFTY_MOVES, None
    row = fifty_move_exception(laws.day, placement)
    if row is None:
        return FIFTY_MOVES, (f"the Laws in force on {day_text(laws.day)} "
                             "(50 moves in every position)")
    return row.moves, f"FIDE's {row.laid_down} rule ({row.material}: {row.moves} moves)"


#: what the core asks of a game's date: whether the 9.6 ends apply and, where
#: some endings had a longer count then, the 9.3 count of a placement
CoreLaws = tuple[bool, Callable[[str], int] | None]


def core_laws(mode: LawsMode) -> Callable[[str | None], CoreLaws]:
    """The Laws of a game by its ``Date`` tag as the core's reader asks them
    (``remis._core.GameReader(laws=...)``): the same table, read by the core
    only where it matters (a run without capture or pawn move nearing a
    fifty-move claim).

    >>> by_date = core_laws("as-played")
    >>> by_date("1990.06.01")[0], by_date("1990.06.01")[1]("8/8/8/4k3/8/8/7r/K1BR4")
    (False, 75)
    >>> by_date("2016.05.01"), by_date(None)
    ((True, None), (True, None))
    """

    def laws_of(date: str | None) -> CoreLaws:
        laws = laws_for(date, mode)
        day = laws.day
        if day is None or not _FIRST <= day < _LAST:
            return laws.automatic_repetition, None
        return laws.automatic_repetition, lambda placement: claim_moves(day, placement)

    return laws_of
