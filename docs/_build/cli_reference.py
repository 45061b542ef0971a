"""The command line's usage lines and option tables, written from its argparse
parsers at build time: a new option, a changed default or help text appears on
the user guide's pages as ``remis COMMAND --help`` shows it."""

from __future__ import annotations

import argparse
import re
from typing import Any


def parser(command: str) -> argparse.ArgumentParser:
    """The parser of ``remis COMMAND``.

    >>> parser("game").prog
    'remis game'
    """
    from remis.cli import build_parser

    top = build_parser(command)
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser | None = action.choices.get(command)
            if found is not None:
                return found
    raise KeyError(f"remis has no command {command!r}")


def usage(command: str) -> str:
    """``remis COMMAND``'s usage, as ``--help`` prints it (less ``-h``), in a
    text block.

    >>> print(usage("arbitrate"))
    ```text
    remis arbitrate FILE
    ```
    """
    text = parser(command).format_usage().rstrip()
    # argparse indents the lines after the first under "usage: "
    text = re.sub(r"\n {7}", "\n", text.removeprefix("usage: "))
    text = re.sub(r"\[-h\] ?", "", text)
    return f"```text\n{text}\n```"


def _default(action: argparse.Action) -> list[str]:
    """The default worth a word, as it may be written (``2.0``, ``2``; ``2000000``,
    ``2,000,000``): none for None, a flag's False or a hidden one."""
    value: Any = action.default
    if value is None or value is False or value == argparse.SUPPRESS or action.nargs == 0:
        return []
    if isinstance(value, int | float):
        return [f"{value:g}", f"{value:,}", str(value)]
    return [str(value)]


def _name(action: argparse.Action) -> str:
    """How the option is written: ``--jobs N, -j N``, ``--laws current|as-played``."""
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    if action.metavar is not None:
        arg = str(action.metavar)
    elif action.choices is not None:
        arg = "|".join(str(c) for c in action.choices)
    else:
        arg = action.dest.upper()
    return ", ".join(f"{o} {arg}" for o in action.option_strings)


def _help(action: argparse.Action, prog: str) -> str:
    text = (action.help or "") % {"default": action.default, "prog": prog}
    written = _default(action)
    if written and "default" not in text and not any(w in text for w in written):
        text += f" (default: {written[0]})"
    return text.replace("|", "\\|")


def options(command: str) -> str:
    """``remis COMMAND``'s arguments and options as a Markdown table, with
    each one's help text and default as ``--help`` has them.

    >>> print(options("arbitrate"))
    | argument or option | meaning |
    |---|---|
    | `FILE` | JSON file {"config": {...}, "events": [...]}, or - for stdin |
    """
    p = parser(command)
    rows = ["| argument or option | meaning |", "|---|---|"]
    for action in p._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        rows.append(f"| `{_name(action)}` | {_help(action, p.prog)} |")
    return "\n".join(rows)
