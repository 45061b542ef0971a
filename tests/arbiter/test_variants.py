"""Shogi and xiangqi through the arbiter (config ``"variant"``): automatic
ends from the variant rules, clocks and offers as in chess, and the
chess-only events refused.  Moves are inputs; every verdict is computed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyffish")

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.variant import VariantArbiter
from remis.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "arbiter"

# shogi: gote king 5a, sente rook 4h, sente king 5i, sente to move
SHOGI_ROOK = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1"
SHOGI_CHECKS = ["4h5h", "5a4a", "5h4h", "4a5a"]  # sente checks with both its moves
SHOGI_QUIET = ["4h4i", "5a5b", "4i4h", "5b5a"]
# xiangqi: black king e10, red chariot f2, red king d1, red to move
XQ_ROOK = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1"
XQ_QUIET = ["f2f1", "e10e9", "f1f2", "e9e10"]


def move_events(moves: list[str], start: float = 0.0, step: float = 2.0,
                first: str = "white") -> list[dict[str, Any]]:
    out = []
    player = first
    for n, m in enumerate(moves, start=1):
        out.append({"type": "move", "player": player, "move": m, "at": start + n * step})
        player = "black" if player == "white" else "white"
    return out


def test_a_variant_config_gives_a_variant_arbiter_and_chess_is_unchanged() -> None:
    assert isinstance(Arbiter({"variant": "shogi"}), VariantArbiter)
    assert type(Arbiter({})) is Arbiter
    assert type(Arbiter({"variant": "chess"})) is Arbiter
    assert "variant" not in Arbiter({}).state()


def test_shogi_perpetual_check_loses_at_the_fourth_occurrence() -> None:
    a = Arbiter({"variant": "shogi", "start_fen": SHOGI_ROOK, "time_control": "600"})
    events = move_events(SHOGI_CHECKS * 3)
    for e in events[:-1]:
        s = a.apply(e)
        assert not s["over"], e
    s = a.apply(events[-1])
    assert (s["over"], s["result"], s["termination"], s["article"], s["ply"]) == (
        True, "0-1", "perpetual_check", "JSA perpetual check", 12)
    assert "Sente loses" in s["explanation"]
    assert s["evidence"]["check_plies"] == [1, 3, 5, 7, 9, 11]
    assert s["clocks"] == {"white": 588, "black": 588}  # stopped at the end
    assert s["claimable"] == [] and s["variant"] == "shogi"
    assert s["log"][-1]["article"] == "JSA perpetual check"
    with pytest.raises(RefusedEvent, match=r"game is over \(perpetual_check, JSA perpetual"):
        a.apply({"type": "resign", "player": "black", "at": 30})


def test_shogi_quiet_repetition_is_a_draw_at_the_fourth_not_before() -> None:
    a = Arbiter({"variant": "shogi", "start_fen": SHOGI_ROOK, "time_control": "-"})
    for n, e in enumerate(move_events(SHOGI_QUIET * 3), start=1):
        s = a.apply(e)
        assert s["over"] == (n == 12), n
    assert (s["result"], s["article"]) == ("1/2-1/2", "JSA sennichite")


@pytest.mark.parametrize(("reps", "plies"), [(None, 12), (4, 12), (3, 8)])
def test_xiangqi_repetition_draw_fourfold_by_default_threefold_if_configured(
        reps: int | None, plies: int) -> None:
    config: dict[str, Any] = {"variant": "xiangqi", "start_fen": XQ_ROOK}
    if reps is not None:
        config["repetitions"] = reps
    a = Arbiter(config)
    ended = []
    for n, e in enumerate(move_events(XQ_QUIET * 3), start=1):
        s = a.apply(e)
        if s["over"]:
            ended.append(n)
            break
    assert ended == [plies]
    assert (s["result"], s["termination"], s["article"]) == (
        "1/2-1/2", "repetition", "WXF repetition")
    assert "Neither side chased with every one" in s["explanation"]
    assert s["evidence"]["chase_analysed"] is True


def test_shogi_flag_fall_loses_even_without_mating_material() -> None:
    # gote has a bare king: in chess 6.9 would make this a draw; not in shogi
    a = Arbiter({"variant": "shogi", "start_fen": SHOGI_ROOK, "time_control": "60"})
    a.apply({"type": "move", "player": "white", "move": "4h4i", "at": 10})
    with pytest.raises(RefusedEvent, match="flag has not fallen"):
        a.apply({"type": "flag", "player": "black", "at": 69})
    s = a.apply({"type": "flag", "player": "black", "at": 71})
    assert (s["result"], s["termination"], s["article"]) == ("1-0", "time_forfeit", "6.9")
    assert s["explanation"].startswith("Gote's flag has fallen: Sente wins on time")


def test_resignation_loses_and_offers_work_as_in_chess() -> None:
    a = Arbiter({"variant": "xiangqi", "time_control": "300+2"})
    a.apply({"type": "offer_draw", "player": "white", "at": 1})
    with pytest.raises(RefusedEvent, match=r"5\.2\.3"):
        a.apply({"type": "accept_draw", "player": "black", "at": 2})
    a.apply({"type": "move", "player": "white", "move": "h3e3", "at": 3})
    s = a.apply({"type": "move", "player": "black", "move": "h10g8", "at": 4})
    assert s["pending_offer"] is None  # black moved: the offer lapsed (9.1.2.1)
    a.apply({"type": "offer_draw", "player": "white", "at": 5})
    s = a.apply({"type": "accept_draw", "player": "black", "at": 6})
    assert (s["result"], s["termination"], s["article"]) == ("1/2-1/2", "agreement", "5.2.3")
    r = Arbiter({"variant": "xiangqi"}).apply({"type": "resign", "player": "white"})
    assert (r["result"], r["article"]) == ("0-1", "5.1.2")
    assert r["explanation"] == "Red resigned: Black wins (Article 5.1.2)."


@pytest.mark.parametrize("kind", ["threefold_repetition", "fifty_moves", "quickplay",
                                  "increment"])
def test_claims_are_refused_as_chess_only(kind: str) -> None:
    a = Arbiter({"variant": "shogi", "start_fen": SHOGI_ROOK})
    before = a.state()
    with pytest.raises(RefusedEvent, match="chess-only"):
        a.apply({"type": "claim", "player": "white", "kind": kind, "at": 3})
    assert a.state() == before and a.events() == []


def test_chess_only_events_are_refused() -> None:
    x = Arbiter({"variant": "xiangqi"})
    with pytest.raises(RefusedEvent, match=r"chess-only.*7\.5.*WXF"):
        x.apply({"type": "illegal_move", "player": "white", "move": "h3h11"})
    a = Arbiter({"variant": "shogi"})
    with pytest.raises(RefusedEvent, match="chess-only"):
        a.apply({"type": "touch", "player": "white", "square": "g1"})
    with pytest.raises(RefusedEvent, match="no claim or request awaits"):
        a.apply({"type": "arbiter", "decision": "accept"})
    s = a.apply({"type": "touch", "player": "white", "at": 1})
    assert s["log"][-1]["message"] == "variant_touched"


def test_illegal_usi_move_is_refused_with_the_state_unchanged() -> None:
    a = Arbiter({"variant": "shogi", "time_control": "300"})
    a.apply({"type": "move", "player": "white", "move": "7g7f", "at": 5})
    before = a.state()
    for bad, why in [("3c3e", "ply 2: illegal move 3c3e for Gote"),
                     ("zz99", "ply 2: "), ("P*5e", "ply 2: illegal move P\\*5e")]:
        with pytest.raises(RefusedEvent, match=why):
            a.apply({"type": "move", "player": "black", "move": bad, "at": 9})
        assert a.state() == before
    with pytest.raises(RefusedEvent, match=r"white \(Sente\) cannot move: black \(Gote\)"):
        a.apply({"type": "move", "player": "white", "move": "2g2f", "at": 9})
    s = a.apply({"type": "move", "player": "black", "move": "3c3d", "at": 9})
    assert s["ply"] == 2 and s["clocks"] == {"white": 295, "black": 296}


def test_from_log_rebuilds_the_same_state() -> None:
    config = {"variant": "xiangqi", "start_fen": XQ_ROOK, "time_control": "120+1",
              "notation": "iccs"}
    a = Arbiter(config)
    iccs = ["F1-E1", "E9-F9", "E1-F1", "F9-E9"]
    for e in move_events(iccs)[:3]:
        a.apply(e)
    a.apply({"type": "offer_draw", "player": "black", "at": 7})
    b = Arbiter.from_log(config, a.events())
    assert isinstance(b, VariantArbiter)
    assert b.state() == a.state() and b.events() == a.events()
    assert a.state()["pending_offer"] == "black"


@pytest.mark.parametrize(("config", "error"), [
    ({"variant": "go"}, "variant must be one of chess, shogi, xiangqi"),
    ({"variant": "shogi", "repetitions": 3}, "always fourfold"),
    ({"variant": "xiangqi", "repetitions": 5}, "must be 4 \\(WXF\\) or 3"),
    ({"variant": "xiangqi", "notation": "usi"}, "uci or iccs"),
    ({"repetitions": 3}, "only to shogi and xiangqi"),
    ({"variant": "shogi", "quickplay_finish": True}, "chess-only"),
    ({"variant": "shogi", "start_fen": "9/9 b - 1"}, "config: start_fen '9/9 b - 1': "),
    ({"variant": "xiangqi", "start_fen": 7}, "start_fen must be a xiangqi position"),
])
def test_bad_variant_configs_say_what_is_wrong(config: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        Arbiter(config)


def test_remis_arbitrate_on_a_xiangqi_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arbitrate", str(DATA / "xiangqi_threefold_perpetual_check.json")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1  # three events are refused, the run goes on
    errors = {line["event"]: line["error"] for line in lines if "error" in line}
    assert sorted(errors) == [2, 4, 5, 12]
    assert "9.2 is chess-only" in errors[2] and "7.5" in errors[4]
    assert errors[5] == "ply 3: illegal move e2f3 for Red"
    assert lines[3]["log"][-1]["message"] == "offer_lapsed_move"
    last = lines[11]
    assert (last["ply"], last["result"], last["termination"], last["article"]) == (
        8, "0-1", "perpetual_check", "WXF perpetual check")
    assert last["evidence"]["check_plies"] == [1, 3, 5, 7]


@pytest.mark.parametrize(("lang", "word"), [("cs", "Červený"), ("pl", "Czerwone")])
def test_variant_rulings_are_translated_with_their_params(lang: str, word: str) -> None:
    from remis.i18n import translate

    a = Arbiter({"variant": "xiangqi", "start_fen": XQ_ROOK})
    for e in move_events(XQ_QUIET * 3):
        s = a.apply(e)
    text = translate(s["message"], s["params"], lang)
    assert "WXF repetition" in text and "0, 4, 8, 12" in text
    assert "side to move" not in text and "Neither side chased" not in text
    r = Arbiter({"variant": "xiangqi"}).apply({"type": "resign", "player": "white"})
    assert translate(r["message"], r["params"], lang).startswith(word)


def test_online_flag_falls_by_itself_in_a_variant_game() -> None:
    a = Arbiter({"variant": "shogi", "mode": "online", "time_control": "30"})
    a.apply({"type": "move", "player": "white", "move": "7g7f", "at": 5})
    s = a.apply({"type": "move", "player": "black", "move": "3c3d", "at": 40})
    assert (s["ply"], s["result"], s["termination"]) == (1, "1-0", "time_forfeit")
    assert s["log"][-1]["message"] == "online_flag"


def test_the_service_keeps_a_variant_game(tmp_path: Path) -> None:
    from remis.service.games import Games, ServiceError
    from remis.service.store import open_store

    url = f"sqlite:///{tmp_path / 'games.db'}"
    games = Games(open_store(url), clock=lambda: 100.0)
    gid, tokens, state = games.create({"variant": "shogi", "start_fen": SHOGI_ROOK})
    assert state["variant"] == "shogi"
    for e in move_events(SHOGI_CHECKS * 3):
        state, _ = games.post(gid, tokens[e["player"]], e)
    assert (state["result"], state["termination"]) == ("0-1", "perpetual_check")
    with pytest.raises(ServiceError, match=r"config: .*always fourfold"):
        games.create({"variant": "shogi", "repetitions": 3})
    fresh = Games(open_store(url), clock=lambda: 100.0)  # rebuilt from the stored log
    assert fresh.state(gid)[1] == state


@pytest.mark.parametrize("seed", range(6))
def test_the_state_sfen_is_pyffish_s(seed: int) -> None:
    # the arbiter writes the SFEN itself; VariantHistory.position asks pyffish
    import random

    from remis.variants.randgames import random_game

    g = random_game("shogi", random.Random(seed), prefix=30)
    a = Arbiter({"variant": "shogi", "start_fen": g.start, "time_control": "-"})
    first = a.state()["to_move"]
    for k, m in enumerate(g.shown):
        player = first if k % 2 == 0 else ("black" if first == "white" else "white")
        s = a.apply({"type": "move", "player": player, "move": m})
        assert s["fen"] == a.history.position, (seed, k)
        if s["over"]:
            break


def test_remis_arbitrate_on_a_shogi_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    # Gote has a bare king: in chess Sente's flag would give a draw (6.9); in shogi Gote wins
    status = main(["arbitrate", str(DATA / "shogi_flag_bare_king.json")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    errors = {n: line["error"] for n, line in enumerate(lines) if "error" in line}
    assert sorted(errors) == [1, 2, 7, 9]
    assert errors[2] == "ply 2: illegal move 5a5b for Gote"
    assert [e["message"] for e in lines[5]["log"][-2:]] == ["variant_touched",
                                                           "offer_lapsed_touch"]
    last = lines[-1]
    assert (last["result"], last["termination"], last["article"]) == ("0-1", "time_forfeit",
                                                                      "6.9")
    assert last["explanation"] == "Sente's flag has fallen: Gote wins on time (Article 6.9)."


def test_a_called_illegal_move_loses_at_once_in_shogi() -> None:
    a = Arbiter({"variant": "shogi", "time_control": "600"})
    a.apply({"type": "move", "player": "white", "move": "7g7f", "at": 3})
    before = a.state()
    for event, why in [
        ({"move": "3c3d"}, "'3c3d' is a legal move"),
        ({"move": "3c3b", "called_by": "nobody"}, "nobody called"),
        ({"move": "3c3d", "kind": "two_hands"}, "chess-only"),
        ({"move": "3c3b", "player": "white"}, r"white \(Sente\) cannot complete a move"),
    ]:
        with pytest.raises(RefusedEvent, match=why):
            a.apply({"type": "illegal_move", "player": "black", "at": 5, **event})
        assert a.state() == before
    s = a.apply({"type": "illegal_move", "player": "black", "move": "3c3b", "at": 6})
    assert (s["result"], s["termination"], s["article"]) == ("1-0", "illegal_move",
                                                             "JSA illegal move")
    assert s["explanation"] == ("Gote completed an illegal move (3c3b): in shogi an illegal "
                                "move loses at once, Sente wins (JSA illegal move).")
    online = Arbiter({"variant": "shogi", "mode": "online"})
    with pytest.raises(RefusedEvent, match="rejected by the server"):
        online.apply({"type": "illegal_move", "player": "white", "move": "7g7e"})
