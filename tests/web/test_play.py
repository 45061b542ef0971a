"""The page as a new user meets it, in a real Chromium against a real
service, at desktop and phone widths and in three languages: the new-game
form (time controls as players write them, the mode by the FIDE class,
only the options that apply, names), the first moves (no draw offer before
both have moved, the first-move rule), premoves and keyboard input, what a
screen reader is told, refusals in plain words, the end (rematch, new game,
the PGN), the touched piece, the arbiter's acts online, and the analysis
panel's line stepper and game picker; axe-core finds no critical or
serious violation on any of these screens."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from playwright.sync_api import expect
from test_page import (
    actions,
    analyse,
    click_square,
    english_left,
    new_game,
    service_state,
    shot,
)

from conftest import serious_violations

LOCALES = {"en": "en-GB", "cs": "cs-CZ", "pl": "pl-PL"}


def typed(page: Any, text: str, ply: int, *others: Any) -> None:
    """Type a move and Enter; wait until the arbiter has it."""
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    for pg in (page, *others):
        pg.wait_for_selector(f"body[data-ply='{ply}']")


def accessible(page: Any) -> None:
    assert serious_violations(page) == []


def preview(page: Any, text: str) -> str:
    """Type a time control; the server's words for it, once they are shown."""
    before = page.inner_text("#tc-preview")
    page.fill("#tc", text)
    page.wait_for_function("old => document.querySelector('#tc-preview').innerText !== old",
                           arg=before)
    return str(page.inner_text("#tc-preview"))


def modes(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#mode option", "os => os.map(o => o.value)"))


def open_details(page: Any, box: str) -> None:
    """Open the folded part ``#box`` (it stays open if it was)."""
    page.evaluate("id => { document.getElementById(id).open = true; }", box)


def call_arbiter(page: Any, kind: str, comment: str) -> None:
    """A player calls the arbiter; the page then says the request is open."""
    open_details(page, "call-arbiter")
    page.select_option("#request-kind", kind)
    page.fill("#request-comment", comment)
    page.click("#request-send")
    page.wait_for_selector("[data-testid=request-open]:not([hidden])")


def add_time(page: Any, player: str, seconds: int) -> None:
    """The arbiter gives ``player`` more time (for a disturbance, 12.5)."""
    open_details(page, "add-time")
    page.select_option("#add-time-player", player)
    page.fill("#add-time-seconds", str(seconds))
    page.click("#add-time-go")


def declare(page: Any, result: str, kind: str, comment: str = "") -> None:
    """The arbiter declares a result with its reason (two clicks: the second confirms)."""
    open_details(page, "declare")
    page.select_option("#declare-result", result)
    page.select_option("#declare-kind", kind)
    if comment:
        page.fill("#declare-comment", comment)
    page.click("#declare-go")
    page.click("#declare-go")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_time_controls_as_players_write_them(pages: Any, viewport: str) -> None:
    """40/90+30 is 40 moves in 90 minutes (not 90 seconds), 1/2+0 and ½+0 half a
    minute, 1:30+30 an hour and a half; 90/40+30 could be read two ways and is
    refused in words; each is said back under the field."""
    page = pages(viewport=viewport)
    assert page.inner_text("#tc-preview") == "5 min for the game; 3 s added a move from move 1."
    assert preview(page, "40/90+30") == (
        "90 min for moves 1–40, then 90 min again for moves 41–80, and so on; 30 s added a "
        "move from move 1.")
    assert preview(page, "1/2+0") == "30 s for the game."
    assert preview(page, "90+30") == "90 min for the game; 30 s added a move from move 1."
    assert preview(page, "½+0") == "30 s for the game."
    assert preview(page, "1:30+30") == "90 min for the game; 30 s added a move from move 1."
    refused = preview(page, "90/40+30")
    assert refused.startswith("“90/40+30” can be read two ways: 90 moves in 40 minutes, or 90 "
                              "minutes for 40 moves."), refused
    assert page.get_attribute("#tc", "aria-invalid") == "true"
    page.click("#new-game")
    assert page.inner_text("[data-testid=newgame-error]") == refused
    assert preview(page, "5400+30").endswith("write 90+30.")  # PGN's seconds, said in minutes
    accessible(page)
    shot(page, f"time-control-refused-{viewport}")


def test_a_multi_period_control_from_the_table(page: Any) -> None:
    """The table of periods and the field say the same: a second period added
    in the table writes "40/90+30, 30+30" in the field, and the game is made
    with FIDE's standard control."""
    preview(page, "90+30")
    page.click("#tc-periods-box summary")
    page.click("#tc-add-period")
    page.wait_for_function("document.querySelector('#tc').value === '40/90+30, 30+30'")
    page.wait_for_function("document.querySelector('#tc-preview').innerText.startsWith("
                           "'90 min for moves 1–40, then 30 min')")
    minutes = page.locator("#tc-periods-body tr:nth-child(2) input.p-minutes")
    minutes.fill("15")
    page.wait_for_function("document.querySelector('#tc').value === '40/90+30, 15+30'")
    # the words come from the server a moment after the field changes
    expect(page.locator("#tc-preview")).to_have_text(
        "90 min for moves 1–40, then 15 min for the rest of the game; 30 s added a move from "
        "move 1.")
    links = new_game(page, tc="40/90, 30+30", mode="standard")
    assert page.inner_text("#game-info").startswith("40/90, 30+30")
    assert service_state(page, links)["clocks"] == {"white": 5400, "black": 5400}


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_the_mode_follows_the_fide_class_in_three_languages(pages: Any, lang: str) -> None:
    """Online by default; over the board only the mode A.1/B.1 give the control
    (90+30 is standard, not blitz), with what it means for an incorrect claim;
    supervision only in rapid and blitz, a quickplay finish only without
    increment outside blitz."""
    page = pages(locale=LOCALES[lang])
    preview(page, "90+30")
    assert page.input_value("#mode") == "online"
    assert modes(page) == ["online", "standard"]
    page.select_option("#mode", "standard")
    meaning = page.inner_text("#mode-meaning")
    assert {"en": "2 minutes", "cs": "2 minuty", "pl": "2 minuty"}[lang] in meaning, meaning
    assert "120" in page.inner_text("#tc-class")
    assert not page.is_visible("#supervision") and not page.is_visible("#quickplay")
    preview(page, "3+2")
    assert modes(page) == ["online", "blitz"]
    page.select_option("#mode", "blitz")
    assert {"en": "1 minute", "cs": "1 minutu", "pl": "1 minutę"}[lang] in page.inner_text(
        "#mode-meaning")
    assert page.is_visible("#supervision") and not page.is_visible("#quickplay")
    preview(page, "25")
    assert modes(page) == ["online", "rapid"]
    page.select_option("#mode", "rapid")
    assert page.is_visible("#supervision") and page.is_visible("#quickplay")
    page.select_option("#mode", "online")
    assert not page.is_visible("#supervision") and not page.is_visible("#quickplay")
    assert not page.is_visible("#draw-agreement")
    if lang != "en":
        assert not english_left("Over the board, standard play: an illegal move or an incorrect "
                                "claim gives the opponent minutes; the clock rules and a flag "
                                "falls by itself", meaning + page.inner_text("#mode-meaning"))
    accessible(page)
    shot(page, f"mode-{lang}")


def test_names_go_into_the_game_the_page_and_the_pgn(pages: Any) -> None:
    white = pages()
    links = new_game(white, tc="3+2", mode="online", names=("Anna Nováková", "Piotr"))
    black = pages(links["black"])
    assert black.inner_text("#player-bottom .name") == "Piotr"
    assert black.inner_text("#player-top .name") == "Anna Nováková"
    typed(white, "e4", 1, black)
    typed(black, "e5", 2, white)
    black.click("#resign")
    black.click("#resign")
    white.wait_for_selector("body[data-over='true']")
    with white.expect_download() as info:
        white.click("#pgn")
    text = Path(info.value.path()).read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert (game.headers["White"], game.headers["Black"]) == ("Anna Nováková", "Piotr")
    assert game.headers["TimeControl"] == "180+2" and game.headers["Result"] == "1-0"
    assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", game.headers["Date"])
    assert [m.clock() is not None for m in game.mainline()] == [True, True]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_premoves_and_keyboard_input(pages: Any, viewport: str) -> None:
    """A move typed and Enter plays it; a move made on the opponent's turn is
    played at once after the opponent's move; a click elsewhere cancels one.
    A screen reader hears the opponent's move and "your move"."""
    white = pages(viewport=viewport)
    links = new_game(white, mode="online")
    black = pages(links["black"], viewport)
    typed(white, "e4", 1, black)
    black.wait_for_function("document.querySelector('#announcer').innerText.trim() !== ''")
    assert black.inner_text("#announcer").strip() == "White played e4. Your move."
    click_square(white, "g1")
    click_square(white, "f3")  # Black to move: a premove
    white.wait_for_selector("#board square.current-premove")
    typed(black, "e5", 3, white)  # White's premove follows at once
    assert service_state(white, links)["fen"].startswith(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b")
    # a premove, then a click elsewhere: cancelled
    click_square(white, "f1")
    click_square(white, "c4")
    white.wait_for_selector("#board square.current-premove")
    click_square(white, "h6")
    white.wait_for_function("!document.querySelector('#board square.current-premove')")
    typed(black, "Nc6", 4, white)
    white.wait_for_timeout(300)
    assert service_state(white, links)["ply"] == 4  # nothing was played for White
    # a typed move in another spelling, and one that is not legal
    white.fill("#move-input", "Ke3")
    white.press("#move-input", "Enter")
    assert "is not a legal move here" in white.inner_text("[data-testid=error]")
    typed(white, "nxe5", 5, black)
    assert black.inner_text("#moves .move[data-ply='5']") == "Nxe5"
    accessible(white)
    accessible(black)


def test_no_draw_offer_before_both_have_moved_and_the_first_move_rule(pages: Any) -> None:
    """5.2.3: neither player is offered a draw control before both have moved.
    The page states the first-move rule; a player who never moves cancels the
    game, without a result."""
    white = pages()
    links = new_game(white, tc="0.05", mode="online")  # 3 s: the time runs out first
    black = pages(links["black"])
    assert "offer-draw" not in actions(white) and "offer-draw" not in actions(black)
    assert "cancels it: no result" in white.inner_text("[data-testid=first-move]")
    assert "loses on time (Article 6.9)" in white.inner_text("[data-testid=first-move]")
    typed(white, "d4", 1, black)
    assert "offer-draw" not in actions(white) and "offer-draw" not in actions(black)
    white.wait_for_selector("[data-testid=first-move]:has-text('Black must make a first move')")
    for pg in (white, black):
        pg.wait_for_selector("body[data-over='true']", timeout=10000)
    banner = white.inner_text("#banner")
    assert banner.startswith("– Game cancelled"), banner
    assert "Black made no first move in 3 s: the game is cancelled, without a result." in banner
    assert service_state(white, links)["result"] == "*"
    # either player may cancel before both have moved
    white.click("#home")
    new_game(white, mode="online")
    white.click("#abort")
    white.wait_for_selector("body[data-over='true']")
    assert "White cancelled the game" in white.inner_text("#banner")


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_refusals_say_what_happened_in_plain_words(pages: Any, lang: str) -> None:
    """A page that missed a move (its stream cut) is refused in the reader's
    language, saying what happened; no internal id ("event 2", "ply") shows."""
    white = pages(locale=LOCALES[lang])
    links = new_game(white, mode="online")
    stale = pages(links["white"], locale=LOCALES[lang], cut="**/stream")
    black = pages(links["black"])
    typed(white, "e4", 1, black)
    typed(black, "e5", 2, white)
    click_square(stale, "e2")
    click_square(stale, "e3")
    stale.wait_for_selector("[data-testid=error]:not(:empty)")
    text = stale.inner_text("[data-testid=error]")
    assert text == {"en": "Not played: the game had moved on since this page last looked. The "
                          "board now shows the current position.",
                    "cs": "Netaženo: partie mezitím pokročila. Šachovnice teď ukazuje aktuální "
                          "pozici.",
                    "pl": "Nie wykonano: partia w międzyczasie poszła dalej. Szachownica "
                          "pokazuje teraz aktualną pozycję."}[lang], text
    assert not re.search(r"event \d|ply|stale|\d+\.\d{3} s", text)
    stale.wait_for_function("document.body.dataset.ply === '2'")  # it caught up


def test_a_recorded_touched_piece_binds_its_player(pages: Any) -> None:
    """Over the board, "Touched a piece" and a click on the knight record it
    (4.3): the board then moves only that knight, and another move typed is
    refused with the article."""
    white = pages()
    links = new_game(white, tc="15+10", mode="rapid")
    black = pages(links["black"])
    white.click("#touch")
    assert white.is_visible("[data-testid=touch-banner]")
    click_square(white, "g1")
    white.wait_for_function("document.querySelector('#log').innerText.includes('touched')")
    assert service_state(white, links)["touched"] == {"player": "white", "square": "g1"}
    white.fill("#move-input", "e4")
    white.press("#move-input", "Enter")
    assert "touched on g1 must be moved" in white.inner_text("[data-testid=error]")
    click_square(white, "g1")
    white.wait_for_function("document.querySelectorAll('#board square.move-dest').length === 2")
    click_square(white, "e2")  # the pawn is not movable now: nothing is offered for it
    white.wait_for_timeout(300)  # (chessground redraws on the next frame)
    assert white.locator("#board square.move-dest").count() == 0
    click_square(white, "g1")
    white.wait_for_function("document.querySelectorAll('#board square.move-dest').length === 2")
    click_square(white, "f3")
    for pg in (white, black):
        pg.wait_for_selector("body[data-ply='1']")
    accessible(white)


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_the_arbiter_online(pages: Any, lang: str) -> None:
    """Online, the arbiter adds time, decides a player's request, writes a note
    and declares a result with its reason; every page shows it, in its
    language."""
    arbiter = pages(locale=LOCALES[lang])
    links = new_game(arbiter, tc="10+5", mode="online", side="arbiter")
    white, black = pages(links["white"]), pages(links["black"], locale=LOCALES[lang])
    typed(white, "e4", 1, black, arbiter)
    typed(black, "e5", 2, white, arbiter)
    call_arbiter(black, "time", "wifi")
    arbiter.wait_for_selector("#request-uphold")
    accessible(arbiter)
    shot(arbiter, f"arbiter-online-request-{lang}")
    arbiter.click("#request-uphold")
    arbiter.wait_for_selector("#requests-box", state="hidden")
    add_time(arbiter, "black", 60)
    arbiter.wait_for_function("document.querySelectorAll('#log li').length === 3")
    arbiter.click("#note summary")
    arbiter.fill("#note-text", "Black's connection dropped at move 2")
    arbiter.click("#note-go")
    arbiter.wait_for_function("document.querySelectorAll('#log li').length === 4")
    log = service_state(arbiter, links)["log"]
    assert [e["message"] for e in log] == ["request_time", "request_upheld", "time_added",
                                           "arbiter_note"]
    assert service_state(arbiter, links)["clocks"]["black"] > 600  # 10 min, +5, +60, less used
    declare(arbiter, "0-1", "conduct")
    for pg in (white, black, arbiter):
        pg.wait_for_selector("body[data-over='true']")
    state = service_state(arbiter, links)
    assert (state["result"], state["termination"], state["article"]) == ("0-1", "misconduct",
                                                                          "12.9.6")
    banner = black.inner_text("#banner")
    assert banner.count("12.9.6") == 1
    if lang != "en":
        english = white.inner_text("#banner")
        assert not english_left(english, banner), banner
    accessible(black)
    shot(black, f"arbiter-declared-{lang}")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_rematch_and_new_game_after_the_end(pages: Any, viewport: str) -> None:
    """After the end: Rematch (the same players, colours swapped, the same
    control) opens on both pages; New game fills the form as the last game."""
    white = pages(viewport=viewport)
    links = new_game(white, tc="3+2", mode="online", names=("Anna", "Piotr"))
    black = pages(links["black"], viewport)
    typed(white, "f3", 1, black)
    typed(black, "e5", 2, white)
    typed(white, "g4", 3, black)
    typed(black, "Qh4#", 4, white)
    black.wait_for_selector("#rematch")
    accessible(black)
    black.click("#rematch")
    black.wait_for_function("document.body.dataset.role === 'white' && "
                            "document.body.dataset.ply === '0'")
    white.wait_for_selector("#rematch-join")
    white.click("#rematch-join")
    white.wait_for_function("document.body.dataset.role === 'black'")
    assert white.get_attribute("body", "data-game") == black.get_attribute("body", "data-game")
    assert black.inner_text("#player-bottom .name") == "Piotr"  # Piotr now has White
    assert black.inner_text("#game-info").startswith("3+2")
    typed(black, "d4", 1, white)
    # a new game like the last one
    white.click("#home")
    white.goto(links["white"])
    white.wait_for_selector("body[data-over='true']")
    white.click("#new-game-again")
    white.wait_for_function("document.querySelector('#tc').value === '3+2'")
    assert white.input_value("#name-white") == "Anna" and white.input_value("#mode") == "online"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_helpmate_line_steps_and_a_pgns_games_are_picked(pages: Any, viewport: str) -> None:
    """An 80-ply helpmate line, numbered, stepped with the buttons and the arrow
    keys, the current move highlighted; a PGN of three games, picked in a
    list, the board following."""
    page = pages(viewport=viewport)
    analyse(page, "8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - -")
    page.wait_for_selector("[data-testid=can-checkmate] [data-testid=stepper]", timeout=30000)
    stepper = page.locator("p[data-side=black] + [data-testid=stepper]")
    moves = stepper.locator(".line-move")
    assert moves.count() == 80
    assert stepper.locator(".num").first.inner_text() == "1."
    stepper.locator("[data-step=next]").click()
    stepper.locator("[data-step=next]").click()
    assert stepper.get_attribute("data-at") == "2"
    assert stepper.locator(".line-move.current").inner_text() == moves.nth(1).inner_text()
    start = page.get_attribute("#analysis-board", "data-fen")
    stepper.focus()
    page.keyboard.press("End")
    assert stepper.get_attribute("data-at") == "80"
    assert moves.nth(79).inner_text().endswith("#")
    assert page.get_attribute("#analysis-board", "data-fen") != start
    page.keyboard.press("ArrowLeft")
    assert stepper.get_attribute("data-at") == "79"
    assert stepper.locator(".line-move.current").get_attribute("aria-current") == "step"
    accessible(page)
    shot(page, f"line-stepper-{viewport}")
    pgn = (Path(__file__).resolve().parents[2] / "examples" /
           "lichess-time-forfeits-and-repetition.pgn").read_text()
    analyse(page, pgn)
    page.wait_for_selector("#game-pick-box:not([hidden])", timeout=60000)
    options = page.eval_on_selector_all("#game-pick option", "os => os.map(o => o.textContent)")
    assert len(options) == 3 and options[1].startswith("Game 2 · Dondetepille – gusssfish")
    # game 1 lost on time with a 58-ply helpmate for the winner
    assert page.locator("#analysis [data-testid=helpmate] .line-move").count() == 58
    first = page.get_attribute("#analysis-board", "data-fen")
    page.select_option("#game-pick", "1")
    page.wait_for_function("f => document.querySelector('#analysis-board').dataset.fen !== f",
                           arg=first)
    assert page.inner_text("#analysis [data-testid=game] h2").startswith("Game 2")
    assert page.locator("#analysis [data-testid=game]").count() == 1
    accessible(page)


@pytest.mark.parametrize("role", ["white", "black", "arbiter", "spectator"])
def test_every_role_and_the_lobby_are_accessible(pages: Any, role: str) -> None:
    """axe-core: no critical or serious violation on the lobby and on each
    role's game page, over the board and online, on a phone too."""
    lobby = pages()
    accessible(lobby)
    for mode, tc in (("blitz", "5+3"), ("online", "3+2")):
        links = new_game(lobby, tc=tc, mode=mode)
        page = pages(links[role], "phone")
        page.wait_for_timeout(300)
        accessible(page)
        lobby.click("#home")


def test_phone_touch_targets_and_readable_coordinates(pages: Any) -> None:
    """On a phone every control is at least 40 px high; the board's files are
    lower-case letters large enough to read."""
    page = pages(viewport="phone")
    small = page.evaluate("""() => [...document.querySelectorAll(
        'button, select, input, summary, a, textarea')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 40)
        .map(e => e.id || e.outerHTML.slice(0, 60))""")
    assert small == []
    links = new_game(page, mode="online")
    black = pages(links["black"], "phone")
    for pg in (page, black):
        small = pg.evaluate("""() => [...document.querySelectorAll(
            '#game button, #game select, #game input, #game summary, #game a')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 40)
            .map(e => e.id || e.outerHTML.slice(0, 60))""")
        assert small == [], small
    files = page.eval_on_selector_all("#board coords.files coord", "cs => cs.map(c => c.innerText)")
    assert files == list("abcdefgh")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'#board coords.files coord')).fontSize)")
    assert size >= 10


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_setup_errors_in_plain_words(pages: Any, lang: str) -> None:
    """A start position the arbiter refuses is refused on the form in the page's
    language, the reasons too; text that is no FEN gets an example of one."""
    page = pages(locale=LOCALES[lang])
    page.click("details.more summary")
    page.fill("#start-fen", "4k3/8/8/8/8/8/8/Q7 w - - 0 1")  # no white king
    page.click("#new-game")
    page.wait_for_selector("[data-testid=newgame-error]:not(:empty)")
    text = page.inner_text("[data-testid=newgame-error]")
    assert text == {"cs": "Výchozí pozici nelze použít: chybí bílý král.",
                    "pl": "Nie można użyć pozycji początkowej: brak białego króla."}[lang], text
    page.fill("#start-fen", "a FEN, I promise")
    page.click("#new-game")
    # (the error is cleared while the new request is under way: wait for the next one)
    page.wait_for_function("t => { const s = document.querySelector("
                           "'[data-testid=newgame-error]').innerText; return s && s !== t; }",
                           arg=text)
    assert page.inner_text("[data-testid=newgame-error]").startswith(
        {"cs": "Toto není FEN.", "pl": "To nie jest FEN."}[lang])
    assert "config" not in page.inner_text("[data-testid=newgame-error]")


def test_an_incorrect_claim_online_is_refused_saying_what_happened(pages: Any) -> None:
    """Online an incorrect claim is refused: the page says so, and that no time
    was added and no draw offered (as over the board they would be)."""
    white = pages()
    links = new_game(white, mode="online")
    black = pages(links["black"])
    typed(white, "e4", 1, black)
    typed(black, "e5", 2, white)
    before = service_state(white, links)["clocks"]["black"]
    white.click("details#claim-more summary")
    white.select_option("#claim-kind", "threefold_repetition")
    white.click("#claim-now")
    white.wait_for_selector("[data-testid=error]:not(:empty)")
    assert white.inner_text("[data-testid=error]") == (
        "The claim under Article 9.2.2 is not correct, so the server refuses it: the game goes "
        "on, no time is added and no draw is offered.")
    state = service_state(white, links)
    assert state["pending_offer"] is None and state["clocks"]["black"] == before
