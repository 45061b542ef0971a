"""Rulings on a single position given as FEN (``remis position``).

:func:`parse_fen` and :func:`illegal_reason` live in :mod:`remis.fen`, below
the engine that uses them too; they are named here as they always were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import chess

from remis.fen import illegal_reason, parse_fen
from remis.history import History
from remis.rules import DeadTest, DeadVerdict, automatic_end, claimable, material_dead_test
from remis.ruling import Claim, Ruling

if TYPE_CHECKING:
    from remis.unwinnable import Verdict

__all__ = ["PositionRuling", "illegal_reason", "parse_fen", "rule_on_position"]


@dataclass(frozen=True)
class PositionRuling:
    """What the Laws say of one position: its automatic end, the claims its
    halfmove clock allows (a FEN has no repetition history), and whether each
    side can still checkmate (:class:`~remis.unwinnable.Verdict`, with the
    helpmate line as evidence).  :meth:`to_json` is ``remis position
    --json``'s object.

    >>> r = rule_on_position("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    >>> r.end.termination, r.white.value, r.black.value
    ('dead_position', False, False)
    """

    fen: str
    end: Ruling | None
    claims: tuple[Claim, ...]
    white: Verdict
    black: Verdict

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``remis position --json`` and ``POST /v1/position``.

        >>> j = rule_on_position("8/8/4k3/8/8/3K4/8/6R1 b - - 100 80").to_json()
        >>> j["claims"][0]["article"], j["can_checkmate"], j["helpmate"]["black"]
        ('9.3.2', {'white': True, 'black': False}, None)
        """
        sides = (("white", self.white), ("black", self.black))
        return {"fen": self.fen, "end": None if self.end is None else self.end.to_json(),
                "claims": [c.to_json() for c in self.claims],
                "can_checkmate": {n: v.value for n, v in sides},
                "helpmate": {n: list(v.line) if v.value else None for n, v in sides},
                "unwinnability": {n: v.to_json() for n, v in sides}}


def rule_on_position(fen: str, *, dead_test: DeadTest = material_dead_test,
                     mode: str = "full", max_nodes: int | None = None,
                     max_seconds: float | None = None) -> PositionRuling:
    """What the Laws say of one FEN: the automatic end, the claims that the
    FEN's halfmove clock allows (no repetition history), and whether each
    side can still checkmate (``can_checkmate``, with the ``helpmate`` line
    as evidence).  When neither can, ``end`` is the dead position (5.2.2).
    ``mode`` is ``"full"`` or ``"quick"``.

    >>> rule_on_position("8/8/4k3/8/8/3K4/8/6R1 b - - 100 80").claims[0].article
    '9.3.2'
    >>> out = rule_on_position("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1").to_json()
    >>> out["end"]["termination"], out["can_checkmate"]
    ('dead_position', {'white': False, 'black': False})
    """
    # late: the engine is loaded when asked for
    from remis.unwinnable import can_checkmate
    from remis.unwinnable.deadtest import dead_verdict

    board = parse_fen(fen)
    history = History(board)
    white, black = (can_checkmate(board, color, mode="quick" if mode == "quick" else "full",
                                  max_nodes=max_nodes, max_seconds=max_seconds)
                    for color in (chess.WHITE, chess.BLACK))

    def engine(b: chess.Board) -> DeadVerdict | None:
        found = dead_test(b)
        if found is not None:
            return found
        if white.value is False and black.value is False:
            return dead_verdict(white, black)
        return None

    end = automatic_end(history, engine)
    claims = () if end is not None else tuple(claimable(history))
    return PositionRuling(board.fen(), end, claims, white, black)
