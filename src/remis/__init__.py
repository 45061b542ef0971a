"""remis: end chess games the way a FIDE arbiter would.

The public API reads like questions about a game, each answer a ruling with
the article of the FIDE Laws of Chess (2023) it rests on.

>>> import remis, chess
>>> h = remis.History()
>>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
...     _ = h.push_san(san)
>>> remis.rule_on_claim(h).article
'9.2.2'
"""

from __future__ import annotations

from remis.arbiter import Arbiter, RefusedEvent
from remis.game import GameRuling, rule_on_game, rule_on_pgn_file
from remis.history import History
from remis.identity import PositionKey, position_key
from remis.laws import Laws, claim_moves, laws_for
from remis.position import parse_fen, rule_on_position
from remis.replay import GameError, GameReport, replay
from remis.rules import (
    DeadVerdict,
    automatic_end,
    claimable,
    material_dead_test,
    rule_on_claim,
)
from remis.ruling import Claim, Ruling
from remis.unwinnable import Verdict, can_checkmate, is_dead_position
from remis.unwinnable.deadtest import EngineDeadTest, engine_dead_test

__version__ = "0.1.0"

__all__ = [
    "Arbiter",
    "Claim",
    "DeadVerdict",
    "EngineDeadTest",
    "GameError",
    "GameReport",
    "GameRuling",
    "History",
    "Laws",
    "PositionKey",
    "RefusedEvent",
    "Ruling",
    "Verdict",
    "automatic_end",
    "can_checkmate",
    "claim_moves",
    "claimable",
    "engine_dead_test",
    "is_dead_position",
    "laws_for",
    "material_dead_test",
    "parse_fen",
    "position_key",
    "replay",
    "rule_on_claim",
    "rule_on_game",
    "rule_on_pgn_file",
    "rule_on_position",
]
