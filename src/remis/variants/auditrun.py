"""Running ``remis audit --variant shogi|xiangqi`` on the chess audit's
runner (:func:`remis.audit.run.run_audit`): :class:`VariantWork` tells it how
to cut a file (game-line files at line ends, CSA files at their ``/`` lines,
KIF and KI2 files whole) and a stream (stdin, compressed game lines) into
work, and audits one piece (:func:`remis.variants.audit.audit_records`).
Input order, ``--jobs`` processes, the checkpoint and ``--resume`` are the
chess audit's own.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from remis.audit.checks import Finding
from remis.audit.run import Task, TaskResult
from remis.audit.stats import new_summary
from remis.pgn import GameText, open_binary
from remis.variants.audit import VARIANT_CHECKS, audit_records
from remis.variants.kifu import GameRecord
from remis.variants.records import check_format, read_lines, read_records_range, record_format
from remis.variants.rules import rules_for

#: where a piece of a file may end: after a line end (game lines), after a
#: ``/`` line (CSA)
_BOUNDARIES = {"lines": re.compile(rb"\n"), "csa": re.compile(rb"\n/\r?\n")}
_WINDOW = 1 << 16


@dataclass
class LineChunk(GameText):
    """Game lines read from a stream, for a worker: ``raw`` holds the bytes,
    ``index`` is the number of its first game, ``offset`` its byte offset
    and ``line`` its first line in the stream (``text`` is unused).

    >>> LineChunk(3, 40, "", line=5, raw=b"startpos\\n").line
    5
    """

    line: int = 1
    raw: bytes = b""


def cut_ranges(path: str, chunk_bytes: int) -> list[tuple[int, int]]:
    """Byte ranges ``[start, end)`` of about ``chunk_bytes`` covering the
    file, each ending at a game boundary of its format; a KIF or KI2 file
    (no separator) is one range.  A file that cannot be read is one empty
    range: its task reports why.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.csa")
    >>> _ = open(p, "wb").write(b"PI\\n+\\n%TORYO\\n/\\nPI\\n+\\n%TORYO\\n")
    >>> cut_ranges(p, 4), cut_ranges(p, 100)
    ([(0, 14), (14, 26)], [(0, 26)])
    """
    try:
        size = os.path.getsize(path)
    except OSError:
        return [(0, 0)]
    boundary = _BOUNDARIES.get(record_format(path))
    if size == 0:
        return []
    if boundary is None:
        return [(0, size)]
    cuts = [0]
    with open(path, "rb") as f:
        pos = chunk_bytes
        while pos < size:
            cut = _next_boundary(f, pos, boundary)
            if cut is None or cut >= size:
                break
            cuts.append(cut)
            pos = cut + chunk_bytes
    cuts.append(size)
    return list(itertools.pairwise(cuts))


def _next_boundary(f: io.BufferedReader, pos: int, boundary: re.Pattern[bytes]) -> int | None:
    """The end of the first boundary that ends after ``pos``, or None."""
    start = pos - 1  # a boundary begins with a line end: look from the byte before
    while True:
        f.seek(start)
        buf = f.read(_WINDOW)
        m = boundary.search(buf)
        if m is not None:
            return start + m.end()
        if len(buf) < _WINDOW:
            return None
        start += _WINDOW - 8  # a separator may straddle two windows


def _is_game_line(raw: bytes) -> bool:
    """Counted as a game by :func:`remis.variants.records.read_lines`."""
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return True  # a record with an error
    return bool(text) and not text.startswith("#")


def line_batches(path: str, batch_games: int, skip_batches: int = 0
                 ) -> Iterator[list[GameText]]:
    """Game lines from a stream (stdin, or a compressed file), in batches of
    ``batch_games`` games (one :class:`LineChunk` each); the first
    ``skip_batches`` are read and dropped (to resume).

    >>> import gzip, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt.gz")
    >>> with gzip.open(p, "wb") as f: _ = f.write(b"startpos\\n# note\\nstartpos\\nstartpos\\n")
    >>> [[(c.index, c.line, c.offset) for c in b] for b in line_batches(p, 2)]
    [[(1, 1, 0)], [(3, 4, 25)]]
    """
    stream = open_binary(path)
    try:
        n = 0
        games, chunk = 0, LineChunk(1, 0, "")
        lines: list[bytes] = []
        offset, line = 0, 1
        for raw in stream:
            lines.append(raw)
            offset += len(raw)
            line += 1
            games += _is_game_line(raw)
            if games == batch_games:
                if n >= skip_batches:
                    chunk.raw = b"".join(lines)
                    yield [chunk]
                n += 1
                chunk = LineChunk(chunk.index + games, offset, "", line=line)
                games, lines = 0, []
        if lines and n >= skip_batches:
            chunk.raw = b"".join(lines)
            yield [chunk]
    finally:
        if path != "-":
            stream.close()


@dataclass(frozen=True)
class VariantWork:
    """The shogi or xiangqi audit as :class:`remis.audit.run.AuditWork`.

    >>> import os, tempfile
    >>> from remis.audit.run import AuditOptions, run_audit
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "g.txt")
    >>> _ = open(p, "w").write("startpos 7g7f\\n" * 3 + "startpos 7g7f 7g7f result 1-0\\n")
    >>> work = VariantWork("shogi")
    >>> st = run_audit(AuditOptions([p], os.path.join(d, "f.jsonl"), jobs=1, chunk_bytes=10,
    ...                             work=work), [p])
    >>> st.ranges["0"], st.summary["games"], st.summary["by_check"]
    ([[0, 14], [14, 28], [28, 42], [42, 72]], 4, {'illegal_move': 1})
    """

    variant: str
    repetitions: int | None = None
    notation: str | None = None
    checks: tuple[str, ...] = VARIANT_CHECKS

    def key(self) -> dict[str, object]:
        """What identifies this audit in a checkpoint.

        >>> VariantWork("xiangqi", 3).key()["repetitions"]
        3
        """
        return {"variant": self.variant, "repetitions": self.repetitions,
                "notation": self.notation, "checks": list(self.checks)}

    def ranges(self, path: str, chunk_bytes: int) -> list[tuple[int, int]]:
        """See :func:`cut_ranges`; a file of another variant's format is one
        empty range (its task reports why).

        >>> VariantWork("xiangqi").ranges("/nonexistent.csa", 100)
        [(0, 0)]
        """
        try:
            check_format(path, self.variant)
        except ValueError:
            return [(0, 0)]
        return cut_ranges(path, chunk_bytes)

    def batches(self, path: str, batch_games: int, skip_batches: int
                ) -> Iterator[list[GameText]]:
        """See :func:`line_batches` (a stream holds game lines).

        >>> import bz2, os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "g.txt.bz2")
        >>> with bz2.open(p, "wb") as f: _ = f.write(b"startpos\\n" * 5)
        >>> [[c.index for c in b] for b in VariantWork("shogi").batches(p, 2, 1)]
        [[3], [5]]
        """
        return line_batches(path, batch_games, skip_batches)

    def records(self, task: Task) -> Iterator[GameRecord]:
        """The records of one task: its byte range, or its stream chunks.

        >>> chunk = LineChunk(1, 0, "", raw=b"startpos 7g7f")
        >>> [r.moves for r in VariantWork("shogi").records(Task(0, "-", texts=[chunk]))]
        [['7g7f']]
        """
        if task.texts is None:
            yield from read_records_range(task.path, self.variant, task.start, task.end)
            return
        for chunk in task.texts:
            if not isinstance(chunk, LineChunk):
                raise TypeError(f"not game lines: {type(chunk).__name__}")
            yield from read_lines(io.BytesIO(chunk.raw), self.variant, line=chunk.line,
                                  offset=chunk.offset, index=chunk.index)

    def __call__(self, task: Task) -> TaskResult:
        """Audit one task (in a worker): its findings, games numbered from 1
        in a byte range, and the error that stopped it, if any (what came
        before it is kept).

        >>> r = VariantWork("shogi")(Task(0, "/nonexistent.txt", 0, 10))
        >>> r.games, r.error
        (0, '/nonexistent.txt: No such file or directory')
        """
        summary = new_summary()
        found: list[Finding] = []
        error = None
        try:
            rules = rules_for(self.variant, self.repetitions)
            for f in audit_records(self.records(task), rules, task.path,
                                   notation=self.notation, checks=self.checks, summary=summary):
                found.append(f)
        except Exception as exc:  # unreadable file, or a bug: report it, go on
            error = f"{task.path}: {getattr(exc, 'strerror', None) or exc}"
        return TaskResult(summary["games"], found, summary, error)
