"""Searches in worker processes, shared fairly between the service's callers.

A search may take seconds ("can the opponent still mate?" behind a
resignation, a whole PGN text's dead positions).  Run in the service's own
threads it would hold the GIL, and every other request would wait.  So a
:class:`SearchPool` runs them in worker processes (niced: the event path
keeps its CPU), one at a time per worker, and hands the workers out fairly:
a caller (a client address, see :data:`CALLER`) has at most ``per_caller``
searches running and ``waiting_per_caller`` waiting, and a search over those
bounds is refused at once with :class:`Busy` (an HTTP 429).  A free worker
takes the next job of the caller that has had the least of the workers'
time lately (:class:`Usage`: CPU seconds, halved every :data:`HALF_LIFE`
seconds), not of the caller whose turn it is: a caller
that keeps the workers busy waits behind one that asks rarely, however
many requests or addresses it uses.  Eight crafted resignations of one
client thus delay an honest one of another client by at most the search
that is running on its worker, never by all eight.

A job can be cancelled: a waiting one is dropped, a running one is told
through a flag and a signal (:data:`INTERRUPT`), which the engine's search
answers within a few thousand nodes and the work between searches at once
(:func:`cancelled`).  A worker still busy with it after :data:`GRACE`
seconds of its own CPU time (or :data:`GRACE_WALL` seconds however busy
the machine) is killed and replaced, as a last resort: a worker the machine
gives no CPU costs nothing, and killing it would cost a new start-up.  Each worker is a pool of
one process, so that killing it touches no other job; a new worker is
started from a thread at the workers' niceness, so that it is niced from its
first instruction (its start-up, importing the engine, is CPU too).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import sys
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
#: CPU seconds a cancelled job's worker may spend before it is killed
GRACE = 0.5
#: seconds after which a cancelled job's worker is killed, however little CPU it had
GRACE_WALL = 60.0
#: niceness added to the workers: the lowest priority, so that a search takes only
#: the CPU the event path leaves (at 10, the busy workers of the two pools
#: together weighed a third of the service's event loop with the scheduler)
NICE = 19
#: the signal that tells a worker its job was cancelled (the engine's search
#: looks at signals every few thousand nodes)
INTERRUPT = signal.SIGUSR1
#: seconds after which a caller's past use of the workers counts half
HALF_LIFE = 10.0


class Busy(Exception):
    """A search refused because its caller (or everybody) has too many at
    once; nothing was done (an arbiter that asked for the search leaves its
    state as it was).  Not a ValueError: the arbiter reads that as a position
    the engine refuses, with no proof either way.

    >>> Busy("x").retry_after
    1
    """

    retry_after = 1


class OverAllowance(Busy):
    """A job refused by a pool that takes a caller's jobs only while the
    caller's use of it stays within an allowance (the first passes): the
    work goes elsewhere, the client is not refused."""


# -- in the worker -------------------------------------------------------------------

_FLAGS: Any = None  # the pool's cancel flags, one per worker slot (set by _init)
_BORN: int | None = None  # the worker's niceness when it started (set by _init)
_local = threading.local()


def _init(flags: Any, parent: int, niceness: int) -> None:
    """Initializer of a worker process: its cancel flags and their signal,
    the workers' niceness (where it was not born with it), and an exit when
    the service is gone (after a ``kill -9`` nobody else would stop it)."""
    global _FLAGS, _BORN
    _FLAGS = flags
    born = _BORN = os.getpriority(os.PRIO_PROCESS, 0)
    if born < niceness:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
    signal.signal(INTERRUPT, _interrupt)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="remis-watch-parent", daemon=True).start()


def _ready() -> tuple[int, int | None]:
    """Run once in each new worker: the engine's modules are imported; its
    process id and the niceness it started with."""
    import remis.unwinnable  # noqa: F401

    return os.getpid(), _BORN


def _interrupt(_signum: int, _frame: Any) -> None:
    """The worker's handler of :data:`INTERRUPT`: stop the running job if it
    was cancelled (a signal that comes late, after its job, does nothing)."""
    if cancelled():
        from remis.unwinnable import Cancelled

        raise Cancelled("the work was cancelled")


def _run(slot: int, fn: Callable[..., Any], args: tuple[Any, ...],
         flags: Any = None) -> tuple[Any, float]:
    """Run one job in worker slot ``slot`` (``flags``: a thread pool's own):
    its result and the CPU seconds it took."""
    _local.flags = _FLAGS if flags is None else flags
    _local.slot = slot
    start = time.thread_time()
    try:
        return fn(*args), time.thread_time() - start
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

def _cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user + system) process ``pid`` has had, from Linux's
    /proc; None where it cannot be read.

    >>> _cpu_seconds(os.getpid()) is None or _cpu_seconds(os.getpid()) >= 0
    True
    """
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(eq=False)
class Job:
    """A submitted search: its ``future`` gets the result (or the exception)."""

    caller: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any] = field(default_factory=Future)
    slot: int | None = None
    pool: SearchPool | None = None
    #: when it started on its worker (``time.monotonic()``)
    started: float = 0.0

    def cancel(self) -> None:
        """Drop the job if it waits; tell its worker if it runs."""
        if self.pool is not None:
            self.pool._cancel(self)


class Usage:
    """CPU seconds of the workers each caller has had, the older the less
    (halved every ``half_life`` seconds).

    >>> u = Usage(half_life=10.0)
    >>> u.charge("a", 4.0, now=0.0)
    >>> u.of("a", now=10.0), u.of("b", now=10.0)
    (2.0, 0.0)
    """

    def __init__(self, half_life: float = HALF_LIFE) -> None:
        self.half_life = half_life
        self._seconds: dict[str, tuple[float, float]] = {}

    def of(self, who: str, now: float) -> float:
        """The caller's decayed seconds at ``now``."""
        seconds, at = self._seconds.get(who, (0.0, now))
        decay: float = 0.5 ** ((now - at) / self.half_life)
        return seconds * decay

    def charge(self, who: str, seconds: float, now: float) -> None:
        """Add ``seconds`` of work to the caller; forget the callers whose
        use has faded (the table stays as small as the recent callers)."""
        self._seconds[who] = (self.of(who, now) + seconds, now)
        if len(self._seconds) > 256:
            for old in [w for w in self._seconds if self.of(w, now) < 1e-3]:
                del self._seconds[old]


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
                 waiting_per_caller: int = 4, waiting: int = 64, nice: int = NICE,
                 allowance: float | None = None) -> None:
        self.name = name
        self.workers = workers
        self.per_caller = per_caller
        self.waiting_per_caller = waiting_per_caller
        self.waiting = waiting
        #: the workers' niceness: this thread's, lowered by ``nice``
        self.niceness = min(19, os.getpriority(os.PRIO_PROCESS, 0) + max(nice, 0))
        self.usage = Usage()
        #: CPU seconds (as :class:`Usage` counts them) past which a caller's jobs
        #: are refused with :class:`OverAllowance` (None: no such bound)
        self.allowance = allowance
        slots = max(workers, 1)
        self._cond = threading.Condition()
        self._queue: OrderedDict[str, deque[Job]] = OrderedDict()
        self._queued = 0
        self._running: Counter[str] = Counter()
        #: each slot's executor (None while it starts), its process and its job
        self._executors: list[Executor | None] = [None] * slots
        self._pids: list[int | None] = [None] * slots
        #: each worker's niceness when it started (None: not a process)
        self.born: list[int | None] = [None] * slots
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
        try:
            for slot in range(len(self._executors)):
                self._start_slot(slot)
        except BaseException:
            with self._cond:
                self._dispatcher = None
            raise
        self._dispatcher.start()

    def try_start(self, otherwise: str) -> bool:
        """:meth:`start`; where the workers cannot start (e.g. a script running
        the service without the ``if __name__ == "__main__":`` guard that
        spawning needs), log why and ``otherwise`` (what happens instead),
        close the pool and return False.

        >>> SearchPool("demo", workers=0).try_start("nothing")
        True
        """
        try:
            self.start()
        except (BrokenProcessPool, OSError, RuntimeError) as exc:
            log.warning("the %s workers did not start (%s); %s", self.name,
                        " ".join(str(exc).split())[:300], otherwise)
            self.close()
            return False
        return True

    def _start_slot(self, slot: int) -> None:
        """Start the worker of ``slot`` and make it free."""
        executor: Executor
        pid: int | None = None
        born: int | None = None
        if self.workers <= 0:
            executor = ThreadPoolExecutor(1, thread_name_prefix=f"remis-{self.name}")
        else:
            executor, pid, born = self._spawn()
        with self._cond:
            if self._closed:
                executor.shutdown(wait=False, cancel_futures=True)
                return
            self._executors[slot], self._pids[slot], self.born[slot] = executor, pid, born
            self._free.append(slot)
            self._cond.notify_all()

    def _spawn(self) -> tuple[Executor, int, int | None]:
        """A new worker process, its id and the niceness it started with.  It
        is spawned from a thread of its own at the workers' niceness (on
        Linux a thread's niceness is its own, and a process starts with that
        of the thread that made it), so that the start-up itself does not
        compete with the event path."""
        made: list[tuple[Executor, int, int | None]] = []
        failed: list[BaseException] = []

        def spawn() -> None:
            if sys.platform.startswith("linux"):
                with contextlib.suppress(OSError):
                    os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.niceness)
            ctx = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init,
                                           initargs=(self._flags, os.getpid(), self.niceness))
            try:
                pid, born = executor.submit(_ready).result()
            except BaseException as exc:
                executor.shutdown(wait=False, cancel_futures=True)
                failed.append(exc)
                return
            made.append((executor, pid, born))

        thread = threading.Thread(target=spawn, name=f"remis-{self.name}-spawn", daemon=True)
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        return made[0]

    @property
    def running(self) -> bool:
        """Whether the pool takes jobs: started, and not closed.

        >>> pool = SearchPool("demo", workers=0)
        >>> pool.running, (pool.start(), pool.running)[1], (pool.close(), pool.running)[1]
        (False, True, False)
        """
        return self._dispatcher is not None and not self._closed

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
            if (self.allowance is not None
                    and self.usage.of(who, time.monotonic()) >= self.allowance):
                raise OverAllowance(f"{who} has had its share of the {self.name} workers")
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
        """The next job to run, with the lock held: that of the caller who
        has had the least of the workers' time lately (the first to ask
        among equals)."""
        now = time.monotonic()
        ready = [who for who, _ in self._queue.items() if self._running[who] < self.per_caller]
        if not ready:
            return None
        who = min(ready, key=lambda w: self.usage.of(w, now))
        jobs = self._queue[who]
        job = jobs.popleft()
        if jobs:
            self._queue.move_to_end(who)
        else:
            del self._queue[who]
        self._queued -= 1
        return job

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
                job.started = time.monotonic()
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
            now = time.monotonic()
            # the job's CPU time; where it failed, the time it held its worker
            cpu = inner.result()[1] if exc is None else now - job.started
            self.usage.charge(job.caller, cpu, now)
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
            job.future.set_result(inner.result()[0])
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
            pid = self._pids[slot]
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                os.kill(pid, INTERRUPT)
        self._watch_cancelled(job, slot, _cpu_seconds(pid), time.monotonic())

    def _watch_cancelled(self, job: Job, slot: int, cpu: float | None, since: float) -> None:
        """In :data:`GRACE` seconds, look whether the cancelled ``job`` still
        runs, and how much CPU its worker had since ``cpu`` (None: not
        measurable); kill it when it had :data:`GRACE`, or at
        :data:`GRACE_WALL` seconds since ``since``."""
        timer = threading.Timer(GRACE, self._kill, (job, slot, cpu, since))
        timer.daemon = True
        timer.start()

    def _kill(self, job: Job, slot: int, cpu: float | None, since: float) -> None:
        """Kill the worker still running the cancelled ``job`` (it is replaced)."""
        with self._cond:
            pid = self._pids[slot] if self._jobs[slot] is job else None
        if pid is None:
            return
        now = _cpu_seconds(pid)
        if (cpu is not None and now is not None and now - cpu < GRACE
                and time.monotonic() - since < GRACE_WALL):
            self._watch_cancelled(job, slot, cpu, since)  # starved of CPU, not stuck
            return
        with self._cond:
            if self._jobs[slot] is not job:
                return
            job.future.cancel()
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
