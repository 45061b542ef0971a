"""Shogi and xiangqi: the repetition rules (sennichite, perpetual check,
xiangqi perpetual chase) on top of Fairy-Stockfish's move generation
(``pyffish``, the ``variants`` extra), and shogi's impasse rules (CSA
declaration, JSA 24 points).

The names below are loaded on first use, so that ``remis.cli.variant_options``
(imported by the chess CLI) works without pyffish installed.

>>> from remis.variants import VariantHistory
>>> h = VariantHistory("xiangqi", repetitions=3)
>>> for m in ["b1c3", "b10c8", "c3b1", "c8b10"] * 2:
...     h.push(m)
>>> h.end.termination, h.end.article
('repetition', 'WXF repetition')
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remis.variants.audit import VariantFinding, audit_records
    from remis.variants.game import (
        VariantGameRuling,
        rule_on_line,
        rule_on_lines,
        rule_on_variant_position,
    )
    from remis.variants.history import GameOver, VariantError, VariantHistory
    from remis.variants.impasse import (
        Declaration,
        ImpasseCount,
        declaration,
        declaration_ruling,
        impasse_count,
        impasse_ruling,
    )
    from remis.variants.kifu import GameRecord
    from remis.variants.messages import VariantRuling
    from remis.variants.records import read_records, rule_on_record
    from remis.variants.rules import SHOGI, VARIANTS, XIANGQI, VariantRules, rules_for

_WHERE = {
    "VariantFinding": "audit", "audit_records": "audit", "GameRecord": "kifu",
    "read_records": "records", "rule_on_record": "records",
    "VariantGameRuling": "game", "rule_on_line": "game", "rule_on_lines": "game",
    "rule_on_variant_position": "game",
    "GameOver": "history", "VariantError": "history", "VariantHistory": "history",
    "Declaration": "impasse", "ImpasseCount": "impasse", "declaration": "impasse",
    "declaration_ruling": "impasse", "impasse_count": "impasse", "impasse_ruling": "impasse",
    "VariantRuling": "messages",
    "SHOGI": "rules", "VARIANTS": "rules", "XIANGQI": "rules", "VariantRules": "rules",
    "rules_for": "rules",
}

__all__ = [
    "SHOGI",
    "VARIANTS",
    "XIANGQI",
    "Declaration",
    "GameOver",
    "GameRecord",
    "ImpasseCount",
    "VariantError",
    "VariantFinding",
    "VariantGameRuling",
    "VariantHistory",
    "VariantRules",
    "VariantRuling",
    "audit_records",
    "declaration",
    "declaration_ruling",
    "impasse_count",
    "impasse_ruling",
    "read_records",
    "rule_on_line",
    "rule_on_lines",
    "rule_on_record",
    "rule_on_variant_position",
    "rules_for",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name not in _WHERE:
        raise AttributeError(f"module 'remis.variants' has no attribute {name!r}")
    return getattr(import_module(f"remis.variants.{_WHERE[name]}"), name)
