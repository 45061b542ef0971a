"""The arbiter of a live game: clocks, offers, claims, flag falls, illegal
moves, rapid/blitz, online play and Armageddon, every ruling with its article.

>>> from remis.arbiter import Arbiter, RefusedEvent
>>> a = Arbiter({"time_control": "60", "start_fen": "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"})
>>> s = a.apply({"type": "flag", "player": "white", "at": 61})
>>> s["result"], s["article"]          # T03: Black cannot mate, so a draw
('1/2-1/2', '6.9')
"""

from __future__ import annotations

from remis.arbiter.arbiter import Arbiter
from remis.arbiter.config import Config, Period, TimeControl
from remis.arbiter.events import RefusedEvent
from remis.arbiter.state import ArbiterState

__all__ = ["Arbiter", "ArbiterState", "Config", "Period", "RefusedEvent", "TimeControl"]


def _variant_arbiter() -> type[Arbiter]:
    """The arbiter of shogi and xiangqi games, loaded (with pyffish) when the
    first such game is made."""
    from remis.arbiter.variant import VariantArbiter

    return VariantArbiter


Arbiter.variant_arbiter = _variant_arbiter
