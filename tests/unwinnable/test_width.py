"""The best-first width search: deep helpmates found, proofs only when every
reachable position was visited, the same reachable positions as the
breadth-first visit."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.unwinnable import can_checkmate, width
from remis.unwinnable.moves import usable_ep
from remis.unwinnable.search import HelpmateSearch, Visit
from remis.unwinnable.width import WidthSearch, _flights, atoms, context, flights, pack, unpack
from tests.unwinnable.helpers import mates


def test_deep_helpmates_that_the_steered_search_misses() -> None:
    # CHA test vector: White's king is walled in on a1, its only piece a
    # dark bishop; Black must walk the king to h8 and put both bishops on
    # g8 and h7 while White spends tempo moves (27 plies and more)
    fen = "k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1"
    board = chess.Board(fen)
    assert HelpmateSearch(board, chess.WHITE, max_nodes=100_000).run().outcome == "limit"
    found = WidthSearch(board, chess.WHITE).run(100_000)
    assert found.outcome == "mate" and mates(fen, chess.WHITE, found.line)
    assert len(found.line) > 20
    assert board.fen() == fen  # the search works on its own copy


@pytest.mark.parametrize("fen,color", [
    # CHA test vectors that full mode left undecided before the width search
    ("8/8/8/3B4/8/6p1/1b4Pp/2b2k1K w - - 0 1", chess.WHITE),
    ("2B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - - 0 1", chess.WHITE),
    ("8/8/3k4/2p1p3/1pP1P3/1P2p1p1/4P1P1/1B1B1BRK w - - 0 1", chess.WHITE),
])
def test_full_mode_finds_them_with_the_width_search(fen: str, color: chess.Color) -> None:
    verdict = can_checkmate(chess.Board(fen), color)
    assert verdict.value is True and verdict.method == "width"
    assert mates(fen, color, verdict.line)


@pytest.mark.parametrize("fen,color", [
    # CHA vectors: the mate needs a pawn to pass and promote; ordered by
    # novelty and flights alone, the search took about 300,000, 450,000 and
    # 650,000 positions to find them
    ("8/3p1p1p/1p6/1P6/KP6/PP6/2PP1P1P/k7 w - - 0 1", chess.BLACK),
    ("1b1k4/p1p1p1p1/P1P1P1P1/p1p1pBp1/8/8/P1P1P1P1/3K4 w - - 0 1", chess.WHITE),
    ("bk6/8/p1p5/p1Pp3p/P1pPp1pP/2P1P1P1/8/K1B5 b - - 0 1", chess.WHITE),
])
def test_positions_nearer_a_promotion_go_first(fen: str, color: chess.Color) -> None:
    found = WidthSearch(chess.Board(fen), color).run(30_000)
    assert found.outcome == "mate" and mates(fen, color, found.line)
    assert any(len(uci) == 5 for uci in found.line)  # a promotion on the way


@pytest.mark.parametrize("fen,color", [
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.WHITE),
    # CHA vectors: Black's king shut in on b8, only pawn moves left
    ("1k6/1P1p1p1p/BP6/1P1P3p/5P2/8/6KP/8 b - - 0 1", chess.BLACK),
    ("k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1", chess.BLACK),
])
def test_an_exhausted_search_visited_what_the_visit_visits(fen: str, color: chess.Color) -> None:
    width = WidthSearch(chess.Board(fen), color)
    result = width.run(200_000)
    visit = Visit(chess.Board(fen), color)
    assert result.outcome == visit.run(200_000).outcome == "exhausted"
    # the same reachable positions, the root included
    assert result.nodes + 1 == visit.seen


@pytest.mark.parametrize("fen,color", [
    # CHA vectors with pawns rammed head-on (three pairs) and a bishop or a
    # king free to move: about 200 reachable positions, none a mate; the
    # steered searches' first slice spent 28,000 nodes before the width
    # search proved it
    ("8/8/1p6/kPp5/p1P5/2P5/PK6/8 w - - 0 1", chess.WHITE),
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 b - - 0 1", chess.WHITE),
])
def test_rammed_pawns_get_a_short_width_search_before_the_first_slice(
        fen: str, color: chess.Color) -> None:
    verdict = can_checkmate(chess.Board(fen), color)
    assert verdict.value is False and verdict.method == "exhaustive"
    assert "reachable positions" in verdict.reason
    # a few turns of the steered searches, then the width search's proof
    assert verdict.nodes < 5_000


def test_a_resumed_search_runs_as_one_search() -> None:
    fen = "8/8/8/3B4/8/6p1/1b4Pp/2b2k1K w - - 0 1"
    whole = WidthSearch(chess.Board(fen), chess.WHITE).run(100_000)
    resumed = WidthSearch(chess.Board(fen), chess.WHITE)
    steps = 0
    while (part := resumed.run(resumed.nodes + 1_000)).outcome == "limit":
        steps += 1
    assert steps > 5
    assert (part.outcome, part.line, part.nodes) == (whole.outcome, whole.line, whole.nodes)
    assert resumed.run(10**6) is part  # finished: the same answer again


def test_a_chess960_board_is_searched_with_its_own_castling() -> None:
    # Chess960: kings on b1 and b8 with castling rights on both wings (the
    # board is searched with python-chess's push and pop); each mate line
    # must replay on a Chess960 board
    fen = "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"
    board = chess.Board(fen, chess960=True)
    for color in chess.COLORS:
        found = WidthSearch(board, color).run(50_000)
        assert found.outcome == "mate" and mates(fen, color, found.line, chess960=True)
    assert board.fen() == fen


def test_a_deadline_stops_the_search() -> None:
    import time

    search = WidthSearch(chess.Board("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1"), chess.WHITE,
                         deadline=time.monotonic() - 1)
    result = search.run(1_000_000)
    assert result.outcome == "limit" and result.nodes < 2_000


def test_novelty_facts_and_context() -> None:
    board = chess.Board("4k3/8/8/8/8/8/4P3/R3K2N b Q - 0 1")
    # rook a1, knight h1, both kings, Black to move; the winner's pawns are
    # context, the loser's are facts
    pieces = [128 + chess.A1, 0 + chess.H1, 256 + chess.E1, 320 + 256 + chess.E8]
    assert atoms(board, chess.WHITE) == sorted([*pieces, 704])
    assert atoms(board, chess.BLACK) == sorted([*pieces, 640 + chess.E2, 704])
    assert flights(board, chess.WHITE) == 6  # not in check; d7, d8, e7, f7, f8 + 1
    ctx = context(board, 6, chess.WHITE)
    assert ctx[0] == chess.BB_E2 and ctx[2] == 6
    assert context(board, 6, chess.BLACK)[0] == 0
    taken = chess.Board("4k3/8/8/8/8/8/4P3/4K2N b - - 0 1")
    assert context(taken, 6, chess.WHITE)[1] != ctx[1]  # the material differs
    pawnless = chess.Board("4k3/8/8/8/8/8/8/R3K2N b Q - 0 1")
    assert context(pawnless, 6, chess.BLACK)[1] != context(board, 6, chess.BLACK)[1]


SEEDS = [
    "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1",
    "k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1",
    "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3 0 1",
    "8/8/2k5/1p1p4/1P1P4/2K5/8/3B4 w - - 0 1",
    "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1",
]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SEEDS), st.integers(0, 10**6), st.integers(0, 12), st.booleans())
def test_width_search_and_visit_agree(fen: str, seed: int, plies: int, white: bool) -> None:
    # random positions near blocked ones: wherever the visit decides within
    # its budget, the width search decides alike (a mate found by one is
    # never "exhausted" by the other), and every line it gives mates
    rng = random.Random(seed)
    board = chess.Board(fen)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return
    color = chess.WHITE if white else chess.BLACK
    visit = Visit(board, color).run(4_000)
    width = WidthSearch(board, color).run(8_000)
    if width.outcome == "mate":
        assert visit.outcome != "exhausted"
        assert mates(board.fen(), color, width.line)
    if visit.outcome == "mate":
        assert width.outcome != "exhausted"
    if visit.outcome == "exhausted":
        assert width.outcome == "exhausted"


def test_pack_and_flights_agree_with_python_chess_on_random_walks() -> None:
    # pack/unpack keep every field of a position that matters (castling
    # rights and usable en passant squares included); flights counts what attackers_mask sees
    rng = random.Random(17)
    walked = 0
    for fen in ["r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1", chess.STARTING_FEN,
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"]:
        for _ in range(4):
            board = chess.Board(fen)
            for _ply in range(50):
                copy = chess.Board(None)
                unpack(copy, pack(board))
                assert copy.fen().rsplit(" ", 2)[0] == board.fen().rsplit(" ", 2)[0]
                # the en passant square only where a pawn could use it: the
                # same legal moves either way
                assert (copy.ep_square, copy.castling_rights) == (usable_ep(board),
                                                                 board.castling_rights)
                assert set(copy.legal_moves) == set(board.legal_moves)
                for winner in chess.COLORS:
                    king = board.king(not winner)
                    assert king is not None
                    free = [s for s in chess.scan_forward(
                        chess.BB_KING_ATTACKS[king] & ~board.occupied_co[not winner])
                        if not board.attackers_mask(winner, s)]
                    check = bool(board.attackers_mask(winner, king))
                    expected = len(free) + (0 if check else 1)
                    assert flights(board, winner) == expected, (board.fen(), winner)
                    assert _flights(board, winner) == (expected, check), (board.fen(), winner)
                walked += 1
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
    assert walked > 300


def _novelty_of_pairs(table: set[int | tuple[int, int]], facts: list[int]) -> int:
    """The novelty of ``facts`` measured the plain way, on a set of the facts
    and of their pairs (what :data:`~remis.unwinnable.width.Table`'s
    bitboards stand for)."""
    ordered = sorted(set(facts))
    pairs = {(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:]}
    novelty = 1 if not table.issuperset(ordered) else 2 if not table.issuperset(pairs) else 3
    table.update(ordered)
    table.update(pairs)
    return novelty


@settings(max_examples=300, deadline=None)
@given(st.integers(8, 705).flatmap(lambda top: st.lists(
    st.lists(st.integers(0, top), min_size=1, max_size=12, unique=True),
    min_size=1, max_size=60)))
def test_the_novelty_tables_answer_as_sets_of_pairs(positions: list[list[int]]) -> None:
    # the bitboard tables give each position in turn the novelty that the
    # set of facts and pairs gives it (fact numbers up to the side to
    # move's; few of them: many repeated facts and pairs, novelty 2 and 3)
    table: width.Table = {}
    plain: set[int | tuple[int, int]] = set()
    answers = [width._novelty_in(table, facts) for facts in positions]
    assert answers == [_novelty_of_pairs(plain, facts) for facts in positions]
