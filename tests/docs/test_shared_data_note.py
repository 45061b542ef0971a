"""Without the real game collections, the tests that need them say how to
get them: the variable to set and the page that lists the files."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.docs.pages import ROOT


def test_a_skipped_test_says_how_to_get_the_collections() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "tests/core/test_laws.py::test_masters_games_in_an_exception"],
        cwd=ROOT, env=dict(os.environ, REMIS_SHARED_DATA=str(ROOT / "no-such-folder")),
        capture_output=True, text=True, timeout=300, check=False)
    assert "1 skipped" in done.stdout, done.stdout
    assert "set REMIS_SHARED_DATA to the folder that holds lichess/, masters/" in done.stdout
    assert "docs/development.md" in done.stdout
    assert "The real game collections" in (ROOT / "docs" / "development.md").read_text()
