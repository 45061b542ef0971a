"""Who may post what: a player only for themself, flag and illegal-move
claims only against the opponent, arbiter decisions only with the arbiter
token (the HTTP-level tests are in test_api.py)."""

from __future__ import annotations

import pytest

from remis.service.auth import ROLES, bearer, hash_token, new_token, refusal, role_of


def test_tokens_are_random_and_stored_hashed() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    t = next(iter(tokens))
    assert hash_token(t) != t and len(hash_token(t)) == 64
    hashes = {r: hash_token(x) for r, x in zip(ROLES, ["w1", "b1", "a1", "s1"], strict=True)}
    assert [role_of(x, hashes) for x in ["w1", "b1", "a1", "s1", "w2", ""]] == [
        "white", "black", "arbiter", "spectator", None, None]


@pytest.mark.parametrize("header, token", [
    ("Bearer abc", "abc"), ("BEARER abc", "abc"), ("Bearer", None), ("abc", None),
    ("Token abc", None), ("", None)])
def test_bearer(header: str, token: str | None) -> None:
    assert bearer(header) == token


OWN = ["move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch", "resign"]


@pytest.mark.parametrize("kind", OWN)
def test_players_act_only_for_themselves(kind: str) -> None:
    assert refusal("white", {"type": kind, "player": "white"}) is None
    assert refusal("black", {"type": kind, "player": "black"}) is None
    assert "cannot" in (refusal("white", {"type": kind, "player": "black"}) or "")
    assert "cannot" in (refusal("black", {"type": kind, "player": "white"}) or "")
    by_arbiter = refusal("arbiter", {"type": kind, "player": "white"})
    assert (by_arbiter is None) == (kind == "touch")


@pytest.mark.parametrize("kind", ["flag", "illegal_move"])
def test_flag_and_illegal_move_are_claimed_against_the_opponent(kind: str) -> None:
    assert refusal("black", {"type": kind, "player": "white"}) is None
    assert refusal("white", {"type": kind, "player": "black"}) is None
    assert refusal("arbiter", {"type": kind, "player": "white"}) is None
    assert "only of the opponent" in (refusal("white", {"type": kind, "player": "white"}) or "")


def test_arbiter_decisions_need_the_arbiter_token() -> None:
    assert refusal("arbiter", {"type": "arbiter", "decision": "accept"}) is None
    assert refusal("white", {"type": "arbiter", "decision": "accept"}) == (
        "event type 'arbiter' needs the arbiter token")


@pytest.mark.parametrize("kind", [*OWN, "flag", "illegal_move", "arbiter"])
def test_the_spectator_token_only_reads(kind: str) -> None:
    for player in ("white", "black"):
        assert refusal("spectator", {"type": kind, "player": player}) == (
            "the spectator token can only read the game")
