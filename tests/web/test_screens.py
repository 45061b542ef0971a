"""The main screens as PNGs at 1280x900 and 390x844, for people to look at
(``make screenshots`` writes them to ``screenshots/``; a plain test run to
``test-artifacts/screens/``).  Each screen is also checked to fit its width:
no sideways scrolling, the whole board on screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_page import KNIGHT_DANCE, analyse, click_square, fits, move, new_game

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


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_more_screens(pages: Any, viewport: str) -> None:
    """The promotion picker, the arbiter deciding a claim (the clocks stopped), the
    analysis of a position where only one side can still mate, and of a PGN."""
    white = pages(viewport=viewport)
    links = new_game(white, tc="1.5", mode="rapid", quickplay=True,
                     fen="4k3/1P6/8/8/8/8/8/4K2R w K - 0 1")
    black = pages(links["black"], viewport)
    arbiter = pages(links["arbiter"], viewport)
    click_square(white, "b7")
    click_square(white, "b8")
    white.wait_for_selector("[data-testid=promotion]:not([hidden])")
    save(white, "09-promotion", viewport)
    white.click("[data-testid=promotion] button[data-piece=q]")
    for pg in (white, black, arbiter):
        pg.wait_for_selector("body[data-ply='1']")
    black.click("details#claim-more summary")
    black.select_option("#claim-kind", "quickplay")
    black.click("#claim-now")
    arbiter.wait_for_selector("#arbiter-panel:not([hidden])")
    save(arbiter, "10-arbiter-decides", viewport)
    analyse(white, "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1")
    white.wait_for_selector("[data-testid=can-checkmate]")
    white.wait_for_timeout(400)  # the board's pieces glide to the position
    save(white, "11-analysis-can-checkmate", viewport)
    analyse(white, '[Event "Knights"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
                   "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n")
    white.wait_for_selector("#analysis [data-testid=claims]")
    white.wait_for_timeout(400)
    save(white, "12-analysis-pgn", viewport)
