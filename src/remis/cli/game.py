"""``remis game FILE|-``: rule on every game of a PGN file."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import chess

from remis.cli.common import emit_json, warn
from remis.errors import InternalError
from remis.files import os_error_text
from remis.game import ClaimMode, GameRuling, game_lines, rule_on_pgn_file
from remis.laws import LAWS_MODES, LawsMode
from remis.messages import TERMINATIONS
from remis.ruling import move_label, positions_text


def register(sub: Any) -> None:
    """Add the ``game`` sub-command.

    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["game", "a.pgn", "b.pgn.gz", "--json"])
    >>> args.files, args.json, args.first_claims, args.laws, args.run is run
    (['a.pgn', 'b.pgn.gz'], True, False, 'current', True)
    """
    p = sub.add_parser(
        "game", help="rule on every game of PGN files (.pgn/.gz/.bz2/.zst, - = stdin)")
    p.add_argument("files", nargs="+", metavar="FILE", help="PGN file(s), or - for stdin")
    p.add_argument("--json", action="store_true", help="one JSON object per game (JSON Lines)")
    p.add_argument("--first-claims", action="store_true",
                   help="list only the first claim of each kind and player")
    p.add_argument("--laws", choices=LAWS_MODES, default="current",
                   help="judge by today's Laws or those in force on each game's Date")
    from remis.cli.variant_options import add_options

    add_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``remis game``: one line (or JSON object) per game; the
    status is 1 when a game or file could not be read, or held no game.

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
    ...     _ = f.write("1. f3 e5 2. g4 Qh4# 0-1\\n\\n1. e4 e5 2. Kf3 *\\n")
    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> run(parser.parse_args(["game", f.name]))  # doctest: +NORMALIZE_WHITESPACE, +ELLIPSIS
    #1  ? - ?  *  4 plies  ends after 2…: checkmate, 0-1 (Art. 5.1.1)
    #2  ? - ?  *  2 plies  no automatic end  ERROR at 2.: illegal san: 'Kf3' in ...
    1
    >>> os.remove(f.name)
    """
    if getattr(args, "variant", "chess") != "chess":
        from remis.cli.variant_options import run_game

        return run_game(args)
    status = 0
    mode: ClaimMode = "first" if args.first_claims else "all"
    multi = len(args.files) > 1
    for path in args.files:
        games = 0
        try:
            if args.json:
                failed, games = print_json(path, mode, args.laws, multi)
                status |= failed
            else:
                for ruling in rule_on_pgn_file(path, claims=mode, laws=args.laws):
                    games += 1
                    if ruling.error is not None:
                        status = 1
                    print(human_line(path, ruling, multi=multi))
        except BrokenPipeError:
            raise
        except OSError as exc:
            warn(f"{path}: {os_error_text(path, exc) if exc.errno else exc}")
            status = 1
        except InternalError as exc:  # a bug in the core: this file stops, the others go on
            warn(f"{path}: {exc}")
            status = 1
        else:
            if games == 0:
                warn(f"{'stdin' if path == '-' else path}: no games")
                status = 1
    return status


def print_json(path: str, mode: ClaimMode, laws: LawsMode, multi: bool) -> tuple[int, int]:
    """Print the JSON line of every game of ``path`` (with several files, each
    names its file: numbers are per file); return the status (1 when a game had
    an error) and the number of games.  The core writes the lines of most games
    (:func:`remis.game.game_lines`).

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
    ...     _ = f.write("1. e4 e5 *\\n\\n1. e4 e5 2. Kf3 *\\n")
    >>> print_json(f.name, "all", "current", False)  # doctest: +ELLIPSIS
    {"game": 1, "headers": {}, "variant": "standard", "plies": 2, "end": null, ..., "error": null}
    {"game": 2, ..., "error": {"ply": 3, "message": "illegal san: 'Kf3' in ...", "offset": ...}}
    (1, 2)
    >>> os.remove(f.name)
    """
    status = games = 0
    write = sys.stdout.write
    for item in game_lines(path, claims=mode, laws=laws, file=path if multi else None):
        games += 1
        if isinstance(item, str):
            write(item)
            continue
        if item.error is not None:
            status = 1
        emit_json({"file": path, **item.to_json()} if multi else item.to_json())
    return status, games


def _who(headers: dict[str, str]) -> str:
    w, b = headers.get("White", "?"), headers.get("Black", "?")
    text = f"{w} - {b}"
    return text if len(text) <= 40 else text[:39] + "…"


def _recorded_differs(g: GameRuling, ruled: str | None) -> str:
    """", not the recorded R" when the game's recorded result R differs from
    the result under the Laws ``ruled`` (nothing when either is unknown)."""
    recorded = g.headers.get("Result", "*")
    return f", not the recorded {recorded}" if ruled and recorded not in ("*", ruled) else ""


def human_line(path: str, g: GameRuling, *, multi: bool = False) -> str:
    """One short line per game: who, recorded result, plies, the end and the
    first claims, each with its article.

    >>> from remis.game import rule_on_parsed
    >>> from remis.pgn import GameText, parse_game
    >>> text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\\n"
    >>> g = rule_on_parsed(parse_game(GameText(3, 0, text)))
    >>> human_line("r.pgn", g, multi=True)  # doctest: +NORMALIZE_WHITESPACE, +ELLIPSIS
    'r.pgn:#3 ... no automatic end  claims: black 9.2.1 Ng8 after 4., white 9.2.2 after 4…'
    """

    prefix = f"{path}:" if multi else ""
    start = _start_board(g.headers)
    parts = [f"{prefix}#{g.index:<4}", f"{_who(g.headers):<40}",
             f"{g.headers.get('Result', '*'):<7}", f"{g.plies:>3} plies"]
    if g.end is not None:
        e = g.end
        words = TERMINATIONS.get(e.termination, e.termination)  # the JSON keeps the id
        parts.append(f"ends {positions_text((e.ply,), start, 0)}: {words}, {e.result} "
                     f"(Art. {e.article})")
    else:
        parts.append("no automatic end")
    tf = g.extra.get("time_forfeit")
    if tf:
        moot = tf.get("applies") is False  # the game had ended before the flag fell
        ruled = (g.end.result if g.end is not None else None) if moot else tf["result"]
        what = "moot, the game had already ended" if moot else tf["result"]
        parts.append(f"time forfeit: {what} (Art. {tf['article']}{_recorded_differs(g, ruled)})")
    firsts: dict[tuple[str, str], Any] = {}
    for c in g.claims:
        firsts.setdefault((c.player, c.kind), c)
    if firsts:
        shown = []
        for c in sorted(firsts.values(), key=lambda c: c.ply):
            mv = f" {c.move}" if c.move else ""
            shown.append(f"{c.player} {c.article}{mv} {positions_text((c.ply,), start, 0)}")
        parts.append("claims: " + ", ".join(shown))
    if g.error is not None:
        parts.append(f"ERROR at {move_label(g.error.ply, start, 0)}: {g.error.message}")
    return "  ".join(parts)


def _start_board(headers: dict[str, str]) -> chess.Board:
    """The game's start (its FEN tag; the usual start when it has none or a bad one),
    for naming moves as players count them.

    >>> _start_board({"FEN": "8/8/4k3/8/8/3K4/8/6R1 b - - 0 40"}).fullmove_number
    40
    """
    try:
        return chess.Board(headers["FEN"]) if "FEN" in headers else chess.Board()
    except ValueError:
        return chess.Board()
