"""The ``remis`` command line: argument parsing and printing only.

Each sub-command lives in its own module with a ``register(subparsers)``
function; the rules are never decided here.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

#: sub-command modules, in the order ``remis --help`` lists them
COMMANDS = ["game", "claim", "position", "arbitrate", "audit", "serve"]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Build the argument parser with every sub-command, or with the one
    named ``only`` (a command runs without loading the others' modules).

    >>> build_parser().parse_args(["game", "x.pgn"]).command
    'game'
    >>> build_parser("game").parse_args(["game", "x.pgn"]).files
    ['x.pgn']
    """
    import argparse
    from importlib import import_module

    from remis import __version__

    parser = argparse.ArgumentParser(
        prog="remis",
        description="End chess games the way a FIDE arbiter would: every ruling with its article.",
    )
    parser.add_argument("--version", action="version", version=f"remis {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in [only] if only in COMMANDS else COMMANDS:
        import_module(f"remis.cli.{name}").register(sub)
    for command in sub.choices.values():
        command.set_defaults(usage=command)  # whose usage an error shows
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 input errors, 2 usage).

    >>> main(["position", "--json", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"])  # doctest: +ELLIPSIS
    {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "end": {..."termination": "stalemate"...}
    0
    """
    args_list = sys.argv[1:] if argv is None else list(argv)
    if args_list in (["--version"], ["-V"]):
        # answered before the sub-commands (and what they import) are loaded
        from remis import __version__

        print(f"remis {__version__}")
        return 0
    # the command is the first word that is not an option (remis has no option
    # that takes a value before it); anything else gets every sub-command
    command = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(command)
    args, unknown = parser.parse_known_args(args_list)
    if unknown:  # the sub-command's usage, not the top level's
        args.usage.error(f"unrecognized arguments: {' '.join(unknown)}")
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
