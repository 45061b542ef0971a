"""A cheap witness for "yes, this side can still mate", for callers that only
need the answer when it is *yes*.

The batch audit asks "can the winner still mate?" about thousands of final
positions; in almost all of them the answer is yes, and a yes never leads to
a finding.  :func:`helpmate_probe` asks full mode within a small node budget
and keeps only a found mate (a replayable line); otherwise it says nothing
(``None``), and the caller asks :func:`~remis.unwinnable.can_checkmate` with
its own budget, so every "cannot" rests on that function's proof.

The budget counts nodes, never time: the same position always gets the same
answer.
"""

from __future__ import annotations

import chess

from remis.unwinnable import Verdict, can_checkmate

#: Node budget of one probe.
PROBE_NODES = 20_000

__all__ = ["PROBE_NODES", "helpmate_probe"]


def helpmate_probe(board: chess.Board, color: chess.Color, *,
                   max_nodes: int = PROBE_NODES) -> Verdict | None:
    """A verdict ``True`` with a helpmate line (UCI moves from ``board``,
    ending in checkmate of ``color``'s opponent) when full mode finds one
    within ``max_nodes`` nodes, else None (nothing is known: a None is never
    "cannot mate").  Raises :class:`ValueError` on an illegal position.

    >>> v = helpmate_probe(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    >>> v.value, v.method, len(v.line) > 0
    (True, 'search', True)
    >>> helpmate_probe(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK) is None
    True
    """
    v = can_checkmate(board, color, max_nodes=max_nodes)
    return v if v.value else None
