"""The dead-position test after every ply (Article 5.2.2) for callers that
hold a :class:`chess.Board`: the live arbiter, :func:`remis.rules.automatic_end`.

It is the core's test (``remis._core.DeadTest``, ``rust/src/rules/dead.rs``),
the one ``remis game`` and the audit run, so the live and the batch rulings
cannot diverge.  It must cost almost nothing in ordinary positions, so it
looks at a few bitboards first.  Without pawns, the material cases are
answered from material alone.  The engine looks at closed pawn structures
without a queen or a rook, a queen or a rook behind a wall of rammed pawns,
and a forced move in check among few units that ends in a stalemate or
leaves too little material; elsewhere (the open positions of real games) the
answer is at once: not proved dead, the game goes on.  A candidate gets quick
mode for both colours, then, where quick mode left a colour open and the
structure is closed, full mode within a few thousand nodes.  Dead only on
two proofs.  How the engine decides: ``docs/engine.md``.
"""

from __future__ import annotations

import chess

from remis import _core
from remis import facts as F
from remis.rules import DeadVerdict, material_dead_test
from remis.unwinnable import Verdict

#: ``EngineDeadTest(QUICK_ONLY)``: quick mode only, never a full-mode run.
QUICK_ONLY = 0
#: Searches beyond quick mode per structure (the pawns and the material) that
#: may end without a proof in one game; after that only quick mode runs for
#: it in that game, so that a long game of king moves behind a locked but
#: live structure stays cheap.
FULL_RUNS_PER_STRUCTURE: int = _core.FULL_RUNS_PER_STRUCTURE


class EngineDeadTest:
    """The dead test of one game (``remis game`` and the arbiter make one
    per game): :func:`engine_dead_test` within a per-game budget counted by
    structure (the pawns and the material, which a move of a piece without
    a capture keeps).  Once three positions of a structure were looked at
    and not proved dead, later positions of it are answered None (not
    proved dead) at once, but for those where the side to move is in check,
    which still get quick mode; once ``full_runs_per_structure`` of them
    needed a full-mode run that did not prove them dead, later ones get
    quick mode only.  (Returning None is always safe: it only means "not
    proved dead".)  The answers depend only on the game's positions in
    order, never on what ran before in the process.
    ``EngineDeadTest(QUICK_ONLY)`` never searches beyond quick mode (the
    audit's choice).  A position the engine refuses (an illegal one) gets
    the material cases only.

    >>> test = EngineDeadTest()
    >>> test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> test(chess.Board()) is None
    True
    """

    __slots__ = ("_core", "limit")

    def __init__(self, full_runs_per_structure: int = FULL_RUNS_PER_STRUCTURE) -> None:
        self.limit = full_runs_per_structure
        self._core = _core.DeadTest(full_runs_per_structure)

    @property
    def core(self) -> _core.DeadTest:
        """The core's test behind this one: a :class:`~remis.history.History`
        made with this test runs it within each push, so that every position
        of the game is asked once, whoever asks.

        >>> isinstance(EngineDeadTest().core, _core.DeadTest)
        True
        """
        return self._core

    def __call__(self, board: chess.Board) -> DeadVerdict | None:
        try:
            found = _ask(self._core, board, board.castling_rights)
        except ValueError:
            try:  # python-chess trusts the castling rights of a board with moves played
                found = _ask(self._core, board, board.clean_castling_rights())
            except ValueError:  # an illegal position: the material cases need none
                return material_dead_test(board)
        return None if found is None else _verdict(found)


def _ask(core: _core.DeadTest, board: chess.Board, castling: int) -> _core.DeadFacts | None:
    """The core's answer, the board given as python-chess's bitboards."""
    white = board.occupied_co[True]
    return core.test(board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                     board.kings, white, board.occupied ^ white, board.turn, castling,
                     board.ep_square, board.chess960, board.halfmove_clock,
                     board.fullmove_number)


def engine_dead_test(board: chess.Board) -> DeadVerdict | None:
    """A :data:`~remis.rules.DeadTest` backed by the unwinnability engine:
    ``insufficient_material`` for the material cases, ``dead_position`` when
    the engine proves that neither side can mate, else None.  Stateless: the
    answer depends on the position alone (see :class:`EngineDeadTest` for the
    per-game variant that bounds the work spent on live locked structures).

    >>> engine_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> engine_dead_test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> engine_dead_test(chess.Board()) is None
    True
    """
    return EngineDeadTest()(board)


def _verdict(found: _core.DeadFacts) -> DeadVerdict:
    """The :class:`~remis.rules.DeadVerdict` of the core's answer."""
    kind, material, proof = found
    if proof is None:
        return DeadVerdict(kind, material or "", {})
    return DeadVerdict(kind, *F.dead_proof(proof))


def dead_verdict(white: Verdict, black: Verdict) -> DeadVerdict:
    """The ``dead_position`` verdict from the two proofs that neither side
    can mate (White's, then Black's), with both as evidence.

    >>> from remis.unwinnable import can_checkmate
    >>> b = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    >>> v = dead_verdict(can_checkmate(b, chess.WHITE), can_checkmate(b, chess.BLACK))
    >>> v.termination, v.reason.startswith("White: blocked")
    ('dead_position', True)
    """
    return DeadVerdict("dead_position", *F.side_reasons(white, black))
