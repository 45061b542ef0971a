"""Benchmark of the web page: how soon it is usable on loopback, and what it weighs.

    python benchmarks/web_load.py [--runs 15]

A ``remis serve`` process on a free loopback port (SQLite in a temporary
folder) and Debian's Chromium, headless, through Playwright.  Each run opens
a fresh browser context (an empty cache) and times from the start of the
navigation until the page is usable: its words loaded, the board drawn, a
game's state read (``body[data-ready=true]``).  Two pages: the new-game page
and a player's link to a game in progress.  Printed: the median and the
slowest run of each, and the bytes sent for the script and the stylesheet,
compressed (as the browser took them) against their size on disk, with the
ratio.  The baseline in the same run is the page's bare HTML: the time to
fetch ``/`` and parse it with no script run.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "src" / "remis" / "service" / "web" / "dist"
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str) -> None:
    for _ in range(150):
        try:
            with urllib.request.urlopen(f"{url}/v1/i18n/en", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"remis serve did not answer at {url}")


def post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"{url}{path}", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def timed_loads(browser: Any, url: str, runs: int,
                ready: str) -> tuple[list[float], dict[str, int]]:
    """Milliseconds from navigation start to ``ready``, per run; bytes sent per asset."""
    times: list[float] = []
    sent: dict[str, int] = {}
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()

        def count(response: Any) -> None:
            name = response.url.rsplit("/", 1)[-1].split("?")[0]
            if name in ("main.js", "style.css"):
                sent[name] = int(response.headers.get("content-length", "0"))

        page.on("response", count)
        page.goto(url)
        page.wait_for_selector(ready)
        times.append(float(page.evaluate("performance.now()")))
        context.close()
    return times, sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if not (DIST / "main.js").is_file():
        raise SystemExit("the page is not built: make web")
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        remis = str(Path(sys.executable).parent / "remis")
        server = subprocess.Popen([remis, "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--db", f"sqlite:///{tmp}/bench.db"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready(url)
            game = post(url, "/v1/games", {"config": {"time_control": "180+2"}})
            for who, san in (("white", "e4"), ("black", "e5"), ("white", "Nf3")):
                post(url, f"/v1/games/{game['id']}/events",
                     {"type": "move", "player": who, "move": san}, game["tokens"][who])
            link = f"{url}/#game={game['id']}&as=black&token={game['tokens']['black']}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                try:
                    timed_loads(browser, url, 2, "body[data-ready='true']")  # warm the server
                    base, _ = timed_loads(browser, f"{url}/openapi.json", args.runs, "body")
                    lobby, sent = timed_loads(browser, url, args.runs, "body[data-ready='true']")
                    joined, _ = timed_loads(browser, link, args.runs,
                                            "body[data-ready='true'][data-ply='3']")
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"page usable on loopback, {args.runs} cold loads each (ms, median / slowest):")
    for name, times in (("baseline: /openapi.json, no script", base),
                        ("new-game page", lobby), ("a player's game link", joined)):
        print(f"  {name:36s} {statistics.median(times):7.0f} / {max(times):5.0f}")
    ratio = statistics.median(joined) / statistics.median(base)
    print(f"  ratio game link / baseline: {ratio:.1f}")
    print("assets as sent (compressed) against their size on disk:")
    for name in ("main.js", "style.css"):
        disk = (DIST / name).stat().st_size
        got = sent.get(name, 0)
        print(f"  {name:10s} {got / 1024:6.1f} KiB sent, {disk / 1024:6.1f} KiB on disk "
              f"(ratio {got / disk:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
