"""Shogi records in KIF and CSA, read with ``cshogi``'s parsers (the
``variants`` extra) and turned into :class:`GameRecord` objects: the start
SFEN, the USI moves, the recorded result and the headers.  The moves are not
judged here: the replay (:func:`remis.variants.game.rule_on_moves`) does.

What is ours is only what the parsers leave unsaid: the file's encoding (KIF
and CSA come as UTF-8 or Shift-JIS), the games of a CSA file (split at its
``/`` lines) or of a KIF collection (see :mod:`remis.variants.kifutext`)
read one by one (a bad game does not hide the others), move lines that the KIF parser would
skip silently (reported as unreadable), board diagrams it cannot read (a
refused game rather than moves replayed from the wrong position), and the
result of a KIF without a closing ``まで`` line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from remis.variants.isolation import IsolatedParser
from remis.variants.kifutext import RecordError, decode, is_kif_move, split_kifu

#: file extensions read as KIF and as CSA
KIF_EXTENSIONS = (".kif", ".kifu")
CSA_EXTENSIONS = (".csa",)

#: the line between two games of a CSA file
CSA_SEPARATOR = re.compile(rb"(?:^|(?<=\n))/\r?\n")

#: what a CSA end code (and a KIF result) says happened
TERMINATIONS = {
    "%TORYO": "resignation", "%CHUDAN": "suspended", "%SENNICHITE": "repetition",
    "%TIME_UP": "time forfeit", "%ILLEGAL_MOVE": "illegal move",
    "%+ILLEGAL_ACTION": "illegal action by sente", "%-ILLEGAL_ACTION": "illegal action by gote",
    "%JISHOGI": "impasse", "%KACHI": "entering-king declaration", "%TSUMI": "checkmate",
    "%HIKIWAKE": "draw", "%MAX_MOVES": "move limit",
}
_DRAW_CODES = ("%SENNICHITE", "%JISHOGI", "%HIKIWAKE", "%MAX_MOVES")
# KIF move-list words that end the game: the side to move lost, or a draw
_KIF_LOSS_WORDS = ("投了", "詰み", "切れ負け")
_KIF_DRAW_WORDS = ("千日手", "持将棋")
_END_CODES = {"投了": "%TORYO", "詰み": "%TSUMI", "切れ負け": "%TIME_UP", "千日手": "%SENNICHITE",
              "持将棋": "%JISHOGI"}
# KIF words the cshogi move pattern does not know but which end the game
_KIF_OTHER_END_WORDS = ("入玉勝ち", "入玉宣言", "不詰", "不戦勝", "不戦敗", "封じ手")
# the pieces that can promote (a KIF move line may add 成 to them only)
_PROMOTABLE = ("歩", "香", "桂", "銀", "角", "飛")
_KIF_NUMBERED = re.compile(r" *([0-9]+)\s+(\S.*)")
_HEADER_NAMES = {"棋戦": "Event", "場所": "Site", "開始日時": "Date", "EVENT": "Event",
                 "SITE": "Site", "START_TIME": "Date"}


@dataclass
class GameRecord:
    """One recorded game, before replay: where it is, its start position,
    moves, recorded result and headers, and ``unread`` (``{"ply",
    "message"}``) when the record cannot be read from that ply on.

    >>> GameRecord(1, 1, 0, "startpos", ["7g7f"]).result is None
    True
    """

    index: int
    line: int
    offset: int
    start: str
    moves: list[str]
    result: str | None = None
    termination: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    unread: dict[str, Any] | None = None
    #: the game cannot be read at all (the message says why)
    error: str | None = None


def _headers(names: list[str | None], info: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in info.items():
        if value:
            out[_HEADER_NAMES.get(key, key)] = value
    for title, name in zip(("Sente", "Gote"), names, strict=False):
        if name:
            out[title] = name
    return out


def _result(win: int | None, endgame: str) -> str:
    import cshogi

    if win == cshogi.BLACK_WIN:
        return "1-0"
    if win == cshogi.WHITE_WIN:
        return "0-1"
    return "1/2-1/2" if endgame in _DRAW_CODES else "*"


def _usi(move: int) -> str:
    import cshogi

    return str(cshogi.move_to_usi(move)) if move else "(none)"


# ---------------------------------------------------------------- CSA
#: one parsed CSA game: start SFEN, USI moves (None: a move the parser could
#: not read or play), end code, cshogi's winner code, player names, $ headers
ParsedCSA = tuple[str, list[str | None], str, int, list[str], dict[str, str]]


def parse_csa_game(text: str) -> ParsedCSA:
    """Parse one CSA game with cshogi's parser (in this process: see
    :class:`~remis.variants.isolation.IsolatedParser` for untrusted input).

    >>> parse_csa_game("PI\\n+\\n+7776FU\\n-9999FU\\n%TORYO\\n")[:3]
    ('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', ['7g7f', None], '%TORYO')
    """
    import cshogi

    p = cshogi.Parser()
    p.parse_csa_str(text)
    moves = [str(cshogi.move_to_usi(m)) if m else None for m in p.moves]
    return (str(p.sfen), moves, str(p.endgame), int(p.win), [str(x) for x in p.names],
            {str(k): str(v) for k, v in p.var_info.items()})


def _csa_summary(text: str) -> tuple[str, str] | None:
    """The result a CSA game server states in its closing comment,
    ``'summary:REASON:SENTE win|lose|draw:GOTE win|lose|draw``: (reason,
    result), or None when there is none or it cannot be read.

    >>> _csa_summary("%SENNICHITE\\n'summary:oute_sennichite:A lose:B win\\n")
    ('oute_sennichite', '0-1')
    >>> _csa_summary("%TORYO\\n'summary:toryo:A draw:B win\\n") is None
    True
    """
    m = re.search(r"^'summary:([^:\n]*):[^\n]* (win|lose|draw):[^\n]* (win|lose|draw)\s*$",
                  text, re.MULTILINE)
    if m is None:
        return None
    outcome = {("win", "lose"): "1-0", ("lose", "win"): "0-1", ("draw", "draw"): "1/2-1/2"}
    result = outcome.get((m[2], m[3]))
    return None if result is None else (m[1], result)


def read_csa(data: bytes, parser: IsolatedParser | None = None, *, line: int = 1,
             offset: int = 0, source: str | None = None) -> Iterator[GameRecord]:
    """The games of a CSA file (several are separated by a ``/`` line).  A
    move the parser cannot read or play makes the rest of that game unread.
    ``data`` starts at line ``line``, byte ``offset`` of its file (a part of
    a file cut at a ``/`` line); ``source``, the file's name, goes into the
    error of a game that crashed the parser.

    >>> text = "V2.2\\nN+Habu\\nN-Hanyu\\nPI\\n+\\n+7776FU\\n-3334FU\\n%TORYO\\n"
    >>> g = next(read_csa(text.encode()))
    >>> g.moves, g.result, g.termination, g.headers
    (['7g7f', '3c3d'], '0-1', 'resignation', {'Sente': 'Habu', 'Gote': 'Hanyu'})
    """
    isolated = parser or IsolatedParser()
    here, n = 0, 0
    bounds = [m.span() for m in re.finditer(CSA_SEPARATOR, data)]
    for begin, end in [*bounds, (len(data), len(data))]:
        part = data[here:begin]
        rec = GameRecord(n + 1, line, offset + here, "startpos", [])
        line += part.count(b"\n") + 1
        here = end
        try:
            text = decode(part).replace("\r\n", "\n")
        except RecordError as exc:
            n += 1
            rec.error = str(exc)
            yield rec
            continue
        if not text.strip():
            continue
        n += 1
        try:
            sfen, moves, endgame, win, names, info = isolated.parse("csa", text)
        except RecordError as exc:
            rec.error = f"{exc} ({_place(rec, source)}; malformed position lines?)"
            yield rec
            continue
        except Exception as exc:  # the parser's C++ errors arrive as several types
            # it counts lines from the game's start: count from the file's
            m = re.match(r"Invalid line (\d+)(.*)", str(exc), re.DOTALL)
            where = f"invalid line {rec.line + int(m[1]) - 1}{m[2]}" if m else str(exc)
            rec.error = f"unreadable CSA: {where}"
            readable = _readable_part(isolated, text)
            if readable is None:
                yield rec
                continue
            bad, (sfen, moves, endgame, win, names, info) = readable
            rec.error = None
            lines = text.split("\n")
            rec.unread = {"line": rec.line + bad, "ply": len(moves) + 1,
                          "message": f"unreadable CSA line {lines[bad].strip()!r}"}
        rec.start = sfen
        if None in moves:
            k = moves.index(None)
            moves = moves[:k]
            rec.unread = {"ply": k + 1, "message": "the CSA parser cannot read or play move "
                          f"{k + 1} of this game"}
            at = _move_line(text, k)
            if at is not None:  # the move's own line, counted from the file's start
                rec.unread["line"] = rec.line + at
        rec.moves = [m for m in moves if m is not None]
        rec.result = _result(win, endgame)
        rec.termination = TERMINATIONS.get(endgame, endgame or None)
        summary = _csa_summary(text)
        if summary is not None:  # the server's verdict, which %SENNICHITE may not tell
            rec.termination, rec.result = summary
        rec.headers = _headers(list(names), info)
        yield rec


#: a CSA move statement: side, from and to squares, piece
_CSA_MOVE = re.compile(r"[+-]\d{4}[A-Z]{2}")


def _move_line(text: str, k: int) -> int | None:
    """The index of the line of a CSA game's ``text`` that holds its move
    ``k`` (from 0), or None when there are fewer; statements may share a line,
    separated by commas, and comment lines hold none.

    >>> _move_line("PI\\n+\\n+7776FU,T3\\n'x\\n-3334FU\\n", 1)
    4
    """
    n = 0
    for i, line in enumerate(text.split("\n")):
        if line.startswith("'"):
            continue
        for statement in line.split(","):
            if _CSA_MOVE.match(statement.strip()):
                if n == k:
                    return i
                n += 1
    return None


def _readable_part(parser: IsolatedParser, text: str) -> tuple[int, ParsedCSA] | None:
    """Where a CSA game the parser refuses goes wrong: ``(index of the first
    line it cannot take, the game parsed up to that line)``, found by
    parsing ever shorter beginnings (a binary search); None when even the
    lines before the first move are refused, or the parser crashes.

    >>> bad, parsed = _readable_part(IsolatedParser(), "PI\\n+\\n+7776FU\\n-3334FU\\n+8822\\n")
    >>> bad, parsed[1]
    (4, ['7g7f', '3c3d'])
    """
    lines = text.split("\n")

    def parsed(n: int) -> ParsedCSA | None:
        try:
            got: ParsedCSA = parser.parse("csa", "\n".join(lines[:n]) + "\n")
        except Exception:  # the parser's errors arrive as several types
            return None
        return got

    good, bad = 0, len(lines)  # parsed(good) succeeds (none: nothing read), parsed(bad) fails
    best = None
    while bad - good > 1:
        mid = (good + bad) // 2
        got = parsed(mid)
        if got is None:
            bad = mid
        else:
            good, best = mid, got
    if best is None or not best[1]:
        return None
    return bad - 1, best


def end_word_result(start: str, ply: int, word: str) -> tuple[str, str]:
    """The result and CSA end code of a game-ending word written in the move
    list at ``ply`` (the side to move there resigned, was mated, lost on
    time; or a draw), for a game from the SFEN ``start``.

    >>> end_word_result("startpos", 3, "投了")
    ('0-1', '%TORYO')
    >>> end_word_result("4k4/9/9/9/9/9/9/9/4K4 w - 1", 3, "投了")  # gote moved first
    ('1-0', '%TORYO')
    >>> end_word_result("startpos", 9, "千日手")
    ('1/2-1/2', '%SENNICHITE')
    """
    code = _END_CODES[word]
    if word in _KIF_DRAW_WORDS:
        return "1/2-1/2", code
    fields = start.split()
    sente_moves_first = len(fields) < 2 or fields[1] == "b"
    sente_lost = (ply % 2 == 1) == sente_moves_first  # the side to move at ``ply`` lost
    return ("0-1" if sente_lost else "1-0"), code


# ---------------------------------------------------------------- KIF
@dataclass
class _KifScan:
    """What the KIF parser would get wrong or leave out (see :func:`_scan_kif`)."""

    #: ply of the first move line it would skip silently
    unreadable: int | None = None
    #: why the whole game must be refused
    refused: str | None = None
    #: the last game-ending word of the move list and its ply
    end_word: tuple[int, str] | None = None
    #: (ply, piece named) of each move line it reads, in order
    pieces: list[tuple[int, str]] = field(default_factory=list)
    #: the line (0-based, in the game's text) of each ply's move
    lines: dict[int, int] = field(default_factory=dict)
    #: (line, ply) of every numbered line
    numbered: list[tuple[int, int]] = field(default_factory=list)

    def where(self, first_line: int, ply: int) -> str:
        """`` (line N)`` of a ply's move in the file, when known."""
        return f" (line {first_line + self.lines[ply]})" if ply in self.lines else ""


def _scan_kif(text: str) -> _KifScan:
    from cshogi.KIF import Parser

    scan = _KifScan()
    lines = text.split("\n")
    if any(raw.startswith("|") for raw in lines):
        scan.refused = ("the KIF has a board diagram (a set-up position), which the KIF "
                        "parser cannot read")
        return scan
    for idx, raw in enumerate(lines):
        m = _KIF_NUMBERED.fullmatch(raw)
        if m is None:
            continue
        body, ply = m.group(2), int(m.group(1))
        if scan.numbered and ply != scan.numbered[-1][1] + 1 and scan.unreadable is None:
            scan.unreadable = scan.numbered[-1][1] + 1  # a move line lost its number
            scan.lines[scan.unreadable] = scan.numbered[-1][0] + 1
        scan.lines.setdefault(ply, idx)
        scan.numbered.append((idx, ply))
        norm = (raw.replace("王", "玉").replace("竜", "龍").replace("成銀", "全")
                .replace("成桂", "圭").replace("成香", "杏"))
        move = Parser.MOVE_RE.match(norm)
        if move is not None and move.group(7) and move.group(5) not in _PROMOTABLE:
            move = None  # 金成, 龍成, ...: cshogi would put a piece that cannot exist
        if move is None:
            if not body.startswith(_KIF_OTHER_END_WORDS) and scan.unreadable is None:
                scan.unreadable = ply
            continue
        if move.group(5):
            scan.pieces.append((ply, move.group(5)))
        word = body.split()[0]
        if word in _KIF_LOSS_WORDS + _KIF_DRAW_WORDS:
            scan.end_word = (ply, word)
    return scan


def _misnamed(moves: list[int], pieces: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The first move whose line names another piece than the one the parser
    moved (it goes by the squares alone): its ply and what is wrong."""
    import cshogi

    for mv, (ply, named) in zip(moves, pieces, strict=False):
        if cshogi.move_is_drop(mv):
            kind, symbols = cshogi.move_drop_hand_piece(mv), cshogi.HAND_PIECE_JAPANESE_SYMBOLS
        else:
            kind, symbols = cshogi.move_from_piece_type(mv), cshogi.PIECE_JAPANESE_SYMBOLS
        moved = symbols[kind] if 0 <= kind < len(symbols) else ""
        if moved == named:
            continue
        if cshogi.move_is_drop(mv) and not moved:
            return ply, f"move {ply} of the KIF drops {named}, a piece that is never in hand"
        there = f"the piece there is {moved}" if moved else "there is no piece there"
        return ply, f"move {ply} of the KIF names {named}, but {there}"
    return None


def read_kif(data: bytes, parser: IsolatedParser | None = None, *, source: str | None = None
             ) -> Iterator[GameRecord]:
    """The games of a KIF file (several follow one another in a collection:
    see :func:`~remis.variants.kifutext.split_kifu`), main lines only:
    variations are not read.  Each game is read in the child parser
    (:class:`~remis.variants.isolation.IsolatedParser`): a crash of cshogi's
    code costs that game alone.

    >>> kif = ("先手：羽生\\n後手：谷川\\n手合割：平手\\n手数----指手---------消費時間--\\n"
    ...        "   1 ７六歩(77)\\n   2 ３四歩(33)\\n   3 投了\\nまで2手で後手の勝ち\\n")
    >>> g = next(read_kif(kif.encode("cp932")))
    >>> g.moves, g.result, g.termination, g.headers["Sente"]
    (['7g7f', '3c3d'], '0-1', 'resignation', '羽生')
    >>> [(g.index, g.line, g.moves) for g in read_kif((kif + kif).encode())]
    [(1, 1, ['7g7f', '3c3d']), (2, 9, ['7g7f', '3c3d'])]
    """
    return read_kifu_games(data, is_kif_move, isolated_reader("kif", parser, source))


def _place(rec: GameRecord, source: str | None) -> str:
    """Where a game is: ``game N, line L`` (``of FILE``)."""
    return f"game {rec.index}, line {rec.line}" + (f" of {source}" if source else "")


def isolated_reader(fmt: str, parser: IsolatedParser | None = None, source: str | None = None
                    ) -> Callable[[GameRecord, str], None]:
    """A ``read_game`` for :func:`read_kifu_games` that reads each game of
    format ``fmt`` (``kif`` or ``ki2``) in the child parser: a game that
    crashes or hangs it, or that our reading code fails on, is a record with
    an error naming it (and ``source``, the file), and the games after it
    are read.

    >>> rec = GameRecord(3, 7, 0, "startpos", [])
    >>> isolated_reader("kif")(rec, "手合割：平手\\n   1 ７六歩(77)\\n")
    >>> rec.moves, rec.error
    (['7g7f'], None)
    """
    isolated = parser or IsolatedParser()

    def read(rec: GameRecord, text: str) -> None:
        try:
            fields = isolated.parse(fmt, text, rec.line)
        except RecordError as exc:
            rec.error = f"{exc} ({_place(rec, source)})"
            return
        except ValueError as exc:  # a bug in our reading code: this game, not the file
            rec.error = f"unreadable {fmt.upper()}: {exc}"
            return
        for name, value in fields.items():
            setattr(rec, name, value)

    return read


def read_kifu_games(data: bytes, is_move: Callable[[str], bool],
                    read_game: Callable[[GameRecord, str], None]) -> Iterator[GameRecord]:
    """The games of a KIF or KI2 file, each cut out with
    :func:`~remis.variants.kifutext.split_kifu` and read into its record by
    ``read_game(record, text)``.

    >>> def moves(rec, text): rec.moves = [x.split()[1] for x in text.split("\\n") if x[:1] == " "]
    >>> [(r.index, r.line, r.moves) for r in read_kifu_games(
    ...     "先手：A\\n 1 ７六歩\\n先手：B\\n 1 ２六歩\\n".encode(), is_kif_move, moves)]
    [(1, 1, ['７六歩']), (2, 3, ['２六歩'])]
    """
    try:
        parts = list(split_kifu(data, is_move))
    except RecordError as exc:
        yield GameRecord(1, 1, 0, "startpos", [], error=str(exc))
        return
    for n, part in enumerate(parts, start=1):
        rec = GameRecord(n, part.line, part.offset, "startpos", [])
        read_game(rec, part.text)
        yield rec


def _read_kif_game(rec: GameRecord, text: str) -> None:
    from cshogi.KIF import Parser

    cut = re.search(r"^変化：", text, re.MULTILINE)
    if cut is not None:
        text = text[:cut.start()]
    text = text.replace("不成(", "(")  # an explicit non-promotion: the parser knows no 不成
    scan = _scan_kif(text)
    end_word = scan.end_word
    if scan.refused is not None:
        rec.error = scan.refused
        return
    if scan.unreadable is not None:  # the parser must not see what we cannot read
        drop = {i for i, ply in scan.numbered if ply >= scan.unreadable}
        text = "\n".join(x for i, x in enumerate(text.split("\n")) if i not in drop)
    try:
        p = Parser.parse_str(text)
    except Exception as exc:  # the parser raises KeyError, IndexError, ... on odd input
        rec.error = f"unreadable KIF: {type(exc).__name__}: {exc}"
        return
    if not (p.moves or p.win is not None or any(p.names) or p.var_info or end_word
            or scan.unreadable):
        rec.error = "no KIF game in the file"
        return
    rec.start = str(p.sfen)
    moves = list(p.moves)
    if scan.unreadable is not None:
        rec.unread = {"ply": scan.unreadable,
                      "message": f"move {scan.unreadable} of the KIF cannot be read"
                                 + scan.where(rec.line, scan.unreadable)}
        moves = moves[:scan.unreadable - 1]
    misnamed = _misnamed(moves, scan.pieces)
    if misnamed is not None:
        rec.unread = {"ply": misnamed[0],
                      "message": misnamed[1] + scan.where(rec.line, misnamed[0])}
        moves = moves[:misnamed[0] - 1]
    rec.moves = [_usi(m) for m in moves]
    endgame = str(p.endgame or "")
    rec.result = _result(p.win, endgame)
    if p.win is None and end_word is not None:
        rec.result, endgame = end_word_result(rec.start, *end_word)
    rec.termination = TERMINATIONS.get(endgame, endgame or None)
    rec.headers = _headers(list(p.names), dict(p.var_info))
    if p.starttime is not None:
        rec.headers["Date"] = p.starttime.strftime("%Y/%m/%d %H:%M:%S")
