"""Tokens for a game: one secret per player, one for the arbiter and one for
spectators.

Tokens are random (:mod:`secrets`), handed out once at creation and stored
only as SHA-256 hashes (a fast hash is enough for 256-bit random secrets).
Reading a game (its state, event log and stream) needs any of its four
tokens; the spectator token can only read.  Who may post which event follows
the Laws: a player acts only for themself
(moves, offers, claims, resignation), a flag fall or an illegal move is
claimed by the opponent (6.8, 7.5) or called by the arbiter, a touched
piece is reported by the player who touched it or by the arbiter (or an
electronic board holding the arbiter token), and the arbiter's own decisions
need the arbiter token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

#: the roles of a game, in the order tokens are handed out
ROLES = ("white", "black", "arbiter", "spectator")
#: the tokens whose hash is remembered (bounded: a hostile client may send many)
TOKENS_CACHED = 4096
#: the roles that may post events (a spectator only reads)
ACTORS = ("white", "black", "arbiter")

#: events done by the player they name (``player`` is the actor)
OWN_ACTS = frozenset({"move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch",
                      "resign", "abort", "request"})
#: events about a player that the *opponent* claims (or the arbiter calls)
CLAIMED_BY_OPPONENT = frozenset({"flag", "illegal_move"})
#: events the arbiter token may post (``touch``: seen by the arbiter or reported by an
#: electronic board, which holds the arbiter token)
ARBITER_ACTS = frozenset({"flag", "illegal_move", "touch", "arbiter"})


def new_token() -> str:
    """A fresh random token (43 URL-safe characters, 256 bits).

    >>> len(new_token()), new_token() != new_token()
    (43, True)
    """
    return secrets.token_urlsafe(32)


@lru_cache(maxsize=TOKENS_CACHED)
def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex (remembered for the
    tokens seen last: a cold hash costs more than a move's own checks).

    >>> hash_token("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, else ``None``.

    >>> bearer("Bearer abc"), bearer("bearer  abc "), bearer("Basic abc"), bearer(None)
    ('abc', 'abc', None, None)
    """
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def role_of(token: str | None, hashes: Mapping[str, str]) -> str | None:
    """The role (``white``, ``black``, ``arbiter``, ``spectator``) whose stored hash matches
    ``token``, compared in constant time; ``None`` when none does.

    >>> hashes = {"white": hash_token("w"), "black": hash_token("b"), "arbiter": hash_token("a")}
    >>> role_of("b", hashes), role_of("x", hashes), role_of(None, hashes)
    ('black', None, None)
    """
    if token is None:
        return None
    digest = hash_token(token)
    found = None
    for role in ROLES:
        stored = hashes.get(role)
        if stored is not None and hmac.compare_digest(digest, stored):
            found = role
    return found


def _opponent(player: str) -> str:
    return "black" if player == "white" else "white"


def refusal(role: str, event: Mapping[str, Any]) -> str | None:
    """Why ``role`` may not post ``event`` (a sentence for a 403), or ``None``
    when it may.

    >>> refusal("white", {"type": "move", "player": "white", "move": "e4"}) is None
    True
    >>> refusal("black", {"type": "resign", "player": "white"})
    'the black token cannot resign for white'
    >>> refusal("black", {"type": "flag", "player": "white"}) is None
    True
    >>> refusal("black", {"type": "illegal_move", "player": "white", "called_by": "arbiter"})
    'the black token cannot say the arbiter called it'
    >>> refusal("arbiter", {"type": "move", "player": "white", "move": "e4"})
    'only the player may move; the arbiter token may post arbiter, flag, illegal_move, touch'
    >>> refusal("spectator", {"type": "offer_draw", "player": "white"})
    'the spectator token can only read the game'
    >>> refusal("black", {"type": "illegal_move", "player": "white", "ply": 3,
    ...                   "clocks": {"white": 1, "black": 900}})
    'only the arbiter sets the clocks (Article 7.1)'
    """
    kind = str(event.get("type"))
    player = event.get("player")
    if role not in ACTORS:
        return f"the {role} token can only read the game"
    if role != "arbiter" and event.get("clocks") is not None:
        return "only the arbiter sets the clocks (Article 7.1)"
    if role == "arbiter":
        if kind in ARBITER_ACTS:
            return None
        verb = kind.replace("_", " ")
        return (f"only the player may {verb}; the arbiter token may post "
                f"{', '.join(sorted(ARBITER_ACTS))}")
    if kind in OWN_ACTS:
        if player == role:
            return None
        return f"the {role} token cannot {kind.replace('_', ' ')} for {player}"
    if kind in CLAIMED_BY_OPPONENT:
        if event.get("called_by") == "arbiter":
            return f"the {role} token cannot say the arbiter called it"
        if player == _opponent(role):
            return None
        what = "a flag fall" if kind == "flag" else "an illegal move"
        return (f"the {role} token can claim {what} only of the opponent "
                f"({_opponent(role)}); the arbiter may call it")
    return f"event type {kind!r} needs the arbiter token"
