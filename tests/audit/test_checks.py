"""The checks, one game per kind of finding, and the Laws by date."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from remis.audit.checks import CHECKS, audit_game, audit_replay, check_result_vs_position
from remis.audit.run import audit_texts
from remis.audit.split import read_range
from remis.laws import laws_for
from remis.pgn import GameText, parse_game
from remis.unwinnable import can_checkmate

SYNTHETIC = Path(__file__).resolve().parent.parent / "data" / "audit" / "one_per_check.pgn"


def _audit_file(path: Path, laws: str = "current") -> list:
    _, findings, _ = audit_texts(read_range(str(path), 0, path.stat().st_size), str(path),
                                 laws)  # type: ignore[arg-type]
    return findings


def test_synthetic_one_game_per_check_each_found_once() -> None:
    findings = _audit_file(SYNTHETIC)
    by_check = {c: [f for f in findings if f.check == c] for c in CHECKS}
    assert all(len(v) == 1 for v in by_check.values()), {k: len(v) for k, v in by_check.items()}
    assert len(findings) == len(CHECKS)
    got = {f.check: (f.game, f.article, f.ply, f.result_under_laws) for f in findings}
    assert got == {
        "moves_after_end": (2, "9.6.1", 16, "1/2-1/2"),
        "illegal_move": (3, "7.5", 3, None),
        "result_after_end": (4, "9.6.1", 16, "1/2-1/2"),
        "result_vs_position": (5, "5.1.1", 4, "0-1"),
        "time_forfeit": (6, "6.9", 3, "1/2-1/2"),
    }
    # games 1 (clean) and 7 (a correct draw on time: the flagged side had the queen)
    assert {f.game for f in findings}.isdisjoint({1, 7})


def test_finding_fields_identify_the_game() -> None:
    f = next(f for f in _audit_file(SYNTHETIC) if f.check == "time_forfeit")
    j = f.to_json()
    assert j["headers"] == {"Site": "remis tests", "Event": "Synthetic: loss on time against a "
                            "bare king", "White": "Time", "Black": "Forfeit",
                            "Date": "2024.01.01", "Round": "6"}
    assert j["recorded_result"] == "0-1" and j["termination"] == "Time forfeit"
    assert j["evidence"]["verdict"]["value"] is False
    assert j["evidence"]["flagged"] == "white"
    assert j["time_control"] == "blitz" and "2023" in j["laws"]
    data = SYNTHETIC.read_bytes()
    assert data[j["offset"]:].startswith(b'[Event "Synthetic: loss on time')


def test_only_selected_checks_run() -> None:
    _, findings, _ = audit_texts(read_range(str(SYNTHETIC), 0, SYNTHETIC.stat().st_size),
                                 "x", "current", ("time_forfeit",))
    assert [f.check for f in findings] == ["time_forfeit"]


@pytest.mark.parametrize("movetext", ["1. e4 e5 2. Qxx9 Nf6 3. Bc4 1-0",
                                      "1. e4 e5 2. Qxx9 {unclosed comment 1-0"])
def test_unreadable_game_in_the_middle_is_reported_and_the_rest_audited(movetext: str) -> None:
    text = SYNTHETIC.read_text()
    games = text.split("\n\n[Event")
    broken = f'[Event "broken"]\n[Result "1-0"]\n\n{movetext}\n'
    middle = len(games) // 2
    pgn = "\n\n[Event".join(games[:middle]) + "\n\n" + broken + "\n[Event" + \
        "\n\n[Event".join(games[middle:])
    texts = _split(pgn)
    n, findings, summary = audit_texts(texts, "mixed.pgn")
    assert n == 8 and summary["games"] == 8
    bad = [f for f in findings if f.headers.get("Event") == "broken"]
    assert len(bad) == 1 and bad[0].check == "illegal_move" and bad[0].game == middle + 1
    assert bad[0].ply == 3
    # every other check still found once, the games after the broken one renumbered
    assert sorted(f.check for f in findings if f is not bad[0]) == sorted(CHECKS)
    assert max(f.game for f in findings) == 7


def _split(pgn: str) -> list[GameText]:
    import io

    from remis.pgn import split_games

    return list(split_games(io.BytesIO(pgn.encode())))


def test_win_for_a_player_who_cannot_mate_is_a_finding_only_since_2023() -> None:
    pgn = ('[Result "0-1"]\n[Date "{d}"]\n[Termination "Normal"]\n[SetUp "1"]\n'
           '[FEN "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"]\n\n0-1\n')
    now = audit_replay(parse_game(GameText(1, 0, pgn.format(d="2024.03.01"))),
                       laws_for("2024.03.01", "as-played"))
    f = check_result_vs_position(now)
    assert f is not None and f.article == "5.1.2" and f.result_under_laws == "1/2-1/2"
    old = audit_replay(parse_game(GameText(1, 0, pgn.format(d="2019.03.01"))),
                       laws_for("2019.03.01", "as-played"))
    assert check_result_vs_position(old) is None


def test_fivefold_is_no_end_before_july_2014() -> None:
    moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 " \
            "8. Ng1 Ng8 9. e4 e5 1-0\n"
    for date, found in (("2014.06.30", False), ("2014.07.01", True), ("1990.??.??", False)):
        g = parse_game(GameText(1, 0, f'[Date "{date}"]\n[Result "1-0"]\n\n{moves}'))
        f = audit_game(audit_replay(g, laws_for(date, "as-played")))
        assert (f is not None) is found, date
        g2 = parse_game(GameText(1, 0, f'[Date "{date}"]\n[Result "1-0"]\n\n{moves}'))
        assert audit_game(audit_replay(g2, laws_for(date, "current"))) is not None


def test_illegal_move_notes_the_rapid_blitz_rule_of_its_time() -> None:
    pgn = '[Date "{d}"]\n[TimeControl "300+0"]\n[Result "0-1"]\n\n1. e4 e5 2. Ke3 0-1\n'
    for date, word in (("2016.01.01", "loses the game"), ("2019.01.01", "costs time")):
        f = audit_game(audit_replay(parse_game(GameText(1, 0, pgn.format(d=date))),
                                    laws_for(date, "as-played")))
        assert f is not None and word in f.evidence["rule_in_force"]


def test_time_forfeit_against_mating_material_is_not_a_finding_when_undecided() -> None:
    # K+R v K: White can mate; lichess-style 1-0 on time is right whatever the engine says
    pgn = ('[Result "1-0"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n'
           '[FEN "8/8/4k3/8/8/R2K4/8/8 b - - 0 1"]\n\n1-0\n')
    assert audit_game(audit_replay(parse_game(GameText(1, 0, pgn)))) is None


def test_dead_position_before_the_flag_prevails() -> None:
    # T05: 1...Nxd1 leaves K+N v K: the game is over before any flag falls
    pgn = ('[Result "1-0"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n'
           '[FEN "8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"]\n\n1... Nxd1 1-0\n')
    f = audit_game(audit_replay(parse_game(GameText(1, 0, pgn))))
    assert f is not None and f.check == "result_vs_position" and f.article == "5.2.2"
    assert f.result_under_laws == "1/2-1/2"


@pytest.mark.parametrize("fen", ["8/8/8/8/8/8/8/K1k5 w - - 0 1"])
def test_engine_contract_used_by_the_6_9_check(fen: str) -> None:
    assert can_checkmate(chess.Board(fen), chess.WHITE).value is False


def test_moves_after_a_blocked_dead_position_are_found() -> None:
    # White takes the queen (Kg3 was legal too): only kings behind a locked
    # pawn wall remain, a dead position (5.2.2) that material alone does not
    # show; the record goes on and scores a win
    pgn = ('[FEN "8/8/4k3/1p1p1p1p/1P1P1P1P/5K2/4q3/8 w - - 0 1"]\n[SetUp "1"]\n'
           '[Result "1-0"]\n\n1. Kxe2 Ke7 2. Ke3 Ke6 1-0\n')
    a = audit_replay(parse_game(GameText(1, 0, pgn)))
    assert a.end is not None and a.end.termination == "dead_position" and a.end.ply == 1
    finding = audit_game(a)
    assert finding is not None
    assert (finding.check, finding.article, finding.ply) == ("moves_after_end", "5.2.2", 1)


def test_explanations_name_moves_as_players_count_them() -> None:
    """Zukertort-Steinitz 1886: the fivefold repetition on White's 29th move ends
    the game; the record goes on to Black's 42nd (ply 84)."""
    path = Path(__file__).resolve().parents[2] / "examples" / "zukertort-steinitz-1886.pgn"
    (f,) = _audit_file(path)
    assert (f.check, f.ply) == ("moves_after_end", 57)
    assert f.explanation.startswith("The game ended after 29.: The same position")
    assert "The record goes on to 42… (ply 84)." in f.explanation
