"""Streaming PGN reading: plain, ``.gz``, ``.bz2`` and ``.zst`` files or stdin,
one game at a time with its byte offset, never the whole file in memory.

Each game's text is cut out first (headers, then movetext up to the blank line
that ends it) and parsed on its own, so a broken game cannot swallow the next
one and every game knows where it starts.  Lines that are not UTF-8 are read
as Latin-1, as real files (old ChessBase exports) need.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import chess
import chess.pgn

from remis.compressed import open_compressed
from remis.position import illegal_reason
from remis.san import parse_san

#: Variants we replay: standard chess and Chess960 (same rules after set-up).
STANDARD_VARIANTS = {"", "standard", "chess", "chess960", "chess 960", "fischerandom",
                     "fischer random", "freestyle", "from position"}


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
    #: the mainline moves as written (SAN), filled instead of ``moves`` by
    #: ``parse_game(..., san_only=True)``
    sans: list[str] = field(default_factory=list)


class _MainlineVisitor(chess.pgn.BaseVisitor[Any]):
    """Collect headers, the start board, mainline moves and comments; skip
    variations; remember the first error with its ply."""

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}
        self.board: chess.Board | None = None
        self.moves: list[chess.Move] = []
        self.comments: list[str] = []
        self.error: tuple[int, str] | None = None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def visit_board(self, board: chess.Board) -> None:
        if self.board is None:  # the start position (it is visited again at the end)
            self.board = board.copy(stack=False)

    def begin_variation(self) -> chess.pgn.SkipType:
        return chess.pgn.SKIP

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        return parse_san(board, san)  # python-chess's reading, but a null move is an error

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        self.moves.append(move)
        self.comments.append("")

    def visit_comment(self, comment: str) -> None:
        if self.comments:
            self.comments[-1] = comment

    def handle_error(self, error: Exception) -> None:
        if self.error is None:
            if self.board is None:  # before the start position: its FEN tag
                fen = self.headers.get("FEN", "") if self.headers else ""
                self.error = (0, f"unreadable FEN tag {fen!r}: {error}")
            else:
                self.error = (len(self.moves) + 1, str(error))

    def result(self) -> _MainlineVisitor:
        return self


class _SanVisitor(_MainlineVisitor):
    """Collect the mainline SAN tokens without parsing them: the caller plays
    them on its own board, so each move is pushed once instead of twice."""

    def __init__(self) -> None:
        super().__init__()
        self.sans: list[str] = []

    def visit_board(self, board: chess.Board) -> None:
        if self.board is None:
            self.board = board.copy(stack=False)
            # the reader only offers variations after a move on its board;
            # give it one so that variations are still seen (and skipped)
            board.push(chess.Move.null())

    def begin_parse_san(self, board: chess.Board, san: str) -> chess.pgn.SkipType:
        self.sans.append(san)
        self.comments.append("")
        return chess.pgn.SKIP


#: one SAN move as python-chess's movetext reader accepts it (also long
#: algebraic, drops, null moves), with an optional check or mate sign
_SAN_TOKEN = (r"(?:[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?"
              r"|[PNBRQK]?@[a-h][1-8]|--|Z0|0000|@@@@|O-O(?:-O)?|0-0(?:-0)?)[+#]?")
#: a whitespace-free run of movetext that python-chess reads completely:
#: moves, game results, move numbers, NAGs, variation brackets, !?, "e.p."
#: (atomic, so that a long garbage token cannot make it backtrack)
_GOOD_RUN = re.compile(r"(?>" + _SAN_TOKEN + r"|1-0|0-1|1/2-1/2|\d+\.*|\*|\$\d+|[()]"
                       r"|[?!]{1,2}|e\.p\.)++")
#: the header block (tag pairs, escape lines, blank lines) before the movetext
_HEADER_BLOCK = re.compile(r"(?:[ \t]*(?:[\[%][^\n]*)?\r?\n)*")
#: comments (braces, rest-of-line) and escape lines inside the movetext
_COMMENTS = re.compile(r"\{[^}]*\}|;[^\n]*|^%[^\n]*", re.M)
#: brace comments only (enough, and cheaper, when no ';' or escape line occurs)
_BRACES = re.compile(r"\{[^}]*\}")
#: runs already found readable (a pure cache: the answer never depends on it)
_good_runs: set[str] = set()


def unread_movetext(text: str) -> tuple[int, str] | None:
    """The first run of a game's main line that python-chess's reader would
    skip without a word (``Qxx7``, ``Zf3`` read as ``f3``, ``e4,``), as
    ``(ply, token)`` where ``ply`` is the ply the token stands at, or None
    when every character of the main line is read.  Comments, the header
    block and variations (which the reader skips) are not examined.

    >>> unread_movetext('[Event "x"]\\n\\n1. e4 {a [%clk 0:01]} e5 2. Nf3 $1 (2. d4?!) Nc6 1-0\\n')
    >>> unread_movetext('1. e4 e5 2. Qxx7 Nc6 *')
    (3, 'Qxx7')
    >>> unread_movetext('1. e4 e5 2. Nf3, Nc6 *')
    (3, 'Nf3,')
    """
    movetext = text[_HEADER_BLOCK.match(text).end():]  # type: ignore[union-attr]
    strip = _COMMENTS if ";" in movetext or "\n%" in movetext else _BRACES
    movetext = strip.sub(" ", movetext)
    runs = movetext.split()
    unseen = set(runs).difference(_good_runs)
    if not unseen:
        return None
    if all(_GOOD_RUN.fullmatch(run) for run in unseen):
        if len(_good_runs) < 100_000:
            _good_runs.update(unseen)
        return None
    # the slow path, only for a game with an unreadable run: where it stands
    ply = depth = 0
    for run in runs:
        if depth == 0 and _GOOD_RUN.fullmatch(run) is None:
            return ply + 1, run
        for m in chess.pgn.MOVETEXT_REGEX.finditer(run):
            if m.group(0) == "(":
                depth += 1
            elif m.group(0) == ")":
                depth = max(0, depth - 1)
            elif m.group(1) and depth == 0:
                ply += 1
    return None  # an unreadable run inside a variation only: the main line is whole


def variant_of(headers: dict[str, str]) -> str:
    """The normalised variant name of a game (``"standard"``, ``"chess960"``
    or the header's own name for anything else).

    >>> variant_of({"Variant": "Chess960"}), variant_of({}), variant_of({"Variant": "Crazyhouse"})
    ('chess960', 'standard', 'Crazyhouse')
    """
    v = headers.get("Variant", "").strip()
    low = v.lower()
    if low in ("chess960", "chess 960", "fischerandom", "fischer random", "freestyle"):
        return "chess960"
    if low in STANDARD_VARIANTS:
        return "standard"
    return v


def parse_game(gt: GameText, *, san_only: bool = False) -> ParsedGame:
    """Parse one game's text; never raises on bad input.

    >>> g = parse_game(GameText(1, 0, '[Event "x"]\\n\\n1. e4 e5 2. Ke3 *\\n'))
    >>> len(g.moves), g.error[0]
    (2, 3)

    ``san_only=True`` leaves the moves unparsed in ``sans`` (variations
    skipped) for a caller that plays them itself:

    >>> parse_game(GameText(1, 0, '1. e4 (1. d4) e5 2. Ke3 *\\n'), san_only=True).sans
    ['e4', 'e5', 'Ke3']
    """
    # peek at the headers to refuse non-standard variants before replaying
    headers: dict[str, str] = {}
    for line in gt.text.splitlines():
        s = line.strip()
        if not s.startswith("["):
            if s:
                break
            continue
        try:
            h = chess.pgn.TAG_REGEX.match(s)
        except Exception:  # pragma: no cover - regex cannot fail
            h = None
        if h:
            headers[h.group(1)] = h.group(2).replace('\\"', '"').replace("\\\\", "\\")
    variant = variant_of(headers)
    if variant not in ("standard", "chess960"):
        return ParsedGame(gt.index, gt.offset, headers, None, [],
                          (0, f"variant {variant!r} is not standard chess or Chess960; "
                              "not replayed"), variant=variant)
    visitor = _SanVisitor() if san_only else _MainlineVisitor()
    try:
        chess.pgn.read_game(io.StringIO(gt.text), Visitor=lambda: visitor)
    except Exception as exc:  # python-chess reports most problems via handle_error
        visitor.handle_error(exc)
    hdrs = visitor.headers or headers
    board = visitor.board
    error = visitor.error
    if board is None and error is None:
        error = (0, "no start position (bad FEN header?)")
    if gt.unclosed_comment and error is None:
        n = len(visitor.sans) if isinstance(visitor, _SanVisitor) else len(visitor.moves)
        error = (n + 1, "a comment opened with '{' is never closed: "
                 "the rest of the game cannot be read")
    moves, comments = visitor.moves, visitor.comments
    sans = visitor.sans if isinstance(visitor, _SanVisitor) else []
    unread = unread_movetext(gt.text)
    if unread is not None and (error is None or unread[0] <= error[0]):
        # the reader skipped it silently: stop the game where it stands
        ply, run = unread
        error = (ply, f"unreadable move text {run!r}")
        del moves[ply - 1:], sans[ply - 1:], comments[ply - 1:]
    if board is not None and board.chess960:
        variant = "chess960"
    reason = None if board is None else illegal_reason(board)
    if board is not None and reason is not None:
        # nothing is ruled on from a position that cannot arise in a game
        error = (0, f"illegal start position {board.fen()}: {reason}")
        board, moves, comments, sans = None, [], [], []
    return ParsedGame(gt.index, gt.offset, hdrs, board, moves, error, comments, variant, sans)


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
