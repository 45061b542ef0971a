"""Shogi records in KI2, the move-only notation (``▲７六歩　△３四歩 ...``:
no origin squares, the piece is found from the position), read with
``cshogi``'s KI2 parser into :class:`~remis.variants.kifu.GameRecord`
objects.  The parser resolves every move against the position; what is ours
is only what it leaves unsaid or gets wrong:

* cshogi 1.1.0 reads at most two moves of a line correctly (it restarts at
  the wrong place after the second), and KI2 files put six to eight on a
  line: the moves are cut apart with the parser's own move pattern and
  handed to its move reader (``Parser.parse_move_str``) one at a time;
* it may read a move written without 打 as a drop when the same kind of
  piece is in hand and 左/右/上/引 choose among the candidates: KI2 then
  means the board move, which is taken as cshogi's own KI2 writer writes it;
* a move it would skip silently (unreadable text, a ▲/△ that does not match
  the side to move), or one it cannot resolve (no legal move fits, or
  several do), ends the readable part of the game at that ply (``unread``)
  instead of stopping the whole game or shifting the moves after it;
* board diagrams (a set-up position it cannot read) are refused;
* several games in one file, and ``変化`` variations, as for KIF.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from remis.variants.isolation import IsolatedParser
from remis.variants.kifu import (
    TERMINATIONS,
    GameRecord,
    _headers,
    _result,
    _usi,
    end_word_result,
    isolated_reader,
    read_kifu_games,
)
from remis.variants.kifutext import is_ki2_move

#: file extensions read as KI2 (Shift-JIS and UTF-8, as for KIF)
KI2_EXTENSIONS = (".ki2", ".ki2u")

_MARKS = str.maketrans("☗☖", "▲△")
_NORMAL = (("王", "玉"), ("竜", "龍"), ("成銀", "全"), ("成桂", "圭"), ("成香", "杏"))
# a game-ending word written as a move (as some databases do)
_END_TOKEN = re.compile(r"[▲△](投了|詰み|切れ負け|千日手|持将棋|中断)")


@dataclass
class _Ki2Moves:
    """The moves of a KI2 game, cut apart, and where reading them stops."""

    tokens: list[str] = field(default_factory=list)
    #: the line of each move in the file
    lines: list[int] = field(default_factory=list)
    #: the first move that cannot be read: (ply, why)
    unread: tuple[int, str] | None = None
    #: a game-ending word in the move list: (ply, word)
    end_word: tuple[int, str] | None = None


def _normal(line: str) -> str:
    for old, new in _NORMAL:
        line = line.replace(old, new)
    return line


def _cut_moves(text: str, sente_first: bool, first_line: int) -> _Ki2Moves:
    from cshogi.KI2 import Parser

    out = _Ki2Moves()
    for number, raw in enumerate(text.split("\n"), start=first_line):
        if not is_ki2_move(raw):
            continue
        line = _normal(raw.strip())
        pos = 0
        while pos < len(line) and out.unread is None and out.end_word is None:
            ply = len(out.tokens) + 1
            end = _END_TOKEN.match(line, pos)
            if end is not None:
                out.end_word = (ply, end[1])
                break
            m = Parser.MOVE_RE.match(line, pos)
            if m is not None and not (m.end() == len(line) or line[m.end() - 1].isspace()
                                      or line[m.end()] in "▲△"):
                m = None  # the move goes on with something the pattern does not know
            if m is None:
                out.unread = (ply, f"move {ply} of the KI2 cannot be read "
                                   f"({line[pos:pos + 12].strip()!r}, line {number})")
                break
            if (m[1] == "▲") != ((ply % 2 == 1) == sente_first):
                side = "sente (▲)" if (ply % 2 == 1) == sente_first else "gote (△)"
                out.unread = (ply, f"move {ply} of the KI2 is marked {m[1]}, but {side} "
                                   f"has the move (line {number})")
                break
            out.tokens.append(m[0].strip())
            out.lines.append(number)
            pos = m.end()
    return out


def _why(exc: Exception) -> str:
    if isinstance(exc, IndexError):
        return "matches no legal move"
    if isinstance(exc, AssertionError):
        return "is ambiguous: more than one legal move matches it"
    return f"cannot be read ({type(exc).__name__}: {exc})"


def _squashed(notation: str) -> str:
    return _normal(re.sub(r"\s", "", notation))


def _board_move(board: Any, token: str, drop: int) -> int | None:
    """The move of a piece on the board that ``token`` names, when the parser
    read it as the drop ``drop``: KI2 writes 打 whenever a drop could be
    confused with a board move, so a token without 打 names a board move if
    one fits.  cshogi 1.1.0 lets the drop take part in choosing by 左/右/上/引
    and may pick it; the board move is the one cshogi's own KI2 writer writes
    as ``token``.  None when no board move fits (the drop stands) and -1 when
    some fit but none is written as ``token``."""
    import cshogi
    from cshogi.KI2 import move_to_ki2

    kind = cshogi.hand_piece_to_piece_type(cshogi.move_drop_hand_piece(drop))
    to = cshogi.move_to(drop)
    fits = [m for m in board.legal_moves if not cshogi.move_is_drop(m)
            and cshogi.move_to(m) == to and cshogi.move_from_piece_type(m) == kind]
    if not fits:
        return None
    named = [m for m in fits if _squashed(move_to_ki2(m, board)) == _squashed(token)]
    return int(named[0]) if len(named) == 1 else -1


def _play(start: str, moves: _Ki2Moves) -> tuple[list[int], tuple[int, str] | None]:
    """Resolve the moves one by one with cshogi's KI2 move reader: the moves
    played, and the first that cannot be (ply, why)."""
    import cshogi
    from cshogi.KI2 import Parser

    board = cshogi.Board(start)
    played: list[int] = []
    for ply, (token, line) in enumerate(zip(moves.tokens, moves.lines, strict=True), start=1):
        where = f"move {ply} of the KI2 ({token}, line {line})"
        try:
            got = Parser.parse_move_str(token, board)
        except Exception as exc:  # IndexError, AssertionError, ... from the reader
            return played, (ply, f"{where} {_why(exc)}")
        if len(got) != 1 or board.peek() != got[0]:
            return played, (ply, f"{where} cannot be read")
        move = int(got[0])
        if cshogi.move_is_drop(move) and "打" not in token:
            board.pop()
            fixed = _board_move(board, token, move)
            if fixed == -1:
                return played, (ply, f"{where} names a piece on the board, but no single "
                                     "legal move is written so")
            move = move if fixed is None else fixed
            board.push(move)
        played.append(move)
    return played, moves.unread


def read_ki2(data: bytes, parser: IsolatedParser | None = None, *, source: str | None = None
             ) -> Iterator[GameRecord]:
    """The games of a KI2 file (main lines only), each with its place, each
    read in the child parser (see :func:`~remis.variants.kifu.isolated_reader`).

    >>> ki2 = ("手合割：平手\\n先手：羽生\\n後手：谷川\\n"
    ...        "▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角\\n"
    ...        "まで5手で先手の勝ち\\n")
    >>> g = next(read_ki2(ki2.encode("cp932")))
    >>> g.moves, g.result, g.termination, g.headers["Sente"]
    (['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'], '1-0', 'resignation', '羽生')
    >>> [(g.index, g.line) for g in read_ki2((ki2 + ki2).encode())]
    [(1, 1), (2, 6)]
    """
    return read_kifu_games(data, is_ki2_move, isolated_reader("ki2", parser, source))


def _read_ki2_game(rec: GameRecord, text: str) -> None:
    text = text.translate(_MARKS)
    cut = re.search(r"^変化：", text, re.MULTILINE)
    if cut is not None:
        text = text[:cut.start()]
    if any(line.startswith("|") for line in text.split("\n")):
        rec.error = ("the KI2 has a board diagram (a set-up position), which the KI2 parser "
                     "cannot read")
        return
    from cshogi.KI2 import Parser

    try:  # the headers alone: the start position, names, the recorded result
        head = Parser.parse_str("\n".join(x for x in text.split("\n") if not is_ki2_move(x)))
    except Exception as exc:
        rec.error = f"unreadable KI2: {type(exc).__name__}: {exc}"
        return
    rec.start = str(head.sfen)
    moves = _cut_moves(text, rec.start.split()[1] == "b", rec.line)
    if not (moves.tokens or moves.unread or moves.end_word or head.win is not None
            or any(head.names) or head.var_info):
        rec.error = "no KI2 game in the file"
        return
    played, unread = _play(rec.start, moves)
    if unread is not None:
        rec.unread = {"ply": unread[0], "message": unread[1]}
    rec.moves = [_usi(m) for m in played]
    endgame = str(head.endgame or "")
    rec.result = _result(head.win, endgame)
    if head.win is None and not endgame and moves.end_word is not None:
        ply, word = moves.end_word
        if word == "中断":
            endgame = "%CHUDAN"
        else:
            rec.result, endgame = end_word_result(rec.start, ply, word)
    rec.termination = TERMINATIONS.get(endgame, endgame or None)
    rec.headers = _headers(list(head.names), dict(head.var_info))
    if head.starttime is not None:
        rec.headers["Date"] = head.starttime.strftime("%Y/%m/%d %H:%M:%S")
