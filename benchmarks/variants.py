"""Benchmark: plies per second of remis's variant tracking versus asking
Fairy-Stockfish (``pyffish.is_optional_game_end``) after each ply, which
re-parses the whole game every time.  Both run in this process, on the same
games; the ratio is what to read (machines here are noisy).

    .venv/bin/python benchmarks/variants.py [--games N] [--repeat R]
    .venv/bin/python benchmarks/variants.py --chase [--games N]
    .venv/bin/python benchmarks/variants.py --agreement [--games N] [--positions N]

Modes:
* ``replay``  remis ``VariantHistory.extend`` + ``end`` (one pyffish call per
  game for legality and checks, one for the final position)
* ``push``    remis ``VariantHistory.push`` + ``end`` per ply, as the arbiter
  would drive it (two pyffish calls per ply)
* baseline    ``is_optional_game_end(variant, start, moves[:k])`` for every k

With ``--chase``: the CPU time per ply of xiangqi perpetual-chase tracking on
games built around chases (:func:`remis.variants.compare.chase_games`), against
Fairy-Stockfish's ``is_optional_game_end`` after each ply (which applies its
own chase rule), in the same process (CPU time, ``time.process_time``):

* ``chased``   :func:`remis.variants.chase.chased` on every ply (what judging
  every ply of a game would cost; remis judges only the plies of a cycle)
* ``replay``   ``VariantHistory.extend`` + ``end``, chases judged (AXF)
* ``nochase``  the same with the chase rule off
* ``fairy``    the baseline

With ``--agreement``: the full comparisons the tests sample, counted: remis's
verdicts against Fairy-Stockfish's on ``--games`` generated chase games and
``--games`` random games (threefold, AXF chase; every disagreement must be of
a known class), and remis's CSA declaration test against cshogi's
``is_nyugyoku`` on ``--positions`` positions where a king has entered.

With ``--audit``: games per second of ``remis audit --variant`` against the
replay it rests on, and of reading the same shogi games from CSA and KIF:

* ``replay``     ``rule_on_line`` on each game line (the baseline)
* ``audit``      ``audit_records(read_lines(...))``: reading, replay and checks
* ``audit-csa``  the same games as one CSA file (cshogi's parser), shogi only
* ``audit-kif``  the same games as KIF texts, one per game, shogi only
* ``audit-ki2``  the same games as one KI2 collection (cshogi's parser, one
  move a line), shogi only
* ``read-csa``, ``read-kif``, ``read-ki2``  reading those records alone
  (no replay): the cost of the parsers and of the child process they run in
  (its start included); the last column then counts the games read
* ``here-kif``, ``here-ki2``  the same reading in this process, without the
  child (as before it was isolated): the difference is the child's cost
* ``run -jN``    the game-line file through ``run_audit`` (the chess audit's
  runner: byte ranges of a game-line file, checkpoint after each) on N
  processes; before the runner, one file was one task whatever ``--jobs``
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable

from remis.audit.output import read_findings
from remis.audit.run import AuditOptions, run_audit
from remis.variants import ffish
from remis.variants.audit import audit_records
from remis.variants.auditrun import VariantWork
from remis.variants.game import rule_on_line
from remis.variants.history import VariantHistory
from remis.variants.ki2 import _read_ki2_game, read_ki2
from remis.variants.kifu import _read_kif_game, read_csa, read_kif, read_kifu_games
from remis.variants.kifutext import is_ki2_move, is_kif_move
from remis.variants.randgames import RandomGame, random_game
from remis.variants.records import read_lines
from remis.variants.rules import VariantRules, rules_for


def _median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _replay(games: list[RandomGame]) -> None:
    for g in games:
        h = VariantHistory(g.variant, g.start)
        h.extend(g.shown)
        _ = h.end


def _push(games: list[RandomGame]) -> None:
    for g in games:
        h = VariantHistory(g.variant, g.start)
        for m in g.shown:
            h.push(m)
            if h.end is not None:
                break


def _fairy(games: list[RandomGame]) -> None:
    for g in games:
        for k in range(1, len(g.moves) + 1):
            if ffish.optional_end(g.variant, g.fen, list(g.moves[:k]))[0]:
                break


def _plies(games: list[RandomGame]) -> int:
    n = 0
    for g in games:
        h = VariantHistory(g.variant, g.start)
        n += h.extend(g.shown)
    return n


def _lines(games: list[RandomGame]) -> list[bytes]:
    results = ("1-0", "0-1", "1/2-1/2")
    return [f"{g.start} moves {' '.join(g.shown)} result {results[i % 3]}\n".encode()
            for i, g in enumerate(games)]


def _csa(games: list[RandomGame]) -> bytes:
    import cshogi
    from cshogi import CSA

    buf = io.StringIO()
    ex = CSA.Exporter()
    ex.f = buf
    for g in games:
        board = cshogi.Board(g.start)
        ex.info(board)
        for m in g.shown:
            move = board.move_from_usi(m)
            ex.move(move)
            board.push(move)
        ex.endgame("%TORYO")
    return buf.getvalue().encode()


def _kifs(games: list[RandomGame]) -> list[bytes]:
    import cshogi
    from cshogi import KIF

    out = []
    for g in games:
        board = cshogi.Board(g.start)
        lines = ["手合割：平手", "手数----指手---------消費時間--"]
        prev = None
        for k, m in enumerate(g.shown, start=1):
            move = board.move_from_usi(m)
            lines.append(f"{k:>4} {KIF.move_to_kif(move, prev)}")
            board.push(move)
            prev = move
        lines.append(f"まで{len(g.shown)}手で千日手")
        out.append("\n".join(lines).encode("cp932"))
    return out


def _ki2(games: list[RandomGame]) -> bytes:
    """The games as one KI2 collection, eight moves a line."""
    import cshogi
    from cshogi import KI2

    out = []
    for g in games:
        board = cshogi.Board(g.start)
        notation = []
        for m in g.shown:
            move = board.move_from_usi(m)
            notation.append(KI2.move_to_ki2(move, board))
            board.push(move)
        rows = ["  ".join(notation[i:i + 8]) for i in range(0, len(notation), 8)]
        out.append("\n".join(["手合割：平手", "先手：A", "後手：B", *rows,
                              f"まで{len(g.shown)}手で千日手", ""]))
    return "".join(out).encode("cp932")


def _run(path: str, variant: str, jobs: int) -> list[object]:
    """The file through the audit runner on ``jobs`` processes; its findings."""
    out = path + f".j{jobs}.jsonl"
    size = os.path.getsize(path)
    run_audit(AuditOptions([path], out, jobs=jobs, chunk_bytes=max(1000, size // 8),
                           work=VariantWork(variant)), [path])
    return list(read_findings(out))


def audit_rows(games: int, repeat: int) -> None:
    """The ``--audit`` rows: games/s of the variant audit against the replay."""
    rng = random.Random(2026)
    tmp = tempfile.mkdtemp(prefix="remis-bench-")
    print(f"{'variant':8} {'games':>6} {'plies/game':>10} {'mode':>10} {'median s':>9} "
          f"{'games/s':>8} {'vs replay':>9} {'findings':>8}")
    for variant in ("shogi", "xiangqi"):
        gs = [random_game(variant, rng, prefix=40) for _ in range(games)]
        rules = rules_for(variant)
        lines = _lines(gs)
        texts = [x.decode() for x in lines]
        modes: list[tuple[str, Callable[[], list[object]]]] = [
            ("replay", lambda t=texts, v=variant: [rule_on_line(x, v) for x in t]),
            ("audit", lambda ls=lines, v=variant, r=rules:
                list(audit_records(read_lines(ls, v), r, "bench"))),
        ]
        if variant == "shogi":  # random games start at the start position: KIF can hold them
            csa, kifs, ki2 = _csa(gs), _kifs(gs), _ki2(gs)
            modes.append(("audit-csa", lambda d=csa, r=rules:
                          list(audit_records(read_csa(d), r, "bench"))))
            modes.append(("audit-kif", lambda ks=kifs, r=rules:
                          [f for k in ks for f in audit_records(read_kif(k), r, "bench")]))
            modes.append(("audit-ki2", lambda d=ki2, r=rules:
                          list(audit_records(read_ki2(d), r, "bench"))))
            modes.append(("read-csa", lambda d=csa: list(read_csa(d))))
            modes.append(("read-kif", lambda ks=kifs: [g for k in ks for g in read_kif(k)]))
            modes.append(("read-ki2", lambda d=ki2: list(read_ki2(d))))
            modes.append(("here-kif", lambda ks=kifs: [
                g for k in ks for g in read_kifu_games(k, is_kif_move, _read_kif_game)]))
            modes.append(("here-ki2", lambda d=ki2: list(
                read_kifu_games(d, is_ki2_move, _read_ki2_game))))
        path = os.path.join(tmp, f"{variant}.txt")
        with open(path, "wb") as f:
            f.write(b"".join(lines))
        for jobs in (1, 2):
            modes.append((f"run -j{jobs}", lambda p=path, v=variant, j=jobs: _run(p, v, j)))
        plies = sum(len(g.shown) for g in gs) / len(gs)
        base = 0.0
        for mode, fn in modes:
            sec = _median_seconds(fn, repeat)
            base = base or sec
            n = len(fn()) if mode != "replay" else 0
            print(f"{variant:8} {len(gs):>6} {plies:>10.0f} {mode:>10} {sec:>9.3f} "
                  f"{len(gs) / sec:>8.0f} {base / sec:>8.2f}x {n:>8}")


def _cpu(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU seconds of ``fn`` (the machine is shared: wall time is noise)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def chase_rows(games: int, repeat: int) -> None:
    """The ``--chase`` rows: CPU time per ply of chase tracking against pyffish."""
    from remis.variants.board import Board
    from remis.variants.chase import chased
    from remis.variants.compare import chase_games
    from remis.variants.rules import xiangqi_rules

    gs = chase_games(games, seed=2026)
    plies = sum(len(g.moves) for g in gs)

    def every_ply() -> None:
        for g in gs:
            board = Board.from_fen("xiangqi", g.fen)
            for m in g.moves:
                after = board.copy()
                after.play(m)
                chased(board, after, m)
                board = after

    def replay(rules: VariantRules) -> None:
        for g in gs:
            h = VariantHistory(rules, g.start)
            h.extend(g.shown)
            _ = h.end

    base = _cpu(lambda: _fairy(gs), repeat)
    rows = [("fairy", base), ("chased", _cpu(every_ply, repeat)),
            ("replay", _cpu(lambda: replay(xiangqi_rules(4)), repeat)),
            ("nochase", _cpu(lambda: replay(xiangqi_rules(4, "none")), repeat))]
    print(f"{'mode':>8} {'games':>6} {'plies':>6} {'CPU s':>8} {'us/ply':>8} {'vs fairy':>9}")
    for mode, sec in rows:
        print(f"{mode:>8} {len(gs):>6} {plies:>6} {sec:>8.3f} {sec / plies * 1e6:>8.0f} "
              f"{base / sec:>8.2f}x")


def agreement_rows(games: int, positions: int) -> int:
    """The ``--agreement`` counts; returns 1 if a disagreement is unexplained."""
    import collections

    from remis.variants.compare import (
        chase_games,
        declaration_verdicts,
        entering_positions,
        explain_chase,
        fairy_verdict,
        last_judged_ply,
        remis_verdict,
    )
    from remis.variants.compare import games as random_games

    status = 0
    for label, gs in (("chase games", chase_games(games, seed=57)),
                      ("random games", random_games("xiangqi", games, seed=57))):
        kinds: collections.Counter[str | None] = collections.Counter()
        classes: collections.Counter[str] = collections.Counter()
        for g in gs:
            ours, term = remis_verdict(g, 3)
            kinds[term] += 1
            fs = fairy_verdict(g, "xiangqi", last_judged_ply(g, ours, term))
            if fs != ours:
                why = explain_chase(g, ours, fs, 3)
                classes[why or "unexplained"] += 1
                if why is None:
                    status = 1
                    print(f"  unexplained: {g.fen} moves {' '.join(g.moves)}: remis {ours}, "
                          f"Fairy-Stockfish {fs}")
        print(f"xiangqi {label}: {len(gs)} games, remis endings {dict(kinds)}; "
              f"disagreements with Fairy-Stockfish: {dict(classes) or 0}")
    verdicts = collections.Counter(declaration_verdicts(s)
                                   for s in entering_positions(positions, seed=57))
    disagree = sum(n for (a, b), n in verdicts.items() if a != b)
    print(f"shogi declarations: {positions} positions with a king in the camp, "
          f"{verdicts[(True, True)]} may declare, {verdicts[(False, False)]} may not; "
          f"disagreements with cshogi: {disagree}")
    return status or int(disagree > 0)


def main() -> None:
    """Run the benchmark and print medians, plies/s and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, help="default 6 (--audit: 40)")
    ap.add_argument("--repeat", type=int, default=None, help="default 3 (--audit: 5)")
    ap.add_argument("--audit", action="store_true",
                    help="benchmark remis audit --variant instead (default 40 games, 5 repeats)")
    ap.add_argument("--chase", action="store_true",
                    help="CPU time per ply of xiangqi chase tracking against pyffish "
                    "(default 40 games, 3 repeats)")
    ap.add_argument("--agreement", action="store_true",
                    help="count agreement with pyffish (chase) and cshogi (declaration) "
                    "(default 1000 games, 1000 positions)")
    ap.add_argument("--positions", type=int, default=1000,
                    help="--agreement: shogi positions to compare (default 1000)")
    args = ap.parse_args()
    if args.agreement:
        raise SystemExit(agreement_rows(args.games or 1000, args.positions))
    if args.chase:
        chase_rows(args.games or 40, args.repeat or 3)
        return
    if args.audit:
        audit_rows(args.games or 40, args.repeat or 5)
        return
    args.games, args.repeat = args.games or 6, args.repeat or 3
    rng = random.Random(2026)
    print(f"{'variant':8} {'games':>6} {'plies/game':>10} {'mode':>8} {'median s':>9} "
          f"{'plies/s':>9} {'vs fairy':>9}")
    for variant in ("shogi", "xiangqi"):
        for prefix in (12, 100):
            gs = [random_game(variant, rng, prefix=prefix) for _ in range(args.games)]
            plies = _plies(gs)
            label = f"{len(gs):>6} {plies / len(gs):>10.0f}"
            base = _median_seconds(lambda gs=gs: _fairy(gs), args.repeat)
            rows = [("fairy", base)]
            rows.append(("replay", _median_seconds(lambda gs=gs: _replay(gs), args.repeat)))
            rows.append(("push", _median_seconds(lambda gs=gs: _push(gs), args.repeat)))
            for mode, sec in rows:
                print(f"{variant:8} {label} {mode:>8} {sec:>9.3f} "
                      f"{plies / sec:>9.0f} {base / sec:>8.1f}x")


if __name__ == "__main__":
    main()
