"""Rule on whole games read from PGN: glue between :mod:`remis.pgn` and
:mod:`remis.replay` that produces the ``remis game`` JSON contract."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from remis.laws import Laws, LawsMode, laws_for
from remis.pgn import ParsedGame, read_games
from remis.replay import ClaimMode, GameError, GameReport, replay
from remis.rules import DeadTest, rule_on_claim
from remis.ruling import Claim, Ruling
from remis.unwinnable.deadtest import EngineDeadTest
from remis.unwinnable.first_dead import KnownDead, first_dead
from remis.unwinnable.flag import flag_fall, flagged_player


@dataclass
class GameRuling:
    """The rulings on one PGN game (see ``remis game --json``): the game's
    number in its file (``index``, from 1), its byte ``offset``, its headers,
    and what :func:`remis.replay` found, with ``extra`` facts such as a time
    forfeit's verdict.

    >>> import io
    >>> game = chess.pgn.read_game(io.StringIO('[White "A"]\\n\\n1. f3 e5 2. g4 Qh4# 0-1'))
    >>> r = rule_on_game(game)
    >>> r.headers["White"], r.plies, r.end.termination, r.end.article
    ('A', 4, 'checkmate', '5.1.1')
    """

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
                   dead_test: DeadTest | None = None, last_position: bool = True,
                   laws: LawsMode = "current") -> GameRuling:
    """Rule on one parsed game.  An unreadable move keeps what was replayed
    before it and is reported as ``error``.  ``laws="as-played"`` judges it
    by the Laws in force on its ``Date`` (:func:`remis.laws.laws_for`: the
    automatic ends and the 9.3 count), and ``extra["laws"]`` names them.
    The dead test defaults to a
    fresh :class:`~remis.unwinnable.deadtest.EngineDeadTest` for the game.
    With ``last_position`` (the default), a game that the per-ply test let
    go on to its last position is asked once more there, in full mode:
    where that position is proved dead, the game ended at the first
    position proved dead (:func:`~remis.unwinnable.first_dead.first_dead`)
    and is replayed again to rule there.

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
    in_force = laws_for(g.headers.get("Date"), laws)
    report = _replay(g.board, g.moves, claims, dead_test, last_position, in_force)
    error = report.error
    if error is None and g.error is not None:
        error = GameError(g.error[0], g.error[1])
    ruling = GameRuling(g.index, g.offset, g.headers, g.variant, report.plies, report.end,
                        report.claims, error)
    if laws != "current":
        ruling.extra["laws"] = in_force.label
    if error is None and report.history is not None and _time_forfeit(g.headers):
        board = report.history.board
        player = flagged_player(g.headers.get("Result"), board)
        ruling.extra["time_forfeit"] = flag_fall(board, player, end=report.end)
    return ruling


def claim_in_game(g: ParsedGame, ply: int, *, kind: str | None = None,
                  move: str | None = None, penalty_seconds: int = 120,
                  laws: LawsMode = "current") -> Claim:
    """The verdict on a draw claim by the player to move after ``ply`` plies of
    a parsed game (``remis claim``, ``/v1/claim``).  The game is replayed with
    the same automatic ends as ``remis game``: a claim after the game has
    ended (a record that goes on after a fivefold repetition, say) is moot.
    ``laws="as-played"`` judges it by the Laws in force on the game's ``Date``.

    >>> from remis.pgn import GameText, parse_game
    >>> text = " ".join(["Nf3 Nf6 Ng1 Ng8"] * 5) + " e4 *"
    >>> g = parse_game(GameText(1, 0, text))
    >>> claim_in_game(g, 8).article, claim_in_game(g, 21).valid
    ('9.2.2', False)
    >>> print(claim_in_game(g, 21).explanation)
    No claim can be made: the game is already over (fivefold_repetition, Article 9.6.1).
    """
    if g.board is None or not 0 <= ply <= len(g.moves):
        raise ValueError(f"no position after ply {ply}")
    dead_test = EngineDeadTest()
    in_force = laws_for(g.headers.get("Date"), laws)
    report = _replay(g.board, g.moves[:ply], "none", dead_test, True, in_force)
    assert report.history is not None
    return rule_on_claim(report.history, kind=kind, move=move, penalty_seconds=penalty_seconds,
                         dead_test=dead_test, ended=report.end, laws=in_force)


def _replay(board: chess.Board, moves: list[chess.Move], claims: ClaimMode,
            dead_test: DeadTest, last_position: bool, laws: Laws) -> GameReport:
    """The replay of a game's validated ``moves`` from ``board``; with
    ``last_position``, where it found no end, the last position gets the
    full-mode test, and where that proves it dead, the replay runs again
    to end at the first position proved dead
    (:func:`~remis.unwinnable.first_dead.first_dead`).

    >>> b = chess.Board("8/2p5/1pP5/1P6/1P6/KP6/PP6/1Nk5 b - - 0 1")
    >>> moves = [chess.Move.from_uci(u) for u in ("c1b1", "a3a4", "b1c2")]
    >>> from remis.laws import CURRENT
    >>> r = _replay(b, moves, "none", EngineDeadTest(), True, CURRENT)
    >>> r.end.ply, r.end.termination, r.plies
    (1, 'dead_position', 3)
    >>> _replay(b, moves, "none", EngineDeadTest(), False, CURRENT).end is None
    True
    """
    report = replay(moves, board, claims=claims, dead_test=dead_test, validated=True, laws=laws)
    if not last_position or report.end is not None:
        return report
    assert report.history is not None
    found = first_dead(board, moves[:report.plies], last=report.history.board)
    if found is None:
        return report
    known = KnownDead(found.board, found.verdict)
    return replay(moves, board, claims=claims, dead_test=known, validated=True, laws=laws)


def _time_forfeit(headers: dict[str, str]) -> bool:
    return headers.get("Termination", "").strip().lower() == "time forfeit"


def rule_on_game(game: chess.pgn.Game, *, claims: ClaimMode = "all",
                 dead_test: DeadTest | None = None, last_position: bool = True,
                 laws: LawsMode = "current") -> GameRuling:
    """Rule on a python-chess game (its mainline), as :func:`rule_on_parsed`.

    >>> import io
    >>> game = chess.pgn.read_game(io.StringIO("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"))
    >>> [c.article for c in rule_on_game(game).claims if c.ply == 8]
    ['9.2.2', '9.2.1']
    """
    moves = list(game.mainline_moves())
    err = (len(moves) + 1, str(game.errors[0])) if game.errors else None
    parsed = ParsedGame(1, 0, dict(game.headers), game.board(), moves, err)
    return rule_on_parsed(parsed, claims=claims, dead_test=dead_test,
                          last_position=last_position, laws=laws)


def rule_on_pgn_file(path: str | Path, *, claims: ClaimMode = "all",
                     dead_test: DeadTest | None = None, last_position: bool = True,
                     laws: LawsMode = "current") -> Iterator[GameRuling]:
    """Rule on every game of a PGN file (plain or compressed, ``-`` = stdin),
    each as :func:`rule_on_parsed`.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn")
    >>> _ = open(p, "w").write("1. f3 e5 2. g4 Qh4# 0-1\\n")
    >>> [r.end.result for r in rule_on_pgn_file(p)]
    ['0-1']
    """
    for g in read_games(path):
        yield rule_on_parsed(g, claims=claims, dead_test=dead_test,
                             last_position=last_position, laws=laws)
