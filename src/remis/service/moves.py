"""The move list of a live game as the arbiter's board holds it: the moves
played, including illegal moves that stand on the board (7.5.1) and without
the moves an illegal move found later cancelled.  Display only: no rule is
decided here; ``standing`` is what the board shows (a move that was not legal
in its position), which the web page offers to the arbiter as an illegal move
found later.
"""

from __future__ import annotations

from typing import Any

import chess


def move_list(history: Any) -> list[dict[str, Any]]:
    """``[{"ply", "player", "move", "standing"}]`` of a chess
    :class:`~remis.history.History` (SAN for a legal move, UCI for an illegal
    one that stands, ``--`` for a clock press without a move) or of a variant
    history (its own notation, never ``standing``).

    >>> from remis.history import History
    >>> h = History()
    >>> _ = h.push_san("e4"); _ = h.push(chess.Move.from_uci("e7e4"))
    >>> [(m["ply"], m["player"], m["move"], m["standing"]) for m in move_list(h)]
    [(1, 'white', 'e4', False), (2, 'black', 'e7e4', True)]
    """
    board = getattr(history, "board", None)
    if not isinstance(board, chess.Board):  # shogi, xiangqi: the history's own move texts
        now = history.rules.players.index(history.side_to_move)  # 0: the first player
        n = history.ply
        return [{"ply": i + 1, "player": "white" if (now + i - n) % 2 == 0 else "black",
                 "move": text, "standing": False} for i, text in enumerate(history.moves)]
    stack = list(board.move_stack)
    replay = board.copy(stack=len(stack))
    while replay.move_stack:
        replay.pop()
    out = []
    for ply, move in enumerate(stack, start=1):
        player = "white" if replay.turn == chess.WHITE else "black"
        if not move:
            text, standing = "--", True
        elif replay.is_legal(move):
            text, standing = replay.san(move), False
        else:
            text, standing = move.uci(), True
        out.append({"ply": ply, "player": player, "move": text, "standing": standing})
        replay.push(move)
    return out
