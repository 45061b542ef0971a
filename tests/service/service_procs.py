"""Real processes for the service tests: a ``remis serve`` uvicorn process
and a throw-away PostgreSQL cluster (Debian's ``postgresql`` package)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import httpx

ROOT = Path(__file__).resolve().parents[2]
#: how long a test waits for a server or a result at the most: generous, since the
#: machine may be busy with other work (nothing is asserted about how long it took)
PATIENCE = 300.0


def wait_until(what: str, ready: Callable[[], bool], patience: float = PATIENCE) -> None:
    """Poll ``ready()`` until it is true; fail, naming ``what``, after ``patience`` s."""
    deadline = time.monotonic() + patience
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {patience} s")
        time.sleep(0.05)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``remis serve`` in its own process, on a random port."""

    def __init__(self, db: str | None, *, log: Path | None = None, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.db = db
        self.args = args
        self.env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = PATIENCE) -> Server:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        db = ("--db", self.db) if self.db is not None else ()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from remis.cli import main; "
             "sys.exit(main(sys.argv[1:]))", "serve", "--port", str(self.port),
             *db, "--log-level", "warning", *self.args],
            stdout=out, stderr=out, env=env, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"remis serve exited with {self.proc.returncode}"
                                   f" (log: {self.log})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/openapi.json", timeout=10.0).status_code == 200:
                    return self
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"remis serve did not answer within {timeout} s")

    def children(self) -> set[int]:
        """The process ids of the server's workers."""
        assert self.proc is not None
        out = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.add(int(stat.parent.name))
        return out

    def log_text(self) -> str:
        """What the server wrote to its log so far."""
        return self.log.read_text(errors="replace") if self.log else ""

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(PATIENCE)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                self.kill()


def postgres_bindir() -> Path | None:
    """The directory of Debian's PostgreSQL server binaries, if installed."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")) and os.path.exists(
                os.path.join(d, "pg_ctl")):
            return Path(d)
    for name in ("initdb", "pg_ctl"):
        if shutil.which(name) is None:
            return None
    return Path(shutil.which("pg_ctl") or "").parent


class Postgres:
    """A PostgreSQL cluster in a temporary directory on a free port, owned by
    the ``postgres`` user when run as root (initdb refuses root)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="remis-pg-"))
        self.data = self.dir / "data"
        self.as_user: str | None = None
        if os.geteuid() == 0:
            self.as_user = "postgres"
            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = PATIENCE) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_user:
            cmd = ["runuser", "-u", self.as_user, "--", *cmd]
        subprocess.run(cmd, check=True, timeout=timeout, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=self.dir)

    def start(self) -> Postgres:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                "-c max_connections=100 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"),
                  "-w", "-t", str(int(PATIENCE)), "start", timeout=PATIENCE + 30)
        return self

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "30",
                      "stop", timeout=PATIENCE)
        shutil.rmtree(self.dir, ignore_errors=True)


def start_postgres() -> tuple[Postgres | None, str]:
    """Start a cluster, or return ``(None, why not)``."""
    bindir = postgres_bindir()
    if bindir is None:
        return None, ("PostgreSQL server binaries not found (apt-get install -y postgresql; "
                      "`make test` does it when run as root)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None, "no 'postgres' user to run initdb as (root may not)"
    pg = Postgres(bindir)
    try:
        return pg.start(), ""
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stdout", b"") or b""
        pg.stop()
        return None, f"cannot start PostgreSQL from {bindir}: {exc} {detail[-300:]!r}"


def random_game(plies: int, seed: int = 5) -> list[str]:
    """``plies`` random legal moves (SAN) after which no game is over, nor
    at any ply before (no mate, stalemate, repetition or dead position)."""
    import random

    rng = random.Random(seed)
    board = chess.Board()
    out: list[str] = []
    while len(out) < plies:
        ok = []
        for m in board.legal_moves:
            board.push(m)
            if not (board.is_game_over(claim_draw=False) or board.is_repetition(2)):
                ok.append(m)
            board.pop()
        m = rng.choice(ok)
        out.append(board.san(m))
        board.push(m)
    return out


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` and all its descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    family, grew = {pid}, True
    while grew:
        grew = False
        for p, (parent, _) in stats.items():
            if parent in family and p not in family:
                family.add(p)
                grew = True
    return sum(stats[p][1] for p in family if p in stats)
