"""Abuse against a real Daphne: oversized, malformed and binary WebSocket frames, a seat
token used for another seat or another game, a spectator trying to act, a join flood.
Every one gets a clear error and the game is unchanged."""

from __future__ import annotations

import asyncio
import json
import os

import httpx
import pytest
import websockets

from .conftest import auth, run_async, toy_game, ws_next, ws_state

pytestmark = pytest.mark.processes


def snapshot(url: str, code: str) -> tuple:
    state = httpx.get(f"{url}/api/games/{code}/state").json()
    actions = httpx.get(f"{url}/api/games/{code}/actions").json()
    return state["version"], state["state"], [a["sequence"] for a in actions]


async def next_error(ws, timeout: float = 10) -> dict:
    return await ws_next(ws, lambda m: m.get("type") == "error", timeout)


def test_bad_websocket_frames_get_clear_errors_and_change_nothing(daphne):
    server = daphne()
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    before = snapshot(server.url, code)
    cases = [
        ("x" * (64 * 1024 + 1), "payload-too-large"),
        (json.dumps({"cmd": "add", "n": 1, "pad": "y" * (512 * 1024)}), "payload-too-large"),
        ("{not json", "malformed-json"),
        ("\x00\xff\ufffe", "malformed-json"),
        ("[1, 2, 3]", "invalid-request"),
        ('"add"', "invalid-request"),
        ("null", "invalid-request"),
        (json.dumps({"n": 1}), "invalid-request"),
        (json.dumps({"cmd": 7}), "invalid-request"),
        (json.dumps({"cmd": "add", "n": 1, "expected_version": "soon"}), "invalid-request"),
        (json.dumps({"cmd": "add", "n": 99}), "invalid-command"),
        (json.dumps({"cmd": "teleport"}), "unknown-command"),
        (json.dumps({"cmd": "add", "n": 1, "command_id": ["not", "a", "string"]}), "invalid-request"),
    ]

    async def scenario():
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[0]}", max_size=None) as ws:
            await ws_state(ws, 1)
            answers = []
            for frame, _ in cases:
                await ws.send(frame)
                answers.append(await next_error(ws))
            await ws.send(b"\x01\x02binary")
            answers.append(await next_error(ws))
            # The socket survived all of it and still answers.
            await ws.send(json.dumps({"cmd": "get-state"}))
            alive = await ws_state(ws, 1)
            return answers, alive

    answers, alive = run_async(scenario)
    expected = [code for _, code in cases] + ["binary-not-supported"]
    assert [a["error"]["code"] for a in answers] == expected
    assert all(a["error"]["message"] for a in answers)
    assert alive["version"] == 1
    assert snapshot(server.url, code) == before


def test_frame_over_daphnes_message_limit_closes_only_that_socket(daphne):
    """Daphne refuses messages over 1 MiB at the protocol level (close 1009, or a reset
    while the client is still sending): that socket goes, the server and game stay."""
    server = daphne()
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    before = snapshot(server.url, code)

    async def scenario():
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[0]}", max_size=None) as ws:
            await ws_state(ws, 1)
            try:
                await ws.send("z" * (2 * 1024 * 1024))
                await asyncio.wait_for(ws.wait_closed(), 10)
            except (websockets.ConnectionClosed, ConnectionResetError):
                pass
            closed = ws.close_code
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[0]}") as ws:
            again = await ws_state(ws, 1)
            await ws.send(json.dumps({"cmd": "add", "n": 2, "command_id": "after"}))
            result = await ws_next(ws, lambda m: m.get("command_id") == "after")
        return closed, again, result

    closed, again, result = run_async(scenario)
    assert closed in (1009, 1006, None)  # too big, or dropped mid-send
    assert again["version"] == before[0]
    assert result["type"] == "result" and result["version"] == before[0] + 1
    assert snapshot(server.url, code)[2] == before[2] + [before[0] + 1]


def test_tokens_only_act_for_their_own_seat_and_game(daphne):
    server = daphne()
    game = toy_game(server.url)
    other = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    before = snapshot(server.url, code)

    async def scenario():
        out = {}
        # Another game's seat token: refused at connect with 4403.
        ws = await websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={other['tokens'][0]}")
        out["wrong-game"] = await next_error(ws)
        await asyncio.wait_for(ws.wait_closed(), 10)
        out["wrong-game-close"] = ws.close_code
        # A made-up token: 4401.
        ws = await websockets.connect(f"{server.ws_url}/ws/games/{code}/?token=not-a-token")
        out["invalid"] = await next_error(ws)
        await asyncio.wait_for(ws.wait_closed(), 10)
        out["invalid-close"] = ws.close_code
        # Seat 1 trying to play seat 0's turn, even naming seat 0 in the body.
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[1]}") as seat1:
            first = await ws_state(seat1, 1)
            out["seat1-view"] = first["seat"]
            await seat1.send(json.dumps({"cmd": "add", "n": 1, "seat": 0, "command_id": "steal"}))
            out["steal"] = await next_error(seat1)
        # A spectator (no token) trying to act.
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/") as watcher:
            assert (await ws_state(watcher, 1))["seat"] is None
            await watcher.send(json.dumps({"cmd": "add", "n": 1, "command_id": "watcher"}))
            out["spectator"] = await next_error(watcher)
        return out

    out = run_async(scenario)
    assert out["wrong-game"]["error"]["code"] == "wrong-game" and out["wrong-game-close"] == 4403
    assert out["invalid"]["error"]["code"] == "invalid-token" and out["invalid-close"] == 4401
    assert out["seat1-view"] == 1
    # "seat" is no argument of "add": refused by the command's spec before the rules run
    assert out["steal"]["error"]["code"] == "invalid-command" and out["steal"]["command_id"] == "steal"
    assert out["spectator"]["error"]["code"] == "token-required"

    with httpx.Client(base_url=server.url) as client:
        commands = f"/api/games/{code}/commands"
        wrong_game = client.post(commands, json={"cmd": "add", "n": 1}, headers=auth(other["tokens"][0]))
        assert (wrong_game.status_code, wrong_game.json()["error"]["code"]) == (403, "wrong-game")
        steal = client.post(commands, json={"cmd": "add", "n": 1, "seat": 0}, headers=auth(tokens[1]))
        assert (steal.status_code, steal.json()["error"]["code"]) == (400, "invalid-command")
        plain = client.post(commands, json={"cmd": "add", "n": 1}, headers=auth(tokens[1]))
        assert (plain.status_code, plain.json()["error"]["code"]) == (400, "not-your-turn")
        spectator = client.post(commands, json={"cmd": "add", "n": 1})
        assert (spectator.status_code, spectator.json()["error"]["code"]) == (401, "token-required")
        # Another seat's token cannot read seat 0's view: it gets its own.
        assert client.get(f"/api/games/{code}/state", headers=auth(tokens[1])).json()["seat"] == 1
        # Re-joining with a seat token gives that seat back, never another.
        again = client.post(f"/api/games/{code}/seats", json={"name": "x"}, headers=auth(tokens[1]))
        assert again.status_code == 200 and again.json()["seat"] == 1 and again.json()["token"] is None
        # Another game's host token cannot start or act here.
        start = client.post(f"/api/games/{code}/start", headers=auth(other["host_token"]))
        assert start.status_code == 403
    assert snapshot(server.url, code) == before


def test_join_flood_is_rate_limited_with_429(daphne, private_redis):
    # Its own cache (a private Redis on the services pass, the process's memory otherwise),
    # so the flood neither sees nor disturbs other tests' counters.
    env = {"JUNCTION_JOIN_RATE": "5/min"}
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = private_redis().url
    server = daphne(extra_env=env)
    created = httpx.post(f"{server.url}/api/games", json={"kind": "toy", "name": "host"}).json()
    code = created["code"]

    async def flood():
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            return await asyncio.gather(
                *(client.post(f"/api/games/{code}/seats", json={"name": f"bot{i}"}) for i in range(25))
            )

    responses = run_async(flood)
    statuses = [r.status_code for r in responses]
    assert statuses.count(429) >= 20  # at most 5 per minute get through
    assert set(statuses) <= {201, 409, 429}
    for r in responses:
        if r.status_code == 429:
            body = r.json()
            assert body["status"] == "error" and body["error"]["code"] == "rate-limited" and body["error"]["message"]
            assert int(r.headers.get("Retry-After", "1")) > 0
    seats = httpx.get(f"{server.url}/api/games/{code}").json()["seats"]
    assert len(seats) == 1 + statuses.count(201) <= 4  # the flood seated no more than it was told
    # Watching and playing are not joins: still answered.
    assert httpx.get(f"{server.url}/api/games/{code}").status_code == 200
