"""Two Daphne processes sharing PostgreSQL and Redis: a command posted to one
reaches WebSocket clients connected to the other."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from .conftest import requires_shared_services, run_async

pytestmark = [pytest.mark.processes, requires_shared_services()]


async def next_state(ws, version: int, timeout: float = 10) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "state" and message["version"] >= version:
                return message


def test_command_on_one_process_reaches_sockets_on_the_other(daphne):
    a, b = daphne(), daphne()
    created = httpx.post(f"{a.url}/api/games", json={"kind": "toy", "name": "Ann", "options": {"target": 100}}).json()
    code = created["code"]
    joined = httpx.post(f"{b.url}/api/games/{code}/seats", json={"name": "Bo"}).json()
    assert httpx.post(f"{a.url}/api/games/{code}/start", headers={"Authorization": f"Bearer {created['host_token']}"}).status_code == 200

    async def scenario():
        async with websockets.connect(f"{b.ws_url}/ws/games/{code}/?token={joined['token']}") as on_b, \
                websockets.connect(f"{a.ws_url}/ws/games/{code}/") as watcher_on_a:
            first = await next_state(on_b, 1)
            assert first["seat"] == 1 and first["version"] == 1
            await next_state(watcher_on_a, 1)
            async with httpx.AsyncClient() as client:
                response = await client.post(
                    f"{a.url}/api/games/{code}/commands",
                    json={"cmd": "add", "n": 3},
                    headers={"Authorization": f"Bearer {created['host_token']}"},
                )
            assert response.status_code == 200 and response.json()["version"] == 2
            seen_b = await next_state(on_b, 2)
            seen_a = await next_state(watcher_on_a, 2)
            assert seen_b["state"]["counter"] == 3 and seen_b["legal_commands"]
            assert seen_a["state"]["counter"] == 3 and seen_a["seat"] is None
            # And the other way round: a move sent over B's socket reaches A's watcher.
            await on_b.send(json.dumps({"cmd": "add", "n": 1, "command_id": "from-b"}))
            assert (await next_state(watcher_on_a, 3))["state"]["counter"] == 4

    run_async(scenario)
