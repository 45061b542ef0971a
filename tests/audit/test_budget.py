"""The audit's "can this side still mate?" verdicts are bounded by nodes, not
by time: the same game gives the same findings whatever the machine's load,
and an undecided verdict is never a finding but is counted."""

from __future__ import annotations

import itertools
import time

import chess
import pytest

import remis.audit.checks as checks
import remis.unwinnable as unwinnable
from remis.audit.checks import audit_game, audit_replay, decide_can_mate
from remis.audit.run import audit_texts
from remis.pgn import GameText, parse_game
from remis.unwinnable.moves import pseudo_legal_count

# houAYIfd's final position (lichess, 2016): a time forfeit scored 1/2-1/2 with
# full material; Black, who did not flag, can mate (quick mode cannot tell)
HOU_FEN = "rn2k1nr/pp2b3/2p2qNp/7Q/3PP1b1/1B6/PPP2PPP/RNB2R1K w - - 1 14"


def _tf_game(fen: str, result: str) -> GameText:
    return GameText(1, 0, f'[Result "{result}"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n'
                          f'[FEN "{fen}"]\n\n{result}\n')


def test_engine_is_asked_with_a_node_budget_and_no_time_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    real = checks.can_checkmate

    def spy(board: chess.Board, color: chess.Color, **kw: object) -> unwinnable.Verdict:
        calls.append(kw)
        return real(board, color, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(checks, "can_checkmate", spy)
    f = audit_game(audit_replay(parse_game(_tf_game(HOU_FEN, "1/2-1/2"))))
    assert f is not None and f.result_under_laws == "0-1"
    full = [kw for kw in calls if kw.get("mode") == "full"]
    assert full and all(kw.get("max_nodes") == checks.VERDICT_NODES for kw in full)
    assert not any("max_seconds" in kw for kw in calls)


def test_findings_do_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine so loaded that every clock reading is a minute later than the
    one before: a wall-clock bound would give up; a node budget does not."""
    ticks = itertools.count(0, 60.0)

    def crawl() -> float:
        return float(next(ticks))

    monkeypatch.setattr(time, "monotonic", crawl)
    monkeypatch.setattr(time, "perf_counter", crawl)
    f = audit_game(audit_replay(parse_game(_tf_game(HOU_FEN, "1/2-1/2"))))
    assert f is not None and f.check == "time_forfeit" and f.result_under_laws == "0-1"
    assert f.evidence["verdict"]["method"] in ("search", "visit")


def test_an_undecided_verdict_is_no_finding_and_is_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "VERDICT_NODES", 1)
    n, findings, summary = audit_texts([_tf_game(HOU_FEN, "1/2-1/2")], "x.pgn")
    assert (n, findings) == (1, [])
    assert summary["undecided"] == {"time_forfeit": 1}


def test_a_finding_carries_the_full_mode_verdict() -> None:
    # Black to move is stalemated (b1 and b2 are covered): quick mode proves White
    # cannot mate (forced moves); the verdict given is the full mode's all the same
    board = chess.Board("8/8/8/8/8/2N5/p7/k1K5 b - - 0 1")
    full = unwinnable.can_checkmate(board, chess.WHITE, mode="full",
                                    max_nodes=checks.VERDICT_NODES)
    v = decide_can_mate(board, chess.WHITE, False)
    assert v.value is False and v == full


def test_what_quick_mode_decides_needs_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    modes: list[object] = []
    real = checks.can_checkmate

    def spy(board: chess.Board, color: chess.Color, **kw: object) -> unwinnable.Verdict:
        modes.append(kw.get("mode"))
        return real(board, color, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(checks, "can_checkmate", spy)
    # White flagged with K+Q v K, scored 0-1: Black's bare king cannot mate (material)
    f = audit_game(audit_replay(parse_game(_tf_game("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", "0-1"))))
    assert f is not None and f.result_under_laws == "1/2-1/2"
    assert modes == ["quick"]


def test_a_verdict_that_is_no_finding_may_come_from_the_probe() -> None:
    # White flagged, scored 0-1; Black can mate: the probe's line settles it
    fen = "r3k2r/ppp1q1pp/4ppn1/8/3p1P2/P2P2Q1/1PP1B1PP/R3K2R w KQkq - 1 16"
    v = decide_can_mate(chess.Board(fen), chess.BLACK, False)
    assert v.value is True and v.method in ("search", "visit")
    board = chess.Board(fen)
    for uci in v.line:
        board.push(board.parse_uci(uci))  # raises on an illegal move
    assert board.is_checkmate() and board.turn == chess.WHITE


def test_without_a_mate_from_the_probe_the_full_mode_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for fen, color in [("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.WHITE),
                       ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK)]:
        board = chess.Board(fen)
        full = unwinnable.can_checkmate(board, color, mode="full",
                                        max_nodes=checks.VERDICT_NODES)
        monkeypatch.setattr(checks, "helpmate_probe", lambda b, c, **kw: None)
        assert checks.settle_can_mate(board, color) == full
        monkeypatch.undo()
    # a "cannot" is always the full mode's proof, probe or not
    board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    assert checks.settle_can_mate(board, chess.WHITE) == unwinnable.can_checkmate(
        board, chess.WHITE, mode="full", max_nodes=checks.VERDICT_NODES)


def test_the_probe_is_asked_with_a_node_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    real = checks.helpmate_probe

    def spy(board: chess.Board, color: chess.Color, **kw: object) -> object:
        calls.append(kw)
        return real(board, color, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(checks, "helpmate_probe", spy)
    # White flagged in check with 4 legal moves, scored 0-1; Black can mate
    fen = "2r2rk1/1b3p2/p4p1p/1p6/6Bq/2P1p2n/PP4P1/R4RK1 w - - 0 30"
    n, findings, summary = audit_texts([_tf_game(fen, "0-1")], "x.pgn")
    assert (n, findings, summary["undecided"]) == (1, [], {})
    assert calls == [{"max_nodes": checks.PROBE_NODES}]


def _spy_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the full-mode searches and probes the audit asks for."""
    asked: list[str] = []
    real_probe, real_can = checks.helpmate_probe, checks.can_checkmate

    def probe(board: chess.Board, color: chess.Color, **kw: object) -> object:
        asked.append("probe")
        return real_probe(board, color, **kw)  # type: ignore[arg-type]

    def can(board: chess.Board, color: chess.Color, **kw: object) -> unwinnable.Verdict:
        if kw.get("mode") == "full":
            asked.append("full")
        return real_can(board, color, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(checks, "helpmate_probe", probe)
    monkeypatch.setattr(checks, "can_checkmate", can)
    return asked


def test_an_open_position_is_not_searched_for_a_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    # White flagged with 20 legal moves, scored 0-1; Black has no queen or
    # rook, but bishops, knight and pawns with 26 moves and no blocked
    # structure: not searched, not undecided
    asked = _spy_searches(monkeypatch)
    fen = "8/4b2k/p2p4/1pnPpb2/8/1P4KP/P2NBP2/8 w - - 0 31"
    board = chess.Board(fen)
    assert board.legal_moves.count() > checks.GATE_MOVES
    assert pseudo_legal_count(board, chess.BLACK) > checks.GATE_WINNER_MOVES
    n, findings, summary = audit_texts([_tf_game(fen, "0-1")], "x.pgn")
    assert (n, findings, summary["undecided"], asked) == (1, [], {}, [])


def test_a_blocked_structure_is_searched_whatever_the_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Black to move has 11 moves (bishop and king) and flagged, scored 1-0;
    # White's bishop and pawns can never mate behind the locked pawns
    fen = "7k/6pP/4K1P1/4b3/4B3/8/8/8 b - - 8 63"
    board = chess.Board(fen)
    assert board.legal_moves.count() > checks.GATE_MOVES
    assert pseudo_legal_count(board, chess.WHITE) > checks.GATE_WINNER_MOVES
    a = audit_replay(parse_game(_tf_game(fen, "1-0")))
    f = checks.check_time_forfeit(a)
    assert f is not None and f.check == "time_forfeit" and f.result_under_laws == "1/2-1/2"
    assert f.evidence["verdict"]["method"] == "static"
    # Black cannot mate either: the position is dead, so the game was over
    # before the flag fell, and the audit's finding says so (5.2.2)
    f = audit_game(a)
    assert f is not None and (f.check, f.article, f.ply) == ("result_vs_position", "5.2.2", 0)


def test_a_free_queen_or_rook_is_not_searched_for_a_cannot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # White flagged with 37 legal moves, scored 0-1; Black has queen and
    # rooks: not searched, and not counted as undecided either
    asked = _spy_searches(monkeypatch)
    fen = "5rk1/pp4pp/2pb3q/5r2/3PR3/7P/PPP2PP1/R2Q2K1 w - - 1 20"
    assert chess.Board(fen).legal_moves.count() > checks.GATE_MOVES
    n, findings, summary = audit_texts([_tf_game(fen, "0-1")], "x.pgn")
    assert (n, findings, summary["undecided"], asked) == (1, [], {}, [])
    # the same position as a resignation: not searched either
    resigned = GameText(1, 0, f'[Result "0-1"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n0-1\n')
    assert audit_texts([resigned], "x.pgn")[1] == [] and asked == []


# White's only move is 1.h6+, and after any reply White has none left:
# stalemate, so Black's queen and rook can never mate (a lichess loss on time)
STALEMATED = "8/6kp/8/7P/8/5q1r/8/6K1 w - - 11 67"


def test_a_queen_or_rook_that_cannot_mate_is_found_on_time() -> None:
    a = audit_replay(parse_game(_tf_game(STALEMATED, "0-1")))
    f = checks.check_time_forfeit(a)
    assert f is not None and f.check == "time_forfeit" and f.article == "6.9"
    assert f.result_under_laws == "1/2-1/2" and f.evidence["verdict"]["value"] is False
    # White cannot mate either: dead before the flag fell (5.2.2), the finding says so
    f = audit_game(a)
    assert f is not None and (f.check, f.article, f.ply) == ("result_vs_position", "5.2.2", 0)
    assert f.result_under_laws == "1/2-1/2"


def test_a_queen_or_rook_that_cannot_mate_is_found_after_a_resignation() -> None:
    # 5.1.2 (2023): a resignation when the opponent cannot mate is a draw;
    # with a queen and a rook for the winner this used to be skipped
    gt = GameText(1, 0, f'[Result "0-1"]\n[Date "2024.01.01"]\n[SetUp "1"]\n'
                        f'[FEN "{STALEMATED}"]\n\n0-1\n')
    a = audit_replay(parse_game(gt))
    f = checks.check_result_vs_position(a)
    assert f is not None and f.check == "result_vs_position" and f.article == "5.1.2"
    assert f.result_under_laws == "1/2-1/2" and f.evidence["verdict"]["value"] is False
    f = audit_game(a)  # and the position is dead: 5.2.2
    assert f is not None and (f.check, f.article, f.ply) == ("result_vs_position", "5.2.2", 0)
