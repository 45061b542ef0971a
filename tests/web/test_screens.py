"""The main screens as PNGs at 1280x900 and 390x844, for people to look at
(``make screenshots`` writes them to ``screenshots/``; a plain test run to
``test-artifacts/screens/``).  Each screen is also checked to fit its width:
no sideways scrolling, the whole board on screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_page import KNIGHT_DANCE, analyse, fits, move, new_game

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("REMIS_SCREENSHOTS") or ROOT / "test-artifacts" / "screens")


def save(page: Any, name: str, viewport: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    page.screenshot(path=str(OUT / f"{name}-{viewport}.png"), full_page=True)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_main_screens(pages: Any, viewport: str) -> None:
    white = pages(viewport=viewport)
    save(white, "01-new-game", viewport)
    links = new_game(white, tc="3+2")
    black = pages(links["black"], viewport)
    arbiter = pages(links["arbiter"], viewport)
    for ply, uci in enumerate(KNIGHT_DANCE[:4], start=1):
        move(white if ply % 2 else black, uci, ply, black if ply % 2 else white, arbiter)
    move(white, "e2e4", 5, black, arbiter)
    fits(black)
    save(white, "02-game-white", viewport)
    save(black, "03-game-black", viewport)
    save(arbiter, "04-game-arbiter", viewport)
    black.click("#offer-draw")
    white.wait_for_selector("#accept-draw")
    save(white, "05-draw-offered", viewport)
    white.click("#accept-draw")
    white.wait_for_selector("[data-testid=banner]:not([hidden])")
    save(white, "06-game-over", viewport)
    white.select_option("#lang", "cs")
    white.wait_for_selector("body[data-lang='cs']")
    save(white, "07-game-over-cs", viewport)
    white.select_option("#lang", "en")
    white.wait_for_selector("body[data-lang='en']")
    analyse(white, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1")
    white.wait_for_selector("#analysis [data-testid=ruling]")
    white.wait_for_timeout(400)  # the board's pieces glide to the position
    save(white, "08-analysis-dead-position", viewport)
