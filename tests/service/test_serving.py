"""uvicorn as the service runs it: a main loop that ticks once a second (an
idle server wakes less) yet stops at once on a signal."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import uvicorn

from remis.service.serving import AnnouncingServer


def test_an_idle_server_ticks_only_when_a_signal_wakes_it() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # never called
        raise AssertionError

    server = AnnouncingServer(uvicorn.Config(app), "ready")
    server.TICK = 3600.0  # no tick of its own comes before the test ends
    ticks = []
    on_tick = server.on_tick

    async def counted(counter: int) -> bool:
        ticks.append(counter)
        return await on_tick(counter)

    server.on_tick = counted  # type: ignore[method-assign]

    async def run() -> None:
        # half a second idle (uvicorn's own loop ticks ten times a second), then a signal
        asyncio.get_running_loop().call_later(0.5, server.handle_exit, signal.SIGTERM, None)
        await asyncio.wait_for(server.main_loop(), 300)

    asyncio.run(run())
    assert server.should_exit
    assert len(ticks) == 2  # the first, and the one the signal woke
    assert server.server_state.default_headers[0][0] == b"date"  # as uvicorn's tick sets it
