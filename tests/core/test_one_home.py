"""Position identity (9.2.3) and insufficient material (5.2.2) have one
implementation each, the core's; the public answers are pinned here against
python-chess's own (its transposition key and ``is_insufficient_material``),
and the history, the rules and the dead tests give the same ones."""

from __future__ import annotations

import itertools
import random

import chess
import pytest

from remis import position_key
from remis.history import History
from remis.material import describe_material, insufficient_material, material_dead_test
from remis.rules import automatic_end
from remis.unwinnable.deadtest import EngineDeadTest
from remis.unwinnable.moves import search_key

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",  # the en passant capture would expose the king
    "4k3/8/8/1b6/3pP3/8/5K2/8 b - e3 0 1",  # the capturer is pinned
]


def walk(fen: str, seed: int, plies: int = 40) -> list[chess.Board]:
    rng = random.Random(seed)
    board = chess.Board(fen)
    out = [board.copy()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        out.append(board.copy())
    return out


def test_the_identity_is_fide_s_and_python_chess_s() -> None:
    # python-chess's repetition key keeps the en passant square only where the
    # capture is legal, the castling rights as they stand: 9.2.3's "same moves"
    boards = [b for fen in STARTS for seed in range(6) for b in walk(fen, seed)]
    keys = {}
    for b in boards:
        # private in python-chess, but it is what its is_repetition compares
        keys.setdefault(b._transposition_key(), set()).add(tuple(position_key(b)))
    assert all(len(k) == 1 for k in keys.values())
    assert len({k for ks in keys.values() for k in ks}) == len(keys)


def test_the_history_keys_positions_as_the_public_identity() -> None:
    for fen in STARTS:
        for seed in range(4):
            boards = walk(fen, seed)
            h = History(boards[0])
            for before, after in itertools.pairwise(boards):
                h.push(after.peek())
                assert h.key() == position_key(after), (before.fen(), after.peek())
                assert h.fen() == after.fen()


@pytest.mark.parametrize(("with_ep", "without", "same"), [
    # exd6 is illegal (the pawn is pinned): the square is no part of the identity
    ("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", "1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2", True),
    # exd6 is legal: the positions differ (9.2.3.1)
    ("1n4k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", "1n4k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2", False),
    # no pawn can take: python-chess sets the square after every double step
    ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", True),
    # a castling right lost is another position
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", False),
])
def test_the_public_identity(with_ep: str, without: str, same: bool) -> None:
    assert (position_key(chess.Board(with_ep)) == position_key(chess.Board(without))) is same


def test_the_search_key_is_another_key_on_purpose() -> None:
    # where a pawn attacks the square but the capture is illegal, the search key
    # (cheap, never takes two positions for one) keeps it; FIDE's identity does not
    pinned, plain = (chess.Board("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2"),
                     chess.Board("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2"))
    assert position_key(pinned) == position_key(plain)
    assert search_key(pinned) != search_key(plain)


def random_sparse(rng: random.Random) -> chess.Board:
    """Kings and a few minor pieces (sometimes a pawn, rook or queen) on random squares."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 8)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:2 + rng.randint(0, 4)]:
            kind = rng.choice([chess.BISHOP] * 4 + [chess.KNIGHT] * 3 + [chess.PAWN, chess.ROOK,
                                                                          chess.QUEEN])
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def test_insufficient_material_is_python_chess_s() -> None:
    rng = random.Random(11)
    dead = 0
    for _ in range(3000):
        board = random_sparse(rng)
        expected = board.is_insufficient_material()
        assert (insufficient_material(board) is not None) is expected, board.fen()
        verdict = material_dead_test(board)
        assert (verdict is not None) is expected
        if verdict is not None:
            dead += 1
            assert verdict.reason == describe_material(board)
            # the history's end at its start, the engine's per-move test: the same answer
            end = automatic_end(History(board))
            assert end is not None and end.params["material"] == verdict.reason
            assert EngineDeadTest()(board) == verdict
    assert 200 < dead < 2900


@pytest.mark.parametrize(("fen", "material"), [
    ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "K v K"),
    ("8/8/8/4k3/8/8/8/K2n4 w - - 0 1", "K v K+N"),
    ("8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1", None),  # bishops on both colours: a mate exists
    ("8/8/3k4/8/3b4/8/3B4/4K3 w - - 0 1", "K+B v K+B"),  # one colour
    ("8/8/8/4k3/8/2n5/8/K6Q w - - 0 1", None),  # K+Q v K+N: White can mate
])
def test_the_material_cases(fen: str, material: str | None) -> None:
    assert insufficient_material(chess.Board(fen)) == material


def test_an_illegal_position_still_has_its_material_read() -> None:
    # the side not to move in check (an illegal move that stood, A.5.4): the
    # material cases do not depend on whose move it is
    board = chess.Board("8/8/8/4k3/3B4/8/8/4K3 w - - 0 1")
    assert not board.is_valid() and board.is_insufficient_material()
    assert insufficient_material(board) == "K+B v K"
    assert insufficient_material(chess.Board("8/4P3/8/8/8/k7/8/4K3 w - - 0 1")) is None
