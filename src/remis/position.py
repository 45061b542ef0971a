"""Rulings on a single position given as FEN (``remis position``).

:func:`parse_fen` and :func:`illegal_reason` live in :mod:`remis.fen`, below
the engine that uses them too; they are named here as they always were.
"""

from __future__ import annotations

from typing import Any

import chess

from remis.fen import illegal_reason, parse_fen
from remis.history import History
from remis.rules import DeadTest, DeadVerdict, automatic_end, claimable, material_dead_test

__all__ = ["illegal_reason", "parse_fen", "rule_on_position"]


def rule_on_position(fen: str, *, dead_test: DeadTest = material_dead_test,
                     mode: str = "full", max_nodes: int | None = None,
                     max_seconds: float | None = None) -> dict[str, Any]:
    """The ``remis position --json`` object for one FEN: the automatic end,
    the claims that the FEN's halfmove clock allows (no repetition history),
    and whether each side can still checkmate (``can_checkmate``, with the
    ``helpmate`` line as evidence).  When neither can, ``end`` is the dead
    position (5.2.2).  ``mode`` is ``"full"`` or ``"quick"``.

    >>> rule_on_position("8/8/4k3/8/8/3K4/8/6R1 b - - 100 80")["claims"][0]["article"]
    '9.3.2'
    >>> out = rule_on_position("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    >>> out["end"]["termination"], out["can_checkmate"]
    ('dead_position', {'white': False, 'black': False})
    """
    # late: the engine is loaded when asked for
    from remis.unwinnable import can_checkmate
    from remis.unwinnable.deadtest import dead_verdict

    board = parse_fen(fen)
    history = History(board)
    verdicts = {name: can_checkmate(board, color, mode="quick" if mode == "quick" else "full",
                                    max_nodes=max_nodes, max_seconds=max_seconds)
                for name, color in (("white", chess.WHITE), ("black", chess.BLACK))}

    def engine(b: chess.Board) -> DeadVerdict | None:
        found = dead_test(b)
        if found is not None:
            return found
        if all(v.value is False for v in verdicts.values()):
            return dead_verdict(verdicts["white"], verdicts["black"])
        return None

    end = automatic_end(history, engine)
    claims = [] if end is not None else [c.to_json() for c in claimable(history)]
    return {"fen": board.fen(), "end": None if end is None else end.to_json(), "claims": claims,
            "can_checkmate": {n: v.value for n, v in verdicts.items()},
            "helpmate": {n: list(v.line) if v.value else None for n, v in verdicts.items()},
            "unwinnability": {n: v.to_json() for n, v in verdicts.items()}}
