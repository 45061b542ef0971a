"""Streaming PGN reading: plain, ``.gz``, ``.bz2`` and ``.zst`` files or stdin,
one game at a time with its byte offset, never the whole file in memory.

The reading itself is the core's (``remis._core``): it cuts each game out
(tags, then movetext up to the blank line that ends it), reads it as
python-chess would, reports what python-chess would skip without a word, and
rules on it.  Python opens compressed files and stdin (so a damaged stream is
reported the way it always was); the core reads plain files itself.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from remis.compressed import open_compressed

if TYPE_CHECKING:
    import chess

def open_binary(path: str | Path) -> IO[bytes]:
    """Open ``path`` for binary streaming, decompressing by suffix
    (``.gz``, ``.bz2``, ``.zst``); ``"-"`` is standard input.  Reading a
    truncated or corrupt compressed file raises
    :class:`~remis.compressed.CorruptInput` (an ``OSError``).

    >>> import gzip, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn.gz")
    >>> with gzip.open(p, "wb") as f: _ = f.write(b"1. e4 *\\n")
    >>> open_binary(p).read()
    b'1. e4 *\\n'
    """
    p = str(path)
    if p == "-":
        return sys.stdin.buffer
    compressed = open_compressed(p)
    return open(p, "rb") if compressed is None else compressed


def decode_line(raw: bytes) -> str:
    """Decode one line as UTF-8, falling back to Latin-1.

    >>> decode_line("Kasparov".encode()), decode_line("Kasparov, G\\xe1ry".encode("latin-1"))
    ('Kasparov', 'Kasparov, Gáry')
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@dataclass
class GameText:
    """The raw text of one game: its 1-based ``index`` in the file and the
    byte ``offset`` where it starts; ``unclosed_comment`` when a ``{`` in it
    is never closed (the reader cut the game at the next tag pair)."""

    index: int
    offset: int
    text: str
    unclosed_comment: bool = False


def split_games(stream: IO[bytes], *, offset: int = 0, end: int | None = None,
                first_index: int = 1) -> Iterator[GameText]:
    """Cut a PGN byte stream into games.  ``offset`` is the stream's position
    in the file (for byte offsets); games that *start* at or after ``end`` are
    not returned, which lets workers split a file by byte ranges.

    >>> data = b'[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> [(g.index, g.offset) for g in split_games(io.BytesIO(data))]
    [(1, 0), (2, 22)]

    A comment left open does not swallow the games after it:

    >>> bad = b'1. e4 {open\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> [g.index for g in split_games(io.BytesIO(bad))]
    [1, 2]
    """
    index = first_index
    pos = offset
    lines: list[str] = []
    start = pos
    in_movetext = False
    in_comment = False
    prev_blank = False
    broken = False
    for raw in stream:
        line_start = pos
        pos += len(raw)
        line = decode_line(raw)
        if index == first_index and not lines and line.startswith("\ufeff"):
            line = line[1:]
        stripped = line.strip()
        if in_comment and prev_blank and _TAG_LINE.match(stripped):
            # a tag pair after a blank line inside a comment: the comment was
            # never closed; end the broken game here instead of swallowing the file
            in_comment = False
            broken = True
        prev_blank = not stripped
        if not in_comment:
            if not stripped:
                if in_movetext:
                    yield GameText(index, start, "".join(lines))
                    index += 1
                    lines = []
                    in_movetext = False
                    if end is not None and pos >= end:
                        return
                continue
            if stripped.startswith("[") and in_movetext:
                # a header right after movetext without a blank line: new game
                yield GameText(index, start, "".join(lines), broken)
                broken = False
                index += 1
                lines = []
                in_movetext = False
            if not lines:
                start = line_start
                if end is not None and start >= end:
                    return
            if not stripped.startswith(("[", "%")):
                in_movetext = True
        elif not lines:
            start = line_start
        lines.append(line)
        if in_movetext or in_comment:
            in_comment = _comment_state(line, in_comment)
    if lines and any(s.strip() for s in lines):
        yield GameText(index, start, "".join(lines), in_comment)


_TAG_LINE = re.compile(r'^\[[A-Za-z0-9_]+\s+"[^"]*"\]$')


def _comment_state(line: str, in_comment: bool) -> bool:
    """Whether a brace comment is open at the end of ``line``: inside one,
    the next ``}`` closes it; outside, a ``;`` ends the line's scan (the rest
    of the line is a comment) and a ``{`` opens one.

    >>> _comment_state("1. e4 {a} e5 {b", False), _comment_state("c} 2. Nf3 ; {", True)
    (True, False)
    """
    at = 0
    while True:
        if in_comment:
            at = line.find("}", at) + 1
            if not at:
                return True
            in_comment = False
        else:
            brace = line.find("{", at)
            if brace < 0:
                return False
            semi = line.find(";", at, brace)
            if semi >= 0:
                return False
            in_comment = True
            at = brace + 1


@dataclass
class ParsedGame:
    """One game read from PGN: headers, start board, mainline moves, the
    comment after each move (for clocks), and the first error if any."""

    index: int
    offset: int
    headers: dict[str, str]
    board: chess.Board | None
    moves: list[chess.Move]
    error: tuple[int, str] | None = None
    comments: list[str] = field(default_factory=list)
    variant: str = "standard"
    #: the game's text, as the core reads it again to rule on it
    text: bytes = b""


def parse_game(gt: GameText) -> ParsedGame:
    """Read one game's text (the core's reading); never raises on bad input.

    >>> g = parse_game(GameText(1, 0, '[Event "x"]\\n\\n1. e4 e5 2. Ke3 *\\n'))
    >>> len(g.moves), g.error[0]
    (2, 3)
    >>> g = parse_game(GameText(1, 0, '1. e4 e5 2. Qxx7 Nc6 *'))
    >>> g.error
    (3, "unreadable move text 'Qxx7'")
    """
    import chess

    from remis import _core

    text = gt.text.encode("utf-8")
    f = _core.rule_text(text, index=gt.index, offset=gt.offset, claims="none",
                        last_position=False, dead="material", time_forfeit=False,
                        fens=True, moves=True)
    headers, variant, error, start = dict(f[2]), f[3], f[7], f[9]
    if gt.unclosed_comment and error is None:
        error = (len(f[11]) + 1, "a comment opened with '{' is never closed: "
                 "the rest of the game cannot be read", gt.offset)
    board = None
    if start is not None:
        board = chess.Board(start, chess960=variant == "chess960")
    # (UCI as python-chess writes it: castling is king takes rook on a Chess960 board)
    moves = [chess.Move.from_uci(u) for u in f[11]]
    err = None if error is None else (error[0], error[1])
    return ParsedGame(gt.index, gt.offset, headers, board, moves, err, list(f[12]),
                      variant=variant, text=text)


def game_facts(path: str | Path, **options: Any) -> Iterator[tuple[Any, ...]]:
    """The core's facts on every game of a PGN file (or ``"-"`` for stdin),
    streaming; ``options`` as ``remis._core.GameReader`` takes them.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "two.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 e5 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> [(f[0], f[1], f[4]) for f in game_facts(p)]
    [(1, 0, 2), (2, 25, 1)]
    """
    from remis import _core
    from remis.compressed import CorruptInput

    p = str(path)
    if p != "-" and open_compressed(p) is None:
        open(p, "rb").close()  # the usual OSError for a missing or unreadable file
        yield from _core.GameReader(p, **options)
        return
    stream = open_binary(p)
    try:
        try:
            yield from _core.GameReader(stream, **options)
        except OSError as exc:
            if isinstance(exc, CorruptInput) or "truncated" in str(exc) or "zstd" in str(exc):
                raise CorruptInput(str(exc)) from None
            raise
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def read_games(path: str | Path) -> Iterator[ParsedGame]:
    """Read every game of a PGN file (or ``"-"`` for stdin), streaming.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "two.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 e5 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> [(g.index, len(g.moves)) for g in read_games(p)]
    [(1, 2), (2, 1)]
    """
    stream = open_binary(path)
    try:
        for gt in split_games(stream):
            yield parse_game(gt)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
