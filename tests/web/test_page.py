"""The web page in a real browser against a real service: a game played by
clicking to a threefold-repetition claim, a dead position pasted into the
analysis panel, and the switch to Czech (and Polish)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


def shot(page: Any, name: str) -> None:
    """Save a screenshot as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def click_square(page: Any, board: str, square: str) -> None:
    """Click the centre of ``square`` on a board seen from White's side."""
    box = page.locator(f"#{board} cg-board").bounding_box()
    size = box["width"] / 8
    file, rank = ord(square[0]) - ord("a"), int(square[1]) - 1
    page.mouse.click(box["x"] + (file + 0.5) * size, box["y"] + (7 - rank + 0.5) * size)


def play(page: Any, orig: str, dest: str, ply: int) -> None:
    """Make a move by two clicks and wait until the arbiter has accepted it."""
    click_square(page, "board", orig)
    click_square(page, "board", dest)
    page.wait_for_selector(f"body[data-ply='{ply}']")


def service_state(page: Any) -> dict[str, Any]:
    """The game's state as the service gives it, read with the token of the
    page's spectator link (reading a game needs one of its tokens)."""
    game_id = page.evaluate("document.body.dataset.game")
    link = page.get_attribute("#share a[data-role=spectator]", "href")
    token = re.search(r"token=([^&]+)", link or "")
    assert token, link
    server = page.url.split("/#")[0].rstrip("/")
    auth = {"Authorization": f"Bearer {token.group(1)}"}
    with urllib.request.urlopen(urllib.request.Request(f"{server}/v1/games/{game_id}",
                                                       headers=auth)) as r:
        state = dict(json.load(r)["state"])
    # the ruling log is read from the event log's pages (one page here)
    with urllib.request.urlopen(urllib.request.Request(f"{server}/v1/games/{game_id}/events",
                                                       headers=auth)) as r:
        state["log"] = json.load(r)["log"]
    return state


KNIGHT_DANCE = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8"),
                ("g1", "f3"), ("g8", "f6"), ("f3", "g1")]


def test_threefold_claim_by_clicking(page: Any) -> None:
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    assert page.inner_text("#status") == "White to move"
    for ply, (orig, dest) in enumerate(KNIGHT_DANCE, start=1):
        play(page, orig, dest, ply)
    assert page.inner_text("#moves").split() == ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    # Black may claim with the intended move Ng8: the claimable list says so, with its article
    claimable = page.inner_text("#claimable")
    assert "Ng8" in claimable and "9.2" in claimable
    shot(page, "threefold-before-claim")
    # claim mode: the next move made on the board is the intended move, written, not played
    page.click("#claim-move")
    assert page.is_visible("#claim-banner")
    click_square(page, "board", "f6")
    click_square(page, "board", "g8")
    page.wait_for_selector("body[data-over='true']")
    result = page.inner_text("#result")
    assert result.startswith("1/2-1/2")
    assert "threefold" in result.lower() or "appear" in result
    assert re.search(r"Article 9\.2(\.\d)*", result), result
    assert page.locator("#result [data-testid=article]").count() == 1
    assert not page.is_visible("#claim-banner")
    shot(page, "threefold-claimed")
    # the page shows what the service says (read with the spectator token of its link)
    state = service_state(page)
    assert state["over"] and state["result"] == "1/2-1/2"
    assert f"Article {state['article']}" in result
    assert state["ply"] == 7  # the intended move was not played
    # the same ruling in Czech and Polish
    page.select_option("#lang", "cs")
    page.wait_for_selector("body[data-lang='cs']")
    assert "článek 9.2" in page.inner_text("#result")
    assert "Černý smí zapsat tah Ng8" in page.inner_text("#result")
    page.select_option("#lang", "pl")
    page.wait_for_selector("body[data-lang='pl']")
    assert "Artykuł 9.2" in page.inner_text("#result")
    assert page.inner_text("#share a[data-role=black]") == "Szachownica czarnych"
    shot(page, "threefold-claimed-pl")


def test_refused_move_is_explained(page: Any) -> None:
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    page.click("#accept-draw")  # no offer pending: refused by the arbiter
    page.wait_for_selector("#error:not(:empty)")
    assert page.inner_text("#error").startswith("Refused:")
    assert page.evaluate("document.body.dataset.over") == "false"


DEAD_FEN = "8/8/4k3/8/8/2BK4/8/8 w - - 0 1"  # K+B v K


def analyse(page: Any, text: str) -> None:
    page.click("#tab-analyse")
    page.fill("#analyse-input", text)
    page.click("#analyse-go")
    page.wait_for_selector("#analysis > *")


def test_dead_position_fen(page: Any) -> None:
    analyse(page, DEAD_FEN)
    text = page.inner_text("#analysis")
    assert "dead position" in text and "Article 5.2.2" in text
    assert "K+B v K" in text
    shot(page, "dead-position-en")


def test_pgn_claims_per_ply(page: Any) -> None:
    pgn = ('[Event "t"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
           "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n")
    analyse(page, pgn)
    rows = page.locator("#analysis [data-testid=claims] tbody tr")
    assert rows.count() >= 1
    first = rows.nth(0).inner_text()
    assert "Ng8" in first and "9.2" in first
    # a row shows its position on the board: after 7 plies, Black to move
    rows.nth(0).click()
    fen = page.get_attribute("#analysis-board", "data-fen")
    assert fen == "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4"
    shot(page, "pgn-claims")


def test_switch_to_czech(page: Any) -> None:
    analyse(page, DEAD_FEN)
    page.select_option("#lang", "cs")
    page.wait_for_selector("body[data-lang='cs']")
    page.wait_for_function(
        "document.querySelector('#analysis').innerText.includes('mrtvá pozice')")
    text = page.inner_text("#analysis")
    assert "článek 5.2.2" in text and "K+B v K" in text
    assert page.inner_text("#tab-play") == "Hra"
    assert page.inner_text("#analyse-go") == "Analyzovat"
    shot(page, "dead-position-cs")
    # the choice is remembered and Polish works too
    page.reload()
    page.wait_for_selector("body[data-lang='cs']")
    page.select_option("#lang", "pl")
    page.wait_for_selector("body[data-lang='pl']")
    assert page.inner_text("#tab-play") == "Gra"


def test_browser_language_chooses_czech(browser: Any, server: str) -> None:
    context = browser.new_context(locale="cs-CZ")
    try:
        pg = context.new_page()
        pg.goto(f"{server}/")
        pg.wait_for_selector("body[data-lang='cs']")
        assert pg.inner_text("#new-game") == "Nová partie"
    finally:
        context.close()


def test_flag_fall_verdicts_and_helpmate_line(page: Any) -> None:
    """The panel for "can the opponent still checkmate?" (the can_checkmate and
    helpmate fields of `remis position --json`), here added to the real
    service's answer, since the engine that computes them is another branch."""

    def add_verdicts(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        data["can_checkmate"] = {"white": True, "black": False}
        data["helpmate"] = {"white": ["a1a8"], "black": None}
        route.fulfill(response=response, json=data)

    page.route("**/v1/position", add_verdicts)
    analyse(page, "7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    panel = page.locator("[data-testid=can-checkmate]")
    assert "Article 6.9" in panel.inner_text()
    white = panel.locator("[data-side=white]").inner_text()
    black = panel.locator("[data-side=black]").inner_text()
    assert "White can still checkmate" in white and "Ra8#" in white
    assert "Black cannot checkmate" in black
    panel.locator("[data-testid=play-line]").click()
    page.wait_for_selector("#analysis-board square.last-move")
    shot(page, "helpmate-line")


@contextmanager
def joined(page: Any, browser: Any, role: str) -> Iterator[tuple[Any, str]]:
    """A new game on ``page``, and a second browser opened on its link for
    ``role`` (with that role's token): ``(second page, link)``."""
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    link = page.get_attribute(f"#share a[data-role={role}]", "href")
    assert link and "token=" in link
    other = browser.new_context(locale="en-GB", viewport={"width": 1200, "height": 900})
    try:
        second = other.new_page()
        second.goto(link)
        second.wait_for_selector("body[data-ply='0']")
        yield second, link
    finally:
        other.close()


def test_second_board_follows_the_game(page: Any, browser: Any) -> None:
    """Black plays from a second browser through the link with Black's token;
    each page sees the other's moves through the event stream."""
    with joined(page, browser, "black") as (black, _link):
        play(page, "e2", "e4", 1)
        black.wait_for_selector("body[data-ply='1']")
        # Black's board is seen from Black's side: e7 is on the second row from the top, mirrored
        box = black.locator("#board cg-board").bounding_box()
        size = box["width"] / 8
        for file, row in ((4, 1), (4, 3)):  # e7 then e5, seen from Black
            black.mouse.click(box["x"] + (7 - file + 0.5) * size, box["y"] + (7 - row + 0.5) * size)
        black.wait_for_selector("body[data-ply='2']")
        page.wait_for_selector("body[data-ply='2']")
        page.wait_for_function("document.querySelector('#moves').innerText.includes('e5')")
        assert page.inner_text("#moves").split() == ["e4", "e5"]
        # Black's page holds only Black's token: it cannot resign for White
        black.select_option("#acting", "white")
        black.click("#resign")
        black.wait_for_selector("#error:not(:empty)")
        assert page.evaluate("document.body.dataset.over") == "false"
        shot(black, "black-board")


def test_flag_fall_against_a_bare_knight_is_a_draw(page: Any) -> None:
    """White's flag falls, but Black (king and knight) cannot mate: a draw, and why (6.9)."""
    page.fill("#tc", "1+0")
    page.fill("#start-fen", "8/8/4k3/8/8/3K4/8/6n1 w - - 0 1")
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    page.wait_for_timeout(1300)  # White's second runs out
    page.click("#flag")
    page.wait_for_selector("body[data-over='true']")
    result = page.inner_text("#result")
    assert result.startswith("1/2-1/2"), result
    assert "cannot checkmate" in result and "Article 6.9" in result
    shot(page, "flag-fall-draw")


def test_illegal_move_called(page: Any) -> None:
    """Black, on move, completes an illegal move (the board only takes legal ones, so the
    button stands for it): the arbiter's ruling and the count are shown."""
    page.select_option("#mode", "standard")
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    play(page, "e2", "e4", 1)
    page.click("#illegal")
    page.wait_for_function("document.querySelector('#log').innerText.includes('illegal')")
    log = page.inner_text("#log")
    assert re.search(r"Article (7\.5|A\.|B\.)", log), log
    assert "Illegal moves: White 0, Black 1" in page.inner_text("#status")
    assert page.evaluate("document.body.dataset.ply") == "1"
    assert page.inner_text("#moves").split() == ["e4"]
    shot(page, "illegal-move")


def test_spectator_link_watches_without_acting(page: Any, browser: Any) -> None:
    """The spectator link reads the game (state, moves, stream) with the read-only
    token; whatever it tries to post is refused and changes nothing."""
    with joined(page, browser, "spectator") as (watcher, link):
        assert "as=spectator" in link
        play(page, "e2", "e4", 1)
        watcher.wait_for_selector("body[data-ply='1']")
        watcher.wait_for_function("document.querySelector('#moves').innerText.includes('e4')")
        watcher.click("#resign")
        watcher.wait_for_selector("#error:not(:empty)")
        assert "token" in watcher.inner_text("#error")
        assert service_state(page)["over"] is False
        # without a token the game cannot be read at all
        bare = link.split("&token=")[0]
        stranger = watcher.context.new_page()
        stranger.goto(bare)
        stranger.wait_for_selector("#error:not(:empty)")
        assert "missing token" in stranger.inner_text("#error")
        shot(watcher, "spectator")


def test_touch_rejects_the_pending_offer(page: Any) -> None:
    """White moves and offers a draw; Black, on move, touches a piece: the offer is
    rejected (9.1.2.1) and Black may not claim this turn (9.4), each with its article."""
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    play(page, "e2", "e4", 1)
    page.click("#offer-draw")
    page.wait_for_selector("#offer:not([hidden])")
    assert page.inner_text("#offer") == "White has offered a draw."
    shot(page, "touch-offer-pending")
    page.click("#touch")
    page.wait_for_selector("#offer[hidden]", state="attached")
    log = page.inner_text("#log")
    assert "Black touched a piece: White's draw offer is rejected (Article 9.1.2.1)" in log, log
    assert re.search(r"Black touched a piece and may not claim .*Article 9\.4", log), log
    assert service_state(page)["pending_offer"] is None
    # the touch cost Black the right to claim this turn
    page.click("#claim-now")
    page.wait_for_selector("#error:not(:empty)")
    assert "touched a piece" in page.inner_text("#error")
    assert page.evaluate("document.body.dataset.over") == "false"
    shot(page, "touch-offer-rejected")


def test_draw_offer_needing_the_arbiters_consent(page: Any, browser: Any) -> None:
    """Under draw_agreement "arbiter_only" (9.1.1) Black's offer goes to the arbiter
    first: only a page holding the arbiter's token shows the decision; the arbiter
    consents, White accepts, and the draw is shown with the consent's Article 9.1.1."""
    page.select_option("#draw-agreement", "arbiter_only")
    assert not page.is_visible("#arbiter-panel")
    with joined(page, browser, "white") as (white, _link):
        play(page, "e2", "e4", 1)
        play(page, "e7", "e5", 2)
        assert not page.is_visible("#arbiter-panel")  # nothing awaits the arbiter yet
        page.click("#offer-draw")  # Black, who just moved, offers
        page.wait_for_selector("#arbiter-panel:not([hidden])")
        awaiting = page.inner_text("#awaiting")
        assert "Black offers a draw" in awaiting and "Article 9.1.1" in awaiting, awaiting
        assert page.inner_text("#arbiter-accept") == "Consent to the draw offer"
        assert not page.is_visible("#arbiter-postpone")
        assert not page.is_visible("#arbiter-seconds")
        assert page.is_visible("#offer") is False  # not an offer to White yet
        # White's own page (White's token only) follows the game but gets no arbiter controls
        white.wait_for_function(
            "document.querySelector('#log').innerText.includes('consent')")
        assert not white.is_visible("#arbiter-panel")
        assert not white.is_visible("#illegal-unnoticed") and page.is_visible("#illegal-unnoticed")
        white.click("#accept-draw")  # nothing to accept before the arbiter consents
        white.wait_for_selector("#error:not(:empty)")
        # in Czech, with the Laws' words
        page.select_option("#lang", "cs")
        page.wait_for_selector("body[data-lang='cs']")
        assert page.inner_text("#arbiter-accept") == "Souhlasit s nabídkou remízy"
        assert "souhlas rozhodčího" in page.inner_text("#awaiting")
        shot(page, "consent-awaited-cs")
        page.select_option("#lang", "en")
        page.wait_for_selector("body[data-lang='en']")
        page.click("#arbiter-accept")
        page.wait_for_selector("#offer:not([hidden])")
        assert page.inner_text("#offer") == "Black has offered a draw."
        assert not page.is_visible("#arbiter-panel")
        white.wait_for_selector("#offer:not([hidden])")
        white.click("#accept-draw")
        page.wait_for_selector("body[data-over='true']")
    result = page.inner_text("#result")
    assert result.startswith("1/2-1/2"), result
    assert "Article 5.2.3" in result
    log = page.inner_text("#log")
    assert re.search(r"The arbiter consents: Black's draw offer stands.*Article 9\.1\.1", log), log
    state = service_state(page)
    assert state["over"] and state["termination"] == "agreement"
    assert [e["article"] for e in state["log"]][-3:] == ["9.1.1", "9.1.1", "5.2.3"]
    shot(page, "consent-draw")


def test_illegal_move_found_later(page: Any) -> None:
    """An illegal move nobody called stands on the board (made on the arbiter's page
    in "illegal move nobody noticed" mode); the move list marks it, the arbiter picks
    it there, and the position before it is reinstated (7.5.1), the later moves
    cancelled."""
    page.select_option("#mode", "standard")
    page.click("#new-game")
    page.wait_for_selector("body[data-ply='0']")
    play(page, "e2", "e4", 1)
    play(page, "e7", "e5", 2)
    before = service_state(page)["fen"]
    assert not page.is_visible("#arbiter-panel")
    # White's queen jumps over her own pawn, and nobody notices
    page.click("#illegal-unnoticed")
    assert page.is_visible("#unnoticed-banner")
    play(page, "d1", "d3", 3)
    assert not page.is_visible("#unnoticed-banner")
    assert "Nobody called White's illegal move (d1d3)" in page.inner_text("#log")
    play(page, "b8", "c6", 4)
    play(page, "g1", "f3", 5)
    page.wait_for_function("document.querySelectorAll('#moves .move').length === 5")
    assert page.inner_text("#moves").split() == ["e4", "e5", "d1d3", "Nc6", "Nf3"]
    standing = page.locator("#moves button.move.standing")
    assert standing.count() == 1 and standing.get_attribute("data-ply") == "3"
    page.wait_for_selector("#arbiter-panel:not([hidden])")
    assert page.is_disabled("#found-later")
    standing.click()
    label = page.inner_text("#found-later")
    assert "ply 3, d1d3 by White" in label and "7.5.1" in label, label
    shot(page, "illegal-found-later-chosen")
    page.click("#found-later")
    page.wait_for_selector("body[data-ply='2']")
    page.wait_for_function("document.querySelectorAll('#moves .move').length === 2")
    assert page.inner_text("#moves").split() == ["e4", "e5"]
    log = page.inner_text("#log")
    assert "White's illegal move of ply 3 is found: the position before it is reinstated" \
        in log and "Article 7.5.1" in log, log
    assert "Illegal moves: White 1, Black 0" in page.inner_text("#status")
    assert not page.is_visible("#arbiter-panel")
    state = service_state(page)
    assert state["fen"] == before and state["to_move"] == "white" and not state["over"]
    shot(page, "illegal-found-later")


def quickplay_request(page: Any, kind: str) -> None:
    """A new 90-second rapid game with a quickplay finish announced (Guidelines III),
    in which White (under two minutes) at once makes a ``kind`` request (III.4
    ``increment`` or III.5 ``quickplay``) and the arbiter's controls appear."""
    page.fill("#tc", "90")
    page.select_option("#mode", "rapid")
    page.check("#quickplay")
    page.click("#new-game")
    page.wait_for_function(f"document.querySelector('#claim-kind option[value={kind}]')"
                           ".disabled === false")
    page.select_option("#claim-kind", kind)
    page.click("#claim-now")
    page.wait_for_selector("#arbiter-panel:not([hidden])")


def test_quickplay_claim_decided_by_the_arbiter(page: Any) -> None:
    """Guidelines III with a quickplay finish announced: White, under two minutes,
    claims under III.5; the clocks stop and the arbiter's page offers to accept,
    postpone or reject. Postponed, the game goes on with Black's two extra minutes,
    and the arbiter may still accept: a draw under III.5."""
    page.click("#new-game")  # a game without Guidelines III: no such claim offered
    page.wait_for_selector("body[data-ply='0']")
    assert page.locator("#claim-kind option[value=quickplay]").is_disabled()
    quickplay_request(page, "quickplay")
    assert "White claims a draw under Guidelines III.5" in page.inner_text("#awaiting")
    assert page.inner_text("#arbiter-accept") == "Accept the claim: draw"
    assert page.is_visible("#arbiter-postpone") and page.is_visible("#arbiter-seconds")
    shot(page, "quickplay-claimed")
    page.click("#arbiter-postpone")
    page.wait_for_function("document.querySelector('#log').innerText.includes('postpones')")
    page.wait_for_function("document.querySelector('#awaiting').innerText.includes('postponed')")
    assert not page.is_visible("#arbiter-postpone")
    state = service_state(page)
    assert state["clocks"]["black"] == 210 and state["awaiting_arbiter"] is None
    play(page, "e2", "e4", 1)  # the game goes on
    page.click("#arbiter-accept")
    page.wait_for_selector("body[data-over='true']")
    result = page.inner_text("#result")
    assert result.startswith("1/2-1/2") and "Guidelines III.5" in result, result
    assert not page.is_visible("#arbiter-panel")
    shot(page, "quickplay-accepted")


def test_increment_request_granted_by_the_arbiter(page: Any) -> None:
    """Guidelines III.4: White, under two minutes in a game without increment, asks
    for five seconds a move; the arbiter's page offers to grant or refuse (not to
    postpone) with extra time for Black; granted, the game goes on with the increment."""
    # no game yet: the request is not offered (else quickplay_request's wait for it
    # would pass at once and its claim could go out before the new game exists)
    assert page.locator("#claim-kind option[value=increment]").is_disabled()
    quickplay_request(page, "increment")
    assert "White asks for an increment under Guidelines III.4" in page.inner_text("#awaiting")
    assert page.inner_text("#arbiter-accept") == "Grant the increment"
    assert not page.is_visible("#arbiter-postpone")
    page.fill("#arbiter-seconds", "60")
    page.click("#arbiter-accept")
    page.wait_for_function("document.querySelector('#log').innerText.includes('5 seconds')")
    assert not page.is_visible("#arbiter-panel")
    state = service_state(page)
    assert state["clocks"]["black"] == 150 and state["awaiting_arbiter"] is None
    play(page, "e2", "e4", 1)
    assert not page.is_visible("#arbiter-panel")
    shot(page, "increment-granted")
