"""The reference for the engine's "cannot": a slow, obviously correct visit
of every position reachable from a board, with python-chess's move generation
alone (it shares no code with the compiled core).

A position is identified as the Laws count it (9.2.2): placement, side to
move, castling rights, and an en passant square only where a capture there
is legal.  Positions where the would-be winner has a bare king are not
expanded (no mate can follow).  The visit is breadth-first, so the mate it
finds is a shortest one.
"""

from __future__ import annotations

import chess


def key(board: chess.Board) -> tuple[str, bool, int, int | None]:
    """A position as the Laws count it."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return board.board_fen(), board.turn, board.castling_rights, ep


def helpmate_exists(board: chess.Board, color: chess.Color, cap: int) -> bool | None:
    """True when ``color`` can checkmate from ``board`` by some sequence of
    legal moves, False when no reachable position is such a mate, None when
    more than ``cap`` positions are reachable (nothing known)."""
    return _visit(board, color, cap)[0]


def shortest_helpmate(board: chess.Board, color: chess.Color,
                      cap: int) -> tuple[str, ...] | None:
    """A shortest helpmate (UCI moves) by ``color``, or None when there is
    none within ``cap`` reachable positions."""
    return _visit(board, color, cap)[1]


def _visit(board: chess.Board, color: chess.Color,
           cap: int) -> tuple[bool | None, tuple[str, ...] | None]:
    seen = {key(board)}
    frontier: list[tuple[str, tuple[str, ...]]] = [(board.fen(), ())]
    b = chess.Board()
    if board.chess960:
        b.chess960 = True
    while frontier:
        later = []
        for fen, line in frontier:
            b.set_fen(fen)
            if b.is_checkmate():
                if b.turn != color:
                    return True, line
                continue
            if not b.occupied_co[color] & ~b.kings:
                continue
            for move in list(b.legal_moves):
                b.push(move)
                k = key(b)
                if k not in seen:
                    seen.add(k)
                    later.append((b.fen(), (*line, move.uci())))
                b.pop()
            if len(seen) > cap:
                return None, None
        frontier = later
    return False, None
