"""Illegal positions get a clear error naming the defect; nothing crashes the
engine (random legal positions, both modes, tight limits)."""

from __future__ import annotations

import io
import json
import random

import chess
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from remis.cli import main
from remis.position import illegal_reason
from remis.unwinnable import can_checkmate, is_dead_position
from tests.unwinnable.helpers import mates


@pytest.mark.parametrize(("fen", "words"), [
    ("4k2R/8/8/8/8/8/8/4K2r w - - 0 1", "both kings in check"),
    ("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", "two pieces give check and neither"),
    ("4k3/8/8/8/1b5b/8/8/4K3 w - - 0 1", "a double check that no move can have given"),
    ("4k3/8/8/8/1b6/8/8/4K2r w - - 0 1", "a double check that no move can have given"),
    ("4k3/8/8/8/8/3n4/4r3/4K3 w - - 0 1", "a double check that no move can have given"),
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawns on the first or last rank"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "the side not to move is in check"),  # wrong side
    ("8/8/8/8/8/8/8/Kk6 w - - 0 1", "kings on adjacent squares"),
    ("8/8/8/8/8/8/8/K7 w - - 0 1", "no black king"),
])
def test_illegal_positions_raise_value_error(fen: str, words: str) -> None:
    board = chess.Board(fen)
    for mode in ("full", "quick"):
        with pytest.raises(ValueError, match=words) as info:
            can_checkmate(board, chess.WHITE, mode=mode)  # type: ignore[arg-type]
        assert fen.split()[0] in str(info.value)
    with pytest.raises(ValueError):
        is_dead_position(board)


@pytest.mark.parametrize("fen", [
    "4k3/8/8/1B6/8/8/8/4RK2 b - - 0 1",  # Be4-b5+ uncovered the rook
    "3Qk3/8/8/8/8/8/8/4RK2 b - - 0 1",  # exd8=Q+ (or Qe7-d8+) uncovered the rook
    "4k3/8/5N2/8/8/8/8/4RK2 b - - 0 1",  # Ne4-f6+ uncovered the rook
])
def test_possible_double_checks_are_accepted(fen: str) -> None:
    board = chess.Board(fen)
    assert chess.popcount(board.checkers_mask()) == 2
    assert illegal_reason(board) is None
    can_checkmate(board, chess.WHITE, mode="quick")  # raises ValueError on an illegal position


def test_cli_reports_bad_lines_and_goes_on(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    fens = ["4k2R/8/8/8/8/8/8/4K2r w - - 0 1", "not a fen",
            "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(fens) + "\n"))
    status = main(["position", "-", "--json"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1 and len(out) == 4
    assert out[0]["error"]["line"] == 1 and "in check" in out[0]["error"]["message"]
    assert out[1]["error"]["line"] == 2
    assert out[2]["end"]["termination"] == "dead_position"
    assert out[3]["can_checkmate"] == {"white": True, "black": False}
    assert out[3]["helpmate"]["black"] is None and out[3]["helpmate"]["white"]


def test_cli_plain_output_names_the_line_and_bad_bytes_stay_valid_utf8(
        monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    raw = b"8/8/4k3/8/8/Q2K4/8/8 w - - 0 1\n\xff\xfe garbage\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["position", "-"]) == 1
    assert "ERROR (line 2): malformed FEN" in capsysbinary.readouterr().out.decode("utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["position", "-", "--json"]) == 1
    lines = capsysbinary.readouterr().out.decode("utf-8").splitlines()  # strict UTF-8
    assert json.loads(lines[1])["fen"].startswith("\ufffd")


def test_cli_reads_a_fen_after_a_byte_order_mark(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    raw = "\ufeff8/8/4k3/8/8/4K3/8/8 w - - 0 1\n".encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["position", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["end"]["termination"] == "insufficient_material"


@pytest.mark.parametrize("option", [["--max-nodes", "0"], ["--max-nodes", "-3"],
                                    ["--max-seconds", "-1"], ["--max-seconds", "0"]])
def test_cli_refuses_budgets_out_of_range(option: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["position", "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", *option])
    assert info.value.code == 2 and "must be" in capsys.readouterr().err


def test_cli_error_names_the_line_of_the_input_blank_lines_counted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    text = "\n8/8/4k3/8/8/Q2K4/8/8 w - - 0 1\n   \n\nP3k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status = main(["position", "-", "--json"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1 and len(out) == 2 and "error" not in out[0]
    assert out[1]["error"]["line"] == 5 and "first or last rank" in out[1]["error"]["message"]


def _random_positions(n: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = chess.Board()
        for _ in range(rng.randrange(10, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.copy(stack=False))
    return out


def test_random_positions_never_crash_and_lines_mate() -> None:
    for board in _random_positions(40, seed=7):
        for color in chess.COLORS:
            for mode in ("quick", "full"):
                v = can_checkmate(board, color, mode=mode, max_nodes=300)  # type: ignore[arg-type]
                assert v.value in (True, False, None) and v.reason
                if v.value:
                    assert mates(board.fen(), color, v.line), (board.fen(), v.line)


def test_cli_quick_mode_stdin_in_order(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    fens = ["8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.STARTING_FEN,
            "8/8/8/4k3/8/8/8/K2n4 w - - 0 1"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(fens) + "\n"))
    assert main(["position", "-", "--json", "--quick"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["fen"] for o in out] == fens
    assert out[0]["end"]["termination"] == "dead_position"
    assert out[1]["can_checkmate"] == {"white": None, "black": None} and out[1]["end"] is None
    assert out[2]["end"]["termination"] == "insufficient_material"


@pytest.mark.parametrize(("args", "kwargs", "error"), [
    (("8/8/8/8/8/8/8/K1k5 w - - 0 1", chess.WHITE), {}, TypeError),  # a FEN, not a board
    ((chess.Board(), "white"), {}, TypeError),
    ((chess.Board(), chess.WHITE), {"max_nodes": 0}, ValueError),
    ((chess.Board(), chess.WHITE), {"max_nodes": -5}, ValueError),
    ((chess.Board(), chess.WHITE), {"max_nodes": True}, ValueError),
    ((chess.Board(), chess.WHITE), {"max_seconds": -1.0}, ValueError),
])
def test_bad_arguments_are_named(args: tuple[object, ...], kwargs: dict[str, object],
                                 error: type[Exception]) -> None:
    with pytest.raises(error, match=r"board|color|max_nodes|max_seconds"):
        can_checkmate(*args, **kwargs)  # type: ignore[arg-type]


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_core_refuses_exactly_what_python_chess_and_remis_refuse(seed: int) -> None:
    # random placements (kings, pawns on any rank, pieces), side to move,
    # castling rights and en passant squares: the core's own test of the
    # position (python-chess's Board.status and remis's double-check rule, on
    # bitboards) accepts a board exactly when remis.position.illegal_reason does
    rng = random.Random(seed)
    board = chess.Board(None)
    for color in chess.COLORS:  # mostly one king each, now and then none or two
        for _ in range(rng.choices([0, 1, 2], [1, 18, 1])[0]):
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, color))
    for _ in range(rng.randint(0, 10)):
        board.set_piece_at(rng.randrange(64), chess.Piece(rng.randint(1, 5), rng.random() < 0.5))
    board.turn = rng.random() < 0.5
    if rng.random() < 0.3:
        board.castling_rights = rng.choice([chess.BB_A1, chess.BB_H1, chess.BB_A8, chess.BB_H8,
                                            chess.BB_A1 | chess.BB_H8, chess.BB_E4])
    if rng.random() < 0.3:
        board.ep_square = rng.choice([chess.A3, chess.D6, chess.E3, chess.H6, chess.E4])
    try:
        can_checkmate(board, rng.random() < 0.5, mode="quick")
        refused = False
    except ValueError:
        refused = True
    event("refused" if refused else "accepted")
    assert refused == (illegal_reason(board) is not None), board.fen()
