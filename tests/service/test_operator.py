"""The service as an operator meets it: the port (a bad one refused, a busy
one reported before anything starts, the address printed once it answers),
the client's address behind a proxy (X-Forwarded-For believed only from
configured proxies), database passwords (never printed, kept out of
``ps``), and HTTP details (OPTIONS and Allow, the config's schema, framing)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_procs import PATIENCE, ROOT, Server, cpu_seconds, wait_until

from remis.arbiter.config import defaults
from remis.service.app import create_app

#: a question of a second of search: can White (king and seven bishops) mate?
HEAVY_PGN = '[FEN "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"]\n\n*\n\n'
LOCKED = "8/1p1p1p1p/1P6/KP6/PP6/1P3P2/3P3P/k7 w - - 0 1"


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``remis serve`` run to its end (it is expected to stop by itself)."""
    return subprocess.run([sys.executable, "-m", "remis", "serve", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=PATIENCE, env=env)


# -- the port ---------------------------------------------------------------------------

def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    """``--port 99999`` listened on port 34463 (99999 mod 65536), silently."""
    r = serve("--port", "99999", "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert r.returncode == 2, r.stderr
    assert "99999 is not a TCP port (0 to 65535)" in r.stderr
    assert not (tmp_path / "r.db").exists()


def test_a_port_in_use_is_reported_before_anything_starts(tmp_path: Path) -> None:
    """A busy port failed only after the workers had started (72 s on a busy
    machine), with exit status 3 and uvicorn's errno text.  Now the port is
    taken first: a clear message, status 1, and the database not even opened."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        r = serve("--port", str(busy), "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert f"cannot listen on 127.0.0.1:{busy}: the port is in use" in r.stderr, r.stderr
    assert not (tmp_path / "r.db").exists()


def test_serve_says_where_it_listens(tmp_path: Path) -> None:
    """Nothing said where, or when, the service answered; with ``--port 0``
    (any free port) nobody could know which."""
    proc = subprocess.Popen([sys.executable, "-m", "remis", "serve", "--port", "0", "--db",
                             f"sqlite:///{tmp_path / 'r.db'}"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or ()), daemon=True)
    reader.start()
    try:
        wait_until("listening line", lambda: any("listening on" in line for line in lines))
        url = next(line for line in lines if "listening on" in line).split()[-1]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        assert httpx.get(f"{url}/openapi.json", timeout=PATIENCE).status_code == 200
    finally:
        proc.terminate()
        proc.wait(PATIENCE)


# -- X-Forwarded-For ----------------------------------------------------------------------

def _refusal_of_a_second_search(tmp_path: Path, *args: str, first: str,
                                second: str) -> httpx.Response:
    """With one search per client and none waiting: a long search posted
    with ``X-Forwarded-For: first``, then a second one with ``second``; the
    second's answer (429 when both count as one client)."""
    server = Server(f"sqlite:///{tmp_path / 'r.db'}", log=tmp_path / "serve.log", args=(
        "--searches-per-client", "1", "--waiting-per-client", "0", "--search-seconds", "600",
        "--search-nodes", str(10**9), *args)).start()
    assert server.proc is not None
    pid = server.proc.pid
    start = cpu_seconds(pid)

    def long_search() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server stops first
            httpx.post(f"{server.url}/v1/pgn", json={"pgn": HEAVY_PGN * 100},
                       headers={"X-Forwarded-For": first}, timeout=PATIENCE)

    try:
        threading.Thread(target=long_search, daemon=True).start()
        wait_until("the long search to begin", lambda: cpu_seconds(pid) > start + 0.5)
        return httpx.post(f"{server.url}/v1/position", json={"fen": LOCKED},
                          headers={"X-Forwarded-For": second}, timeout=PATIENCE)
    finally:
        server.stop()


def test_x_forwarded_for_from_a_client_is_ignored(tmp_path: Path) -> None:
    """uvicorn believed the header from 127.0.0.1 by default: a client there
    was a new caller at each request, as many searches at once as it liked."""
    r = _refusal_of_a_second_search(tmp_path, first="203.0.113.9", second="203.0.113.10")
    assert r.status_code == 429 and "from 127.0.0.1" in r.json()["detail"], r.text


def test_x_forwarded_for_from_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    r = _refusal_of_a_second_search(tmp_path, "--forwarded-allow-ips", "127.0.0.1",
                                    first="203.0.113.9", second="203.0.113.9")
    assert r.status_code == 429 and "from 203.0.113.9" in r.json()["detail"], r.text


def test_a_malformed_proxy_list_is_refused() -> None:
    r = serve("--forwarded-allow-ips", "127.0.0.1,proxy.example", "--port", "0")
    assert r.returncode == 2 and "'proxy.example' is not an IP address" in r.stderr, r.stderr


# -- database passwords -------------------------------------------------------------------

def test_an_at_in_a_password_is_refused_unprinted() -> None:
    """A password with an unencoded ``@`` had the part after it printed (libpq
    read it as the host's name)."""
    r = serve("--db", "postgresql://remis:Open@Sesame77@127.0.0.1:9/remis", "--port", "0")
    assert r.returncode == 2, r.stderr
    assert "Sesame77" not in r.stderr + r.stdout and "Open@" not in r.stderr
    assert "%40" in r.stderr and "remis:***@127.0.0.1:9/remis" in r.stderr, r.stderr


def test_a_malformed_ipv6_url_is_refused_unprinted() -> None:
    """A malformed IPv6 URL crashed the code that hides the password, with a
    traceback."""
    r = serve("--db", "postgresql://remis:S3cretPw@[::1/remis", "--port", "0")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "S3cretPw" not in r.stderr + r.stdout
    assert "is not a URL: Invalid IPv6 URL" in r.stderr, r.stderr


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs Linux /proc")
def test_a_password_in_db_is_not_in_ps(postgres: Any, tmp_path: Path) -> None:
    """``ps`` showed the password given in ``--db`` to every user of the
    machine.  (The test cluster trusts local connections: the password is
    not checked, only carried.)"""
    url = postgres.url.replace("postgresql://postgres@", "postgresql://postgres:S3cretPw@")
    server = Server(url, log=tmp_path / "serve.log").start()
    assert server.proc is not None
    try:
        shown = Path(f"/proc/{server.proc.pid}/cmdline").read_bytes()
        r = httpx.post(f"{server.url}/v1/games", json={"config": {}}, timeout=PATIENCE)
    finally:
        server.stop()
    assert b"S3cretPw" not in shown and b"postgres:********@" in shown, shown
    assert r.status_code == 201


def test_the_database_url_may_come_from_the_environment(tmp_path: Path) -> None:
    db = tmp_path / "from-env.db"
    server = Server(None, log=tmp_path / "serve.log",
                    env={"REMIS_DB": f"sqlite:///{db}"}).start()
    try:
        r = httpx.post(f"{server.url}/v1/games", json={"config": {}}, timeout=PATIENCE)
    finally:
        server.stop()
    assert r.status_code == 201 and db.exists()


# -- HTTP details ------------------------------------------------------------------------

def call(method: str, path: str, **kwargs: Any) -> httpx.Response:
    from fastapi.testclient import TestClient

    client = TestClient(create_app("sqlite:///:memory:", mate_workers=0, search_workers=0))
    return client.request(method, path, **kwargs)


def test_options_and_405_name_every_method_of_the_path() -> None:
    """OPTIONS on the events path answered 405 with ``Allow: POST``, although
    GET reads the log there."""
    r = call("OPTIONS", "/v1/games/g1/events")
    assert r.status_code == 204 and r.headers["allow"] == "GET, OPTIONS, POST"
    r = call("PUT", "/v1/games/g1/events")
    assert r.status_code == 405 and r.headers["allow"] == "GET, OPTIONS, POST"
    assert r.json() == {"detail": "Method Not Allowed", "code": "method_not_allowed"}
    assert call("OPTIONS", "/v1/games").headers["allow"] == "OPTIONS, POST"
    assert call("OPTIONS", "/v1/no-such-thing").status_code == 404


def test_the_config_schema_names_the_keys_the_arbiter_takes() -> None:
    """The schema let any key into a config, which the arbiter refused with
    422.  The refusal is right (a misspelt key would leave a game under rules
    nobody asked for): the schema now says so."""
    schema = call("GET", "/openapi.json").json()["components"]["schemas"]["CreateGame"]
    config = schema["properties"]["config"]
    assert config["additionalProperties"] is False
    assert sorted(config["properties"]) == sorted(defaults())
    r = call("POST", "/v1/games", json={"config": {"time_controls": "300+2"}})
    assert r.status_code == 422 and "unknown key 'time_controls'" in r.json()["detail"]


@pytest.mark.parametrize("method, path", [
    ("GET", "/"), ("GET", "/v1/i18n/en"), ("GET", "/docs"), ("GET", "/v1/games/nope"),
    ("POST", "/v1/games/nope/events")])  # the last answered before the application's stack
def test_no_answer_may_be_framed(method: str, path: str) -> None:
    r = call(method, path, json={"type": "resign", "player": "white"} if method == "POST"
             else None)
    assert r.status_code in (200, 404), r.text
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"



def test_the_services_own_messages_reach_the_log() -> None:
    """``--log-level info`` showed uvicorn's messages only: the service's own
    (a worker killed after a cancel, one that cannot start) went nowhere.  The
    logging configuration ``remis serve`` hands uvicorn, applied in a process
    of its own, writes them on standard error at the chosen level, not below."""
    code = ("import logging, logging.config; from remis.cli.serve import log_config; "
            "logging.config.dictConfig(log_config('info')); "
            "log = logging.getLogger('remis.service'); "
            "log.info('a worker was killed'); log.debug('not shown')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert "a worker was killed" in done.stderr
    assert "not shown" not in done.stderr
