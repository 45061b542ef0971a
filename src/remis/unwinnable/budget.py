"""A budget of nodes and seconds shared by every "can this player still
checkmate?" search of one piece of work (an HTTP request ruling on a whole
PGN text, say), and a way to cancel them all.

:func:`limit` opens a budget for the calling context; while it is open,
:func:`~remis.unwinnable.can_checkmate` runs each search with at most the
seconds left (``max_seconds``) and charges the nodes it spent.  Once the
budget is spent, a search runs in quick mode only (material, forced moves,
blocked structures: a few dozen nodes), and once the work is cancelled it
does not run at all.  Either way a search that could not finish answers None
("undecided"), never a guess: a budget can only leave a question open.
Outside :func:`limit` nothing changes.  Import :func:`limit` and
:class:`Cancelled` from :mod:`remis.unwinnable`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any

import chess

from remis import _core
from remis.reasons import REASONS

if TYPE_CHECKING:
    from remis.unwinnable import Verdict


#: the most nodes one search spends under the default budget (the core's)
SEARCH_NODES = _core.FULL_NODES


class Cancelled(Exception):
    """The work was cancelled (its client went away)."""


@dataclass
class Budget:
    """Nodes and seconds for one piece of work; ``cancelled`` is asked before
    each search.

    >>> b = Budget(1000, 5.0)
    >>> b.spent() is None, b.max_nodes
    (True, 1000)
    """

    max_nodes: int
    max_seconds: float
    cancelled: Callable[[], bool] = field(default=lambda: False)
    nodes: int = 0
    #: a search ran with less than it would have had, or not at all
    cut: bool = False
    start: float = field(default_factory=time.monotonic)

    def seconds_left(self) -> float:
        """Seconds left of the budget (0 when spent)."""
        return max(0.0, self.max_seconds - (time.monotonic() - self.start))

    def spent(self) -> str | None:
        """Why the budget is spent (the reason of the verdicts it leaves
        open), or None.

        >>> Budget(10, 5.0, nodes=12).spent()
        "undecided: the request's node budget (10) is spent"
        """
        if self.nodes >= self.max_nodes:
            return REASONS["param.budget_nodes"].format(n=self.max_nodes)
        if self.seconds_left() <= 0:
            return REASONS["param.budget_seconds"].format(seconds=f"{self.max_seconds:g}")
        return None

    def to_json(self) -> dict[str, Any]:
        """What the budget allowed and what was used.

        >>> sorted(Budget(10, 1.0).to_json())
        ['exhausted', 'max_nodes', 'max_seconds', 'nodes', 'seconds']
        """
        return {"max_nodes": self.max_nodes, "max_seconds": self.max_seconds,
                "nodes": self.nodes, "seconds": round(time.monotonic() - self.start, 3),
                "exhausted": self.cut}


_CURRENT: ContextVar[Budget | None] = ContextVar("remis_budget", default=None)


@contextmanager
def limit(max_nodes: int, max_seconds: float,
          cancelled: Callable[[], bool] | None = None) -> Iterator[Budget]:
    """Open a budget for the searches of the calling context
    (tests/unwinnable/test_budget.py runs searches under one).

    >>> with limit(max_nodes=1000, max_seconds=30) as b:
    ...     b.spent() is None
    True
    """
    budget = Budget(max_nodes, max_seconds, cancelled or (lambda: False))
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def current() -> Budget | None:
    """The budget open in the calling context, if any (``remis game``'s core
    asks its engine questions within what is left of it).

    >>> current() is None
    True
    """
    return _CURRENT.get()


Search = Callable[..., "Verdict"]


def budgeted(search: Search) -> Search:
    """``can_checkmate`` under the open budget, if any (see the module)."""

    @wraps(search)
    def run(board: chess.Board, color: chess.Color, *, mode: str = "full",
            max_nodes: int | None = None, max_seconds: float | None = None) -> Verdict:
        budget = _CURRENT.get()
        if budget is None:
            return search(board, color, mode=mode, max_nodes=max_nodes, max_seconds=max_seconds)
        if budget.cancelled():
            raise Cancelled("the work was cancelled")
        why = budget.spent()
        if why is not None:
            budget.cut = True
            verdict = search(board, color, mode="quick")
            if verdict.value is None:
                return type(verdict)(color, None, why)
            return verdict
        left = budget.seconds_left()
        if max_seconds is None or left < max_seconds:
            max_seconds = left
        # a search spends at most its max_nodes: the nodes left bound it only
        # where they are fewer than it could spend
        nodes_left = budget.max_nodes - budget.nodes
        could = SEARCH_NODES if max_nodes is None else max_nodes
        if mode == "full" and nodes_left < could:
            max_nodes = max(nodes_left, 1)
        verdict = search(board, color, mode=mode, max_nodes=max_nodes, max_seconds=max_seconds)
        budget.nodes += verdict.nodes
        if verdict.value is None and (budget.spent() is not None or budget.cancelled()):
            budget.cut = True
        return verdict

    return run
