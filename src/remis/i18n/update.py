"""Keep the catalogues in step with the English sources:
``python -m remis.i18n.update`` writes ``locale/remis.pot`` from
:func:`remis.i18n.sources.source_texts` and merges it into every ``.po``
(new entries, and entries whose English changed, come in untranslated), so
a translator only edits the ``.po`` files.  ``make`` compiles them to ``.mo``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from remis.i18n.catalog import DOMAIN, LANGUAGES, LOCALE_DIR, po_path
from remis.i18n.sources import placeholders, source_texts


def template() -> Catalog:
    """The ``.pot`` template: one entry per source text, ``msgctxt`` = its id.

    >>> t = template()
    >>> t.get("Resign", context="ui.resign").context
    'ui.resign'
    """
    catalog = Catalog(domain=DOMAIN, project="remis", charset="utf-8")
    for key, english in source_texts().items():
        flags = ["python-brace-format"] if placeholders(english) else []
        catalog.add(english, context=key, flags=flags)
    return catalog


def update(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write the template and merge it into each language's ``.po``; return
    the files written.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     [p.name for p in update(Path(d))]
    ['remis.pot', 'remis.po', 'remis.po']
    """
    pot = template()
    written = [locale_dir / f"{DOMAIN}.pot"]
    locale_dir.mkdir(parents=True, exist_ok=True)
    with written[0].open("wb") as f:
        write_po(f, pot, omit_header=False, sort_output=False)
    for lang in LANGUAGES[1:]:
        path = locale_dir / po_path(lang).relative_to(LOCALE_DIR)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="remis", charset="utf-8",
                              fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, catalog, ignore_obsolete=True, sort_output=False, width=100)
        written.append(path)
    return written


def main() -> int:
    """Entry point of ``python -m remis.i18n.update``: update the catalogues
    and print the files written.  Shown here writing to a temporary folder
    instead of the package's ``locale``:

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> real_update = main.__globals__["update"]
    >>> main.__globals__["update"] = lambda: real_update(Path(d))
    >>> try:
    ...     status = main()
    ... finally:
    ...     main.__globals__["update"] = real_update
    ... # doctest: +ELLIPSIS
    /.../remis.pot
    /.../remis.po
    /.../remis.po
    >>> status, sorted(str(p.relative_to(d)) for p in Path(d).rglob("remis.po*"))
    (0, ['cs/LC_MESSAGES/remis.po', 'pl/LC_MESSAGES/remis.po', 'remis.pot'])

    """

    for path in update():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
