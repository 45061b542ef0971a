"""The "can the opponent still checkmate?" search of live games (Articles
5.1.2, 6.9, 7.5.5) in a worker process.

A resignation, a flag fall or a second illegal move asks the engine whether
the winner can still mate, and the search may take a few hundred
milliseconds.  Run in a thread of the service it holds the GIL for most of
that time, and every other request of the process waits behind it (measured:
200 concurrent games, p99 of a move 80 ms without resignations, 800 ms with
them).  Run in a worker process it costs only the request that asked: the
thread waiting for the answer releases the GIL.  The function is the same
(:func:`remis.unwinnable.can_checkmate` with its default node budget and no
time limit), so the answers are the same; the game's lock is held while the
arbiter waits, so the events of one game stay in order.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import chess

from remis.unwinnable import Verdict, can_checkmate

log = logging.getLogger("remis.service")


def _ready() -> bool:
    """Run once in each new worker: the engine's modules are imported."""
    return True


def _watch_parent(parent: int) -> None:
    """Initializer of a worker: exit as soon as the service process is gone
    (after a ``kill -9`` nobody else would stop the worker)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="remis-watch-parent", daemon=True).start()


class MatePool:
    """``can_checkmate`` in ``workers`` worker processes, started by
    :meth:`start`; before that, after :meth:`close`, or if the workers die,
    the search runs in the calling thread (the same function, the same
    answer).

    >>> pool = MatePool()
    >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
    False
    """

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the worker processes (spawned: the service's threads are not
        forked) and wait until they have imported the engine.  Workers that
        cannot start (e.g. a script running the service without the
        ``if __name__ == "__main__":`` guard that spawning needs) are logged,
        and the searches run in the service process.

        With no workers asked for, nothing starts and the search runs in the
        calling thread (a doctest spawns no process; tests/service/test_mates.py
        starts real workers):

        >>> pool = MatePool(workers=0)
        >>> pool.start()
        >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
        False
        >>> pool.close()
        """
        with self._lock:
            if self._pool is not None or self._workers <= 0:
                return
            pool = ProcessPoolExecutor(self._workers,
                                       mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_watch_parent, initargs=(os.getpid(),))
            try:
                for _ in range(self._workers):
                    pool.submit(_ready).result()
            except (BrokenProcessPool, OSError, RuntimeError) as exc:
                log.warning("the mate-search workers did not start (%s); searching in the "
                            "service process", " ".join(str(exc).split())[:300])
                pool.shutdown(wait=False, cancel_futures=True)
                return
            self._pool = pool

    def __call__(self, board: chess.Board, color: chess.Color) -> Verdict:
        """The engine's verdict on whether ``color`` can still checkmate."""
        pool = self._pool
        if pool is not None:
            try:
                return pool.submit(can_checkmate, board, color).result()
            except BrokenProcessPool:
                log.error("the mate-search worker died; searching in the service process")
                with self._lock:
                    if self._pool is pool:
                        self._pool = None
        return can_checkmate(board, color)

    def close(self) -> None:
        """Stop the workers (searches still running finish first).  A closed
        pool still answers, in the calling thread:

        >>> pool = MatePool()
        >>> pool.close()
        >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
        False
        """

        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
