"""Outages answer what they are, against a real Daphne: a WebSocket asked for while the channel
layer's Redis is down (down before the handshake, not killed during a game) is accepted, told
``unavailable`` in the usual error frame and closed 1013 ("try again later"), never Daphne's
HTTP 500; HTTP goes on, and sockets open again once Redis is back."""

from __future__ import annotations

import json

import httpx
import pytest
import websockets

from .conftest import run_async, toy_game, ws_state

pytestmark = pytest.mark.processes


async def handshake(url: str) -> tuple[object, object]:
    """(the first frame or None, the close code or the refused handshake's HTTP status)."""
    try:
        async with websockets.connect(url, open_timeout=15) as ws:
            try:
                first = json.loads(await ws.recv())
            except websockets.ConnectionClosed:
                first = None
            try:
                await ws.recv()
            except websockets.ConnectionClosed:
                pass
            return first, ws.close_code
    except websockets.InvalidStatus as exc:
        return None, exc.response.status_code


def test_a_socket_asked_for_while_redis_is_down_is_closed_1013_with_an_error_frame(daphne, private_redis):
    redis = private_redis()
    server = daphne(extra_env={"REDIS_URL": redis.url})
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    redis.stop()  # down before any socket asks

    for path in (f"/ws/games/{code}/?token={tokens[0]}", f"/ws/games/{code}/", "/ws/lobby/"):
        first, closed = run_async(lambda path=path: handshake(f"{server.ws_url}{path}"), timeout=60)
        assert closed == 1013, (path, first, closed)
        assert first is not None and first["type"] == "error", (path, first)
        assert first["error"]["code"] == "unavailable" and first["error"]["message"], (path, first)
    # HTTP is not the channel layer's: reads and moves go on.
    state = httpx.get(f"{server.url}/api/games/{code}/state", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert state.status_code == 200 and state.json()["version"] == 1
    moved = httpx.post(f"{server.url}/api/games/{code}/commands", json={"cmd": "add", "n": 1},
                       headers={"Authorization": f"Bearer {tokens[0]}"})
    assert moved.status_code == 200, moved.text
    assert "Exception inside application" not in server.log.read_text()

    redis.start()  # back: sockets open again

    async def back():
        """Reconnect as the page does after a 1013 ("try again later"): a few tries, a moment
        apart. Each refusal's frame is kept, so a failure says what the server answered."""
        import asyncio

        refusals = []
        for _ in range(5):
            async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[1]}", open_timeout=15) as ws:
                try:
                    first = json.loads(await asyncio.wait_for(ws.recv(), 15))
                except websockets.ConnectionClosed:
                    first = None
                if first is not None and first.get("type") != "error":
                    return (await ws_state(ws, 2, timeout=15))["version"], refusals
                try:
                    await ws.recv()
                except websockets.ConnectionClosed:
                    pass
                refusals.append((first, ws.close_code))
            await asyncio.sleep(0.5)
        return None, refusals

    version, refusals = run_async(back, timeout=120)
    assert version == 2, refusals
    assert all(closed == 1013 and frame and frame["type"] == "error" for frame, closed in refusals), refusals
