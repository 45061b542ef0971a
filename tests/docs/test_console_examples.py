"""The console examples of the README and the documentation show what the
commands print today.

Every ```` ```console ```` block is run, command by command, with ``bash``
in a scratch folder that sees the project's ``examples/`` and ``tests/``
(so that the files the commands write land there), with this environment's
``remis`` first on the PATH.  Under each command, its output (standard output
and standard error, as a terminal shows them) must match the lines shown,
where ``...`` or ``…`` stands for any text (as in doctest's ELLIPSIS) and
any run of white space for any other (the pages wrap long lines).  A command
shown without output must succeed.  ``curl`` commands are left to
tests/docs/test_http_examples.py.

A block that cannot run here (a server that runs until stopped, ``make``, a
cluster, files that are only named) says so, and why, on the line above it
(a blank line may stand between)::

    <!-- console: not run: remis serve runs until it is stopped -->

The benchmarks page is left out: its commands are the benchmarks, which
``make bench`` runs and writes the page from."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docs import pages
from tests.docs.pages import ROOT

SKIPPED_PAGES = {"docs/benchmarks.md", "docs/changelog.md"}
PAGES = [p for p in pages.PAGES if p.relative_to(ROOT).as_posix() not in SKIPPED_PAGES]
#: ```console blocks, with the line above each (where a "not run" note stands)
_BLOCK = re.compile(r"(?:^([^\n]*)\n(?:[ \t]*\n)?)?^```console\n(.*?)^```", re.M | re.S)
_NOT_RUN = re.compile(r"<!-- console: not run: (.+\S) -->")
#: what a scratch folder sees of the project
LINKED = ("examples", "tests")


@dataclass
class Command:
    where: str
    command: str
    #: the output shown under it; None when the page shows none
    expected: str | None


@dataclass
class Block:
    where: str
    commands: list[Command]
    #: why the block is not run; None when it is
    not_run: str | None


def blocks(page: Path, text: str | None = None) -> list[Block]:
    """The console blocks of ``page`` (or of ``text`` as if it were the page)."""
    text = page.read_text(encoding="utf-8") if text is None else text
    rel = page.relative_to(ROOT).as_posix()
    found = []
    for match in _BLOCK.finditer(text):
        first = text.count("\n", 0, match.start(2)) + 1
        note = _NOT_RUN.search(match.group(1) or "")
        commands = [Command(f"{rel}:{first + line}", command, shown or None)
                    for command, shown, line in pages.commands(match.group(2))]
        found.append(Block(f"{rel}:{first}", commands, note.group(1) if note else None))
    return found


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` filled in.

    >>> matches("a ... c", "a b c")
    True
    >>> matches("game over:\\n  white ...", "game over: white can mate")
    True
    >>> matches("a ... c", "a b d")
    False
    """
    parts = re.split(r"\.\.\.|…", expected)
    pattern = ".*?".join(r"\s+".join(re.escape(w) for w in part.split())
                         for part in parts)
    return re.fullmatch(r"\s*" + pattern + r"\s*", actual, re.S) is not None


def _runnable() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.not_run is None
            and any(not c.command.startswith("curl ") for c in b.commands)]


def _environment() -> dict[str, str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.mark.parametrize("block", _runnable(), ids=[b.where for b in _runnable()])
def test_the_block_prints_what_the_page_shows(block: Block, tmp_path: Path) -> None:
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    for c in block.commands:
        if c.command.startswith("curl "):
            continue
        done = subprocess.run(["bash", "-c", c.command], cwd=tmp_path, env=_environment(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=300, check=False)
        if c.expected is None:
            assert done.returncode == 0, f"{c.where}: {c.command}\n{done.stdout}"
        else:
            assert matches(c.expected, done.stdout), f"{c.where}: {c.command}\n{done.stdout}"


def test_every_block_runs_or_says_why_not() -> None:
    """A block with no command, or none but curl's, is checked elsewhere or is
    not an example; every other either runs above or carries its reason."""
    for page in PAGES:
        for b in blocks(page):
            assert b.commands, f"{b.where}: a console block without a '$ ' command"
            if b.not_run is not None:
                assert len(b.not_run) > 10, f"{b.where}: say why the block is not run"


def test_the_examples_are_found() -> None:
    """The README's and the guide's examples at the least (a test that finds
    none would pass for nothing), the piped ones among them."""
    runnable = _runnable()
    where = [b.where for b in runnable]
    assert sum(w.startswith("README.md") for w in where) >= 5
    assert sum(w.startswith("docs/guide/") for w in where) >= 10
    commands = [c.command for b in runnable for c in b.commands]
    assert any("| remis arbitrate -" in c for c in commands)
    assert any("| remis position -" in c for c in commands)
    assert any(c.startswith("remis audit ") for c in commands)


def test_a_stale_example_fails(tmp_path: Path) -> None:
    page = ("```console\n$ remis position '8/8/8/4k3/8/8/8/K2n4 w - - 0 1'\n"
            "8/8/8/4k3/8/8/8/K2n4 w - - 0 1\n  no automatic end\n```\n")
    [block] = blocks(ROOT / "README.md", page)
    with pytest.raises(AssertionError, match="game over"):
        test_the_block_prints_what_the_page_shows(block, tmp_path)


def test_a_block_may_say_why_it_is_not_run() -> None:
    page = ("<!-- console: not run: remis serve runs until it is stopped -->\n"
            "```console\n$ remis serve\n```\n")
    [block] = blocks(ROOT / "README.md", page)
    assert block.not_run == "remis serve runs until it is stopped"
