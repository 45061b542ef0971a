"""Serving the application: uvicorn on a socket taken before anything else
starts (a port in use is reported at once, not after the workers' start),
and a line that says where the service answers once it does."""

from __future__ import annotations

import errno
import socket

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

    def __init__(self, config: uvicorn.Config, line: str) -> None:
        super().__init__(config)
        self.line = line

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does, then say so."""
        await super().startup(sockets)
        if self.started:
            print(self.line, flush=True)
