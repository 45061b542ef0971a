"""The ``remis`` command line: argument parsing and printing only.

Each sub-command lives in its own module with a ``register(subparsers)``
function; the rules are never decided here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

#: sub-command modules, in the order ``remis --help`` lists them
COMMANDS = ["game", "claim", "position", "arbitrate", "audit", "serve"]


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every sub-command.

    >>> build_parser().parse_args(["game", "x.pgn"]).command
    'game'
    """
    parser = argparse.ArgumentParser(
        prog="remis",
        description="End chess games the way a FIDE arbiter would: every ruling with its article.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        import_module(f"remis.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 input errors, 2 usage).

    >>> main(["position", "--json", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"])  # doctest: +ELLIPSIS
    {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "end": {..."termination": "stalemate"...}
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``remis game x.pgn | head``): not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit flush
        finally:
            return 0  # noqa: B012
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
