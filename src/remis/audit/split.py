"""Cutting the input into pieces of work at game boundaries.

A plain PGN file is split into byte ranges: each cut is moved forward to the
start of a game (a tag line after a blank line that follows movetext), so a
worker's core reader opens the file, seeks to its range and reads only the
games that start inside it (``remis._core.GameReader`` with ``start``/``end``).
A compressed file (or stdin) cannot seek: the core's reader in the parent cuts
it into games (``remis._core.GameSplitter``) and hands out batches of them.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from remis.files import is_regular
from remis.pgn import COMPRESSED, GameText, core_games

#: suffixes of the files the audit reads from a folder
PGN_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.zst")

_BOUNDARY = re.compile(rb"\n(?:[ \t]*\r?\n)+(?=\[)")
_WINDOW = 1 << 16


def expand_paths(paths: list[str]) -> list[str]:
    """The PGN files named by ``paths``: files as given, folders searched
    (recursively, sorted) for ``.pgn`` files, plain or compressed.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for n in ("b.pgn", "a.pgn.gz", "notes.txt"): _ = open(os.path.join(d, n), "w")
    >>> [os.path.basename(p) for p in expand_paths([d])]
    ['a.pgn.gz', 'b.pgn']
    """
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = [str(f) for f in Path(p).rglob("*") if f.is_file()
                     and f.name.lower().endswith(PGN_SUFFIXES)]
            out.extend(sorted(found))
        else:
            out.append(p)
    return out


def seekable(path: str) -> bool:
    """True for a plain file that workers can seek in (not stdin, a FIFO or
    a device, not compressed).

    >>> seekable(__file__), seekable("a.pgn.zst"), seekable("-"), seekable("/dev/null")
    (True, False, False, False)
    """
    return not path.lower().endswith(COMPRESSED) and is_regular(path)


def next_game_start(f: object, pos: int, size: int) -> int:
    """The first game start at or after byte ``pos`` of the open binary file
    ``f``: the ``[`` of a tag line that follows a blank line after movetext.
    Returns ``size`` when there is none.

    >>> import io
    >>> data = b'[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> next_game_start(io.BytesIO(data), 3, len(data))
    22
    """
    if pos <= 0:
        return 0
    fh = f  # typed loosely: any binary file object with seek/read
    start = max(pos - 1, 0)
    while start < size:
        # keep some bytes before the window to see the line before a blank line
        back = min(start, 512)
        fh.seek(start - back)  # type: ignore[attr-defined]
        buf: bytes = fh.read(back + _WINDOW)  # type: ignore[attr-defined]
        if not buf:
            break
        for m in _BOUNDARY.finditer(buf, back):
            cut = m.end()
            prev_end = m.start()
            prev_start = buf.rfind(b"\n", 0, prev_end) + 1
            if prev_start == 0 and start - back > 0:
                continue  # the previous line is not in the buffer: be safe, skip
            prev = buf[prev_start:prev_end].strip()
            if prev and not prev.startswith((b"[", b"%")):
                return start - back + cut
        if len(buf) < back + _WINDOW:
            break
        start += _WINDOW - 64
    return size


def plan_ranges(path: str, chunk_bytes: int) -> list[tuple[int, int]]:
    """Byte ranges ``[start, end)`` of about ``chunk_bytes`` each, cut at game
    starts, covering the whole plain file.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> plan_ranges(p, 10)
    [(0, 22), (22, 43)]
    """
    size = os.path.getsize(path)
    if size == 0:
        return []
    cuts = [0]
    with open(path, "rb") as f:
        pos = chunk_bytes
        while pos < size:
            c = next_game_start(f, pos, size)
            if c >= size:
                break
            if c > cuts[-1]:
                cuts.append(c)
            pos = max(c, pos) + chunk_bytes
    cuts.append(size)
    return list(itertools.pairwise(cuts))


def read_range(path: str, start: int, end: int) -> Iterator[GameText]:
    """The games that start in ``[start, end)`` of a plain file, numbered
    from 1 within the range.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> [(g.index, g.offset) for g in read_range(p, 22, 43)]
    [(1, 22)]
    """
    from remis import _core

    for g in _core.GameSplitter(path, start=start, end=end):
        yield GameText(*g)


def stream_batches(path: str, batch_games: int, skip_batches: int = 0
                   ) -> Iterator[list[Any]]:
    """Batches of ``batch_games`` games, as the core's reader cuts them out
    (``remis._core.GameSplitter``), from a stream (compressed file or stdin),
    numbered from 1 in the file; the first ``skip_batches`` batches are read
    and dropped (to resume).  A damaged stream ends with the games read whole
    before the damage (a last, shorter batch), then raises.

    >>> import tempfile, os, gzip
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn.gz")
    >>> with gzip.open(p, "wb") as f: _ = f.write(b"1. e4 *\\n\\n1. d4 *\\n\\n1. c4 *\\n")
    >>> [[g[0] for g in b] for b in stream_batches(p, 2)]
    [[1, 2], [3]]
    """
    from remis import _core

    batch: list[Any] = []
    n = 0
    try:
        for g in core_games(path, _core.GameSplitter):
            batch.append(g)
            if len(batch) >= batch_games:
                if n >= skip_batches:
                    yield batch
                n += 1
                batch = []
    except OSError:
        if batch and n >= skip_batches:
            yield batch
        raise
    if batch and n >= skip_batches:
        yield batch
