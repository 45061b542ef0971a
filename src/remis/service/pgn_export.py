"""A live game as PGN, for the web page's download: the moves on the
arbiter's board, the arbiter's result, a ``[Termination]`` tag (the PGN
standard's words) and the ruling with its article as the closing comment."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import chess

#: the arbiter's terminations that are not "normal" in the PGN standard's words
_TERMINATION = {
    "time_forfeit": "time forfeit",
    "both_flags": "time forfeit",
    "illegal_move": "rules infraction",
    "illegal_position": "adjudication",
    "quickplay_finish": "adjudication",
}


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")").replace("{", "(") + "}"


def game_pgn(game_id: str, config: Mapping[str, Any], created: float,
             state: Mapping[str, Any], moves: Sequence[Mapping[str, Any]]) -> str:
    """The PGN of a live game: ``config`` and ``created`` (seconds since the
    epoch) of its record, its current ``state`` and its move list
    (:func:`remis.service.moves.move_list`).

    >>> state = {"over": True, "result": "0-1", "termination": "checkmate",
    ...          "explanation": "Black checkmated White (Article 5.1.1)."}
    >>> moves = [{"move": m} for m in ["f3", "e5", "g4", "Qh4#"]]
    >>> print(game_pgn("ab12", {"time_control": "180+2"}, 0.0, state, moves))
    ... # doctest: +NORMALIZE_WHITESPACE
    [Event "remis game ab12"]
    [Site "remis"]
    [Date "1970.01.01"]
    [Round "-"]
    [White "?"]
    [Black "?"]
    [Result "0-1"]
    [TimeControl "180+2"]
    [Termination "normal"]
    <BLANKLINE>
    1. f3 e5 2. g4 Qh4# {Black checkmated White (Article 5.1.1).} 0-1
    """
    over = bool(state.get("over"))
    result = str(state.get("result") or "*") if over else "*"
    tags = [("Event", f"remis game {game_id}"), ("Site", "remis"),
            ("Date", time.strftime("%Y.%m.%d", time.gmtime(created))), ("Round", "-"),
            ("White", "?"), ("Black", "?"), ("Result", result)]
    tc = config.get("time_control", "5400+30")
    if isinstance(tc, str):
        tags.append(("TimeControl", tc))
    tags.append(("Termination", _TERMINATION.get(str(state.get("termination")), "normal")
                 if over else "unterminated"))
    start = config.get("start_fen")
    board = chess.Board(start) if isinstance(start, str) else chess.Board()
    if isinstance(start, str):
        tags += [("SetUp", "1"), ("FEN", start)]
    words: list[str] = []
    number, white = board.fullmove_number, board.turn == chess.WHITE
    for i, m in enumerate(moves):
        if white:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(str(m["move"]))
        if not white:
            number += 1
        white = not white
    if over and state.get("explanation"):
        words.append(_comment(str(state["explanation"])))
    words.append(result)
    head = "\n".join(_tag(k, v) for k, v in tags)
    return f"{head}\n\n{_wrap(words)}\n"


def _wrap(words: list[str], width: int = 79) -> str:
    """Movetext in lines of at most ``width`` characters (PGN export format)."""
    lines: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(lines)
