"""remis's own board (used for position identity) must track pyffish's
position exactly: captures into hand, promotions and drops included."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyffish")

from remis.variants import ffish
from remis.variants.board import Board


@pytest.mark.parametrize("variant", ["shogi", "xiangqi"])
def test_board_follows_pyffish_in_random_games(variant: str) -> None:
    rng = random.Random(5)
    plies = 0
    for _ in range(4):
        fen = ffish.start_fen(variant)
        board = Board.from_fen(variant, fen)
        for _ in range(80):
            legal = ffish.legal_moves(variant, fen)
            if not legal:
                break
            # prefer captures and drops, which move pieces in and out of hand
            special = [m for m in legal if "@" in m or m.endswith("+")]
            m = rng.choice(special if special and rng.random() < 0.3 else legal)
            fen = ffish.after(variant, fen, m)
            board.play(m)
            plies += 1
            assert board.key() == Board.from_fen(variant, fen).key(), (m, fen)
            # the hand may be listed in another order: compare it parsed
            assert board.fen().split()[0].split("[")[0] == fen.split()[0].split("[")[0]
            assert Board.from_fen(variant, board.fen()).key() == board.key()
    assert plies > 200
