"""Smoke test of a built wheel, as a user would meet it: a fresh virtualenv
outside the source tree, ``pip install 'WHEEL[service]'``, then the commands.

    python tests/packaging/wheel_smoke.py dist/remis-*.whl

It checks that the wheel carries everything the source tree builds: the
compiled core (``remis._core``), the compiled translation catalogues (.mo)
and the web page's bundle, which ``remis serve`` must answer with at ``/``.
Prints one line per check and exits non-zero at the first failure.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "zukertort-steinitz-1886.pgn"
#: Locked pawns and bare kings: neither side can mate (5.2.2).
DEAD_FEN = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"

# Run inside the fresh environment: the package must come from there, with its
# compiled core, its catalogues and its page.
INSIDE = """
import json, sys
from importlib.resources import files
import remis, remis._core
from babel.messages.mofile import read_mo
from remis.i18n.catalog import catalogue
pkg = files("remis")
mo = {lang: pkg / "i18n" / "locale" / lang / "LC_MESSAGES" / "remis.mo" for lang in ("cs", "pl")}
for path in mo.values():
    with path.open("rb") as f:
        assert len(read_mo(f)) > 100, path
print(json.dumps({
    "file": remis.__file__, "core": remis._core.__file__, "version": remis.__version__,
    "all": len(remis.__all__),
    "page": (pkg / "service" / "web" / "dist" / "index.html").is_file(),
    "resign_cs": catalogue("cs")["ui.resign"],
}))
"""


def run(args: list[str], cwd: Path) -> str:
    """Run a command; on failure print what it said and stop."""
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAILED ({proc.returncode}): {' '.join(args)}\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def check(label: str, ok: bool, detail: object = "") -> None:
    if not ok:
        sys.exit(f"FAILED: {label}: {detail}")
    print(f"  ok  {label}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.status, resp.read().decode("utf-8", "replace")


def serve_page(remis: Path, work: Path) -> None:
    """Start ``remis serve`` on a loopback port, fetch the page, stop it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [str(remis), "serve", "--port", str(port), "--db", f"sqlite:///{work / 'smoke.db'}",
         "--mate-workers", "0"],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, page = get(base + "/")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read() if proc.stdout else ""
                    sys.exit(f"FAILED: remis serve did not answer at {base}/\n{out}")
                time.sleep(0.3)
        check("remis serve answers at / with the built page",
              status == 200 and "not built" not in page and "<script" in page, page[:200])
        status, script = get(base + "/static/main.js")
        check("the page's script is served from /static/", status == 200 and len(script) > 1000)
        status, texts = get(base + "/v1/i18n/pl")
        check("GET /v1/i18n/pl", status == 200 and len(json.loads(texts)) > 100)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    wheels = [Path(a).resolve() for a in sys.argv[1:]]
    if len(wheels) != 1 or wheels[0].suffix != ".whl" or not wheels[0].is_file():
        sys.exit(f"usage: {sys.argv[0]} WHEEL (got {sys.argv[1:]})")
    wheel = wheels[0]
    work = Path(tempfile.mkdtemp(prefix="remis-wheel-"))
    started = time.monotonic()
    try:
        print(f"wheel smoke test: {wheel.name} in a fresh virtualenv in {work}")
        run([sys.executable, "-m", "venv", str(work / "venv")], work)
        bindir = work / "venv" / ("Scripts" if os.name == "nt" else "bin")
        python, remis = bindir / "python", bindir / "remis"
        run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
             f"{wheel}[service]"], work)
        check("pip install 'WHEEL[service]'", remis.exists())

        facts = json.loads(run([str(python), "-c", INSIDE], work))
        venv = str(work / "venv")
        check("import remis from the virtualenv, not the tree",
              facts["file"].startswith(venv) and facts["core"].startswith(venv), facts)
        check("the translation catalogues (.mo) are in the wheel and read",
              facts["resign_cs"] == "Vzdát partii", facts)
        check("the web page's bundle is in the wheel", facts["page"], facts)

        out = run([str(remis), "game", str(GAME)], work)
        check("remis game on a bundled game: fivefold repetition after 29. (9.6.1)",
              "ends after 29.: fivefold repetition" in out and "9.6.1" in out, out)
        out = run([str(remis), "position", "--json", DEAD_FEN], work)
        end = json.loads(out)["end"]
        check("remis position: a locked pawn wall is dead (5.2.2)",
              end["termination"] == "dead_position" and end["article"] == "5.2.2", out)
        serve_page(remis, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wheel smoke test passed in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
