"""Xiangqi positions that no game can reach, which pyffish lets through: a
general, advisor or elephant off the points it is confined to, a soldier behind
its starting rank (or beside it before crossing the river), and two generals
facing each other on an open file (the side to move could capture one).
"""

from __future__ import annotations

from remis.variants.board import Board
from remis.variants.notation import NotationError

# (file 0-8 = a-i, rank 1-10) for red; black's are mirrored (rank 11 - r)
_PALACE = {(f, r) for f in (3, 4, 5) for r in (1, 2, 3)}
_ADVISOR = {(3, 1), (5, 1), (4, 2), (3, 3), (5, 3)}
_ELEPHANT = {(2, 1), (6, 1), (0, 3), (4, 3), (8, 3), (2, 5), (6, 5)}
_NAMES = {"K": "general", "A": "advisor", "B": "elephant", "P": "soldier"}


def _squares(board: str) -> dict[tuple[int, int], str]:
    """The pieces of a FEN board field by (file, rank), ranks 1-10 from red's side."""
    cells = Board.from_fen("xiangqi", board).cells
    return {(i % 9, i // 9 + 1): tok for i, tok in enumerate(cells) if tok}


def _misplaced(kind: str, f: int, r: int) -> bool:
    """Whether a red piece of ``kind`` can never stand on (f, r)."""
    if kind == "K":
        return (f, r) not in _PALACE
    if kind == "A":
        return (f, r) not in _ADVISOR
    if kind == "B":
        return (f, r) not in _ELEPHANT
    if kind == "P":  # starts on rank 4, even files; moves sideways only across the river
        return r < 4 or (r <= 5 and f % 2 == 1)
    return False


def check_xiangqi_board(board: str) -> None:
    """Raise :class:`NotationError` naming the first impossible placement in a
    well-formed xiangqi FEN board field (as :func:`~remis.variants.notation.check_board`
    checks it; letters ``n``/``b`` for horse and elephant).

    >>> check_xiangqi_board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
    >>> try: check_xiangqi_board("k8/9/9/9/9/9/9/9/9/4K4")
    ... except NotationError as e: print(e)
    the black general on a10 is outside its palace
    >>> try: check_xiangqi_board("3k5/9/9/9/9/9/9/9/9/4K4")
    ... except NotationError as e: print(e)
    >>> try: check_xiangqi_board("4k4/9/9/9/9/9/9/9/9/4K4")
    ... except NotationError as e: print(e)
    the generals face each other on file e with nothing between them
    """
    pieces = _squares(board)
    generals: dict[bool, tuple[int, int]] = {}
    for (f, r), tok in pieces.items():
        red = tok.isupper()
        kind = tok.upper()
        if _misplaced(kind, f, r if red else 11 - r):
            where = "outside its palace" if kind == "K" else "on a point it can never reach"
            raise NotationError(f"the {'red' if red else 'black'} {_NAMES[kind]} on "
                                f"{'abcdefghi'[f]}{r} is {where}")
        if kind == "K":
            generals[red] = (f, r)
    if len(generals) == 2 and generals[True][0] == generals[False][0]:
        f, low = generals[True]
        high = generals[False][1]
        if not any((f, r) in pieces for r in range(low + 1, high)):
            raise NotationError(f"the generals face each other on file {'abcdefghi'[f]} "
                                "with nothing between them")
