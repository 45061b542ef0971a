"""Translation between the notations players use and pyffish's.

* Shogi: SFEN positions and USI moves (``7g7f``, ``8h2b+``, ``P*5e``).  USI
  numbers files 1-9 from sente's right and letters ranks a-i from gote's
  side; pyffish uses chess-like squares (``c3c4``, ``P@e5``) and calls the
  first player (sente) ``w``.
* Xiangqi: FEN (``w``/``r`` = red, WXF letters ``h``/``e`` accepted for
  horse/elephant) with UCI moves (ranks 1-10, pyffish's own) or ICCS moves
  (ranks 0-9, optionally written ``H2-E2``).

Every function raises :class:`NotationError` (a ``ValueError``) with a message
naming what is wrong.
"""

from __future__ import annotations

import re

_HAND_PIECES = "PLNSGBRplnsgbr"
_USI_BOARD = re.compile(r"^([1-9])([a-i])([1-9])([a-i])(\+?)$")
_USI_DROP = re.compile(r"^([PLNSGBR])\*([1-9])([a-i])$")
_FF_BOARD = re.compile(r"^([a-i])([1-9])([a-i])([1-9])(\+?)$")
_FF_DROP = re.compile(r"^([PLNSGBR])@([a-i])([1-9])$")
_ICCS = re.compile(r"^([a-i])([0-9])-?([a-i])([0-9])$")
_XQ_UCI = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")


class NotationError(ValueError):
    """A position or move that cannot be read.

    >>> issubclass(NotationError, ValueError)
    True
    """


def check_board(board: str, files: int, ranks: int) -> None:
    """Check that a FEN board field has ``ranks`` ranks of ``files`` squares
    (pyffish silently accepts short ranks).

    >>> try: check_board("9/9/9/9/9/9/9/9/4k3", 9, 9)
    ... except NotationError as e: print(e)
    rank 9 of the board has 8 squares, not 9
    """
    rows = board.split("/")
    if len(rows) != ranks:
        raise NotationError(f"the board has {len(rows)} ranks, not {ranks}")
    for i, row in enumerate(rows, start=1):
        n = sum(int(t) if t.isdigit() else 1 for t in re.findall(r"\d+|[a-zA-Z]", row))
        if n != files:
            raise NotationError(f"rank {i} of the board has {n} squares, not {files}")


# ---------------------------------------------------------------- shogi
def _usi_square(file: str, rank: str) -> str:
    return f"{chr(ord('a') + 9 - int(file))}{9 - (ord(rank) - ord('a'))}"


def _ff_square(file: str, rank: str) -> str:
    return f"{9 - (ord(file) - ord('a'))}{chr(ord('a') + 9 - int(rank))}"


def usi_to_move(usi: str) -> str:
    """Translate a USI move into pyffish's notation.

    >>> usi_to_move("7g7f"), usi_to_move("8h2b+"), usi_to_move("P*5e")
    ('c3c4', 'b2h8+', 'P@e5')
    >>> try: usi_to_move("7g7")
    ... except NotationError as e: print(e)
    '7g7' is not a USI move (like 7g7f, 8h2b+ or P*5e)
    """
    m = _USI_BOARD.match(usi)
    if m:
        return _usi_square(m[1], m[2]) + _usi_square(m[3], m[4]) + m[5]
    m = _USI_DROP.match(usi)
    if m:
        return f"{m[1]}@{_usi_square(m[2], m[3])}"
    raise NotationError(f"{usi!r} is not a USI move (like 7g7f, 8h2b+ or P*5e)")


def move_to_usi(move: str) -> str:
    """Translate a pyffish shogi move back into USI.

    >>> move_to_usi("c3c4"), move_to_usi("b2h8+"), move_to_usi("P@e5")
    ('7g7f', '8h2b+', 'P*5e')
    """
    m = _FF_BOARD.match(move)
    if m:
        return _ff_square(m[1], m[2]) + _ff_square(m[3], m[4]) + m[5]
    m = _FF_DROP.match(move)
    if m:
        return f"{m[1]}*{_ff_square(m[2], m[3])}"
    raise NotationError(f"{move!r} is not a pyffish shogi move")


def _hand(text: str) -> str:
    if text == "-":
        return ""
    out: list[str] = []
    for count, piece in re.findall(r"(\d*)(.)", text):
        if piece not in _HAND_PIECES:
            raise NotationError(f"SFEN hand {text!r}: {piece!r} cannot be held in hand")
        n = int(count) if count else 1
        if not 1 <= n <= 18:
            raise NotationError(f"SFEN hand {text!r}: count {n} of {piece!r} is impossible")
        out.append(piece * n)
    return "".join(out)


def sfen_to_fen(sfen: str) -> str:
    """Translate an SFEN (board, side ``b``/``w``, hand, optional move number)
    into pyffish's shogi FEN.  Only the syntax is checked here; the position
    itself is checked by :func:`remis.variants.ffish.validate`.

    >>> sfen_to_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1'
    >>> sfen_to_fen("8k/9/9/9/9/9/9/9/K8 w 2Pb")
    '8k/9/9/9/9/9/9/9/K8[PPb] b - - 0 1'
    >>> try: sfen_to_fen("8k/9/9/9/9/9/9/9/K8 x -")
    ... except NotationError as e: print(e)
    SFEN side to move must be b (sente) or w (gote), not 'x'
    """
    fields = sfen.split()
    if len(fields) not in (3, 4):
        raise NotationError(
            f"SFEN needs 3 or 4 fields (board, side, hand[, move number]), got {len(fields)}")
    board, side, hand = fields[:3]
    if side not in ("b", "w"):
        raise NotationError(f"SFEN side to move must be b (sente) or w (gote), not {side!r}")
    if len(fields) == 4 and not fields[3].isdigit():
        raise NotationError(f"SFEN move number must be a number, not {fields[3]!r}")
    if not re.fullmatch(r"[1-9+a-zA-Z/]+", board):
        raise NotationError(f"SFEN board {board!r} has characters that are not pieces")
    check_board(board, 9, 9)
    check_shogi_board(board)
    return f"{board}[{_hand(hand)}] {'w' if side == 'b' else 'b'} - - 0 1"


def check_shogi_board(board: str) -> None:
    """Reject what pyffish lets through: a pawn, lance or knight with no move
    left (on the last rank, or the last two for a knight), and two unpromoted
    pawns of one side on a file (*nifu*).

    >>> try: check_shogi_board("4k3P/9/9/9/9/9/9/9/4K4")
    ... except NotationError as e: print(e)
    sente P on rank a (USI square 1a) could never move again
    >>> try: check_shogi_board("4k4/9/9/9/9/9/P8/P8/4K4")
    ... except NotationError as e: print(e)
    two unpromoted sente pawns on file 9 (nifu)
    """
    pawns: set[tuple[str, int]] = set()
    for r, row in enumerate(board.split("/")):
        f = 0
        for tok in re.findall(r"\d+|\+?[a-zA-Z]", row):
            if tok.isdigit():
                f += int(tok)
                continue
            side = "sente" if tok.isupper() else "gote"
            last = r if side == "sente" else 8 - r  # 0 = the side's last rank
            kind = tok.upper()
            square = f"{9 - f}{chr(ord('a') + r)}"
            if (kind in ("P", "L") and last == 0) or (kind == "N" and last <= 1):
                raise NotationError(f"{side} {kind} on rank {chr(ord('a') + r)} "
                                    f"(USI square {square}) could never move again")
            if kind == "P":
                if (side, f) in pawns:
                    raise NotationError(f"two unpromoted {side} pawns on file {9 - f} (nifu)")
                pawns.add((side, f))
            f += 1


# -------------------------------------------------------------- xiangqi
def xiangqi_fen(fen: str) -> str:
    """Normalise a xiangqi FEN for pyffish: red may be ``w`` or ``r``; WXF
    letters ``h``/``e`` become ``n``/``b``; missing counters are added.

    >>> xiangqi_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
    """
    fields = fen.split()
    if not 2 <= len(fields) <= 6:
        raise NotationError(
            f"xiangqi FEN needs 2 to 6 fields (board, side, ...), got {len(fields)}")
    board, side = fields[0], fields[1]
    if side not in ("w", "r", "b"):
        raise NotationError(f"FEN side to move must be w or r (red) or b (black), not {side!r}")
    if not re.fullmatch(r"[1-9a-zA-Z/]+", board):
        raise NotationError(f"FEN board {board!r} has characters that are not pieces")
    check_board(board, 9, 10)
    board = board.translate(str.maketrans("hHeE", "nNbB"))
    return f"{board} {'b' if side == 'b' else 'w'} - - 0 1"


def xiangqi_notation(moves: list[str]) -> str:
    """Guess the notation of a xiangqi move list: ``"iccs"`` if a move has a
    dash or a rank 0, else ``"uci"`` (pyffish's ranks 1-10).

    >>> xiangqi_notation(["h2e2", "h9g7"]), xiangqi_notation(["h2-e2"]), xiangqi_notation(["b0c2"])
    ('uci', 'iccs', 'iccs')
    """
    for m in moves:
        s = m.lower()
        if "-" in s:
            return "iccs"
        if _ICCS.match(s) and not _XQ_UCI.match(s):
            return "iccs"
    return "uci"


def xiangqi_move(move: str, notation: str) -> str:
    """Translate a xiangqi move (``notation`` ``"uci"`` or ``"iccs"``) into
    pyffish's notation.

    >>> xiangqi_move("H2-E2", "iccs"), xiangqi_move("b10c8", "uci")
    ('h3e3', 'b10c8')
    """
    s = move.lower()
    if notation == "iccs":
        m = _ICCS.match(s)
        if not m:
            raise NotationError(f"{move!r} is not an ICCS move (like h2e2 or H2-E2)")
        return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"
    m = _XQ_UCI.match(s)
    if not m:
        raise NotationError(f"{move!r} is not a UCI xiangqi move (like h3e3 or b10c8)")
    return s


def move_to_iccs(move: str) -> str:
    """Translate a pyffish xiangqi move into ICCS (ranks 0-9).

    >>> move_to_iccs("b10c8"), move_to_iccs("h3e3")
    ('b9c7', 'h2e2')
    """
    m = _XQ_UCI.match(move)
    if not m:
        raise NotationError(f"{move!r} is not a pyffish xiangqi move")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"
