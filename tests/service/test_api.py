"""The HTTP API against a real ``remis serve`` (uvicorn) process, over SQLite
and PostgreSQL: games, tokens, bad input, the stream, the OpenAPI schema."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from service_procs import PATIENCE, Server

from remis.arbiter import Arbiter

REPEAT = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]


def new_game(url: str, config: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{url}/v1/games", json={"config": config or {"time_control": "300+2"}})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"id", "tokens", "state"} and set(body["tokens"]) == {
        "white", "black", "arbiter", "spectator"}
    assert len(set(body["tokens"].values())) == 4
    assert body["state"]["ply"] == 0 and body["state"]["over"] is False
    return body["id"], body["tokens"]


def post(url: str, gid: str, token: str | None, event: dict[str, Any]) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{url}/v1/games/{gid}/events", json=event, headers=headers)


def play(url: str, gid: str, tokens: dict[str, str], sans: list[str], start: float = 0.0,
         first: str = "white") -> dict[str, Any]:
    player = first
    state: dict[str, Any] = {}
    for i, san in enumerate(sans):
        r = post(url, gid, tokens[player], {"type": "move", "player": player, "move": san,
                                            "at": start + i + 1})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
        player = "black" if player == "white" else "white"
    return state


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def log_of(url: str, gid: str, token: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{url}/v1/games/{gid}/events", headers=bearer(token))
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


def view(url: str, gid: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{url}/v1/games/{gid}", headers=bearer(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_game_to_a_threefold_claim(server: Server) -> None:
    url = server.url
    started = time.monotonic()
    gid, tokens = new_game(url)
    state = play(url, gid, tokens, REPEAT)
    assert state["ply"] == 7 and state["to_move"] == "black"
    r = post(url, gid, tokens["black"], {"type": "claim", "player": "black",
                                         "kind": "threefold_repetition", "move": "Ng8",
                                         "at": 8.0})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["event"] == 8
    assert body["state"]["over"] and body["state"]["result"] == "1/2-1/2"
    assert body["state"]["article"] == "9.2.1"
    assert body["state"]["explanation"] and body["state"]["message"]
    got = view(url, gid, tokens["spectator"])
    assert got["id"] == gid and got["config"] == {"time_control": "300+2"}
    assert got["state"] == body["state"]
    events = log_of(url, gid, tokens["white"])
    assert [e.get("move") for e in events] == [*REPEAT, "Ng8"]
    ats = [e["at"] for e in events]    # a player's 'at' is held to the server's clock
    assert ats == sorted(ats) and ats[-1] <= time.monotonic() - started + 1
    # the game is over: any further event is refused and changes nothing
    r = post(url, gid, tokens["white"], {"type": "move", "player": "white", "move": "e4",
                                         "at": 9})
    assert r.status_code == 409 and "over" in r.json()["detail"], r.text
    assert len(log_of(url, gid, tokens["spectator"])) == 8


def test_missing_at_is_server_time_since_creation(server: Server) -> None:
    started = time.monotonic()
    gid, tokens = new_game(server.url)
    r = post(server.url, gid, tokens["white"], {"type": "move", "player": "white",
                                                "move": "e4"})
    took = time.monotonic() - started      # a bound from this test's clock, however busy
    assert r.status_code == 200
    at = log_of(server.url, gid, tokens["arbiter"])[0]["at"]
    assert 0 <= at <= took + 1


def test_tokens(server_factory: Any, sqlite_url: str) -> None:
    url = server_factory(sqlite_url).url
    gid, tokens = new_game(url)
    _other, other_tokens = new_game(url)
    e4 = {"type": "move", "player": "white", "move": "e4", "at": 1}
    checks = [
        (None, e4, 401, "missing token"),
        ("nonsense", e4, 401, "not valid"),
        (other_tokens["white"], e4, 401, "not valid"),          # a token of another game
        (tokens["black"], e4, 403, "cannot move for white"),
        (tokens["arbiter"], e4, 403, "only the player may move"),
        (tokens["black"], {"type": "resign", "player": "white"}, 403, "resign for white"),
        (tokens["black"], {"type": "claim", "player": "white", "kind": "fifty_moves"}, 403,
         "claim for white"),
        (tokens["white"], {"type": "offer_draw", "player": "black"}, 403, "offer draw"),
        (tokens["white"], {"type": "flag", "player": "white"}, 403, "only of the opponent"),
        (tokens["white"], {"type": "arbiter", "decision": "accept"}, 403, "arbiter token"),
    ]
    for token, event, status, words in checks:
        r = post(url, gid, token, event)
        assert r.status_code == status, (event, r.text)
        assert words in r.json()["detail"], (words, r.text)
    assert log_of(url, gid, tokens["spectator"]) == []          # nothing changed
    headers = {"Authorization": "Basic abc"}
    r = httpx.post(f"{url}/v1/games/{gid}/events", json=e4, headers=headers)
    assert r.status_code == 401
    assert post(url, gid, tokens["white"], e4).status_code == 200
    # flag claimed by the opponent: refused by the Laws (the clock is not at zero) -> 409
    r = post(url, gid, tokens["white"], {"type": "flag", "player": "black", "at": 5})
    assert r.status_code == 409, r.text
    r = post(url, gid, tokens["arbiter"], {"type": "flag", "player": "black", "at": 400})
    assert r.status_code == 200 and r.json()["state"]["over"], r.text
    assert r.json()["state"]["result"] == "1-0"
    # the database holds only hashes of the tokens
    import hashlib
    import sqlite3

    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as db:
        stored = " ".join(str(c) for row in db.execute("SELECT * FROM games") for c in row)
    for token in tokens.values():
        assert token not in stored
        assert hashlib.sha256(token.encode()).hexdigest() in stored


READS = ["", "/events", "/moves", "/stream"]


def test_reading_a_game_needs_one_of_its_tokens(server_factory: Any, sqlite_url: str) -> None:
    """State, event log and stream: 401 without a token or with one that is not
    of this game (another game's, garbage, another scheme); 200 with any of the
    game's four tokens; the spectator token reads but never posts."""
    url = server_factory(sqlite_url).url
    gid, tokens = new_game(url)
    _other, other_tokens = new_game(url)
    play(url, gid, tokens, ["e4"])
    refused: list[tuple[dict[str, str], str]] = [
        ({}, "missing token"),
        ({"Authorization": "Basic abc"}, "missing token"),
        (bearer("nonsense"), "not valid"),
        (bearer(other_tokens["spectator"]), "not valid"),   # a token of another game
        (bearer(other_tokens["arbiter"]), "not valid"),
    ]
    for path in READS:
        for headers, words in refused:
            r = httpx.get(f"{url}/v1/games/{gid}{path}", headers=headers, timeout=PATIENCE)
            assert r.status_code == 401, (path, headers, r.text)
            assert words in r.json()["detail"], (path, r.text)
            assert r.headers["www-authenticate"].startswith("Bearer"), path
            # nothing of the game leaks: only the reason (a game id may contain "e4")
            assert set(r.json()) == {"detail", "code"} and '"move"' not in r.text, (path, r.text)
            assert r.json()["code"] in ("missing_token", "bad_token"), r.text
    for role, token in tokens.items():
        assert view(url, gid, token)["state"]["ply"] == 1, role
        assert [e["move"] for e in log_of(url, gid, token)] == ["e4"], role
        with httpx.stream("GET", f"{url}/v1/games/{gid}/stream", headers=bearer(token),
                          timeout=PATIENCE) as r:
            assert r.status_code == 200, role
            first = next(line for line in r.iter_lines() if line.startswith("data: "))
            assert json.loads(first[6:])["ply"] == 1, role
    # an unknown game is 404 whatever the token
    r = httpx.get(f"{url}/v1/games/nope/events", headers=bearer(tokens["white"]))
    assert r.status_code == 404
    # the spectator token reads only
    for event in ({"type": "move", "player": "black", "move": "e5"},
                  {"type": "offer_draw", "player": "black"},
                  {"type": "flag", "player": "white"},
                  {"type": "arbiter", "decision": "accept"}):
        r = post(url, gid, tokens["spectator"], event)
        assert r.status_code == 403 and "can only read" in r.json()["detail"], r.text
    assert len(log_of(url, gid, tokens["spectator"])) == 1


def moves_of(url: str, gid: str, token: str) -> list[tuple[int, str, str, bool]]:
    r = httpx.get(f"{url}/v1/games/{gid}/moves", headers=bearer(token))
    assert r.status_code == 200, r.text
    return [(m["ply"], m["player"], m["move"], m["standing"]) for m in r.json()["moves"]]


def test_move_list_and_an_illegal_move_found_later(server_factory: Any,
                                                   sqlite_url: str) -> None:
    """The move list is the arbiter's board: an illegal move nobody called stands
    in it (UCI, ``standing``); found later by the arbiter (7.5.1), it and the
    moves after it are gone and the position before it is back."""
    url = server_factory(sqlite_url).url
    gid, tokens = new_game(url, {"time_control": "5400+30", "mode": "standard"})
    play(url, gid, tokens, ["e4", "e5"])
    before = view(url, gid, tokens["spectator"])["state"]["fen"]
    # White's queen jumps over her own pawn: nobody calls it (posted by the arbiter's board)
    # (the arbiter's events carry no 'at': the server's receive time, which a fixed
    # time of record could precede on a busy machine, where the players' are later)
    r = post(url, gid, tokens["arbiter"], {"type": "illegal_move", "player": "white",
                                           "move": "d1d3", "called_by": "nobody"})
    assert r.status_code == 200, r.text
    play(url, gid, tokens, ["Nc6", "Nf3"], start=3, first="black")
    assert moves_of(url, gid, tokens["white"]) == [
        (1, "white", "e4", False), (2, "black", "e5", False), (3, "white", "d1d3", True),
        (4, "black", "Nc6", False), (5, "white", "Nf3", False)]
    # a player cannot find their own illegal move; the arbiter can
    r = post(url, gid, tokens["white"], {"type": "illegal_move", "player": "white", "ply": 3})
    assert r.status_code == 403, r.text
    r = post(url, gid, tokens["arbiter"], {"type": "illegal_move", "player": "white", "ply": 3})
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["ply"] == 2 and state["fen"] == before and state["to_move"] == "white"
    assert any(e["message"] == "illegal_found" and e["article"] == "7.5.1"
               for e in state["rulings"]), state["rulings"]
    r = httpx.get(f"{url}/v1/games/{gid}/moves", headers=bearer(tokens["spectator"]))
    assert r.json() == {"moves": [
        {"ply": 1, "player": "white", "move": "e4", "standing": False},
        {"ply": 2, "player": "black", "move": "e5", "standing": False}], "event": 6}


def test_bad_input_is_4xx_and_changes_nothing(server_factory: Any, sqlite_url: str) -> None:
    server = server_factory(sqlite_url)
    url = server.url
    gid, tokens = new_game(url)
    play(url, gid, tokens, ["e4"])
    auth = {"Authorization": f"Bearer {tokens['black']}",
            "Content-Type": "application/json"}
    ev = f"{url}/v1/games/{gid}/events"
    cases: list[tuple[bytes, int, str]] = [
        (b"{not json", 400, "malformed JSON"),
        (b"", 422, "missing JSON body"),
        (b"[1, 2]", 422, "body"),
        (b'{"type": "move", "player": "black", "move": "e5", "colour": 1}', 422,
         "unknown field 'colour'"),
        (b'{"type": "castle", "player": "black"}', 422, "type"),
        (b'{"type": "move", "player": "black", "move": "e5", "at": "soon"}', 422, "at"),
        (b'{"type": "move", "player": "black", "move": "e5", "at": -1}', 422, "at"),
        (b'{"type": "move", "player": "black", "move": "Ke7e5"}', 409, "event 2 refused"),
        (b'{"type": "move", "player": "black", "move": "Qh4"}', 409, "event 2 refused"),
        (b'{"type": "move", "player": "black", "move": "e5", "expected_ply": 0}', 409,
         "expected ply 0"),
        (b'{"type": "move", "player": "black", "move": "' + b"x" * 70_000 + b'"}', 413,
         "over 64 KiB"),
    ]
    for body, status, words in cases:
        r = httpx.post(ev, content=body, headers=auth)
        assert r.status_code == status, (body[:80], r.text)
        assert words in r.json()["detail"], (words, r.text)

    def chunks() -> Any:
        for _ in range(100):
            yield b" " * 1024

    r = httpx.post(ev, content=chunks(), headers=auth)       # chunked, no Content-Length
    assert r.status_code == 413, r.text
    r = httpx.post(f"{url}/v1/games/nope/events", json={"type": "resign", "player": "black"},
                   headers=auth)
    assert r.status_code == 404 and "no game" in r.json()["detail"]
    assert httpx.get(f"{url}/v1/games/nope", headers=bearer(tokens["black"])).status_code == 404
    r = httpx.post(f"{url}/v1/games", json={"config": {"time_control": "ten minutes"}})
    assert r.status_code == 422 and r.json()["detail"].startswith("config:")
    r = httpx.post(f"{url}/v1/games", json={"config": {}, "white": "me"})
    assert r.status_code == 422
    assert [e["move"] for e in log_of(url, gid, tokens["black"])] == ["e4"]
    log = server.log.read_text() if server.log else ""
    assert "Traceback" not in log


def test_expected_ply_serialises_racing_clients(server_factory: Any, sqlite_url: str) -> None:
    """Twelve clients post White's first move at once, each expecting ply 0:
    exactly one is accepted, the others get 409 (or 422), the log has one move."""
    url = server_factory(sqlite_url).url
    gid, tokens = new_game(url)
    results: list[int] = []
    lock = threading.Lock()
    moves = ["e4", "d4", "c4", "Nf3", "g3", "b3", "e3", "d3", "c3", "a3", "h3", "f4"]

    def one(san: str) -> None:
        r = post(url, gid, tokens["white"], {"type": "move", "player": "white", "move": san,
                                             "at": 1, "expected_ply": 0})
        with lock:
            results.append(r.status_code)

    threads = [threading.Thread(target=one, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join(PATIENCE)
    assert results.count(200) == 1 and set(results) <= {200, 409, 422}, results
    assert len(log_of(url, gid, tokens["white"])) == 1


def test_two_instances_share_one_database(server_factory: Any, db_url: str) -> None:
    """Two service instances on one database (as behind a load balancer):
    moves alternate between them and racing posts never double-apply."""
    a, b = server_factory(db_url), server_factory(db_url)
    gid, tokens = new_game(a.url)
    for i, san in enumerate(["e4", "e5", "Nf3", "Nc6"]):
        player = "white" if i % 2 == 0 else "black"
        srv = a if i % 2 == 0 else b
        r = post(srv.url, gid, tokens[player], {"type": "move", "player": player, "move": san,
                                                "at": i + 1})
        assert r.status_code == 200, r.text
        assert r.json()["event"] == i + 1
    assert view(a.url, gid, tokens["spectator"])["state"]["ply"] == 4
    results: list[int] = []

    def one(srv: Server, san: str) -> None:
        r = post(srv.url, gid, tokens["white"], {"type": "move", "player": "white",
                                                 "move": san, "at": 6, "expected_ply": 4})
        results.append(r.status_code)

    threads = [threading.Thread(target=one, args=(srv, san)) for srv in (a, b)
               for san in ("Bb5", "Bc4", "d4", "c3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(PATIENCE)
    assert results.count(200) == 1, results
    log_a, log_b = log_of(a.url, gid, tokens["white"]), log_of(b.url, gid, tokens["black"])
    assert log_a == log_b and len(log_a) == 5
    seen_a, seen_b = view(a.url, gid, tokens["arbiter"]), view(b.url, gid, tokens["spectator"])
    assert seen_a.pop("now") >= 0 and seen_b.pop("now") >= 0  # each answer's own time
    assert seen_a == seen_b


def test_stream_sends_the_state_then_each_event(server_factory: Any, sqlite_url: str) -> None:
    url = server_factory(sqlite_url).url
    gid, tokens = new_game(url)
    play(url, gid, tokens, ["e4"])
    received: list[dict[str, Any]] = []
    ready = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{url}/v1/games/{gid}/stream", timeout=PATIENCE,
                          headers=bearer(tokens["spectator"])) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("data: "):
                    received.append(json.loads(line[6:]))
                    ready.set()
                    if len(received) == 3:
                        return

    t = threading.Thread(target=listen)
    t.start()
    assert ready.wait(PATIENCE)
    play(url, gid, tokens, ["e5", "Nf3"], start=1, first="black")
    t.join(PATIENCE)
    assert [s["ply"] for s in received] == [1, 2, 3]
    assert received[-1]["fen"] == view(url, gid, tokens["white"])["state"]["fen"]
    r = httpx.get(f"{url}/v1/games/nope/stream", headers=bearer(tokens["white"]))
    assert r.status_code == 404


def test_openapi_schema(server_factory: Any, sqlite_url: str) -> None:
    url = server_factory(sqlite_url).url
    schema = httpx.get(f"{url}/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    expected = {
        "/v1/games": {"post"}, "/v1/games/{game_id}": {"get"},
        "/v1/games/{game_id}/events": {"get", "post"}, "/v1/games/{game_id}/stream": {"get"},
        "/v1/position": {"post"}, "/v1/pgn": {"post"}, "/v1/claim": {"post"},
        "/v1/i18n/{lang}": {"get"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    schemas = schema["components"]["schemas"]
    for name in ("Event", "CreateGame", "PositionRequest", "PgnRequest", "ClaimRequest"):
        assert schemas[name].get("additionalProperties") is False, name
    assert set(schemas["Event"]["properties"]["type"]["enum"]) >= {"move", "claim", "flag",
                                                                   "resign", "arbiter"}
    post_event = paths["/v1/games/{game_id}/events"]["post"]
    assert {"200", "401", "403", "409", "422"} <= set(post_event["responses"])
    assert paths["/v1/games"]["post"]["responses"]["201"]
    # the game's endpoints, reads included, declare the bearer token and answer 401
    assert schema["components"]["securitySchemes"]["gameToken"] == {
        "type": "http", "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["gameToken"]["description"]}
    for path, method in [("/v1/games/{game_id}", "get"), ("/v1/games/{game_id}/events", "get"),
                         ("/v1/games/{game_id}/stream", "get"),
                         ("/v1/games/{game_id}/events", "post")]:
        op = paths[path][method]
        assert op["security"] == [{"gameToken": []}], (path, method)
        assert {"401", "404"} <= set(op["responses"]), (path, method)
    for path in ("/v1/games", "/v1/position", "/v1/pgn", "/v1/claim"):
        assert "security" not in paths[path]["post"], path
    assert "spectator" in schemas["CreatedGame"]["properties"]["tokens"]["description"]
    assert httpx.get(f"{url}/docs").status_code == 200


def test_page_and_static(server_factory: Any, sqlite_url: str) -> None:
    url = server_factory(sqlite_url).url
    r = httpx.get(url + "/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = httpx.get(url + "/static/no-such-file.js")
    assert r.status_code == 404
    r = httpx.get(url + "/v1/i18n/xx")
    assert r.status_code == 404 and "no translations" in r.json()["detail"]
    for lang in ("en", "cs", "pl"):
        r = httpx.get(url + f"/v1/i18n/{lang}")
        assert r.status_code == 200
        assert "{article}" in r.json()["checkmate"]


def test_stream_sees_events_posted_to_another_instance(server_factory: Any,
                                                       sqlite_url: str) -> None:
    a, b = server_factory(sqlite_url), server_factory(sqlite_url)
    gid, tokens = new_game(a.url)
    received: list[dict[str, Any]] = []
    ready = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{b.url}/v1/games/{gid}/stream", timeout=PATIENCE,
                          headers=bearer(tokens["black"])) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    received.append(json.loads(line[6:]))
                    ready.set()
                    if len(received) == 2:
                        return

    t = threading.Thread(target=listen)
    t.start()
    assert ready.wait(PATIENCE)
    play(a.url, gid, tokens, ["d4"])
    t.join(PATIENCE)
    assert [s["ply"] for s in received] == [0, 1]


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Any) -> None:
    import subprocess
    import sys

    code = "import sys; from remis.cli import main; sys.exit(main(sys.argv[1:]))"
    for db, status, words in [("mysql://localhost/x", 2, "unsupported database URL"),
                              ("postgresql://postgres@127.0.0.1:1/none", 1,
                               "cannot open the database"),
                              (f"sqlite:///{tmp_path}/no/such/dir/x.db", 1,
                               "cannot open the database")]:
        out = subprocess.run([sys.executable, "-c", code, "serve", "--db", db],
                             capture_output=True, text=True, timeout=PATIENCE)
        assert out.returncode == status, out.stderr
        assert words in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_an_illegal_move_found_later_is_stored_and_replayed(server_factory: Any,
                                                            sqlite_url: str) -> None:
    """The ``ply`` and ``clocks`` fields of an illegal move found later (7.5.1,
    7.1) pass the service's event model and rebuild from the stored log."""
    server = server_factory(sqlite_url)
    gid, tokens = new_game(server.url, {"time_control": "5400"})
    play(server.url, gid, tokens, ["e4", "e5"])
    # (no 'at' from the arbiter: the receive time, never before the players' times)
    r = post(server.url, gid, tokens["arbiter"], {"type": "illegal_move", "player": "white",
                                                  "move": "e1e3", "called_by": "nobody"})
    assert r.status_code == 200, r.text
    play(server.url, gid, tokens, ["Nf6"], start=3, first="black")
    r = post(server.url, gid, tokens["arbiter"], {
        "type": "illegal_move", "player": "white", "ply": 3,
        "clocks": {"white": 5000, "black": 5100}})
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["ply"] == 2 and state["clocks"] == {"white": 5000, "black": 5220}
    rebuilt = Arbiter.from_log({"time_control": "5400"}, log_of(server.url, gid, tokens["arbiter"]))
    assert rebuilt.state()["fen"] == state["fen"]
    assert rebuilt.state()["clocks"] == state["clocks"]
