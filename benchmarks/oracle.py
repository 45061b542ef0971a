"""The oracle of issue 47: ``remis game --json`` of every game of the shared
data, recorded once from the pure-Python implementation, against today's core.

    python benchmarks/oracle.py record ORACLE_DIR   # (the old tree) write the oracle
    python benchmarks/oracle.py compare ORACLE_DIR  # rule again and compare

Each file of ``../shared/data/{edge-cases,lichess,masters}`` gives
``ORACLE_DIR/<dir>/<name>.jsonl``.  The comparison is of the rulings: game
number, headers, variant, plies, the end (ply, result, termination, article,
plies, message and parameters), the claims (all of their fields), the error
(ply and message) and the 6.9 answer (player, result, applies, the verdict's
value).  The engine's evidence (helpmate lines, node counts, the words of its
reasons) is the unwinnability engine's and is left out; fields the core adds
(``offset`` in errors) and the parameters of the words added later
(:data:`LATER_WORDS`) are ignored.  Differences are printed by kind, with a
few examples each; the exit status is 1 when any game differs.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
DIRS = ("edge-cases", "lichess", "masters")


def files(data: Path = DATA) -> list[Path]:
    return [f for d in DIRS for f in sorted((data / d).glob("*.pgn"))]


def record(oracle: Path, data: Path = DATA) -> None:
    for f in files(data):
        out = oracle / f.parent.name / (f.stem + ".jsonl")
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w") as fh:
            subprocess.run([sys.executable, "-m", "remis", "game", "--json", str(f)],
                           stdout=fh, check=False)


#: parameters of the words added after the oracle was recorded (issue 48: where
#: positions stood, in move numbers, from the plies that are compared)
LATER_WORDS = ("positions",)


def _params(p: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in p.items() if k not in LATER_WORDS}


def _end(e: dict[str, Any] | None) -> Any:
    if e is None:
        return None
    params = _params(e["params"])
    if e["termination"] == "dead_position":
        params.pop("reason", None)  # the engine's words
    return (e["ply"], e["result"], e["termination"], e["article"], e["plies_involved"],
            e["message"], params)


def _flag(t: dict[str, Any] | None) -> Any:
    if t is None:
        return None
    v = t["can_checkmate"]
    return (t["player"], t["result"], t["applies"], None if v is None else v["value"])


def normal(j: dict[str, Any]) -> dict[str, Any]:
    """What is compared of one game's JSON object."""
    err = j["error"]
    return {"game": j["game"], "headers": j["headers"], "variant": j["variant"],
            "plies": j["plies"], "end": _end(j["end"]),
            "claims": [(c["ply"], c["player"], c["kind"], c["article"], c["move"],
                        _params(c["params"]), c.get("moves")) for c in j["claims"]],
            "error": None if err is None else (err["ply"], err["message"]),
            "time_forfeit": _flag(j.get("time_forfeit"))}


def engine_only(kind: str, then: dict[str, Any], now: dict[str, Any]) -> bool:
    """A difference that only the unwinnability engine's answer explains: the
    oracle's game went dead (5.2.2 found by the engine), or its 6.9 verdict was
    decided where today's engine leaves it open within its node budget."""
    dead = then["end"] is not None and then["end"][2] == "dead_position"
    if kind in ("end", "claims"):
        return dead
    if kind == "time_forfeit":
        t, n = then["time_forfeit"], now["time_forfeit"]
        return dead or (t is not None and n is not None and t[:3] == n[:3] and n[3] is None)
    return False


def compare(oracle: Path, data: Path = DATA, show: int = 3
            ) -> list[tuple[str, int, str, bool]]:
    """Rule on every file again and compare; every difference as (file, game,
    field, whether only the engine explains it)."""
    from remis.game import rule_on_pgn_file

    kinds: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    games = 0
    diffs: list[tuple[str, int, str, bool]] = []
    for f in files(data):
        with open(oracle / f.parent.name / (f.stem + ".jsonl"), encoding="utf-8") as fh:
            want = [json.loads(line) for line in fh]
        got = [g.to_json() for g in rule_on_pgn_file(f)]
        games += len(want)
        if len(got) != len(want):
            kinds["game count"] += 1
            diffs.append((f.name, 0, "game count", False))
            examples["game count"].append(f"{f.name}: {len(want)} then, {len(got)} now")
        for w, g in zip(want, got, strict=False):
            a, b = normal(w), normal(g)
            for k in a:
                if a[k] != b[k]:
                    diffs.append((f.name, w["game"], k, engine_only(k, a, b)))
                    kinds[k] += 1
                    if len(examples[k]) < show:
                        examples[k].append(f"{f.name} #{w['game']}: then {a[k]!r:.300}\n"
                                           f"      now  {b[k]!r:.300}")
    print(f"{games} games compared; {len(diffs)} differences, "
          f"{sum(1 for d in diffs if not d[3])} not explained by the engine alone")
    for k, n in kinds.most_common():
        print(f"{k}: {n} differ")
        for e in examples[k]:
            print("   ", e)
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("oracle", type=Path)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    if args.action == "record":
        record(args.oracle, args.data)
        return 0
    return 1 if any(not d[3] for d in compare(args.oracle, args.data)) else 0


if __name__ == "__main__":
    sys.exit(main())
