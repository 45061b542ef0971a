"""The per-move loops of the server page (docs/api/server.md) run and print
what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api" / "server.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def shown(block: str) -> list[str]:
    """What the block's comments say each print prints: the comment at the end
    of the print's line, or the comment line after it."""
    lines = block.splitlines()
    out = []
    for n, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        found = re.search(r"\)\s+# (.*)$", line)
        comment = found.group(1) if found else ""
        if not comment and n + 1 < len(lines) and lines[n + 1].startswith("# "):
            comment = lines[n + 1][2:]
        out.append(comment.strip())
    return out


def test_the_page_has_its_loops() -> None:
    assert len(BLOCKS) == 2 and all(shown(b) for b in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS)
def test_a_loop_prints_what_the_page_says(block: str) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(PAGE), "exec"), {})
    assert printed.getvalue().splitlines() == shown(block)
