"""The library's own exception for a bug in its compiled core.

Bad input (a FEN, a PGN, an event) raises :class:`ValueError` (or
:class:`OSError` for a file), with a message that says where.  A panic in
the compiled core (``remis._core``: a bug, never the input's fault) comes
out as :class:`InternalError`, a :class:`RuntimeError` naming the entry
point and where its input stood (the game and byte of a PGN stream, the ply
and position of a history), so that ``except Exception`` handles it like any
other error.

>>> issubclass(InternalError, RuntimeError)
True
"""

from __future__ import annotations

from remis._core import InternalError

__all__ = ["InternalError"]
