"""Broadcast ordering on the event loop."""

from __future__ import annotations

import asyncio
import socket

from games import broadcast


def test_the_layer_publish_resumes_after_the_writes_the_loop_has_due():
    """Daphne buffers a frame and writes it when the loop sees the socket writable; the
    channel layer's publishes must not run before that (they would delay every local frame)."""
    order = []

    async def scenario():
        loop = asyncio.get_running_loop()
        a, b = socket.socketpair()
        b.setblocking(False)
        try:
            def writable():
                loop.remove_writer(a.fileno())
                a.send(b"frame")
                order.append("written")

            loop.add_writer(a.fileno(), writable)  # as a buffered transport.write does
            await broadcast._after_pending_writes()
            order.append("publish")
            assert b.recv(16) == b"frame"  # already there
        finally:
            a.close()
            b.close()

    asyncio.run(scenario())
    assert order == ["written", "publish"]
