"""Property tests: the incremental History and replay() agree with a naive
full-history reference on random legal games (with forced repetitions)."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.history import History
from remis.identity import position_key
from remis.replay import replay
from remis.rules import automatic_end, claimable

# a choice < 0 asks to move the piece just moved back where it came from (repetitions)
choices = st.lists(st.one_of(st.just(-1), st.integers(min_value=0, max_value=60)), max_size=160)
STARTS = [
    chess.STARTING_FEN,
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 90 1",
    "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1",
    "8/8/4k3/8/8/3K4/8/6R1 w - - 140 80",
    "1n2r1k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1",
]


def random_game(fen: str, picks: list[int]) -> tuple[chess.Board, list[chess.Move]]:
    board = chess.Board(fen)
    start = board.copy()
    moves: list[chess.Move] = []
    for pick in picks:
        legal = list(board.legal_moves)
        if not legal or board.is_fivefold_repetition() or board.is_seventyfive_moves():
            break
        move = None
        if pick < 0 and len(moves) >= 2:
            back = chess.Move(moves[-2].to_square, moves[-2].from_square)
            if back in legal:
                move = back
        if move is None:
            move = legal[abs(pick) % len(legal)]
        board.push(move)
        moves.append(move)
    return start, moves


def naive_counts(start: chess.Board, moves: list[chess.Move]) -> list[int]:
    """Occurrences of the position after each ply, by rescanning everything."""
    b = start.copy()
    keys = [position_key(b)]
    for m in moves:
        b.push(m)
        keys.append(position_key(b))
    return [keys[: i + 1].count(k) for i, k in enumerate(keys)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_counts_match_naive(fen: str, picks: list[int]) -> None:
    start, moves = random_game(fen, picks)
    h = History(start)
    counts = [h.count()]
    for m in moves:
        h.push(m)
        counts.append(h.count())
    assert counts == naive_counts(start, moves)
    # the same identity as python-chess's transposition key (its repetition test)
    b = start.copy()
    for m in moves:
        b.push(m)
    assert (h.count() >= 3) == b.is_repetition(3)
    assert (h.count() >= 5) == b.is_repetition(5)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_pop_restores_bookkeeping(fen: str, picks: list[int]) -> None:
    start, moves = random_game(fen, picks)
    h = History(start)
    snapshots = []
    for m in moves:
        snapshots.append((h.count(), h.may_repeat_after_move(), h.window_start()))
        h.push(m)
    for m in reversed(moves):
        assert h.pop() == m
        assert (h.count(), h.may_repeat_after_move(), h.window_start()) == snapshots.pop()


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_end_conditions_match_python_chess(fen: str, picks: list[int]) -> None:
    start, moves = random_game(fen, picks)
    h = History(start)
    for m in moves:
        h.push(m)
    b = h.board
    end = automatic_end(h)
    expected = None
    if b.is_checkmate():
        expected = "checkmate"
    elif b.is_stalemate():
        expected = "stalemate"
    elif b.is_insufficient_material():
        expected = "insufficient_material"
    elif b.is_fivefold_repetition():
        expected = "fivefold_repetition"
    elif b.is_seventyfive_moves():
        expected = "seventyfive_moves"
    assert (end.termination if end else None) == expected


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_replay_claims_match_per_ply_reference(fen: str, picks: list[int]) -> None:
    """replay()'s fast path lists the same claims and end as asking the rules
    afresh at every ply, and its claims agree with python-chess."""
    start, moves = random_game(fen, picks)
    report = replay(moves, start)
    h = History(start)
    ref_claims = []
    ref_end = automatic_end(h)
    if ref_end is None:
        ref_claims.extend(claimable(h))
    for m in moves:
        h.push(m)
        if ref_end is None:
            ref_end = automatic_end(h)
            if ref_end is None:
                ref_claims.extend(claimable(h))
                # python-chess: threefold claimable (9.2.1 or 9.2.2) and fifty (9.3)
                kinds = {c.kind for c in claimable(h)}
                assert ("threefold_repetition" in kinds) == h.board.can_claim_threefold_repetition()
    assert [c.to_json() for c in report.claims] == [c.to_json() for c in ref_claims]
    assert (report.end.to_json() if report.end else None) == (
        ref_end.to_json() if ref_end else None)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_repeating_moves_equal_trying_every_move(fen: str, picks: list[int]) -> None:
    """The 9.2.1 shortcut (reading the move off a doubled position) finds
    exactly the moves that trying every legal move finds."""
    start, moves = random_game(fen, picks)
    h = History(start)
    for m in [None, *moves]:
        if m is not None:
            h.push(m)
        brute = sorted(
            (mv.uci(), h.occurrences_after(mv)) for mv in h.board.legal_moves
            if len(h.occurrences_after(mv)) >= 2)
        fast = sorted((mv.uci(), plies) for mv, plies in h.repeating_moves())
        assert fast == brute
