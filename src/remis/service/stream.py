"""Fan-out of state changes to Server-Sent Event streams.

The games layer calls :meth:`Broadcaster.publish` from worker threads after
each stored event; every open stream of that game has an asyncio queue on the
event loop, fed thread-safely.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any


class Broadcaster:
    """Per-game subscriber queues.

    >>> import asyncio
    >>> async def demo():
    ...     b = Broadcaster()
    ...     q = b.subscribe("g")
    ...     b.publish("g", 1, {"ply": 1})
    ...     item = await asyncio.wait_for(q.get(), 1)
    ...     b.unsubscribe("g", q)
    ...     return item
    >>> asyncio.run(demo())
    (1, {'ply': 1})
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[tuple[asyncio.AbstractEventLoop,
                                        asyncio.Queue[tuple[int, dict[str, Any]]]]]] = {}

    def subscribe(self, game_id: str) -> asyncio.Queue[tuple[int, dict[str, Any]]]:
        """A new queue receiving ``(event number, state)``; call from the loop.

        >>> async def two_streams():
        ...     b = Broadcaster()
        ...     q1, q2 = b.subscribe("g"), b.subscribe("g")
        ...     b.publish("g", 7, {"ply": 3})
        ...     return await q1.get(), await q2.get()
        >>> asyncio.run(two_streams())
        ((7, {'ply': 3}), (7, {'ply': 3}))
        """
        queue: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()
        with self._lock:
            self._subs.setdefault(game_id, set()).add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, game_id: str, queue: asyncio.Queue[tuple[int, dict[str, Any]]]) -> None:
        """Stop feeding ``queue``.

        >>> async def after_unsubscribe():
        ...     b = Broadcaster()
        ...     q = b.subscribe("g")
        ...     b.unsubscribe("g", q)
        ...     b.publish("g", 1, {})
        ...     await asyncio.sleep(0)  # let anything scheduled for the loop run
        ...     return q.qsize()
        >>> asyncio.run(after_unsubscribe())
        0
        """
        with self._lock:
            subs = self._subs.get(game_id, set())
            for item in [s for s in subs if s[1] is queue]:
                subs.discard(item)
            if not subs:
                self._subs.pop(game_id, None)

    def publish(self, game_id: str, n: int, state: dict[str, Any]) -> None:
        """Send ``(n, state)`` to every stream of the game (any thread).

        A game nobody watches is no error:

        >>> Broadcaster().publish("nobody-watches", 1, {"ply": 1})

        From another thread, the item reaches the stream through its loop:

        >>> async def from_a_thread():
        ...     b = Broadcaster()
        ...     q = b.subscribe("g")
        ...     t = threading.Thread(target=b.publish, args=("g", 2, {"ply": 2}))
        ...     t.start(); t.join()
        ...     return await asyncio.wait_for(q.get(), 5)
        >>> asyncio.run(from_a_thread())
        (2, {'ply': 2})
        """

        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for loop, queue in subs:
            with contextlib.suppress(RuntimeError):  # RuntimeError: the loop is closed
                loop.call_soon_threadsafe(queue.put_nowait, (n, state))
