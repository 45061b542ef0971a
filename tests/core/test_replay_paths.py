"""The replay's shortcuts rule exactly like the full checks: the standard
start without an end search, the one-test quiet ply, the plain push loop after
the end, and the legality check of unvalidated moves."""

from __future__ import annotations

import chess
import pytest

from remis.history import History
from remis.replay import replay
from remis.rules import automatic_end, claimable

START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def _ucis(text: str) -> list[chess.Move]:
    return [chess.Move.from_uci(u) for u in text.split()]


@pytest.mark.parametrize(("clock", "article"), [(99, "9.3.1"), (100, "9.3.2")])
def test_standard_start_with_a_high_clock_is_still_ruled_at_ply_0(clock: int,
                                                                  article: str) -> None:
    r = replay([], chess.Board(f"{START_BOARD} {clock} 60"))
    assert [(c.ply, c.article) for c in r.claims] == [(0, article)]


def test_standard_start_at_the_seventyfive_move_count_ends_at_ply_0() -> None:
    r = replay(_ucis("g1f3"), chess.Board(f"{START_BOARD} 150 80"))
    assert r.end is not None and (r.end.ply, r.end.article) == (0, "9.6.2")
    assert r.plies == 1  # the move after the end is replayed, not ruled on


def test_start_position_from_fen_or_default_rules_alike() -> None:
    moves = _ucis("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3")
    a = replay(moves)
    b = replay(moves, chess.Board(f"{START_BOARD} 0 1"))
    assert [(c.ply, c.article, c.move) for c in a.claims] == \
        [(c.ply, c.article, c.move) for c in b.claims]
    assert [(c.ply, c.article) for c in a.claims] == [
        (7, "9.2.1"), (8, "9.2.2"), (8, "9.2.1"), (9, "9.2.2"), (9, "9.2.1")]


def test_every_ply_agrees_with_the_rules_applied_from_scratch() -> None:
    """The quiet-ply shortcut never skips a claim or an end: compare with
    claimable() and automatic_end() called after every ply."""
    moves = _ucis("g1f3 g8f6 f3g1 f6g8 " * 2 + "e2e4 e7e5 " + "e1e2 e8e7 e2e1 e7e8 " * 5
                  + "g1f3")
    r = replay(moves)
    h = History()
    expected = []
    end = None
    for m in moves:
        h.push(m)
        end = automatic_end(h)
        if end is not None:
            break
        expected += [(c.ply, c.article, c.move) for c in claimable(h)]
    assert [(c.ply, c.article, c.move) for c in r.claims] == expected
    assert end is not None and r.end is not None
    assert (r.end.ply, r.end.article) == (end.ply, end.article) == (28, "9.6.1")
    assert r.plies == len(moves)


def test_an_illegal_move_after_the_end_is_still_reported() -> None:
    # fool's mate, then a move by the mated side that is not even legal
    r = replay(_ucis("f2f3 e7e5 g2g4 d8h4 a2a5"))
    assert r.end is not None and r.end.termination == "checkmate"
    assert r.error is not None and r.error.ply == 5 and "a2a5" in r.error.message
    assert r.plies == 4


def test_an_illegal_move_stops_the_replay_where_it_stands() -> None:
    r = replay(_ucis("e2e4 e7e5 e1e3 e8e7"))
    assert r.error is not None and r.error.ply == 3 and r.plies == 2 and r.end is None


def test_a_fresh_history_may_be_replayed_into() -> None:
    h = History()
    moves = iter(_ucis("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"))
    r = replay(moves, history=h, validated=True)
    assert r.history is h and h.ply == 8 and h.occurrences() == (0, 4, 8)
