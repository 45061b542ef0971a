"""The only door to Fairy-Stockfish (``pyffish``): typed wrappers, and FEN
validation whose diagnostics (printed by the engine on file descriptor 2) are
captured and returned instead of leaking onto the user's terminal.

Every pyffish call re-parses the FEN it is given, so callers pass the FEN of
the *current* position with an empty or one-move list, never a whole game.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Sequence

import pyffish as _sf

#: pyffish's code for a valid FEN
FEN_OK: int = int(_sf.FEN_OK)
# file descriptor 2 is process-wide: one validation at a time borrows it
_STDERR_LOCK = threading.Lock()


def start_fen(variant: str) -> str:
    """The start position of ``variant`` in pyffish's FEN.

    >>> start_fen("xiangqi")
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
    """
    return _sf.start_fen(variant)


def validate(variant: str, fen: str) -> str | None:
    """Return ``None`` if pyffish accepts ``fen``, else its diagnostic text.

    >>> validate("xiangqi", start_fen("xiangqi")) is None
    True
    >>> validate("xiangqi", "rnbakabnr/9 w")
    'Invalid number of ranks. Expected: 10 Actual: 2'
    """
    with _STDERR_LOCK, tempfile.TemporaryFile() as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            code = int(_sf.validate_fen(fen, variant))
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("utf-8", "replace").strip()
    if code == FEN_OK:
        return None
    return text or f"invalid FEN (pyffish code {code})"


def legal_moves(variant: str, fen: str, moves: Sequence[str] = ()) -> list[str]:
    """Legal moves in pyffish's coordinate notation of the position ``fen``,
    or of the position after ``moves`` (which must be legal).

    >>> len(legal_moves("xiangqi", start_fen("xiangqi")))
    44
    >>> len(legal_moves("shogi", "startpos", ["c3c4"]))
    30
    """
    return _sf.legal_moves(variant, fen, list(moves))


def after(variant: str, fen: str, move: str) -> str:
    """The FEN after the legal ``move`` (pyffish notation).

    >>> after("xiangqi", start_fen("xiangqi"), "h3e3").split()[:2]
    ['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR', 'b']
    """
    return _sf.get_fen(variant, fen, [move])


def normalize(variant: str, fen: str) -> str:
    """pyffish's own spelling of a valid ``fen`` (all six fields, canonical
    hand order), so that equal positions have equal text.

    >>> normalize("shogi", "9/9/9/9/9/9/9/9/k7K[bPP] w")
    '9/9/9/9/9/9/9/9/k7K[PPb] w - - 0 1'
    """
    return _sf.get_fen(variant, fen, [])


def sfen(variant: str, fen: str) -> str:
    """The position as SFEN (shogi's own notation; sente is ``b``).

    >>> sfen("shogi", start_fen("shogi"))
    'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
    """
    return _sf.get_fen(variant, fen, [], False, True)


def san_moves(variant: str, fen: str, moves: list[str]) -> list[str]:
    """Standard-notation SAN of ``moves`` played from ``fen``, in one call; a
    move that gives check ends in ``+`` (``#`` if it mates).  Raises
    ``ValueError`` naming the first move that is not legal.

    >>> san_moves("xiangqi", "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1", ["f2e2", "e10f10"])
    ['Re2+', 'Kf10']
    """
    return _sf.get_san_moves(variant, fen, moves, False, _sf.NOTATION_SAN)


def in_check(variant: str, fen: str) -> bool:
    """True if the side to move in ``fen`` is in check.

    >>> in_check("xiangqi", "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    True
    """
    return bool(_sf.gives_check(variant, fen, []))


def optional_end(variant: str, fen: str, moves: list[str]) -> tuple[bool, int]:
    """Fairy-Stockfish's own verdict ``(ended, value)`` after ``moves`` from
    ``fen``; ``value`` is from the side to move's view (0 draw, > 0 it wins).
    Re-parses the whole move list: for comparison and benchmarks only.

    >>> optional_end("xiangqi", start_fen("xiangqi"), [])
    (False, 0)
    """
    ended, value = _sf.is_optional_game_end(variant, fen, moves)
    return (True, int(value)) if ended else (False, 0)
