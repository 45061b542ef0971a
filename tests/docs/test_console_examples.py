"""The console examples of the README and the user guide show what the
commands print today.

Every ```` ```console ```` block's ``$ remis game|claim|position ...`` command
is run from the project root, and its output must match the lines shown
under it, where ``...`` stands for any text (as in doctest's ELLIPSIS).  The
other commands (``serve``, pipes, ``audit`` writing files) are left to the
tests of each command."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN = ("game", "claim", "position")


def examples() -> list[tuple[str, str, str]]:
    """(where, command, expected output) of each runnable example."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.finditer(r"```console\n(.*?)```", text, re.S):
            start = text.count("\n", 0, block.start()) + 2
            lines = block.group(1).splitlines()
            for i, line in enumerate(lines):
                words = line[2:].split() if line.startswith("$ ") else []
                if len(words) < 2 or words[0] != "remis" or words[1] not in RUN \
                        or "#" in line or "|" in line:
                    continue
                out = []
                for following in lines[i + 1:]:
                    if following.startswith("$ "):
                        break
                    out.append(following)
                if not "".join(out).strip():
                    continue  # a command shown without its output
                where = f"{page.relative_to(ROOT)}:{start + i}"
                found.append((where, line[2:], "\n".join(out).strip("\n")))
    return found


def matches(expected: str, actual: str) -> bool:
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.S) is not None


@pytest.mark.parametrize(("where", "command", "expected"), examples(),
                         ids=[w for w, _, _ in examples()])
def test_the_example_prints_what_the_page_shows(where: str, command: str,
                                                expected: str) -> None:
    args = shlex.split(command)[1:]
    done = subprocess.run([sys.executable, "-m", "remis", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    actual = done.stdout.strip("\n")
    assert matches(expected, actual), f"{where}: {command}\n{actual}"


def test_the_examples_are_found() -> None:
    """The README's three examples at the least (a test that finds none
    would pass for nothing)."""
    assert sum(w.startswith("README.md") for w, _, _ in examples()) >= 3
