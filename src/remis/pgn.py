"""Streaming PGN reading: plain, ``.gz``, ``.bz2`` and ``.zst`` files or stdin,
one game at a time with its byte offset, never the whole file in memory.

The reading itself is the core's (``remis._core``): it cuts each game out
(tags, then movetext up to the blank line that ends it), reads it as
python-chess would, reports what python-chess would skip without a word, and
rules on it.  Python opens compressed files and stdin (so a damaged stream is
reported the way it always was); the core reads plain files itself.  The
texts of games cut out (:class:`GameText`) are bytes, as the stream holds them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from remis.compressed import open_compressed

if TYPE_CHECKING:
    import chess

T = TypeVar("T")

#: suffixes of the compressed files Python decompresses for the core
COMPRESSED = (".gz", ".bz2", ".zst")


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


@dataclass
class GameText:
    """The raw text of one game: its 1-based ``index`` in the file and the
    byte ``offset`` where it starts, and what the reader saw when it cut the
    game out: a ``{`` never closed (``unclosed_comment``: the game was cut at
    the next tag pair), a tag block without moves followed by another
    (``tags_only``: the byte where the next one starts), a game longer than
    the core reads (``too_long``: its text was dropped)."""

    index: int
    offset: int
    text: str | bytes
    unclosed_comment: bool = False
    tags_only: int | None = None
    too_long: bool = False

    def encoded(self) -> bytes:
        """The text as the core reads it.

        >>> GameText(1, 0, "1. e4 *").encoded()
        b'1. e4 *'
        """
        return self.text.encode("utf-8") if isinstance(self.text, str) else self.text

    def flags(self) -> dict[str, Any]:
        """The reader's findings, as ``remis._core.rule_text`` takes them.

        >>> GameText(1, 0, "", tags_only=40).flags()["tags_only"]
        40
        """
        return {"unclosed_comment": self.unclosed_comment, "tags_only": self.tags_only,
                "too_long": self.too_long}


def split_games(stream: IO[bytes], *, offset: int = 0, end: int | None = None,
                first_index: int = 1) -> Iterator[GameText]:
    """Cut a PGN byte stream into games (the core's reader, ``remis._core``).
    ``offset`` is the stream's position in the file (for byte offsets); games
    that *start* at or after ``end`` are not returned, which lets workers
    split a file by byte ranges.

    >>> import io
    >>> data = b'[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> [(g.index, g.offset) for g in split_games(io.BytesIO(data))]
    [(1, 0), (2, 22)]

    A comment left open does not swallow the games after it:

    >>> bad = b'1. e4 {open\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> [(g.index, g.unclosed_comment) for g in split_games(io.BytesIO(bad))]
    [(1, True), (2, False)]
    """
    from remis import _core

    for g in _core.GameSplitter(stream, start=offset, end=end, first_index=first_index):
        yield GameText(*g)


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
    #: the game's text, as the core reads it again to rule on it, and what the
    #: reader saw when it cut the game out (:meth:`GameText.flags`)
    text: bytes = b""
    flags: dict[str, Any] = field(default_factory=dict)


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

    text = gt.encoded()
    f = _core.rule_text(text, index=gt.index, offset=gt.offset, claims="none",
                        last_position=False, dead="material", time_forfeit=False,
                        fens=True, moves=True, **gt.flags())
    headers, variant, error, start = f[2], f[3], f[7], f[9]
    board = None
    if start is not None:
        board = chess.Board(start, chess960=variant == "chess960")
    # (UCI as python-chess writes it: castling is king takes rook on a Chess960 board)
    moves = [chess.Move.from_uci(u) for u in f[11]]
    err = None if error is None else (error[0], error[1])
    return ParsedGame(gt.index, gt.offset, headers, board, moves, err, list(f[12]),
                      variant=variant, text=text, flags=gt.flags())


def core_games(path: str | Path, reader: Callable[[Any], Iterator[T]]) -> Iterator[T]:
    """What ``reader`` (``remis._core.GameReader`` or ``GameSplitter``, with
    their options bound) gives on the games of a PGN file or ``"-"`` for
    stdin: the core reads a plain file itself, Python decompresses the others.
    A damaged compressed file raises :class:`~remis.compressed.CorruptInput`
    after the games read whole before the damage; a file that cannot be
    opened, the usual :class:`OSError` (:func:`remis.files.os_error_text`
    words it).

    >>> import tempfile, os
    >>> from remis import _core
    >>> p = os.path.join(tempfile.mkdtemp(), "two.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 e5 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> [g[:2] for g in core_games(p, _core.GameSplitter)]
    [(1, 0), (2, 25)]
    """
    from remis.files import is_regular

    p = str(path)
    if not p.endswith(COMPRESSED) and is_regular(p):
        # (a FIFO or a device is a stream: opened once, by Python)
        yield from reader(p)
        return
    stream = open_binary(p)
    try:
        yield from reader(stream)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


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

    return core_games(path, lambda source: _core.GameReader(source, **options))


def read_games(path: str | Path) -> Iterator[ParsedGame]:
    """Read every game of a PGN file (or ``"-"`` for stdin), streaming.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "two.pgn")
    >>> _ = open(p, "w").write('[Event "a"]\\n\\n1. e4 e5 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n')
    >>> [(g.index, len(g.moves)) for g in read_games(p)]
    [(1, 2), (2, 1)]
    """
    from remis import _core

    for g in core_games(path, _core.GameSplitter):
        yield parse_game(GameText(*g))
