"""Insufficient material: the dead position (Article 5.2.2) that material
alone decides, and the shape of every dead-position test.

The material cases are the core's (``remis._core``, shakmaty's test, the
one the batch and the live history run after every move): this module is
their face for a :class:`chess.Board`.  The full "can this side still
mate?" test lives in :mod:`remis.unwinnable`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import chess

from remis import _core


class DeadVerdict(NamedTuple):
    """A proven dead position: ``termination`` is ``"insufficient_material"``
    or ``"dead_position"``; ``reason`` says why; ``evidence`` is free-form.

    >>> v = material_dead_test(chess.Board("8/8/4k3/8/8/2B5/8/4K3 w - - 0 1"))
    >>> v.termination, v.reason
    ('insufficient_material', 'K+B v K')
    """

    termination: str
    reason: str
    evidence: dict[str, object]


#: A dead-position test: returns a :class:`DeadVerdict` only when it has
#: *proved* that neither side can mate; ``None`` means "not dead" or "not
#: proven" (the game goes on: never declare an unproven draw).
DeadTest = Callable[[chess.Board], DeadVerdict | None]


def _units(board: chess.Board) -> tuple[int, int, int, int, int, int, int]:
    """The board's bitboards as the core reads them."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE])


def describe_material(board: chess.Board) -> str:
    """Short description of the material, White first: ``"K+B v K+N"``.

    >>> describe_material(chess.Board("8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1"))
    'K+B v K+B'
    """
    return _core.material(*_units(board))[0]


def insufficient_material(board: chess.Board) -> str | None:
    """The material (``"K v K+N"``) when neither side has the material to
    checkmate (K v K, K+N v K, bishops all on one colour, ...), else None.
    The board need not be a legal position (an illegal move that stood).

    >>> insufficient_material(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    'K v K+N'
    >>> insufficient_material(chess.Board("8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1")) is None
    True
    """
    text, dead = _core.material(*_units(board))
    return text if dead else None


def material_dead_test(board: chess.Board) -> DeadVerdict | None:
    """The default dead-position test: insufficient material only.

    >>> material_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> material_dead_test(chess.Board()) is None
    True
    """
    material = insufficient_material(board)
    return None if material is None else DeadVerdict("insufficient_material", material, {})
