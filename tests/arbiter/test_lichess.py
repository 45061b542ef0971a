"""Real lichess games that ended on time (shared data): the arbiter's clocks,
driven only by event times derived from the games' ``[%clk]`` comments, agree
with lichess's clocks after every move, the flag is refused a moment before it
falls and accepted after, and the 6.9 ruling equals lichess's result
(including the draws where the winner had no mating material)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from remis.arbiter import Arbiter, RefusedEvent
from remis.pgn import read_games

CLK = re.compile(r"\[%clk (\d+):(\d+):(\d+(?:\.\d+)?)\]")


def _clk(comment: str) -> float:
    m = CLK.search(comment)
    assert m, comment
    return int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3])


def test_lichess_time_forfeits(shared_data: Path) -> None:
    games = 0
    draws = 0
    for g in read_games(shared_data / "lichess" / "lichess_2017-05.pgn"):
        if g.headers.get("Termination") != "Time forfeit" or g.board is None:
            continue
        base, inc = (float(x) for x in g.headers["TimeControl"].split("+"))
        if len(g.moves) < 2:
            continue
        # lichess "berserk" halves a player's time and drops the increment
        first = {"white": _clk(g.comments[0]), "black": _clk(g.comments[1])}
        tc = {c: f"{first[c]:g}" + (f"+{inc:g}" if first[c] == base and inc else "")
              for c in first}
        incs = {c: inc if first[c] == base else 0.0 for c in first}
        # blitz, not online: %clk has whole seconds, so a move may seem to come
        # a fraction of a second after the fall, which a server would not allow
        a = Arbiter({"time_control": tc, "mode": "blitz", "supervision": "partial"})
        left = {"white": first["white"], "black": first["black"]}
        at = 0.0
        board = g.board.copy()
        for ply, (move, comment) in enumerate(zip(g.moves, g.comments, strict=True)):
            mover = "white" if board.turn else "black"
            clk = _clk(comment)
            if ply >= 2:                    # lichess starts the clocks after move 1 each
                at += left[mover] - clk + incs[mover]
            left[mover] = clk
            state = a.apply({"type": "move", "player": mover, "move": move.uci(), "at": at})
            board.push(move)
            assert abs(state["clocks"][mover] - clk) <= 1.0, (g.headers["Site"], ply)
        flagged = "white" if board.turn else "black"
        fall = at + state["clocks"][flagged]
        if state["clocks"][flagged] >= 1:
            with pytest.raises(RefusedEvent, match="has not fallen"):
                a.apply({"type": "flag", "player": flagged, "at": fall - 1})
        end = a.apply({"type": "flag", "player": flagged, "at": fall + 0.5})
        assert end["termination"] == "time_forfeit"
        assert end["result"] == g.headers["Result"], g.headers["Site"]
        games += 1
        draws += end["result"] == "1/2-1/2"
    assert games >= 140 and draws >= 1
