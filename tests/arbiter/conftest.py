"""Fixtures for the arbiter tests: event lists from SAN move lists, and a
played-through arbiter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from remis.arbiter import Arbiter


def moves(sans: str, first: str = "white", start: float = 0.0, step: float = 1.0,
          ) -> list[dict[str, Any]]:
    """Move events for a space-separated SAN list, alternating from ``first``,
    one every ``step`` seconds after ``start``."""
    out = []
    player = first
    t = start
    for san in sans.split():
        t += step
        out.append({"type": "move", "player": player, "move": san, "at": t})
        player = "black" if player == "white" else "white"
    return out


def play(config: dict[str, Any], events: list[dict[str, Any]]) -> Arbiter:
    """An arbiter that has accepted every event (fails the test otherwise)."""
    a = Arbiter(config)
    for e in events:
        a.apply(e)
    return a


@pytest.fixture
def mv() -> Callable[..., list[dict[str, Any]]]:
    """The :func:`moves` helper."""
    return moves


@pytest.fixture
def arb() -> Callable[[dict[str, Any], list[dict[str, Any]]], Arbiter]:
    """The :func:`play` helper."""
    return play
