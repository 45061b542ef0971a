"""The per-ply dead test: instant on ordinary positions, sound on all."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from remis.cli.game import human_line
from remis.game import rule_on_parsed
from remis.history import History
from remis.pgn import GameText, parse_game
from remis.rules import automatic_end
from remis.unwinnable import can_checkmate
from remis.unwinnable.deadtest import QUICK_ONLY, EngineDeadTest, engine_dead_test


# (which positions the engine looks at, the gate, is tested in rust/src/rules/dead.rs)
def test_ordinary_positions_are_not_dead() -> None:
    for fen in [chess.STARTING_FEN,
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
                "8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1",  # h4 can promote
                "8/pp3k2/2p1bp2/5p2/2P5/1P3N2/P4PPP/6K1 w - - 0 30"]:  # open endgame
        board = chess.Board(fen)
        assert engine_dead_test(board) is None
        assert EngineDeadTest()(board) is None


def test_live_candidate_is_not_dead() -> None:
    # a knight beside a locked wall: a candidate (knights no longer keep the
    # engine away), and the engine finds helpmates for both sides
    board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/6N1 w - - 0 1")
    assert engine_dead_test(board) is None
    assert all(can_checkmate(board, c).value for c in chess.COLORS)


# dead positions the per-ply test missed before 2026-12-04 (it looked only
# where every pawn was rammed and no knight stood): (start, moves, the ply at
# which the game is dead); a pawn free to advance but not to promote, a
# proof by exhausting the reachable positions, bishops behind a wall
_MISSED = [
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/7P/8 w - - 0 1", "1. h3 Kd6 2. Kd3 Ke6", 0),
    ("8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1", "1... h5 2. Kb1", 1),
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", "1. g5 Kd8", 1),
    # a rook shut in behind a wall whose free pawns (g2, g5, g4) each meet an
    # enemy pawn on their file; missed before 2026-12-04, as the wall had
    # free pawns (review of the per-ply test)
    ("5brk/4p1p1/3pP1P1/1B1P2p1/3p2p1/3P4/4K1P1/8 w - - 0 1", "1. Bd7 Kg8", 1),
]


@pytest.mark.parametrize(("fen", "moves", "ply"), _MISSED)
def test_game_ends_at_the_first_dead_position(fen: str, moves: str, ply: int) -> None:
    pgn = f'[FEN "{fen}"]\n[SetUp "1"]\n[Result "*"]\n\n{moves} *\n'
    # the per-ply test alone finds them (not the last position's test)
    ruling = rule_on_parsed(parse_game(GameText(1, 0, pgn)), last_position=False)
    assert ruling.end is not None
    assert (ruling.end.termination, ruling.end.article, ruling.end.ply) == (
        "dead_position", "5.2.2", ply)
    # and each side's "cannot" is a proof of the engine in full mode
    board = chess.Board(fen)
    sans = [t for t in moves.split() if not t[0].isdigit()]  # move numbers out
    for san in sans[:ply]:
        board.push_san(san)
    assert all(can_checkmate(board, c).value is False for c in chess.COLORS)


def test_time_forfeit_after_a_dead_position_is_no_loss() -> None:
    # the game was over (5.2.2) before the flag fell: 6.9 does not apply
    fen, moves, _ = _MISSED[0]
    pgn = (f'[FEN "{fen}"]\n[SetUp "1"]\n[Result "0-1"]\n[Termination "Time forfeit"]\n\n'
           f'{moves} 0-1\n')
    ruling = rule_on_parsed(parse_game(GameText(1, 0, pgn)))
    assert ruling.end is not None and ruling.end.termination == "dead_position"
    assert ruling.extra["time_forfeit"]["applies"] is False
    assert human_line("t.pgn", ruling).endswith(
        "time forfeit: moot, the game had already ended (Art. 6.9, not the recorded 0-1)")


def test_forced_capture_into_a_dead_position_ends_the_game_before_it() -> None:
    # Black in check has one legal move, Kxg7, which leaves two bare kings:
    # the position is dead already (every sequence of legal moves goes there)
    board = chess.Board("7k/6Q1/8/8/8/8/8/K7 b - - 0 1")
    v = engine_dead_test(board)
    assert v is not None and v.termination == "dead_position"


def test_material_case_and_locked_case() -> None:
    v = engine_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    assert v is not None and v.termination == "insufficient_material"
    v = engine_dead_test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 b - - 0 1"))
    assert v is not None and v.termination == "dead_position"
    assert v.evidence["can_checkmate"]["white"]["value"] is False  # type: ignore[index]


def test_locked_but_live_structure_is_not_dead() -> None:
    # the white bishop can take the pawn on b5... and so on: both can mate
    board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/5B2 w - - 0 1")
    assert engine_dead_test(board) is None
    assert all(can_checkmate(board, c).value for c in chess.COLORS)


def test_never_dead_where_a_vector_says_a_mate_exists(shared_data: Path) -> None:
    path = shared_data / "unwinnability" / "cha-test-vectors.txt"
    lines = [x for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]
    dead_found = 0
    for line in lines[::6]:
        code, fen = line.split(" ", 1)
        verdict = engine_dead_test(chess.Board(fen.strip()))
        if verdict is not None:
            assert code == "--", (code, fen, verdict.reason)
            dead_found += 1
    assert dead_found > 0


# dead, but only full mode proves it (quick mode leaves a colour open): a CHA
# test vector, knights and bishops behind locked walls
_FULL_ONLY_DEAD = "6nk/4p1bp/4Pp1p/5P1P/p1p5/P1Pp4/PB1P4/KN6 w - - 0 1"
# dead, and quick mode proves it since it visits closed structures of pawns and
# bishops (it used to need full mode): a CHA test vector
_CLOSED_BISHOPS_DEAD = "7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1"
# from a real game (Carlsen, masters collection, ply 118): White in check from
# d5; the static proof after each king move settles it without a full run
_QUICK_DEAD_IN_CHECK = "8/8/1p1k4/pP1p1p1p/P1KP1P1P/8/8/8 w - - 0 60"


def test_dead_in_check_is_proved_without_a_full_run() -> None:
    board = chess.Board(_QUICK_DEAD_IN_CHECK)
    assert board.is_check()
    v = EngineDeadTest(QUICK_ONLY)(board)  # no full run allowed: decided by quick mode alone
    assert v is not None and v.termination == "dead_position"
    assert all(can_checkmate(board, c, mode="quick").value is False for c in chess.COLORS)


def test_closed_bishops_are_proved_dead_by_quick_mode() -> None:
    board = chess.Board(_CLOSED_BISHOPS_DEAD)
    assert all(can_checkmate(board, c, mode="quick").value is False for c in chess.COLORS)
    v = EngineDeadTest(QUICK_ONLY)(board)
    assert v is not None and v.termination == "dead_position"


def test_full_only_dead_position_needs_the_full_run() -> None:
    board = chess.Board(_FULL_ONLY_DEAD)
    assert any(can_checkmate(board, c, mode="quick").value is None for c in chess.COLORS)
    assert EngineDeadTest(QUICK_ONLY)(board) is None
    v = EngineDeadTest()(board)
    assert v is not None and v.termination == "dead_position"


def test_per_game_budget_does_not_depend_on_the_cache() -> None:
    # a spent budget answers None for a position that needs a full run, whether
    # or not another game already cached its answer; a fresh game proves it
    board = chess.Board(_FULL_ONLY_DEAD)
    spent = EngineDeadTest(full_runs_per_structure=0)
    assert spent(board) is None
    assert engine_dead_test(board) is not None
    assert EngineDeadTest(full_runs_per_structure=0)(board) is None
    assert EngineDeadTest()(board) is not None


def test_game_rulings_do_not_depend_on_earlier_games() -> None:
    # the structure of _FULL_ONLY_DEAD with the kings elsewhere: live, and only
    # a full run says so
    live = [f"6n1/4p1bp/4Pp1p/5P1P/p1p5/P1Pp4/PB1P4/{rank1} w - - 0 1"
            for rank1 in ("KN1k4", "KN2k3", "KN3k2")]
    earlier = EngineDeadTest()
    for fen in live:
        board = chess.Board(fen)
        assert any(can_checkmate(board, c, mode="quick").value is None for c in chess.COLORS)
        assert earlier(board) is None
    dead = chess.Board(_FULL_ONLY_DEAD)
    assert earlier(dead) is None  # that game's budget for the structure is spent
    later = EngineDeadTest()  # ... but not the next game's
    v = later(dead)
    assert v is not None and v.termination == "dead_position"


@pytest.mark.parametrize(("fen", "moves", "ply"), _MISSED)
def test_live_arbiter_and_batch_rule_alike(fen: str, moves: str, ply: int) -> None:
    # one implementation: the history asked after every ply, as the live
    # arbiter asks it, ends where remis game ends, with the same words
    pgn = f'[FEN "{fen}"]\n[SetUp "1"]\n[Result "*"]\n\n{moves} *\n'
    batch = rule_on_parsed(parse_game(GameText(1, 0, pgn)), last_position=False).end
    history, test = History(chess.Board(fen)), EngineDeadTest()
    live = automatic_end(history, test) if ply == 0 else None
    for san in [t for t in moves.split() if not t[0].isdigit()]:
        if live is not None:
            break
        history.push_san(san)
        live = automatic_end(history, test)
    assert live is not None and batch is not None
    assert live.to_json() == batch.to_json()


def test_a_position_the_engine_refuses_gets_the_material_cases() -> None:
    # the side not to move in check: no legal position, never an error
    assert EngineDeadTest()(chess.Board("4k3/8/8/8/8/8/8/4K2r b - - 0 1")) is None
    v = EngineDeadTest()(chess.Board("4k3/8/8/8/8/8/8/4K2n b - - 0 1"))
    assert v is not None and v.termination == "insufficient_material"
