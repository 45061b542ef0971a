"""Doctest fixtures for the examples in ``src/remis`` (not part of the package).

The docstring examples make their files with ``tempfile.mkdtemp()`` so that a reader can
paste them as they are; under pytest that folder is made inside the test's own
``tmp_path`` (pytest keeps the last three runs and removes older ones), so a test run
leaves nothing behind in the system's temporary folder.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _examples_write_under_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point ``tempfile`` at ``tmp_path`` for each doctest."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
