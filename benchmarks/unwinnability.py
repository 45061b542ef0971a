"""Unwinnability engine: speed and agreement on the real data, beside CHA.

Usage (from the project root, shared data in ../shared/data or
$REMIS_SHARED_DATA; CHA built outside the project, e.g. /work/ext/cha)::

    .venv/bin/python benchmarks/unwinnability.py --cha /work/ext/cha/src/cha   # the targets
    .venv/bin/python benchmarks/unwinnability.py --limit 500   # first N of each set
    .venv/bin/python benchmarks/unwinnability.py --only 30k --modes quick
    .venv/bin/python benchmarks/unwinnability.py --only vectors --undecided /tmp/undecided.tsv
    .venv/bin/python benchmarks/unwinnability.py --only mutations --limit 20000 --cha BINARY
    .venv/bin/python benchmarks/unwinnability.py --only lastpos --limit 0  # all 43,125 games

Sets:

* ``30k``: lichess-30k-positions.txt, the side that just moved as the would-be
  winner, quick and full mode;
* ``vectors``: cha-test-vectors.txt, both colours, with the expected answers
  (wrong = a contradicted verdict, which must never happen);
* ``timeouts``: lichess-unfair-timeouts.txt, the side NOT to move (every one
  is unwinnable): the share proved "cannot mate";
* ``mutations``: positions no budget was tuned on (:mod:`tests.unwinnable.mutations`:
  the vectors and every 100th unfair timeout changed at random, with a fixed
  seed), 3,000 by default (``--limit`` N: N), no expected answer: the
  agreement is CHA's;
* ``deadtest``: the per-ply cost of the dead-position test after a bare
  python-chess push, over lichess games, as ``remis game`` and the audit run it;
* ``lastpos``: the cost, per game, of the last position's full-mode test of
  ``remis game`` (:mod:`remis.unwinnable.first_dead`) beside a bare
  python-chess replay, over an even sample of the masters and lichess games.

Every question is timed by the CPU clock (``time.process_time``, which a
loaded machine inflates far less than the wall clock); the limits ("no
question over") are read on it, and quick mode's mean is that of a run of the
whole set with no clock read inside.  With ``--cha BINARY`` each set's
questions are also put to CHA in the same run (its full mode for our full
mode, ``-quick`` for quick mode), and CHA is timed the same way: the CPU time
of its process (``getrusage``) less that of its start-up on no question.  In
quick mode, which is cheap, remis and CHA take turns ``--rounds`` times and the
medians are compared.  Printed: the verdicts, the contradictions (there must be
none), the questions one side decides and the other not, the mean helpmate
line lengths, and our mean CPU as a multiple of CHA's: the machine-independent
form of the targets, each printed with "met" or "MISSED".
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from remis.game import rule_on_parsed
from remis.pgn import read_games
from remis.rules import material_dead_test
from remis.unwinnable import can_checkmate
from remis.unwinnable.deadtest import QUICK_ONLY, EngineDeadTest, engine_dead_test

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the test suite's mutated questions (tests.unwinnable.mutations)
from tests.unwinnable.mutations import mutated_questions  # noqa: E402

DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))
UNW = DATA / "unwinnability"

Case = tuple[chess.Board, chess.Color, bool | None]  # board, would-be winner, expected


def load_30k(limit: int | None) -> list[Case]:
    out: list[Case] = []
    for line in (UNW / "lichess-30k-positions.txt").read_text().splitlines()[:limit]:
        board = chess.Board(line.rsplit(" ", 1)[0])
        out.append((board, not board.turn, None))
    return out


def load_vectors(limit: int | None) -> list[Case]:
    out: list[Case] = []
    lines = [x for x in (UNW / "cha-test-vectors.txt").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    for line in lines[:limit]:
        code, fen = line.split(" ", 1)
        board = chess.Board(fen.strip())
        out.append((board, chess.WHITE, code[0] != "-"))
        out.append((board, chess.BLACK, code[1] != "-"))
    return out


def load_timeouts(limit: int | None) -> list[Case]:
    out: list[Case] = []
    for line in (UNW / "lichess-unfair-timeouts.txt").read_text().splitlines()[:limit]:
        board = chess.Board(line.rsplit(" ", 1)[0])
        out.append((board, not board.turn, False))
    return out


#: How many questions of the ``mutations`` set (``--limit`` overrides).
MUTATIONS = 3000


def load_mutations(limit: int | None) -> list[Case]:
    """The ``mutations`` set (see the module docstring)."""
    return [(board, color, None) for board, color in
            mutated_questions(UNW, MUTATIONS if limit is None else limit)]


@dataclass(frozen=True)
class Target:
    """A set's target against CHA in one mode: our mean CPU at most ``ratio``
    times CHA's (None: no ratio is set), no question over ``ceiling`` seconds
    of CPU, every question decided (``all_decided``), every question CHA
    decides decided (``as_many``)."""

    ratio: float | None = None
    ceiling: float | None = None
    all_decided: bool = False
    as_many: bool = False


#: The targets by (set, mode): full mode faster than CHA's and never slow on real
#: positions; quick mode, the test after every ply, no dearer than CHA's quick mode on
#: lichess positions and deciding every question it decides.
TARGETS = {
    ("30k", "full"): Target(1.0, ceiling=0.1),
    ("30k", "quick"): Target(1.0, as_many=True),
    ("vectors", "full"): Target(1.0, ceiling=2.0, all_decided=True),
    ("vectors", "quick"): Target(as_many=True),
    ("timeouts", "quick"): Target(1.0, all_decided=True, as_many=True),
    ("mutations", "full"): Target(as_many=True),
    ("mutations", "quick"): Target(as_many=True),
}

#: CHA's answer to one question as its program prints it: the verdict, the
#: helpmate line (full mode), and the question's time in microseconds.
CHA_LINE = re.compile(r"^(winnable|unwinnable|undetermined)(.*?) nodes \d+ time (\d+) \((.*)\)$")


@dataclass
class Answers:
    """The answers of one engine to a set's questions: the verdict (None
    undecided), the CPU seconds each took (CHA's: its own timings, wall
    clock), the helpmate line lengths (None where no mate was given), and the
    mean CPU seconds a question."""

    verdicts: list[bool | None]
    seconds: list[float]
    lines: list[int | None] = field(default_factory=list)
    mean: float = 0.0


def _question(board: chess.Board, color: chess.Color) -> str:
    return f"{board.fen()} {'white' if color else 'black'}"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cha_cpu(binary: Path, stdin: str, quick: bool) -> tuple[str, float]:
    """What CHA prints for ``stdin`` and the CPU seconds its process took."""
    command = [str(binary), *(["-quick"] if quick else [])]
    before = _children_cpu()
    out = subprocess.run(command, input=stdin, capture_output=True, text=True,
                         cwd=binary.parent, check=True).stdout
    return out, _children_cpu() - before


def cha_startup(binary: Path, rounds: int = 3) -> float:
    """The CPU seconds of CHA's start-up (Stockfish's tables), with one question
    that material alone decides (on none it divides by zero): the median of
    ``rounds`` runs."""
    return statistics.median(cha_cpu(binary, "8/8/8/8/8/8/8/K1k5 w - - white\n", False)[1]
                             for _ in range(rounds))


def cha_answers(binary: Path, cases: list[Case], quick: bool = False,
                startup: float = 0.0) -> Answers:
    """CHA's answers to ``cases`` (``binary``: its command-line program), in
    order: full mode, or with ``quick`` its ``-quick`` mode, which prints
    only the questions it proves unwinnable (the others count as undecided).
    The questions go in on stdin, one "FEN white|black" per line; the mean is
    its process's CPU time, less ``startup``, a question."""
    questions = [_question(board, color) for board, color, _ in cases]
    out, cpu = cha_cpu(binary, "".join(q + "\n" for q in questions), quick)
    found: dict[str, tuple[bool | None, float, int | None]] = {}
    ordered: list[tuple[bool | None, float, int | None]] = []
    for text in out.splitlines():
        m = CHA_LINE.match(text)
        if not m:
            continue
        verdict = {"winnable": True, "unwinnable": False}.get(m.group(1))
        line = len(m.group(2).replace("#", " ").split()) if verdict else None
        answer = (verdict, int(m.group(3)) * 1e-6, line)
        ordered.append(answer)
        found[m.group(4)] = answer
    if quick:
        picked = [found.get(q, (None, 0.0, None)) for q in questions]
    else:
        picked = ordered
        if len(picked) != len(cases):
            raise RuntimeError(f"{binary}: {len(picked)} answers to {len(cases)} questions")
    mean = max(cpu - startup, 0.0) / max(len(cases), 1)
    return Answers([v for v, _, _ in picked], [t for _, t, _ in picked],
                   [n for _, _, n in picked], mean)


def stats(times: list[float]) -> str:
    times = sorted(times)
    n = len(times)
    return (f"n={n} median {1e3 * times[n // 2]:.3f} ms  mean {1e3 * statistics.fmean(times):.3f}"
            f" ms  p99 {1e3 * times[min(n - 1, int(n * 0.99))]:.2f} ms  "
            f"max {1e3 * times[-1]:.1f} ms")


def counted(verdicts: list[bool | None]) -> str:
    counts: dict[bool | None, int] = {}
    for v in verdicts:
        counts[v] = counts.get(v, 0) + 1
    return str(dict(sorted(counts.items(), key=str)))


def mean_line(lines: list[int | None]) -> str:
    known = [n for n in lines if n is not None]
    return f"{statistics.fmean(known):.1f} plies" if known else "none"


def quick_loop(cases: list[Case]) -> float:
    """Our mean CPU seconds a question of quick mode over the whole set, with
    no clock read inside."""
    c0 = time.process_time()
    for board, color, _ in cases:
        can_checkmate(board, color, mode="quick")
    return (time.process_time() - c0) / max(len(cases), 1)


def compare_cha(name: str, mode: str, binary: Path, cases: list[Case], ours: Answers,
                cpu: list[float], rounds: int = 3) -> None:
    """Print CHA's answers to the set ``name``'s ``cases`` in ``mode`` beside
    ``ours`` (``cpu``: our CPU seconds per question): contradictions, the
    questions one side decides and the other not, the line lengths, the ratio
    of the mean CPU times, and the set's target (:data:`TARGETS`).  In quick
    mode both run ``rounds`` times, taking turns, and the medians are
    compared.  A CHA program that fails is reported, and the benchmark goes on."""
    quick = mode == "quick"
    try:
        startup = cha_startup(binary)
        theirs = cha_answers(binary, cases, quick, startup)
        if quick:
            ours_cpu, theirs_cpu = [ours.mean], [theirs.mean]
            for _ in range(rounds - 1):
                ours_cpu.append(quick_loop(cases))
                theirs_cpu.append(cha_answers(binary, cases, quick, startup).mean)
            ours.mean, theirs.mean = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
        print(f"          CHA {mode:<5} not compared ({name}): {e}", file=sys.stderr)
        return
    clash = [(board, color) for (board, color, _), t, o
             in zip(cases, theirs.verdicts, ours.verdicts, strict=True)
             if t is not None and o is not None and t != o]
    for board, color in clash:
        print(f"  CHA DISAGREES {_question(board, color)}", file=sys.stderr)
    only_cha = [(board, color) for (board, color, _), t, o
                in zip(cases, theirs.verdicts, ours.verdicts, strict=True)
                if t is not None and o is None]
    for board, color in only_cha[:5]:
        print(f"  ONLY CHA DECIDES {_question(board, color)}", file=sys.stderr)
    only_ours = sum(t is None and o is not None for t, o in zip(theirs.verdicts, ours.verdicts,
                                                                 strict=True))
    decided_cha = sum(v is not None for v in theirs.verdicts)
    decided_ours = sum(v is not None for v in ours.verdicts)
    ratio = ours.mean / theirs.mean if theirs.mean else float("inf")
    times = f"{ratio:.2f}x" if theirs.mean else "not measured (CHA's process took no CPU)"

    both = [(o, t) for o, t in zip(ours.lines, theirs.lines, strict=True)
            if o is not None and t is not None]
    how = f"median of {rounds} turns each" if quick else "one run each"
    print(f"          CHA {mode:<5} mean {1e6 * theirs.mean:.2f} us CPU a question (its process, "
          f"less its start-up of {1e3 * startup:.0f} ms); remis {1e6 * ours.mean:.2f} us CPU; "
          f"{how}: remis = {times} CHA's CPU")
    print(f"          verdicts {counted(theirs.verdicts)}; contradictions {len(clash)}; "
          f"decided: remis {decided_ours}, CHA {decided_cha}; only CHA {len(only_cha)}, "
          f"only remis {only_ours}"
          + (f"; mean helpmate line where both give one ({len(both)}): remis "
             f"{mean_line([o for o, _ in both])}, CHA {mean_line([t for _, t in both])}"
             if both else ""))
    target = TARGETS.get((name, mode))
    if target is None:
        return
    checks = []
    if target.ratio is not None:
        checks.append((f"CPU <= {target.ratio:g}x CHA's ({times})", ratio <= target.ratio))
    if target.ceiling is not None:
        over = sum(c > target.ceiling for c in cpu)
        checks.append((f"none over {target.ceiling * 1e3:g} ms CPU ({over})", not over))
    if target.all_decided:
        checks.append(("all decided", decided_ours == len(cases)))
    if target.as_many:
        checks.append((f"every question CHA decides decided ({len(only_cha)} not)",
                       not only_cha))
    checks.append(("no contradiction", not clash))
    print("          target: " + "; ".join(f"{what}: {'met' if ok else 'MISSED'}"
                                           for what, ok in checks))


def run_set(name: str, cases: list[Case], mode: str, max_nodes: int | None,
            undecided_to: Path | None = None, cha: Path | None = None,
            rounds: int = 3) -> None:
    cpus: list[float] = []
    nodes: list[int] = []
    ours = Answers([], [])
    right = wrong = 0
    slowest: tuple[float, str] = (0.0, "")
    missed: list[str] = []
    for board, color, expected in cases:
        c0 = time.process_time()
        v = can_checkmate(board, color, mode=mode, max_nodes=max_nodes)  # type: ignore[arg-type]
        cpu = time.process_time() - c0
        cpus.append(cpu)
        nodes.append(v.nodes)
        ours.verdicts.append(v.value)
        ours.lines.append(len(v.line) if v.value else None)
        if cpu > slowest[0]:
            slowest = (cpu, _question(board, color))
        if v.value is None:
            missed.append(f"{board.fen()}\t{'white' if color else 'black'}\t{expected}")
        elif expected is not None:
            if v.value == expected:
                right += 1
            else:
                wrong += 1
                print(f"  WRONG {_question(board, color)}: {v.reason}", file=sys.stderr)
        if v.value:
            b = board.copy()
            for uci in v.line:
                b.push_uci(uci)
            if not (b.is_checkmate() and b.turn != color):
                wrong += 1
                print(f"  BAD LINE {board.fen()}: {v.line}", file=sys.stderr)
    ours.seconds = cpus
    ours.mean = statistics.fmean(cpus)
    batch = ""
    if mode == "quick":
        # microseconds a question: the clocks read around each one weigh on the mean;
        # a run of the whole set with no clock inside gives it
        ours.mean = quick_loop(cases)
        batch = f"; the whole set in one loop: mean {1e6 * ours.mean:.2f} us CPU"
    print(f"{name:<9} {mode:<5} CPU: {stats(cpus)}{batch}")
    nodes.sort()
    print(f"          nodes: mean {statistics.fmean(nodes):.0f}, median {nodes[len(nodes) // 2]}, "
          f"max {nodes[-1]}; verdicts {counted(ours.verdicts)}; mean helpmate line "
          f"{mean_line(ours.lines)}; slowest {1e3 * slowest[0]:.0f} ms CPU: {slowest[1]}")
    if any(expected is not None for _, _, expected in cases):
        print(f"          agreement {right}/{len(cases)}  wrong {wrong}  undecided {len(missed)}")
    if cha is not None:
        compare_cha(name, mode, cha, cases, ours, cpus, rounds)
    if undecided_to is not None and mode == "full":
        undecided_to.write_text("".join(line + "\n" for line in missed))


def game_boards(limit: int) -> list[list[chess.Move]]:
    games: list[list[chess.Move]] = []
    with open(DATA / "lichess" / "lichess_2017-05.pgn", encoding="utf-8") as f:
        while len(games) < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(list(game.mainline_moves()))
    return games


def run_deadtest(limit: int, repeats: int = 5) -> None:
    games = game_boards(limit)
    plies = sum(len(g) for g in games)

    def replay(make_test: Callable[[], Callable[[chess.Board], object]] | None) -> float:
        t0 = time.process_time()
        for moves in games:
            board = chess.Board()
            test = None if make_test is None else make_test()  # one per game, as remis game
            for move in moves:
                board.push(move)
                if test is not None:
                    test(board)
        return time.process_time() - t0

    engine_dead_test(chess.Board())  # warm up imports
    runs: dict[str, list[float]] = {"bare": [], "material": [], "game": [], "audit": []}
    for _ in range(repeats):
        runs["bare"].append(replay(None))
        runs["material"].append(replay(lambda: material_dead_test))
        runs["game"].append(replay(EngineDeadTest))
        runs["audit"].append(replay(lambda: EngineDeadTest(QUICK_ONLY)))
    b, m, g, a = (statistics.median(runs[k]) / plies * 1e6
                  for k in ("bare", "material", "game", "audit"))
    print(f"deadtest  {len(games)} games, {plies} plies, median of {repeats} (CPU): bare push "
          f"{b:.2f} us/ply; + material_dead_test {m - b:+.3f} us ({m / b:.3f}x); "
          f"+ EngineDeadTest as remis game {g - b:+.3f} us ({g / b:.3f}x); "
          f"+ EngineDeadTest(QUICK_ONLY) as the audit {a - b:+.3f} us ({a / b:.3f}x)")


def run_lastpos(limit: int, repeats: int = 3) -> None:
    paths = sorted((DATA / "masters").glob("*.pgn")) + sorted((DATA / "lichess").glob("*.pgn"))
    games = [(path.name, g) for path in paths for g in read_games(path) if g.board is not None]
    if limit and limit < len(games):
        step = len(games) / limit
        games = [games[int(i * step)] for i in range(limit)]

    def bare() -> float:
        t0 = time.process_time()
        for _, g in games:
            board = chess.Board() if g.board is None else g.board.copy()
            for move in g.moves:
                board.push(move)
        return time.process_time() - t0

    dead_at: dict[bool, list[int | None]] = {}

    def ruled(last: bool) -> float:
        t0 = time.process_time()
        ends = [rule_on_parsed(g, last_position=last).end for _, g in games]
        spent = time.process_time() - t0
        dead_at[last] = [e.ply if e is not None and e.termination == "dead_position" else None
                         for e in ends]
        return spent

    runs: dict[str, list[float]] = {"bare": [], "per-ply": [], "last": []}
    for _ in range(repeats):  # interleaved: the machine's load hits all alike
        runs["bare"].append(bare())
        runs["per-ply"].append(ruled(False))
        runs["last"].append(ruled(True))
    b, p, q = (statistics.median(runs[k]) / len(games) * 1e3 for k in ("bare", "per-ply", "last"))
    changed = [f"{name} game {g.index} at ply {ply}"
               for (name, g), before, ply in zip(games, dead_at[False], dead_at[True], strict=True)
               if ply != before]
    print(f"lastpos   {len(games)} games, median of {repeats} (CPU ms a game): python-chess "
          f"push {b:.3f}; remis game, per-ply test only {p:.3f} ({p / b:.1f}x); with the last "
          f"position's test {q:.3f} ({q / b:.1f}x, {q / p:.2f}x the per-ply test alone); "
          f"{len(changed)} end earlier at a dead position: {', '.join(changed) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    """Run the selected sets and modes."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--limit", type=int, default=None, help="first N positions of each set")
    p.add_argument("--only", nargs="*", default=["30k", "vectors", "timeouts", "mutations"],
                   choices=["30k", "vectors", "timeouts", "mutations", "deadtest", "lastpos"])
    p.add_argument("--modes", nargs="*", default=None, choices=["quick", "full"],
                   help="default: both for 30k, full for vectors and mutations, quick for "
                        "timeouts")
    p.add_argument("--max-nodes", type=int, default=None, help="node budget of full mode")
    p.add_argument("--undecided", type=Path, default=None, metavar="FILE",
                   help="write the undecided questions of full mode (FEN, colour, expected "
                        "answer; one set only) to FILE")
    p.add_argument("--rounds", type=int, default=3,
                   help="turns of remis and CHA in quick mode (the medians are compared)")
    p.add_argument("--cha", type=Path, default=None, metavar="BINARY",
                   help="CHA's command-line program (built outside this project): the same "
                        "questions, right after ours")
    args = p.parse_args(argv)
    if args.cha is not None and not os.access(args.cha, os.X_OK):
        print(f"--cha: {args.cha} is not an executable program", file=sys.stderr)
        return 1
    if not UNW.is_dir():
        print(f"shared data not found at {UNW}", file=sys.stderr)
        return 1
    loaders = {"30k": load_30k, "vectors": load_vectors, "timeouts": load_timeouts,
               "mutations": load_mutations}
    default_modes = {"30k": ["quick", "full"], "vectors": ["full"], "timeouts": ["quick"],
                     "mutations": ["full"]}
    for name in args.only:
        if name == "deadtest":
            run_deadtest(args.limit or 300)
            continue
        if name == "lastpos":
            run_lastpos(3000 if args.limit is None else args.limit)
            continue
        cases = loaders[name](args.limit)
        for mode in args.modes or default_modes[name]:
            run_set(name, cases, mode, args.max_nodes if mode == "full" else None,
                    args.undecided, args.cha, args.rounds)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
