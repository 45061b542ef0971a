"""The text of KIF and KI2 files: their encoding, and cutting a file into
its games.

Neither format defines a separator: a collection is games written one after
the other, each beginning with its header lines (``先手：``, ``手合割：``,
``開始日時：``, ... and usually a ``# ---- ... ----`` comment).  cshogi's
parsers read one game and stop at its ``まで`` line, so the games after the
first would be lost without a word.  A new game begins at a game-header line
(:data:`GAME_HEADERS`) that follows the moves of the current one; the
``#`` comment lines just before that header go with it.  A part
without any move or ``まで`` line of its own (headers written after the
moves, maybe followed by ``変化`` variations) stays with the game before
it.  The moves themselves are read by the parsers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass


class RecordError(ValueError):
    """A file or game that the parsers cannot read at all.

    >>> str(RecordError("no moves"))
    'no moves'
    """


def decode(data: bytes) -> str:
    """Text of a KIF/KI2/CSA file: UTF-8 (with or without a byte-order mark),
    else Shift-JIS (Windows code page 932, as Japanese software writes it).

    >>> decode("先手：A".encode("cp932")) == decode("先手：A".encode("utf-8")) == "先手：A"
    True
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932")
    except UnicodeDecodeError as exc:
        raise RecordError(f"neither UTF-8 nor Shift-JIS text (byte {exc.start})") from None


#: header keys that open a game (the KIF specification's standard headers
#: that come before the moves, and the hands of a set-up position)
GAME_HEADERS = frozenset({
    "開始日時", "対局日", "棋戦", "戦型", "表題", "持ち時間", "秒読み", "場所", "掲載", "備考",
    "先手", "後手", "下手", "上手", "手合割", "先手省略名", "後手省略名",
    "先手の持駒", "後手の持駒", "下手の持駒", "上手の持駒",
})

_KIF_MOVE_LINE = re.compile(r" *[0-9]+\s+\S")
_KI2_MOVE_LINE = re.compile(r"\s*[▲△☗☖]")
_END_LINE = re.compile(r"[ 　]*まで")


@dataclass
class KifuPart:
    """One game of a KIF/KI2 file: its first line (1-based), byte offset and
    text (lines joined with ``\\n``).

    >>> KifuPart(3, 40, "先手：A").line
    3
    """

    line: int
    offset: int
    text: str


def is_kif_move(line: str) -> bool:
    """A KIF move line (a move number, then the move or a game-ending word).

    >>> is_kif_move("   1 ７六歩(77)   ( 0:00/00:00:00)"), is_kif_move("先手：A")
    (True, False)
    """
    return _KIF_MOVE_LINE.match(line) is not None


def is_ki2_move(line: str) -> bool:
    """A KI2 move line (moves marked ▲ or △, or ☗ ☖).

    >>> is_ki2_move("▲７六歩    △３四歩"), is_ki2_move("*comment ▲")
    (True, False)
    """
    return _KI2_MOVE_LINE.match(line) is not None


def _header_key(line: str) -> str | None:
    if line.startswith(("*", "#", "&")) or "：" not in line:
        return None
    return line.split("：", 1)[0].strip()


def split_kifu(data: bytes, is_move: Callable[[str], bool]) -> Iterator[KifuPart]:
    """The games of a KIF (``is_move=is_kif_move``) or KI2 file, each with
    its place.  Raises :class:`~remis.variants.kifu.RecordError` when the
    file is neither UTF-8 nor Shift-JIS.

    >>> g = "# ---- x ----\\n先手：A\\n後手：B\\n   1 ７六歩(77)\\nまで1手で先手の勝ち\\n"
    >>> data = (g + "\\n" + g.replace("A", "C")).encode("cp932")
    >>> [(p.line, p.offset, p.text.split("\\n")[1]) for p in split_kifu(data, is_kif_move)]
    [(1, 0, '先手：A'), (7, 67, '先手：C')]
    """
    sep = b"\n" if b"\n" in data or b"\r" not in data else b"\r"
    raw = data.split(sep)
    lines = [s.rstrip("\r") for s in decode(data).split(sep.decode())]
    starts = [0]
    body = False  # the current part has a move or end line of its main line
    variation = False  # in a 変化 section (its moves belong to the game before)
    for i, line in enumerate(lines):
        key = _header_key(line)
        if key == "変化":
            if not body and len(starts) > 1:  # headers, then variations: the game before
                starts.pop()
                body = True
            variation = True
        elif is_move(line) or _END_LINE.match(line):
            body = body or not variation
        elif key in GAME_HEADERS:
            variation = False
            if body:
                j = i
                while j > starts[-1] + 1 and (not lines[j - 1].strip()
                                              or lines[j - 1].startswith("#")):
                    j -= 1
                while not lines[j].strip():
                    j += 1
                starts.append(j)
                body = False
    if len(starts) > 1 and not body:  # trailing headers without moves: not a game
        starts.pop()
    offsets = [0]
    for r in raw:
        offsets.append(offsets[-1] + len(r) + len(sep))
    for k, begin in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        yield KifuPart(begin + 1, offsets[begin] if begin else 0,
                       "\n".join(lines[begin:end]))
