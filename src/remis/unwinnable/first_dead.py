"""The first dead position of a finished game, found from its end.

The per-ply test of :mod:`remis.unwinnable.deadtest` must cost almost
nothing, so it looks only at the positions where real games go dead (closed
pawn structures, a heavy piece behind a wall, forced moves in check); a
dead position elsewhere (on the CHA test vectors, 343 of the 806 positions
where neither side can mate are no such candidate) lets the game go on.
Once the whole record is known, one question settles it: a position where
neither side can mate can only lead to such positions, so if any position
of the game was dead, the last one is too.  Where full mode proves the last
position dead, a binary search over the plies (about log2 of their number
full-mode questions, each asked of one position) finds the first that full
mode proves dead, and the game ended there (Article 5.2.2).

A position the search calls not dead was not *proved* dead: full mode may
have been undecided on it, so the ply found can be later than the first
dead one, never earlier (a game is never ended on an unproved draw).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import NamedTuple

import chess

from remis.rules import DeadTest, DeadVerdict, material_dead_test
from remis.unwinnable import Verdict, can_checkmate
from remis.unwinnable.deadtest import dead_verdict

__all__ = ["FirstDead", "first_dead", "full_dead_test", "positions"]


def full_dead_test(board: chess.Board, *, max_nodes: int | None = None,
                   mate_test: Callable[[chess.Board, chess.Color], Verdict] | None = None,
                   ) -> DeadVerdict | None:
    """A :data:`~remis.rules.DeadTest` that asks full mode (default budgets,
    or ``max_nodes``; or ``mate_test`` in its place, e.g. the live
    arbiter's, which may run it in a worker process) for both colours,
    White first, and stops at the first that is not a proof:
    ``insufficient_material`` for the material cases, ``dead_position`` on
    two proofs, else None.  As costly as full mode: for a game's last
    position, not for every ply.

    >>> full_dead_test(chess.Board("k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1")).termination
    'dead_position'
    >>> full_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> full_dead_test(chess.Board()) is None
    True
    """
    material = material_dead_test(board)
    if material is not None:
        return material
    ask = mate_test if mate_test is not None else partial(can_checkmate, max_nodes=max_nodes)
    white = ask(board, chess.WHITE)
    if white.value is not False:
        return None
    black = ask(board, chess.BLACK)
    if black.value is not False:
        return None
    return dead_verdict(white, black)


def positions(board: chess.Board, moves: Sequence[chess.Move]) -> list[chess.Board]:
    """The positions of a game from ``board`` through ``moves`` (legal, in
    order): ``len(moves) + 1`` boards without move stacks, the one after ``k``
    plies at index ``k``.

    >>> ps = positions(chess.Board(), [chess.Move.from_uci("e2e4")])
    >>> len(ps), ps[1].fen()
    (2, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')
    """
    b = board.copy(stack=False)
    out = [b.copy(stack=False)]
    for move in moves:
        b.push(move)
        out.append(b.copy(stack=False))
    return out


class FirstDead(NamedTuple):
    """Where a game went dead: after ``ply`` plies, in ``board``, proved by
    ``verdict``."""

    ply: int
    verdict: DeadVerdict
    board: chess.Board


def first_dead(board: chess.Board, moves: Sequence[chess.Move], *,
               last: chess.Board | None = None,
               max_nodes: int | None = None, test: DeadTest | None = None,
               ) -> FirstDead | None:
    """For the game from ``board`` through ``moves`` (legal, in order; the
    position after them is ``last`` when the caller has it): None unless
    that last position is proved dead (by ``test``, default
    :func:`full_dead_test` with ``max_nodes``), else the first position,
    found by a binary search over the plies, that is proved dead (the
    start position counts: a game set up in a dead position has ended).

    >>> b = chess.Board("8/2p5/1pP5/1P6/1P6/KP6/PP6/1Nk5 b - - 0 1")  # 1... Kxb1: dead
    >>> moves = [chess.Move.from_uci(u) for u in ("c1b1", "a3a4", "b1c2", "a4a3")]
    >>> found = first_dead(b, moves)
    >>> found.ply, found.verdict.termination, found.board.fen()
    (1, 'dead_position', '8/2p5/1pP5/1P6/1P6/KP6/PP6/1k6 w - - 0 2')
    >>> first_dead(chess.Board(), [chess.Move.from_uci("e2e4")]) is None
    True
    >>> first_dead(chess.Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1"), []).ply
    0
    """
    dead: DeadTest = test if test is not None else partial(full_dead_test, max_nodes=max_nodes)
    boards = None
    if last is None:
        boards = positions(board, moves)
        last = boards[-1]
    found = _proved_dead(last, dead)
    if found is None:
        return None
    if boards is None:
        boards = positions(board, moves)
    lo, hi = 0, len(boards) - 1  # boards[hi] is proved dead
    while lo < hi:
        mid = (lo + hi) // 2
        verdict = _proved_dead(boards[mid], dead)
        if verdict is None:
            lo = mid + 1
        else:
            hi, found = mid, verdict
    return FirstDead(hi, found, boards[hi])


def _proved_dead(board: chess.Board, test: DeadTest) -> DeadVerdict | None:
    """``test(board)``, None for a position the engine refuses (a start
    position set up with a double check no move can give, say: the replay
    itself does not need it legal)."""
    try:
        return test(board)
    except ValueError:
        return None
