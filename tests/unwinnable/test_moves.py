"""The searches' move machinery agrees with python-chess: make/restore, legality, the
class-by-class generator, evasions and the check filter."""

from __future__ import annotations

import random
from collections.abc import Iterator

import chess

from remis.unwinnable.moves import (
    attacked,
    attacked_squares,
    attackers,
    fast_ok,
    legal_moves,
    legality_test,
    make,
    position_key,
    restore,
)
from remis.unwinnable.search import HelpmateSearch, _may_check

FENS = [
    chess.STARTING_FEN,
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",      # castling both ways, promotions
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",              # en passant
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",               # en passant skewered on the rank
    "4k3/8/8/1b6/3pP3/8/5K2/8 b - e3 0 1",            # en passant, the capturer pinned
    "r3k2r/8/8/8/1b6/8/3N4/R3K2R w KQkq - 0 1",       # a pinned knight, castling
]


def test_make_matches_push_on_random_walks() -> None:
    rng = random.Random(7)
    checked = 0
    for fen in FENS:
        for _ in range(5):
            board = chess.Board(fen)
            assert fast_ok(board)
            for _ply in range(40):
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                key = position_key(board)
                for move in moves:
                    pushed = board.copy(stack=False)
                    pushed.push(move)
                    make(board, move)
                    assert position_key(board) == position_key(pushed), (board.fen(), move)
                    restore(board, key)
                    assert position_key(board) == key
                    checked += 1
                board.push(rng.choice(moves))
    assert checked > 5000


def test_the_searches_legality_test_matches_python_chess() -> None:
    # every pseudo-legal move out of check, on random walks: the searches'
    # test (legality_test) and python-chess's (_is_safe) agree
    rng = random.Random(11)
    checked = illegal = 0
    for fen in FENS:
        for _ in range(5):
            board = chess.Board(fen)
            for _ply in range(40):
                king = board.king(board.turn)
                assert king is not None
                if not board.is_check():
                    safe = legality_test(board)
                    blockers = board._slider_blockers(king)
                    for move in board.generate_pseudo_legal_moves():
                        expected = board._is_safe(king, blockers, move)
                        assert safe(king, blockers, move) == expected, (board.fen(), move)
                        checked += 1
                        illegal += not expected
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                board.push(rng.choice(moves))
    assert checked > 5000 and illegal > 100


def test_positions_that_differ_only_by_an_unusable_en_passant_square_are_one() -> None:
    # python-chess sets the square after every double step; the searches
    # keep it only where a pawn of the side to move attacks it
    walked = unusable = 0
    rng = random.Random(5)
    for fen in FENS:
        board = chess.Board(fen)
        for _ply in range(60):
            moves = list(board.generate_legal_moves())
            if not moves:
                break
            board.push(rng.choice(moves))
            plain = board.copy(stack=False)
            plain.ep_square = None
            key = position_key(board)
            if board.ep_square is None:
                continue
            walked += 1
            if key == position_key(plain):
                unusable += 1
                assert set(board.generate_legal_moves()) == set(plain.generate_legal_moves())
                assert not board.has_legal_en_passant()
            else:
                assert key[9] == board.ep_square
    assert unusable > 5
    # a pawn that could capture keeps the square, even where the capture
    # would be illegal (the key is on the safe side: never two positions
    # with different moves taken for one)
    for fen in ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"):
        board = chess.Board(fen)
        assert position_key(board)[9] == board.ep_square is not None


def test_fast_path_refuses_unclean_castling_rights() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1")  # rights without rooks
    assert not fast_ok(board)


def test_the_moves_generated_class_by_class_are_those_of_the_classifying_filter() -> None:
    # out of check, HelpmateSearch._generated (remis.unwinnable.ordered)
    # gives the moves, costs and order of _classify over python-chess's
    # pseudo-legal moves, for both would-be winners, several corners, with
    # and without free pawn moves, on random walks (castlings, en passant,
    # promotions, captures of every kind)
    rng = random.Random(5)
    compared = 0
    kinds: set[int] = set()
    fens = [*FENS, "8/1P4k1/8/3p4/2P1N3/8/5p2/K7 w - - 0 1",  # promotions, a knight
            "r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
            "960:bqrkrnnb/pppppppp/8/8/8/8/PPPPPPPP/BQRKRNNB w KQkq - 0 1"]  # Chess960 castling
    for fen in fens:
        for _ in range(3):
            board = (chess.Board(fen[4:], chess960=True) if fen.startswith("960:")
                     else chess.Board(fen))
            for _ply in range(30):
                if not board.is_check():
                    for color in chess.COLORS:
                        for corner in (None, chess.A1, chess.H8):
                            for pawns in (False, True):
                                s = HelpmateSearch(board, color, corner=corner, pawns=pawns)
                                old = list(s._classify(board.generate_pseudo_legal_moves()))
                                new = list(s._generated())
                                assert new == old, (board.fen(), color, corner, pawns)
                                kinds.update(k for k, _ in new)
                                compared += 1
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                board.push(rng.choice(moves))
    assert compared > 2000 and kinds == {0, 1, 2}


def _walks(fens: list[str], runs: int, plies: int, seed: int,
           prefer_checks: bool = False) -> Iterator[tuple[chess.Board, list[chess.Move]]]:
    """Each position of ``runs`` random walks of up to ``plies`` plies from
    each FEN, with its legal moves (checking moves preferred if asked)."""
    rng = random.Random(seed)
    for fen in fens:
        for _ in range(runs):
            board = chess.Board(fen)
            for _ply in range(plies):
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                yield board, moves
                checking = [m for m in moves if board.gives_check(m)] if prefer_checks else []
                board.push(rng.choice(checking or moves))


def test_the_searches_evasions_are_python_chess_legal_moves_in_check() -> None:
    # in check, HelpmateSearch._evasions (python-chess's evasions, the
    # search's legality test) gives python-chess's legal moves in its order
    checks = 0
    fens = [*FENS, "4k3/8/8/1b6/3pP3/8/5K2/8 b - e3 0 1", "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1"]
    for board, moves in _walks(fens, 8, 60, seed=3, prefer_checks=True):
        king = board.king(board.turn)
        checkers = board.checkers_mask()
        if checkers and king is not None:
            s = HelpmateSearch(board, chess.WHITE)
            s._is_safe = legality_test(board)
            assert s._evasions(king, checkers) == moves, board.fen()
            assert s._evasions(king, checkers, first=True) == moves[:1]
            checks += 1
    assert checks > 300


def test_the_searches_check_filter_lets_every_checking_move_through() -> None:
    # _may_check is a necessary condition: every legal move that gives check
    # passes it, kings on the edge included (a rook to a8 with the king on e8)
    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert _may_check(board, chess.Move.from_uci("a1a8"), chess.E8)
    checks = 0
    for board, moves in _walks(FENS, 5, 50, seed=9):
        king = board.king(not board.turn)
        assert king is not None
        for move in moves:
            if board.gives_check(move):
                assert _may_check(board, move, king), (board.fen(), move)
                checks += 1
    assert checks > 200


def test_legal_moves_are_python_chess_legal_moves_in_its_order() -> None:
    # remis.unwinnable.moves.legal_moves (the width search's generator): the
    # same moves in the same order as generate_legal_moves, in and out of
    # check, pins, en passant, castling; on a Chess960 board with _is_safe
    seen_check = 0
    fens = [*FENS, "4k3/8/8/1b6/3pP3/8/5K2/8 b - e3 0 1", "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1"]
    for board, moves in _walks(fens, 6, 60, seed=13, prefer_checks=True):
        assert legal_moves(board, legality_test(board)) == moves, board.fen()
        seen_check += board.is_check()
    board = chess.Board("bqrkrnnb/pppppppp/8/8/8/8/PPPPPPPP/BQRKRNNB w KQkq - 0 1",
                        chess960=True)
    rng = random.Random(2)
    for _ply in range(60):
        moves = list(board.generate_legal_moves())
        assert legal_moves(board, board._is_safe) == moves, board.fen()
        if not moves:
            break
        board.push(rng.choice(moves))
    assert seen_check > 100


def test_attacked_squares_are_the_squares_python_chess_finds_attackers_of() -> None:
    # the width search's danger map for king steps, and the helpmate
    # search's test of one square (a king's step, the king in check): square
    # by square, the same answer as attackers_mask, for both colours, on
    # random walks (sliders through and behind pieces, pawns on the edge
    # files, kings)
    fens = [*FENS, "3q1rk1/1b3ppp/8/8/2B5/8/5PPP/2Q2RK1 w - - 0 1",
            "k7/1b6/8/3q4/8/5N2/P6P/K1R5 b - - 0 1"]
    covered = 0
    for board, _moves in _walks(fens, 4, 50, seed=17, prefer_checks=False):
        for color in chess.COLORS:
            expected = 0
            for square in chess.SQUARES:
                mask = board.attackers_mask(color, square)
                hit = bool(mask)
                assert attacked(board, color, square) == hit, (board.fen(), color, square)
                assert attackers(board, color, square) == mask, (board.fen(), color, square)
                if hit:
                    expected |= chess.BB_SQUARES[square]
            assert attacked_squares(board, color) == expected, (board.fen(), color)
            covered += expected.bit_count()
    assert covered > 10_000
