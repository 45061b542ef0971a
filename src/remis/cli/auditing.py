"""Running an audit from the command line, for chess and the variants alike:
the progress bar, the summary on stderr, the HTML report and the JSON
summary, and the exit status."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from typing import Any

from remis.audit.output import read_findings
from remis.audit.report import render_report
from remis.audit.run import AuditOptions, RunState, run_audit
from remis.audit.split import seekable
from remis.cli.common import warn
from remis.files import why_unreadable


class _Bar:
    """A rich progress bar on stderr: games/s, findings, ETA when the size is known."""

    def __init__(self, total: int | None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.start = time.perf_counter()
        self.progress = Progress(
            TextColumn("[bold]audit"), BarColumn(),
            TextColumn("{task.fields[games]:,} games  {task.fields[rate]:,.0f} games/s  "
                       "{task.fields[findings]:,} findings"),
            TimeRemainingColumn(), console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("audit", total=total, games=0, rate=0.0, findings=0)
        self.progress.start()

    def __call__(self, games: int, findings: int, done: int) -> None:
        rate = games / max(time.perf_counter() - self.start, 1e-9)
        self.progress.update(self.task, completed=done, games=games, rate=rate,
                             findings=findings)

    def stop(self) -> None:
        self.progress.stop()


def summary_text(state: RunState) -> str:
    """Plain-text summary counts (printed on stderr at the end).

    >>> from remis.audit.run import plan, AuditOptions
    >>> st = plan(AuditOptions([]), [])
    >>> st.summary["games"] = 3
    >>> summary_text(st)
    'audited 3 games: 0 findings'
    >>> st.summary["undecided"] = {"time_forfeit": 2}
    >>> summary_text(st).splitlines()[1]
    '  undecided within the node budget (never a finding): time_forfeit 2'
    """
    s = state.summary
    lines = [f"audited {s['games']:,} games: {s['findings']:,} findings"
             + (f", {s['skipped_variants']:,} games of other variants skipped"
                if s["skipped_variants"] else "")]
    for title, key in (("by check", "by_check"), ("by file", "by_file"),
                       ("by time control", "by_time_control")):
        if s[key]:
            lines.append(f"  {title}: " + ", ".join(f"{k} {v:,}" for k, v in sorted(
                s[key].items())))
    if s.get("undecided"):
        lines.append("  undecided within the node budget (never a finding): " + ", ".join(
            f"{k} {v:,}" for k, v in sorted(s["undecided"].items())))
    return "\n".join(lines)


def missing_extra(args: argparse.Namespace) -> str | None:
    """The option given whose library (of the ``audit`` extra) is not
    installed, or None: checked before any work, so that a run never stops
    at the end for want of it.

    >>> missing_extra(argparse.Namespace(report=None, fmt="jsonl", cluster=None)) is None
    True
    """
    needs = (("--report", getattr(args, "report", None), "matplotlib"),
             ("--format parquet", getattr(args, "fmt", None) == "parquet", "pyarrow"),
             ("--cluster", getattr(args, "cluster", None), "distributed"))
    for option, used, module in needs:
        if used and importlib.util.find_spec(module) is None:
            return f"{option} ({module} is not installed)"
    return None


def option_without_out(args: argparse.Namespace) -> str | None:
    """The option given that needs ``--out FILE`` when there is none
    (``--resume`` continues a file, parquet is not streamed), or None.

    >>> option_without_out(argparse.Namespace(resume=False, fmt="parquet", out=None))
    '--format parquet'
    >>> option_without_out(argparse.Namespace(resume=True, fmt="jsonl", out="f.jsonl")) is None
    True
    """
    for needed, used in (("--resume", args.resume), ("--format parquet", args.fmt == "parquet")):
        if used and not args.out:
            return needed
    return None


def existing_files(paths: list[str]) -> list[str]:
    """The paths that can be read (files, FIFOs, ``-``); each other one is
    reported as what it is (no such file, a dangling symbolic link, a
    directory, a file that may not be read...).

    >>> existing_files(["-", "/nonexistent.pgn"])  # and 'remis: audit: ... no such file'
    ['-']
    """
    files = []
    for p in paths:
        why = why_unreadable(p)
        if why is not None:
            warn(f"audit: {p}: {why}")
            continue
        files.append(p)
    return files


def execute(args: argparse.Namespace, opts: AuditOptions, status: int = 0, *,
            title: str = "remis audit", laws: str | None = None) -> int:
    """Run the audit ``opts`` describes, with a progress bar on a terminal,
    then write the summary and report ``args`` ask for; the exit status
    (130 when interrupted, 2 for a checkpoint of another run).  ``laws``
    names the rules in the report (default ``args.laws``).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "g.pgn")
    >>> _ = open(p, "w").write('[Result "1-0"]\\n\\n1. e4 1-0\\n')
    >>> args = argparse.Namespace(quiet=True, out=None, summary=None, report=None, laws="current")
    >>> execute(args, AuditOptions([p], os.path.join(d, "f.jsonl"), jobs=1))
    0
    """
    files = opts.paths
    bar = None
    if not args.quiet and sys.stderr.isatty():
        total = sum(os.path.getsize(p) for p in files) if all(seekable(p) for p in files) \
            else None
        bar = _Bar(total)
    shown: list[str] = []

    def on_error(msg: str) -> None:
        if bar is None:
            warn(f"audit: {msg}")
            shown.append(msg)

    try:
        state = run_audit(opts, files, progress=bar, on_error=on_error,
                          on_notice=lambda m: warn(f"audit: {m}"))
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        where = f"; run again with --resume to go on ({args.out}.ckpt.json)" if args.out else ""
        warn(f"audit: interrupted; the findings written so far are complete{where}")
        return 130
    except ValueError as exc:
        if bar is not None:
            bar.stop()
        warn(f"audit: {exc}")
        return 2
    except OSError as exc:
        if bar is not None:
            bar.stop()
        warn(f"audit: {exc}")
        return 1
    if bar is not None:
        bar.stop()
    # every input error of the run, those of an earlier part of a resumed run too
    # (kept in the checkpoint): the exit status says so every time
    for e in state.errors:
        if e not in shown:
            warn(f"audit: {e}")
    if state.errors:
        status = 1
    if not args.quiet:
        sys.stderr.write(summary_text(state) + "\n")
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(state.summary, f, indent=1, sort_keys=True)
    if args.report:
        sample: list[dict[str, Any]] = []
        if args.out and args.out != "-":
            sample = read_findings(args.out, args.fmt, limit=500)
        page = render_report(state.summary, sample, title=title,
                             laws=args.laws if laws is None else laws, errors=state.errors)
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(page)
    return status
