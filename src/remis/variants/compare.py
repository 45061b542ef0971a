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

from remis.variants import ffish
from remis.variants.history import VariantHistory
from remis.variants.randgames import RandomGame, random_game


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
    the game at every ply).

    >>> fairy_verdict(games("shogi", 1, seed=1)[0], "shogi", 0)
    Verdict(ply=None, outcome=None)
    """
    for k in range(1, last_ply + 1):
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
