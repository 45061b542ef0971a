"""A dead position the per-move test let go by, found when the game ends
otherwise (a flag fall, a resignation): the game had ended at the first
position after a move that full mode proves dead (5.2.2), as ``remis game``
rules on a finished game."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from remis.arbiter import Arbiter
from remis.game import rule_on_parsed
from remis.pgn import read_games
from remis.unwinnable import can_checkmate
from tests.arbiter.conftest import moves
from tests.unwinnable.test_first_dead import REAL_GAMES

# 1... Kxb1 leaves a dead position that is no candidate of the per-move test
# (tests/unwinnable/test_first_dead.py): the game goes on
START = "8/2p5/1pP5/1P6/1P6/KP6/PP6/1Nk5 b - - 0 1"
AFTER = "8/2p5/1pP5/1P6/1P6/KP6/PP6/1k6 w - - 0 2"  # the position after 1... Kxb1


def cfg(**kw):
    return {"time_control": "60", **kw}


def played(start: str, sans: str, first: str) -> Arbiter:
    a = Arbiter(cfg(start_fen=start))
    for event in moves(sans, first=first):
        a.apply(event)
    assert not a.state()["over"]  # the per-move test let the dead position go by
    return a


def test_premise_both_sides_cannot_mate_after_kxb1() -> None:
    board = chess.Board(AFTER)
    assert can_checkmate(board, chess.WHITE).value is False
    assert can_checkmate(board, chess.BLACK).value is False
    # and before it White could still mate (the knight): ply 0 is not dead
    assert can_checkmate(chess.Board(START), chess.WHITE).value is True


def test_flag_fall_after_an_unnoticed_dead_position_is_a_522_draw_from_ply_1() -> None:
    a = played(START, "Kxb1 Ka4 Kc2 Ka3", "black")
    s = a.apply({"type": "flag", "player": "black", "at": 200})
    assert (s["over"], s["result"], s["article"], s["termination"], s["message"]) == (
        True, "1/2-1/2", "5.2.2", "dead_position", "dead_found_late")
    assert s["params"]["ply"] == 1
    assert "since the position after 1…" in s["explanation"]  # Black's move 1, as counted
    assert "White: " in s["params"]["reason"] and "; Black: " in s["params"]["reason"]


def test_resignation_after_an_unnoticed_dead_position() -> None:
    a = played(START, "Kxb1 Ka4 Kc2", "black")
    s = a.apply({"type": "resign", "player": "white", "at": 10})
    assert (s["result"], s["article"], s["params"]["ply"]) == ("1/2-1/2", "5.2.2", 1)


def test_a_set_up_dead_position_ended_the_game_at_its_start() -> None:
    # the position the game was set up in counts, as in remis game: the game
    # ended there, before the moves that followed
    a = played(AFTER, "Ka4 Kc2", "white")
    s = a.apply({"type": "flag", "player": "white", "at": 200})
    assert (s["article"], s["message"], s["params"]["ply"]) == (
        "5.2.2", "dead_found_at_start", 0)
    assert "since the position the game was set up in" in s["explanation"]


def test_a_set_up_dead_position_without_moves_is_a_522_draw() -> None:
    a = Arbiter(cfg(start_fen=AFTER))
    assert not a.state()["over"]  # the per-move test lets this one go by
    s = a.apply({"type": "flag", "player": "white", "at": 60})
    assert (s["result"], s["article"], s["termination"], s["message"]) == (
        "1/2-1/2", "5.2.2", "dead_position", "dead_found_at_start")


def test_a_flag_where_only_the_flagged_side_can_mate_stays_69() -> None:
    # White flags; Black (K+N) cannot mate, but White (K+Q) can: not dead
    a = played("8/8/8/4k3/8/2n5/8/K6Q w - - 0 1", "Kb2 Kf4", "white")
    s = a.apply({"type": "flag", "player": "white", "at": 200})
    assert (s["result"], s["article"], s["message"]) == ("1/2-1/2", "6.9", "flag_draw")


def test_a_dead_position_an_illegal_move_produced_counts_from_the_next_legal_move() -> None:
    # Black's king jumps e1-b1 (illegal, nobody notices: it stands) and takes
    # the knight: the dead position of AFTER, but 5.2.2 asks for a move made
    # under Article 3, so the game ends after White's next (legal) move
    a = Arbiter(cfg(start_fen="8/2p5/1pP5/1P6/1P6/KP6/PP6/1N2k3 b - - 0 1"))
    a.apply({"type": "illegal_move", "player": "black", "move": "e1b1", "called_by": "nobody",
             "at": 1})
    for event in moves("Ka4 Kc2", first="white", start=1):
        a.apply(event)
    assert not a.state()["over"]
    s = a.apply({"type": "flag", "player": "white", "at": 200})
    assert (s["result"], s["article"], s["params"]["ply"]) == ("1/2-1/2", "5.2.2", 2)


@pytest.mark.parametrize(("name", "index", "ply"), REAL_GAMES)
def test_real_games_end_where_remis_game_ends_them(
        shared_data: Path, name: str, index: int, ply: int) -> None:
    # the two masters games of tests/unwinnable/test_first_dead.py, played
    # move by move; the player to move resigns at the end (5.1.2 would make
    # it a draw): the arbiter finds the dead position at the ply remis game gives
    game = next(g for g in read_games(shared_data / "masters" / name) if g.index == index)
    assert rule_on_parsed(game).end.ply == ply  # type: ignore[union-attr]
    a = Arbiter({"time_control": "5400+30"})
    board = game.board.copy()
    for n, move in enumerate(game.moves):
        player = "white" if board.turn else "black"
        a.apply({"type": "move", "player": player, "move": move.uci(), "at": float(n + 1)})
        board.push(move)
    assert not a.state()["over"]
    s = a.apply({"type": "resign", "player": "white" if board.turn else "black",
                 "at": float(len(game.moves) + 1)})
    assert (s["result"], s["article"], s["termination"], s["params"]["ply"]) == (
        "1/2-1/2", "5.2.2", "dead_position", ply)
