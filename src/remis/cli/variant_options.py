"""The ``--variant`` options of ``remis game`` / ``position`` / ``audit``, kept free of
the ``pyffish`` import so that the chess CLI works without the ``variants``
extra; the variant paths load :mod:`remis.cli.variant` only when chosen."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_options(p: Any) -> None:
    """Add ``--variant`` and ``--repetitions`` to a sub-command parser.

    >>> p = argparse.ArgumentParser(); add_options(p)
    >>> p.parse_args(["--variant", "xiangqi", "--repetitions", "3"]).repetitions
    3
    """
    p.add_argument("--variant", choices=["chess", "shogi", "xiangqi"], default="chess",
                   help="game: chess (PGN/FEN), shogi (SFEN + USI moves, or .kif/.kifu/.ki2/.csa "
                   "files) or xiangqi (FEN + UCI/ICCS moves); variant game files have one "
                   "game per line, with an optional trailing 'result 1-0|0-1|1/2-1/2|*'")
    p.add_argument("--repetitions", type=int, default=None, metavar="N",
                   help="xiangqi: occurrences of a position that end the game (default 4)")
    p.add_argument("--notation", choices=["uci", "iccs"], default=None,
                   help="xiangqi moves: uci (ranks 1-10) or iccs (ranks 0-9); default: "
                   "iccs if a move has a dash or a rank 0, else uci")


def _missing(exc: ImportError) -> int:
    sys.stderr.write(f"remis: shogi and xiangqi need pyffish ({exc}); "
                     "install it with: pip install 'remis[variants]'\n")
    return 2


def run_game(args: argparse.Namespace) -> int:
    """Run ``remis game --variant ...`` (exit status 2 if pyffish is missing).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt"); _ = open(p, "w").write("startpos 7g7f\\n")
    >>> run_game(argparse.Namespace(files=[p], variant="shogi", json=False, repetitions=None,
    ...                             notation=None))
    line 1     shogi    1 plies  no automatic end
    0
    """
    try:
        from remis.cli import variant as cli
    except ImportError as exc:
        return _missing(exc)
    return cli.run_game(args)


def run_position(args: argparse.Namespace) -> int:
    """Run ``remis position --variant ...`` (exit status 2 if pyffish is missing).

    >>> run_position(argparse.Namespace(fen="R3k4/R8/9/9/9/9/9/9/9/3K5 b", variant="xiangqi",
    ...              json=False, repetitions=None, notation=None))  # doctest: +ELLIPSIS
    R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1
      Black to move, 0 legal moves, in check
      game over: checkmate 1-0 (WXF checkmate) — Black is in check and has no legal move: ...
    0
    """
    try:
        from remis.cli import variant as cli
    except ImportError as exc:
        return _missing(exc)
    return cli.run_position(args)


def run_audit(args: argparse.Namespace) -> int:
    """Run ``remis audit --variant ...`` (exit status 2 if pyffish is missing).

    >>> from remis.cli import build_parser
    >>> args = build_parser().parse_args(["audit", "--variant", "xiangqi", "--resume", "x"])
    >>> run_audit(args)
    2
    """
    try:
        from remis.cli import variant as cli
    except ImportError as exc:
        return _missing(exc)
    return cli.run_audit(args)
