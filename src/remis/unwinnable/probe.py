"""A cheap witness for "yes, this side can still mate", for callers that only
need the answer when it is *yes*.

The batch audit asks "can the winner still mate?" about thousands of final
positions; in almost all of them the answer is yes, and a yes never leads to
a finding.  :func:`can_checkmate` in full mode spends its stages in the order
that makes *proofs* cheap (forced moves, static proofs, an exhaustive visit
of the reachable positions between slices of the search).  Where only a yes
saves work, :func:`helpmate_probe` runs the steered helpmate search of
:mod:`remis.unwinnable.search` alone, within a node budget, and returns the
mate it finds as a replayable line.  When it finds none it says nothing
(``None``): the caller then asks :func:`can_checkmate` as before, so every
"cannot" still rests on that function's proof.

The budget counts nodes, never time: the same position always gets the same
answer.
"""

from __future__ import annotations

import chess

from remis.unwinnable import Verdict, _found_text, _mated, check_position
from remis.unwinnable.material import material_reason
from remis.unwinnable.search import HelpmateSearch

#: Node budget of one probe (the audit's whole full-mode budget: a probe
#: that fails costs at most this much on top of the full-mode call).
PROBE_NODES = 20_000
#: Nodes one iteration of the search may spend before it deepens.
PROBE_ITERATION_NODES = 20_000
#: First ply budget of the iterative deepening.  Starting at 2 skips the
#: iteration at 1, which in positions with many pieces spends thousands of
#: nodes on lines the next iteration searches again.
PROBE_START_DEPTH = 2

__all__ = ["PROBE_NODES", "helpmate_probe"]


def helpmate_probe(board: chess.Board, color: chess.Color, *,
                   max_nodes: int = PROBE_NODES) -> Verdict | None:
    """A verdict ``True`` with a helpmate line (UCI moves from ``board``,
    ending in checkmate of ``color``'s opponent) when the steered helpmate
    search finds one within ``max_nodes`` nodes, else None (nothing is
    known: a None is never "cannot mate").  ``board`` is left unchanged.
    Raises :class:`ValueError` on an illegal position.

    >>> v = helpmate_probe(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    >>> v.value, v.method, len(v.line) > 0
    (True, 'search', True)
    >>> helpmate_probe(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK) is None
    True
    """
    check_position(board)
    if _mated(board, color):
        return Verdict(color, True, f"{'White' if color else 'Black'} has already mated", (),
                       method="search")
    if material_reason(board, color) is not None:
        return None
    search = HelpmateSearch(board.copy(stack=False), color, max_nodes=max_nodes,
                            iteration_nodes=PROBE_ITERATION_NODES)
    result = search.run(start_depth=PROBE_START_DEPTH)
    if result.outcome != "mate":
        return None
    return Verdict(color, True, _found_text(color, result.line), result.line, result.nodes,
                   method="search")
