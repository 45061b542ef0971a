"""``remis position FEN|-``: rule on single positions (one FEN per line on stdin)."""

from __future__ import annotations

import argparse
from typing import Any

import chess

from remis.cli.common import emit_json, input_lines, positive_float, positive_int
from remis.position import rule_on_position


def register(sub: Any) -> None:
    """Add the ``position`` sub-command.

    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["position", "-", "--quick", "--max-nodes", "5000"])
    >>> args.fen, args.quick, args.max_nodes, args.max_seconds, args.run is run
    ('-', True, 5000, None, True)
    """
    p = sub.add_parser("position", help="rule on a position given as FEN (- = one FEN per line)")
    p.add_argument("fen", metavar="FEN", help="a FEN (quote it), or - for stdin")
    p.add_argument("--json", action="store_true", help="one JSON object per FEN")
    p.add_argument("--quick", action="store_true",
                   help="quick unwinnability check (may leave can_checkmate undecided: null)")
    from remis.unwinnable.budget import SEARCH_NODES

    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="node budget of full mode's unwinnability search, per side "
                        f"(default {SEARCH_NODES:,})")
    p.add_argument("--max-seconds", type=positive_float, default=None, metavar="SECONDS",
                   help="time budget of the unwinnability search per side (default: none)")
    from remis.cli.variant_options import add_options

    add_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``remis position``: one verdict per FEN.  A FEN given as the
    argument that cannot be used is a usage error (status 2); from standard
    input, a bad line is reported where it stands, the rest is read, and the
    status is 1.

    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> run(parser.parse_args(["position", "8/8/4k3/8/8/2BK4/8/8 w - - 0 1", "--json"]))
    ... # doctest: +ELLIPSIS
    {"fen": "8/8/4k3/8/8/2BK4/8/8 w - - 0 1", "end": {..."termination": "insufficient_material"...}
    0
    >>> run(parser.parse_args(["position", "not a fen"]))  # doctest: +ELLIPSIS
    ERROR: malformed FEN 'not a fen': ...
    2
    """
    if getattr(args, "variant", "chess") != "chess":
        from remis.cli.variant_options import run_position

        return run_position(args)
    status = 0
    for n, fen in input_lines(args.fen):
        try:
            out = rule_on_position(fen, mode="quick" if args.quick else "full",
                                   max_nodes=args.max_nodes,
                                   max_seconds=args.max_seconds).to_json()
        except ValueError as exc:
            status = 1 if args.fen == "-" else 2
            out = {"fen": fen, "end": None, "claims": [],
                   "error": {"line": n, "message": str(exc)}}
        if args.json:
            emit_json(out)
        else:
            print(human(out, from_stdin=args.fen == "-"))
    return status


def human(out: dict[str, Any], *, from_stdin: bool = True) -> str:
    """Short human-readable verdict on a position.

    >>> from remis.position import rule_on_position
    >>> print(human(rule_on_position("8/8/4k3/8/8/2BK4/8/8 w - - 0 1").to_json()))
    ... # doctest: +NORMALIZE_WHITESPACE, +ELLIPSIS
    8/8/4k3/8/8/2BK4/8/8 w - - 0 1
      game over: 1/2-1/2 — Neither player has ... (K+B v K): ... (Article 5.2.2).
      white can checkmate: no
      black can checkmate: no
    """

    if out.get("error"):
        # the message names the FEN: once is enough
        where = f" (line {out['error']['line']})" if from_stdin else ""
        return f"ERROR{where}: {out['error']['message']}"
    lines = [out["fen"]]
    end = out["end"]
    if end:  # the explanation cites the article and gives the reasons: once
        lines.append(f"  game over: {end['result']} — {end['explanation']}")
    else:
        lines.append("  no automatic end")
    for c in out["claims"]:
        mv = f" {c['move']}" if c["move"] else ""
        lines.append(f"  claim: {c['player']} {c['kind']}{mv} (Art. {c['article']})")
    for side, v in out.get("unwinnability", {}).items():
        answer = {True: "yes", False: "no", None: "undecided"}[v["value"]]
        line = f" — {' '.join(v['line'])}" if v.get("line") else ""
        why = "" if end and v["value"] is False else f" ({v['reason']})"
        lines.append(f"  {side} can checkmate: {answer}{why}{line}")
    return "\n".join(lines)


_ = chess
