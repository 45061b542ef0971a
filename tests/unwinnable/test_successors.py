"""The width search's children computed from keys are python-chess's legal moves,
played with python-chess's own ``push``, in python-chess's order."""

from __future__ import annotations

import random

import chess
import pytest

from remis.unwinnable.successors import successors
from remis.unwinnable.width import (
    WidthSearch,
    _code,
    _moved_atoms,
    _parent_facts,
    atoms,
    pack,
    unpack,
)

FENS = [
    "8/1P4k1/8/3p4/2P1N3/8/5p2/K7 w - - 0 1",           # promotions, a knight
    "8/1P4k1/8/3p4/2P1N3/8/5p2/K7 b - - 0 1",
    "1n2k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1",             # promotions with captures
    "4k3/8/8/1b6/8/8/3P4/4K3 w - - 0 1",                # a pinned pawn
    "4k3/4r3/8/8/4B3/8/4N3/4K3 w - - 0 1",              # a piece pinned on its line
    "q3k3/8/8/8/8/8/8/3RK3 w - - 0 1",
    "4k3/2p5/8/3P4/8/8/8/4K3 b - - 0 1",                # a double step the capture may use
    "4k3/8/8/8/5p2/8/4P1P1/4K3 w - - 0 1",
    "8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1",  # a pawn wall
    "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1",  # CHA test vectors
    "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1",
    "r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w - - 0 8",
]


def _expected(board: chess.Board) -> list[tuple[int, int]]:
    out = []
    for move in board.generate_legal_moves():
        child = board.copy(stack=False)
        child.push(move)
        out.append((pack(child), _code(move)))
    return out


def test_successors_are_python_chess_moves_played_by_push() -> None:
    rng = random.Random(13)
    compared = declined = 0
    seen = {"capture": 0, "promotion": 0, "ep right": 0, "pinned": 0}
    for fen in FENS:
        for _ in range(6):
            board = chess.Board(fen)
            for _ply in range(40):
                key = pack(board)
                got = successors(board, key)
                if got is None:
                    declined += 1
                    assert (board.is_check() or board.castling_rights
                            or key >> 449 & 127), board.fen()
                else:
                    assert got == _expected(board), board.fen()
                    assert pack(board) == key  # the board is left alone
                    compared += 1
                    for move in board.generate_legal_moves():
                        seen["capture"] += board.is_capture(move)
                        seen["promotion"] += move.promotion is not None
                        seen["pinned"] += bool(board.is_pinned(board.turn, move.from_square))
                    seen["ep right"] += sum(1 for child, _ in got if child >> 449 & 127)
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                board.push(rng.choice(moves))
    assert compared > 1500 and declined > 20
    assert min(seen.values()) > 10, seen


def test_the_width_search_visits_the_same_positions_with_and_without_successors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the key arithmetic is only a faster way to the same children: the
    # search generates the same positions, from the same parents, in the
    # same order, and finds the same mate
    import remis.unwinnable.width as width

    def both(fen: str, color: chess.Color, nodes: int) -> tuple[WidthSearch, WidthSearch]:
        fast = WidthSearch(chess.Board(fen), color)
        fast.run(nodes)
        monkeypatch.setattr(width, "successors", lambda b, key: None)
        slow = WidthSearch(chess.Board(fen), color)
        slow.run(nodes)
        monkeypatch.undo()
        return fast, slow

    fast, slow = both("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", chess.BLACK, 500)
    assert fast.run(500).outcome == "mate" and fast.run(500).line == slow.run(500).line
    # few children a position (facts from each board) and many (facts moved
    # from the parent's, width._moved_atoms)
    for fen, color in (("1k6/1P1p1p1p/BP6/1P5p/8/8/3P1PKP/8 w - - 0 1", chess.BLACK),
                       ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", chess.WHITE)):
        fast, slow = both(fen, color, 5_000)
        assert fast.nodes == slow.nodes >= 5_000
        assert list(fast._parents.items()) == list(slow._parents.items())
        assert fast._open == slow._open
        assert fast._tables == slow._tables


def test_a_childs_facts_moved_from_its_parents_are_its_own() -> None:
    # width._moved_atoms: moves, captures (of each kind), promotions (to each
    # piece, with and without a capture), by both sides
    rng = random.Random(17)
    compared = promotions = captures = 0
    for fen in FENS:
        for _ in range(4):
            board = chess.Board(fen)
            for _ply in range(40):
                kids = successors(board, pack(board))
                winner = rng.choice(chess.COLORS)  # (the loser's pawns are facts)
                if kids is not None:
                    parent = _parent_facts(board, winner)
                    for child, code in kids:
                        to = chess.Board(None)
                        unpack(to, child)
                        assert _moved_atoms(parent, code) == atoms(to, winner), to.fen()
                        compared += 1
                        promotions += code >> 12 > 0
                        captures += bool(board.occupied_co[not board.turn] >> (code >> 6 & 63) & 1)
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                board.push(rng.choice(moves))
    assert compared > 5000 and promotions > 50 and captures > 200
