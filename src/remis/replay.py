"""Replay a whole game and collect its rulings: the first automatic end under
the Laws and every correct claim the player to move could have made.

The replay is the core's (``remis._core``), the one ``remis game`` and the
audit run: the moves are handed over in one piece, and the rulings come back
as facts that :mod:`remis.facts` turns into :class:`~remis.ruling.Ruling` and
:class:`~remis.ruling.Claim` objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import chess

from remis import facts as F
from remis.game import ClaimMode, GameError, dead_mode, game_text
from remis.history import History
from remis.laws import CURRENT, Laws, claim_moves
from remis.rules import DeadTest, material_dead_test
from remis.ruling import Claim, Ruling


@dataclass
class GameReport:
    """What the Laws say about one game.

    ``end`` is the first automatic end (or None), ``claims`` the correct claims
    by ply, ``error`` the first unreadable/illegal move, ``plies`` the number of
    plies replayed (the moves after ``end`` included); ``history`` is the
    game's history at its last position (to ask the rules about it).

    >>> moves = [chess.Move.from_uci(u) for u in "f2f3 e7e5 g2g4 d8h4".split()]
    >>> r = replay(moves)
    >>> r.plies, r.end.termination, r.end.result, r.claims, r.error
    (4, 'checkmate', '0-1', [], None)
    """

    plies: int
    end: Ruling | None
    claims: list[Claim]
    error: GameError | None = None
    history: History | None = field(default=None, repr=False)
    extra: dict[str, Any] = field(default_factory=dict)


def replay(
    moves: Iterable[chess.Move],
    board: chess.Board | None = None,
    *,
    claims: ClaimMode = "all",
    dead_test: DeadTest = material_dead_test,
    validated: bool = False,
    laws: Laws = CURRENT,
    history: History | None = None,
) -> GameReport:
    """Replay ``moves`` from ``board`` (default: the initial position).

    Each move is checked and the first illegal one is reported as ``error``
    (``validated`` is accepted for callers that know the moves are legal;
    the check costs the core next to nothing).  ``laws`` decides the
    automatic ends (all of 5.1.1, 5.2.1, 5.2.2, 9.6.1 and 9.6.2; no 9.6 ends
    under the Laws before July 2014) and the 9.3 count (the Laws of a date
    had longer ones for some endings).  ``dead_test`` is one the core runs:
    :func:`~remis.rules.material_dead_test` (the default), the engine's
    (:func:`~remis.unwinnable.deadtest.engine_dead_test`,
    :class:`~remis.unwinnable.deadtest.EngineDeadTest`); any other raises
    TypeError.  A fresh ``history`` may be passed instead of ``board``:
    ``moves`` can then be a generator that reads each move off
    ``history.board`` (e.g. parses SAN) as the replay reaches it, and the
    history ends in the last position.

    >>> moves = [chess.Move.from_uci(u) for u in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()]
    >>> r = replay(moves)
    >>> r.end is None, [(c.ply, c.article) for c in r.claims]
    (True, [(7, '9.2.1'), (8, '9.2.2'), (8, '9.2.1')])
    """
    from remis import _core

    dead = dead_mode(dead_test)
    if history is not None:
        start = history.board.copy(stack=False)
        played = list(_played(moves, history))
    else:
        start = chess.Board() if board is None else board
        played = list(moves)
    day = laws.day

    def count(placement: str) -> int:
        return claim_moves(day, placement)

    f = _core.rule_text(game_text(start, played), claims=claims, dead=dead,
                        last_position=False, time_forfeit=False, fens=False,
                        laws=lambda _: (laws.automatic_repetition,
                                        None if day is None else count))
    at = F.where(f[16])
    end = None if f[5] is None else F.ruling(f[5], at)
    error = None if f[7] is None else GameError(f[7][0], f[7][1])
    if history is None:  # the game's history at its last position, for the rules
        history = History(start)
        for move in played[:f[4]]:
            history.push(move)
    return GameReport(f[4], end, [F.claim(c, laws, at=at) for c in f[6]], error, history)


def _played(moves: Iterable[chess.Move], history: History) -> Iterable[chess.Move]:
    """The moves, each played into ``history`` as it is read, up to and with
    the first illegal one (which the core then reports)."""
    for move in moves:
        yield move
        if not history.board.is_legal(move):
            return
        history.push(move)
