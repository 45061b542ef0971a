"""Xiangqi perpetual chase: which pieces a move chases, as the Asian Xiangqi
Federation (AXF) rules define a chase and as Fairy-Stockfish applies them
(``chasingRule = axf``), computed on our own :class:`~remis.variants.board.Board`.

A move *chases* an opponent's piece when, after it, one of the mover's pieces
newly threatens to capture that piece and the capture would win it:

* the piece is not protected, or its only protection is false (the protector
  is pinned against its own general, or is the general and capturing back
  would leave the generals facing each other);
* or the attacker is worth less: a horse or cannon attacking a chariot, an
  elephant or advisor attacking a chariot, cannon or horse (protected or not).

Not chases: attacks by the general or by a soldier (their direct attacks),
attacks on the general (that is check) and on soldiers that have not crossed
the river, and an attack on a piece of the same kind that attacks back (a
chariot facing a chariot), unless the attacked one is pinned, or is a horse
that cannot attack back because its leg is blocked.  A move that pins a
protector newly makes the pieces it protected chased, and a move that
prepares a discovered check threatens the pieces the discovered piece then
attacks (unless the general can safely take back).

Squares are indices ``rank * 9 + file`` of :attr:`Board.cells` (rank 0 is
Red's back rank); red pieces are upper case.
"""

from __future__ import annotations

from collections.abc import Iterable

from remis.variants.board import Board

FILES, RANKS = 9, 10
_ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# a horse's eight jumps as (leg, target) offsets
_HORSE = tuple((leg, (2 * leg[0] + side[0], 2 * leg[1] + side[1]))
               for leg in _ORTH for side in ((leg[1], leg[0]), (-leg[1], -leg[0])))
#: the English name of each piece letter (the rulings' words)
PIECE_NAMES = {"K": "general", "A": "advisor", "B": "elephant", "N": "horse",
               "R": "chariot", "C": "cannon", "P": "soldier"}


def square_name(sq: int) -> str:
    """The square in pyffish's (and UCI's) coordinates.

    >>> square_name(0), square_name(89)
    ('a1', 'i10')
    """
    return f"{'abcdefghi'[sq % FILES]}{sq // FILES + 1}"


def parse_square(text: str) -> int:
    """The index of a square written ``a1``..``i10``.

    >>> parse_square("e10")
    85
    """
    return (int(text[1:]) - 1) * FILES + ord(text[0]) - 97


def _red(piece: str) -> bool:
    return piece.isupper()


def _on(f: int, r: int) -> bool:
    return 0 <= f < FILES and 0 <= r < RANKS


def _in_palace(red: bool, f: int, r: int) -> bool:
    return 3 <= f <= 5 and (r <= 2 if red else r >= 7)


def _own_half(red: bool, r: int) -> bool:
    return r <= 4 if red else r >= 5


def _across(red: bool, r: int) -> bool:
    """Whether a soldier on rank ``r`` has crossed the river."""
    return r >= 5 if red else r <= 4


class Geometry:
    """Attacks on one board, with the occupancy given per question (so that a
    piece can be taken off, as the protection test needs).

    >>> g = Geometry(Board.from_fen("xiangqi", "4k4/9/n8/9/9/9/9/R8/9/3K5 b"))
    >>> [square_name(s) for s in g.attacks(parse_square("a3"), g.occupied)]
    ['a8']
    >>> [square_name(s) for s in g.attacks(parse_square("e10"), g.occupied)]
    ['f10', 'd10', 'e9']
    """

    __slots__ = ("cells", "occupied")

    def __init__(self, board: Board) -> None:
        self.cells = board.cells
        self.occupied = frozenset(i for i, p in enumerate(board.cells) if p)

    def piece(self, sq: int) -> str:
        return self.cells[sq]

    def squares(self, red: bool, kinds: str = "KABNRCP") -> set[int]:
        """The squares of one side's pieces of ``kinds``."""
        return {i for i, p in enumerate(self.cells)
                if p and _red(p) == red and p.upper() in kinds}

    def king(self, red: bool) -> int | None:
        k = self.squares(red, "K")
        return next(iter(k)) if k else None

    def attacks(self, sq: int, occ: frozenset[int] | set[int], kind: str | None = None,
                red: bool | None = None) -> list[int]:
        """Squares the piece on ``sq`` (or a piece of ``kind`` and side
        ``red`` placed there) attacks: for a chariot or cannon the occupied
        squares it could capture on, for the others every square it could
        capture on if an enemy stood there.  The palace, the river and the
        soldier's direction confine the general, advisors, elephants and
        soldiers (a piece cannot chase where it cannot capture)."""
        piece = self.cells[sq]
        kind = kind or piece.upper()
        red = _red(piece) if red is None else red
        f, r = sq % FILES, sq // FILES
        out: list[int] = []
        if kind in "RC":
            for df, dr in _ORTH:
                x, y, screened = f + df, r + dr, False
                while _on(x, y):
                    s = y * FILES + x
                    if s in occ:
                        if kind == "R" or screened:
                            out.append(s)
                            break
                        screened = True
                    x, y = x + df, y + dr
        elif kind == "N":
            for (lf, lr), (tf, tr) in _HORSE:
                if _on(f + tf, r + tr) and (f + lf) + (r + lr) * FILES not in occ:
                    out.append((r + tr) * FILES + f + tf)
        elif kind == "B":
            for df, dr in _DIAG:
                x, y = f + 2 * df, r + 2 * dr
                if _on(x, y) and (f + df) + (r + dr) * FILES not in occ and _own_half(red, y):
                    out.append(y * FILES + x)
        elif kind in "KA":
            for df, dr in _ORTH if kind == "K" else _DIAG:
                x, y = f + df, r + dr
                if _on(x, y) and _in_palace(red, x, y):
                    out.append(y * FILES + x)
        elif kind == "P":
            ahead = 1 if red else -1
            steps = [(0, ahead)]
            if _across(red, r):
                steps += [(1, 0), (-1, 0)]
            out += [(r + dr) * FILES + f + df for df, dr in steps if _on(f + df, r + dr)]
        return out

    def attackers(self, sq: int, occ: frozenset[int] | set[int], red: bool) -> set[int]:
        """The squares of side ``red``'s pieces that attack ``sq``, the board
        occupied as ``occ`` says (a piece off ``occ`` attacks nothing)."""
        out = set()
        for s in occ:
            p = self.cells[s]
            if p and _red(p) == red and s != sq and sq in self.attacks(s, occ):
                out.add(s)
        return out

    def blockers(self, red: bool) -> set[int]:
        """Pieces of either side that stand between side ``red``'s general
        and an enemy chariot, cannon or horse that would attack it if they
        were gone (pinned pieces, and pieces that can uncover a check)."""
        ks = self.king(red)
        if ks is None:
            return set()
        occ = self.occupied
        kf, kr = ks % FILES, ks // FILES
        out: set[int] = set()
        enemy = self.squares(not red, "RCN")
        checking = self.attackers(ks, occ, not red)
        # chariots that do not check: their line is blocked by exactly one piece
        rooks = {s for s in enemy if self.cells[s].upper() == "R" and s not in checking
                 and (s % FILES == kf or s // FILES == kr)}
        for s in enemy - checking:
            kind = self.cells[s].upper()
            if kind == "N":
                df, dr = s % FILES - kf, s // FILES - kr
                if sorted((abs(df), abs(dr))) != [1, 2]:
                    continue
                # the leg is next to the horse, towards the general's long side
                leg = (s - (1 if df > 0 else -1) if abs(df) == 2
                       else s - (FILES if dr > 0 else -FILES))
                if leg in occ:
                    out.add(leg)
                continue
            if s % FILES != kf and s // FILES != kr:
                continue
            between = _between(ks, s)
            if kind == "R":
                b = [x for x in between if x in occ and x not in rooks]
                if len(b) == 1:
                    out.update(b)
            else:
                b = [x for x in between if x in occ]
                if 1 <= len(b) <= 2:
                    out.update(b)
        return out


def _between(a: int, b: int) -> list[int]:
    """The squares strictly between two squares on one rank or file."""
    step = 1 if a // FILES == b // FILES else FILES
    lo, hi = min(a, b), max(a, b)
    return list(range(lo + step, hi, step))


def _line(a: int, b: int) -> set[int]:
    """The whole rank or file through two squares."""
    if a // FILES == b // FILES:
        r = a // FILES
        return set(range(r * FILES, (r + 1) * FILES))
    return set(range(a % FILES, FILES * RANKS, FILES))


def _move_squares(move: str) -> tuple[int, int]:
    i = 2 if move[2].isalpha() else 3
    return parse_square(move[:i]), parse_square(move[i:].rstrip("+"))


def chased(before: Board, after: Board, move: str) -> dict[int, int]:
    """The pieces that ``move`` (pyffish notation, played from ``before`` to
    ``after``) chases: square of the chased piece (in ``after``) -> square of
    the piece that chases it.

    >>> b = Board.from_fen("xiangqi", "4k4/9/n8/9/9/9/9/R8/9/3K5 w")
    >>> a = b.copy(); a.play("a3b3")
    >>> {square_name(k): square_name(v) for k, v in chased(b, a, "a3b3").items()}
    {}
    >>> b = Board.from_fen("xiangqi", "4k4/9/1n7/9/9/9/9/R8/9/3K5 w")
    >>> a = b.copy(); a.play("a3b3")
    >>> {square_name(k): square_name(v) for k, v in chased(b, a, "a3b3").items()}
    {'b8': 'b3'}
    """
    g = Geometry(after)
    red = after.turn == "w"  # the chased side
    occ = g.occupied
    pins = g.blockers(red)
    mover_king = g.king(not red)
    own_king = g.king(red)
    if mover_king is not None and own_king is not None and own_king % FILES == mover_king % FILES:
        # flying generals: the only piece of ours on the file between them is pinned too
        on_file = {s for s in g.squares(red) if s % FILES == mover_king % FILES} - {own_king}
        if len(on_file) <= 1:
            pins |= on_file
    out: dict[int, int] = {}

    def add(attacker: int, kind: str, attacked: Iterable[int]) -> None:
        targets = {s for s in attacked
                   if not (g.piece(s).upper() == "K"
                           or (g.piece(s).upper() == "P" and not _across(red, s // FILES)))}
        for s in targets:
            victim = g.piece(s).upper()
            if (kind in "NC" and victim == "R") or (kind in "BA" and victim in "RCN"):
                out.setdefault(s, attacker)
        if kind == "N" and any(_on(attacker % FILES + df, attacker // FILES + dr)
                               and attacker + df + dr * FILES in occ for df, dr in _DIAG):
            # a horse may attack a horse that cannot attack it back (blocked leg)
            targets = {s for s in targets if g.piece(s).upper() != "N"
                       or attacker not in g.attacks(s, occ)}
        else:
            targets = {s for s in targets if g.piece(s).upper() != kind or s in pins}
        rest = occ - {attacker}
        for s in targets:
            roots = g.attackers(s, rest, red) - pins
            if not roots or (roots == {own_king} and mover_king is not None
                             and s in g.attacks(mover_king, rest, "R", not red)):
                out.setdefault(s, attacker)

    src, dst = _move_squares(move)
    ours = g.squares(red)
    kind = g.piece(dst).upper()
    if kind not in "KP":
        direct = set(g.attacks(dst, occ)) & ours
        if kind in "RC":  # only new attacks: not along the line it moved on
            direct -= _line(src, dst)
        add(dst, kind, direct)
    # attacks the move uncovered: a horse's leg, an elephant's eye, a line
    # opened for a chariot or cannon, or a new screen for a cannon
    sf, sr, df_, dr_ = src % FILES, src // FILES, dst % FILES, dst // FILES
    theirs = g.squares(not red)
    captured = bool(before.cells[dst])
    old_occ = (occ if captured else occ - {dst}) | {src}
    for s in sorted(theirs):
        k = g.piece(s).upper()
        f, r = s % FILES, s // FILES
        if not ((k == "N" and abs(f - sf) + abs(r - sr) == 1)
                or (k == "B" and abs(f - sf) == 1 and abs(r - sr) == 1)
                or (k in "RC" and s != src and (f == sf or r == sr))
                or (k == "C" and s != dst and (f == df_ or r == dr_))):
            continue
        new = set(g.attacks(s, occ)) - set(g.attacks(s, old_occ))
        add(s, k, new & ours)
    # protectors newly pinned, and newly prepared discovered checks
    prev = Geometry(before).blockers(red)
    now = g.blockers(red)
    newly_pinned = (now - prev) & ours
    mover_blockers = g.blockers(not red) if newly_pinned else set()
    for s in newly_pinned:
        protected = {x for x in g.attacks(s, occ) if x in ours
                     and not (g.piece(x).upper() == "K"
                              or (g.piece(x).upper() == "P" and not _across(red, x // FILES)))}
        for x in protected:
            hitters = g.attackers(x, occ, not red) - mover_blockers
            if hitters:
                out.setdefault(x, min(hitters))
    # a general may take a piece next to it back unless another piece of the mover's
    # guards that square
    zone = set() if own_king is None else set(g.attacks(own_king, occ))
    for s in (now - prev) & theirs:
        hit = set(g.attacks(s, occ)) & ours
        for x in hit - zone:
            out.setdefault(x, s)
        for x in hit & zone:
            if g.attackers(x, occ - {s, own_king}, not red) - {s}:
                out.setdefault(x, s)
    return out


def square_before(sq: int, move: str) -> int:
    """Where the piece on ``sq`` stood before ``move`` (pyffish notation): a
    chased piece is followed back through its own side's moves.

    >>> square_name(square_before(parse_square("b8"), "a8b8"))
    'a8'
    >>> square_name(square_before(parse_square("b8"), "c3c4"))
    'b8'
    """
    src, dst = _move_squares(move)
    return src if dst == sq else sq
