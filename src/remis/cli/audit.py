"""``remis audit PATH...``: find wrongly scored games in PGN databases."""

from __future__ import annotations

import argparse
import os
from typing import Any

from remis.audit.checks import CHECKS
from remis.audit.output import FORMATS
from remis.audit.run import AuditOptions
from remis.audit.split import PGN_SUFFIXES, expand_paths
from remis.cli.auditing import execute, existing_files, missing_extra, option_without_out
from remis.cli.common import warn
from remis.laws import LAWS_MODES


def register(sub: Any) -> None:
    """Add the ``audit`` sub-command.

    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["audit", "db/", "-j", "2", "--format", "csv", "-o", "f.csv"])
    >>> args.paths, args.jobs, args.fmt, args.out, args.laws, args.run is run
    (['db/'], 2, 'csv', 'f.csv', 'current', True)
    """
    p = sub.add_parser(
        "audit", help="audit PGN databases for wrongly scored games (6.9, 9.6, 5.x, illegal moves)")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="PGN files (.pgn/.gz/.bz2/.zst) or folders; - = stdin")
    p.add_argument("--out", "-o", metavar="FILE", help="write the findings here (default stdout)")
    p.add_argument("--format", choices=FORMATS, default="jsonl", dest="fmt",
                   help="findings format (parquet needs --out)")
    p.add_argument("--jobs", "-j", type=int, default=0,
                   help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run on an existing Dask cluster, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--checks", default=",".join(CHECKS),
                   help=f"comma-separated checks (default all: {','.join(CHECKS)})")
    p.add_argument("--laws", choices=LAWS_MODES, default="current",
                   help="judge by today's Laws or those in force on the game's Date")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run (needs --out; uses OUT.ckpt.json)")
    p.add_argument("--report", metavar="HTML", help="write a self-contained HTML report")
    p.add_argument("--summary", metavar="JSON", help="write the summary counts as JSON")
    p.add_argument("--chunk-bytes", type=int, default=1 << 20, help=argparse.SUPPRESS)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no summary")
    from remis.cli.variant_options import add_options

    add_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``remis audit``: the exit status is 0 when every file was
    read, 1 when one could not be, 2 for a usage error.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "g.pgn")
    >>> _ = open(p, "w").write('[Result "1-0"]\\n\\n1. f3 e5 2. g4 Qh4# 1-0\\n')
    >>> out = os.path.join(d, "f.jsonl")
    >>> parser = argparse.ArgumentParser(prog="remis")
    >>> register(parser.add_subparsers(dest="command"))
    >>> run(parser.parse_args(["audit", p, "-j", "1", "-q", "-o", out]))
    0
    >>> from remis.audit.output import read_findings
    >>> [(f["check"], f["recorded_result"], f["result_under_laws"]) for f in read_findings(out)]
    [('result_vs_position', '1-0', '0-1')]
    >>> run(parser.parse_args(["audit", p, "--checks", "nonsense"]))  # stderr: unknown check
    2
    """

    if (missing := missing_extra(args)) is not None:
        warn(f"audit: {missing} needs the audit extra: pip install 'remis[audit]'")
        return 2
    if getattr(args, "variant", "chess") != "chess":
        from remis.cli.variant_options import run_audit as run_variant_audit

        return run_variant_audit(args)
    checks = tuple(c.strip() for c in args.checks.split(",") if c.strip())
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        warn(f"audit: unknown check(s) {', '.join(unknown)} (choose from {', '.join(CHECKS)})")
        return 2
    if (needed := option_without_out(args)) is not None:
        warn(f"audit: {needed} needs --out FILE")
        return 2
    paths = expand_paths(args.paths)
    for folder in args.paths:
        if folder != "-" and os.path.isdir(folder) and not expand_paths([folder]):
            warn(f"audit: {folder}: no PGN files ({', '.join(PGN_SUFFIXES)}) in this folder")
    files = existing_files(paths)
    if not files:
        return 1
    opts = AuditOptions(files, args.out, args.fmt, args.jobs, args.cluster, checks, args.laws,
                        args.resume, args.chunk_bytes)
    return execute(args, opts, 1 if len(files) < len(paths) else 0)


