"""The ``--variant shogi|xiangqi`` paths of ``remis game``, ``remis
position`` and ``remis audit``; the chess sub-commands hand over to these
early in ``run``."""

from __future__ import annotations

import argparse
from typing import Any

from remis.cli.common import emit_json, input_lines, warn
from remis.files import os_error_text
from remis.variants.game import VariantGameRuling, rule_on_variant_position
from remis.variants.records import read_records, rule_on_record
from remis.variants.rules import rules_for


def run_game(args: argparse.Namespace) -> int:
    """``remis game --variant shogi|xiangqi FILE...``: one game per line, or
    KIF/KI2/CSA files (shogi, by extension).

    >>> run_game(argparse.Namespace(files=["/nonexistent"], variant="shogi", json=False,
    ...          repetitions=None, notation=None))
    1
    """
    status = 0
    try:
        rules_for(args.variant, args.repetitions)
    except ValueError as exc:  # a bad --repetitions
        warn(str(exc))
        return 2
    for path in args.files:
        try:
            for rec in read_records(path, args.variant):
                g = rule_on_record(rec, args.variant, repetitions=args.repetitions,
                                   notation=args.notation)
                if g.error is not None:
                    status = 1
                if args.json:
                    out = g.to_json()
                    out["file"] = path
                    emit_json(out)
                else:
                    print(human_game(path, g, multi=len(args.files) > 1))
        except BrokenPipeError:
            raise
        except OSError as exc:
            warn(f"{path}: {os_error_text(path, exc) if exc.errno else exc}")
            status = 1
        except ValueError as exc:
            warn(f"{path}: {exc}")
            status = 1
    return status


def human_game(path: str, g: VariantGameRuling, *, multi: bool = False) -> str:
    """One short line per game: line number, plies, the end with its rule.

    >>> from remis.variants.game import rule_on_line
    >>> human_game("f", rule_on_line("startpos 7g7f 7g7f", "shogi", line=2))
    'line 2     shogi    1 plies  no automatic end  ERROR line 2 ply 2: illegal move 7g7f for Gote'
    >>> g = rule_on_line("startpos " + "b1c3 b10c8 c3b1 c8b10 " * 3, "xiangqi")
    >>> human_game("f", g).split("  ")[-1]
    'ends ply 12: repetition 1/2-1/2 (WXF repetition)'
    """
    prefix = f"{path}:" if multi else ""
    parts = [f"{prefix}line {g.line:<4}", f"{g.variant}", f"{g.plies:>3} plies"]
    if g.end is not None:
        e = g.end
        parts.append(f"ends ply {e.ply}: {e.termination} {e.result} ({e.article})"
                     + (", perpetual chase not analysed"
                        if e.evidence.get("chase_analysed") is False else ""))
        if g.moves_after_end:
            n = g.moves_after_end
            parts.append(f"{n} move{'s' if n != 1 else ''} after the end not played")
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
    for n, text in input_lines(args.fen):
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
    if "declaration" in out:
        lines += impasse_lines(out["declaration"], out["impasse"])
    end = out["end"]
    if end:
        lines.append(f"  game over: {end['termination']} {end['result']} ({end['article']})"
                     f" — {end['explanation']}")
    else:
        lines.append("  no automatic end")
    return "\n".join(lines)


def impasse_lines(d: dict[str, Any], c: dict[str, Any]) -> list[str]:
    """The shogi impasse lines of ``remis position``: the CSA declaration
    test for the side to move and the JSA 24-point count.

    >>> for x in impasse_lines({"side": "Sente", "may_declare": False, "king_in_camp": False,
    ...         "pieces_in_camp": 0, "points": 0, "needed": 28, "in_check": False,
    ...         "failed": ["the king is not in the enemy camp"]},
    ...         {"points": {"Sente": 27, "Gote": 27}, "kings_in_camp": {"Sente": False,
    ...          "Gote": False}, "needed": 24, "result": "1/2-1/2"}): print(x)
    ... # doctest: +ELLIPSIS
      declaration (CSA 27-point rule): Sente may not declare: the king is not in the enemy camp
        (king in camp: no, 0 other pieces in camp, 0 points with pieces in hand, 28 needed)
      impasse count (JSA 24-point rule): Sente 27, Gote 27 points (24 needed), kings not ...
    """
    verdict = "may declare a win" if d["may_declare"] else \
        f"may not declare: {'; '.join(d['failed'])}"
    pts = c["points"]
    if all(c["kings_in_camp"].values()):
        impasse = f"adjudicated: {c['result']}"
    else:
        impasse = "kings not both in camp: no impasse to adjudicate"
    return [f"  declaration (CSA 27-point rule): {d['side']} {verdict}",
            f"    (king in camp: {'yes' if d['king_in_camp'] else 'no'}, "
            f"{d['pieces_in_camp']} other pieces in camp, {d['points']} points with pieces in "
            f"hand, {d['needed']} needed" + (", in check" if d["in_check"] else "") + ")",
            f"  impasse count (JSA 24-point rule): Sente {pts['Sente']}, Gote {pts['Gote']} "
            f"points ({c['needed']} needed), {impasse}"]


def run_audit(args: argparse.Namespace) -> int:
    """``remis audit --variant shogi|xiangqi PATH...``: findings in the chess
    audit's formats, summary and report, run by the chess audit's runner
    (files cut into byte ranges on ``--jobs`` processes, written in input
    order, ``--resume`` from the checkpoint; see
    :mod:`remis.variants.auditrun`), or on a Dask cluster with ``--cluster``
    as the chess audit (the workers must see the same files).  ``--laws``
    is chess-only.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); p, out = os.path.join(d, "g.txt"), os.path.join(d, "f.jsonl")
    >>> _ = open(p, "w").write("startpos 7g7f 7g7f result 1-0\\n")
    >>> from remis.cli import main
    >>> main(["audit", "--variant", "shogi", "-q", p, "--out", out])
    0
    >>> print(open(out).read())  # doctest: +ELLIPSIS
    {"check": "illegal_move", "file": "...", "game": 1, ..., "line": 1, "variant": "shogi"}
    <BLANKLINE>
    """
    from remis.audit.checks import CHECKS
    from remis.audit.run import AuditOptions
    from remis.cli.auditing import execute, existing_files, option_without_out
    from remis.variants.audit import VARIANT_CHECKS, rules_label
    from remis.variants.auditrun import VariantWork
    from remis.variants.records import expand_variant_paths

    if args.checks == ",".join(CHECKS):
        checks = VARIANT_CHECKS
    else:
        checks = tuple(c.strip() for c in args.checks.split(",") if c.strip())
        unknown = [c for c in checks if c not in VARIANT_CHECKS]
        if unknown:
            warn(f"audit: unknown check(s) for {args.variant}: {', '.join(unknown)} "
                 f"(choose from {', '.join(VARIANT_CHECKS)})")
            return 2
    if args.laws != "current":
        warn("audit: --laws as-played applies to chess only, not with --variant")
        return 2
    if (needed := option_without_out(args)) is not None:
        warn(f"audit: {needed} needs --out FILE")
        return 2
    try:
        rules = rules_for(args.variant, args.repetitions)
    except ValueError as exc:
        warn(f"audit: {exc}")
        return 2
    paths = expand_variant_paths(args.paths)
    files = existing_files(paths)
    if not files:
        return 1
    work = VariantWork(args.variant, args.repetitions, args.notation, checks)
    opts = AuditOptions(files, args.out, args.fmt, args.jobs, args.cluster, checks, "current",
                        args.resume, args.chunk_bytes, work=work)
    return execute(args, opts, 1 if len(files) < len(paths) else 0,
                   title=f"remis audit: {args.variant}", laws=rules_label(rules))
