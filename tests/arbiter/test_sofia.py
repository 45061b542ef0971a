"""Sofia rules (9.1.1): draw offers and agreements only with the arbiter's
consent -- always (``draw_agreement: "arbiter_only"``) or before move N
(``"forbidden_before(N)"``, the same as ``no_agreement_before_move``)."""

from __future__ import annotations

import pytest

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.config import Config

SOFIA = {"time_control": "5400", "draw_agreement": "arbiter_only"}


def test_an_offer_goes_to_the_arbiter_first_and_the_clocks_stop(mv, arb):
    a = arb(SOFIA, mv("e4 e5"))                               # White's clock runs from 2 s
    s = a.apply({"type": "offer_draw", "player": "white", "at": 4})
    assert s["pending_offer"] is None
    assert s["awaiting_arbiter"] == {"kind": "draw_offer", "player": "white", "article": "9.1.1"}
    assert s["log"][-1]["message"] == "draw_consent_asked"
    with pytest.raises(RefusedEvent, match=r"Article 9\.1\.1"):
        a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 5})
    with pytest.raises(RefusedEvent, match="no draw offer to accept"):
        a.apply({"type": "accept_draw", "player": "black", "at": 5})
    s = a.apply({"type": "arbiter", "decision": "accept", "at": 60})
    assert s["pending_offer"] == "white" and s["awaiting_arbiter"] is None
    assert s["clocks"]["white"] == 5400 - 1 - 2               # stopped from 4 s to 60 s
    s = a.apply({"type": "accept_draw", "player": "black", "at": 61})
    assert (s["result"], s["termination"], s["article"]) == ("1/2-1/2", "agreement", "5.2.3")
    assert Arbiter.from_log(SOFIA, a.events()).state() == s


def test_the_arbiter_refuses_consent(mv, arb):
    a = arb(SOFIA, mv("e4 e5"))
    a.apply({"type": "offer_draw", "player": "white", "at": 4})
    s = a.apply({"type": "arbiter", "decision": "reject", "at": 30})
    assert s["pending_offer"] is None and s["awaiting_arbiter"] is None and not s["over"]
    assert s["log"][-1]["article"] == "9.1.1"
    assert a.apply({"type": "touch", "player": "white", "at": 40})["clocks"]["white"] == \
        5400 - 1 - 2 - 10
    with pytest.raises(RefusedEvent, match="postponed"):
        b = arb(SOFIA, mv("e4 e5"))
        b.apply({"type": "offer_draw", "player": "white", "at": 4})
        b.apply({"type": "arbiter", "decision": "postpone", "at": 5})


def test_a_consented_offer_lapses_like_any_other(mv, arb):
    a = arb(SOFIA, mv("e4 e5"))
    a.apply({"type": "offer_draw", "player": "white", "at": 3})
    a.apply({"type": "arbiter", "decision": "accept", "at": 4})
    a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 5})
    s = a.apply({"type": "touch", "player": "black", "at": 6})   # rejects the offer 9.1.2.1
    assert s["pending_offer"] is None
    a.apply({"type": "move", "player": "black", "move": "Nc6", "at": 7})
    a.apply({"type": "offer_draw", "player": "black", "at": 8})  # a new offer: consent again
    assert a.state()["awaiting_arbiter"]["player"] == "black"


def test_an_incorrect_claim_is_no_offer_under_sofia_rules(mv, arb):
    a = arb(SOFIA, mv("e4 e5"))
    s = a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition", "at": 3})
    assert s["pending_offer"] is None and s["awaiting_arbiter"] is None


def test_forbidden_before_n_is_no_agreement_before_move(mv, arb):
    one = Config.from_dict({"draw_agreement": "forbidden_before(3)"})
    two = Config.from_dict({"no_agreement_before_move": 3})
    assert one.no_agreement_before_move == two.no_agreement_before_move == 3
    a = arb({"draw_agreement": "forbidden_before(2)"}, mv("e4 e5 Nf3 Nc6"))
    s = a.apply({"type": "offer_draw", "player": "white"})    # two moves each: no consent
    assert s["pending_offer"] == "white" and s["awaiting_arbiter"] is None


def test_online_and_variant_games_have_no_arbiter_to_consent(mv, arb):
    a = arb({"time_control": "60", "mode": "online", "draw_agreement": "arbiter_only"},
            mv("e4 e5"))
    with pytest.raises(RefusedEvent, match=r"9\.1\.1"):
        a.apply({"type": "offer_draw", "player": "white"})
    x = Arbiter({"variant": "xiangqi", "time_control": "60", "draw_agreement": "arbiter_only"})
    x.apply({"type": "move", "player": "white", "move": "b1c3"})
    x.apply({"type": "move", "player": "black", "move": "b10c8"})
    with pytest.raises(RefusedEvent, match=r"9\.1\.1"):
        x.apply({"type": "offer_draw", "player": "white"})


@pytest.mark.parametrize("value, message", [
    ("sometimes", "draw_agreement must be"),
    ("forbidden_before(x)", "draw_agreement must be"),
    (3, "draw_agreement must be"),
])
def test_bad_draw_agreement_values(value, message):
    with pytest.raises(ValueError, match=message):
        Config.from_dict({"draw_agreement": value})
    with pytest.raises(ValueError, match="contradicts"):
        Config.from_dict({"draw_agreement": "forbidden_before(4)", "no_agreement_before_move": 3})
