"""The web page in a real browser (Debian's Chromium) against a real service,
at desktop and phone widths: each role's page and its buttons, the clocks,
promotion, the move list, the game-over banner, the PGN download, three
languages without English left in a ruling, and bad input.  (The second
round's behaviour, from the new-game form to the arbiter's acts online, is
in test_play.py.)"""

from __future__ import annotations

import io
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from remis.arbiter.clock import clock_text

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
ROLES = ("white", "black", "arbiter", "spectator")


def shot(page: Any, name: str) -> None:
    """Save a screenshot as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def click_square(page: Any, square: str, board: str = "board") -> None:
    """Click the centre of ``square`` on a board seen from either side."""
    page.locator(f"#{board}").scroll_into_view_if_needed()
    box = page.locator(f"#{board} cg-board").bounding_box()
    black = "orientation-black" in (page.get_attribute(f"#{board}", "class") or "")
    size = box["width"] / 8
    file, rank = ord(square[0]) - ord("a"), int(square[1]) - 1
    col, row = (7 - file, rank) if black else (file, 7 - rank)
    page.mouse.click(box["x"] + (col + 0.5) * size, box["y"] + (row + 0.5) * size)


def move(page: Any, uci: str, ply: int, *others: Any) -> None:
    """Make a move by two clicks and wait until the arbiter has it (on ``others`` too).

    On a loaded machine the page may still be laying itself out when the first click
    lands, so a move that has not reached the board is clicked again, at most twice."""
    for attempt in range(3):
        click_square(page, uci[:2])
        click_square(page, uci[2:4])
        try:
            page.wait_for_selector(f"body[data-ply='{ply}']", timeout=20_000)
            break
        except PlaywrightTimeout:
            if attempt == 2 or page.get_attribute("body", "data-ply") != str(ply - 1):
                raise
            shot(page, f"move-{uci}-retry-{attempt}")
    for pg in others:
        pg.wait_for_selector(f"body[data-ply='{ply}']")


def new_game(page: Any, tc: str = "5+3", mode: str = "blitz", side: str = "white",
             fen: str | None = None, names: tuple[str, str] | None = None,
             **more: Any) -> dict[str, str]:
    """Create a game from the form; returns the links of the four roles.  The
    mode must be one the server allows for ``tc`` (online, or its FIDE class)."""
    page.fill("#tc", tc)
    page.wait_for_selector(f"#mode option[value={mode}]", state="attached")
    page.select_option("#mode", mode)
    page.select_option("#side", side)
    if names:
        page.fill("#name-white", names[0])
        page.fill("#name-black", names[1])
    if fen:
        page.click("details.more summary")
        page.fill("#start-fen", fen)
    if more.get("arbiter_only"):
        page.select_option("#draw-agreement", "arbiter_only")
    if more.get("quickplay"):
        page.wait_for_selector("#quickplay", state="visible")
        page.check("#quickplay")
    before = page.get_attribute("body", "data-game")  # a game opened before, if any
    page.click("#new-game")
    page.wait_for_function("old => document.body.dataset.game && document.body.dataset.game "
                           "!== old", arg=before)
    page.wait_for_selector("body[data-ply='0']")
    return {role: page.get_attribute(f"#share a[data-role={role}]", "href") for role in ROLES}


def service_state(page: Any, links: dict[str, str]) -> dict[str, Any]:
    """The game's state as the service gives it, with its ruling log (read with the
    spectator's token)."""
    link = links["spectator"]
    q = dict(part.split("=", 1) for part in link.split("#", 1)[1].split("&"))
    base = f"{link.split('/#')[0]}/v1/games/{q['game']}"
    auth = {"Authorization": f"Bearer {q['token']}"}
    with urllib.request.urlopen(urllib.request.Request(base, headers=auth)) as r:
        state = dict(json.load(r)["state"])
    # the ruling log is read from the event log's pages (one page here)
    with urllib.request.urlopen(urllib.request.Request(f"{base}/events", headers=auth)) as r:
        state["log"] = json.load(r)["log"]
    return state


def actions(page: Any) -> list[str]:
    """The ids of the action buttons the page shows."""
    return list(page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.id)"))


def clock(page: Any, slot: str) -> str:
    return str(page.inner_text(f"[data-testid=clock-{slot}]"))


def fits(page: Any) -> None:
    """The page has no sideways scrolling and the whole board is on screen."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_each_role_acts_only_as_itself(pages: Any, viewport: str) -> None:
    """White's, Black's, the arbiter's and a spectator's pages: each says who it is
    and shows only the actions that role may take now; White offers a draw on its own
    turn and Black resigns while White is to move, both from their own pages."""
    white = pages(viewport=viewport)
    links = new_game(white)
    black, arbiter, spectator = (pages(links[r], viewport) for r in ("black", "arbiter",
                                                                      "spectator"))
    for pg in (white, black, arbiter, spectator):
        pg.wait_for_selector("body[data-ply='0']")
        fits(pg)
    assert white.inner_text("#role") == "You are White"
    assert black.inner_text("#role") == "You are Black"
    assert arbiter.inner_text("#role") == "Arbiter"
    assert spectator.inner_text("#role").startswith("Spectator")
    assert white.inner_text("#status") == "Your move"
    assert black.inner_text("#status") == "White to move"
    assert white.title() == "● Your move · remis" and black.title() == "White to move · remis"
    # no draw offer before both players have moved (5.2.3); until then either may cancel
    assert actions(white) == ["touch", "abort", "resign"]
    assert actions(black) == ["abort", "resign"]
    assert actions(arbiter) == ["illegal", "touch", "illegal-unnoticed"]
    assert actions(spectator) == [] and not spectator.is_visible("#actions")
    for pg in (white, black, spectator):
        assert not pg.is_visible("#arbiter-panel")
    # each player's own side is at the bottom, with its clock
    assert white.get_attribute("#player-bottom", "data-color") == "white"
    assert black.get_attribute("#player-bottom", "data-color") == "black"
    assert spectator.get_attribute("#player-bottom", "data-color") == "white"
    shot(black, f"roles-black-{viewport}")
    move(white, "e2e4", 1, black)
    move(black, "e7e5", 2, white)
    # White offers a draw on White's own turn: Black may accept or decline, nothing else
    white.click("#offer-draw")
    black.wait_for_selector("#accept-draw")
    assert actions(black) == ["accept-draw", "decline-draw", "illegal", "resign"]
    assert "offer-draw" not in actions(white)
    black.click("#decline-draw")
    white.wait_for_selector("#offer-draw")
    # Black resigns while White is to move
    assert service_state(white, links)["to_move"] == "white"
    black.click("#resign")
    assert black.inner_text("#resign") == "Resign? Click again"
    black.click("#resign")
    for pg in (white, black, arbiter, spectator):
        pg.wait_for_selector("body[data-over='true']")
        pg.wait_for_selector("[data-testid=banner]:not([hidden])")
        assert actions(pg) == []
    assert "1–0" in white.inner_text("#banner") and "White wins" in white.inner_text("#banner")
    assert white.inner_text("#banner").count("5.1.2") == 1
    shot(white, f"roles-over-{viewport}")


@pytest.mark.parametrize(("tc", "shown"), [
    ("3+2", "3:00"), ("90+30", "1:30:00"), ("0.9995", "0:59"), ("59.99933333", "59:59"),
    ("0.15", "0:09.0"), ("1", "1:00"),
])
def test_clock_faces(page: Any, tc: str, shown: str) -> None:
    """h:mm:ss from an hour up, m:ss below, tenths under ten seconds; 59.97 s is
    0:59 and 3599.96 s is 59:59 (a clock rounds down); nothing runs before the
    first move."""
    new_game(page, tc=tc, mode="online")
    assert clock(page, "top") == shown and clock(page, "bottom") == shown
    page.wait_for_timeout(1200)
    assert clock(page, "bottom") == shown  # the first move starts the clocks
    assert not page.locator("#player-bottom.running").count()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_clocks_run_and_freeze_while_the_arbiter_decides(pages: Any, viewport: str) -> None:
    """White's first move starts Black's clock; Black's quickplay claim (III.5) stops
    both clocks on every page until the arbiter decides, then Black's runs again."""
    white = pages(viewport=viewport)
    # 1:30 for 40 moves, then 10 minutes: rapid by A.1, with less than two minutes on the clock
    links = new_game(white, tc="40/1.5, 10", mode="rapid", quickplay=True)
    black = pages(links["black"], viewport)
    arbiter = pages(links["arbiter"], viewport)
    move(white, "e2e4", 1, black, arbiter)
    black.wait_for_function(
        "document.querySelector('[data-testid=clock-bottom]').innerText !== '1:30'")
    assert black.locator("#player-bottom.running").count() == 1
    assert clock(black, "top") == "1:30"  # White's first move cost nothing
    black.click("details#claim-more summary")
    black.select_option("#claim-kind", "quickplay")
    black.click("#claim-now")
    for pg in (white, black, arbiter):
        pg.wait_for_function("!document.querySelector('.player.running')")
    frozen = clock(white, "top")
    assert frozen == service_clock(white, links, "black")
    white.wait_for_timeout(1500)
    assert clock(white, "top") == frozen and clock(arbiter, "top") == frozen
    assert white.inner_text("#status") == "The clocks are stopped: the arbiter decides."
    shot(arbiter, f"clocks-stopped-{viewport}")
    arbiter.click("#arbiter-reject")
    white.wait_for_selector(".player.running")
    white.wait_for_function(
        f"document.querySelector('[data-testid=clock-top]').innerText !== '{frozen}'")


def service_clock(page: Any, links: dict[str, str], color: str) -> str:
    """The clock face of the service's time for ``color``."""
    return clock_text(service_state(page, links)["clocks"][color])


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_promotion_to_a_knight(pages: Any, viewport: str) -> None:
    white = pages(viewport=viewport)
    new_game(white, fen="8/1P6/8/8/8/k7/8/K7 w - - 0 1")
    click_square(white, "b7")
    click_square(white, "b8")
    white.wait_for_selector("[data-testid=promotion]:not([hidden])")
    shot(white, f"promotion-{viewport}")
    white.click("[data-testid=promotion] button[data-piece=n]")
    white.wait_for_selector("body[data-ply='1']")
    assert white.inner_text("#moves .move[data-ply='1']") == "b8=N"
    assert white.get_attribute("#board", "data-fen").startswith("1N6/8/8/8/8/k7/8/K7 b")


def test_move_list_stepping_and_last_move(pages: Any) -> None:
    """Numbered pairs; a click or the arrow keys show an earlier position; the
    opponent's last move is highlighted; a refused move leaves no highlight."""
    white = pages()
    links = new_game(white)
    black = pages(links["black"])
    move(white, "e2e4", 1, black)
    move(black, "e7e5", 2, white)
    move(white, "g1f3", 3, black)
    black.wait_for_selector("#moves .move[data-ply='3']")
    rows = black.eval_on_selector_all("#moves .row", "rs => rs.map(r => r.innerText.split(/\\s+/))")
    assert rows == [["1.", "e4", "e5"], ["2.", "Nf3"]]
    assert black.locator("#board square.last-move").count() == 2  # White's Nf3, on Black's board
    black.click("#moves .move[data-ply='1']")
    assert black.get_attribute("#board", "data-fen").startswith(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
    black.keyboard.press("ArrowRight")
    assert black.get_attribute("body", "data-shown") == "2"
    black.keyboard.press("ArrowLeft")
    black.keyboard.press("ArrowLeft")
    assert black.get_attribute("body", "data-shown") == "0"
    black.keyboard.press("End")
    assert black.get_attribute("body", "data-shown") == "3"
    # the flip button turns the board and the player bars with it
    black.click("#flip")
    assert "orientation-white" in black.get_attribute("#board", "class")
    assert black.get_attribute("#player-bottom", "data-color") == "white"
    black.click("#flip")
    assert "orientation-black" in black.get_attribute("#board", "class")
    shot(black, "move-list")


def test_game_over_banner_and_pgn_download(pages: Any) -> None:
    """Fool's mate from two pages: the banner gives the result and the article once;
    the PGN has the arbiter's result and [Termination]."""
    white = pages()
    links = new_game(white, tc="3+2")
    black = pages(links["black"], "phone")
    for ply, (pg, uci) in enumerate([(white, "f2f3"), (black, "e7e5"), (white, "g2g4"),
                                     (black, "d8h4")], start=1):
        move(pg, uci, ply, white if pg is black else black)
    for pg in (white, black):
        pg.wait_for_selector("[data-testid=banner]:not([hidden])")
        banner = pg.inner_text("#banner")
        assert banner.startswith("0–1 Black wins"), banner
        assert banner.count("5.1.1") == 1
    assert white.title().startswith("0–1")
    shot(black, "game-over-phone")
    with white.expect_download() as info:
        white.click("#pgn")
    download = info.value
    text = Path(download.path()).read_text()
    assert download.suggested_filename.endswith(".pgn")
    assert '[Result "0-1"]' in text and '[Termination "normal"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and [m.san() for m in game.mainline()] == ["f3", "e5", "g4", "Qh4#"]
    assert all(m.clock() is not None for m in game.mainline())  # [%clk] after each move
    assert text.rstrip().endswith("0-1")


def test_a_refused_move_goes_back_without_its_highlight(pages: Any) -> None:
    """White's page in a second browser misses White's move (its event stream is
    cut): the move it then makes is refused by the arbiter, the refusal says what
    happened, and the board shows the game as it is, with no highlight left on the
    refused move."""
    white = pages()
    links = new_game(white)
    stale = pages(links["white"], cut="**/stream")
    stale.wait_for_selector("#connection:not([hidden])")  # (the page says so)
    move(white, "e2e4", 1)
    click_square(stale, "d2")
    click_square(stale, "d4")
    stale.wait_for_selector("[data-testid=error]:not(:empty)")
    # the refusal says what happened, in plain words, without an internal id
    assert stale.inner_text("[data-testid=error]").startswith(
        "Not played: the game had moved on since this page last looked.")
    # the page catches up: the board shows the game as it is, the refused move's
    # squares are not highlighted (only White's e4 may be, the real last move)
    stale.wait_for_selector("body[data-ply='1']")
    stale.wait_for_timeout(300)  # (chessground redraws on the next frame)
    assert stale.eval_on_selector_all("#board square.last-move",
                                      "ss => ss.map(s => s.cgKey).sort()") in ([], ["e2", "e4"])
    assert stale.locator("#board square.selected").count() == 0
    squares = stale.eval_on_selector_all("#board cg-board piece",
                                         "ps => ps.map(p => p.cgKey).sort()")
    assert "d2" in squares and "d4" not in squares and "e4" in squares
    assert service_state(white, links)["ply"] == 1


def test_moves_land_on_their_squares_when_a_notice_moves_the_board(page: Any) -> None:
    """The connection fails after the board is drawn: the notice above the board
    moves it down, and a move made then still lands on the squares clicked."""
    new_game(page)
    page.route("**/events", lambda route: route.abort())
    page.click("#abort")
    page.wait_for_selector("#connection:not([hidden])")
    page.unroute("**/events")
    move(page, "d2d4", 1)
    assert page.inner_text("#moves .move[data-ply='1']") == "d4"


KNIGHT_DANCE = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]


def english_left(english: str, translated: str) -> set[str]:
    words = lambda text: {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}  # noqa: E731
    return words(english) & words(translated)


def test_threefold_claim_reads_as_a_verdict_in_three_languages(pages: Any) -> None:
    """Black claims with the written move Ng8: the claim button says so; the ruling is
    a verdict citing 9.2.1 once, with the positions as players count moves, and in
    Czech and Polish no English is left in it."""
    white = pages()
    links = new_game(white)
    black = pages(links["black"])
    for ply, uci in enumerate(KNIGHT_DANCE, start=1):
        move(white if ply % 2 else black, uci, ply, black if ply % 2 else white)
    black.wait_for_selector("#actions button.claim")
    assert "Claim a draw with Ng8 (9.2.1)" in black.inner_text("#actions")
    assert "9.2.1" in black.inner_text("#claimable")
    black.click("#actions button.claim")
    black.wait_for_selector("body[data-over='true']")
    english = black.inner_text("[data-testid=banner] .explanation")
    assert english.startswith("Draw: Black's claim under Article 9.2.1 is correct"), english
    assert english.count("9.2.1") == 1
    assert "at the start, after 2…, after 4…" in english
    assert black.inner_text("#banner").startswith("½–½")
    state = service_state(black, links)
    assert state["over"] and state["result"] == "1/2-1/2" and state["ply"] == 7
    for lang, word in (("cs", "Remíza"), ("pl", "Remis")):
        black.select_option("#lang", lang)
        black.wait_for_selector(f"body[data-lang='{lang}']")
        text = black.inner_text("[data-testid=banner] .explanation")
        assert text.startswith(word) and text.count("9.2.1") == 1, text
        assert not english_left(english, text), (lang, text)
        log = black.inner_text("#log")
        assert not english_left(state["log"][-1]["explanation"], log), log
    shot(black, "threefold-claimed-pl")


def analyse(page: Any, text: str) -> None:
    page.click("#tab-analyse")
    page.fill("#analyse-input", text)
    page.click("#analyse-go")


DEAD = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"  # blocked pawns: a dead position


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_dead_position_reason_once_and_translated(pages: Any, lang: str) -> None:
    page = pages(locale={"en": "en-GB", "cs": "cs-CZ", "pl": "pl-PL"}[lang])
    analyse(page, DEAD)
    page.wait_for_selector("#analysis [data-testid=ruling]")
    text = page.inner_text("#analysis")
    assert text.count("5.2.2") == 1, text
    assert text.count("a4, c4, e4, g4") == 2  # once per side, in the one ruling
    if lang != "en":
        page.select_option("#lang", "en")
        page.wait_for_selector("body[data-lang='en']")
        page.wait_for_function("document.querySelector('#analysis').innerText.includes('dead')")
        english = page.inner_text("#analysis [data-testid=ruling]")
        assert not english_left(english, text), text
    shot(page, f"dead-position-{lang}")
    # insufficient material, written with the language's piece letters
    page = pages(locale={"en": "en-GB", "cs": "cs-CZ", "pl": "pl-PL"}[lang])
    analyse(page, "8/8/4k3/8/8/2BK4/8/8 w - - 0 1")
    page.wait_for_selector("#analysis [data-testid=ruling]")
    material = {"en": "(K+B v K)", "cs": "(K+S proti K)", "pl": "(K+G przeciw K)"}[lang]
    assert material in page.inner_text("#analysis [data-testid=ruling]")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_can_the_opponent_still_checkmate(pages: Any, lang: str) -> None:
    """The analysis asks the real service about a queen against a bare king: White
    can still mate (a line to play through on the board), Black cannot, for the
    reason the engine gives, in the reader's language and piece letters."""
    page = pages(locale={"en": "en-GB", "cs": "cs-CZ"}[lang])
    analyse(page, "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1")
    page.wait_for_selector("[data-testid=can-checkmate]")
    box = "[data-testid=can-checkmate]"
    white = page.inner_text(f"{box} p[data-side=white]")
    black = page.inner_text(f"{box} p[data-side=black]")
    if lang == "en":
        assert white == "Black's flag falls: White can still checkmate.", white
        line = page.eval_on_selector_all(f"{box} [data-testid=stepper] .line-move",
                                         "ms => ms.map(m => m.textContent)")
        assert line[-1].endswith("#")  # the line ends in mate
        # short sentences: the verdict, then the reason (no parentheses in parentheses)
        assert black == ("White's flag falls: Black cannot checkmate by any series of legal "
                         "moves. Insufficient material: Black has a bare king (K+Q v K).")
    else:
        assert "(K+D proti K)" in black, black
        assert not english_left("insufficient material: Black has a bare king cannot "
                                "checkmate by any series of legal moves can still", white + black)
    start = page.get_attribute("#analysis-board", "data-fen")
    page.click(f"{box} [data-testid=play-line]")
    page.wait_for_function("fen => document.querySelector('#analysis-board').dataset.fen "
                           "!== fen", arg=start)
    shot(page, f"can-checkmate-{lang}")


def test_the_engines_reasons_read_on_the_page_as_in_the_catalogues(page: Any,
                                                                    server: str) -> None:
    """Every kind of reason the engine gives (the positions of tests/data/reasons.txt),
    analysed on the page in Czech, reads as remis.i18n translates the service's own
    answer: the page's translation is the catalogues' one."""
    from remis.i18n import translate, translate_param

    corpus = (ROOT / "tests" / "data" / "reasons.txt").read_text().splitlines()
    fens = dict.fromkeys(data.split(None, 2)[2] for line in corpus
                         if (data := line.split("#", 1)[0].strip()))
    page.select_option("#lang", "cs")
    page.wait_for_selector("body[data-lang='cs']")
    for fen in fens:
        analyse(page, fen)
        page.wait_for_selector("#analysis [data-testid=can-checkmate]")
        text = page.inner_text("#analysis")
        body = json.dumps({"fen": fen, "quick": False}).encode()
        request = urllib.request.Request(f"{server}/v1/position", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            answer = json.load(r)
        end = answer["end"]
        # the page puts the engine's reason after the ruling as a sentence of its own
        # (capitalised): the rest of the ruling, and the reason, as the catalogues say them
        reasons = ([end["params"]["reason"]] if "reason" in end["params"] else []) if end \
            else [v["reason"] for v in answer["unwinnability"].values() if v["value"] is not True]
        expected = [translate_param(r, "cs")[1:] for r in reasons]
        if end:
            ruling = translate(end["message"], {**end["params"], "reason": "@"}, "cs")
            expected += [part for part in ruling.split(" (@)") if part]
        for words in expected:
            assert words in text, (fen, words, text)


TIME_FORFEIT = """[Event "x"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Termination "Time forfeit"]
[SetUp "1"]
[FEN "8/8/4k3/8/8/3K4/8/6r1 w - - 0 1"]

1. Kc3 1-0
"""


def test_a_lost_flag_in_a_pgn_reads_in_polish(page: Any) -> None:
    """A game scored 1-0 on time where White has a bare king: the flag fall is a draw
    (6.9), and the ruling reads in Polish, the engine's reason and material too."""
    analyse(page, TIME_FORFEIT)
    page.wait_for_selector("#analysis [data-testid=ruling]")
    english = page.inner_text("#analysis")
    assert "ran out of time but White cannot checkmate" in english and "(K v K+R)" in english
    page.select_option("#lang", "pl")
    page.wait_for_function("document.querySelector('#analysis').innerText.includes('przeciw')")
    polish = page.inner_text("#analysis [data-testid=game]")
    assert "(K przeciw K+W)" in polish and not english_left(english, polish), polish


def test_a_pgns_dead_end_and_won_flag_fall(page: Any) -> None:
    """A game that starts dead gives each side's reason once (in its ruling); a game
    lost on time while the opponent can still mate shows a line to play through."""
    analyse(page, '[Event "x"]\n[SetUp "1"]\n[FEN "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/3K4 w - - '
                  '0 1"]\n\n1. Ke1 *\n')
    page.wait_for_selector("#analysis [data-testid=ruling]")
    text = page.inner_text("#analysis")
    assert text.count("a4, c4, e4, g4") == 2 and text.count("5.2.2") == 1, text
    analyse(page, TIME_FORFEIT.replace("6r1", "6R1").replace("4k3", "3k4"))
    page.wait_for_selector("#analysis [data-testid=helpmate]")
    text = page.inner_text("#analysis")
    assert text.count("6.9") == 1 and "1–0 Black ran out of time and White can still" in text
    assert "game goes on" not in text  # it ended on time
    # the game's report is one column under its title, the ruling as wide as the panel
    panel = page.locator("#analysis").bounding_box()
    ruling = page.locator("#analysis [data-testid=game] [data-testid=ruling]").bounding_box()
    assert ruling["width"] > 0.9 * panel["width"], (ruling, panel)
    page.click("#analysis [data-testid=play-line]")


def test_bad_input_gets_plain_words(page: Any, pages: Any) -> None:
    page.click("#tab-analyse")
    page.click("#analyse-go")
    assert page.inner_text("[data-testid=analysis-error]") == \
        "Paste a FEN (one line) or a game in PGN first."
    analyse(page, "rnbqkbnr/pppp/8 w KQkq")
    page.wait_for_selector("[data-testid=analysis-error]:not(:empty)")
    assert page.inner_text("[data-testid=analysis-error]").startswith("This FEN cannot be read:")
    assert page.inner_text("#analysis") == ""
    analyse(page, "hello there")
    assert page.inner_text("[data-testid=analysis-error]").startswith(
        "This is neither a FEN nor a PGN.")
    analyse(page, "1. e4 e5 2. Kf3 *")
    page.wait_for_selector("#analysis .error")
    assert page.inner_text("#analysis .error").startswith("The moves cannot be read from move 2.")
    assert "goes on" not in page.inner_text("#analysis")
    # a link without its token, and one with a wrong token
    page.click("#tab-play")
    links = new_game(page)
    bare = pages(links["black"].split("&token=")[0])
    assert "link is incomplete" in bare.inner_text("[data-testid=page-error]")
    wrong = pages(re.sub(r"token=.*", "token=nonsense", links["black"]))
    assert "does not open this game" in wrong.inner_text("[data-testid=page-error]")
    # a server that cannot be reached
    page.click("#home")
    page.route("**/v1/games", lambda route: route.abort())
    page.click("#new-game")
    page.wait_for_selector("[data-testid=newgame-error]:not(:empty)")
    assert page.inner_text("[data-testid=newgame-error]").startswith(
        "The remis server cannot be reached.")


def test_another_games_link_in_the_same_tab(pages: Any) -> None:
    """Pasting another game's link into the address bar opens that game; the list of
    one's games leads back to both."""
    page = pages()
    first = new_game(page)
    first_id = page.get_attribute("body", "data-game")
    page.click("#home")
    second = new_game(page, side="black")
    assert page.get_attribute("body", "data-game") != first_id
    assert page.inner_text("#role") == "You are Black"
    page.goto(first["spectator"])
    page.wait_for_function(f"document.body.dataset.game === '{first_id}'")
    assert page.inner_text("#role").startswith("Spectator")
    page.click("#home")
    assert page.locator("#my-games a").count() >= 2
    # each link of a game its creator holds is copied by its button
    page.goto(second["arbiter"])
    page.wait_for_function("document.body.dataset.role === 'arbiter'")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#share button.copy[data-role=spectator]")
    page.wait_for_selector("#share button.copy[data-role=spectator]:text-is('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == page.get_attribute(
        "#share a[data-role=spectator]", "href")
    assert second["white"] != first["white"]


def test_arbiter_consent_for_a_draw_offer(pages: Any) -> None:
    """Under draw_agreement "arbiter_only" (9.1.1) Black's offer goes to the arbiter
    first: only the arbiter's page shows the decision; the arbiter consents, White
    accepts, and the draw is shown with its article."""
    arbiter = pages()
    links = new_game(arbiter, side="arbiter", arbiter_only=True)
    white, black = pages(links["white"]), pages(links["black"])
    move(white, "e2e4", 1, black, arbiter)
    move(black, "e7e5", 2, white, arbiter)
    black.click("#offer-draw")
    arbiter.wait_for_selector("#decision:not([hidden])")
    awaiting = arbiter.inner_text("#awaiting")
    assert "Black offers a draw" in awaiting and "Article 9.1.1" in awaiting, awaiting
    assert not white.is_visible("#arbiter-panel") and "accept-draw" not in actions(white)
    arbiter.select_option("#lang", "cs")
    arbiter.wait_for_selector("body[data-lang='cs']")
    assert arbiter.inner_text("#arbiter-accept") == "Souhlasit s nabídkou remízy"
    arbiter.select_option("#lang", "en")
    arbiter.wait_for_selector("body[data-lang='en']")
    arbiter.click("#arbiter-accept")
    white.wait_for_selector("#accept-draw")
    white.click("#accept-draw")
    for pg in (white, black, arbiter):
        pg.wait_for_selector("body[data-over='true']")
    assert arbiter.inner_text("#banner").startswith("½–½ Draw")
    assert "5.2.3" in arbiter.inner_text("#banner")


def test_illegal_move_found_later(pages: Any) -> None:
    """An illegal move nobody called stands on the board (made on the arbiter's page);
    the move list marks it, the arbiter picks it there, and the position before it
    is reinstated (7.5.1)."""
    arbiter = pages()
    links = new_game(arbiter, tc="90+30", side="arbiter", mode="standard")
    white, black = pages(links["white"]), pages(links["black"])
    move(white, "e2e4", 1, black, arbiter)
    move(black, "e7e5", 2, white, arbiter)
    before = service_state(arbiter, links)["fen"]
    arbiter.click("#illegal-unnoticed")
    assert arbiter.is_visible("#unnoticed-banner")
    move(arbiter, "d1d3", 3, white, black)
    assert "Nobody called White's illegal move (d1d3)" in arbiter.inner_text("#log")
    move(black, "b8c6", 4, white, arbiter)
    move(white, "g1f3", 5, black, arbiter)
    arbiter.wait_for_function("document.querySelectorAll('#moves .move[data-ply]').length === 5")
    standing = arbiter.locator("#moves .move.standing")
    assert standing.count() == 1 and standing.get_attribute("data-ply") == "3"
    standing.click()
    label = arbiter.inner_text("#found-later")
    assert "2. d1d3 by White" in label and "7.5.1" in label, label
    arbiter.click("#found-later")
    arbiter.wait_for_selector("body[data-ply='2']")
    assert "White's illegal move on move 2 is found" in arbiter.inner_text("#log")
    state = service_state(arbiter, links)
    assert state["fen"] == before and state["to_move"] == "white"


def test_a_flag_falls_by_itself_over_the_board_too(pages: Any) -> None:
    """A page-made game over the board: Black's flag falls (6 seconds) and White's
    page reports it at once; White, with a bare king, cannot checkmate: a draw
    (6.9), in Polish too."""
    white = pages()
    links = new_game(white, tc="0.1", fen="8/8/4k3/8/8/3K4/8/6r1 w - - 0 1")
    black = pages(links["black"])
    move(white, "d3c3", 1, black)
    move(black, "e6d6", 2, white)  # both have moved: a flag now loses (or draws) on time
    move(white, "c3d3", 3, black)
    # under 20 seconds a running clock turns red; at zero the flag shows fallen
    black.wait_for_selector("#player-bottom.running.low")
    for pg in (white, black):
        pg.wait_for_selector("body[data-over='true']", timeout=10000)
    banner = white.inner_text("#banner")
    assert banner.startswith("½–½") and "cannot checkmate" in banner and banner.count("6.9") == 1
    assert "(K v K+R)" in banner  # the engine's reason: a bare king
    white.select_option("#lang", "pl")
    white.wait_for_selector("body[data-lang='pl']")
    polish = white.inner_text("#banner")
    assert "(K przeciw K+W)" in polish and not english_left(banner, polish), polish


def test_online_flag_is_ruled_at_once(pages: Any) -> None:
    """Online the server's clock decides: when Black's time runs out, White's page
    reports it at once and the game ends on time without anyone clicking."""
    white = pages()
    links = new_game(white, tc="0.1", mode="online")
    black = pages(links["black"])
    move(white, "e2e4", 1, black)
    move(black, "e7e5", 2, white)
    for pg in (white, black):
        pg.wait_for_selector("body[data-over='true']", timeout=10000)
    assert white.inner_text("#banner").startswith("0–1 Black wins")


def test_docs_work_offline_with_the_favicon(browser: Any, server: str) -> None:
    """/docs in a hall without internet: Swagger UI loads from remis itself and lists
    the API; nothing is asked of any other host; the favicon is served."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def only_here(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_here)
    try:
        page = context.new_page()
        page.goto(f"{server}/docs")
        page.wait_for_selector(".swagger-ui .info .title")
        assert "remis" in page.inner_text(".swagger-ui .info .title")
        page.wait_for_selector(".opblock")
        assert page.locator(".opblock").count() >= 5  # the operations, listed
        icon = page.get_attribute("link[rel~=icon]", "href")
        status, kind = page.evaluate(
            "u => fetch(u).then(r => [r.status, r.headers.get('content-type')])", icon)
        assert status == 200 and kind == "image/svg+xml"
        # what a browser asks for by itself (Playwright does not route favicon requests)
        with urllib.request.urlopen(f"{server}/favicon.ico") as r:
            assert r.status == 200 and r.headers["Content-Type"].startswith("image/")
        shot(page, "docs-offline")
        assert outside == []
    finally:
        context.close()
