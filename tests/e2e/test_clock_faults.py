"""The clock runner (``manage.py run_clocks``) beside Daphne when Redis restarts under them: a
seat whose time runs out after the restart still goes to a bot, the socket open through the
restart hears it live, and the player takes the seat back over that socket."""

from __future__ import annotations

import asyncio
import signal
from datetime import timedelta

import httpx
import pytest
import websockets
from django.db import connection
from django.utils import timezone

from games.models import Seat
from tests.support.clock_runner import clock_runner

from .conftest import auth, requires_shared_services, run_async, ws_next

pytestmark = [pytest.mark.processes, requires_shared_services()]


def test_a_seat_goes_to_a_bot_and_back_across_a_redis_restart(daphne, private_redis):
    redis = private_redis()
    env = {"REDIS_URL": redis.url}
    server = daphne(extra_env=env)
    runner = clock_runner(tick=0.3, extra_env={**env, "JUNCTION_CLOCK_EXPIRIES_KEEP": "1"})  # the bot keeps the seat at once
    try:
        created = httpx.post(f"{server.url}/api/games", json={
            "kind": "toy", "name": "Ann", "options": {"target": 1000}, "turn_seconds": 60}).json()
        code, ann = created["code"], created["token"]
        bo = httpx.post(f"{server.url}/api/games/{code}/seats", json={"name": "Bo"}).json()["token"]
        assert httpx.post(f"{server.url}/api/games/{code}/start", headers=auth(ann)).status_code == 200

        def time_runs_out() -> None:  # Ann's deadline passes (set in the database: no waiting)
            try:
                Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
            finally:
                connection.close()

        async def scenario() -> tuple[dict, dict]:
            async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={bo}") as watcher:
                await ws_next(watcher, lambda m: m["type"] == "state")
                await asyncio.to_thread(redis.restart)
                await asyncio.to_thread(time_runs_out)
                handed = await ws_next(watcher, lambda m: m["type"] == "game" and m["game"]["seats"][0]["away"], timeout=20)
            async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={ann}") as phone:
                await ws_next(phone, lambda m: m["type"] == "state")
                await phone.send('{"cmd": "seat-return", "command_id": "back"}')
                back = await ws_next(phone, lambda m: m["type"] in ("result", "error"))
            return handed, back

        handed, back = run_async(scenario, timeout=60)
        assert handed["game"]["seats"][0]["is_bot"] is True
        assert back["type"] == "result", back
        assert [e["type"] for e in back["events"]] == ["seat-returned"]
        seats = httpx.get(f"{server.url}/api/games/{code}").json()["seats"]
        assert (seats[0]["away"], seats[0]["is_bot"]) == (False, False)
    finally:
        runner.send_signal(signal.SIGTERM)
        runner.wait(timeout=10)
