"""CASES S03-S06 and T01-T05 through the unwinnability engine, the dead test
of the rules core, ``remis position`` and the 6.9 ruling of ``remis game``."""

from __future__ import annotations

import chess
import pytest

from remis import can_checkmate, engine_dead_test, is_dead_position, rule_on_position
from remis.cli.game import human_line
from remis.game import rule_on_parsed
from remis.pgn import GameText, parse_game
from remis.replay import replay
from remis.unwinnable.flag import flag_fall
from tests.unwinnable.helpers import mates


def assert_mates(fen: str, color: chess.Color, line: tuple[str, ...] | list[str]) -> None:
    assert mates(fen, color, line), (fen, line)


def play(fen: str, sans: list[str]) -> chess.Board:
    board = chess.Board(fen)
    for san in sans:
        board.push_san(san)
    return board


def replay_sans(fen: str, sans: list[str]):
    board = chess.Board(fen)
    moves = []
    for san in sans:
        moves.append(board.parse_san(san))
        board.push(moves[-1])
    return replay(moves, chess.Board(fen), dead_test=engine_dead_test)


def test_s03_capture_leaves_knight_dead_at_once() -> None:
    report = replay_sans("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1", ["Nxd1"])
    assert report.end is not None
    assert (report.end.ply, report.end.termination, report.end.article) == (
        1, "insufficient_material", "5.2.2")


def test_s04_same_coloured_bishops_dead() -> None:
    report = replay_sans("8/8/3k4/8/4b3/5N2/2B5/4K3 b - - 0 1", ["Bxf3"])
    assert report.end is not None and report.end.result == "1/2-1/2"
    assert report.end.termination == "insufficient_material"


def test_s05_opposite_bishops_not_dead_both_can_mate() -> None:
    fen = "8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1"
    report = replay_sans(fen, ["Kf2"])
    assert report.end is None
    after = play(fen, ["Kf2"])
    assert not is_dead_position(after)
    for color in chess.COLORS:
        v = can_checkmate(after, color)
        assert v.value is True
        assert_mates(after.fen(), color, v.line)


def test_s05w_witness_is_mate_already() -> None:
    board = chess.Board("kb6/8/1K6/8/4B3/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    v = can_checkmate(board, chess.WHITE)
    assert v.value is True and v.line == ()
    assert can_checkmate(board, chess.BLACK).value is False


def test_s06_locked_pawns_dead_position() -> None:
    fen = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"
    board = chess.Board(fen)
    assert not board.is_insufficient_material()  # material-only tests miss it
    assert is_dead_position(board)
    out = rule_on_position(fen).to_json()
    assert out["end"]["termination"] == "dead_position"
    assert out["end"]["article"] == "5.2.2"
    assert out["can_checkmate"] == {"white": False, "black": False}
    assert out["helpmate"] == {"white": None, "black": None}
    dead = engine_dead_test(board)
    assert dead is not None and dead.termination == "dead_position"


def test_s06_reached_in_a_game_ends_it_at_that_ply() -> None:
    report = replay_sans("8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/8 w - - 0 1", ["h4"])
    assert report.end is not None
    assert (report.end.ply, report.end.termination) == (1, "dead_position")


@pytest.mark.parametrize(("case", "fen", "flagged", "result"), [
    ("T01", "8/8/8/4k3/8/2n5/8/K7 w - - 0 1", chess.WHITE, "1/2-1/2"),
    ("T02", "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.WHITE, "0-1"),
    ("T03", "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", chess.WHITE, "1/2-1/2"),
    ("T04", "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", chess.BLACK, "1-0"),
])
def test_flag_fall(case: str, fen: str, flagged: chess.Color, result: str) -> None:
    out = flag_fall(chess.Board(fen), flagged)
    assert out["result"] == result, case
    assert out["article"] == "6.9" and out["applies"] is True
    verdict = out["can_checkmate"]
    assert verdict["value"] is (result != "1/2-1/2")
    if verdict["value"]:
        assert_mates(fen, not flagged, verdict["line"])


def _pgn(fen: str, movetext: str, result: str) -> str:
    return (f'[Result "{result}"]\n[SetUp "1"]\n[FEN "{fen}"]\n'
            f'[Termination "Time forfeit"]\n\n{movetext} {result}\n')


def test_t02_through_remis_game() -> None:
    g = parse_game(GameText(1, 0, _pgn("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", "", "0-1")))
    tf = rule_on_parsed(g).to_json()["time_forfeit"]
    assert (tf["player"], tf["result"], tf["article"]) == ("white", "0-1", "6.9")
    assert tf["can_checkmate"]["value"] is True


def test_t03_scored_as_loss_becomes_draw() -> None:
    g = parse_game(GameText(1, 0, _pgn("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", "", "0-1")))
    tf = rule_on_parsed(g).extra["time_forfeit"]
    assert tf["result"] == "1/2-1/2" and tf["can_checkmate"]["value"] is False
    assert "cannot checkmate" in tf["explanation"]


def test_t01_in_a_game_is_dead_before_the_flag() -> None:
    # K+N v K is already a dead position: the game ended before the flag fell
    g = parse_game(GameText(1, 0, _pgn("8/8/8/4k3/8/2n5/8/K7 w - - 0 1", "", "0-1")))
    tf = rule_on_parsed(g).extra["time_forfeit"]
    assert tf["applies"] is False and tf["result"] == "1/2-1/2"


def test_t05_dead_position_first_flag_changes_nothing() -> None:
    g = parse_game(GameText(1, 0, _pgn("8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1", "1... Nxd1", "0-1")))
    ruling = rule_on_parsed(g)
    assert ruling.end is not None and ruling.end.termination == "insufficient_material"
    tf = ruling.extra["time_forfeit"]
    assert tf["applies"] is False and tf["result"] == "1/2-1/2"
    assert "already ended" in tf["explanation"]


def test_checkmate_before_the_flag_the_text_line_calls_the_forfeit_moot() -> None:
    # a PGN tagged "Time forfeit" whose last move mates: the mate ends the game
    # (5.1.1), so the text line must not present the forfeit as a result of its own
    g = parse_game(GameText(1, 0, '[Result "1-0"]\n[Termination "Time forfeit"]\n\n'
                                  '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n'))
    ruling = rule_on_parsed(g)
    assert ruling.end is not None and ruling.end.termination == "checkmate"
    assert ruling.extra["time_forfeit"]["applies"] is False
    line = human_line("t.pgn", ruling, multi=False)
    assert "time forfeit: moot, the game had already ended (Art. 6.9)" in line
    assert "time forfeit: 1-0" not in line


def test_drawn_result_flagged_side_is_side_to_move() -> None:
    g = parse_game(GameText(1, 0, _pgn("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", "", "1/2-1/2")))
    tf = rule_on_parsed(g).extra["time_forfeit"]
    assert tf["player"] == "white" and tf["result"] == "1/2-1/2"


def test_no_time_forfeit_object_without_the_tag() -> None:
    g = parse_game(GameText(1, 0, '[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'))
    assert "time_forfeit" not in rule_on_parsed(g).extra


def test_a_pawn_never_captures_a_king_in_the_static_proof() -> None:
    # CHA vector: Black's only pieces that could ever give mate are shut in;
    # the white king's square is no target for a black pawn, so the static
    # proof holds (before, a pawn "capturing" the king released it)
    fen = "1b3kBR/4pP1P/1p1pP2P/1P1P4/8/K5p1/6P1/1B6 b - - 0 1"
    verdict = can_checkmate(chess.Board(fen), chess.BLACK)
    assert verdict.value is False and verdict.method == "static"
    assert can_checkmate(chess.Board(fen), chess.WHITE).value is True
