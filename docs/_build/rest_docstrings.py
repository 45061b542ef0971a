"""A griffe extension: remis's docstrings are written as python-chess writes
its own (reStructuredText roles, ``double backquotes``, bare doctest blocks);
mkdocstrings renders Markdown, where ``>>>`` would become a nested quote.
This turns each docstring into the Markdown that says the same."""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

# :func:`remis.replay`, :class:`~remis.Ruling` -> `remis.replay`, `Ruling`
_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    if "`~" in match.group(0):
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def to_markdown(text: str) -> str:
    """The docstring ``text`` in Markdown: doctest blocks fenced as ``pycon``,
    a paragraph ending in ``::`` followed by its indented block fenced as
    ``text``, roles and double backquotes as code spans.

    >>> print(to_markdown("See :func:`~remis.replay` and ``x``.\\n\\n>>> 1 + 1\\n2"))
    See `replay` and `x`.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    """
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = len(line) - len(stripped)
            out.append(" " * indent + "```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(" " * indent + "```")
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            # reST: "text::" introduces the indented literal block after it
            out.append(_inline(line[:-1]))
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            cut = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            out += ["", "```text", *(b[cut:] if b.strip() else "" for b in block), "```", ""]
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def _inline(line: str) -> str:
    return _LITERAL.sub(r"`\1`", _ROLE.sub(_role, line))


class RestDocstrings(Extension):
    """Rewrites every loaded object's docstring with :func:`to_markdown`."""

    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
