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


def test_send_called_on_an_event_loop_sends_from_that_loop():
    """Outside ``collecting()`` a caller on a loop cannot block on async_to_sync: the
    messages go out from its loop instead."""
    from channels.layers import get_channel_layer

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("game.test-send", channel)
        broadcast.send([("game.test-send", {"type": "relay", "text": "hello"})])
        received = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard("game.test-send", channel)
        return received

    assert asyncio.run(scenario())["text"] == "hello"
