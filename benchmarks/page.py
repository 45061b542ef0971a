"""Run the benchmarks and write their output to ``docs/benchmarks.md``
(``make bench``), with the date, the machine and each command, so that the
page always shows one whole run and how to repeat it.

    .venv/bin/python benchmarks/page.py [--cha BINARY] [--base DIR] [--only NAME ...]
                                        [--out FILE]

With ``--only``, the named benchmarks' sections replace theirs in the page
(each saying when it was run on its own), and the rest of the page stays.

``--cha`` puts the unwinnability questions to CHA's command-line program too,
built from its sources outside this project (``make bench CHA=/path/to/cha``).
``--base`` measures the service's CPU per move event beside an earlier commit
checked out with its own ``.venv`` (``make bench BASE=/path/to/checkout``).
Each benchmark prints its own medians and ratios against a baseline run in
the same process; this script only runs them in turn and copies what they
print.  A benchmark that fails or finds no data is shown as such, and the
others still run.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))


class Run(NamedTuple):
    name: str
    title: str
    about: str
    args: tuple[str, ...]
    #: takes ``--cha BINARY``
    cha: bool = False
    #: takes ``--compare DIR``, a checkout of an earlier commit to measure beside this one
    base: bool = False


RUNS = (
    Run("replay", "Replaying games",
        "The cost of a ply in every path that rules on games, against a baseline timed in the "
        "same run: the replay of `remis game` and the live history against python-chess's "
        "bare `Board.push` on master games; `remis game --json` as a process against a Rust "
        "program that only reads and replays the same PGN (pgn-reader and shakmaty), against "
        "python-chess's `read_game`, and against `remis audit` on empty games; with `--cha`, "
        "quick mode against CHA's quick mode on lichess positions.",
        ("benchmarks/replay.py", "--games", "2000"), cha=True),
    Run("deadtest", "The dead-position test after every ply",
        "What the per-ply dead-position test adds to a ply, as `remis game` runs it and as the "
        "audit does, over a bare push.",
        ("benchmarks/unwinnability.py", "--only", "deadtest")),
    Run("30k", "Can this player still mate? Real positions",
        "`can_checkmate` in quick and full mode on 30,000 positions from lichess games, the "
        "side that just moved as the would-be winner; with `--cha`, beside CHA's quick and "
        "full modes on the same questions, in CPU time of both processes.",
        ("benchmarks/unwinnability.py", "--only", "30k"), cha=True),
    Run("vectors", "Can this player still mate? CHA's test vectors",
        "Full and quick mode on every question of CHA's test vectors (composed positions, both "
        "colours), checked against the expected answers; with `--cha`, beside CHA's full and "
        "quick modes: quick mode must decide every question CHA's quick mode decides.",
        ("benchmarks/unwinnability.py", "--only", "vectors", "--modes", "full", "quick"),
        cha=True),
    Run("timeouts", "Can this player still mate? Unfair timeouts",
        "Quick and full mode on the 88,387 lichess games lost on time against a player who "
        "could not mate: every one must come out \"cannot\"; with `--cha`, beside CHA.",
        ("benchmarks/unwinnability.py", "--only", "timeouts", "--modes", "quick", "full"),
        cha=True),
    Run("mutations", "Can this player still mate? Positions no budget was tuned on",
        "Full and quick mode on 20,000 seeded random changes of the CHA vectors and the "
        "unfair timeouts; with `--cha`, beside CHA: no contradiction, and every question CHA "
        "decides decided.",
        ("benchmarks/unwinnability.py", "--only", "mutations", "--limit", "20000", "--modes",
         "full", "quick"), cha=True),
    Run("arbiter", "The live arbiter",
        "Move events per second through `Arbiter.apply` against the rules core alone.",
        ("benchmarks/arbiter.py", "--games", "100")),
    Run("batch", "Reading and ruling on PGN",
        "`remis game` over the masters and lichess files against python-chess's bare "
        "`read_game` loop, and a `.pgn.zst` stream of the lichess files through "
        "`remis game --json` in games per CPU second.",
        ("benchmarks/batch.py", "--zst")),
    Run("audit", "The audit",
        "Games per second of `remis audit` on one process, on all cores and on a local Dask "
        "cluster, against python-chess's bare `read_game` loop (two small files).",
        ("benchmarks/audit.py", "--quick")),
    Run("service", "The HTTP service",
        "200 concurrent games, a move a second each, played over HTTP against `remis serve` "
        "with SQLite (the script's default load): events per "
        "second and latencies, against the same events through `Arbiter.apply` alone; with "
        "`--base`, the server CPU per move event against an earlier commit's server and "
        "against a floor (uvicorn and one durable SQLite commit per event, no rules), in "
        "the same run.",
        ("benchmarks/service.py", "--db", "sqlite"),
        base=True),
    Run("hostile", "The HTTP service under hostile clients",
        "50 honest games and two honest analysts (`/v1/position`, `/v1/pgn` on real games) "
        "on loopback, while hostile clients send bad clocks, costly searches, bad strings, "
        "retries and idle events for 60 s and 20 more addresses keep the searches "
        "saturated: the honest requests' latency per endpoint, their failures, and the CPU "
        "other processes of the machine took meanwhile.",
        ("benchmarks/hostile.py", "--seconds", "60")),
    Run("variants", "Shogi and xiangqi",
        "Plies per second of remis's repetition tracking against asking Fairy-Stockfish "
        "(`pyffish`) after each ply.",
        ("benchmarks/variants.py",)),
    Run("arbiter_variants", "Shogi and xiangqi through the arbiter",
        "Move events per second of a shogi or xiangqi game through `Arbiter.apply` against "
        "the variant history alone.",
        ("benchmarks/arbiter_variants.py",)),
)


def _first_line(path: str, prefix: str) -> str | None:
    try:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.startswith(prefix):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _version(*cmd: str) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=True)
        return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "not found"


def machine() -> list[tuple[str, str]]:
    """What the figures were measured on."""
    mem_kb = (_first_line("/proc/meminfo", "MemTotal") or "").removesuffix(" kB")
    commit = _version("git", "-C", str(ROOT), "describe", "--always", "--dirty")
    return [
        ("CPU", _first_line("/proc/cpuinfo", "model name") or platform.processor() or "unknown"),
        ("cores", str(os.cpu_count())),
        ("memory", f"{int(mem_kb) / 2**20:.1f} GiB" if mem_kb.isdigit() else "unknown"),
        ("system", f"{platform.system()} {platform.release()} ({platform.machine()})"),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("Rust", _version("rustc", "--version")),
        ("remis", f"commit {commit}"),
        ("load average at the start", " ".join(f"{x:.1f}" for x in os.getloadavg())),
    ]


def run(r: Run, cha: Path | None, base: Path | None = None) -> tuple[str, str, float]:
    """The command line, what it printed, and how long it took."""
    args = [*r.args, *(["--cha", str(cha)] if cha and r.cha else []),
            *(["--compare", str(base)] if base and r.base else [])]
    shown = ".venv/bin/python " + shlex.join(args)
    print(f"== {r.title}: {shown}", flush=True)
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=3600)
        out = proc.stdout + proc.stderr
        if proc.returncode != 0:
            out += f"\n(exit status {proc.returncode})"
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        out = f"{partial}\n(stopped after {exc.timeout:.0f} s)"
    took = time.monotonic() - started
    print(out, flush=True)
    return shown, out.rstrip(), took


#: a row of a target with its verdict, as the benchmarks print one:
#: ``<what>  <ratio>x  target <= <n>x: met|MISSED  <detail>``
ROW = re.compile(r"^(?P<what>\S.*?)\s+(?P<value>[\d.]+x)\s+target (?P<target>[^:]+): "
                 r"(?P<verdict>met|MISSED)\b")
#: a set's line of targets: ``<set> <mode> ...`` and then ``target: <a>: met; <b>: MISSED``
SET = re.compile(r"^(?P<set>[\w-]+)\s+(?P<mode>quick|full)\s")
CHECK = re.compile(r"(?P<what>[^;]+): (?P<verdict>met|MISSED)")


def targets(results: list[tuple[Run, str, str, float]]) -> list[tuple[str, str, str]]:
    """Every target the benchmarks printed, with its verdict: (section, target,
    met or missed)."""
    rows = []
    for r, _, out, _ in results:
        current = ""
        for line in out.splitlines():
            found = SET.match(line)
            if found:
                current = f"{found['set']}, {found['mode']} mode: "
            row = ROW.match(line)
            if row:
                rows.append((r.title, f"{row['what']}: {row['value']} (target "
                                      f"{row['target']})", row["verdict"]))
                continue
            text = line.strip()
            if text.startswith("target: "):
                for check in CHECK.finditer(text.removeprefix("target: ")):
                    rows.append((r.title, current + check["what"].strip(), check["verdict"]))
    return rows


def page(results: list[tuple[Run, str, str, float]], when: datetime.datetime,
         facts: list[tuple[str, str]]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "<!-- Written by benchmarks/page.py (make bench) from its last run: "
        "edit that script, not this page. -->",
        "",
        f"The last run of `make bench` was on {when:%Y-%m-%d at %H:%M} UTC, on this machine:",
        "",
        "| | |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in facts),
        "",
        "Each benchmark times remis and a baseline in the same process, taking turns, and "
        "prints medians and ratios. The machine is shared and its speed varies from run to "
        "run, so read the ratios rather than the absolute times. Each section gives the "
        "command that produced it, run from the project root with the real collections in "
        "`../shared/data`.",
        "",
    ]
    found = targets(results)
    if found:
        lines += ["## Targets", "",
                  "What the benchmarks below measured against their targets, in this run.", "",
                  "| benchmark | target (measured) | |", "|---|---|---|",
                  *(f"| {where} | {what} | {'met' if verdict == 'met' else '**missed**'} |"
                    for where, what, verdict in found), ""]
    for r, shown, out, took in results:
        lines += section(r, shown, out, took)
    return "\n".join(lines)


def section(r: Run, shown: str, out: str, took: float, alone: str = "") -> list[str]:
    """The lines of one benchmark's section (``alone``: a sentence saying
    that it was run on its own)."""
    return [f"## {r.title}", "", r.about, "", *([alone, ""] if alone else []), "```console",
            f"$ {shown}", out, "```", "", f"It took {took:.0f} s.", ""]


def splice(old: str, results: list[tuple[Run, str, str, float]],
           when: datetime.datetime) -> str:
    """``old`` (a page of a whole run) with the sections of ``results``, run on
    their own (``--only``), in place of their old ones, each saying so, and
    their rows of the targets replaced."""
    text = old
    for r, shown, out, took in results:
        alone = (f"This section was run on its own on {when:%Y-%m-%d at %H:%M} UTC "
                 f"(`benchmarks/page.py --only {r.name}`), after the rest of the page.")
        new = "\n".join(section(r, shown, out, took, alone))
        start = text.find(f"\n## {r.title}\n")
        if start < 0:
            text = text.rstrip("\n") + "\n\n" + new
            continue
        end = text.find("\n## ", start + 1)
        text = text[:start + 1] + new + (text[end:] if end >= 0 else "\n")
    titles = {r.title for r, *_ in results}
    lines = [line for line in text.split("\n")
             if not any(line.startswith(f"| {title} | ") for title in titles)]
    rows = [f"| {where} | {what} | {'met' if verdict == 'met' else '**missed**'} |"
            for where, what, verdict in targets(results)]
    if rows and "## Targets" in lines:
        # after the last row of the table that follows the heading
        at = next(i for i in range(lines.index("## Targets"), len(lines))
                  if lines[i].startswith("|"))
        while at < len(lines) and lines[at].startswith("|"):
            at += 1
        lines[at:at] = rows
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cha", type=Path, default=None, metavar="BINARY",
                    help="CHA's command-line program, for the unwinnability benchmarks")
    ap.add_argument("--base", type=Path, default=None, metavar="DIR",
                    help="a checkout of an earlier commit, with its own .venv, for the "
                         "service's CPU per move event beside it")
    ap.add_argument("--only", nargs="*", choices=[r.name for r in RUNS], default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"the benchmarks read the real collections in {DATA}, which is not here")
    if args.cha is not None and not args.cha.is_file():
        sys.exit(f"--cha {args.cha}: no such file")
    when = datetime.datetime.now(datetime.UTC)
    facts = machine()
    chosen = [r for r in RUNS if args.only is None or r.name in args.only]
    results = [(r, *run(r, args.cha, args.base)) for r in chosen]
    if args.only is not None and args.out.is_file():
        # a part of the benchmarks: the page keeps the rest of its last whole run
        text = splice(args.out.read_text(encoding="utf-8"), results, when).rstrip("\n")
    else:
        text = page(results, when, facts)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
