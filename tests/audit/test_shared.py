"""The audit on the real collections in ../shared/data (skipped without them)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from remis.audit.checks import audit_game, audit_replay
from remis.audit.split import read_range
from remis.laws import laws_for
from remis.pgn import GameText, parse_game
from remis.unwinnable import can_checkmate


def _games(path: Path) -> list[GameText]:
    """The games of a file, their texts as str (to look for words in them)."""
    return [GameText(g.index, g.offset, g.encoded().decode("utf-8", "replace"))
            for g in read_range(str(path), 0, path.stat().st_size)]


def _audit(gt: GameText, laws: str = "current"):  # type: ignore[no-untyped-def]
    g = parse_game(gt)
    return audit_game(audit_replay(g, laws_for(g.headers.get("Date"), laws)))  # type: ignore[arg-type]


def test_wcc_1886_game_11_fivefold_only_under_todays_laws(shared_data: Path) -> None:
    games = _games(shared_data / "masters" / "chess_masters_WCC.pgn")
    g11 = [gt for gt in games if '[Date "1886.' in gt.text and '[Round "11"]' in gt.text]
    assert len(g11) == 1
    f = _audit(g11[0], "current")
    assert f is not None and f.check == "moves_after_end" and f.article == "9.6.1"
    assert f.ply == 57 and f.evidence["end"]["plies_involved"] == [41, 45, 49, 53, 57]
    assert f.recorded_result == "0-1" and f.result_under_laws == "1/2-1/2"
    assert f.headers["White"].startswith("Zukertort") and "2023" in f.laws
    assert _audit(g11[0], "as-played") is None


def _lichess_time_forfeit_draws(shared_data: Path) -> list[GameText]:
    found = []
    for p in sorted((shared_data / "lichess").glob("*.pgn")):
        for gt in _games(p):
            if '[Termination "Time forfeit"]' in gt.text and '[Result "1/2-1/2"]' in gt.text:
                found.append(gt)
    return found


def test_lichess_time_forfeit_draws_without_mating_chances_are_not_findings(
        shared_data: Path) -> None:
    draws = _lichess_time_forfeit_draws(shared_data)
    assert len(draws) == 21
    others = [gt for gt in draws if "houAYIfd" not in gt.text]
    assert len(others) == 20
    for gt in others:
        f = _audit(gt)
        assert f is None, (gt.text[:200], f)
        # and not for want of a verdict: the player with time left (not to
        # move) is proved unable to mate
        a = audit_replay(parse_game(gt))
        assert a.board is not None and a.end is None
        assert can_checkmate(a.board, not a.board.turn).value is False, a.board.fen()


def test_houAYIfd_draw_on_time_with_full_material_is_a_finding(shared_data: Path) -> None:
    (gt,) = [g for g in _lichess_time_forfeit_draws(shared_data) if "houAYIfd" in g.text]
    g = parse_game(gt)
    a = audit_replay(g)
    board = a.board
    assert board is not None and a.plies == 26 and a.end is None  # 13 moves each
    verdict = can_checkmate(board, not board.turn)
    assert verdict.value is True  # the engine proves a helpmate for the side with time left
    mate = board.copy()
    for uci in verdict.line:
        mate.push_uci(uci)
    assert mate.is_checkmate() and mate.turn == board.turn
    f = audit_game(a)
    assert f is not None and f.check == "time_forfeit" and f.article == "6.9"
    assert f.recorded_result == "1/2-1/2"
    assert f.result_under_laws == ("0-1" if board.turn == chess.WHITE else "1-0")


def test_houAYIfd_finding_rests_on_the_verdict_and_never_on_an_undecided_one(
        shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's side of houAYIfd, with the engine's answer replaced by the
    helpmate 14.Qxh6 Qd6 15.Qg7 Qxh2# (checked here move by move)."""
    import remis.audit.checks as checks
    from remis.unwinnable import Verdict

    (gt,) = [g for g in _lichess_time_forfeit_draws(shared_data) if "houAYIfd" in g.text]
    a = audit_replay(parse_game(gt))
    assert a.board is not None
    line = ("h5h6", "f6d6", "h6g7", "d6h2")
    b = a.board.copy()
    for u in line:
        b.push_uci(u)  # raises if a move is illegal
    assert b.is_checkmate() and b.turn == chess.WHITE

    def proved(board: chess.Board, color: chess.Color, **kw: object) -> Verdict:
        return Verdict(color, True, "helpmate found", line)

    monkeypatch.setattr(checks, "can_checkmate", proved)
    f = audit_game(a)
    assert f is not None and f.check == "time_forfeit" and f.result_under_laws == "0-1"
    assert f.evidence["flagged"] == "white" and "h5h6" in f.explanation

    def undecided(board: chess.Board, color: chess.Color, **kw: object) -> Verdict:
        return Verdict(color, None, "undecided")

    monkeypatch.setattr(checks, "can_checkmate", undecided)
    assert audit_game(a) is None  # never a finding on an undecided verdict


def test_carlsen_firouzja_2022_went_on_after_a_blocked_dead_position(shared_data: Path) -> None:
    # a locked pawn wall with kings only: dead by 5.2.2 although material
    # alone does not say so; the record goes on after ply 93
    games = _games(shared_data / "masters" / "Carlsen.pgn")
    game = [gt for gt in games if gt.index == 4303 and "Firouzja" in gt.text]
    assert len(game) == 1
    f = _audit(game[0])
    assert f is not None and (f.check, f.article, f.ply) == ("moves_after_end", "5.2.2", 93)
    assert "blocked structure" in f.explanation and f.recorded_result == "1/2-1/2"


def test_the_helpmate_probe_changes_no_finding(shared_data: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe only settles verdicts that are no finding: the same findings
    with it and without it, and no more undecided verdicts."""
    import remis.audit.checks as checks
    from remis.audit.run import audit_texts

    texts = _games(shared_data / "lichess" / "lichess_2017-05.pgn")
    texts += [gt for gt in _games(shared_data / "masters" / "Fischer.pgn")
              if '"1/2-1/2"' not in gt.text][:300]
    n, with_probe, s_with = audit_texts(texts, "x.pgn")
    monkeypatch.setattr(checks, "helpmate_probe", lambda b, c, **kw: None)
    m, without, s_without = audit_texts(texts, "x.pgn")
    assert n == m == len(texts)
    assert [f.to_json() for f in with_probe] == [f.to_json() for f in without]
    for check, count in s_with["undecided"].items():
        assert count <= s_without["undecided"].get(check, 0)


#: every STEP-th of the 88,387 lichess unfair timeouts (1,474 positions)
UNFAIR_STEP = 60


def _unfair_games(shared_data: Path, time_forfeit: bool) -> list[GameText]:
    """The unfair timeouts as one-position games: the side to move lost on
    time (or, with ``time_forfeit=False``, resigned in 2024)."""
    path = shared_data / "unwinnability" / "lichess-unfair-timeouts.txt"
    out = []
    for i, line in enumerate(path.read_text().splitlines()[::UNFAIR_STEP]):
        fen = line.rsplit(" ", 1)[0]
        result = "0-1" if fen.split()[1] == "w" else "1-0"
        how = '[Termination "Time forfeit"]\n' if time_forfeit else '[Date "2024.01.01"]\n'
        out.append(GameText(i + 1, 0, f'[Result "{result}"]\n{how}[SetUp "1"]\n'
                                      f'[FEN "{fen}"]\n\n{result}\n'))
    return out


def test_every_unfair_timeout_is_a_6_9_finding(shared_data: Path) -> None:
    """Whatever the audit leaves unsearched (a free queen or rook for the
    side with time left) costs none of the real 6.9 findings."""
    # (a stalemate or a dead position, 5.2.1/5.2.2, ends the game whatever the clock)
    expected = {("time_forfeit", "6.9", "1/2-1/2"), ("result_vs_position", "5.2.1", "1/2-1/2"),
                ("result_vs_position", "5.2.2", "1/2-1/2")}
    missed = [gt.text for gt in _unfair_games(shared_data, True)
              if (f := _audit(gt)) is None
              or (f.check, f.article, f.result_under_laws) not in expected]
    assert not missed, missed[:3]


def test_a_resignation_in_an_unfair_timeout_position_is_a_5_1_2_finding(
        shared_data: Path) -> None:
    games = _unfair_games(shared_data, False)
    found = 0
    for gt in games:
        f = _audit(gt)
        if f is not None:
            assert f.check == "result_vs_position", gt.text
            assert f.article in ("5.1.2", "5.2.1", "5.2.2"), gt.text
            assert f.result_under_laws == "1/2-1/2", gt.text
            found += 1
    # all but the few whose final position the cheap visit before the
    # search cannot settle (2 of the 88,387 in the whole set)
    assert found >= len(games) - 2, (found, len(games))


def test_every_unfair_timeout_quick_mode_leaves_open_is_searched(shared_data: Path) -> None:
    """The audit skips the full search where quick mode leaves a question
    open in an open position (``_may_be_unable_to_mate``); none of the
    88,387 unfair timeouts, all unwinnable, is skipped that way: quick mode
    proves every one of them (the Python engine left 42 open, all of which
    the gate let through)."""
    from remis.audit.checks import _may_be_unable_to_mate

    path = shared_data / "unwinnability" / "lichess-unfair-timeouts.txt"
    left_open = skipped = 0
    for line in path.read_text().splitlines():
        board = chess.Board(line.rsplit(" ", 1)[0])
        color = not board.turn
        if can_checkmate(board, color, mode="quick").value is None:
            left_open += 1
            skipped += not _may_be_unable_to_mate(board, color)
    assert (skipped, left_open) == (0, 0)
