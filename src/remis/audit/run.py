"""Running an audit: tasks over byte ranges (or streamed batches), executed on
local processes or a Dask cluster, with the findings written in input order
and a checkpoint after every task so that an interrupted run can resume.

The order of the output never depends on the executor: tasks are numbered in
input order and their results are written in that order, whoever finished
first.  A task's findings are written in one piece and the checkpoint
(``OUT.ckpt.json``) is replaced after them; ``--resume`` cuts the output back
to the size the checkpoint recorded and goes on with the next task.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from remis import _core
from remis.audit.checks import (
    CHECKS,
    READ,
    AuditedGame,
    Finding,
    audit_facts,
    audit_game,
    is_time_forfeit,
    material_points,
    rating_band,
    time_control_class,
)
from remis.audit.output import FindingWriter, open_writer
from remis.audit.split import plan_ranges, seekable, stream_batches
from remis.audit.stats import Summary, bump, merge, new_summary
from remis.errors import InternalError
from remis.files import os_error_text
from remis.laws import LawsMode, laws_for
from remis.pgn import GameText

CHECKPOINT_VERSION = 1


@dataclass
class Task:
    """One piece of work: the games of a byte range of a plain file, or a
    batch of games read from a stream (as the core's reader cuts them out,
    or a variant audit's own pieces, see :class:`AuditWork`)."""

    file_no: int
    path: str
    start: int = 0
    end: int = 0
    texts: list[Any] | None = None
    last: bool = False


@dataclass
class TaskResult:
    """What a worker found in one task; game numbers are local to the task."""

    games: int
    findings: list[Finding]
    summary: Summary
    error: str | None = None


def audit_texts(texts: Iterable[GameText], path: str, laws_mode: LawsMode = "current",
                checks: tuple[str, ...] = CHECKS) -> tuple[int, list[Finding], Summary]:
    """Audit game texts: (number of games, findings, summary).  A game that
    cannot be audited is reported as a finding, never stops the batch.

    >>> t = GameText(1, 0, '[Result "1-0"]\\n\\n1. f3 e5 2. g4 Qh4# 1-0\\n')
    >>> n, fs, s = audit_texts([t], "x")
    >>> n, [f.check for f in fs], s["by_check"]
    (1, ['result_vs_position'], {'result_vs_position': 1})
    """
    games = [(g.index, g.offset, g.encoded(), *g.flags().values()) for g in texts]
    return audit_games(_core.GameReader(games, **READ, texts=True), path, laws_mode, checks)


def audit_games(facts: Iterable[tuple[Any, ...]], path: str, laws_mode: LawsMode = "current",
                checks: tuple[str, ...] = CHECKS) -> tuple[int, list[Finding], Summary]:
    """Audit games from the core's reader (``remis._core.GameReader`` with
    :data:`~remis.audit.checks.READ` and ``texts=True``): (number of games,
    findings, summary).

    >>> n, fs, s = audit_games(_core.GameReader(b'[Result "1-0"]\\n\\n1. e4 1-0\\n', **READ,
    ...                                         texts=True), "x")
    >>> n, fs, s["games_by_time_control"]
    (1, [], {'unknown': 1})
    """
    summary = new_summary()
    findings: list[Finding] = []
    n = 0
    for f in facts:
        n += 1
        headers: dict[str, str] = f[2]
        tc = time_control_class(headers)
        bump(summary["games_by_time_control"], tc)
        if f[3] not in ("standard", "chess960"):
            summary["skipped_variants"] += 1
            continue
        laws = laws_for(headers.get("Date"), laws_mode)
        a: AuditedGame | None
        try:
            a = audit_facts(f, laws)
            finding = audit_game(a, checks)
        except Exception as exc:  # a bug or a pathological game: report, go on
            finding = Finding("illegal_move", f[0], f[1], {}, headers.get("Result", "*"),
                              headers.get("Termination"), None, "8.1", 0,
                              {"message": f"{type(exc).__name__}: {exc}"},
                              f"The game could not be audited ({type(exc).__name__}: {exc}).",
                              laws.label, time_control=tc)
            a = None
        if a is not None and is_time_forfeit(a.termination) and a.end is None \
                and a.result in ("1-0", "0-1", "1/2-1/2") and (b := a.board) is not None:
            flagged = b.turn if a.result == "1/2-1/2" else a.result == "0-1"
            key = str(material_points(b, not flagged))
            bump(summary["tf_material"], key)
            if finding is not None and finding.check == "time_forfeit":
                bump(summary["tf_material_findings"], key)
        if a is not None and "undecided" in a.extra:
            bump(summary["undecided"], a.extra["undecided"])
        if finding is not None:
            finding.file = path
            findings.append(finding)
            summary["findings"] += 1
            bump(summary["by_check"], finding.check)
            bump(summary["by_file"], path)
            bump(summary["by_time_control"], tc)
            bump(summary["by_rating_band"], rating_band(headers))
    summary["games"] = n
    bump(summary["games_by_file"], path, n)
    return n, findings, summary


def audit_task(task: Task, laws_mode: LawsMode = "current",
               checks: tuple[str, ...] = CHECKS) -> TaskResult:
    """Run one task (in a worker process or on a Dask worker): the core reads
    and replays its games (a byte range of the file, or the batch handed over).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write('[Result "1-0"]\\n\\n1. f3 e5 2. g4 Qh4# 1-0\\n')
    >>> r = audit_task(Task(0, p, 0, os.path.getsize(p)))
    >>> r.games, r.findings[0].article
    (1, '5.1.1')
    """
    try:
        if task.texts is None:
            reader = _core.GameReader(task.path, start=task.start, end=task.end, **READ,
                                      texts=True)
        else:
            reader = _core.GameReader(task.texts, **READ, texts=True)
        n, findings, summary = audit_games(reader, task.path, laws_mode, checks)
    except OSError as exc:
        text = os_error_text(task.path, exc) if exc.errno else str(exc)
        return TaskResult(0, [], new_summary(), f"{task.path}: {text}")
    except InternalError as exc:  # a bug in the core: the task's games are reported
        return TaskResult(0, [], new_summary(), f"{task.path}: {exc}")
    return TaskResult(n, findings, summary)


# ------------------------------------------------------------------ executors
class _Future(Protocol):
    def result(self) -> Any: ...


class _Done:
    """An already computed result (the in-process executor)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


class Executor:
    """Where tasks run: in this process (``jobs=1``), a local process pool,
    or a Dask distributed cluster (``cluster="tcp://host:port"``).

    >>> ex = Executor(1)
    >>> ex.submit(sum, [1, 2]).result(), ex.window
    (3, 1)
    >>> ex.close()
    """

    def __init__(self, jobs: int = 1, cluster: str | None = None) -> None:
        self.jobs = max(1, jobs)
        self.cluster = cluster
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        if cluster:
            from distributed import Client

            self._client = Client(  # type: ignore[no-untyped-call]
                cluster, timeout="30s", set_as_default=False)
            infos = self._client.scheduler_info().get("workers", {})
            self.jobs = max(1, sum(int(w.get("nthreads", 1)) for w in infos.values()))
        elif self.jobs > 1:
            self._pool = ProcessPoolExecutor(self.jobs, initializer=_worker_init)

    @property
    def window(self) -> int:
        """How many tasks may be in flight at once: one in this process,
        three per worker otherwise.

        >>> Executor(1).window
        1
        """
        return 1 if self._pool is None and self._client is None else 3 * self.jobs

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Future:
        """Start ``fn(*args)`` somewhere; returns something with ``.result()``.
        In this process (``jobs=1``) the call is made at once:

        >>> ex = Executor(1)
        >>> ex.submit(pow, 2, 10).result()
        1024
        >>> ex.close()
        """
        if self._client is not None:
            fut: _Future = self._client.submit(fn, *args, pure=False)
            return fut
        if self._pool is not None:
            f: Future[Any] = self._pool.submit(fn, *args)
            return f
        return _Done(fn(*args))

    def close(self, cancel: bool = False, waiting: Callable[[int], None] | None = None) -> None:
        """Release the workers.  ``cancel`` (after an interrupt): drop the tasks
        not started and wait for the running ones (``waiting`` is told how
        many); a second interrupt meanwhile terminates the workers at once.
        Without workers there is nothing to release, and closing twice is
        harmless:

        >>> ex = Executor(1)
        >>> ex.close(); ex.close(cancel=True)
        """
        pool, self._pool = self._pool, None
        if pool is not None:
            if not cancel:
                pool.shutdown(wait=True)
            else:
                # the pool keeps its worker processes in a private mapping; there is
                # no public way to stop a worker in the middle of a task
                procs = list(getattr(pool, "_processes", {}).values())
                # the second interrupt may come as soon as ``waiting`` has spoken,
                # before the joins: it must terminate the workers there too
                try:
                    pool.shutdown(wait=False, cancel_futures=True)
                    running = [p for p in procs if p.is_alive()]
                    if running and waiting is not None:
                        waiting(len(running))
                    for p in running:
                        # short joins: a signal that reached another thread is acted
                        # on only when the main thread runs again
                        while p.is_alive():
                            p.join(0.1)
                except KeyboardInterrupt:
                    for p in procs:
                        p.terminate()
                    for p in procs:
                        p.join(5)
                        if p.is_alive():
                            p.kill()
                    raise
        if self._client is not None:
            self._client.close()
            self._client = None


def _worker_init() -> None:  # pragma: no cover - runs in worker processes
    """Workers leave Ctrl-C to the parent (which stops cleanly), die of
    SIGTERM (the parent's own handler, inherited by the fork, would turn it
    into an exception the worker survives) and exit when the parent dies (a
    killed run must not leave orphans behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="remis-parent-watch").start()


# ------------------------------------------------------------------ the run
class AuditWork(Protocol):
    """An audit of records other than chess PGN, run by :func:`run_audit`
    (``AuditOptions.work``; the shogi and xiangqi audit is one,
    :class:`remis.variants.auditrun.VariantWork`): what identifies it in the
    checkpoint, how a file is cut into byte ranges and a stream into batches,
    and the task itself (a picklable callable: it runs in the workers, and
    numbers the games of a range from 1).  Order, executors, output,
    checkpoint and ``--resume`` are the chess audit's.

    >>> AuditOptions([]).work is None
    True
    """

    def key(self) -> dict[str, Any]:
        """What identifies the audit in the checkpoint (a JSON object).

        >>> from remis.variants.auditrun import VariantWork
        >>> VariantWork("shogi").key()["variant"]
        'shogi'
        """
        ...

    def ranges(self, path: str, chunk_bytes: int) -> list[tuple[int, int]]:
        """The byte ranges, about ``chunk_bytes`` each, that ``path`` is cut into.

        >>> import os, tempfile
        >>> from remis.variants.auditrun import VariantWork
        >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
        >>> _ = open(p, "w").write("startpos 7g7f\\n" * 3)
        >>> VariantWork("shogi").ranges(p, 10)
        [(0, 14), (14, 28), (28, 42)]
        """
        ...

    def batches(self, path: str, batch_games: int, skip_batches: int
                ) -> Iterator[list[Any]]:
        """The games of a stream (a file that cannot be cut into ranges), in
        batches of ``batch_games``, the first ``skip_batches`` left out.

        >>> import gzip, os, tempfile
        >>> from remis.variants.auditrun import VariantWork
        >>> p = os.path.join(tempfile.mkdtemp(), "g.txt.gz")
        >>> with gzip.open(p, "wb") as f: _ = f.write(b"startpos\\n" * 3)
        >>> [[c.index for c in b] for b in VariantWork("shogi").batches(p, 2, 0)]
        [[1], [3]]
        """
        ...

    def __call__(self, task: Task) -> TaskResult: ...


@dataclass
class AuditOptions:
    """Everything ``remis audit`` was asked to do.

    >>> AuditOptions(["a.pgn"], "findings.jsonl").checkpoint
    'findings.jsonl.ckpt.json'
    """

    paths: list[str]
    out: str | None = None
    fmt: str = "jsonl"
    jobs: int = 0
    cluster: str | None = None
    checks: tuple[str, ...] = CHECKS
    laws: LawsMode = "current"
    resume: bool = False
    chunk_bytes: int = 1 << 20
    batch_games: int = 500
    #: what audits the files when they are not chess PGN (see :class:`AuditWork`)
    work: AuditWork | None = None

    @property
    def checkpoint(self) -> str | None:
        """Path of the sidecar checkpoint (None when writing to stdout).

        >>> AuditOptions(["a.pgn"], "out/f.csv").checkpoint
        'out/f.csv.ckpt.json'
        >>> AuditOptions(["a.pgn"], "-").checkpoint is None
        True
        """
        return None if self.out in (None, "-") else f"{self.out}.ckpt.json"


@dataclass
class RunState:
    """Progress of a run, saved in the checkpoint after every task."""

    files: list[str]
    ranges: dict[str, list[list[int]]]
    file_tasks_done: list[int] = field(default_factory=list)
    file_games: list[int] = field(default_factory=list)
    file_complete: list[bool] = field(default_factory=list)
    out_bytes: int = 0
    summary: Summary = field(default_factory=new_summary)
    complete: bool = False
    errors: list[str] = field(default_factory=list)


Progress = Callable[[int, int, int], None]  # (games, findings, bytes done)


def _options_key(opts: AuditOptions) -> dict[str, Any]:
    key: dict[str, Any] = {"laws": opts.laws, "checks": list(opts.checks), "format": opts.fmt,
                           "chunk_bytes": opts.chunk_bytes, "batch_games": opts.batch_games}
    if opts.work is not None:
        key["work"] = opts.work.key()
    return key


def load_checkpoint(opts: AuditOptions, files: list[str]) -> RunState | None:
    """The saved state of an earlier run with the same inputs and options.

    Raises ValueError when the checkpoint belongs to another audit.

    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "f.jsonl")
    >>> opts = AuditOptions([], out)
    >>> save_checkpoint(opts, plan(opts, []))
    >>> load_checkpoint(opts, []).complete, load_checkpoint(AuditOptions([], "x"), [])
    (False, None)
    """
    path = opts.checkpoint
    if path is None or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("version") != CHECKPOINT_VERSION or data.get("files") != files \
            or data.get("options") != _options_key(opts):
        raise ValueError(f"{path} belongs to an audit of other files or options; "
                         "remove it or run without --resume")
    st = data["state"]
    return RunState(files, st["ranges"], st["file_tasks_done"], st["file_games"],
                    st["file_complete"], st["out_bytes"], st["summary"], st["complete"],
                    st.get("errors", []))


def save_checkpoint(opts: AuditOptions, state: RunState) -> None:
    """Write the checkpoint atomically (temporary file, then rename); nothing
    is written when the findings go to stdout.

    >>> import json, os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "f.jsonl")
    >>> save_checkpoint(AuditOptions([], out), plan(AuditOptions([], out), []))
    >>> sorted(os.listdir(os.path.dirname(out)))
    ['f.jsonl.ckpt.json']
    >>> json.load(open(out + ".ckpt.json"))["state"]["complete"]
    False
    >>> save_checkpoint(AuditOptions([], None), plan(AuditOptions([]), []))
    """

    path = opts.checkpoint
    if path is None:
        return
    data = {"version": CHECKPOINT_VERSION, "files": state.files, "options": _options_key(opts),
            "state": {"ranges": state.ranges, "file_complete": state.file_complete,
                      "file_tasks_done": state.file_tasks_done, "file_games": state.file_games,
                      "out_bytes": state.out_bytes, "summary": state.summary,
                      "complete": state.complete, "errors": state.errors}}
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def _tasks(state: RunState, opts: AuditOptions,
           on_error: Callable[[str], None]) -> Iterator[Task]:
    """The tasks still to do, in input order; the last task of each file has
    ``last`` set (a stream is read one batch ahead to know it)."""
    for file_no, path in enumerate(state.files):
        if state.file_complete[file_no]:
            continue
        done = state.file_tasks_done[file_no]
        if seekable(path):
            ranges = state.ranges[str(file_no)]
            for i in range(done, len(ranges)):
                start, end = ranges[i]
                yield Task(file_no, path, start, end, last=i == len(ranges) - 1)
            if not ranges:
                yield Task(file_no, path, texts=[], last=True)
            continue
        held: list[Any] | None = None
        batches = stream_batches if opts.work is None else opts.work.batches
        try:
            for batch in batches(path, opts.batch_games, done):
                if held is not None:
                    yield Task(file_no, path, texts=held)
                held = batch
        except (OSError, EOFError, ValueError) as exc:
            # the batches end with the games read whole before the damage; the
            # message says after which game it begins (the reader's count, not ours)
            text = os_error_text(path, exc) if isinstance(exc, OSError) and exc.errno \
                else str(exc)
            on_error(f"{path}: cannot read the stream: {text}")
        yield Task(file_no, path, texts=held or [], last=True)


def plan(opts: AuditOptions, files: list[str]) -> RunState:
    """A fresh run state: byte ranges for every plain file.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> plan(AuditOptions([p], chunk_bytes=10), [p]).ranges
    {'0': [[0, 22], [22, 43]]}
    """
    ranges: dict[str, list[list[int]]] = {}
    cut = plan_ranges if opts.work is None else opts.work.ranges
    n = len(files)
    state = RunState(files, ranges, [0] * n, [0] * n, [False] * n)
    for i, p in enumerate(files):
        if seekable(p):
            try:
                ranges[str(i)] = [[s, e] for s, e in cut(p, opts.chunk_bytes)]
            except OSError as exc:  # the file is reported, the others audited
                state.errors.append(f"{p}: {os_error_text(p, exc)}")
                state.file_complete[i] = True
    return state


def run_audit(opts: AuditOptions, files: list[str], *, progress: Progress | None = None,
              on_error: Callable[[str], None] | None = None,
              on_notice: Callable[[str], None] | None = None) -> RunState:
    """Audit ``files`` as ``opts`` says and write the findings; returns the
    final state (``complete`` False when interrupted).

    KeyboardInterrupt (Ctrl-C, or SIGTERM, turned into it) stops the run
    after the last task whose findings were written: the output stays valid
    and ``--resume`` goes on from there.  The tasks the workers are running
    are let finish (their findings are dropped; ``on_notice`` says so) unless
    a second interrupt comes: then the workers are terminated at once.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "g.pgn")
    >>> _ = open(p, "w").write('[Result "1/2-1/2"]\\n\\n1. f3 e5 2. g4 Qh4# 1/2-1/2\\n')
    >>> st = run_audit(AuditOptions([p], os.path.join(d, "f.jsonl"), jobs=1), [p])
    >>> st.complete, st.summary["by_check"]
    (True, {'result_vs_position': 1})
    """
    errors = on_error or (lambda m: None)
    state = load_checkpoint(opts, files) if opts.resume else None
    if state is None:
        state = plan(opts, files)
        if opts.checkpoint and os.path.exists(opts.checkpoint):
            os.remove(opts.checkpoint)
    if state.complete:
        return state
    writer: FindingWriter = open_writer(opts.out, opts.fmt, state.out_bytes)
    jobs = opts.jobs or available_cores()
    executor = Executor(jobs, opts.cluster)
    old_term = signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:  # not the main thread: leave signals alone
        old_term = None
    bytes_done = 0
    inflight: deque[tuple[Task, _Future]] = deque()

    def err(msg: str) -> None:
        state.errors.append(msg)
        errors(msg)

    tasks = _tasks(state, opts, err)
    try:
        exhausted = False
        while True:
            while not exhausted and len(inflight) < executor.window:
                t = next(tasks, None)
                if t is None:
                    exhausted = True
                    break
                inflight.append((t, executor.submit(audit_task, t, opts.laws, opts.checks)
                                 if opts.work is None else executor.submit(opts.work, t)))
            if not inflight:
                break
            task, fut = inflight.popleft()
            res: TaskResult = fut.result()
            if res.error:
                err(res.error)
            if task.texts is None:  # a byte range numbers its games from 1
                base = state.file_games[task.file_no]
                for f in res.findings:
                    f.game += base
            state.out_bytes = writer.write(res.findings)
            state.file_games[task.file_no] += res.games
            state.file_tasks_done[task.file_no] += 1
            state.file_complete[task.file_no] = task.last
            merge(state.summary, res.summary)
            save_checkpoint(opts, state)
            bytes_done += task.end - task.start
            if progress is not None:
                progress(state.summary["games"], state.summary["findings"], bytes_done)
        state.complete = True
        save_checkpoint(opts, state)
    except KeyboardInterrupt:
        def waiting(n: int) -> None:
            if on_notice is not None:
                on_notice(f"stopping: waiting for {n} running task{'s' if n != 1 else ''} to end; "
                          "interrupt again to stop them at once")

        try:
            executor.close(cancel=True, waiting=waiting)
        except KeyboardInterrupt:
            if on_notice is not None:
                on_notice("stopped: the workers were terminated")
        raise
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        writer.close()
        executor.close()
    if state.complete and writer.final is not None and writer.path is not None:
        os.remove(writer.path)  # the Parquet file is written; its staging file goes
    return state


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1.

    >>> available_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _raise_interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt
