"""Browser tests: a real ``remis serve`` (uvicorn) process on a free loopback
port with a temporary SQLite database, and Debian's Chromium driven headless
by Playwright.  Skipped, with the reason, when Chromium, Playwright, the
service or the built page (``make web``) is missing.  Screenshots go to
``test-artifacts/web/``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # test_screens reuses test_page's steps

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "src" / "remis" / "service" / "web" / "dist"
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = os.environ.get("REMIS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(url: str, proc: subprocess.Popen[bytes] | None, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
            raise RuntimeError(f"remis serve exited with {proc.returncode}:\n{out[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/v1/i18n/en", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"remis serve did not answer at {url} within {timeout} s")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running service (``$REMIS_WEB_URL`` to use one already running)."""
    if os.environ.get("REMIS_WEB_URL"):
        yield os.environ["REMIS_WEB_URL"].rstrip("/")
        return
    if not (DIST / "index.html").exists():
        pytest.skip(f"the web page is not built ({DIST}/index.html missing): run `make web`")
    if importlib.util.find_spec("remis.cli.serve") is None:
        pytest.skip("the HTTP service (`remis serve`, branch service) is not in this checkout")
    port = _free_port()
    db = tmp_path_factory.mktemp("web-db") / "remis.db"
    remis = shutil.which("remis", path=str(Path(sys.executable).parent)) or "remis"
    proc = subprocess.Popen([remis, "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", f"sqlite:///{db}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright.  Module-scoped: Playwright's sync
    API keeps an event loop running in this thread while it is open, which would break
    later ``asyncio.run`` calls (doctests of the service) in the same session."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (`make test` installs Debian's chromium "
                    "when run as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright (Python) is not installed: pip install -e '.[dev]'")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


#: the two widths the page is tested at: a desktop and a phone
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def pages(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Opens pages on the service: ``pages(url=None, viewport="desktop", locale="en-GB",
    cut=None)`` (each in its own browser context, as another person's browser; requests
    to URLs matching the glob ``cut`` fail as on a broken network).  Each page is
    screenshotted at the end, and a JavaScript error on any of them fails the test."""
    opened: list[tuple[Any, Any, list[str]]] = []

    def open_page(url: str | None = None, viewport: str = "desktop", locale: str = "en-GB",
                  cut: str | None = None) -> Any:
        context = browser.new_context(locale=locale, viewport=VIEWPORTS[viewport],
                                      accept_downloads=True)
        if cut is not None:
            context.route(cut, lambda route: route.abort())
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.set_default_timeout(10_000)
        pg.goto(url or f"{server}/")
        pg.wait_for_selector("body[data-ready='true']")
        opened.append((context, pg, errors))
        return pg

    try:
        yield open_page
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for n, (context, pg, _) in enumerate(opened):
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{n}-end.png"),
                              full_page=True)
            finally:
                context.close()
    errors = [e for _, _, errs in opened for e in errs]
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(pages: Any) -> Any:
    """A fresh English page at desktop width."""
    return pages()


#: axe-core, a dev dependency of the page (``make web`` installs it)
AXE = ROOT / "src" / "remis" / "service" / "web" / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any) -> list[str]:
    """What axe-core finds critical or serious on the page as it is now, one
    line per rule (its id, impact, and the first element it names)."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed ({AXE}): run `make web`")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})"
                          ".then(r => r.violations.map(v => [v.id, v.impact, "
                          "v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '), "
                          "v.nodes[0].failureSummary]))")
    return [f"{rule} ({impact}): {where}: {why}" for rule, impact, where, why in found
            if impact in ("critical", "serious")]
