"""One write path behind the three ways in: the same Runerail commands sent through
``POST /api/games/{code}/commands``, the server notes' ``POST /api`` and the WebSocket give the same
answers, the same action logs and the same games."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import services
from games.engines.runerail import ENGINE
from games.models import Action, Game

from .factories import actor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SEED = 4242
NAMES = ["Ann", "Bo", "Cy"]


def new_game() -> tuple[str, dict[int, str]]:
    """A 3-seat Runerail game with a fixed seed and the seated turn order, started."""
    created = services.game_create(kind="runerail", options={"turn_order": "seated"}, host_name=NAMES[0])
    code = created.game.code
    Game.objects.filter(code=code).update(seed=SEED)
    tokens = {0: created.host_token}
    for name in NAMES[1:]:
        seat, token, _ = services.seat_join(code=code, name=name)
        tokens[seat.index] = token
    services.game_start(code=code, actor=actor(code, created.host_token))
    return code, tokens


def script() -> list[tuple[int, dict]]:
    """The commands sent: the planner's draft and first build turns, one section at a time sent as the
    notes' ``build-track`` where the planner builds (so that command goes through all three too)."""
    state = ENGINE.setup(players=NAMES, options=ENGINE.normalize_options({"turn_order": "seated"}), seed=SEED)
    out: list[tuple[int, dict]] = []
    rng = random.Random(1)
    while len(out) < 14:
        seat = ENGINE.active_seats(state)[0]
        command = ENGINE.bot_command(state, seat=seat, bot="planner", rng=rng)
        if command["cmd"] == "build":
            command = {"cmd": "build-track", "start": command["path"][0], "end": command["path"][1]}
        ENGINE.apply(state, seat=seat, command=command)
        out.append((seat, command))
    assert {c["cmd"] for _, c in out} >= {"keep-foreman", "build-track"}
    return out


def http(path: str, body: dict, token: str) -> tuple[int, dict]:
    response = Client().post(path, data=json.dumps(body), content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    return response.status_code, response.json()


async def socket(code: str, token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/games/{code}/?token={token}",
                                 headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    ok, _ = await comm.connect()
    assert ok
    return comm


async def result_of(comm: WebsocketCommunicator, command_id: str) -> dict:
    while True:
        message = json.loads(await comm.receive_from(timeout=5))
        if message.get("command_id") == command_id and message["type"] in ("result", "error"):
            return message


def log_of(code: str) -> list[tuple[int, int | None, dict, list]]:
    return [(a.sequence, a.seat, a.command, a.events) for a in Action.objects.filter(game__code=code).order_by("sequence")]


async def test_the_commands_route_post_api_and_the_websocket_are_one_write_path():
    steps = await database_sync_to_async(script)()
    games = [await database_sync_to_async(new_game)() for _ in range(3)]
    (c_route, t_route), (c_notes, t_notes), (c_ws, t_ws) = games
    sockets = {seat: await socket(c_ws, token) for seat, token in t_ws.items()}
    try:
        for n, (seat, command) in enumerate(steps):
            status, by_route = await database_sync_to_async(http)(f"/api/games/{c_route}/commands", command, t_route[seat])
            assert status == 200, by_route
            status, by_notes = await database_sync_to_async(http)(
                "/api", {**command, "game": c_notes, "player_id": seat}, t_notes[seat])
            assert status == 200, by_notes
            await sockets[seat].send_to(text_data=json.dumps({**command, "command_id": f"c{n}"}))
            by_ws = await result_of(sockets[seat], f"c{n}")
            assert by_ws["type"] == "result", by_ws
            assert by_route == by_notes == {k: by_ws[k] for k in ("response", "status", "version", "events")}
            assert by_route["response"] == f"{command['cmd']}-response" and by_route["status"] == "ok"
    finally:
        for comm in sockets.values():
            await comm.disconnect()
    logs = [await database_sync_to_async(log_of)(code) for code, _ in games]
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) == len(steps) + 1
    states = [await database_sync_to_async(lambda c=code: Game.objects.get(code=c).state)() for code, _ in games]
    assert states[0] == states[1] == states[2]
    assert any(owner is not None for owner in states[0]["rail"]["track"].values())


async def test_a_refusal_is_the_same_error_every_way_and_changes_nothing():
    code, tokens = await database_sync_to_async(new_game)()
    off_turn = {"cmd": "keep-foreman", "foreman": None}
    status, by_route = await database_sync_to_async(http)(f"/api/games/{code}/commands", off_turn, tokens[1])
    status2, by_notes = await database_sync_to_async(http)("/api", {**off_turn, "game": code, "player_id": 1}, tokens[1])
    comm = await socket(code, tokens[1])
    try:
        await comm.send_to(text_data=json.dumps({**off_turn, "command_id": "x1"}))
        by_ws = await result_of(comm, "x1")
    finally:
        await comm.disconnect()
    assert status == status2 == 400, (by_route, by_ws)
    assert by_route == by_notes and by_route["error"]["code"] == "not-your-turn", by_route
    assert by_ws["type"] == "error", by_ws
    assert by_ws["error"] == by_route["error"], by_ws
    game = await database_sync_to_async(Game.objects.get)(code=code)
    assert game.version == 1
