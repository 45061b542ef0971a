"""The first dead position of a finished game, found from its last one:
``remis game``, ``remis claim`` and the audit end a game there even where
the per-ply test does not look (no closed structure, no wall)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from remis.audit.checks import audit_game, audit_replay
from remis.game import claim_in_game, rule_on_parsed
from remis.pgn import GameText, parse_game, read_games
from remis.unwinnable import can_checkmate
from remis.unwinnable.deadtest import EngineDeadTest
from remis.unwinnable.first_dead import first_dead, full_dead_test, positions

from .helpers import mates

# 1... Kxb1 leaves a position where neither side can mate (a CHA test vector,
# proved by exhausting its 292 reachable positions) that is no candidate of
# the per-ply test (White's a-pawn is free to run)
START = "8/2p5/1pP5/1P6/1P6/KP6/PP6/1Nk5 b - - 0 1"
MOVES = "1... Kxb1 2. Ka4 Kc2 3. Ka3"


def _game(result: str = "0-1", termination: str | None = None) -> str:
    extra = f'[Termination "{termination}"]\n' if termination else ""
    return (f'[Result "{result}"]\n{extra}[SetUp "1"]\n[FEN "{START}"]\n\n'
            f"{MOVES} {result}\n")


def _moves() -> list[chess.Move]:
    board = chess.Board(START)
    return [board.push_san(san) for san in ("Kxb1", "Ka4", "Kc2", "Ka3")]


def test_the_first_dead_position_is_proved_dead_and_the_one_before_is_live() -> None:
    boards = positions(chess.Board(START), _moves())
    found = first_dead(chess.Board(START), _moves())
    assert found is not None
    assert found.ply == 1 and found.verdict.termination == "dead_position"
    assert found.board.fen() == boards[1].fen()
    assert all(can_checkmate(boards[1], c).value is False for c in chess.COLORS)
    # before the capture Black can still mate: a helpmate that replays
    live = [can_checkmate(boards[0], c) for c in chess.COLORS]
    assert any(v.value for v in live)
    for v in live:
        if v.value:
            assert mates(boards[0].fen(), v.color, v.line)
    # the per-ply test does not prove it: only the last position's test finds it
    assert EngineDeadTest()(boards[1]) is None


def test_a_live_game_has_no_dead_position() -> None:
    moves = [chess.Move.from_uci(u) for u in ("e2e4", "e7e5")]
    assert first_dead(chess.Board(), moves) is None
    assert full_dead_test(chess.Board()) is None


def test_remis_game_ends_at_the_first_dead_position() -> None:
    ruling = rule_on_parsed(parse_game(GameText(1, 0, _game())))
    assert ruling.end is not None
    assert (ruling.end.termination, ruling.end.article, ruling.end.ply, ruling.end.result) == (
        "dead_position", "5.2.2", 1, "1/2-1/2")
    assert ruling.plies == 5 - 1  # the record is replayed to its end
    # without the last position's test the game goes on: the per-ply test misses it
    assert rule_on_parsed(parse_game(GameText(1, 0, _game())), last_position=False).end is None


def test_a_game_set_up_in_a_dead_position_ends_at_once() -> None:
    # the position after 1... Kxb1 as the set-up position of a game without moves
    fen = "8/2p5/1pP5/1P6/1P6/KP6/PP6/1k6 w - - 0 2"
    pgn = f'[Result "1-0"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n1-0\n'
    ruling = rule_on_parsed(parse_game(GameText(1, 0, pgn)))
    assert ruling.end is not None
    assert (ruling.end.termination, ruling.end.ply) == ("dead_position", 0)
    assert ruling.extra["time_forfeit"]["applies"] is False


def test_a_time_forfeit_after_the_first_dead_position_is_moot() -> None:
    ruling = rule_on_parsed(parse_game(GameText(1, 0, _game("1-0", "Time forfeit"))))
    assert ruling.end is not None and ruling.end.ply == 1
    assert ruling.extra["time_forfeit"]["applies"] is False
    assert ruling.extra["time_forfeit"]["result"] == "1/2-1/2"


def test_a_claim_after_the_first_dead_position_is_moot() -> None:
    g = parse_game(GameText(1, 0, _game()))
    claim = claim_in_game(g, 3, kind="threefold_repetition")
    assert not claim.valid
    assert "already over" in claim.explanation and "5.2.2" in claim.explanation


@pytest.mark.parametrize(("result", "termination"), [("0-1", None), ("1-0", "Time forfeit")])
def test_the_audit_rules_as_remis_game_does(result: str, termination: str | None) -> None:
    a = audit_replay(parse_game(GameText(1, 0, _game(result, termination))))
    assert a.end is None  # the audit's per-ply test is quick mode only
    f = audit_game(a)
    assert f is not None
    assert (f.check, f.article, f.ply, f.result_under_laws) == (
        "moves_after_end", "5.2.2", 1, "1/2-1/2")
    # a check left out keeps the finding that the last position gave
    f = audit_game(a, ("result_vs_position", "time_forfeit"))
    assert f is not None and f.result_under_laws == "1/2-1/2"
    assert f.check == ("time_forfeit" if termination else "result_vs_position")


def test_a_start_position_the_engine_refuses_is_no_crash() -> None:
    # a double check no move can give: the engine refuses it (ValueError);
    # first_dead answers "not proved dead"
    board = chess.Board("B1R5/NkP5/P7/KpP5/pP6/P2P2P1/8/B7 b - - 0 1")
    with pytest.raises(ValueError):
        can_checkmate(board, chess.WHITE)
    assert first_dead(board, []) is None


def test_dead_vectors_end_games_from_the_last_position(shared_data: Path) -> None:
    # CHA test vectors where neither side can mate and the per-ply test does
    # not prove it, each played on by one move: the game ends at ply 0
    path = shared_data / "unwinnability" / "cha-test-vectors.txt"
    fens: dict[str, set[str]] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            code, fen = line.split(" ", 1)
            fens.setdefault(fen.strip(), set()).add(code)
    tried = 0
    for fen, codes in fens.items():
        if codes != {"--"} or tried >= 12:
            continue
        board = chess.Board(fen)
        if EngineDeadTest()(board) is not None or full_dead_test(board,
                                                                   max_nodes=20_000) is None:
            continue
        move = next(iter(board.legal_moves), None)
        if move is None:
            continue
        found = first_dead(board, [move], max_nodes=20_000)
        assert found is not None and found.ply == 0, fen
        tried += 1
    assert tried == 12


#: masters games that went dead outside the per-ply candidates: file, game
#: number, the ply of the first dead position
REAL_GAMES = [
    ("Stefanova.pgn", 10, 101),  # 51. Rf7+ Kxf7 stalemates White: dead at once
    ("Kosteniuk.pgn", 59, 102),  # 51... Qg2+: both captures stalemate Black
]


@pytest.mark.parametrize(("name", "index", "ply"), REAL_GAMES)
def test_real_games_that_went_dead_outside_the_candidates(
        shared_data: Path, name: str, index: int, ply: int) -> None:
    game = next(g for g in read_games(shared_data / "masters" / name) if g.index == index)
    assert game.headers["Result"] == "1/2-1/2"
    ruling = rule_on_parsed(game)
    assert ruling.end is not None
    assert (ruling.end.termination, ruling.end.ply) == ("dead_position", ply)
    assert rule_on_parsed(game, last_position=False).end is None
    # the position before was live: one side could still mate
    board = game.board.copy()
    for move in game.moves[:ply - 1]:
        board.push(move)
    assert any(can_checkmate(board, c).value for c in chess.COLORS)
