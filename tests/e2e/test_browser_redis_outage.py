"""A Redis outage at a table, in Chromium: twenty phones on two Daphnes sharing a Redis of the
test's own; Redis is killed, the game goes on over HTTP, Redis comes back, and every phone
ends at the log's version without a reload. (Phones on the Daphne that made a move get it
from that process; the others missed it in the layer and are sent the game afresh by their
process's resync, games/broadcast.py.)"""

from __future__ import annotations

import json

import httpx
import pytest

from .conftest import auth, requires_shared_services, toy_game

pytestmark = [pytest.mark.browser, requires_shared_services()]

PHONES = 20


def _log_version(url: str, code: str) -> int:
    return httpx.get(f"{url}/api/games/{code}/state").json()["version"]


def test_twenty_phones_end_at_the_logs_version_after_redis_dies_and_returns(daphne, private_redis, new_page):
    redis = private_redis()
    env = {"REDIS_URL": redis.url, "JUNCTION_RESYNC_SECONDS": "1"}
    a, b = daphne(extra_env=env), daphne(extra_env=env)
    game = toy_game(a.url, players=2)
    code, tokens = game["code"], game["tokens"]

    phones = []
    for i in range(PHONES):
        server = (a, b)[i % 2]
        phone = new_page(width=360, height=640)
        if i < 2:  # the two players; the others watch
            seat = json.dumps({code: {"token": tokens[i], "seat": i}})
            phone.add_init_script(f"localStorage.setItem('junction.tokens', JSON.stringify({seat}))")
        phone.goto(f"{server.url}/games/{code}/")
        phone.wait_for_selector("#conn[data-state=open]")
        phone.wait_for_selector("body[data-version='1']")
        phone.evaluate("window.__loaded_once = true")
        phones.append(phone)

    def move(seat: int) -> int:
        response = httpx.post(f"{a.url}/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
        return response.json()["version"]

    def everyone_at(version: int) -> None:
        for phone in phones:
            phone.wait_for_selector(f"body[data-version='{version}']", timeout=20_000)

    everyone_at(move(0))  # live through Redis

    redis.proc.kill()  # SIGKILL: gone at once, as a crash would be
    redis.proc.wait()
    for i in range(6):  # the game goes on over HTTP while Redis is down
        version = move((i + 1) % 2)
    assert version == _log_version(a.url, code) == 8
    everyone_at(8)  # phones on b missed these in the layer: their process resyncs them

    redis.start()
    version = move(1)  # and after it is back
    everyone_at(version)
    assert version == _log_version(b.url, code) == 9
    for phone in phones:
        assert phone.evaluate("window.__loaded_once === true"), "no page was reloaded"
