"""The ``--variant shogi|xiangqi`` paths of ``remis game`` and ``remis
position``; the chess sub-commands hand over to these early in ``run``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from remis.cli.common import emit_json, input_lines, warn
from remis.variants.game import VariantGameRuling, rule_on_lines, rule_on_variant_position


def _open(path: str) -> Any:
    return sys.stdin if path == "-" else open(path, encoding="utf-8")


def run_game(args: argparse.Namespace) -> int:
    """``remis game --variant shogi|xiangqi FILE...``: one game per line.

    >>> run_game(argparse.Namespace(files=["/nonexistent"], variant="shogi", json=False,
    ...          repetitions=None, notation=None))
    1
    """
    status = 0
    for path in args.files:
        try:
            f = _open(path)
            try:
                for g in rule_on_lines(f, args.variant, repetitions=args.repetitions,
                                           notation=args.notation):
                    if g.error is not None:
                        status = 1
                    if args.json:
                        out = g.to_json()
                        out["file"] = path
                        emit_json(out)
                    else:
                        print(human_game(path, g, multi=len(args.files) > 1))
            finally:
                if f is not sys.stdin:
                    f.close()
        except BrokenPipeError:
            raise
        except (OSError, UnicodeDecodeError) as exc:
            warn(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            status = 1
        except ValueError as exc:  # a bad --repetitions
            warn(str(exc))
            return 2
    return status


def human_game(path: str, g: VariantGameRuling, *, multi: bool = False) -> str:
    """One short line per game: line number, plies, the end with its rule.

    >>> from remis.variants.game import rule_on_line
    >>> human_game("f", rule_on_line("startpos 7g7f 7g7f", "shogi", line=2))
    'line 2     shogi    1 plies  no automatic end  ERROR line 2 ply 2: illegal move 7g7f for Gote'
    """
    prefix = f"{path}:" if multi else ""
    parts = [f"{prefix}line {g.line:<4}", f"{g.variant}", f"{g.plies:>3} plies"]
    if g.end is not None:
        e = g.end
        parts.append(f"ends ply {e.ply}: {e.termination} {e.result} ({e.article})")
        if g.moves_after_end:
            parts.append(f"{g.moves_after_end} move(s) after the end not played")
    else:
        parts.append("no automatic end")
    if g.error is not None:
        parts.append(f"ERROR line {g.error['line']} ply {g.error['ply']}: {g.error['message']}")
    return "  ".join(parts)


def run_position(args: argparse.Namespace) -> int:
    """``remis position --variant shogi|xiangqi SFEN|FEN|-``.

    >>> run_position(argparse.Namespace(fen="startpos", variant="shogi", json=True,
    ...              repetitions=None, notation=None))  # doctest: +ELLIPSIS
    {"variant": "shogi", "position": "lnsgkgsnl/...", "side_to_move": "Sente", ...}
    0
    """
    status = 0
    for n, text in enumerate(input_lines(args.fen), start=1):
        try:
            out = rule_on_variant_position(text, args.variant, repetitions=args.repetitions,
                                               notation=args.notation)
        except ValueError as exc:
            status = 1
            out = {"variant": args.variant, "position": text, "end": None,
                   "error": {"line": n, "message": str(exc)}}
        if args.json:
            emit_json(out)
        else:
            print(human_position(out))
    return status


def human_position(out: dict[str, Any]) -> str:
    """Short human-readable verdict on a variant position.

    >>> print(human_position({"position": "x", "error": {"line": 1, "message": "bad"}}))
    x
      ERROR line 1: bad
    """
    if out.get("error"):
        return f"{out['position']}\n  ERROR line {out['error']['line']}: {out['error']['message']}"
    lines = [out["position"],
             f"  {out['side_to_move']} to move, {out['legal_moves']} legal moves"
             + (", in check" if out["in_check"] else "")]
    end = out["end"]
    if end:
        lines.append(f"  game over: {end['termination']} {end['result']} ({end['article']})"
                     f" — {end['explanation']}")
    else:
        lines.append("  no automatic end")
    return "\n".join(lines)
