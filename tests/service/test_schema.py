"""schemathesis against a real ``remis serve``: every operation with data
generated from its OpenAPI schema, then statefully, following the schema's
links from ``POST /v1/games`` to the game's events, state, log and moves
(with the game's tokens), so that real game states are reached.

Checks: never a 5xx, only documented statuses, content types and response
bodies as the schema says, and positive data accepted: a request the schema
calls valid gets 2xx (or 401/403/404 for tokens and games that do not exist,
409 for an event the game's present state refuses, 429).  The one exception
is chess content that no JSON Schema can judge: whether a FEN, a PGN text or
a start position is a legal position (422 there)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402
from service_procs import Server  # noqa: E402

#: the operations whose bodies hold chess content (positions, games, a time control
#: as players write it) the schema cannot judge: a well-formed but illegal one is
#: refused with 422
CHESS_CONTENT = {"POST /v1/games", "POST /v1/position", "POST /v1/pgn", "POST /v1/claim",
                 "GET /v1/time-control"}
EXAMPLES = 25


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("schema")
    s = Server(f"sqlite:///{tmp / 'r.db'}?synchronous=normal", log=tmp / "serve.log",
               args=("--search-seconds", "0.5", "--waiting-per-client", "64",
                     "--searches-per-client", "2")).start()
    yield s
    s.stop()
    log = (tmp / "serve.log").read_text()
    assert "Traceback" not in log, log[-3000:]


ACCEPTED = ["2xx", "401", "403", "404", "409", "429"]
CONFIG = {
    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
    "operations": [{"include-name": sorted(CHESS_CONTENT), "checks": {
        "positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "422"]}}}],
}


def load(server: Server, config: dict[str, Any]) -> Any:
    """The service's schema, less the event stream (an endless answer,
    tested in test_api.py)."""
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json",
                                           config=SchemathesisConfig.from_dict(config))
    return schema.exclude(path_regex="/stream$")


@pytest.fixture(scope="module")
def schema(server: Server) -> Any:
    return load(server, CONFIG)


def test_every_operation(schema: Any) -> None:
    """Each operation on its own (random game ids: mostly 401/404)."""
    failures = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=EXAMPLES, deadline=None,
                  suppress_health_check=list(HealthCheck), database=None)
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            case.call_and_validate()

        try:
            run()
        except BaseException as exc:
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)


def test_stateful_games(server: Server) -> None:
    """Sequences from ``POST /v1/games`` along its links: events, state, log,
    moves of real games, each request with one of the game's tokens (so the
    check that generated, invalid tokens are refused is left to
    :func:`test_every_operation`)."""
    config = {**CONFIG, "checks": {**CONFIG["checks"], "ignored_auth": {"enabled": False}}}
    schema = load(server, config)
    tokens: dict[str, dict[str, str]] = {}
    seen: set[tuple[str, int]] = set()
    boards: dict[str, chess.Board] = {}
    # games that took a move: a game's first event is made a move, so that real
    # positions follow whatever event types are generated (and whatever the timing)
    moved: set[str] = set()
    Base = schema.as_state_machine()

    class Games(Base):  # type: ignore[misc, valid-type]
        def before_call(self, case: Any) -> None:
            if case.operation.label == "POST /v1/games" and not getattr(self, "made", False):
                # each sequence's first game is a plain one, so that sequences reach real
                # positions whatever configs are generated after it (many make games
                # that refuse a first move: an ended start position, a variant); per
                # sequence, so that every sequence draws its data in the same way
                case.body = {"config": {}}
                self.made = True
            game = (case.path_parameters or {}).get("game_id")
            if game in tokens:
                body = case.body if isinstance(case.body, dict) else {}
                first = case.operation.label == "POST /v1/games/{game_id}/events" \
                    and game not in moved
                if game in boards and (body.get("type") == "move" or first):
                    # a generated move event gets a legal move of the side to move (its
                    # id and comment kept), so that games go on to real positions
                    board = boards[game]
                    moves = list(board.legal_moves)
                    if moves:
                        side = "white" if board.turn else "black"
                        san = board.san(moves[len(str(body)) % len(moves)])
                        body = {"type": "move", "player": side, "move": san,
                                **{k: body[k] for k in ("id", "comment") if k in body}}
                        case.body = body
                # the token of the player the event names (else the arbiter's); reads
                # with the spectator's
                who = tokens[game].get(str(body.get("player")), tokens[game]["arbiter"]) \
                    if case.method.upper() == "POST" else tokens[game]["spectator"]
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {who}"}

        def after_call(self, response: Any, case: Any) -> None:
            seen.add((case.operation.label, response.status_code))
            if case.operation.label == "POST /v1/games" and response.status_code == 201:
                body = response.json()
                tokens[body["id"]] = body["tokens"]
            elif case.operation.label == "POST /v1/games/{game_id}/events" \
                    and response.status_code == 200:
                body = response.json()
                moved.add(case.path_parameters["game_id"])
            else:
                return
            with contextlib.suppress(ValueError):  # the position for the next move (chess)
                boards[case.path_parameters.get("game_id") or body["id"]] = chess.Board(
                    body["state"]["fen"])

    # derandomized: a random run now and then made no event the server accepts
    Games.run(settings=settings(max_examples=40, stateful_step_count=10, deadline=None,
                                suppress_health_check=list(HealthCheck), database=None,
                                derandomize=True))
    assert tokens, "no game was created"
    assert ("POST /v1/games/{game_id}/events", 200) in seen, sorted(seen)  # real game states


def test_links_are_in_the_schema(schema: Any) -> None:
    links = schema.raw_schema["paths"]["/v1/games"]["post"]["responses"]["201"]["links"]
    assert {v["operationId"] for v in links.values()} == {"post_event", "get_game",
                                                          "get_events", "get_moves"}


def test_schema_file(tmp_path: Path, schema: Any) -> None:
    """The schema is valid OpenAPI (schemathesis refuses it otherwise)."""
    assert schema.raw_schema["openapi"].startswith("3.")
