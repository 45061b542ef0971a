"""The "can the opponent still checkmate?" search of live games (Articles
5.1.2, 6.9, 7.5.5) in worker processes.

A resignation, a flag fall or a second illegal move asks the engine whether
the winner can still mate, and the search may take a few hundred
milliseconds (seconds in a crafted position).  Run in a thread of the
service it would hold the GIL, and every other request of the process would
wait behind it (measured: 200 concurrent games, p99 of a move 80 ms without
resignations, 800 ms with them).  Run in a worker process it costs only the
request that asked: the thread waiting for the answer releases the GIL.  The
workers are a :class:`~remis.service.pool.SearchPool` of their own, apart
from the stateless endpoints' searches, and shared fairly between clients:
one client's crafted resignations wait for each other, not the others'.
The function is the same (:func:`remis.unwinnable.can_checkmate` with its
default node budget and no time limit), so the answers are the same; the
game's lock is held while the arbiter waits, so the events of one game stay
in order.

Given a first-pass pool (the service's, shared with the stateless endpoints'
first passes), a search first runs there with a small node budget: nearly
every real position is decided within it, in well under a millisecond, and
the verdict is the one the whole budget gives (the engine's search runs the
same way until it stops).  Only a question it leaves open waits for a
mate-search worker: an honest resignation does not queue behind crafted
ones.  No time limit either way: a ruling never depends on the server's load.
"""

from __future__ import annotations

import logging
from concurrent.futures.process import BrokenProcessPool
from functools import partial

import chess

from remis.service.pool import OverAllowance, SearchPool
from remis.unwinnable import Verdict, can_checkmate

log = logging.getLogger("remis.service")


class MatePool:
    """``can_checkmate`` in ``workers`` worker processes, started by
    :meth:`start`; before that, after :meth:`close`, or if the workers fail,
    the search runs in the calling thread (the same function, the same
    answer).  A client with ``per_caller`` searches running and
    ``waiting_per_caller`` waiting is refused another
    (:class:`~remis.service.pool.Busy`, which the service answers with 429).

    >>> pool = MatePool()
    >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
    False
    """

    def __init__(self, workers: int = 1, *, per_caller: int = 1,
                 waiting_per_caller: int = 4, first: SearchPool | None = None,
                 first_nodes: int = 0) -> None:
        self._pool = SearchPool("mate-search", workers, per_caller=per_caller,
                                waiting_per_caller=waiting_per_caller) if workers > 0 else None
        #: the pool of first passes (None: none), started and closed by its owner
        self._first = first if first_nodes > 0 else None
        self._first_nodes = first_nodes
        self._started = False

    def start(self) -> None:
        """Start the worker processes and wait until they have imported the
        engine.  Workers that cannot start (e.g. a script running the service
        without the ``if __name__ == "__main__":`` guard that spawning needs)
        are logged, and the searches run in the service process.

        With no workers asked for, nothing starts and the search runs in the
        calling thread (a doctest spawns no process; tests/service/test_mates.py
        starts real workers):

        >>> pool = MatePool(workers=0)
        >>> pool.start()
        >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
        False
        >>> pool.close()
        """
        if self._pool is None or self._started:
            return
        if not self._pool.try_start("searching in the service process"):
            self._pool = None
            return
        self._started = True

    @property
    def workers(self) -> SearchPool | None:
        """The pool of worker processes, once started (None before, after
        :meth:`close`, or where the searches run in the calling thread).

        >>> MatePool(workers=0).workers is None
        True
        """
        return self._pool if self._started else None

    def __call__(self, board: chess.Board, color: chess.Color) -> Verdict:
        """The engine's verdict on whether ``color`` can still checkmate."""
        pool = self._pool if self._started else None
        if pool is not None and self._first is not None and self._first.running:
            try:
                job = self._first.submit(partial(can_checkmate, max_nodes=self._first_nodes),
                                         board, color)
                first: Verdict = job.future.result()
            except OverAllowance:
                pass  # a caller that has had its share: the whole budget's worker
            except BrokenProcessPool:
                log.error("a first-pass worker died; searching with the whole budget")
            else:
                if first.value is not None:
                    return first
        if pool is not None:
            job = pool.submit(can_checkmate, board, color)
            try:
                result: Verdict = job.future.result()
                return result
            except BrokenProcessPool:
                log.error("a mate-search worker died; searching in the service process")
        return can_checkmate(board, color)

    def close(self) -> None:
        """Stop the workers (searches still running finish first).  A closed
        pool still answers, in the calling thread:

        >>> pool = MatePool()
        >>> pool.close()
        >>> pool(chess.Board("8/8/4k3/8/8/2BK4/8/8 w - - 0 1"), chess.WHITE).value
        False
        """
        self._started = False
        if self._pool is not None:
            self._pool.close()
