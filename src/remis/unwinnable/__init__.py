"""Can this player still checkmate by any sequence of legal moves?

This decides the dead position (5.2.2: neither can), the flag fall (6.9), a
resignation (5.1.2), a second illegal move (7.5.5) and the rapid/blitz flag
claim (A.5.3).  The answer is a :class:`Verdict`: ``True`` with a helpmate line
as evidence, ``False`` with the reason, or ``None`` when a limit (or quick mode)
could not decide.  A ``False`` is a proof: never "cannot mate" where a
helpmate exists.

The present implementation decides the material cases only (python-chess's
one-sided insufficient-material test, which is sound); the full engine
(helpmate search, static reachability) replaces its internals behind this API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import chess

from remis.material import describe_material

Mode = Literal["full", "quick"]


@dataclass(frozen=True)
class Verdict:
    """The answer to "can ``color`` still checkmate?".

    ``value``: True (a helpmate exists, ``line`` holds it as UCI moves from the
    given position), False (proved impossible, ``reason`` says why), None
    (undecided within the limits).
    """

    color: chess.Color
    value: bool | None
    reason: str
    line: tuple[str, ...] = ()
    nodes: int = 0
    details: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """JSON form: value, reason, helpmate line."""
        return {"value": self.value, "reason": self.reason,
                "line": list(self.line) if self.value else None}


def can_checkmate(board: chess.Board, color: chess.Color, *, mode: Mode = "full",
                  max_nodes: int | None = None) -> Verdict:
    """Can ``color`` checkmate the opponent by any sequence of legal moves
    (both sides cooperating)?

    >>> can_checkmate(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK).value
    False
    """
    if board.has_insufficient_material(color):
        return Verdict(color, False, f"insufficient material ({describe_material(board)})")
    return Verdict(color, None, "undecided: only material is checked")


def is_dead_position(board: chess.Board, *, mode: Mode = "full") -> bool:
    """True when neither side can checkmate by any sequence of legal moves
    (Article 5.2.2).  Only a proof makes it True.

    >>> is_dead_position(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    True
    """
    return all(can_checkmate(board, c, mode=mode).value is False for c in chess.COLORS)
