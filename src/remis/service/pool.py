"""Searches in worker processes, shared fairly between the service's callers.

A search may take seconds ("can the opponent still mate?" behind a
resignation, a whole PGN text's dead positions).  Run in the service's own
threads it would hold the GIL, and every other request would wait.  So a
:class:`SearchPool` runs them in worker processes (niced: the event path
keeps its CPU), one at a time per worker, and hands the workers out fairly:
a caller (a client address, see :data:`CALLER`) has at most ``per_caller``
searches running and ``waiting_per_caller`` waiting, the callers with work
waiting take turns, and a search over those bounds is refused at once with
:class:`Busy` (an HTTP 429).  Eight crafted resignations of one client thus
delay an honest one of another client by at most the search that is running
on its worker, never by all eight.

A job can be cancelled: a waiting one is dropped, a running one is told
through a flag the worker reads between searches (:func:`cancelled`), and a
worker still busy with it :data:`GRACE` seconds later (inside one long
search) is killed and replaced.  Each worker is a pool of one process, so
that killing it touches no other job.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import Any

log = logging.getLogger("remis.service")

#: who is asking: the client's address (set for each request by the service)
CALLER: ContextVar[str] = ContextVar("remis_caller", default="local")
#: seconds a cancelled job's worker has to stop by itself before it is killed
GRACE = 0.5
#: niceness added to the workers: the lowest priority, so that a search takes only
#: the CPU the event path leaves (at 10, the busy workers of the two pools
#: together weighed a third of the service's event loop with the scheduler)
NICE = 19


class Busy(Exception):
    """A search refused because its caller (or everybody) has too many at
    once; nothing was done (an arbiter that asked for the search leaves its
    state as it was).  Not a ValueError: the arbiter reads that as a position
    the engine refuses, with no proof either way.

    >>> Busy("x").retry_after
    1
    """

    retry_after = 1


# -- in the worker -------------------------------------------------------------------

_FLAGS: Any = None  # the pool's cancel flags, one per worker slot (set by _init)
_local = threading.local()


def _init(flags: Any, parent: int, nice: int) -> None:
    """Initializer of a worker process: its cancel flags, a lower priority
    than the service's, and an exit when the service is gone (after a
    ``kill -9`` nobody else would stop it)."""
    global _FLAGS
    _FLAGS = flags
    if nice:
        os.nice(nice)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="remis-watch-parent", daemon=True).start()


def _ready() -> int:
    """Run once in each new worker: the engine's modules are imported; its
    process id."""
    import remis.unwinnable  # noqa: F401

    return os.getpid()


def _run(slot: int, fn: Callable[..., Any], args: tuple[Any, ...], flags: Any = None) -> Any:
    """Run one job in worker slot ``slot`` (``flags``: a thread pool's own)."""
    _local.flags = _FLAGS if flags is None else flags
    _local.slot = slot
    try:
        return fn(*args)
    finally:
        _local.flags = None


def cancelled() -> bool:
    """Whether the job running in this worker was cancelled (False outside
    a pool's job).

    >>> cancelled()
    False
    """
    flags = getattr(_local, "flags", None)
    return flags is not None and bool(flags[_local.slot])


# -- in the service --------------------------------------------------------------------

@dataclass(eq=False)
class Job:
    """A submitted search: its ``future`` gets the result (or the exception)."""

    caller: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any] = field(default_factory=Future)
    slot: int | None = None
    pool: SearchPool | None = None

    def cancel(self) -> None:
        """Drop the job if it waits; tell its worker if it runs."""
        if self.pool is not None:
            self.pool._cancel(self)


class SearchPool:
    """Jobs in ``workers`` worker processes (0: one thread of this process,
    for tests), fair between callers (see the module).

    >>> pool = SearchPool("demo", workers=0)
    >>> pool.start()
    >>> pool.submit(sum, [1, 2, 3], caller="a").future.result()
    6
    >>> pool.close()
    """

    def __init__(self, name: str, workers: int = 1, *, per_caller: int = 1,
                 waiting_per_caller: int = 4, waiting: int = 64, nice: int = NICE) -> None:
        self.name = name
        self.workers = workers
        self.per_caller = per_caller
        self.waiting_per_caller = waiting_per_caller
        self.waiting = waiting
        self._nice = nice
        slots = max(workers, 1)
        self._cond = threading.Condition()
        self._queue: OrderedDict[str, deque[Job]] = OrderedDict()
        self._queued = 0
        self._running: Counter[str] = Counter()
        #: each slot's executor (None while it starts), its process and its job
        self._executors: list[Executor | None] = [None] * slots
        self._pids: list[int | None] = [None] * slots
        self._jobs: list[Job | None] = [None] * slots
        self._free: list[int] = []
        self._flags: Any = (multiprocessing.get_context("spawn").RawArray("b", slots)
                            if workers > 0 else [0])
        self._closed = False
        self._dispatcher: threading.Thread | None = None

    def start(self) -> None:
        """Start the workers (spawned: the service's threads are not forked)
        and wait until they have imported the engine."""
        with self._cond:
            if self._dispatcher is not None:
                return
            self._dispatcher = threading.Thread(target=self._dispatch_loop, daemon=True,
                                                name=f"remis-{self.name}-dispatch")
        for slot in range(len(self._executors)):
            self._start_slot(slot)
        self._dispatcher.start()

    def _start_slot(self, slot: int) -> None:
        """Start the worker of ``slot`` and make it free."""
        executor: Executor
        if self.workers <= 0:
            executor, pid = ThreadPoolExecutor(1, thread_name_prefix=f"remis-{self.name}"), None
        else:
            ctx = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init,
                                           initargs=(self._flags, os.getpid(), self._nice))
            try:
                pid = executor.submit(_ready).result()
            except BaseException:
                executor.shutdown(wait=False, cancel_futures=True)
                raise
        with self._cond:
            if self._closed:
                executor.shutdown(wait=False, cancel_futures=True)
                return
            self._executors[slot], self._pids[slot] = executor, pid
            self._free.append(slot)
            self._cond.notify_all()

    def submit(self, fn: Callable[..., Any], *args: Any, caller: str | None = None) -> Job:
        """Queue ``fn(*args)`` for ``caller`` (default: :data:`CALLER`);
        :class:`Busy` when the caller, or the pool, has too many waiting.

        >>> pool = SearchPool("demo", workers=0, per_caller=1, waiting_per_caller=0)
        >>> job = pool.submit(sum, [1], caller="a")    # not started: it waits
        >>> pool.submit(sum, [1], caller="a")
        Traceback (most recent call last):
        ...
        remis.service.pool.Busy: too many searches at once from a (0 may wait); try again
        """
        who = CALLER.get() if caller is None else caller
        job = Job(who, fn, args, pool=self)
        with self._cond:
            if self._closed:
                raise RuntimeError(f"the {self.name} pool is closed")
            mine = len(self._queue.get(who, ())) + self._running[who]
            if mine >= self.per_caller + self.waiting_per_caller:
                raise Busy(f"too many searches at once from {who} "
                           f"({self.waiting_per_caller} may wait); try again")
            if self._queued >= self.waiting:
                raise Busy(f"the {self.name} searches are all busy; try again")
            self._queue.setdefault(who, deque()).append(job)
            self._queued += 1
            self._cond.notify_all()
        return job

    def _next(self) -> Job | None:
        """The next job to run (the callers take turns), with the lock held."""
        for who, jobs in self._queue.items():
            if self._running[who] < self.per_caller:
                job = jobs.popleft()
                if jobs:
                    self._queue.move_to_end(who)
                else:
                    del self._queue[who]
                self._queued -= 1
                return job
        return None

    def _dispatch_loop(self) -> None:
        while True:
            with self._cond:
                job = None
                while not self._closed and job is None:
                    if self._free:
                        job = self._next()
                    if job is None:
                        self._cond.wait()
                if self._closed:
                    if job is not None:
                        job.future.cancel()
                    return
                assert job is not None
                slot = self._free.pop()
                self._flags[slot] = 0
                job.slot = slot
                self._jobs[slot] = job
                self._running[job.caller] += 1
                executor = self._executors[slot]
            assert executor is not None
            try:
                inner = executor.submit(_run, slot, job.fn, job.args,
                                        self._flags if self.workers <= 0 else None)
            except (BrokenProcessPool, RuntimeError) as exc:
                inner = Future()
                inner.set_exception(exc)
            inner.add_done_callback(partial(self._done, job))

    def _done(self, job: Job, inner: Future[Any]) -> None:
        exc = inner.exception()
        slot = job.slot
        assert slot is not None
        broken = isinstance(exc, BrokenProcessPool)
        with self._cond:
            self._running[job.caller] -= 1
            if not self._running[job.caller]:
                del self._running[job.caller]
            self._jobs[slot] = None
            if not broken:
                self._free.append(slot)
            self._cond.notify_all()
        if broken:
            self._restart(slot)
        if job.future.cancelled():
            return
        if exc is None:
            job.future.set_result(inner.result())
        else:
            job.future.set_exception(exc)

    def _restart(self, slot: int) -> None:
        """The worker of ``slot`` died (or was killed): start another, in a
        thread (this runs in the old pool's own thread, which must not wait)."""
        with self._cond:
            old, self._executors[slot], self._pids[slot] = self._executors[slot], None, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

        def fresh() -> None:
            try:
                self._start_slot(slot)
            except (BrokenProcessPool, OSError, RuntimeError) as exc:
                log.error("a %s worker cannot start: %s", self.name, exc)

        threading.Thread(target=fresh, daemon=True).start()

    def _cancel(self, job: Job) -> None:
        with self._cond:
            jobs = self._queue.get(job.caller)
            if jobs is not None and job in jobs:
                jobs.remove(job)
                self._queued -= 1
                if not jobs:
                    del self._queue[job.caller]
                job.future.cancel()
                return
            slot = job.slot
            if slot is None or self._jobs[slot] is not job:
                return
            self._flags[slot] = 1
        timer = threading.Timer(GRACE, self._kill, (job, slot))
        timer.daemon = True
        timer.start()

    def _kill(self, job: Job, slot: int) -> None:
        """Kill the worker still running the cancelled ``job`` (it is replaced)."""
        with self._cond:
            pid = self._pids[slot] if self._jobs[slot] is job else None
            if pid is not None:
                job.future.cancel()
        if pid is not None:
            log.info("killing a %s worker busy with a cancelled job", self.name)
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        """Stop the workers; waiting jobs are cancelled, running ones finish."""
        with self._cond:
            self._closed = True
            for jobs in self._queue.values():
                for job in jobs:
                    job.future.cancel()
            self._queue.clear()
            executors = [e for e in self._executors if e is not None]
            self._executors = [None] * len(self._executors)
            self._cond.notify_all()
        for executor in executors:
            executor.shutdown(wait=True, cancel_futures=True)
