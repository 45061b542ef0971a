"""Laws as played (issue 51): the historical exceptions to the fifty-move rule.

The table is checked entry by entry, then constructed games are ruled on under
today's Laws and under those of their Date, chosen so that the two differ.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from remis.cli import main
from remis.game import claim_in_game, rule_on_parsed
from remis.i18n import translate
from remis.laws import (
    CONDITIONS,
    FIFTY_MOVE_EXCEPTIONS,
    claim_moves,
    fifty_move_exception,
    laws_for,
)
from remis.pgn import GameText, ParsedGame, parse_game
from remis.replay import replay
from remis.rules import rule_on_claim
from remis.ruling import FIFTY

RB_V_R = "8/8/8/4k3/8/8/7r/K1BR4 w - - 0 1"
#: Black's pawn on d5 (no further than the Troitzky line), blocked by the knight on d4
NN_V_P = "8/8/8/3p3k/3N4/8/8/2N3K1 w - - 0 1"
#: the same beyond the line: Black's pawn on d3, blocked on d2
NN_V_P_TOO_FAR = "8/8/7k/8/8/3p4/3N4/2N3K1 w - - 0 1"


def placement(fen: str) -> str:
    return fen.split()[0]


# ------------------------------------------------------------------ the table
@pytest.mark.parametrize(("day", "moves"), [
    ((1928, 12, 31), 50), ((1929, 1, 1), 132), ((1930, 6, 1), 132), ((1974, 12, 31), 132),
    ((1975, 1, 1), 50), ((1982, 12, 31), 50), ((1985, 6, 1), 100), ((1988, 12, 31), 100),
    ((1989, 1, 1), 75), ((1990, 6, 1), 75), ((1992, 12, 31), 75), ((1993, 1, 1), 50),
    ((1995, 6, 1), 50), ((2024, 1, 1), 50), (None, 50),
])
def test_rook_and_bishop_against_rook_by_date(day: tuple[int, int, int] | None,
                                               moves: int) -> None:
    assert claim_moves(day, placement(RB_V_R)) == moves
    # either colour: the same material with the sides swapped
    assert claim_moves(day, placement(chess.Board(RB_V_R).mirror().fen())) == moves


@pytest.mark.parametrize(("fen", "day", "moves"), [
    (NN_V_P, (1978, 6, 1), 50),               # the 1978 interpretation, from 1979
    (NN_V_P, (1985, 6, 1), 100),
    (NN_V_P, (1990, 6, 1), 75),
    (NN_V_P, (1995, 6, 1), 50),
    (NN_V_P_TOO_FAR, (1985, 6, 1), 50),       # pawn beyond the Troitzky line
    ("8/8/8/3p3k/8/3N4/8/2N3K1 w - - 0 1", (1985, 6, 1), 50),  # pawn not blocked
    # Nijboer-Sadler, Arnhem 1999 (Gijssen, ChessCafe May 1999): White's pawn on f4
    # blocked by a knight on f5; 50 moves in 1999, 75 had it been played in 1990
    ("8/8/1n6/K1k2n2/5P2/8/8/8 w - - 0 64", (1999, 5, 5), 50),
    ("8/8/1n6/K1k2n2/5P2/8/8/8 w - - 0 64", (1990, 5, 5), 75),
    ("8/8/1n6/K1k2n2/8/5P2/8/8 w - - 0 64", (1990, 5, 5), 50),  # f3: no knight in front
])
def test_two_knights_against_pawn(fen: str, day: tuple[int, int, int], moves: int) -> None:
    assert claim_moves(day, placement(fen)) == moves


@pytest.mark.parametrize(("fen", "moves"), [
    ("8/8/8/4k3/8/p7/P7/K1R1b3 w - - 0 1", 100),    # a2/a3, dark-squared bishop (e1)
    ("8/8/8/4k3/8/p7/P7/K1R1B3 w - - 0 1", 50),     # (White's bishop: not this ending)
    ("8/8/8/4k3/8/p7/P7/K1R2b2 w - - 0 1", 50),     # a light-squared bishop (f1)
    ("8/8/8/4k3/8/7p/7P/K1R2b2 w - - 0 1", 100),    # h2/h3, light-squared bishop
    ("8/8/8/4k3/7p/8/7P/K1R2b2 w - - 0 1", 50),     # h4: not just in front
    ("k1r5/p7/P7/8/8/8/8/4KB2 b - - 0 1", 100),     # Black's rook: a7/a6, light bishop
    ("k1r5/p7/P7/8/8/8/8/4K1B1 b - - 0 1", 50),     # ... a dark-squared one (g1)
])
def test_rook_and_pawn_against_bishop_and_pawn(fen: str, moves: int) -> None:
    assert claim_moves((1985, 6, 1), placement(fen)) == moves


@pytest.mark.parametrize(("fen", "day", "moves"), [
    ("8/4P3/8/8/3k4/8/q7/4K2Q w - - 0 1", (1990, 6, 1), 75),   # pawn on its 7th rank
    ("8/8/4P3/8/3k4/8/q7/4K2Q w - - 0 1", (1990, 6, 1), 50),   # on its 6th
    ("8/4P3/8/8/3k4/8/q7/4K2Q w - - 0 1", (1985, 6, 1), 50),   # before 1989
    ("4k3/8/8/8/8/8/8/2bbK1n1 w - - 0 1", (1990, 6, 1), 50),   # B+B v N: both Black's
    ("4k3/8/8/8/8/8/8/2BBK1n1 w - - 0 1", (1990, 6, 1), 75),
    ("4k3/8/8/8/8/8/8/2BBK1n1 w - - 0 1", (1985, 6, 1), 50),
    ("4k3/8/8/8/8/8/8/2bbK1Q1 w - - 0 1", (1990, 6, 1), 75),   # Q v B+B
    ("4k3/8/8/8/8/8/8/2nnK1Q1 w - - 0 1", (1990, 6, 1), 75),   # Q v N+N
    ("4k3/8/8/8/8/8/1p6/1RBRK1r1 w - - 0 1", (1990, 6, 1), 50),  # seven men
])
def test_the_1988_list(fen: str, day: tuple[int, int, int], moves: int) -> None:
    assert claim_moves(day, placement(fen)) == moves


def test_table_is_consistent() -> None:
    """Every row names a known condition, lasts a while, and no two rows for
    the same material are in force at once (the first would hide the other)."""
    for row in FIFTY_MOVE_EXCEPTIONS:
        assert row.since < row.until and row.moves > 50
        assert not row.condition or row.condition in CONDITIONS
        strong, weak = row.key
        assert strong[0] == weak[0] == "K" and "K" not in strong[1:] + weak[1:]
    for i, a in enumerate(FIFTY_MOVE_EXCEPTIONS):
        for b in FIFTY_MOVE_EXCEPTIONS[i + 1:]:
            if a.key == b.key:
                assert a.until <= b.since or b.until <= a.since, (a, b)


def test_laws_for_dates_the_laws() -> None:
    assert laws_for("1990.??.??", "as-played").day == (1990, 1, 1)
    assert laws_for("1990.05.01", "current").day is None
    assert laws_for("????.??.??", "as-played").day is None


# ------------------------------------------------------ constructed games
def quiet_walk(fen: str, plies: int, keep: tuple[chess.Square, ...] = ()) -> list[str]:
    """``plies`` moves from ``fen`` that are neither captures nor pawn moves,
    each reaching a position not seen before (so no repetition claim or end
    interferes), never mate or stalemate; the pieces on ``keep`` stay put."""
    board = chess.Board(fen)
    seen = {board.epd()}
    sans = []
    for step in range(plies):
        candidates = []
        for move in sorted(board.legal_moves, key=chess.Move.uci):
            if board.is_zeroing(move) or move.from_square in keep:
                continue
            board.push(move)
            if (board.epd() not in seen and not board.is_checkmate()
                    and not board.is_stalemate()):
                candidates.append(move)
            board.pop()
        assert candidates, f"no quiet move at ply {step} in {board.fen()}"
        move = candidates[step * 7 % len(candidates)]
        sans.append(board.san(move))
        board.push(move)
        seen.add(board.epd())
    return sans


def constructed(fen: str, date: str, plies: int,
                keep: tuple[chess.Square, ...] = ()) -> ParsedGame:
    moves = " ".join(quiet_walk(fen, plies, keep))
    text = f'[Date "{date}"]\n[SetUp "1"]\n[FEN "{fen}"]\n[Result "*"]\n\n{moves} *\n'
    return parse_game(GameText(1, 0, text))


@pytest.fixture(scope="module")
def rb_v_r_walk() -> list[str]:
    return quiet_walk(RB_V_R, 270)


def rb_v_r_game(walk: list[str], date: str) -> ParsedGame:
    text = (f'[Date "{date}"]\n[SetUp "1"]\n[FEN "{RB_V_R}"]\n[Result "*"]\n\n'
            f'{" ".join(walk)} *\n')
    return parse_game(GameText(1, 0, text))


#: K+R+B v K+R after 60 moves (ply 120) and 80 moves (ply 160) without a capture:
#: (valid, message) under today's Laws, then under those of the Date
KRB_KR = [
    ("1985.06.01", 120, (True, "claim_fifty_on_board_upheld"),
     (False, "claim_fifty_incorrect_as_played")),
    ("1985.06.01", 160, (False, "claim_game_over"), (False, "claim_fifty_incorrect_as_played")),
    ("1990.06.01", 120, (True, "claim_fifty_on_board_upheld"),
     (False, "claim_fifty_incorrect_as_played")),
    ("1990.06.01", 160, (False, "claim_game_over"),
     (True, "claim_fifty_on_board_as_played_upheld")),
    ("1995.06.01", 120, (True, "claim_fifty_on_board_upheld"),
     (True, "claim_fifty_on_board_as_played_upheld")),
    ("1995.06.01", 160, (False, "claim_game_over"),
     (True, "claim_fifty_on_board_as_played_upheld")),
]


@pytest.mark.parametrize(("date", "ply", "today", "then"), KRB_KR)
def test_rook_and_bishop_claims_under_both_laws(rb_v_r_walk: list[str], date: str, ply: int,
                                                today: tuple[bool, str],
                                                then: tuple[bool, str]) -> None:
    g = rb_v_r_game(rb_v_r_walk, date)
    now = claim_in_game(g, ply, kind=FIFTY)
    old = claim_in_game(g, ply, kind=FIFTY, laws="as-played")
    assert (now.valid, now.message) == today
    assert (old.valid, old.message) == then
    if now.message == "claim_game_over":  # 9.6.2 since 2014: drawn at move 75
        assert now.params["termination"] == "seventyfive_moves"


def test_rook_and_bishop_explanations_name_the_rule(rb_v_r_walk: list[str]) -> None:
    g = rb_v_r_game(rb_v_r_walk, "1990.06.01")
    c = claim_in_game(g, 120, kind=FIFTY, laws="as-played")
    assert c.params["rule"] == "FIDE's 1988 rule (K+R+B v K+R: 75 moves)"
    assert c.explanation.startswith(
        "The claim under Article 9.3.2 is incorrect: only 120 of the 150 moves needed (75 by "
        "each player under FIDE's 1988 rule (K+R+B v K+R: 75 moves)) have been made")
    assert "jen 120 z 150 potřebných tahů (75 každého hráče podle pravidla FIDE z roku 1988 " \
        "(K+V+S proti K+V: 75 tahů))" in translate(c.message, c.params, "cs")
    assert "tylko 120 z 150 potrzebnych posunięć (po 75 każdego z zawodników według przepisu " \
        "FIDE z 1988 roku (K+W+G przeciw K+W: 75 posunięć))" in (
        translate(c.message, c.params, "pl"))
    c = claim_in_game(rb_v_r_game(rb_v_r_walk, "1995.06.01"), 160, kind=FIFTY, laws="as-played")
    assert "enough under the Laws in force on 1995.06.01 (50 moves in every position)" in (
        c.explanation)
    # an intended move completes the 75 moves of 1990 one ply early (9.3.1)
    c = claim_in_game(g, 149, kind=FIFTY, move=rb_v_r_walk[149], laws="as-played")
    assert (c.valid, c.article, c.params["moves"]) == (True, "9.3.1", 75)
    assert "would complete 75 moves by each player, enough under FIDE's 1988 rule" in c.explanation
    assert not claim_in_game(g, 148, kind=FIFTY, move=rb_v_r_walk[148], laws="as-played").valid


@pytest.mark.parametrize(("date", "first_claim"), [
    ("1985.06.01", None), ("1990.06.01", 149), ("1995.06.01", 99)])
def test_rook_and_bishop_game_under_both_laws(rb_v_r_walk: list[str], date: str,
                                              first_claim: int | None) -> None:
    g = rb_v_r_game(rb_v_r_walk[:160], date)
    now = rule_on_parsed(g)
    assert now.end is not None and (now.end.ply, now.end.article) == (150, "9.6.2")
    assert min(c.ply for c in now.claims if c.kind == FIFTY) == 99
    assert "laws" not in now.extra
    old = rule_on_parsed(g, laws="as-played")
    assert old.end is None  # no automatic 9.6 end before 1 July 2014
    fifty = [c.ply for c in old.claims if c.kind == FIFTY]
    assert (min(fifty) if fifty else None) == first_claim
    assert old.extra["laws"].startswith(f"Laws in force on {date}")


def test_two_knights_against_pawn_under_both_laws() -> None:
    g = constructed(NN_V_P, "1985.06.01", 200, keep=(chess.D4,))
    now = claim_in_game(g, 120, kind=FIFTY)
    old = claim_in_game(g, 120, kind=FIFTY, laws="as-played")
    assert now.valid and not old.valid
    assert old.params["rule"] == "FIDE's 1978 rule (K+N+N v K+P: 100 moves)"
    assert old.params["needed"] == 200
    # after 100 moves: a correct claim then; today the game ended at move 75 (9.6.2)
    now, old = (claim_in_game(g, 200, kind=FIFTY, laws=laws) for laws in ("current", "as-played"))
    assert (now.valid, now.message) == (False, "claim_game_over")
    assert old.valid and old.article == "9.3.2"
    # the same ending with the pawn beyond the Troitzky line: 50 moves then too
    g = constructed(NN_V_P_TOO_FAR, "1985.06.01", 120, keep=(chess.D2,))
    old = claim_in_game(g, 120, kind=FIFTY, laws="as-played")
    assert old.valid and "(50 moves in every position)" in old.explanation


def test_1930_game_under_the_1928_doubling(rb_v_r_walk: list[str]) -> None:
    g = rb_v_r_game(rb_v_r_walk, "1930.07.15")
    at = {ply: (claim_in_game(g, ply, kind=FIFTY), claim_in_game(g, ply, kind=FIFTY,
                                                                  laws="as-played"))
          for ply in (160, 263, 264)}
    now, old = at[160]
    assert (now.valid, now.message) == (False, "claim_game_over")
    assert not old.valid and old.params["rule"] == "FIDE's 1928 rule (K+R+B v K+R: 132 moves)"
    assert not at[263][1].valid and at[264][1].valid
    assert at[264][1].params["moves"] == 132
    # the rules take the Laws of a date directly (the library's laws=)
    assert g.board is not None
    laws = laws_for("1930.07.15", "as-played")
    report = replay(g.moves[:264], g.board, claims="none", laws=laws)
    assert report.end is None and report.history is not None
    assert rule_on_claim(report.history, kind=FIFTY, laws=laws).valid
    assert not rule_on_claim(report.history, kind=FIFTY).valid  # today: over at move 75
    assert replay(g.moves[:264], g.board, claims="none").end.article == "9.6.2"  # type: ignore[union-attr]


def test_cli_laws_option(tmp_path: Path, rb_v_r_walk: list[str],
                         capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "krbkr-1990.pgn"
    p.write_text(f'[Date "1990.06.01"]\n[SetUp "1"]\n[FEN "{RB_V_R}"]\n[Result "*"]\n\n'
                 f'{" ".join(rb_v_r_walk[:160])} *\n')
    claim = ["claim", str(p), "--ply", "120", "--kind", "fifty", "--json"]
    assert main(claim) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
    assert main([*claim, "--laws", "as-played"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["valid"] is False and verdict["params"]["moves"] == 75
    assert main(["claim", str(p), "--ply", "120", "--kind", "fifty", "--laws", "as-played"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("INCORRECT") and "FIDE's 1988 rule (K+R+B v K+R: 75 moves)" in out
    assert main(["game", "--json", "--laws", "as-played", str(p)]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["end"] is None and game["laws"].startswith("Laws in force on 1990.06.01")
    assert min(c["ply"] for c in game["claims"]) == 149
    assert main(["game", str(p)]) == 0
    assert "ends after 75…: 75-move rule, 1/2-1/2" in capsys.readouterr().out


# ------------------------------------------------------------ real games
@pytest.mark.shared
def test_masters_games_in_an_exception(shared_data: Path) -> None:
    """The two games of the masters collections that reach an ending of the
    table while it was in force (a scan of all 34,920 games finds no other):
    the row applies from the recorded ply, but neither run without a capture
    or pawn move comes near a claim, so no claim changes."""
    from remis.pgn import read_games

    expected = {44: ("Gislason, Gudmundur", 157, "K+R+P v K+B+P", 100),  # Reykjavik 1988
                172: ("Polgar, Judit", 149, "K+R+B v K+R", 75)}          # Pamplona 1990
    seen = set()
    for g in read_games(shared_data / "masters" / "PolgarJ.pgn"):
        if g.index not in expected:
            continue
        black, ply, material, moves = expected[g.index]
        assert g.board is not None and g.headers["Black"] == black
        laws = laws_for(g.headers["Date"], "as-played")
        board = g.board.copy(stack=False)
        for move in g.moves[:ply]:
            board.push(move)
        row = fifty_move_exception(laws.day, board.board_fen())
        assert row is not None and (row.material, row.moves) == (material, moves)
        fifty = {mode: [c.ply for c in rule_on_parsed(g, laws=mode).claims if c.kind == FIFTY]
                 for mode in ("current", "as-played")}
        assert fifty["current"] == fifty["as-played"] == []
        seen.add(g.index)
    assert seen == set(expected)
