"""remis.san.parse_san reads every SAN exactly as python-chess does: the same
move, or the same error, in every position (its shortcuts must never differ)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.pgn import read_games
from remis.san import parse_san

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pPp2ppp/8/2Pp4/4P3/8/P1p2PPP/R3K2R w KQkq d6 0 1",   # ep, promotions, castling
    "4k3/8/8/1q6/8/3N4/4K3/8 w - - 0 1",                          # a pinned knight
    "4k3/8/8/8/1b6/8/3P1N1N/4K3 w - - 0 1",                        # pinned pawn, two knights
    "4r1k1/8/8/8/8/8/3N1N2/4K3 w - - 0 1",                        # in check: evasions only
    "1k6/8/8/3Q1Q2/8/3Q4/8/K7 w - - 0 1",                         # three queens
]


def _variants(san: str) -> set[str]:
    """The SAN as written and the sloppy forms PGN files contain."""
    bare = san.rstrip("+#")
    return {san, bare, bare + "+", san.replace("x", ""), bare[1:] if len(bare) > 2 else bare,
            "x" + bare, bare + "#", bare.lower()}


def _both(board: chess.Board, san: str) -> tuple[object, object]:
    try:
        ref: object = board.parse_san(san)
    except ValueError as exc:
        ref = (type(exc), str(exc))
    try:
        got: object = parse_san(board, san)
    except ValueError as exc:
        got = (type(exc), str(exc))
    return ref, got


def _check_position(board: chess.Board) -> None:
    tokens = {t for m in board.legal_moves for t in _variants(board.san(m))}
    tokens |= {f"{p}{sq}" for p in ("", "N", "B", "R", "Q", "K", "ex", "dx")
               for sq in ("a1", "d1", "e4", "d5", "e8", "h8", "c6", "f2")}
    for t in sorted(tokens):
        ref, got = _both(board, t)
        assert ref == got, (board.fen(), t)


@pytest.mark.parametrize("fen", STARTS)
def test_same_as_python_chess_in_awkward_positions(fen: str) -> None:
    _check_position(chess.Board(fen))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(min_value=0, max_value=200), max_size=40))
def test_same_as_python_chess_along_random_games(fen: str, picks: list[int]) -> None:
    board = chess.Board(fen)
    for pick in picks:
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[pick % len(legal)])
    _check_position(board)


def test_same_as_python_chess_on_real_games(shared_data: Path) -> None:
    n = 0
    for g in read_games(shared_data / "masters" / "Fischer.pgn"):
        if g.board is None:
            continue
        board = g.board.copy()
        for move in g.moves[:60]:
            san = board.san(move)
            for t in _variants(san):
                ref, got = _both(board, t)
                assert ref == got, (board.fen(), t)
            assert parse_san(board, san) == move
            board.push(move)
            n += 1
    assert n > 10_000
