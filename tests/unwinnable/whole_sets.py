"""The whole shared question sets in full mode, on every core.

The tests of :mod:`tests.unwinnable.test_shared_sets` put every question of
the CHA test vectors (1,803 positions, both colours) and of the lichess
unfair timeouts (88,387 positions, the side not to move) to full mode under
the default budgets.  The questions are independent, so they go to a pool of
processes, one per core; each answer comes back as the problems it shows
(a contradicted verdict, an undecided question, a helpmate line that does
not replay to a mate), so a failing test names every bad question, not only
the first.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

import chess

from remis.audit.run import available_cores
from remis.unwinnable import can_checkmate
from tests.unwinnable.helpers import mates

T = TypeVar("T")
R = TypeVar("R")


def on_every_core(fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
    """``map(fn, items)`` over a pool of one process per core (in order).
    The workers are forks of the test process where the system can fork:
    pytest imports the test modules without putting the project on
    ``sys.path`` (``--import-mode=importlib``), so a worker started afresh
    (spawn, forkserver) could not import ``fn``'s module by name.

    >>> list(on_every_core(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with ProcessPoolExecutor(max_workers=available_cores(), mp_context=context) as pool:
        yield from pool.map(fn, items, chunksize=chunksize)


def vector_problems(item: tuple[str, str]) -> list[str]:
    """The problems of one CHA test vector (expected marks, FEN): for each
    colour, full mode must decide as the mark says (``-`` cannot mate), and
    a "can mate" must come with a line that replays to a mate.

    >>> vector_problems(("W-", "8/8/8/8/8/8/8/KQk5 b - - 0 1"))
    []
    >>> vector_problems(("-W", "8/8/8/8/8/8/8/KQk5 b - - 0 1"))  # doctest: +ELLIPSIS
    ['... White: expected cannot mate, got True ...', '... Black: expected can mate, got False ...']
    """
    expected, fen = item
    board = chess.Board(fen)
    out = []
    for color, mark in ((chess.WHITE, expected[0]), (chess.BLACK, expected[1])):
        v = can_checkmate(board, color)
        want = mark != "-"
        name = "White" if color else "Black"
        if v.value is not want:
            out.append(f"{fen} {name}: expected {'can' if want else 'cannot'} mate, "
                       f"got {v.value} ({v.reason})")
        elif want and not mates(fen, color, v.line):
            out.append(f"{fen} {name}: the helpmate line does not mate: {' '.join(v.line)}")
    return out


def timeout_problems(lines: list[str]) -> tuple[list[str], int]:
    """The problems of a chunk of unfair timeouts (lines ``FEN game-id``):
    full mode must prove that the side NOT to move (the one that still had
    time) cannot mate, and quick mode must never say it can; with the
    number of questions quick mode decided.

    >>> timeout_problems(["8/8/8/8/8/8/8/KNk5 w - - 0 1 abcdefgh"])
    ([], 1)
    >>> for p in timeout_problems(["7k/8/6K1/8/8/8/8/R7 b - - 0 1 abcdefgh"])[0]:  # White can
    ...     print(p)  # doctest: +ELLIPSIS
    7k/8/6K1/8/8/8/8/R7 b - - 0 1: expected cannot mate, got True (White can mate: ...)
    7k/8/6K1/8/8/8/8/R7 b - - 0 1: quick mode says White can mate
    """
    out, quick_decided = [], 0
    for line in lines:
        fen = line.rsplit(" ", 1)[0]
        board = chess.Board(fen)
        color = not board.turn
        v = can_checkmate(board, color)
        if v.value is not False:
            out.append(f"{fen}: expected cannot mate, got {v.value} ({v.reason})")
        quick = can_checkmate(board, color, mode="quick")
        if quick.value is True:
            out.append(f"{fen}: quick mode says {'White' if color else 'Black'} can mate")
        quick_decided += quick.value is False
    return out, quick_decided
