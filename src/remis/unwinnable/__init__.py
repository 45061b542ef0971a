"""Can this player still checkmate by any sequence of legal moves?

This decides the dead position (5.2.2: neither can), the flag fall (6.9), a
resignation (5.1.2), a second illegal move (7.5.5) and the rapid/blitz flag
claim (A.5.3).  The answer is a :class:`Verdict`: ``True`` with a helpmate line
as evidence, ``False`` with the reason, or ``None`` when a limit (or quick mode)
could not decide.  A ``False`` is a proof: never "cannot mate" where a
helpmate exists.

The engine is the compiled core (``remis._core``, Rust; how it works:
``docs/engine.md``): material, forced moves, the static proof of a blocked
structure, then, in full mode, steered helpmate searches and a visit of the
reachable positions best first by novelty, taking turns.  This module checks
the arguments, hands the board over as bitboards and words the core's
reasons (:mod:`remis.unwinnable.reasons`, from the templates of
:mod:`remis.reasons`, which the catalogues translate).  Budgets are counted in nodes, so
a verdict never depends on the machine's load (``max_seconds`` is an
explicit opt-in); full mode runs without the GIL and Ctrl-C stops it.  Under
:func:`limit` the searches share a request's budget
(:mod:`remis.unwinnable.budget`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from numbers import Integral, Real
from typing import Literal

import chess

from remis import _core
from remis.fen import illegal_reason
from remis.unwinnable.budget import Budget, Cancelled, budgeted, limit
from remis.unwinnable.reasons import found_text, reason_text, undecided_text

Mode = Literal["full", "quick"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "can ``color`` still checkmate?".

    ``value``: True (a helpmate exists, ``line`` holds one as UCI moves from
    the given position: evidence that replays to a mate), False (proved
    impossible, ``reason`` says why), None (undecided within the limits).
    ``method`` names the stage that decided: ``material``, ``forced``,
    ``static``, ``search`` (a steered helpmate search found the mate),
    ``visit`` (the breadth-first visit of the reachable positions found it:
    a shortest helpmate), ``exhaustive`` (every reachable position was
    visited, or every short line ends, and none is a mate) or ``undecided``.
    ``nodes`` counts the positions the searches generated.

    >>> v = can_checkmate(chess.Board("8/8/8/8/8/4k3/8/4K2B w - - 0 1"), chess.WHITE)
    >>> v.value, v.method, v.reason
    (False, 'material', 'insufficient material: White can never checkmate (K+B v K)')
    """

    color: chess.Color
    value: bool | None
    reason: str
    line: tuple[str, ...] = ()
    nodes: int = 0
    details: dict[str, object] = field(default_factory=dict)
    method: str = "undecided"

    def to_json(self) -> dict[str, object]:
        """JSON form: value, reason, helpmate line, deciding stage.

        >>> Verdict(chess.WHITE, False, "bare king", method="material").to_json()["line"] is None
        True
        """
        return {"value": self.value, "reason": self.reason,
                "line": list(self.line) if self.value else None, "method": self.method}


def _maker() -> Callable[[chess.Color, bool | None, str, tuple[str, ...], int,
                          dict[str, object], str], Verdict]:
    """A constructor of :class:`Verdict` that fills its slots directly: the
    frozen dataclass's ``__init__`` goes through ``object.__setattr__`` for
    each field, half the cost of a quick-mode question's Python side (the
    verdict stays frozen and equal to one built by ``__init__``)."""
    s0, s1, s2, s3, s4, s5, s6 = (getattr(Verdict, f.name).__set__ for f in fields(Verdict))
    new = object.__new__

    def make(color: chess.Color, value: bool | None, reason: str, line: tuple[str, ...],
             nodes: int, details: dict[str, object], method: str) -> Verdict:
        v = new(Verdict)
        s0(v, color)
        s1(v, value)
        s2(v, reason)
        s3(v, line)
        s4(v, nodes)
        s5(v, details)
        s6(v, method)
        return v

    return make


_make = _maker()


def check_position(board: chess.Board) -> None:
    """Raise :class:`ValueError` naming the defect when ``board`` is not a
    legal chess position (both kings in check, pawns on the back rank, the
    side not to move in check, ...).

    >>> check_position(chess.Board("4k3/8/8/8/8/8/8/4K2r b - - 0 1"))
    Traceback (most recent call last):
    ...
    ValueError: illegal position: the side not to move is in check (4k3/8/8/8/8/8/8/4K2r b - - 0 1)
    """
    reason = illegal_reason(board)
    if reason is not None:
        raise ValueError(f"illegal position: {reason} ({board.fen()})")


def _check_arguments(board: object, color: object, max_nodes: object,
                     max_seconds: object) -> None:
    """Raise :class:`TypeError` or :class:`ValueError` naming the argument
    of :func:`can_checkmate` that is of the wrong kind or out of range.

    >>> _check_arguments(chess.Board(), "white", None, None)
    Traceback (most recent call last):
    ...
    TypeError: color must be chess.WHITE or chess.BLACK (a bool), not 'white'
    >>> _check_arguments(chess.Board(), chess.WHITE, 0, None)
    Traceback (most recent call last):
    ...
    ValueError: max_nodes must be at least 1, not 0
    """
    if not isinstance(board, chess.Board):
        raise TypeError(f"board must be a chess.Board, not {type(board).__name__} "
                        "(for a FEN, pass chess.Board(fen))")
    if not isinstance(color, bool):
        raise TypeError(f"color must be chess.WHITE or chess.BLACK (a bool), not {color!r}")
    if max_nodes is not None and (not isinstance(max_nodes, Integral)
                                  or isinstance(max_nodes, bool) or max_nodes < 1):
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes!r}")
    if max_seconds is not None and not (isinstance(max_seconds, Real)
                                        and float(max_seconds) > 0):
        raise ValueError(f"max_seconds must be above 0, not {max_seconds!r}")


def _ask(board: chess.Board, color: chess.Color, quick: bool, max_nodes: int | None,
         max_seconds: float | None, castling: int) -> _core.CoreVerdict:
    """The core's answer, the board given as python-chess's bitboards."""
    white = board.occupied_co[True]
    return _core.can_checkmate(
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        white, board.occupied ^ white, board.turn, castling, board.ep_square, board.chess960,
        board.halfmove_clock, board.fullmove_number, color, quick, max_nodes, max_seconds)


@budgeted
def can_checkmate(board: chess.Board, color: chess.Color, *, mode: Mode = "full",
                  max_nodes: int | None = None, max_seconds: float | None = None) -> Verdict:
    """Can ``color`` checkmate the opponent by any sequence of legal moves
    (both sides cooperating)?

    Full mode decides (True with a helpmate line, or False with a proof)
    unless ``max_nodes`` (default: the core's budget, a few million
    positions) or ``max_seconds`` runs out; quick mode spends a few thousand
    nodes at most and otherwise answers None.  Raises :class:`ValueError` on
    an illegal position, :class:`TypeError` on arguments of the wrong kind.

    >>> can_checkmate(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK).reason
    'insufficient material: Black has a bare king (K+Q v K)'
    >>> v = can_checkmate(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    >>> v.value, len(v.line) > 0
    (True, True)
    >>> can_checkmate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
    ...               chess.WHITE).method
    'static'
    """
    if mode != "full" and mode != "quick":
        raise ValueError(f"unknown mode {mode!r}: use 'full' or 'quick'")
    if (max_nodes is not None or max_seconds is not None or color.__class__ is not bool
            or not isinstance(board, chess.Board)):
        _check_arguments(board, color, max_nodes, max_seconds)
    quick = mode == "quick"
    try:
        answer = _ask(board, color, quick, max_nodes, max_seconds, board.castling_rights)
    except (ValueError, OverflowError) as exc:  # (a clock beyond what the core holds)
        refused = str(exc)
    else:
        return verdict_from_core(board, color, answer)
    check_position(board)  # refused: say why in words
    try:  # python-chess trusts the castling rights of a board with moves played
        answer = _ask(board, color, quick, max_nodes, max_seconds,
                      board.clean_castling_rights())
    except ValueError:
        raise ValueError(f"illegal position: {refused} ({board.fen()})") from None
    return verdict_from_core(board, color, answer)


def verdict_from_core(board: chess.Board | Callable[[], chess.Board], color: chess.Color,
                      answer: _core.CoreVerdict) -> Verdict:
    """The :class:`Verdict` of the core's answer on ``board`` (see :func:`_ask`;
    ``remis game`` gets the same answers with its facts).  ``board`` may be a
    function that builds it: only the words of a "cannot" read the board, so
    a helpmate found needs none.

    >>> answer = (False, "material", 0, [], 0, "material:bare_king", [], [], None)
    >>> verdict_from_core(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK,
    ...                   answer).reason
    'insufficient material: Black has a bare king (K+Q v K)'
    """
    value, method, nodes, moves, forced, code, numbers, example, proof = answer
    if value:
        line = tuple(moves)
        return _make(color, True, found_text(color, line), line, nodes, {}, method)
    if code == "undecided:quick":  # the common case: after almost every ply of a game
        return _make(color, None, undecided_text(code, nodes), (), nodes, {}, method)
    if not isinstance(board, chess.Board):
        board = board()
    text, details = reason_text(board, color, nodes, moves[:forced], code, numbers, example,
                                proof)
    return _make(color, value, text, (), nodes, details, method)


def is_dead_position(board: chess.Board, *, mode: Mode = "full") -> bool:
    """True when neither side can checkmate by any sequence of legal moves
    (Article 5.2.2).  Only a proof makes it True.

    >>> is_dead_position(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    True
    >>> is_dead_position(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
    True
    """
    return all(can_checkmate(board, c, mode=mode).value is False for c in chess.COLORS)


__all__ = ["Budget", "Cancelled", "Mode", "Verdict", "can_checkmate", "check_position",
           "is_dead_position", "limit", "verdict_from_core"]
