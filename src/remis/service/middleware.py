"""The service's ASGI middleware: what every request goes through before
its endpoint and every answer on its way out: the client's address (from
``X-Forwarded-For`` only where the peer is a configured proxy), the caller's
identity for the search pools, the body's size, and the headers that keep
the page out of other sites' frames."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any, cast

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from remis.service.pool import CALLER

#: the largest request body accepted (bytes)
MAX_BODY = 64 * 1024
#: the Content-Security-Policy directive of every answer: framed by no page
FRAME_ANCESTORS = "frame-ancestors 'none'"
_FRAME_ANCESTORS = FRAME_ANCESTORS.encode()
#: the IPv6 network taken as one caller (a single host is commonly given a /64)
IPV6_CALLER_PREFIX = 64
#: client addresses whose caller is remembered (parsing one costs more than a
#: move's own checks; bounded, since a hostile client may come from many)
CALLERS_CACHED = 4096


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with 413,
    whether announced by Content-Length or streamed in chunks.  The body
    (small by construction) is read first and handed on in one piece."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 when the body is too big."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_big(self.limit)(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _too_big(self.limit)(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(scope, receive_with(b"".join(chunks), True, receive), send)


def receive_with(body: bytes, whole: bool, receive: Receive) -> Receive:
    """``receive`` with the ``body`` already read from it given back first
    (``whole``: that was all of it)."""
    first: Message | None = {"type": "http.request", "body": body, "more_body": not whole}

    async def replay() -> Message:
        nonlocal first
        if first is not None:
            message, first = first, None
            return message
        return await receive()

    return replay


class Caller:
    """ASGI middleware: the client's address is the caller the search pools
    share their workers by (:data:`remis.service.pool.CALLER`; see
    :func:`caller_of`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Set the caller for the request, pass it on."""
        token = CALLER.set(scope_caller(scope))
        try:
            await self.app(scope, receive, send)
        finally:
            CALLER.reset(token)


def scope_caller(scope: Scope) -> str:
    """The caller of a request (see :func:`caller_of`), ``unknown`` without a client.

    >>> scope_caller({"client": ("192.0.2.7", 50000)}), scope_caller({})
    ('192.0.2.7', 'unknown')
    """
    client = scope.get("client")
    return caller_of(str(client[0])) if client else "unknown"


@lru_cache(maxsize=CALLERS_CACHED)
def caller_of(host: str) -> str:
    """The caller a client address counts as: an IPv4 address itself, an
    IPv6 address its /64 network (one machine commonly has a whole /64, and
    would otherwise be as many callers as it likes).

    >>> caller_of("192.0.2.7"), caller_of("2001:db8::1"), caller_of("2001:db8::2:1")
    ('192.0.2.7', '2001:db8::/64', '2001:db8::/64')
    >>> caller_of("::ffff:192.0.2.7"), caller_of("testclient")
    ('192.0.2.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_CALLER_PREFIX}", strict=False))
    return str(ip)


def trusted_proxies(text: str) -> list[str] | str:
    """The proxies of ``--forwarded-allow-ips``: ``*`` (every peer), or a
    list of addresses and networks, each checked (``ValueError`` names one
    that is neither); an empty text trusts none.

    >>> trusted_proxies("127.0.0.1, 10.0.0.0/8"), trusted_proxies(""), trusted_proxies("*")
    (['127.0.0.1', '10.0.0.0/8'], [], '*')
    >>> trusted_proxies("localhost")
    Traceback (most recent call last):
    ...
    ValueError: 'localhost' is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)
    """
    if text.strip() == "*":
        return "*"
    out = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network "
                             "(e.g. 127.0.0.1, 10.0.0.0/8)") from None
        out.append(item)
    return out


def _too_big(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body over {limit // 1024} KiB",
                         "code": "body_too_large"}, status_code=413)


class Framing:
    """ASGI middleware: no answer of the service may be shown inside another
    site's frame (clickjacking: a hostile page laying its own buttons over
    the board's).  ``Content-Security-Policy: frame-ancestors 'none'`` says
    so to current browsers (added to a policy the answer already has),
    ``X-Frame-Options: DENY`` to older ones."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, framing(send))


def framing(send: Send) -> Send:
    """``send`` adding the anti-framing headers to the answer (see :func:`framed`)."""

    async def send_framed(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = framed(message.get("headers", ()))
        await send(message)

    return send_framed


def framed(headers: Any) -> list[tuple[bytes, bytes]]:
    """An answer's raw headers (lower-case names, as ASGI has them) with the
    anti-framing ones: a ``frame-ancestors`` directive added to the first
    Content-Security-Policy (its repeats dropped) or a policy of its own,
    and X-Frame-Options and X-Content-Type-Options unless already set.
    Done on the raw list: Starlette's header classes cost more than the
    answer of a move.

    >>> [name for name, _ in framed([(b"content-type", b"text/html")])]
    [b'content-type', b'content-security-policy', b'x-frame-options', b'x-content-type-options']
    >>> policy, frame, _ = framed([(b"content-security-policy", b"default-src 'self'"),
    ...                            (b"x-frame-options", b"SAMEORIGIN")])
    >>> policy[1], frame[1]
    (b"default-src 'self'; frame-ancestors 'none'", b'SAMEORIGIN')
    """
    out = list(headers)
    policy = -1
    has_frame = has_sniff = False
    for i, (name, _) in enumerate(out):
        if name == b"content-security-policy" and policy < 0:
            policy = i
        elif name == b"x-frame-options":
            has_frame = True
        elif name == b"x-content-type-options":
            has_sniff = True
    if policy < 0:
        out.append((b"content-security-policy", _FRAME_ANCESTORS))
    elif b"frame-ancestors" not in out[policy][1]:
        # as a header set anew: the first one replaced, its repeats dropped
        out[policy] = (b"content-security-policy", out[policy][1] + b"; " + _FRAME_ANCESTORS)
        out = [h for i, h in enumerate(out)
               if i <= policy or h[0] != b"content-security-policy"]
    if not has_frame:
        out.append((b"x-frame-options", b"DENY"))
    if not has_sniff:
        out.append((b"x-content-type-options", b"nosniff"))
    return out


#: the anti-framing headers of an answer that has none of its own
FRAMING_HEADERS = tuple(framed(()))


def outer(app: ASGIApp, proxies: list[str] | str | None = None) -> ASGIApp:
    """``app`` inside the layer every request passes first: where a request
    comes from a proxy of ``proxies`` (see :func:`trusted_proxies`), its
    client is the one ``X-Forwarded-For`` names.

    >>> type(outer(JSONResponse({}), ["10.0.0.1"])).__name__
    'ProxyHeadersMiddleware'
    """
    if not proxies:
        return app
    # uvicorn types its ASGI callables more narrowly than Starlette; they are the same protocol
    return cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=proxies))


def stacked(app: ASGIApp) -> ASGIApp:
    """``app`` inside the layers of every request that the answerers of a
    live game's requests (:mod:`~remis.service.fast_events`,
    :mod:`~remis.service.fast_games`) pass on: the caller is set, and the
    answer gets the anti-framing headers (those answerers do both for their
    own answers).

    >>> layers = stacked(JSONResponse({}))
    >>> type(layers).__name__, type(layers.app).__name__
    ('Caller', 'Framing')
    """
    return Caller(Framing(app))
