"""A plain board for shogi and xiangqi positions: parsed from and written to
pyffish's FEN, and updated by a move that pyffish has already found legal.

This is not a move generator: it only *applies* moves (a piece goes from one
square to another, a captured shogi piece goes unpromoted to the captor's
hand, a dropped one leaves it), so that positions can be identified without a
pyffish call (about 3 ms each, as pyffish re-initialises its tables per call).
"""

from __future__ import annotations

import re

_SIZE = {"shogi": (9, 9), "xiangqi": (9, 10)}
_CELL = re.compile(r"\d+|\+?[A-Za-z]")
_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)(\+?)$")
_DROP = re.compile(r"^([A-Z])@([a-i])(\d+)$")
_HAND_ORDER = "RBGSNLPrbgsnlp"


class Board:
    """Squares, pieces in hand and side to move of one position.

    >>> b = Board.from_fen("shogi", "4k4/9/9/9/9/9/9/5R3/4K4[] w - - 0 1")
    >>> b.play("f2e2"); b.fen()
    '4k4/9/9/9/9/9/9/4R4/4K4[] b - - 0 1'
    """

    __slots__ = ("cells", "files", "hand", "ranks", "turn", "variant")

    def __init__(self, variant: str, cells: list[str], hand: dict[str, int], turn: str) -> None:
        self.variant = variant
        self.files, self.ranks = _SIZE[variant]
        #: square index ``rank * files + file`` (rank 0 at the bottom) -> piece or ""
        self.cells = cells
        #: pieces in hand, upper case for the first player (shogi only)
        self.hand = hand
        #: ``"w"`` (first player: sente, red) or ``"b"``
        self.turn = turn

    @classmethod
    def from_fen(cls, variant: str, fen: str) -> Board:
        """Parse pyffish's FEN (board, ``[hand]`` for shogi, side to move).

        >>> Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[PPb] b").hand
        {'P': 2, 'b': 1}
        """
        files, ranks = _SIZE[variant]
        fields = fen.split()
        board, hand_text = fields[0], ""
        if "[" in board:
            board, hand_text = board.split("[", 1)
            hand_text = hand_text.rstrip("]")
        rows = board.split("/")
        if len(rows) != ranks:
            raise ValueError(f"the board has {len(rows)} ranks, not {ranks}")
        cells = [""] * (files * ranks)
        for i, row in enumerate(rows):
            rank = ranks - 1 - i
            f = 0
            for tok in _CELL.findall(row):
                if tok.isdigit():
                    f += int(tok)
                    continue
                if f >= files:
                    raise ValueError(f"rank {i + 1} of the board has more than {files} squares")
                cells[rank * files + f] = tok
                f += 1
        hand: dict[str, int] = {}
        for p in hand_text:
            if p != "-":
                hand[p] = hand.get(p, 0) + 1
        return cls(variant, cells, hand, fields[1] if len(fields) > 1 else "w")

    def copy(self) -> Board:
        """An independent copy.

        >>> b = Board.from_fen("xiangqi", "4k4/9/9/9/9/9/9/9/5R3/3K5 w"); c = b.copy()
        >>> c.play("f2e2"); b.key() == c.key()
        False
        """
        return Board(self.variant, self.cells.copy(), self.hand.copy(), self.turn)

    def _square(self, file: str, rank: str) -> int:
        return (int(rank) - 1) * self.files + (ord(file) - 97)

    def play(self, move: str) -> None:
        """Apply a *legal* move in pyffish's notation (``c3c4``, ``b2h8+``,
        ``P@e5``).

        >>> b = Board.from_fen("shogi", "4k4/9/9/9/9/9/9/1B5r1/4K4[] w - - 0 1")
        >>> b.play("b2h2+"); b.hand, b.cells[1 * 9 + 7], b.turn
        ({'R': 1}, '+B', 'b')
        """
        cells = self.cells
        first = self.turn == "w"
        m = _MOVE.match(move)
        if m is not None:
            src = self._square(m[1], m[2])
            dst = self._square(m[3], m[4])
            piece = cells[src]
            taken = cells[dst]
            if taken and self.variant == "shogi":
                base = taken[-1]
                p = base.upper() if first else base.lower()
                self.hand[p] = self.hand.get(p, 0) + 1
            cells[src] = ""
            cells[dst] = "+" + piece if m[5] else piece
        else:
            d = _DROP.match(move)
            if d is None:
                raise ValueError(f"cannot apply {move!r}")
            p = d[1] if first else d[1].lower()
            n = self.hand[p] - 1
            if n:
                self.hand[p] = n
            else:
                del self.hand[p]
            cells[self._square(d[2], d[3])] = p
        self.turn = "b" if first else "w"

    def key(self) -> str:
        """The identity for repetition: board, pieces in hand, side to move.

        >>> a = Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[Pb] w")
        >>> a.key() == Board.from_fen("shogi", "9/9/9/9/9/9/9/9/k7K[bP] w").key()
        True
        """
        hand = "".join(f"{p}{self.hand[p]}" for p in _HAND_ORDER if p in self.hand)
        return f"{','.join(self.cells)}|{hand}|{self.turn}"

    def fen(self) -> str:
        """The position in pyffish's FEN.

        >>> Board.from_fen("xiangqi", "4k4/9/9/9/9/9/9/9/5R3/3K5 w").fen()
        '4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1'
        """
        rows = []
        for rank in range(self.ranks - 1, -1, -1):
            row, empty = [], 0
            for p in self.cells[rank * self.files:(rank + 1) * self.files]:
                if not p:
                    empty += 1
                    continue
                if empty:
                    row.append(str(empty))
                    empty = 0
                row.append(p)
            if empty:
                row.append(str(empty))
            rows.append("".join(row))
        hand = ""
        if self.variant == "shogi":
            hand = "[" + "".join(p * self.hand[p] for p in _HAND_ORDER if p in self.hand) + "]"
        return f"{'/'.join(rows)}{hand} {self.turn} - - 0 1"
