"""The floor of ``benchmarks/service.py --compare``: a server that does what
any durable chess server must per move event and nothing of the rules.

    python benchmarks/service_floor.py --port PORT --db PATH

It is uvicorn (with the same event loop and HTTP parser as ``remis serve``)
around a bare ASGI app that keeps each game's events in memory and commits
each posted event to SQLite before it answers (WAL, ``synchronous=FULL``,
as the service's default), so a move is on disk before its answer.  It
answers just enough of the API for the benchmark's load: create a game,
post an event (answering its number), read the events.  What the service
costs above this floor is remis's own work: routing, checks, the arbiter,
the answer.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
from typing import Any

import uvicorn

Scope = dict[str, Any]


class Floor:
    """The bare ASGI app over the SQLite file ``path``."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, "
                        "seq INTEGER NOT NULL, event TEXT NOT NULL, "
                        "PRIMARY KEY (game_id, seq)) WITHOUT ROWID")
        self.games: dict[str, list[dict[str, Any]]] = {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Answer one request (or the lifespan's start and end)."""
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        status, answer = self.answer(scope["method"], scope["path"], body)
        data = json.dumps(answer).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-length", str(len(data)).encode()),
                                (b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})

    def answer(self, method: str, url_path: str, body: bytes) -> tuple[int, Any]:
        """``(status, JSON answer)`` of a request to ``url_path``."""
        path = url_path.split("/")
        if method == "POST" and path[1:] == ["v1", "games"]:
            gid = secrets.token_hex(8)
            self.games[gid] = []
            return 201, {"id": gid, "tokens": {"white": "w", "black": "b"}, "state": {}}
        if len(path) == 5 and path[4] == "events" and path[3] in self.games:
            events = self.games[path[3]]
            if method == "GET":
                return 200, {"events": events}
            event = json.loads(body)
            event.pop("expected_ply", None)
            self.db.execute("INSERT INTO events VALUES (?, ?, ?)",
                            (path[3], len(events) + 1, json.dumps(event)))
            events.append(event)
            return 200, {"state": {"ply": len(events)}, "event": len(events)}
        return 404, {"detail": "not found"}


def main() -> None:
    """Serve the floor on ``--port`` over ``--db`` until stopped."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--db", required=True, help="the SQLite file")
    args = p.parse_args()
    uvicorn.run(Floor(args.db), host="127.0.0.1", port=args.port, loop="uvloop",
                http="httptools", log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
