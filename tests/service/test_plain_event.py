"""``plain_event`` reads the plain bodies of moves without the model: whatever
it reads must be exactly what the ``Event`` model makes of the same body
(the same keys in the same order, the same values of the same types), and
whatever it leaves (None) goes to the model."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from remis.service.schemas import Event, plain_event

#: values near and across the edges of what each field takes
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.integers(10**9 - 1, 10**9 + 1),
    st.integers(2**63, 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["move", "resign", "claim", "white", "black", "both", "e4", "Nf3",
                     "e7e8q", "", "x" * 16, "x" * 17, "Move", "\ud800", "é", "\n"]),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.just("a"), st.none()))
KEYS = st.sampled_from(["type", "player", "at", "move", "expected_ply", "id", "comment",
                        "kind", "Type", ""])


def dumped(body: bytes) -> dict[str, Any] | None:
    """What the route's model makes of ``body`` (None: it refuses it)."""
    try:
        return Event.model_validate_json(body).model_dump(exclude_none=True)
    except (ValueError, ValidationError):
        return None


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return [(k, type(v), v) for k, v in a.items()] == [(k, type(v), v) for k, v in b.items()]


@settings(max_examples=3000, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6), st.booleans(), st.booleans())
@example({"type": "move", "player": "white", "move": "e4", "at": 3, "expected_ply": 0},
         False, False)
@example({"at": 1.5, "type": "move", "player": "black", "move": "e5"}, True, True)
@example({"type": "move", "at": 10**9}, False, True)
@example({"type": "move", "at": float("nan")}, False, True)
@example({"type": "move", "expected_ply": True}, False, True)
def test_what_it_reads_is_the_models_dump(data: dict[str, Any], ascii_only: bool,
                                          spaced: bool) -> None:
    try:
        text = json.dumps(data, ensure_ascii=ascii_only,
                          separators=(", ", ": ") if spaced else (",", ":"))
        body = text.encode("utf-8", "surrogatepass")
    except ValueError:
        return
    plain = plain_event(body)
    if plain is not None:
        model = dumped(body)
        assert model is not None and same(plain, model), (body, plain, model)


@given(st.binary(max_size=80))
def test_raw_bytes(body: bytes) -> None:
    plain = plain_event(body)
    if plain is not None:
        model = dumped(body)
        assert model is not None and same(plain, model)


def test_duplicate_keys_read_as_the_model_reads_them() -> None:
    body = b'{"type": "move", "type": "resign", "player": "white"}'
    plain = plain_event(body)
    assert plain == {"type": "resign", "player": "white"}
    assert same(plain, dumped(body) or {})


def test_a_moves_usual_body_is_read_plainly() -> None:
    """The bodies a client sends with each move take the plain way (the
    service benchmark's, with ``expected_ply``; one without ``at``)."""
    for body in [b'{"type": "move", "player": "white", "move": "e4", "at": 1.0, '
                 b'"expected_ply": 0}',
                 b'{"type":"move","player":"black","move":"Nxe5+"}']:
        plain = plain_event(body)
        assert plain is not None and same(plain, dumped(body) or {})
        assert not math.isnan(plain.get("at", 0.0))


def test_escapes_and_non_ascii_go_to_the_model() -> None:
    """A lone surrogate (spelt as an escape) is the model's to refuse."""
    assert plain_event(b'{"type": "move", "player": "white", "move": "\\ud800"}') is None
    assert dumped(b'{"type": "move", "player": "white", "move": "\\ud800"}') is None
    assert plain_event('{"type": "move", "move": "é"}'.encode()) is None
