"""Rule on whole games read from PGN: glue between :mod:`remis.pgn` and
:mod:`remis.replay` that produces the ``remis game`` JSON contract."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from remis.pgn import ParsedGame, read_games
from remis.replay import ClaimMode, GameError, replay
from remis.rules import DeadTest, rule_on_claim
from remis.ruling import Claim, Ruling
from remis.unwinnable.deadtest import EngineDeadTest
from remis.unwinnable.flag import flag_fall, flagged_player


@dataclass
class GameRuling:
    """The rulings on one PGN game (see ``remis game --json``)."""

    index: int
    offset: int
    headers: dict[str, str]
    variant: str
    plies: int
    end: Ruling | None
    claims: list[Claim]
    error: GameError | None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the CLI contract.

        >>> from remis.pgn import GameText, parse_game
        >>> g = parse_game(GameText(1, 0, "1. e4 e5 2. Kf3 0-1\\n"))
        >>> j = rule_on_parsed(g).to_json()
        >>> j["game"], j["plies"], j["end"], j["claims"], j["error"]["ply"]
        (1, 2, None, [], 3)
        """

        out: dict[str, Any] = {
            "game": self.index,
            "headers": self.headers,
            "variant": self.variant,
            "plies": self.plies,
            "end": None if self.end is None else self.end.to_json(),
            "claims": [c.to_json() for c in self.claims],
            "error": None if self.error is None else self.error.to_json(),
        }
        out.update(self.extra)
        return out


def rule_on_parsed(g: ParsedGame, *, claims: ClaimMode = "all",
                   dead_test: DeadTest | None = None) -> GameRuling:
    """Rule on one parsed game.  An unreadable move keeps what was replayed
    before it and is reported as ``error``.  The dead test defaults to a
    fresh :class:`~remis.unwinnable.deadtest.EngineDeadTest` for the game.

    >>> import io
    >>> from remis.pgn import GameText, parse_game
    >>> g = parse_game(GameText(1, 0, "1. f3 e5 2. g4 Qh4# 0-1\\n"))
    >>> rule_on_parsed(g).end.termination
    'checkmate'
    >>> g = parse_game(GameText(2, 0, '[Result "0-1"]\\n[Termination "Time forfeit"]\\n\\n'
    ...                            '1. e4 e5 2. Ke2 Ke7 0-1\\n'))
    >>> tf = rule_on_parsed(g).extra["time_forfeit"]
    >>> tf["player"], tf["result"], tf["can_checkmate"]["value"]
    ('white', '0-1', True)
    """
    if g.board is None:
        err = GameError(g.error[0], g.error[1]) if g.error else GameError(0, "unreadable game")
        return GameRuling(g.index, g.offset, g.headers, g.variant, 0, None, [], err)
    if dead_test is None:
        dead_test = EngineDeadTest()
    report = replay(g.moves, g.board, claims=claims, dead_test=dead_test, validated=True)
    error = report.error
    if error is None and g.error is not None:
        error = GameError(g.error[0], g.error[1])
    ruling = GameRuling(g.index, g.offset, g.headers, g.variant, report.plies, report.end,
                        report.claims, error)
    if error is None and report.history is not None and _time_forfeit(g.headers):
        board = report.history.board
        player = flagged_player(g.headers.get("Result"), board)
        ruling.extra["time_forfeit"] = flag_fall(board, player, end=report.end)
    return ruling


def claim_in_game(g: ParsedGame, ply: int, *, kind: str | None = None,
                  move: str | None = None, penalty_seconds: int = 120) -> Claim:
    """The verdict on a draw claim by the player to move after ``ply`` plies of
    a parsed game (``remis claim``, ``/v1/claim``).  The game is replayed with
    the same automatic ends as ``remis game``: a claim after the game has
    ended (a record that goes on after a fivefold repetition, say) is moot.

    >>> from remis.pgn import GameText, parse_game
    >>> text = " ".join(["Nf3 Nf6 Ng1 Ng8"] * 5) + " e4 *"
    >>> g = parse_game(GameText(1, 0, text))
    >>> claim_in_game(g, 8).article, claim_in_game(g, 21).valid
    ('9.2.2', False)
    >>> print(claim_in_game(g, 21).explanation)
    The game is already over (fivefold_repetition, Article 9.6.1); no claim can be made.
    """
    if g.board is None or not 0 <= ply <= len(g.moves):
        raise ValueError(f"no position after ply {ply}")
    dead_test = EngineDeadTest()
    report = replay(g.moves[:ply], g.board, claims="none", dead_test=dead_test, validated=True)
    assert report.history is not None
    return rule_on_claim(report.history, kind=kind, move=move, penalty_seconds=penalty_seconds,
                         dead_test=dead_test, ended=report.end)


def _time_forfeit(headers: dict[str, str]) -> bool:
    return headers.get("Termination", "").strip().lower() == "time forfeit"


def rule_on_game(game: chess.pgn.Game, *, claims: ClaimMode = "all",
                 dead_test: DeadTest | None = None) -> GameRuling:
    """Rule on a python-chess game (its mainline).

    >>> import io
    >>> game = chess.pgn.read_game(io.StringIO("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"))
    >>> [c.article for c in rule_on_game(game).claims if c.ply == 8]
    ['9.2.2', '9.2.1']
    """
    moves = list(game.mainline_moves())
    err = (len(moves) + 1, str(game.errors[0])) if game.errors else None
    parsed = ParsedGame(1, 0, dict(game.headers), game.board(), moves, err)
    return rule_on_parsed(parsed, claims=claims, dead_test=dead_test)


def rule_on_pgn_file(path: str | Path, *, claims: ClaimMode = "all",
                     dead_test: DeadTest | None = None) -> Iterator[GameRuling]:
    """Rule on every game of a PGN file (plain or compressed, ``-`` = stdin).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write("1. f3 e5 2. g4 Qh4# 0-1\\n")
    >>> [r.end.result for r in rule_on_pgn_file(p)]
    ['0-1']
    """
    for g in read_games(path):
        yield rule_on_parsed(g, claims=claims, dead_test=dead_test)
