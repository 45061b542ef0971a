"""The helpmate search and the exhaustive visit: proofs only when complete."""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

import remis
from remis.unwinnable import search
from remis.unwinnable.search import HelpmateSearch, SearchResult, exhaust
from tests.unwinnable.helpers import mates


def test_line_cap_never_turns_into_a_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    fen = "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"  # Black mates only after a long walk
    monkeypatch.setattr(search, "MAX_LINE", 6)
    result = HelpmateSearch(chess.Board(fen), chess.BLACK, max_nodes=3000).run()
    assert result.outcome != "exhausted"
    if result.outcome == "mate":
        assert len(result.line) <= 6 and mates(fen, chess.BLACK, result.line)


def test_board_is_restored_after_every_outcome() -> None:
    for fen, color, nodes in [("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK, 50),
                              ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK, 100_000),
                              ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.WHITE, 500),
                              # an en passant square no pawn can use: the
                              # search drops it from its keys, not from the board
                              ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", chess.WHITE, 50),
                              ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", chess.WHITE, 100_000)]:
        board = chess.Board(fen)
        HelpmateSearch(board, color, max_nodes=nodes).run()
        assert board.fen(en_passant="fen") == fen and not board.move_stack


def test_exhaust_proves_locked_kings_and_finds_shortest_mates() -> None:
    locked = "8/3k4/6p1/p2p1pP1/P2P1P2/2K5/8/8 b - - 0 1"
    for color in chess.COLORS:
        assert exhaust(chess.Board(locked), color).outcome == "exhausted"
    fen = "8/8/8/8/8/2k5/8/K1q5 b - - 0 1"
    result = exhaust(chess.Board(fen), chess.BLACK)
    assert result.outcome == "mate" and mates(fen, chess.BLACK, result.line)
    assert len(result.line) == 1  # Qb2# (or Qa3#...): the shortest
    assert exhaust(chess.Board(locked), chess.WHITE, max_nodes=10).outcome == "limit"


def test_search_proof_when_the_tree_is_small() -> None:
    # a bare king: the material cut ends every branch, the search is complete
    result = HelpmateSearch(chess.Board("8/8/8/8/8/2k5/8/K1q5 w - - 0 1"), chess.WHITE).run()
    assert result.outcome == "exhausted"


def test_semi_blocked_structure_mate_is_found_and_replays() -> None:
    # only kings, bishops and pawns, pawns two ranks apart on the f-file:
    # CHA's semi-blocked ordering finds White's helpmate (the plain corner
    # ordering needs more than 100k nodes)
    fen = "8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1"
    assert search.semi_blocked(chess.Board(fen)) == chess.F5
    result = HelpmateSearch(chess.Board(fen), chess.WHITE, max_nodes=60_000).run()
    assert result.outcome == "mate" and mates(fen, chess.WHITE, result.line)


def test_mating_targets_around_a_given_corner() -> None:
    board = chess.Board()
    assert search.mating_targets(board, chess.WHITE) == search.mating_targets(
        board, chess.WHITE, search.default_corner(board, chess.WHITE))
    assert search.mating_targets(board, chess.BLACK, chess.H1) == (
        chess.H3, chess.H1, chess.H1, chess.G1)


KB_V_KB = "3kb3/8/8/8/8/3KB3/8/8 w - - 0 1"  # opposite bishops: a mate in a far corner


def test_another_corner_finds_the_mate_the_default_one_misses() -> None:
    # the default steering (toward h8) needs about 3,800 nodes, toward a1
    # about 2,200
    board = chess.Board(KB_V_KB)
    default = HelpmateSearch(board, chess.WHITE, max_nodes=3_000).run()
    assert default.outcome == "limit"
    other = HelpmateSearch(board, chess.WHITE, max_nodes=3_000, corner=chess.A1).run()
    assert other.outcome == "mate" and mates(KB_V_KB, chess.WHITE, other.line)
    assert board.fen() == KB_V_KB


def test_a_steered_search_still_proves_only_when_complete() -> None:
    bare = "8/8/8/8/8/2k5/8/K1q5 w - - 0 1"  # White has a bare king: complete, a proof
    for corner in (chess.A1, chess.H8):
        result = HelpmateSearch(chess.Board(bare), chess.WHITE, corner=corner).run()
        assert result.outcome == "exhausted"
        cut = HelpmateSearch(chess.Board(KB_V_KB), chess.WHITE, max_nodes=300,
                             corner=corner).run()
        assert cut.outcome == "limit"


def test_can_checkmate_tries_the_other_corners() -> None:
    from remis.unwinnable import can_checkmate

    # the portfolio's search toward a1 mates before the default one (toward
    # h8, about 3,800 nodes) does: the black king is mated on a1
    verdict = can_checkmate(chess.Board(KB_V_KB), chess.WHITE)
    assert verdict.value is True and mates(KB_V_KB, chess.WHITE, verdict.line)
    assert verdict.method == "search"
    board = chess.Board(KB_V_KB)
    for uci in verdict.line:
        board.push_uci(uci)
    assert board.king(chess.BLACK) == chess.A1


def test_the_first_slice_takes_turns_between_steerings(monkeypatch: pytest.MonkeyPatch) -> None:
    import remis.unwinnable as engine

    # lichess game UXpsq3Am, White to mate (king, bishop and pawns against
    # queen and rook): the default steering needs about 28k nodes; the
    # searches taking turns, among them one with free pawn moves, find a
    # mate in a few hundred
    fen = "5r1k/1pp3p1/p7/4P3/3PB2K/4P3/8/6q1 b - - 2 47"
    verdict = engine.can_checkmate(chess.Board(fen), chess.WHITE)
    assert verdict.value is True and mates(fen, chess.WHITE, verdict.line)
    assert verdict.nodes < 2_000
    monkeypatch.setattr(engine, "PORTFOLIO", ((None, False),))
    alone = engine.can_checkmate(chess.Board(fen), chess.WHITE)
    assert alone.value is True and alone.nodes > 10_000


def test_the_search_with_free_pawn_moves_takes_the_first_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import remis.unwinnable as engine

    # lichess game O9RNK6Su, White to mate: the default steering finds no
    # mate within its first turn, the search with free pawn moves finds
    # one within it; taking the first turn, it decides before the default
    # search has spent anything
    fen = "3r1r2/1ppb3k/p1n4P/4ppP1/2B5/8/PPP3P1/2KR3R b - - 0 30"
    verdict = engine.can_checkmate(chess.Board(fen), chess.WHITE)
    assert verdict.value is True and mates(fen, chess.WHITE, verdict.line)
    assert verdict.nodes < engine.PORTFOLIO_START
    default_first = ((None, False), *(p for p in engine.PORTFOLIO if p != (None, False)))
    monkeypatch.setattr(engine, "PORTFOLIO", default_first)
    later = engine.can_checkmate(chess.Board(fen), chess.WHITE)
    assert later.value is True and later.nodes > engine.PORTFOLIO_START


def test_the_portfolio_runs_no_search_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    import remis.unwinnable as engine

    # after a lichess game, Black (king, bishop, pawn) to mate White (king
    # and pawn): the default corner is a1, so the search toward a1 with free
    # pawn moves is the default search with free pawn moves; left out, the
    # same mate costs fewer nodes
    fen = "8/b7/8/5k1p/5P2/8/4K3/8 w - - 0 60"
    board = chess.Board(fen)
    kept = engine._distinct(board, chess.BLACK)
    assert (chess.A1, True) not in kept and len(kept) == len(engine.PORTFOLIO) - 1
    verdict = engine.can_checkmate(board, chess.BLACK)
    assert verdict.value is True and mates(fen, chess.BLACK, verdict.line)
    # without pawns, free pawn moves change nothing: no (None, True) search
    pawnless = engine._distinct(chess.Board(KB_V_KB), chess.WHITE)
    assert (None, True) not in pawnless and (None, False) in pawnless
    with monkeypatch.context() as m:
        m.setattr(engine, "_distinct", lambda _b, _c: list(engine.PORTFOLIO))
        twice = engine.can_checkmate(board, chess.BLACK)
    assert twice.value is True and twice.nodes > verdict.nodes


def test_no_twin_of_the_default_search_where_the_loser_must_promote(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import remis.unwinnable as engine

    # the lichess game's position: Black's lone bishop mates only after
    # White promotes (to a knight, which blocks a flight); the loser's pawn
    # moves are free with or without free pawn moves, so the search with
    # them is the default search's twin until White promotes: left out
    fen = "8/b7/8/5k2/5P2/8/4K3/8 w - - 0 60"
    board = chess.Board(fen)
    kept = engine._distinct(board, chess.BLACK)
    assert (None, True) not in kept and kept[0] == (None, False)
    verdict = engine.can_checkmate(board, chess.BLACK)
    assert verdict.value is True and mates(fen, chess.BLACK, verdict.line)
    monkeypatch.setattr(engine, "_distinct", lambda _b, _c: [(None, True), *kept])
    twin = engine.can_checkmate(board, chess.BLACK)
    assert twin.value is True and twin.line == verdict.line and twin.nodes > verdict.nodes


@pytest.mark.parametrize("max_nodes", [400, 4_000])
def test_an_undecided_question_spends_its_shares_of_max_nodes(max_nodes: int) -> None:
    # CHA vector, a long helpmate for White: undecided within these budgets;
    # the default search gets max_nodes, the other stages their shares
    # (4 x 1/20 + 3 x 1/10 + 1/2), as the docstring of can_checkmate says
    fen = "4k3/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/8 w - - 0 1"
    verdict = remis.can_checkmate(chess.Board(fen), chess.WHITE, max_nodes=max_nodes)
    assert verdict.value is None
    assert max_nodes * 1.95 < verdict.nodes <= max_nodes * 2 + 20


def test_a_search_resumed_in_doubling_steps_runs_as_one_search() -> None:
    # lichess game 7mKJtVmO, White to mate; with 2,000 nodes an iteration:
    # an iteration that a node limit stopped keeps its count when resumed,
    # so the search deepens where one uninterrupted search would (without
    # it each resumed iteration got a fresh 2,000: 21,349 nodes)
    fen = "8/8/5pK1/4b3/1k6/1B6/1q6/q7 b - - 1 88"
    board = chess.Board(fen)
    one = HelpmateSearch(board, chess.WHITE, max_nodes=60_000, iteration_nodes=2_000).run()
    resumed = HelpmateSearch(board, chess.WHITE, max_nodes=0, iteration_nodes=2_000)
    result, budget = SearchResult("limit", (), 0, 1), 200
    while result.outcome == "limit" and budget < 60_000:
        resumed.max_nodes = budget
        result = resumed.run(start_depth=result.depth)
        budget *= 2
    assert one.outcome == result.outcome == "mate" and mates(fen, chess.WHITE, result.line)
    assert result.depth == one.depth
    assert abs(result.nodes - one.nodes) < one.nodes // 10
    assert board.fen() == fen


def test_sacrifices_open_a_wall_the_usual_steerings_cannot_cross() -> None:
    # White's queen must take two pawns to cross the wall and be taken on
    # c3 or e3, which frees a black pawn (found by the soundness property):
    # steered toward the loser's sacrifices the search mates at once, the
    # usual steerings do not within 20k nodes
    fen = "8/7Q/1r1p1k2/p1pPp3/PpP1Pp1p/1P3PpP/K5P1/8 w - - 0 1"
    board = chess.Board(fen)
    for pawns in (False, True):
        usual = HelpmateSearch(board, chess.BLACK, max_nodes=20_000, pawns=pawns).run()
        assert usual.outcome == "limit"
    sacrifice = HelpmateSearch(board, chess.BLACK, max_nodes=20_000, sacrifice=True).run()
    assert sacrifice.outcome == "mate" and mates(fen, chess.BLACK, sacrifice.line)
    assert board.fen() == fen
    # every move is still tried: a search that finishes is a proof
    bare = "8/8/8/8/8/2k5/8/K1q5 w - - 0 1"
    assert HelpmateSearch(chess.Board(bare), chess.WHITE, sacrifice=True).run().outcome \
        == "exhausted"


def test_free_pawn_moves_find_a_mate_after_promotions() -> None:
    # Black mates only after a long pawn race (CHA test vector): with every
    # pawn move free the search finds it at once, the usual steering does
    # not within 20k nodes
    fen = "6k1/p3p1P1/p1p3PB/6P1/8/4P3/PKP5/8 w - - 0 1"
    board = chess.Board(fen)
    usual = HelpmateSearch(board, chess.BLACK, max_nodes=20_000, corner=chess.H8).run()
    assert usual.outcome == "limit"
    racing = HelpmateSearch(board, chess.BLACK, max_nodes=20_000, corner=chess.H8,
                            pawns=True).run()
    assert racing.outcome == "mate" and mates(fen, chess.BLACK, racing.line)
    assert any(len(uci) == 5 for uci in racing.line)  # a promotion on the way
    assert board.fen() == fen


@pytest.mark.parametrize("fen,color", [
    ("8/8/8/8/8/2k5/8/K1q5 b - - 0 1", chess.BLACK),  # a mate: the shortest
    ("8/3k4/6p1/p2p1pP1/P2P1P2/2K5/8/8 b - - 0 1", chess.WHITE),  # none: a proof
    ("kb6/8/1K6/8/8/8/8/3B4 w - - 0 1", chess.WHITE),
])
def test_a_resumed_visit_ends_as_one_visit(fen: str, color: chess.Color) -> None:
    whole = search.Visit(chess.Board(fen), color).run(100_000)
    visit = search.Visit(chess.Board(fen), color)
    steps = 0
    while (part := visit.run(visit.nodes + 2)).outcome == "limit":
        steps += 1
        assert part.nodes <= visit.nodes
    assert steps > 0
    assert (part.outcome, part.line, part.nodes) == (whole.outcome, whole.line, whole.nodes)
    if whole.outcome == "mate":
        assert mates(fen, color, whole.line)
    assert visit.run(10**6) is part  # finished: the same answer again


def test_a_longer_visit_proves_a_bounded_pawn_ending_and_not_its_sibling() -> None:
    from remis.unwinnable import can_checkmate

    # CHA vectors: Black's king is shut in on b8 for good and Black can only
    # push pawns; every reachable position is visited, none is a mate by
    # Black (about 13k positions: more than the old 12k visit)
    dead = "1k6/1P1p1p1p/BP6/1P1P3p/5P2/8/6KP/8 b - - 0 1"
    verdict = can_checkmate(chess.Board(dead), chess.BLACK)
    assert verdict.value is False and verdict.method == "exhaustive"
    # one more black pawn (h5 and h7, no white d-pawn ahead): Black has a
    # helpmate, so no bound on the pawn moves alone may call it dead
    alive = "1k6/1P1p1p1p/BP6/1P5p/8/8/3P1PKP/8 w - - 0 1"
    assert can_checkmate(chess.Board(alive), chess.BLACK).value is not False


def test_pawns_that_can_never_pass_are_proved_past_the_first_budgets() -> None:
    import remis.unwinnable as engine

    # CHA vector: pawns only, none can pass; about 27,000 positions are
    # reachable, more than any steered search proves: the width search
    # visits them all (a proof for both sides)
    fen = "k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1"
    for color in (chess.WHITE, chess.BLACK):
        verdict = engine.can_checkmate(chess.Board(fen), color)
        assert verdict.value is False and verdict.method == "exhaustive"
        assert verdict.nodes > 20_000
    # a bounded caller's budget is never stretched
    bounded = engine.can_checkmate(chess.Board(fen), chess.BLACK, max_nodes=20_000)
    assert bounded.value is None and bounded.nodes <= 20_000 * 2 + 100



#: positions for the loser's-leaf shortcut: castling rights, knights on
#: both sides, a helpmate needing a promotion (shortcut off there), a proof
LEAF_POSITIONS = [
    "r3k2r/ppp1q1pp/4ppn1/8/3p1P2/P2P2Q1/1PP1B1PP/R3K2R w KQkq - 1 16",
    "2r2rk1/1b3p2/p4p1p/1p6/6Bq/2P1p2n/PP4P1/R4RK1 w - - 0 30",
    "6k1/3n2N1/2p2np1/p2p1P2/1p6/P5P1/r7/5K2 b - - 0 38",
    "8/8/8/4n1p1/4k3/8/2Kp4/4rR2 w - - 4 77",
    "8/8/4k3/8/8/2n5/P7/K7 w - - 0 1",
    "8/8/8/8/8/2k5/8/K1q5 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
]


@pytest.mark.parametrize("fen", LEAF_POSITIONS)
def test_the_loser_leaf_shortcut_searches_exactly_as_the_general_loop(
        fen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for color in chess.COLORS:
        for pawns in (False, True):
            results = []
            for shortcut in (True, False):
                monkeypatch.setattr(HelpmateSearch, "leaf_shortcut", shortcut)
                board = chess.Board(fen)
                r = HelpmateSearch(board, color, max_nodes=4_000, pawns=pawns).run()
                assert board.fen() == fen
                results.append((r.outcome, r.line, r.nodes, r.depth))
            assert results[0] == results[1], (fen, color, pawns)


@pytest.mark.parametrize("fen", LEAF_POSITIONS)
def test_moves_come_out_cheapest_first_in_generation_order(fen: str) -> None:
    # _classify is a lazy stable sort by cost: every move once, costs never
    # decreasing, generation order among equals (reversed where the loser
    # must promote: its pawn moves first), a free move out as soon as it
    # is generated
    board = chess.Board(fen)
    for color in chess.COLORS:
        for pawns in (False, True):
            s = HelpmateSearch(board, color, pawns=pawns)
            moves = list(board.generate_pseudo_legal_moves())
            pulled = 0

            def gen(moves: list[chess.Move]) -> Iterator[chess.Move]:
                nonlocal pulled
                for m in moves:
                    pulled += 1
                    yield m

            out = s._classify(gen(moves))
            first = next(out, None)
            assert first is not None
            at_first = pulled
            ranked = [first, *out]
            assert sorted(m.uci() for _, m in ranked) == sorted(m.uci() for m in moves)
            kinds = [k for k, _ in ranked]
            assert kinds == sorted(kinds)
            promo = board.turn != color and search._needs_promotion(
                board, color, board.occupied_co[color])
            for kind in set(kinds):
                same = [moves.index(m) for k, m in ranked if k == kind]
                assert same == sorted(same, reverse=promo), (fen, color, pawns, kind)
            if first[0] == search._REWARD and not promo:
                assert at_first == moves.index(first[1]) + 1  # nothing generated past it


def test_the_last_stage_decides_what_every_other_one_left_open() -> None:
    # found by a differential check against CHA: four light-squared bishops
    # against a knight that must block the corner; the default steered
    # search needs about 116,000 nodes, past the 100,000 it has before the
    # rest of the width search (which finds nothing in its 1,000,000)
    fen = "8/8/8/8/3k4/2n5/BKB5/1B1B4 w - - 0 1"
    verdict = remis.can_checkmate(chess.Board(fen), chess.WHITE)
    assert verdict.value is True and verdict.nodes > 1_000_000
    assert mates(fen, chess.WHITE, verdict.line)
    # a budget given leaves the last stage out: about twice max_nodes in all
    bounded = remis.can_checkmate(chess.Board(fen), chess.WHITE, max_nodes=50_000)
    assert bounded.value is None and bounded.nodes < 120_000
