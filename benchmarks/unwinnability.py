"""Unwinnability engine: speed and agreement on the real data.

Usage (from the project root, shared data in ../shared/data or
$REMIS_SHARED_DATA)::

    .venv/bin/python benchmarks/unwinnability.py               # everything (long)
    .venv/bin/python benchmarks/unwinnability.py --limit 500   # first N of each set
    .venv/bin/python benchmarks/unwinnability.py --only 30k --modes quick
    .venv/bin/python benchmarks/unwinnability.py --only vectors --undecided /tmp/undecided.tsv
    .venv/bin/python benchmarks/unwinnability.py --only lastpos --limit 0  # all 43,125 games
    .venv/bin/python benchmarks/unwinnability.py --only 30k --modes full --cha /path/to/cha
    .venv/bin/python benchmarks/unwinnability.py --only focus   # with and without the focus
    .venv/bin/python benchmarks/unwinnability.py --only mutations --modes full --cha /path/to/cha

Sets:

* ``30k``: lichess-30k-positions.txt, the side that just moved as the would-be
  winner: positions/s, median/mean/p99/max per position, quick and full mode;
* ``vectors``: cha-test-vectors.txt, both colours: the same figures, and the
  agreement with the expected answers (wrong = a contradicted verdict, which
  must never happen; undecided = None);
* ``timeouts``: lichess-unfair-timeouts.txt, the side NOT to move (every one
  is unwinnable): agreement = share proved "cannot mate";
* ``mutations``: positions no budget was ever tuned on, for a differential
  check against CHA (``--cha``): 3,000 questions (``--limit`` N: N) made
  from the CHA test vectors and every 100th unfair timeout by one to three
  random changes each (a piece moved or taken off, a pawn moved, a piece
  added, the side to move switched), legal and not over, with a random
  would-be winner; a fixed seed makes them the same in every run.  No
  answer is expected, so the agreement is CHA's (no contradiction may
  occur) and every helpmate line is replayed;
* ``lastpos``: the cost, per game, of the last position's full-mode test of
  ``remis game`` (:mod:`remis.unwinnable.first_dead`): ``rule_on_parsed``
  with and without it, beside a bare python-chess replay of the same moves,
  over an even sample of the games of ``masters`` and ``lichess``
  (``--limit`` games, default 3,000; 0 for all of them), and the games whose
  end it changes;
* ``focus``: full mode with and without the focused width search of stage 3
  (:mod:`remis.unwinnable.focus`) on the CHA test vectors' questions with
  idle pieces, each timed both ways in turn: totals, slowest, their ratio,
  and whether any verdict differs;
* ``deadtest``: the per-ply cost of the dead-position test after a bare
  python-chess push, over lichess games: one
  :class:`~remis.unwinnable.deadtest.EngineDeadTest` per game, as ``remis
  game`` runs it and as the audit does (quick mode only).

Every timing is printed next to a baseline timed in the same process (a
python-chess legal-move generation for the positions, a bare push for the
dead test): machines here are noisy, read the ratios.  The slowest question
is also given in CPU time (``time.process_time``), which a loaded machine
inflates far less than the wall clock.

With ``--cha BINARY`` (the command-line program of CHA, the Chess
Unwinnability Analyzer, built from its sources outside this project), full
mode's questions of each set are also put to CHA's full mode right after
ours, in the same run: its own timings (it times each question itself),
its verdicts, the questions where the two contradict each other (there must
be none), and our mean as a multiple of CHA's, the machine-independent form
of the lichess-30k target (CHA's full mode within 10 times).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from remis.game import rule_on_parsed
from remis.pgn import read_games
from remis.rules import material_dead_test
from remis.unwinnable import can_checkmate, deadtest
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
    """The ``mutations`` set (see the module docstring; the questions are
    :mod:`tests.unwinnable.mutations`'s, which the test suite runs too)."""
    return [(board, color, None) for board, color in
            mutated_questions(UNW, MUTATIONS if limit is None else limit)]


#: The issue's ceiling for one question in full mode, in seconds of CPU time.
OVER_SECONDS = 2.0
#: CHA's answer to one question, as its program prints it: the verdict, and
#: the question's time in microseconds.
CHA_LINE = re.compile(r"^(winnable|unwinnable|undetermined)\b.* time (\d+) \(")
#: Full mode's target on lichess-30k against CHA's full mode timed in the
#: same run (``--cha``): a mean within this many times CHA's.
CHA_TIMES = 10
#: The project's targets for the mean on lichess-30k, where CHA's own figures
#: (200 us full, 3.5 us quick, on a 2-core VM of this kind) were measured:
#: full mode within 10x (and no question over OVER_SECONDS), quick mode.
TARGET_MEAN = {"full": 2e-3, "quick": 100e-6}


def stats(times: list[float]) -> str:
    times = sorted(times)
    n = len(times)
    mean = statistics.fmean(times)
    return (f"n={n} {n / sum(times):,.0f} pos/s  median {1e3 * times[n // 2]:.3f} ms  "
            f"mean {1e3 * mean:.3f} ms  p99 {1e3 * times[min(n - 1, int(n * 0.99))]:.2f} ms  "
            f"max {1e3 * times[-1]:.1f} ms")


def baseline(cases: list[Case]) -> float:
    """Mean seconds per position of one python-chess legal-move generation."""
    t0 = time.perf_counter()
    for board, _, _ in cases:
        list(board.generate_legal_moves())
    return (time.perf_counter() - t0) / len(cases)


def cha_answers(binary: Path, cases: list[Case]) -> list[tuple[bool | None, float]]:
    """CHA's full mode on ``cases`` (``binary``: its command-line program):
    for each question, its verdict (can the colour mate?  None: undetermined)
    and the seconds it timed itself.  The questions go in on stdin, one
    "FEN white|black" per line, the answers come back in order."""
    given = "".join(f"{board.fen()} {'white' if color else 'black'}\n"
                    for board, color, _ in cases)
    out = subprocess.run([str(binary)], input=given, capture_output=True, text=True,
                         cwd=binary.parent, check=True).stdout
    answers: list[tuple[bool | None, float]] = []
    for line in out.splitlines():
        m = CHA_LINE.match(line)
        if m:
            verdict = {"winnable": True, "unwinnable": False}.get(m.group(1))
            answers.append((verdict, int(m.group(2)) * 1e-6))
    if len(answers) != len(cases):
        raise RuntimeError(f"{binary}: {len(answers)} answers to {len(cases)} questions")
    return answers


def compare_cha(name: str, binary: Path, cases: list[Case], ours: list[bool | None],
                mean: float, cpu: list[float] | None = None) -> None:
    """Print CHA's full mode on the set ``name``'s ``cases`` beside ours
    (``ours``: our verdicts, ``mean``: our mean seconds per question), and
    on lichess-30k, whether our mean is within :data:`CHA_TIMES` of CHA's.
    With ``cpu`` (our CPU seconds per question): how many questions CHA
    leaves undetermined that we decide, and of our questions over
    :data:`OVER_SECONDS`, how many CHA decides (and its slowest time on
    them): the slow tail compared where both answer.
    A CHA program that fails or leaves questions unanswered is reported,
    and the benchmark goes on."""
    try:
        answers = cha_answers(binary, cases)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
        print(f"          CHA full  not compared ({name}): {e}", file=sys.stderr)
        return
    times = [t for _, t in answers]
    counts: dict[object, int] = {}
    for verdict, _ in answers:
        counts[verdict] = counts.get(verdict, 0) + 1
    clash = [(board, color) for (board, color, _), (theirs, _), mine
             in zip(cases, answers, ours, strict=True)
             if theirs is not None and mine is not None and theirs != mine]
    for board, color in clash:
        print(f"  CHA DISAGREES {board.fen()} {'white' if color else 'black'}",
              file=sys.stderr)
    ratio = mean / statistics.fmean(times)
    print(f"          CHA full  {stats(times)} (its own timings); verdicts "
          f"{dict(sorted(counts.items(), key=str))}; contradictions {len(clash)}; "
          f"remis full mean = {ratio:.1f}x CHA's")
    if name == "30k":
        print(f"          target, measured against CHA in this run: mean within {CHA_TIMES}x "
              f"CHA's: {'met' if ratio <= CHA_TIMES else 'MISSED'}")
    if cpu is not None:
        open_cha = [mine for (theirs, _), mine in zip(answers, ours, strict=True)
                    if theirs is None]
        slow = [t for (theirs, t), mine_cpu in zip(answers, cpu, strict=True)
                if mine_cpu > OVER_SECONDS and theirs is not None]
        over = sum(t > OVER_SECONDS for t in cpu)
        print(f"          CHA leaves {len(open_cha)} undetermined, of which remis decides "
              f"{sum(v is not None for v in open_cha)}; of remis's {over} over "
              f"{OVER_SECONDS:g} s CPU, CHA decides {len(slow)}"
              + (f" (its slowest {1e3 * max(slow):.0f} ms)" if slow else ""))


def run_set(name: str, cases: list[Case], mode: str, max_nodes: int | None,
            undecided_to: Path | None = None, cha: Path | None = None) -> None:
    base = baseline(cases)
    times: list[float] = []
    cpu_max = 0.0
    cpus: list[float] = []  # CPU seconds, by question
    over = 0  # questions over OVER_SECONDS of CPU time
    nodes: list[int] = []
    verdicts: list[bool | None] = []
    right = wrong = undecided = 0
    counts: dict[object, int] = {}
    slowest: tuple[float, str] = (0.0, "")
    missed: list[str] = []
    for board, color, expected in cases:
        t0, c0 = time.perf_counter(), time.process_time()
        v = can_checkmate(board, color, mode=mode, max_nodes=max_nodes)  # type: ignore[arg-type]
        dt = time.perf_counter() - t0
        cpu = time.process_time() - c0
        cpu_max = max(cpu_max, cpu)
        cpus.append(cpu)
        over += cpu > OVER_SECONDS
        times.append(dt)
        nodes.append(v.nodes)
        verdicts.append(v.value)
        if dt > slowest[0]:
            slowest = (dt, f"{board.fen()} ({'white' if color else 'black'})")
        counts[v.value] = counts.get(v.value, 0) + 1
        if v.value is None:
            undecided += 1
            missed.append(f"{board.fen()}\t{'white' if color else 'black'}\t{expected}")
        elif expected is not None:
            if v.value == expected:
                right += 1
            else:
                wrong += 1
                print(f"  WRONG {board.fen()} {color}: {v.reason}", file=sys.stderr)
        if v.value:
            b = board.copy()
            for uci in v.line:
                b.push_uci(uci)
            if not (b.is_checkmate() and b.turn != color):
                wrong += 1
                print(f"  BAD LINE {board.fen()}: {v.line}", file=sys.stderr)
    mean = statistics.fmean(times)
    print(f"{name:<9} {mode:<5} {stats(times)}  ({mean / base:.1f}x a legal-move generation "
          f"of {1e6 * base:.1f} us)")
    nodes.sort()
    print(f"          search nodes: mean {statistics.fmean(nodes):.0f}, median "
          f"{nodes[len(nodes) // 2]}, p99 {nodes[min(len(nodes) - 1, int(len(nodes) * 0.99))]}, "
          f"max {nodes[-1]} (machine-independent); max CPU time of one question "
          f"{1e3 * cpu_max:.0f} ms, {over} over {OVER_SECONDS:g} s")
    print(f"          verdicts {dict(sorted(counts.items(), key=str))}; slowest "
          f"{1e3 * slowest[0]:.0f} ms: {slowest[1]}")
    if name == "30k":
        met = mean <= TARGET_MEAN[mode] and (mode == "quick" or not over)
        extra = f" and none over {OVER_SECONDS:g} s" if mode == "full" else ""
        print(f"          target: mean <= {1e6 * TARGET_MEAN[mode]:,.0f} us{extra}: "
              f"{'met' if met else 'MISSED'} in this run")
    if cha is not None and mode == "full":
        compare_cha(name, cha, cases, verdicts, mean, cpus)
    if undecided_to is not None and mode == "full":
        undecided_to.write_text("".join(line + "\n" for line in missed))
    if any(expected is not None for _, _, expected in cases):
        n = len(cases)
        print(f"          agreement {right}/{n} = {100 * right / n:.2f}%  wrong {wrong}  "
              f"undecided {undecided}")


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
        deadtest._CACHE.clear()  # each run finds its own answers
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
    # the call alone, on stored positions (answers of candidates cached)
    boards = []
    for moves in games:
        board = chess.Board()
        for move in moves:
            board.push(move)
            boards.append(board.copy(stack=False))

    def per_call(test: Callable[[chess.Board], object]) -> float:
        t0 = time.perf_counter()
        for board in boards:
            test(board)
        return (time.perf_counter() - t0) / len(boards) * 1e9

    calls = {name: statistics.median(per_call(fn) for _ in range(repeats))
             for name, fn in (("no-op", lambda _b: None), ("material", material_dead_test),
                              ("engine", engine_dead_test))}
    print("          per call on stored positions (median ns): "
          + ", ".join(f"{k} {v:.0f}" for k, v in calls.items()))


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


def run_focus(limit: int | None) -> None:
    """Full mode with and without the focused width search of stage 3
    (:mod:`remis.unwinnable.focus`) on the CHA test vectors' questions with
    idle pieces, each question timed both ways in turn (CPU time)."""
    from remis.unwinnable.focus import idle_pieces

    import remis.unwinnable as engine

    cases = [(board, color, expected) for board, color, expected in load_vectors(limit)
             if idle_pieces(board, color)]
    budget = engine.FOCUS_NODES
    times: dict[bool, list[float]] = {True: [], False: []}
    methods: dict[str, int] = {}
    differ = 0
    try:
        for board, color, expected in cases:
            verdicts = {}
            for focus in (True, False):
                engine.FOCUS_NODES = budget if focus else 0
                t0 = time.process_time()
                verdicts[focus] = can_checkmate(board, color)
                times[focus].append(time.process_time() - t0)
            methods[verdicts[True].method] = methods.get(verdicts[True].method, 0) + 1
            differ += verdicts[True].value != verdicts[False].value
            differ += verdicts[True].value != expected
    finally:
        engine.FOCUS_NODES = budget
    on, off = sum(times[True]), sum(times[False])
    over = {k: sum(t > OVER_SECONDS for t in v) for k, v in times.items()}
    print(f"focus     {len(cases)} vector questions with idle pieces (CPU): with the focus "
          f"{on:.2f} s in all (slowest {max(times[True]):.2f} s, {over[True]} over "
          f"{OVER_SECONDS:g} s), without it {off:.2f} s (slowest {max(times[False]):.2f} s, "
          f"{over[False]} over); ratio {on / off:.2f}; deciding stage with it "
          f"{dict(sorted(methods.items()))}; verdicts differing from each other or from the "
          f"expected answer: {differ}")


def main(argv: list[str] | None = None) -> int:
    """Run the selected sets and modes."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--limit", type=int, default=None, help="first N positions of each set")
    p.add_argument("--only", nargs="*", default=["30k", "vectors", "timeouts", "deadtest"],
                   choices=["30k", "vectors", "timeouts", "deadtest", "lastpos", "focus",
                            "mutations"])
    p.add_argument("--modes", nargs="*", default=["quick", "full"], choices=["quick", "full"])
    p.add_argument("--max-nodes", type=int, default=None, help="node budget of full mode")
    p.add_argument("--undecided", type=Path, default=None, metavar="FILE",
                   help="write the undecided questions of full mode (FEN, colour, expected "
                        "answer; one set only) to FILE")
    p.add_argument("--cha", type=Path, default=None, metavar="BINARY",
                   help="CHA's command-line program (built outside this project): its full "
                        "mode on the same questions, right after ours")
    args = p.parse_args(argv)
    if args.cha is not None and not os.access(args.cha, os.X_OK):
        print(f"--cha: {args.cha} is not an executable program", file=sys.stderr)
        return 1
    if not UNW.is_dir():
        print(f"shared data not found at {UNW}", file=sys.stderr)
        return 1
    loaders = {"30k": load_30k, "vectors": load_vectors, "timeouts": load_timeouts,
               "mutations": load_mutations}
    for name in args.only:
        if name == "deadtest":
            run_deadtest(args.limit or 300)
            continue
        if name == "lastpos":
            run_lastpos(3000 if args.limit is None else args.limit)
            continue
        if name == "focus":
            run_focus(args.limit)
            continue
        cases = loaders[name](args.limit)
        for mode in args.modes:
            run_set(name, cases, mode, args.max_nodes if mode == "full" else None,
                    args.undecided, args.cha)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
