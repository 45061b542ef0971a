"""The arbiter reference (docs/reference/arbiter.md) lists every key of the
configuration, every type of event and every key of the state that the
arbiter has: a key added to the code and not to the page fails here."""

from __future__ import annotations

import re
from typing import Any

import pytest

from remis import Arbiter
from remis.arbiter import events
from remis.arbiter.config import _DEFAULTS
from tests.docs.pages import ROOT

PAGE = (ROOT / "docs" / "reference" / "arbiter.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return PAGE.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _first_column(section: str) -> set[str]:
    """The names in backquotes in the first cell of each row of a section's tables."""
    names: set[str] = set()
    for row in re.findall(r"^\| ([^|]+) \|", section, re.M):
        names.update(re.findall(r"`(\w+)`", row))
    return names


def _as_dict(state: Any) -> dict[str, Any]:
    return state if isinstance(state, dict) else dict(state.to_json())


def test_every_configuration_key_is_in_the_reference() -> None:
    assert set(_DEFAULTS) - {"repetitions", "notation"} <= _first_column(
        _section("Configuration"))
    # the variant's own keys are described with it
    assert "`repetitions`" in PAGE and "`notation`" in PAGE


def test_every_event_type_is_in_the_reference() -> None:
    assert set(events.TYPES) <= _first_column(_section("Events"))


@pytest.mark.parametrize("config", [{}, {"armageddon": True}])
def test_every_state_key_is_in_the_reference(config: dict[str, Any]) -> None:
    state = _as_dict(Arbiter(config).state())
    assert set(state) | {"rulings"} <= _first_column(_section("State"))
