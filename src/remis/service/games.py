"""Live games behind the HTTP API: each event is checked (token, role,
expected ply), applied by the arbiter and stored, one at a time per game.

The arbiter decides every rule; this module only keeps one
:class:`~remis.arbiter.Arbiter` per game in memory (rebuilt from the stored
event log whenever it is missing or behind, e.g. after a restart or when
another service instance appended events), and makes sure an event is
committed to the store before it is acknowledged.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.base import MateTest
from remis.service.auth import ROLES, hash_token, new_token, refusal, role_of
from remis.service.moves import move_list
from remis.service.store import GameRecord, SeqTaken, Store


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status and
    ``detail`` the sentence shown to the client.

    >>> ServiceError(404, "no game 'x'").detail
    "no game 'x'"
    """

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass
class _Live:
    """A game in memory: its record, its arbiter and how many stored events
    the arbiter has applied."""

    record: GameRecord
    arbiter: Arbiter
    applied: int


Listener = Callable[[str, int, dict[str, Any]], None]


class Games:
    """The games of one service instance over a :class:`Store`.

    >>> from remis.service.store import open_store
    >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
    >>> gid, tokens, state = games.create({"time_control": "300+2", "mode": "blitz"})
    >>> state, n = games.post(gid, tokens["white"], {"type": "move", "player": "white",
    ...                                              "move": "e4", "at": 3.0})
    >>> n, state["ply"], state["to_move"]
    (1, 1, 'black')
    >>> games.post(gid, tokens["white"], {"type": "move", "player": "black", "move": "e5"})
    Traceback (most recent call last):
    ...
    remis.service.games.ServiceError: the white token cannot move for black
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 cache_size: int = 10_000, mate_test: MateTest | None = None) -> None:
        self.store = store
        #: runs the arbiters' "can the opponent still mate?" search (default: in the
        #: calling thread; the service passes a :class:`~remis.service.mates.MatePool`)
        self._mate_test = mate_test
        self._clock = clock
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._listeners: list[Listener] = []

    # -- bookkeeping -------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(game_id, event_number, state)`` after each stored event.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> seen = []
        >>> games.listen(lambda gid, n, state: seen.append((n, state["ply"])))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "d4"})
        >>> seen
        [(1, 1)]
        """
        self._listeners.append(listener)

    def _lock(self, game_id: str) -> threading.Lock:
        with self._cache_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _cached(self, game_id: str) -> _Live | None:
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def _remember(self, game_id: str, live: _Live) -> None:
        with self._cache_lock:
            self._cache[game_id] = live
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def record(self, game_id: str) -> GameRecord:
        """The stored game; :class:`ServiceError` 404 when there is none.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
        >>> gid, _, _ = games.create({"mode": "rapid"})
        >>> games.record(gid).config, games.record(gid).created
        ({'mode': 'rapid'}, 100.0)
        >>> games.record("nope")
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: no game with id 'nope'
        """
        live = self._cached(game_id)
        if live is not None:
            return live.record
        rec = self.store.get_game(game_id)
        if rec is None:
            raise ServiceError(404, f"no game with id {game_id!r}")
        return rec

    def _arbiter(self, config: Mapping[str, Any]) -> Arbiter:
        arbiter = Arbiter(dict(config))
        if self._mate_test is not None:
            arbiter.mate_test = self._mate_test
        return arbiter

    def _rebuild(self, rec: GameRecord, events: list[dict[str, Any]]) -> _Live:
        try:
            arbiter = Arbiter.from_log(rec.config, events, mate_test=self._mate_test)
        except (RefusedEvent, ValueError) as exc:  # a stored log the arbiter now refuses
            raise RuntimeError(f"game {rec.id}: stored event log cannot be replayed: "
                               f"{exc}") from exc
        return _Live(rec, arbiter, len(events))

    def _sync(self, rec: GameRecord, count: int,
              load: Callable[[int], list[dict[str, Any]]]) -> _Live:
        """The live game with all ``count`` stored events applied."""
        live = self._cached(rec.id)
        if live is not None and live.applied < count:
            try:
                for ev in load(live.applied):
                    live.arbiter.apply(ev)
                    live.applied += 1
            except (RefusedEvent, ValueError):
                live = None
        if live is None or live.applied != count:
            live = self._rebuild(rec, load(0))
        self._remember(rec.id, live)
        return live

    # -- the API -------------------------------------------------------------

    def create(self, config: Mapping[str, Any]) -> tuple[str, dict[str, str], dict[str, Any]]:
        """Create a game: ``(id, tokens by role, state)``; a config the
        arbiter refuses raises :class:`ServiceError` 422.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, state = games.create({})
        >>> len(gid), sorted(tokens), state["ply"], state["to_move"]
        (16, ['arbiter', 'black', 'spectator', 'white'], 0, 'white')
        >>> try:
        ...     games.create({"mode": "bogus"})
        ... except ServiceError as exc:
        ...     print(exc.status, exc.detail[:36])
        422 config: mode must be one of standard

        """
        cfg = dict(config)
        try:
            arbiter = self._arbiter(cfg)
        except (RefusedEvent, ValueError) as exc:
            msg = _message(exc)
            raise ServiceError(422, msg if msg.startswith("config: ") else f"config: {msg}"
                               ) from None
        game_id = secrets.token_hex(8)
        tokens = {role: new_token() for role in ROLES}
        rec = GameRecord(game_id, cfg, self._clock(),
                         {role: hash_token(t) for role, t in tokens.items()})
        self.store.create_game(rec)
        self._remember(game_id, _Live(rec, arbiter, 0))
        return game_id, tokens, arbiter.state()

    def reader(self, game_id: str, token: str | None) -> str:
        """The role of ``token`` in the game, which may then read it (state,
        events, stream): any of its four tokens reads.  :class:`ServiceError`
        404 when there is no such game, 401 without a token or with one that
        is not of this game.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> games.reader(gid, tokens["spectator"])
        'spectator'
        >>> games.reader(gid, None)
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: missing token: send 'Authorization: Bearer <token>'
        """
        return _role(self.record(game_id), token)

    def state(self, game_id: str) -> tuple[GameRecord, dict[str, Any], int]:
        """``(record, current state, number of events)`` of a game.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "c4"})
        >>> rec, state, n = games.state(gid)
        >>> rec.id == gid, state["ply"], state["to_move"], n
        (True, 1, 'black', 1)
        """
        rec = self.record(game_id)
        with self._lock(game_id):
            live = self._synced(rec)
            return rec, live.arbiter.state(), live.applied

    def moves(self, game_id: str) -> tuple[list[dict[str, Any]], int]:
        """``(move list, number of events)`` of a game: the moves on the
        arbiter's board (see :func:`remis.service.moves.move_list`).

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "e4"})
        >>> games.moves(gid)
        ([{'ply': 1, 'player': 'white', 'move': 'e4', 'standing': False}], 1)
        """
        rec = self.record(game_id)
        with self._lock(game_id):
            live = self._synced(rec)
            return move_list(live.arbiter.history), live.applied

    def _synced(self, rec: GameRecord) -> _Live:
        """The live game with every stored event applied (call with its lock held)."""
        return self._sync(rec, self.store.count(rec.id),
                          lambda after: self.store.events(rec.id, after))

    def events(self, game_id: str) -> list[dict[str, Any]]:
        """The stored event log of a game.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "Nf3"})
        >>> games.events(gid)
        [{'type': 'move', 'player': 'white', 'move': 'Nf3', 'at': 0.0}]
        """
        self.record(game_id)
        return self.store.events(game_id)

    def post(self, game_id: str, token: str | None, event: Mapping[str, Any],
             expected_ply: int | None = None) -> tuple[dict[str, Any], int]:
        """Apply one event for the holder of ``token``; returns ``(state,
        event number)`` once the event is stored.  Refusals raise
        :class:`ServiceError`: 401 bad token, 403 wrong role, 404 no game,
        409 ``expected_ply`` is not the current ply, 422 refused by the Laws.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> state, n = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                              "move": "e4"}, expected_ply=0)
        >>> n, state["fen"]
        (1, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')
        >>> games.post(gid, tokens["black"], {"type": "move", "player": "black",
        ...                                   "move": "e5"}, expected_ply=0)
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: expected ply 0 but the game is at ply 1
        """

        rec = self.record(game_id)
        role = _role(rec, token)
        why = refusal(role, event)
        if why is not None:
            raise ServiceError(403, why)
        ev = {k: v for k, v in event.items() if v is not None}
        with self._lock(game_id):
            for _attempt in range(5):
                live = self._live(rec)
                if expected_ply is not None:
                    ply = live.arbiter.history.ply  # not state(): that builds the whole answer
                    if ply != expected_ply:
                        if not self._fresh(live):
                            continue
                        raise ServiceError(409, f"expected ply {expected_ply} but the game is "
                                                f"at ply {ply}")
                if "at" not in ev:
                    ev["at"] = round(self._clock() - rec.created, 3)
                seq = live.applied + 1
                try:
                    state = live.arbiter.apply(ev)
                except RefusedEvent as exc:  # the arbiter left its state unchanged
                    if not self._fresh(live):
                        continue
                    raise ServiceError(422, f"event {seq} refused: {_message(exc)}") from None
                try:
                    # what the arbiter logged: the event as given (events() would copy the log)
                    self.store.append(game_id, seq, ev)
                except SeqTaken:
                    # another instance stored event ``seq`` first: reload, check again
                    self._forget(game_id)
                    continue
                except BaseException:
                    self._forget(game_id)  # the arbiter moved on but the store did not
                    raise
                live.applied = seq
                for listener in self._listeners:  # inside the lock: streams get them in order
                    listener(game_id, seq, state)
                return state, seq
        raise ServiceError(409, f"game {game_id} kept changing under concurrent writers; "
                                "send the event again")

    def _live(self, rec: GameRecord) -> _Live:
        """The cached game, or the game rebuilt from the store.  A cached game
        may be behind when another instance appended: an append then fails
        (the event number is taken) and a refusal is checked with
        :meth:`_fresh` before it is answered, so staleness never shows."""
        live = self._cached(rec.id)
        if live is None:
            live = self._synced(rec)
        return live

    def _fresh(self, live: _Live) -> bool:
        """Whether ``live`` had every stored event; when not, the missing
        events are applied to the cached game (or it is rebuilt)."""
        gid = live.record.id
        count = self.store.count(gid)
        if count == live.applied:
            return True
        self._sync(live.record, count, lambda after: self.store.events(gid, after))
        return False


def _role(rec: GameRecord, token: str | None) -> str:
    """The role of ``token`` in the game, or :class:`ServiceError` 401."""
    if token is None:
        raise ServiceError(401, "missing token: send 'Authorization: Bearer <token>'")
    role = role_of(token, rec.hashes)
    if role is None:
        raise ServiceError(401, f"the token is not valid for game {rec.id}")
    return role


def _message(exc: BaseException) -> str:
    msg = getattr(exc, "message", None)
    return str(msg) if msg else str(exc)
