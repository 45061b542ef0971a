"""``Verdict.nodes`` of full mode counts the nodes of every stage that ran:
the steered searches of the portfolio and every width search (the short
one where pawns stand rammed, the focus, the whole one)."""

from __future__ import annotations

from typing import Any

import chess
import pytest

import remis.unwinnable as engine
from remis.unwinnable import can_checkmate
from remis.unwinnable.width import WidthSearch


@pytest.mark.parametrize(("fen", "method"), [
    # CHA vectors where a short width search ran (rammed pawns) before the
    # stage that decides: the static proof after every move, the focus
    ("k7/Q4rQr/2b5/1pQp1p1p/1P1P1P1P/KP6/1P6/8 b - - 0 1", "static"),
    ("8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", "focus"),
])
def test_the_nodes_are_those_of_every_search_that_ran(fen: str, method: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    widths: list[WidthSearch] = []

    class Counted(WidthSearch):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            widths.append(self)

    portfolio: list[int] = []  # the portfolio's nodes in all, after each of its runs
    run = engine._Portfolio.run

    def counted_run(self: Any, total: int, cap: int) -> Any:
        result, others = run(self, total, cap)
        portfolio.append(result.nodes + others)
        return result, others

    monkeypatch.setattr(engine, "WidthSearch", Counted)
    monkeypatch.setattr(engine._Portfolio, "run", counted_run)
    v = can_checkmate(chess.Board(fen), chess.BLACK)
    assert v.method == method, v
    assert len(widths) >= 1 and portfolio
    assert v.nodes == portfolio[-1] + sum(w.nodes for w in widths)
