"""Reading variant game files into :class:`~remis.variants.kifu.GameRecord`
objects, by extension: ``.kif``/``.kifu``, ``.ki2``/``.ki2u`` and ``.csa``
(shogi, through :mod:`remis.variants.kifu` and :mod:`remis.variants.ki2`),
anything else one game per line (see :mod:`remis.variants.game`), and
:func:`rule_on_record` to rule on one.

A record that cannot be read keeps its place (game number, line, byte
offset) and carries the reason in ``error``: it never stops the file.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from remis.variants.game import (
    VariantGameRuling,
    rule_on_moves,
    split_claim,
    split_game_line,
    split_result,
)
from remis.variants.history import VariantError
from remis.variants.ki2 import KI2_EXTENSIONS, read_ki2
from remis.variants.kifu import (
    CSA_EXTENSIONS,
    KIF_EXTENSIONS,
    TERMINATIONS,
    GameRecord,
    read_csa,
    read_kif,
)

#: what a folder given to ``remis audit --variant`` is searched for
VARIANT_SUFFIXES = (*KIF_EXTENSIONS, *KI2_EXTENSIONS, *CSA_EXTENSIONS, ".txt")


def expand_variant_paths(paths: list[str]) -> list[str]:
    """Files as given; folders searched (recursively, sorted) for game-line
    (``.txt``), KIF, KI2 and CSA files.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for n in ("b.kif", "a.txt", "c.pgn"): _ = open(os.path.join(d, n), "w")
    >>> [os.path.basename(p) for p in expand_variant_paths([d, "-"])]
    ['a.txt', 'b.kif', '-']
    """
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            out.extend(sorted(str(f) for f in Path(p).rglob("*")
                              if f.is_file() and f.name.lower().endswith(VARIANT_SUFFIXES)))
        else:
            out.append(p)
    return out


def record_format(path: str) -> str:
    """``kif``, ``ki2``, ``csa`` or ``lines``, from the file name.

    >>> record_format("a.KIF"), record_format("b.csa"), record_format("c.txt"), record_format("-")
    ('kif', 'csa', 'lines', 'lines')
    >>> record_format("d.ki2"), record_format("e.ki2u")
    ('ki2', 'ki2')
    """
    ext = os.path.splitext(path)[1].lower()
    if ext in KIF_EXTENSIONS:
        return "kif"
    if ext in KI2_EXTENSIONS:
        return "ki2"
    if ext in CSA_EXTENSIONS:
        return "csa"
    return "lines"


def read_lines(lines: Iterable[bytes], variant: str, *, line: int = 1, offset: int = 0,
               index: int = 1) -> Iterator[GameRecord]:
    """Game lines (bytes, UTF-8) as records; blank and ``#`` lines are
    skipped, a bad line is a record with an ``error``.  The first line is
    line ``line`` of its file, at byte ``offset``, and its first game is game
    ``index`` (a part of a file read on its own).

    >>> recs = list(read_lines([b"# x\\n", b"startpos 7g7f result 1-0\\n", b"startpos x y z\\n"],
    ...                        "shogi"))
    >>> [(r.index, r.line, r.offset, r.moves, r.result) for r in recs]
    [(1, 2, 4, ['7g7f'], '1-0'), (2, 3, 29, ['x', 'y', 'z'], None)]
    >>> [(r.index, r.line, r.offset) for r in read_lines([b"startpos\\n"], "shogi", line=9,
    ...                                                  offset=70, index=4)]
    [(4, 9, 70)]
    >>> [r.moves for r in read_lines([b"\\xef\\xbb\\xbfstartpos 7g7f\\n"], "shogi")]
    [['7g7f']]
    """
    index -= 1
    for n, raw in enumerate(lines, start=line):
        here = offset
        offset += len(raw)
        try:
            text = raw.decode("utf-8").strip()
            if here == 0:  # a byte-order mark opening the file (or stdin) is no text
                text = text.lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            index += 1
            yield GameRecord(index, n, here, "", [],
                             error=f"line {n} is not UTF-8 text (byte {exc.start})")
            continue
        if not text or text.startswith("#"):
            continue
        index += 1
        try:
            body, result = split_result(text)
            start, moves = split_game_line(body, variant)
            moves, claim = split_claim(moves)
            if claim is not None and variant != "shogi":
                raise VariantError(f"'declare' and 'impasse' end shogi games only, not {variant}")
        except VariantError as exc:
            yield GameRecord(index, n, here, text, [], error=str(exc))
            continue
        yield GameRecord(index, n, here, start, moves, result,
                         None if claim is None else _CLAIM_TERMINATIONS[claim])


def check_format(path: str, variant: str) -> str:
    """The record format of ``path`` (see :func:`record_format`); raises
    ValueError when the format is not one of ``variant``, or its parser is
    not installed.

    >>> check_format("a.csa", "shogi")
    'csa'
    >>> check_format("a.kif", "xiangqi")
    Traceback (most recent call last):
    ValueError: KIF is a shogi format, not xiangqi
    """
    fmt = record_format(path)
    if fmt != "lines" and variant != "shogi":
        raise ValueError(f"{fmt.upper()} is a shogi format, not {variant}")
    if fmt != "lines":
        try:
            import cshogi  # noqa: F401 - the KIF, KI2 and CSA parsers
        except ImportError:
            raise ValueError(f"reading {fmt.upper()} needs cshogi: "
                             "pip install 'remis[variants]'") from None
    return fmt


def read_records(path: str, variant: str) -> Iterator[GameRecord]:
    """The games of ``path`` (``-``: game lines on stdin), read by its
    extension; KIF, KI2 and CSA are shogi formats.  Raises OSError when the file
    cannot be opened.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.csa")
    >>> _ = open(p, "w").write("PI\\n+\\n+7776FU\\n%TORYO\\n")
    >>> [(r.moves, r.result) for r in read_records(p, "shogi")]
    [(['7g7f'], '1-0')]
    """
    fmt = check_format(path, variant)
    if path == "-":
        yield from read_lines(sys.stdin.buffer, variant)
        return
    with open(path, "rb") as f:
        if fmt == "lines":
            yield from read_lines(f, variant)
            return
        data = f.read()
    yield from {"kif": read_kif, "ki2": read_ki2, "csa": read_csa}[fmt](data, source=path)


def read_records_range(path: str, variant: str, start: int, end: int) -> Iterator[GameRecord]:
    """The games of bytes ``[start, end)`` of ``path``, a range cut at a game
    boundary (a line of a game-line file, a ``/`` line of a CSA file; KIF and
    KI2 files are read whole), numbered from 1, with their lines and byte
    offsets in the file.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(p, "wb").write(b"startpos 7g7f\\n\\nstartpos 2g2f\\n")
    >>> [(r.index, r.line, r.offset, r.moves) for r in read_records_range(p, "shogi", 14, 29)]
    [(1, 3, 15, ['2g2f'])]
    """
    fmt = check_format(path, variant)
    with open(path, "rb") as f:
        line = 1
        while f.tell() < start:
            line += f.read(min(1 << 20, start - f.tell())).count(b"\n")
        data = f.read(end - start)
    if fmt == "lines":
        yield from read_lines(io.BytesIO(data), variant, line=line, offset=start)
    elif fmt == "csa":
        yield from read_csa(data, line=line, offset=start, source=path)
    else:
        if start != 0:
            raise ValueError(f"{fmt.upper()} files are read whole, not from byte {start}")
        yield from (read_kif if fmt == "kif" else read_ki2)(data, source=path)


#: the termination a record gets from the claim that ends it, and back
_CLAIM_TERMINATIONS = {"declaration": TERMINATIONS["%KACHI"], "impasse": TERMINATIONS["%JISHOGI"]}


def record_claim(rec: GameRecord) -> str | None:
    """The claim a shogi record ends with: ``"declaration"`` (CSA ``%KACHI``,
    KIF 入玉宣言 / 入玉勝ち), ``"impasse"`` (CSA ``%JISHOGI``, KIF 持将棋) or None.

    >>> record_claim(GameRecord(1, 1, 0, "startpos", [], termination="entering-king declaration"))
    'declaration'
    """
    return {v: k for k, v in _CLAIM_TERMINATIONS.items()}.get(rec.termination or "")


def rule_on_record(rec: GameRecord, variant: str, *, repetitions: int | None = None,
                   notation: str | None = None) -> VariantGameRuling:
    """Replay a record and rule on it (see
    :func:`remis.variants.game.rule_on_moves`); an unreadable record is a
    ruling with an error at ply 0.

    >>> g = rule_on_record(GameRecord(2, 5, 0, "startpos", ["7g7f"], "1-0"), "shogi")
    >>> g.game, g.line, g.plies, g.recorded_result
    (2, 5, 1, '1-0')
    >>> rule_on_record(GameRecord(1, 1, 0, "", [], error="bad"), "shogi").error
    {'line': 1, 'ply': 0, 'message': 'bad'}
    """
    if rec.error is not None:
        g = VariantGameRuling(rec.line, variant, rec.start, 0, None,
                              {"line": rec.line, "ply": 0, "message": rec.error},
                              recorded_result=rec.result)
    else:
        g = rule_on_moves(rec.start, rec.moves, variant, line=rec.line, repetitions=repetitions,
                          notation=notation, recorded_result=rec.result, unread=rec.unread,
                          claim=record_claim(rec) if variant == "shogi" else None)
    g.game = rec.index
    g.headers = rec.headers
    return g
