"""The flag-fall ruling (Article 6.9): a player who runs out of time loses,
unless the opponent cannot checkmate by any series of legal moves (then the
game is drawn), and unless the game had already ended (5.2.2, 9.6 ...)."""

from __future__ import annotations

from typing import Any

import chess

from remis.ruling import Ruling
from remis.unwinnable import Mode, can_checkmate


def flagged_player(result: str | None, board: chess.Board) -> chess.Color:
    """Who lost on time: the loser by the recorded ``result``, else (a draw
    or no result) the side to move at the end.

    >>> flagged_player("1-0", chess.Board())
    False
    >>> flagged_player("1/2-1/2", chess.Board())
    True
    """
    if result == "1-0":
        return chess.BLACK
    if result == "0-1":
        return chess.WHITE
    return board.turn


def flag_fall(board: chess.Board, player: chess.Color, *, end: Ruling | None = None,
              mode: Mode = "full", max_nodes: int | None = None) -> dict[str, Any]:
    """The ``time_forfeit`` object of ``remis game``: ``player`` ran out of
    time in ``board`` (after ``end``, the automatic end, if the game had one).

    >>> out = flag_fall(chess.Board("8/8/8/4k3/8/2n5/8/K7 w - - 0 1"), chess.WHITE)
    >>> out["result"], out["can_checkmate"]["value"]
    ('1/2-1/2', False)
    >>> flag_fall(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.WHITE)["result"]
    '0-1'
    """
    from remis.facts import flag_fall_json

    verdict = None if end is not None else can_checkmate(board, not player, mode=mode,
                                                           max_nodes=max_nodes)
    return flag_fall_json(player, end, verdict)
