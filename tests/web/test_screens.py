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
from test_play import add_time, call_arbiter, declare, open_details

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
    links = new_game(white, tc="40/1.5, 10", mode="rapid", quickplay=True,
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
    arbiter.wait_for_selector("#decision:not([hidden])")
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


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_second_round_screens(pages: Any, viewport: str) -> None:
    """A multi-period control over the board, the first-move rule, a premove and
    a typed move, the arbiter online with a player's request and its tools, a
    declared result with Rematch, the helpmate line stepper and a PGN's game
    picker."""
    page = pages(viewport=viewport)
    page.fill("#tc", "40/90, 30+30")
    page.wait_for_selector("#mode option[value=standard]", state="attached")
    page.select_option("#mode", "standard")
    page.fill("#name-white", "Anna")
    page.fill("#name-black", "Piotr")
    page.click("#tc-periods-box summary")
    save(page, "13-new-game-multi-period", viewport)
    links = new_game(page, tc="5+3", mode="online", side="arbiter", names=("Anna", "Piotr"))
    white = pages(links["white"], viewport)
    black = pages(links["black"], viewport)
    white.fill("#move-input", "e4")
    white.press("#move-input", "Enter")
    for pg in (white, black, page):
        pg.wait_for_selector("body[data-ply='1']")
    black.wait_for_selector("[data-testid=first-move]:has-text('must make a first move')")
    save(black, "14-first-move-rule", viewport)
    click_square(white, "g1")
    click_square(white, "f3")  # a premove, on Black's turn
    white.wait_for_selector("#board square.current-premove")
    white.fill("#move-input", "Bc4")
    save(white, "15-premove-and-typed-move", viewport)
    black.fill("#move-input", "e5")
    black.press("#move-input", "Enter")
    for pg in (white, black, page):
        pg.wait_for_selector("body[data-ply='3']")
    call_arbiter(black, "time", "my connection dropped")
    page.wait_for_selector("#request-uphold")
    open_details(page, "add-time")
    save(page, "16-arbiter-online", viewport)
    page.click("#request-uphold")
    add_time(page, "black", 60)
    page.wait_for_function("document.querySelectorAll('#log li').length === 3")
    declare(page, "1-0", "fair_play", "engine use, confirmed by the fair-play panel")
    black.wait_for_selector("#rematch")
    black.select_option("#lang", "cs")
    black.wait_for_selector("body[data-lang='cs']")
    save(black, "17-declared-with-rematch-cs", viewport)
    analyse(page, "8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - -")
    page.wait_for_selector("p[data-side=black] + [data-testid=stepper]", timeout=30000)
    stepper = page.locator("p[data-side=black] + [data-testid=stepper]")
    for _ in range(5):
        stepper.locator("[data-step=next]").click()
    page.wait_for_timeout(400)  # the board's pieces glide to the position
    save(page, "18-analysis-line-stepper", viewport)
    analyse(page, (ROOT / "examples" / "lichess-time-forfeits-and-repetition.pgn").read_text())
    page.wait_for_selector("#game-pick-box:not([hidden])", timeout=60000)
    page.select_option("#game-pick", "1")
    page.wait_for_timeout(400)
    save(page, "19-analysis-game-picker", viewport)
