"""Serving the application: uvicorn on a socket taken before anything else
starts (a port in use is reported at once, not after the workers' start),
and a line that says where the service answers once it does."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from types import FrameType

import uvicorn


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` and ``port`` (``OSError`` when it cannot
    be: a port in use, an address not of this machine).

    >>> s = listen("127.0.0.1", 0)
    >>> s.getsockname()[1] > 0
    True
    >>> s.close()
    """
    family, kind, proto, _, where = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        # as uvicorn does: a restart may reuse the port of connections still closing
        # (never a port another server listens on)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
    except OSError:
        sock.close()
        raise
    return sock


def address(host: str, port: int) -> str:
    """``host:port`` as in a URL (an IPv6 address in brackets).

    >>> address("::1", 8000), address("127.0.0.1", 80)
    ('[::1]:8000', '127.0.0.1:80')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def reason(exc: OSError) -> str:
    """What a failed bind means, for an operator.

    >>> reason(OSError(errno.EADDRINUSE, "Address already in use"))
    'the port is in use (another server listens on it); choose another with --port'
    """
    if exc.errno == errno.EADDRINUSE:
        return "the port is in use (another server listens on it); choose another with --port"
    if exc.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges); choose another with --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "the address is not one of this machine's; see --host"
    return exc.strerror or str(exc)


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, printing ``line`` (to stdout) once it is ready to
    answer: the application started (its workers too), the port listening.

    >>> AnnouncingServer(uvicorn.Config(app=None), "listening").line
    'listening'
    """

    #: seconds between two ticks of the main loop (uvicorn's: 0.1), the Date header's
    #: resolution: each tick wakes an idle server, at a cost of its own in CPU
    TICK = 1.0

    def __init__(self, config: uvicorn.Config, line: str) -> None:
        super().__init__(config)
        self.line = line
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()

    async def main_loop(self) -> None:
        """uvicorn's main loop, ticking once a second rather than ten times:
        a tick updates the Date header (as uvicorn's does each tenth) and
        looks for a request to stop, which a signal also wakes it for at once."""
        self._loop = asyncio.get_running_loop()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 10) % 864000  # uvicorn's ticks, tenths of a second
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.TICK)
            should_exit = await self.on_tick(counter)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop as uvicorn does, without waiting for the next tick."""
        super().handle_exit(sig, frame)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                self._loop.call_soon_threadsafe(self._wake.set)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does, then say so."""
        await super().startup(sockets)
        if self.started:
            print(self.line, flush=True)
