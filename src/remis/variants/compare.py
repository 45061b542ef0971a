"""Replay games with remis and with Fairy-Stockfish's ``is_optional_game_end``
and compare their repetition verdicts (used by ``tests/variants`` and
``benchmarks/variants.py``).

>>> g = games("shogi", 1, seed=1)[0]
>>> ours, _ = remis_verdict(g)
>>> ours == fairy_verdict(g, "shogi", last_judged_ply(g, ours, _))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from remis.variants import ffish
from remis.variants.board import Board
from remis.variants.history import VariantHistory
from remis.variants.randgames import RandomGame, chase_game, random_game


@dataclass(frozen=True)
class Verdict:
    """The first ply at which a judge ended the game, and how: ``"draw"``,
    ``"mover_wins"`` (the side to move wins) or ``"mover_loses"``.

    >>> Verdict(12, "draw") == Verdict(12, "draw")
    True
    """

    ply: int | None
    outcome: str | None


def remis_verdict(g: RandomGame, repetitions: int | None = None) -> tuple[Verdict, str | None]:
    """remis's verdict (repetition rules only) and the termination of any end.

    >>> remis_verdict(games("xiangqi", 1, seed=2)[0])[0].outcome
    'draw'
    """
    h = VariantHistory(g.variant, g.start, repetitions=repetitions)
    h.extend(g.shown)
    e = h.end
    if e is None or e.termination not in ("repetition", "perpetual_check", "perpetual_chase"):
        return Verdict(None, None), None if e is None else e.termination
    if e.result == "1/2-1/2":
        return Verdict(e.ply, "draw"), e.termination
    mover_first = h.first_mover ^ (e.ply & 1) == 0
    mover_wins = (e.result == "1-0") == mover_first
    return Verdict(e.ply, "mover_wins" if mover_wins else "mover_loses"), e.termination


def fairy_verdict(g: RandomGame, fs_variant: str, last_ply: int) -> Verdict:
    """Fairy-Stockfish's first optional end up to ``last_ply`` (it re-parses
    the game at every ply it is asked).  It is asked at every ply whose
    position stood before (a repetition can end the game only there) and at
    every ply from the 100th on (its move-count rules), not at the others.

    >>> fairy_verdict(games("shogi", 1, seed=1)[0], "shogi", 0)
    Verdict(ply=None, outcome=None)
    """
    board = Board.from_fen(g.variant, g.fen)
    seen = {board.key()}
    for k in range(1, last_ply + 1):
        board.play(g.moves[k - 1])
        key = board.key()
        if key not in seen and k < 100:
            seen.add(key)
            continue
        ended, value = ffish.optional_end(fs_variant, g.fen, list(g.moves[:k]))
        if ended:
            return Verdict(k, "draw" if value == 0 else "mover_wins" if value > 0
                           else "mover_loses")
    return Verdict(None, None)


def games(variant: str, n: int, seed: int) -> list[RandomGame]:
    """``n`` games, half from the start position, half from sparse positions
    (where checks, and so perpetual checks, are common).

    >>> [g.variant for g in games("xiangqi", 2, seed=0)]
    ['xiangqi', 'xiangqi']
    """
    rng = random.Random(seed)
    return [random_game(variant, rng, sparse=i % 2 == 1, prefix=2 if i % 2 else 24)
            for i in range(n)]


def last_judged_ply(g: RandomGame, ours: Verdict, termination: str | None) -> int:
    """How far to ask Fairy-Stockfish: up to remis's end (of any kind) or
    the end of the move list.

    >>> g = games("shogi", 1, seed=1)[0]
    >>> last_judged_ply(g, Verdict(None, None), None) == len(g.moves)
    True
    """
    if ours.ply is not None:
        return ours.ply
    if termination is not None:  # checkmate / no legal move: judged until then
        h = VariantHistory(g.variant, g.start)
        h.extend(g.shown)
        return h.ply
    return len(g.moves)


def _lean(board: Any, move: int) -> float:
    """The weight of ``move`` in :func:`entering_positions`' random play: the
    king forward, moves and drops into the enemy camp, and captures first."""
    import cshogi

    sente = board.turn == cshogi.BLACK
    king = board.king_square(board.turn)
    to = cshogi.move_to(move)
    rank = to % 9
    if not cshogi.move_is_drop(move) and cshogi.move_from(move) == king:
        ahead = king % 9 - rank if sente else rank - king % 9
        return 30.0 if ahead > 0 else 0.3
    weight = 6.0 if (rank <= 2 if sente else rank >= 6) else 1.0
    return weight * 4.0 if board.piece(to) else weight


def entering_positions(n: int, seed: int, *, max_plies: int = 400) -> list[str]:
    """``n`` shogi positions (SFEN) where at least one king has entered the
    enemy camp, from random games whose moves lean toward the camps: king
    moves forward, moves and drops into the camp and captures are favoured.
    Several positions are taken from each game, some before the side to move
    could declare and some after.

    >>> len(entering_positions(3, seed=1))
    3
    """
    import cshogi

    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        board = cshogi.Board()
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choices(moves, weights=[_lean(board, m) for m in moves])[0])
            entered = [(board.king_square(c) % 9 <= 2) if c == cshogi.BLACK
                       else (board.king_square(c) % 9 >= 6) for c in (cshogi.BLACK, cshogi.WHITE)]
            if any(entered) and rng.random() < 0.08:
                out.append(board.sfen())
                if len(out) >= n:
                    break
    return out


def declaration_verdicts(sfen: str) -> tuple[bool, bool]:
    """remis's and cshogi's answer to "may the side to move declare a win
    (CSA 27-point rule)?" for one position.

    >>> declaration_verdicts("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    (False, False)
    """
    import cshogi

    from remis.variants.board import Board
    from remis.variants.impasse import declaration
    from remis.variants.notation import sfen_to_fen

    ours = declaration(Board.from_fen("shogi", sfen_to_fen(sfen))).may_declare
    return ours, bool(cshogi.Board(sfen).is_nyugyoku())


def chase_games(n: int, seed: int) -> list[RandomGame]:
    """``n`` xiangqi games forced into repetitions in which one side attacks
    with every move (see :func:`remis.variants.randgames.chase_game`).

    >>> len(chase_games(2, seed=1))
    2
    """
    rng = random.Random(seed)
    return [chase_game(rng) for _ in range(n)]


def explain_chase(g: RandomGame, ours: Verdict, fairy: Verdict,
                  repetitions: int | None = None) -> str | None:
    """The known class of a disagreement on a xiangqi game, or None.

    ``entry``: remis rules a perpetual chase by the side that made the last
    move, Fairy-Stockfish a draw, because Fairy-Stockfish also asks that the
    move which produced the first occurrence of the position chased the same
    piece (that move is not part of the repeated cycle, which is what the
    rule judges).  Shown by judging that side's chase from one ply earlier.

    >>> explain_chase(games("xiangqi", 1, seed=2)[0], Verdict(None, None), Verdict(None, None))
    """
    if ours.ply is None or fairy.ply != ours.ply or fairy.outcome != "draw" \
            or ours.outcome != "mover_wins":
        return None
    h = VariantHistory(g.variant, g.start, repetitions=repetitions)
    h.extend(g.shown)
    e = h.end
    if e is None or e.termination != "perpetual_chase":
        return None
    first = e.plies[0]
    last_mover = h.first_mover ^ ((e.ply - 1) & 1)
    if first > 0 and not h.chase_in_cycle(first - 1, e.ply, last_mover):
        return "entry"
    return None
