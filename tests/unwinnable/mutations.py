"""Positions no budget was ever tuned on: seeded random mutations of the
shared question sets.

The engine's budgets were chosen with the CHA test vectors in view, so
deciding all of them says less about positions it has never seen.  These
questions are made from the vectors and from every 100th lichess unfair
timeout by one to three random changes each (a piece moved or taken off, a
pawn moved, a piece added; then a random side to move and would-be winner),
kept when legal and not over.  A fixed seed makes them the same in every
run, and the first N of a longer list are the N of a shorter one.  They have
no expected answer: :mod:`tests.unwinnable.test_mutations` checks full mode
against itself (every question decided, every helpmate line a mate, quick
mode never contradicting it) and ``benchmarks/unwinnability.py --only
mutations --cha BINARY`` against CHA.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess

from remis.unwinnable import check_position

__all__ = ["SEED", "mutated_questions"]

#: the seed of every run's questions
SEED = 20261204


def mutated_questions(unwinnability: Path, n: int, seed: int = SEED
                      ) -> list[tuple[chess.Board, chess.Color]]:
    """``n`` distinct questions (a board, the would-be winner) made from the
    sets in ``unwinnability`` (``../shared/data/unwinnability``); the
    first ``n`` of a longer list.
    """
    rng = random.Random(seed)
    sources = [line.split(" ", 1)[1].strip()
               for line in (unwinnability / "cha-test-vectors.txt").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    sources += [" ".join(line.split()[:6]) for line in
                (unwinnability / "lichess-unfair-timeouts.txt").read_text().splitlines()[::100]]
    seen: set[tuple[str, bool]] = set()
    out: list[tuple[chess.Board, chess.Color]] = []
    while len(out) < n:
        board = chess.Board(rng.choice(sources))
        for _ in range(rng.randint(1, 3)):
            _mutate(board, rng)
        board.turn = rng.random() < 0.5
        board.ep_square = None
        board.castling_rights = 0
        try:
            check_position(board)
        except ValueError:
            continue
        if not board.is_valid() or board.is_game_over():
            continue
        question = (board.fen(), rng.random() < 0.5)
        if question not in seen:
            seen.add(question)
            out.append((board, question[1]))
    return out


def _mutate(board: chess.Board, rng: random.Random) -> None:
    """One random change of ``board`` (a pawn never lands on a back rank)."""
    empty = [s for s in chess.SQUARES if not board.piece_at(s)]
    inner = [s for s in empty if chess.square_rank(s) not in (0, 7)]
    r = rng.random()
    if r < 0.45:  # a piece (a king too) to another square
        piece = board.remove_piece_at(
            rng.choice(list(chess.SquareSet(board.occupied & ~board.pawns))))
        assert piece is not None
        board.set_piece_at(rng.choice(empty), piece)
    elif r < 0.7:  # a piece or a pawn taken off
        others = list(chess.SquareSet(board.occupied & ~board.kings))
        if others:
            board.remove_piece_at(rng.choice(others))
    elif r < 0.9:  # a pawn to another square
        pawns = list(chess.SquareSet(board.pawns))
        if pawns and inner:
            piece = board.remove_piece_at(rng.choice(pawns))
            assert piece is not None
            board.set_piece_at(rng.choice(inner), piece)
    else:  # a piece or a pawn added
        kind = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.ROOK,
                           chess.QUEEN])
        squares = inner if kind == chess.PAWN else empty
        if squares:
            board.set_piece_at(rng.choice(squares), chess.Piece(kind, rng.random() < 0.5))
