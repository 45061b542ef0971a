"""``remis claim FILE|-``: rule on one draw claim in a game from PGN."""

from __future__ import annotations

import argparse
from typing import Any

import chess

from remis.cli.common import emit_json, warn
from remis.files import os_error_text
from remis.game import claim_in_game
from remis.laws import LAWS_MODES
from remis.pgn import read_games
from remis.ruling import FIFTY, THREEFOLD, positions_text

_KINDS = {"threefold": THREEFOLD, "threefold_repetition": THREEFOLD, "fifty": FIFTY,
          "fifty_moves": FIFTY}
_PENALTY = {"standard": 120, "rapid": 60, "blitz": 60}
_WORDS = {THREEFOLD: "threefold repetition", FIFTY: "the fifty-move rule"}


def register(sub: Any) -> None:
    """Add the ``claim`` sub-command.

    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["claim", "game.pgn", "--ply", "8", "--kind", "threefold"])
    >>> args.command, args.file, args.ply, args.kind, args.mode, args.laws, args.run is run
    ('claim', 'game.pgn', 8, 'threefold', 'standard', 'current', True)
    """
    p = sub.add_parser("claim", help="rule on a draw claim (9.2 / 9.3) by the player to move")
    p.add_argument("file", metavar="FILE", help="PGN file, or - for stdin")
    p.add_argument("--game", type=int, default=1, help="game number in the file (from 1)")
    p.add_argument("--ply", type=int, default=None,
                   help="claim after this many plies (default: end of the mainline)")
    p.add_argument("--move", default=None, help="intended move (SAN or UCI) for 9.2.1 / 9.3.1")
    p.add_argument("--kind", choices=sorted(_KINDS), default=None,
                   help="kind of claim (default: any that holds)")
    p.add_argument("--mode", choices=sorted(_PENALTY), default="standard",
                   help="play mode, for the penalty of an incorrect claim")
    p.add_argument("--laws", choices=LAWS_MODES, default="current",
                   help="judge by today's Laws or those in force on the game's Date")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``remis claim``: the status is 1 when the game cannot be
    read, or the claim is ruled where a broken record stops.

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
    ...     _ = f.write("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\\n")
    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> run(parser.parse_args(["claim", f.name, "--ply", "4"]))  # doctest: +NORMALIZE_WHITESPACE
    INCORRECT: White claims a draw by threefold repetition after 2…
      The claim under Article 9.2.2 is incorrect: the position has appeared 2 of the three
      times needed (at the start, after 2…). The opponent gets 2 minutes more, the game goes
      on, and the claim stands as a draw offer (9.5.3, 9.1.2.3).
    0
    >>> run(parser.parse_args(["claim", f.name, "--json"]))  # doctest: +ELLIPSIS
    {"valid": true, "ply": 8, "player": "white", "kind": "threefold_repetition", ...}
    0
    >>> run(parser.parse_args(["claim", f.name, "--game", "2"]))  # stderr: no game number 2
    1

    A record broken by an illegal move is ruled where its reading stopped, and
    says so (on stderr), with status 1:

    >>> _ = open(f.name, "w").write("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Ke3 *\\n")
    >>> run(parser.parse_args(["claim", f.name, "--json"]))  # doctest: +ELLIPSIS
    {"valid": true, "ply": 8, ...}
    1

    >>> os.remove(f.name)
    """

    if args.game < 1:
        warn("--game counts from 1")
        return 2
    try:
        game = next((g for g in read_games(args.file) if g.index == args.game), None)
    except OSError as exc:
        warn(f"{args.file}: {os_error_text(args.file, exc) if exc.errno else exc}")
        return 1
    if game is None:
        warn(f"{args.file}: no game number {args.game}")
        return 1
    if game.board is None:
        warn(f"{args.file}: game {args.game}: {game.error[1] if game.error else 'unreadable'}")
        return 1
    ply = len(game.moves) if args.ply is None else args.ply
    if ply < 0 or ply > len(game.moves):
        where = f"ply {ply}"
        extra = f" (error at ply {game.error[0]}: {game.error[1]})" if game.error else ""
        warn(f"{args.file}: game {args.game}: {where} is outside the game "
             f"(0..{len(game.moves)}){extra}")
        return 1
    verdict = claim_in_game(game, ply, kind=_KINDS.get(args.kind or ""), move=args.move,
                            penalty_seconds=_PENALTY[args.mode], laws=args.laws)
    status = 0
    if game.error is not None and ply == len(game.moves):
        # the record stops at its error: the claim is ruled where the reading stopped
        warn(f"{args.file}: game {args.game}: the record is broken at ply {game.error[0]} "
             f"({game.error[1]}); the claim is ruled after ply {ply}, the last move read")
        status = 1
    if args.json:
        emit_json(verdict.verdict_json())
    else:
        word = "CORRECT" if verdict.valid else "INCORRECT"
        mv = f", writing {verdict.move}" if verdict.move else ""
        when = positions_text((ply,), game.board, 0)
        print(f"{word}: {verdict.player.title()} claims a draw by {_WORDS[verdict.kind]} "
              f"{when}{mv}")
        print(f"  {verdict.explanation}")
    return status


# imported for its side effect in type checkers only
_ = chess
