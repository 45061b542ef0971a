"""Every text the catalogues translate, keyed by a stable id: the ruling
templates of :mod:`remis.messages`, the arbiter's own templates (when the
arbiter package provides them), the web page's words, the English words
that rulings put into their parameters (the engine's reasons among them), the
piece letters of material and the words for each way a game ends.

The id is the gettext context (``msgctxt``) and the English text is the
``msgid``, so a catalogue entry goes stale as soon as its English changes.
"""

from __future__ import annotations

import importlib
from string import Formatter

from remis.i18n.ui import NOTATION, PARAMS, TERMINATION_WORDS, UI
from remis.messages import MESSAGES

#: Modules that may hold more ruling templates in a ``MESSAGES`` dict.
EXTRA_TEMPLATE_MODULES = ("remis.arbiter.messages", "remis.variants.messages",
                          "remis.arbiter.timecontrol")


def ruling_templates() -> dict[str, str]:
    """Message id -> English template of every ruling the project can make.

    >>> ruling_templates()["stalemate"].startswith("{player} has no legal move")
    True
    """
    out = dict(MESSAGES)
    for name in EXTRA_TEMPLATE_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        out.update(getattr(module, "MESSAGES", {}))
    return out


def source_texts() -> dict[str, str]:
    """Id -> English text of every entry of the catalogues.

    >>> texts = source_texts()
    >>> texts["ui.resign"], texts["param.white"]
    ('Resign', 'White')
    """
    return {**ruling_templates(), **UI, **PARAMS, **NOTATION, **TERMINATION_WORDS}


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a template.

    >>> sorted(placeholders("{player} may write {move} and claim ({article})."))
    ['article', 'move', 'player']
    """
    return {name for _, name, _, _ in Formatter().parse(text) if name}
