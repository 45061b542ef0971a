"""Shared fixtures: where the test data lives.

Small fixtures are in ``tests/data``.  The big real collections are in
``../shared/data`` beside the project, or in the folder ``$REMIS_SHARED_DATA``
names (docs/development.md, "The real game collections", says what it holds and
where each file comes from); tests that need them use the ``shared_data``
fixture and are skipped, with the reason shown, when the folder is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = ROOT / "tests" / "data"
SHARED_DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def test_data() -> Path:
    """The folder of small fixtures committed with the tests."""
    return TEST_DATA


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` (or $REMIS_SHARED_DATA); skips the test when absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the real game collections are not at {SHARED_DATA}: set "
                    "REMIS_SHARED_DATA to the folder that holds lichess/, masters/, "
                    "edge-cases/ and unwinnability/ (docs/development.md, 'The real game "
                    "collections', says where each file comes from)")
    return SHARED_DATA
