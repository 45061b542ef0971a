"""Random shogi and xiangqi games that are forced into repetitions, to compare
remis's verdicts with Fairy-Stockfish's and to benchmark the tracking.

A game is a random prefix (from the start position or a random sparse
position) followed by rounds of four-ply cycles found at the position reached:
each side moves a piece and moves it back, so the position recurs every four
plies.  Several cycles from the same position are mixed, so that some rounds
check and others do not.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from remis.variants import ffish
from remis.variants.board import Board
from remis.variants.notation import NotationError, move_to_usi
from remis.variants.xqboard import check_xiangqi_board

_BOARD_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")
_SIZE = {"shogi": (9, 9), "xiangqi": (9, 10)}
# pieces a sparse random position may hold besides the kings
_EXTRA = {"shogi": "RBGSrbgs", "xiangqi": "RCNrcn"}


@dataclass(frozen=True)
class RandomGame:
    """A generated game: pyffish start FEN, the start in the players'
    notation (SFEN/FEN), and the moves in pyffish's and the players' notation.

    >>> random_game("xiangqi", random.Random(1), prefix=2).variant
    'xiangqi'
    """

    variant: str
    fen: str
    start: str
    moves: tuple[str, ...]
    shown: tuple[str, ...]


def _key(fen: str) -> str:
    return " ".join(fen.split()[:2])


def _reverse(move: str) -> str | None:
    m = _BOARD_MOVE.match(move)
    return None if m is None else f"{m[3]}{m[4]}{m[1]}{m[2]}"


def find_cycles(variant: str, fen: str, rng: random.Random, *, limit: int = 3,
                tries: int = 10, checks_first: bool = False) -> list[tuple[str, str, str, str]]:
    """Up to ``limit`` four-ply cycles ``(a, b, a', b')`` that lead from ``fen``
    back to the same position, from ``tries`` random first moves (two or three
    pyffish calls each); cycles with more checking moves come first.  With
    ``checks_first`` the first moves that give check are tried first (one
    more pyffish call per legal move).

    >>> fen = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1"
    >>> cycles = find_cycles("xiangqi", fen, random.Random(1))
    >>> all(len(c) == 4 for c in cycles) and len(cycles) > 0
    True
    """
    ours = [m for m in ffish.legal_moves(variant, fen) if _reverse(m)]
    rng.shuffle(ours)
    start = Board.from_fen(variant, fen)
    if checks_first:
        def gives_check(m: str) -> bool:
            b = start.copy()
            b.play(m)
            return ffish.in_check(variant, b.fen())

        ours.sort(key=lambda m: not gives_check(m))
    found: list[tuple[int, tuple[str, str, str, str]]] = []
    for m1 in ours[:tries]:
        b1 = start.copy()
        b1.play(m1)
        replies = [m for m in ffish.legal_moves(variant, b1.fen()) if _reverse(m)]
        rng.shuffle(replies)
        for m2 in replies[:8 if checks_first else 3]:
            cycle = (m1, m2, _reverse(m1) or "", _reverse(m2) or "")
            try:
                sans = ffish.san_moves(variant, fen, list(cycle))
            except ValueError:
                continue
            b = b1.copy()
            for m in cycle[1:]:
                b.play(m)
            if b.key() == start.key():
                found.append((-sum(san[-1] in "+#" for san in sans), cycle))
        if len(found) >= 3 * limit:
            break
    found.sort(key=lambda x: x[0])
    return [c for _, c in found[:limit]]


def random_position(variant: str, rng: random.Random) -> str | None:
    """A random sparse position (two kings, a rook for the side to move and
    up to two other pieces) in pyffish's FEN, or ``None`` if the draw was not a legal position.

    >>> fen = None
    >>> rng = random.Random(3)
    >>> while fen is None:
    ...     fen = random_position("shogi", rng)
    >>> fen.count("k") + fen.count("K")
    2
    """
    files, ranks = _SIZE[variant]
    board: dict[tuple[int, int], str] = {}
    if variant == "xiangqi":
        board[(rng.randrange(3, 6), rng.randrange(0, 3))] = "K"
        board[(rng.randrange(3, 6), rng.randrange(7, 10))] = "k"
    else:
        board[(rng.randrange(files), rng.randrange(0, 3))] = "K"
        board[(rng.randrange(files), rng.randrange(6, 9))] = "k"
    turn = rng.choice("wb")
    # the side to move gets a rook (chariot), so that checks are frequent
    board.setdefault((rng.randrange(files), rng.randrange(ranks)), "R" if turn == "w" else "r")
    for _ in range(rng.randint(0, 2)):
        board.setdefault((rng.randrange(files), rng.randrange(ranks)), rng.choice(_EXTRA[variant]))
    rows = []
    for r in range(ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(files):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    hand = "[]" if variant == "shogi" else ""
    fen = f"{'/'.join(rows)}{hand} {turn} - - 0 1"
    if ffish.validate(variant, fen) is not None:
        return None
    if variant == "xiangqi":
        try:
            check_xiangqi_board(fen.split()[0])  # e.g. generals facing on an open file
        except NotationError:
            return None
    board_part, side = fen.split()[:2]
    other = f"{board_part} {'b' if side == 'w' else 'w'} - - 0 1"
    if ffish.in_check(variant, other) or not ffish.legal_moves(variant, fen):
        return None
    return ffish.normalize(variant, fen)


# where each xiangqi piece may stand, for red (file 0-8, rank 0-9); black's are mirrored
_XQ_POINTS = {
    "A": [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
    "B": [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
    "P": [(f, r) for f in range(9) for r in range(3, 10) if r >= 5 or f % 2 == 0],
    "R": [(f, r) for f in range(9) for r in range(10)],
}
_XQ_POINTS["C"] = _XQ_POINTS["N"] = _XQ_POINTS["R"]


def chase_position(rng: random.Random) -> str | None:
    """A random xiangqi middlegame-like position (both sides with two to five
    pieces besides the general, chariots, cannons and horses first), where
    chases are common; ``None`` if the draw was not a legal position.

    >>> fen = None
    >>> rng = random.Random(3)
    >>> while fen is None:
    ...     fen = chase_position(rng)
    >>> fen.count("k"), fen.count("K")
    (1, 1)
    """
    board: dict[tuple[int, int], str] = {
        (rng.randrange(3, 6), rng.randrange(0, 3)): "K",
        (rng.randrange(3, 6), rng.randrange(7, 10)): "k",
    }
    for red in (True, False):
        for _ in range(rng.randint(2, 5)):
            kind = rng.choice("RRCCNNBAP")
            f, r = rng.choice(_XQ_POINTS[kind])
            board.setdefault((f, r) if red else (f, 9 - r), kind if red else kind.lower())
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    fen = f"{'/'.join(rows)} {rng.choice('wb')} - - 0 1"
    if ffish.validate("xiangqi", fen) is not None:
        return None
    try:
        check_xiangqi_board(fen.split()[0])
    except NotationError:
        return None
    board_part, side = fen.split()[:2]
    if ffish.in_check("xiangqi", f"{board_part} {'b' if side == 'w' else 'w'} - - 0 1") \
            or not ffish.legal_moves("xiangqi", fen):
        return None
    return ffish.normalize("xiangqi", fen)


def _attacks_after(board: Board, move: str) -> bool:
    """Whether the piece ``move`` moves attacks an enemy piece other than the
    general afterwards (a neutral test: protection is not looked at)."""
    from remis.variants.chase import Geometry, parse_square

    after = board.copy()
    after.play(move)
    g = Geometry(after)
    to = parse_square(move[2:] if move[2].isalpha() else move[3:])
    red = g.piece(to).isupper()
    return any(g.piece(s) and g.piece(s).isupper() != red and g.piece(s).upper() != "K"
               for s in g.attacks(to, g.occupied))


def attacking_cycles(fen: str, rng: random.Random, *, limit: int = 4,
                     tries: int = 12) -> list[tuple[str, str, str, str]]:
    """Four-ply cycles from ``fen`` in which one side's two moves both attack
    an enemy piece (the shape of a chase, protected or not), best first.

    >>> len(attacking_cycles("4k4/9/n8/9/9/9/9/R8/9/3K5 b - - 0 1", random.Random(1))) > 0
    True
    """
    start = Board.from_fen("xiangqi", fen)
    ours = [m for m in ffish.legal_moves("xiangqi", fen) if _reverse(m)]
    rng.shuffle(ours)
    scored: list[tuple[int, float, tuple[str, str, str, str]]] = []
    for m1 in ours[:tries]:
        b1 = start.copy()
        b1.play(m1)
        for m2 in [m for m in ffish.legal_moves("xiangqi", b1.fen()) if _reverse(m)]:
            cycle = (m1, m2, _reverse(m1) or "", _reverse(m2) or "")
            boards = [start, b1]
            for m in cycle[1:]:
                b = boards[-1].copy()
                b.play(m)
                boards.append(b)
            if boards[-1].key() != start.key():  # a capture: no way back
                continue
            hits = [_attacks_after(boards[i], cycle[i]) for i in range(4)]
            score = max(hits[0] + hits[2], hits[1] + hits[3])
            if score:
                scored.append((-score, rng.random(), cycle))
    scored.sort()
    out: list[tuple[str, str, str, str]] = []
    for _, _, cycle in scored:
        try:
            ffish.san_moves("xiangqi", fen, list(cycle))
        except ValueError:
            continue
        out.append(cycle)
        if len(out) >= limit:
            break
    return out


def chase_game(rng: random.Random, *, prefix: int = 2, rounds: int = 4) -> RandomGame:
    """A random xiangqi game from :func:`chase_position`: a few random plies,
    then four-ply cycles in which one side attacks with both its moves (see
    :func:`attacking_cycles`), so that many are chases and many are not (the
    attacked piece protected, the attacker a general or a soldier...).

    >>> g = chase_game(random.Random(5))
    >>> g.variant, len(g.moves) >= 4
    ('xiangqi', True)
    """
    while True:
        fen = None
        while fen is None:
            fen = chase_position(rng)
        start = fen
        board = Board.from_fen("xiangqi", fen)
        moves: list[str] = []
        for _ in range(rng.randint(0, prefix)):
            legal = ffish.legal_moves("xiangqi", board.fen())
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            board.play(m)
        cycles = attacking_cycles(board.fen(), rng)
        if cycles:
            break
    mixed = rng.random() < 0.2
    for _ in range(rounds):
        moves.extend(rng.choice(cycles) if mixed else cycles[0])
    return RandomGame("xiangqi", start, start, tuple(moves), tuple(moves))


def random_game(variant: str, rng: random.Random, *, sparse: bool = False,
                prefix: int = 20, rounds: int = 4) -> RandomGame:
    """A random game: ``prefix`` random plies (at most), then up to ``rounds``
    four-ply cycles at the position reached.

    >>> g = random_game("shogi", random.Random(7), prefix=6)
    >>> len(g.moves) >= 6, g.start.endswith(" 1")
    (True, True)
    """
    fen = None
    while sparse and fen is None:
        fen = random_position(variant, rng)
    if fen is None:
        fen = ffish.start_fen(variant)
    start = fen
    moves: list[str] = []
    board = Board.from_fen(variant, fen)
    for _ in range(rng.randint(prefix // 2, prefix)):
        legal = ffish.legal_moves(variant, board.fen())
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        board.play(m)
    fen = board.fen()
    cycles = find_cycles(variant, fen, rng, checks_first=sparse)
    mixed = rng.random() < 0.4
    for _ in range(rounds if cycles else 0):
        moves.extend(rng.choice(cycles) if mixed else cycles[0])
    if variant == "shogi":
        shown = tuple(move_to_usi(m) for m in moves)
        text = ffish.sfen(variant, start)
    else:
        shown, text = tuple(moves), start
    return RandomGame(variant, start, text, tuple(moves), shown)
