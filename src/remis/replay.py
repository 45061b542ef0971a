"""Replay a whole game and collect its rulings: the first automatic end under
the Laws and every correct claim the player to move could have made.

This is the hot path of ``remis game`` and of the audit: it pushes each move
once and keeps the per-ply overhead to a few dictionary operations.  Checkmate
and stalemate are only looked for at the end of a *validated* move list, since
a position without legal moves cannot be followed by a legal move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import chess

from remis.game import ClaimMode, GameError
from remis.history import History
from remis.identity import position_key
from remis.rules import (
    DeadTest,
    automatic_end,
    checkmate_or_stalemate,
    claimable,
    fifty_claims,
    material_dead_test,
    threefold_claims,
)
from remis.ruling import Claim, Ruling

#: the identity of the standard initial position
_START_KEY = position_key(chess.Board())

#: the automatic-end rule a replay applies (default :func:`remis.rules.automatic_end`;
#: :func:`remis.rules.position_end` for Laws before the 2014 9.6)
EndRule = Callable[[History, DeadTest], Ruling | None]


@dataclass
class GameReport:
    """What the Laws say about one game.

    ``end`` is the first automatic end (or None), ``claims`` the correct claims
    by ply, ``error`` the first unreadable/illegal move, ``plies`` the number of
    plies replayed (the moves after ``end`` included).
    """

    plies: int
    end: Ruling | None
    claims: list[Claim]
    error: GameError | None = None
    history: History | None = field(default=None, repr=False)
    extra: dict[str, Any] = field(default_factory=dict)


class _LegalMoves:
    """The moves of a list up to the first illegal one (in the position the
    history has reached when each is asked for), which it keeps as ``error``."""

    def __init__(self, moves: Iterable[chess.Move], history: History) -> None:
        self.moves = iter(moves)
        self.history = history
        self.error: GameError | None = None

    def __iter__(self) -> Iterator[chess.Move]:
        return self

    def __next__(self) -> chess.Move:
        if self.error is not None:
            raise StopIteration
        move = next(self.moves)
        b = self.history.board
        if not b.is_legal(move):
            self.error = GameError(self.history.ply + 1, f"illegal move {move.uci()} in {b.fen()}")
            raise StopIteration
        return move


def replay(
    moves: Iterable[chess.Move],
    board: chess.Board | None = None,
    *,
    claims: ClaimMode = "all",
    dead_test: DeadTest = material_dead_test,
    validated: bool = False,
    end_rule: EndRule = automatic_end,
    history: History | None = None,
) -> GameReport:
    """Replay ``moves`` from ``board`` (default: the initial position).

    ``validated=True`` promises that every move is legal (as python-chess's
    PGN reader guarantees); otherwise each move is checked and the first
    illegal one is reported as ``error``.  ``end_rule`` decides the automatic
    ends (default: all of 5.1.1, 5.2.1, 5.2.2, 9.6.1 and 9.6.2).  A fresh
    ``history`` may be passed instead of ``board``: ``moves`` can then be a
    generator that reads each move off ``history.board`` (e.g. parses SAN)
    as the replay reaches it.

    >>> moves = [chess.Move.from_uci(u) for u in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()]
    >>> r = replay(moves)
    >>> r.end is None, [(c.ply, c.article) for c in r.claims]
    (True, [(7, '9.2.1'), (8, '9.2.2'), (8, '9.2.1')])
    """
    # forward only: moves played by bitboard updates, no python-chess move stack
    h = History(board, stack=False) if history is None else history
    b = h.board
    collect = claims != "none"
    first_only = claims == "first"
    seen: set[tuple[str, str]] = set()
    found: list[Claim] = []

    def add(cs: list[Claim]) -> None:
        for c in cs:
            if first_only:
                tag = (c.player, c.kind)
                if tag in seen:
                    continue
                seen.add(tag)
            found.append(c)

    end: Ruling | None = None
    if h.ply or b.halfmove_clock >= 99 or h.key() != _START_KEY:
        # (the initial position of a game, with its clock under 99, has no end
        # and allows no claim: nothing to look for)
        end = end_rule(h, dead_test)
        if end is None and collect:
            add(claimable(h))
    error: GameError | None = None
    push = h.push
    it = iter(moves) if validated else _LegalMoves(moves, h)
    # below these a ply needs only the dead-position test: no repetition count of
    # 3 (claims) or 5 (9.6.1), no clock of 99 (claims) or 150 (9.6.2), and no
    # position seen twice that an intended move could repeat (9.2.1)
    repeats, clock = (3, 99) if collect else (5, 150)
    candidates = h.repeat_candidates() if collect else []
    if end is None:
        for move in it:
            n = push(move)
            if n < repeats and b.halfmove_clock < clock and not candidates:
                if dead_test(b) is None:
                    continue
                end = end_rule(h, dead_test)  # the full order: a mate prevails
                if end is not None:
                    break
                continue
            if n >= 5 or b.halfmove_clock >= 150 or dead_test(b) is not None:
                end = end_rule(h, dead_test)
                if end is not None:
                    break
            if collect:
                if n >= 3 or candidates:
                    add(threefold_claims(h))
                if b.halfmove_clock >= 99:
                    add(fifty_claims(h))
    for move in it:  # the record goes on after the end: replayed, not ruled on
        push(move)
    if isinstance(it, _LegalMoves):
        error = it.error
    if end is None and h.ply > 0:
        # the other automatic ends were checked ply by ply
        end = checkmate_or_stalemate(h)
    return GameReport(h.ply, end, found, error, h)
