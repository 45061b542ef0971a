"""The automatic ends of a game in progress, as rulings: checkmate (5.1.1),
stalemate (5.2.1), dead position (5.2.2, with insufficient material as its
special case), fivefold repetition (9.6.1) and the 75-move rule (9.6.2, a mate
on the last move prevails).

The rules are the core's: each push into a :class:`~remis.history.History`
has the core work out the automatic end of the position it leaves, with the
history's dead-position test, and these functions read it
(:attr:`~remis.history.History.ruled`).  They ask afresh only for another
dead test than the history's, or for a position the core does not hold (an
illegal move that stood: python-chess's board then says whether a move is
possible).  :mod:`remis.rules` offers them with the claims; the history's
:meth:`~remis.history.History.play` returns what they say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from remis import facts as F
from remis.laws import CURRENT, Laws
from remis.material import DeadTest
from remis.ruling import DRAW, Ruling

if TYPE_CHECKING:
    from remis.history import History

#: the ends the position alone decides (the Laws before 1 July 2014 had no other)
_POSITION_ENDS = ("checkmate", "stalemate", "insufficient_material", "dead_position")


def _ends(history: History) -> list[F.EndFacts | None]:
    """The core's [mate or stalemate, fivefold, seventy-five moves] facts."""
    ends: list[F.EndFacts | None] = history.core.ends()
    if not history.core.exact and ends[0] is None:
        # a position the core cannot hold (an illegal move stood, A.5.4): whether a
        # move is possible there, python-chess's board says
        b = history.board
        if not any(b.generate_legal_moves()):
            ply = history.ply
            kind, article = ("checkmate", "5.1.1") if b.is_check() else ("stalemate", "5.2.1")
            ends[0] = (ply, kind, article, [ply], b.turn, 0, None, None)
    return ends


def _worked_out(history: History, dead_test: DeadTest | None,
                ) -> tuple[F.EndFacts | None, list[F.ClaimFacts]] | bool | None:
    """What the last push worked out with ``dead_test`` (None: the history's
    own), as :meth:`~remis.history.History.found` gives it; False where it
    did not."""
    if dead_test is None or dead_test is history.dead_test:
        return history.found()
    return False


def checkmate_or_stalemate(history: History) -> Ruling | None:
    """Ruling for a checkmate (5.1.1) or stalemate (5.2.1) on the board, else None.

    >>> from remis.history import History
    >>> h = History()
    >>> for san in ["f3", "e5", "g4", "Qh4#"]:
    ...     _ = h.push_san(san)
    >>> checkmate_or_stalemate(h).result
    '0-1'
    """
    if history.core.ruled:  # mate and stalemate come first: whatever the dead test
        found = history.core.end()
        return None if found is None or found[1] not in _POSITION_ENDS[:2] else F.ruling(found)
    end = _ends(history)[0]
    return None if end is None else F.ruling(end)


def dead_position(history: History, dead_test: DeadTest | None = None) -> Ruling | None:
    """Ruling for a dead position (5.2.2) proven by ``dead_test`` (default:
    the history's), else None.

    >>> import chess
    >>> from remis.history import History
    >>> h = History(chess.Board("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"))
    >>> _ = h.push_san("Nxd1")
    >>> dead_position(h).termination
    'insufficient_material'
    >>> dead_position(h).params["reason"]
    'K v K+N'
    """
    verdict = (history.dead_test if dead_test is None else dead_test)(history.board)
    if verdict is None:
        return None
    ply = history.ply
    key = "insufficient_material" if verdict.termination == "insufficient_material" else (
        "dead_position")
    params = {"reason": verdict.reason, "article": "5.2.2"}
    if key == "insufficient_material":  # its explanation names the material
        params["material"] = verdict.reason
    return Ruling(ply, DRAW, verdict.termination, "5.2.2", (ply,), key, params,
                  dict(verdict.evidence))


def fivefold(history: History) -> Ruling | None:
    """Ruling for a fivefold repetition (9.6.1), else None.

    >>> from remis.history import History
    >>> h = History()
    >>> for _ in range(4):
    ...     for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
    ...         _ = h.push_san(san)
    >>> fivefold(h).plies
    (0, 4, 8, 12, 16)
    """
    end = _ends(history)[1]
    return None if end is None else F.ruling(end, history.where)


def seventyfive_moves(history: History) -> Ruling | None:
    """Ruling for the 75-move rule (9.6.2), else None.  Call it only after
    :func:`checkmate_or_stalemate`, which takes precedence (F10).

    >>> import chess
    >>> from remis.history import History
    >>> h = History(chess.Board("8/8/4k3/8/8/3K4/8/6R1 w - - 149 100"))
    >>> _ = h.push_san("Rg2")
    >>> seventyfive_moves(h).article
    '9.6.2'
    """
    end = _ends(history)[2]
    return None if end is None else F.ruling(end)


def automatic_end(history: History, dead_test: DeadTest | None = None) -> Ruling | None:
    """The automatic end of the game in the current position, if any, in the
    order of precedence: 5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2.  ``dead_test``
    decides 5.2.2 (default: the history's own, whose answer the last push
    already has).

    >>> import chess
    >>> from remis.history import History
    >>> h = History(chess.Board("k7/8/1K6/8/8/8/8/7R w - - 149 100"))
    >>> _ = h.push_san("Rh8#")
    >>> automatic_end(h).termination    # mate on the 150th ply prevails (F10)
    'checkmate'
    """
    found = _worked_out(history, dead_test)
    if found is None:
        return None
    if found is not False:
        end = found[0]  # type: ignore[index]
        return None if end is None else F.ruling(end, history.where)
    mate, five, seventyfive = _ends(history)
    if mate is not None:
        return F.ruling(mate)
    dead = dead_position(history, dead_test)
    if dead is not None:
        return dead
    end = five or seventyfive
    return None if end is None else F.ruling(end, history.where)


def position_end(history: History, dead_test: DeadTest | None = None) -> Ruling | None:
    """The automatic ends that the position alone decides: 5.1.1, 5.2.1 and
    5.2.2 (the Laws before 1 July 2014 had no automatic 9.6 ends).

    >>> from remis.history import History
    >>> h = History()
    >>> for _ in range(4):
    ...     for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
    ...         _ = h.push_san(san)
    >>> position_end(h) is None, automatic_end(h).article
    (True, '9.6.1')
    """
    found = _worked_out(history, dead_test)
    if found is None:
        return None
    if found is not False:
        end = found[0]  # type: ignore[index]
        return None if end is None or end[1] not in _POSITION_ENDS else F.ruling(end)
    return checkmate_or_stalemate(history) or dead_position(history, dead_test)


#: an automatic-end rule: :func:`automatic_end` or :func:`position_end`
EndRule = Callable[["History", DeadTest | None], Ruling | None]


def end_rule(laws: Laws = CURRENT) -> EndRule:
    """The automatic ends under ``laws``: :func:`automatic_end`, or
    :func:`position_end` under the Laws before 1 July 2014.

    >>> from remis.laws import laws_for
    >>> end_rule().__name__, end_rule(laws_for("1985.05.01", "as-played")).__name__
    ('automatic_end', 'position_end')
    """
    return automatic_end if laws.automatic_repetition else position_end
