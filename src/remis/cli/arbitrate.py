"""``remis arbitrate FILE|-``: run a live game's events through the arbiter.

The input is one JSON object ``{"config": {...}, "events": [...]}``; the
output is the state after each event, one JSON object a line.  A refused
event prints ``{"error": "...", "event": n}`` (n counts from 0) and the run
goes on; the exit status is 1 if any event was refused or the input is bad.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.state import ArbiterState
from remis.cli.common import emit_json, warn
from remis.files import os_error_text

_EPILOG = """\
config (all optional): time_control ("5400+30", "40/5400:1800+30", "300d5" = 5 s delay,
  "-" = no clock, or {"white": "300", "black": "240"}), mode (standard|rapid|blitz|online),
  supervision (full|partial), armageddon, no_agreement_before_move, draw_agreement
  (allowed|arbiter_only|forbidden_before(N): offers need the arbiter's consent, 9.1.1),
  quickplay_finish, start_fen, auto_claim_threefold (online: ["white", "black"]),
  flag_time (observed|physical, 6.8; online: physical), clock_start (game_start|first_move:
  the clocks stand until the first move), variant (chess|shogi|xiangqi).
shogi/xiangqi: start_fen = SFEN / FEN / "startpos", moves in USI / UCI (xiangqi
  "notation": "iccs" for ICCS), xiangqi "repetitions": 4 (default) or 3; "white" = the
  first player (sente, red); claims and Guidelines III are chess-only; illegal_move:
  an immediate loss in shogi (JSA), refused in xiangqi.
events: move, offer_draw, accept_draw, decline_draw, claim (kind: threefold_repetition,
  fifty_moves, quickplay, increment; optional move), touch (optional square), flag
  (player = whose flag fell, or "both"), illegal_move (kind: move, no_move, two_hands,
  unpromoted_pawn; called_by: arbiter, opponent, nobody; or "ply": N alone, an illegal
  move that stood found later, 7.5.1, with optional "clocks": {"white": s, "black": s}),
  resign, arbiter (decision: accept, postpone, reject). "at" = seconds since the start of the game.
A refused event prints {"error": ..., "event": n}; exit status 1 if any was refused."""


def register(sub: Any) -> None:
    """Add the ``arbitrate`` sub-command.

    >>> from remis.cli import build_parser
    >>> build_parser().parse_args(["arbitrate", "-"]).file
    '-'
    """
    p = sub.add_parser("arbitrate", help="arbitrate a live game from its events (JSON)",
                       description="Run a live game's events through the arbiter and print "
                       "the state after each event (JSON Lines).",
                       epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE",
                   help='JSON file {"config": {...}, "events": [...]}, or - for stdin')
    p.set_defaults(run=run)


def _read(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def arbitrate(doc: Any, source: str = "<input>",
              ) -> tuple[list[ArbiterState | dict[str, Any]], int]:
    """Run the events of ``doc``; return the output lines and the exit status.

    >>> lines, status = arbitrate({"config": {"time_control": "-"}, "events": [
    ...     {"type": "move", "player": "white", "move": "e4"},
    ...     {"type": "move", "player": "white", "move": "d4"}]})
    >>> lines[1], status
    ({'error': 'white cannot move: black has the move', 'event': 1}, 1)
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("events", []), list):
        raise ValueError(f"{source}: expected a JSON object with 'config' and a list 'events'")
    extra = sorted(str(k) for k in doc if k not in ("config", "events"))
    if extra:
        raise ValueError(f"{source}: unknown key {extra[0]!r} (expected 'config' and 'events')")
    try:
        arbiter = Arbiter(doc.get("config"))
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None
    out: list[ArbiterState | dict[str, Any]] = []
    status = 0
    for n, event in enumerate(doc.get("events", [])):
        try:
            out.append(arbiter.apply(event))
        except RefusedEvent as exc:
            out.append({"error": exc.message, "event": n})
            status = 1
    return out, status


def run(args: argparse.Namespace) -> int:
    """Execute ``remis arbitrate``; returns the exit status.

    >>> import argparse, tempfile, json, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
    ...     json.dump({"config": {"time_control": "-"}, "events": [
    ...         {"type": "resign", "player": "black"}]}, fh)
    >>> run(argparse.Namespace(file=fh.name))  # doctest: +ELLIPSIS
    {"over": true, "result": "1-0", "termination": "resignation", "article": "5.1.2", ...}
    0
    >>> os.unlink(fh.name)
    """
    source = "stdin" if args.file == "-" else args.file
    try:
        doc = _read(args.file)
    except OSError as exc:
        warn(f"{source}: {os_error_text(args.file, exc) if exc.errno else exc}")
        return 1
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        warn(f"{source}: not valid JSON ({exc})")
        return 1
    try:
        lines, status = arbitrate(doc, source)
    except ValueError as exc:
        warn(str(exc))
        return 1
    for line in lines:
        emit_json(line)
    return status
