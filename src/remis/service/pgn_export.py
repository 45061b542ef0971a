"""A live game as PGN, for the web page's download: the players' names, the
date and the time control, the moves on the arbiter's board with each
player's clock after the move (``[%clk h:mm:ss]``), the arbiter's result, a
``[Termination]`` tag (the PGN standard's words) and the ruling with its
article as the closing comment."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import chess

from remis.arbiter import Arbiter, RefusedEvent

#: the arbiter's terminations that are not "normal" in the PGN standard's words
_TERMINATION = {
    "time_forfeit": "time forfeit",
    "both_flags": "time forfeit",
    "illegal_move": "rules infraction",
    "illegal_position": "adjudication",
    "quickplay_finish": "adjudication",
    "aborted": "abandoned",
    "no_first_move": "abandoned",
    "fair_play": "rules infraction",
    "misconduct": "rules infraction",
    "arbiter_decision": "adjudication",
}


def _no_search(board: chess.Board, color: chess.Color) -> Any:
    raise ValueError("not searched")  # the arbiter then takes "can still mate": no search


def clock_marks(config: Mapping[str, Any], events: Iterable[Mapping[str, Any]],
                ) -> list[float | None]:
    """The mover's clock after each move on the board (index ``ply - 1``),
    from the game's stored events replayed.  The replay searches nothing:
    the clocks do not depend on what a search would find, and every stored
    event was accepted.  Empty where the game has no clock or cannot be
    replayed so.

    >>> marks = clock_marks({"time_control": "60+2"}, [
    ...     {"type": "move", "player": "white", "move": "e4", "at": 5.0},
    ...     {"type": "move", "player": "black", "move": "e5", "at": 7.5}])
    >>> marks
    [57.0, 59.5]
    """
    try:
        arbiter = Arbiter(dict(config), dead_test=lambda board: None)
        arbiter.mate_test = _no_search
        if not arbiter.config.time_controls[chess.WHITE].clocked:
            return []
        marks: dict[int, float | None] = {}
        for ev in events:
            ply = arbiter.history.ply
            arbiter.accept(dict(ev))
            if arbiter.history.ply == ply + 1:
                mover = "black" if arbiter.history.board.turn == chess.WHITE else "white"
                marks[ply + 1] = arbiter.clock_times()[mover]
        return [marks.get(p) for p in range(1, arbiter.history.ply + 1)]
    except (RefusedEvent, ValueError, AttributeError):
        return []


def clk(seconds: float) -> str:
    """A ``[%clk]`` comment: h:mm:ss, tenths where there are any.

    >>> clk(5455.6), clk(59.0)
    ('[%clk 1:30:55.6]', '[%clk 0:00:59]')
    """
    tenths = int(max(0.0, seconds) * 10 + 1e-6)
    whole, tenth = divmod(tenths, 10)
    h, rest = divmod(whole, 3600)
    m, sec = divmod(rest, 60)
    return f"[%clk {h}:{m:02d}:{sec:02d}{f'.{tenth}' if tenth else ''}]"


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")").replace("{", "(") + "}"


def game_pgn(game_id: str, config: Mapping[str, Any], created: float,
             state: Mapping[str, Any], moves: Sequence[Mapping[str, Any]],
             events: Iterable[Mapping[str, Any]] = ()) -> str:
    """The PGN of a live game: ``config`` and ``created`` (seconds since the
    epoch) of its record, its current ``state``, its move list
    (:func:`remis.service.moves.move_list`) and its stored ``events`` (for
    the clocks; none: no ``[%clk]``).

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
    [UTCTime "00:00:00"]
    [TimeControl "180+2"]
    [Termination "normal"]
    <BLANKLINE>
    1. f3 e5 2. g4 Qh4# {Black checkmated White (Article 5.1.1).} 0-1

    With the names and the events, each move has its clock:

    >>> events = [{"type": "move", "player": "white", "move": "e4", "at": 4.0}]
    >>> print(game_pgn("ab12", {"time_control": "180+2", "players": {"white": "Ann"}}, 0.0,
    ...                {"over": False}, [{"move": "e4"}], events).split(chr(10))[-2])
    1. e4 {[%clk 0:02:58]} *
    """
    over = bool(state.get("over"))
    result = str(state.get("result") or "*") if over else "*"
    names = config.get("players") or {}
    tags = [("Event", f"remis game {game_id}"), ("Site", "remis"),
            ("Date", time.strftime("%Y.%m.%d", time.gmtime(created))), ("Round", "-"),
            ("White", names.get("white") or "?"), ("Black", names.get("black") or "?"),
            ("Result", result),
            ("UTCTime", time.strftime("%H:%M:%S", time.gmtime(created)))]
    tc = config.get("time_control", "5400+30")
    if isinstance(tc, str):
        tags.append(("TimeControl", tc))
    tags.append(("Termination", _TERMINATION.get(str(state.get("termination")), "normal")
                 if over else "unterminated"))
    start = config.get("start_fen")
    board = chess.Board(start) if isinstance(start, str) else chess.Board()
    if isinstance(start, str):
        tags += [("SetUp", "1"), ("FEN", start)]
    marks = clock_marks(config, events) if len(moves) else []
    words: list[str] = []
    number, white = board.fullmove_number, board.turn == chess.WHITE
    for i, m in enumerate(moves):
        if white:
            words.append(f"{number}.")
        elif i == 0 or marks:
            words.append(f"{number}...")
        words.append(str(m["move"]))
        mark = marks[i] if i < len(marks) else None
        if mark is not None:
            words.append("{" + clk(mark) + "}")
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
