"""remis: end chess games the way a FIDE arbiter would.

The public API reads like questions about a game, each answer a ruling with
the article of the FIDE Laws of Chess (2023) it rests on.

>>> import remis, chess
>>> h = remis.History()
>>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
...     _ = h.push_san(san)
>>> remis.rule_on_claim(h).article
'9.2.2'

``remis.replay`` is the function, even once its module is loaded:

>>> import remis.replay
>>> callable(remis.replay)
True
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: where each public name lives; a module is imported the first time one of
#: its names is asked for, so ``import remis`` (and ``remis --version``) costs
#: almost nothing and a command loads only what it needs
_PUBLIC = {
    "Arbiter": "remis.arbiter",
    "ArbiterState": "remis.arbiter",
    "RefusedEvent": "remis.arbiter",
    "GameRuling": "remis.game",
    "GameError": "remis.game",
    "InternalError": "remis.errors",
    "rule_on_game": "remis.game",
    "rule_on_pgn_file": "remis.game",
    "History": "remis.history",
    "Laws": "remis.laws",
    "claim_moves": "remis.laws",
    "laws_for": "remis.laws",
    "PositionKey": "remis.identity",
    "position_key": "remis.identity",
    "parse_fen": "remis.fen",
    "PositionRuling": "remis.position",
    "rule_on_position": "remis.position",
    "GameReport": "remis.replay",
    "replay": "remis.replay",
    "DeadVerdict": "remis.rules",
    "automatic_end": "remis.rules",
    "claimable": "remis.rules",
    "material_dead_test": "remis.rules",
    "rule_on_claim": "remis.rules",
    "Claim": "remis.ruling",
    "Ruling": "remis.ruling",
    "Verdict": "remis.unwinnable",
    "can_checkmate": "remis.unwinnable",
    "is_dead_position": "remis.unwinnable",
    "EngineDeadTest": "remis.unwinnable.deadtest",
    "engine_dead_test": "remis.unwinnable.deadtest",
}

__all__ = [
    "Arbiter",
    "ArbiterState",
    "Claim",
    "DeadVerdict",
    "EngineDeadTest",
    "GameError",
    "GameReport",
    "GameRuling",
    "History",
    "InternalError",
    "Laws",
    "PositionKey",
    "PositionRuling",
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


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'remis' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])


class _Package(ModuleType):
    """The package, whose public ``replay`` (the function) shares its name with
    the submodule: importing ``remis.replay`` must not put the module in the
    function's place (``sys.modules`` keeps the module)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "replay" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from remis.arbiter import Arbiter, ArbiterState, RefusedEvent
    from remis.errors import InternalError
    from remis.fen import parse_fen
    from remis.game import GameError, GameRuling, rule_on_game, rule_on_pgn_file
    from remis.history import History
    from remis.identity import PositionKey, position_key
    from remis.laws import Laws, claim_moves, laws_for
    from remis.position import PositionRuling, rule_on_position
    from remis.replay import GameReport, replay
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
