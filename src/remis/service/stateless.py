"""The stateless endpoints' work: the same JSON objects as ``remis position
--json``, ``remis game --json`` and ``remis claim --json``, from text in a
request body instead of files.  Only glue: every ruling comes from the core.

The service runs each request as one :func:`run_job` in a worker process,
under a budget of nodes and seconds for all its searches together
(:func:`remis.unwinnable.limit`), cancelled when its client goes away.
First it tries :func:`first_pass`: the same work under a small budget, which
settles the questions of ordinary input in milliseconds, and whose answer is
then the one the whole budget would give.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

from remis.game import claim_in_game, rule_on_parsed
from remis.pgn import parse_game, split_games
from remis.position import rule_on_position
from remis.ruling import FIFTY, THREEFOLD
from remis.unwinnable import Cancelled, limit
from remis.unwinnable.budget import current

#: claim kinds accepted by ``remis claim --kind`` and ``/v1/claim``
CLAIM_KINDS = {"threefold": THREEFOLD, "threefold_repetition": THREEFOLD, "fifty": FIFTY,
               "fifty_moves": FIFTY}
#: penalty of an incorrect claim (seconds) by play mode, as ``remis claim --mode``
PENALTY = {"standard": 120, "rapid": 60, "blitz": 60}
#: the engine runs its searches in slices of 256 nodes, smaller where fewer than 64
#: slices are left to a search (rust/src/unwinnable/mod.rs): a first pass is final only
#: where every search had at least this many nodes left, and so ran as it would have
#: under the whole budget
SLICE_NODES = 64 * 256


class InputError(ValueError):
    """Input the endpoint cannot rule on; the message says where."""


def position_json(fen: str, *, quick: bool = False,
                  max_seconds: float | None = None) -> dict[str, Any]:
    """``remis position --json`` (``--quick`` when ``quick``) for one FEN; a bad
    FEN raises :class:`InputError`.

    >>> position_json("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")["end"]["termination"]
    'stalemate'
    """
    try:
        return rule_on_position(fen, mode="quick" if quick else "full",
                                max_seconds=max_seconds).to_json()
    except ValueError as exc:
        raise InputError(f"fen: {exc}") from None


def pgn_json(pgn: str, *, between: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """``remis game --json`` for every game of a PGN text (one object per game;
    a broken game carries its ``error`` and does not stop the others);
    ``between()`` is called before each game (it may raise to stop).

    >>> [g["end"]["termination"] for g in pgn_json("1. f3 e5 2. g4 Qh4# 0-1\\n")]
    ['checkmate']
    """
    stream = io.BytesIO(pgn.encode("utf-8"))
    out = []
    for gt in split_games(stream):
        if between is not None:
            between()
        out.append(rule_on_parsed(parse_game(gt)).to_json())
    return out


def claim_json(pgn: str, *, game: int = 1, ply: int | None = None, move: str | None = None,
               kind: str | None = None, mode: str = "standard") -> dict[str, Any]:
    """``remis claim --json``: the verdict on a draw claim by the player to
    move after ``ply`` plies (default: the end of the mainline) of game
    number ``game``.  Input that names no position raises :class:`InputError`.

    >>> pgn = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *"
    >>> v = claim_json(pgn, move="Ng8")
    >>> v["valid"], v["article"], v["occurrences"]
    (True, '9.2.1', [0, 4, 8])
    """
    if game < 1:
        raise InputError("game counts from 1")
    if kind is not None and kind not in CLAIM_KINDS:
        raise InputError(f"kind {kind!r}: use one of {', '.join(sorted(CLAIM_KINDS))}")
    if mode not in PENALTY:
        raise InputError(f"mode {mode!r}: use one of {', '.join(sorted(PENALTY))}")
    stream = io.BytesIO(pgn.encode("utf-8"))
    parsed = next((parse_game(gt) for gt in split_games(stream) if gt.index == game), None)
    if parsed is None:
        raise InputError(f"pgn: no game number {game}")
    if parsed.board is None:
        raise InputError(f"pgn: game {game}: {parsed.error[1] if parsed.error else 'unreadable'}")
    at = len(parsed.moves) if ply is None else ply
    if at < 0 or at > len(parsed.moves):
        extra = (f" (error at ply {parsed.error[0]}: {parsed.error[1]})"
                 if parsed.error else "")
        raise InputError(f"pgn: game {game}: ply {at} is outside the game "
                         f"(0..{len(parsed.moves)}){extra}")
    verdict = claim_in_game(parsed, at, kind=CLAIM_KINDS.get(kind or ""), move=move,
                            penalty_seconds=PENALTY[mode])
    return verdict.verdict_json()


#: the work of each stateless endpoint, by name
JOBS: dict[str, Callable[..., Any]] = {"position": position_json, "pgn": pgn_json,
                                       "claim": claim_json}


def run_job(kind: str, kwargs: dict[str, Any], max_nodes: int, max_seconds: float,
            cancelled: Callable[[], bool] | None = None) -> tuple[Any, dict[str, Any]]:
    """``(answer, budget)`` of one request: ``JOBS[kind](**kwargs)`` with all
    its searches under one budget (its ``to_json()``: what it allowed, what
    was used, whether a search was cut short).  :class:`InputError` for bad
    input; :class:`~remis.unwinnable.Cancelled` once ``cancelled()`` is true.

    >>> out, budget = run_job("pgn", {"pgn": "1. f3 e5 2. g4 Qh4# 0-1"}, 10**6, 5.0)
    >>> out[0]["end"]["article"], budget["exhausted"]
    ('5.1.1', False)
    """
    stop = cancelled or (lambda: False)

    def between() -> None:
        if stop():
            raise Cancelled("the request was cancelled")

    if kind == "pgn":
        kwargs = {**kwargs, "between": between}
    with limit(max_nodes, max_seconds, stop) as budget:
        return JOBS[kind](**kwargs), budget.to_json()


def first_pass(kind: str, kwargs: dict[str, Any], max_nodes: int, max_seconds: float,
               max_cpu: float, cancelled: Callable[[], bool] | None = None,
               ) -> tuple[Any, dict[str, Any]] | None:
    """:func:`run_job` under a small budget: its ``(answer, budget)`` where
    that budget settled every question as the whole budget would have (no
    search was cut short, each had :data:`SLICE_NODES` nodes to spare), or
    None, as soon as it is clear that it cannot (the work is then done again
    under the whole budget).  ``max_cpu`` bounds the CPU seconds of this
    thread, the work between the searches included (a long PGN text).

    >>> out, budget = first_pass("pgn", {"pgn": "1. f3 e5 2. g4 Qh4# 0-1"}, 50_000, 5.0, 1.0)
    >>> out[0]["end"]["article"], budget["nodes"] < 50_000
    ('5.1.1', True)
    >>> first_pass("position", {"fen": "8/1p1p1p1p/1P6/KP6/PP6/1P3P2/3P3P/k7 w - - 0 1"},
    ...            50_000, 5.0, 1.0) is None
    True
    """
    start = time.thread_time()

    def unsettled() -> bool:
        budget = current()
        if time.thread_time() - start > max_cpu:
            return True
        return budget is not None and (budget.cut
                                       or budget.nodes + SLICE_NODES > budget.max_nodes)

    def stop() -> bool:
        return unsettled() or (cancelled is not None and cancelled())

    try:
        out, budget = run_job(kind, kwargs, max_nodes, max_seconds, stop)
    except Cancelled:
        if cancelled is not None and cancelled():
            raise
        return None
    if (budget["exhausted"] or budget["nodes"] + SLICE_NODES > max_nodes
            or time.thread_time() - start > max_cpu):
        return None
    return out, budget
