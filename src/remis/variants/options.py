"""The ``--variant`` options of ``remis game`` / ``remis position``, kept free of
the ``pyffish`` import so that the chess CLI works without the ``variants``
extra; the variant paths load :mod:`remis.variants.cli` only when chosen."""

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
                   help="game: chess (PGN/FEN), shogi (SFEN + USI moves) or xiangqi "
                   "(FEN + UCI/ICCS moves); variant input is one game per line")
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
    """Run ``remis game --variant ...`` (exit status 2 if pyffish is missing)."""
    try:
        from remis.variants import cli
    except ImportError as exc:
        return _missing(exc)
    return cli.run_game(args)


def run_position(args: argparse.Namespace) -> int:
    """Run ``remis position --variant ...`` (exit status 2 if pyffish is missing)."""
    try:
        from remis.variants import cli
    except ImportError as exc:
        return _missing(exc)
    return cli.run_position(args)
