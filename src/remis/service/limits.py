"""The service's limits, one setting each (``remis serve --help`` names the
options; docs/service.md explains them): what a game may grow to, what the
games in memory may hold, how far a player's clock is believed, and the
budget and the sharing of the searches."""

from __future__ import annotations

from dataclasses import dataclass

from remis.service.timing import SKEW


@dataclass(frozen=True)
class Limits:
    """Every limit of the service, with its default.

    Games: ``events`` a game may have in all; ``between_moves`` events in a
    row that leave the board as it was (touches, offers, claims);
    ``cache_bytes`` the estimated memory of the games kept in memory (the
    least recently used are dropped, and rebuilt from the database when
    asked for again); ``skew`` how far before the server's receive time a
    player's own ``at`` may lie (see :mod:`remis.service.timing`).

    Searches: ``search_nodes`` and ``search_seconds``, the budget of one
    request to ``/v1/position``, ``/v1/pgn`` or ``/v1/claim`` (all its
    searches together); ``first_pass_nodes`` and ``first_pass_seconds`` (of
    CPU), the budget of the first pass that every search has (a request's,
    and a live game's mate search) before it waits for the whole budget (0
    nodes: none); ``searches_per_client`` running and ``waiting_per_client``
    waiting searches of one client address, in each pool (the first passes',
    the stateless endpoints' and the live games' mate searches).

    >>> Limits().events, Limits().between_moves, Limits().search_seconds
    (20000, 32, 5.0)
    """

    events: int = 20_000
    between_moves: int = 32
    cache_bytes: int = 256 * 1024 * 1024
    skew: float = SKEW
    search_nodes: int = 2_000_000
    search_seconds: float = 5.0
    first_pass_nodes: int = 50_000
    first_pass_seconds: float = 0.1
    searches_per_client: int = 1
    waiting_per_client: int = 4
