"""Secrets: every state payload a seat receives — each WebSocket frame, each HTTP state and
get-state answer — carries only that seat's private data; spectators get none; the public
action log carries none. Against a real Daphne, through whole games."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from games.engines.registry import get_engine, load_builtin_engines
from games.models import Game
from tests.support.toy_engine import ENGINE as TOY

from .conftest import auth, ensure_wood_and_steel_board, in_db_thread, run_async, toy_game, walk, ws_record

pytestmark = pytest.mark.processes

FORBIDDEN_KEYS = {"secrets", "rng"}  # the engine's whole-table secrets and its RNG


def seed_kept(payload: dict) -> None:
    """A summary names the seed only once the game is finished (games/redaction.py): null before."""
    for _path, key, value in walk(payload):
        if key == "seed":
            assert value is None or payload.get("status") == "finished" or payload.get("game", {}).get("status") == "finished", payload


def distinct_secret_seed(players: int) -> int:
    """A seed whose per-seat secrets all differ (so a leak cannot hide behind a tie)."""
    for seed in range(1, 10_000):
        secrets = TOY.setup(players=[f"p{i}" for i in range(players)], options={"target": 30}, seed=seed)["secrets"]
        if len(set(secrets)) == players:
            return seed
    raise AssertionError("no seed with distinct secrets")


async def record(url: str, code: str, token: str | None, frames: list, stop: asyncio.Event) -> None:
    await ws_record(url, f"/ws/games/{code}/" + (f"?token={token}" if token else ""), frames, stop)


def test_toy_each_seat_sees_only_its_own_secret_everywhere(daphne):
    server = daphne()
    players = 3
    game = toy_game(server.url, players=players, target=30, seed=distinct_secret_seed(players))
    code, tokens = game["code"], game["tokens"]
    secrets = Game.objects.get(code=code).state["secrets"]
    assert len(set(secrets)) == players
    viewers = [*range(players), None]
    token_of = {seat: tokens[seat] for seat in range(players)} | {None: None}
    received: dict = {v: [] for v in viewers}  # viewer -> payloads

    async def scenario():
        frames = {v: [] for v in viewers}
        stop = asyncio.Event()
        listeners = [asyncio.create_task(record(server.ws_url, code, token_of[v], frames[v], stop)) for v in viewers]
        await asyncio.sleep(0.5)
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            state = (await client.get(f"/api/games/{code}/state", headers=auth(tokens[0]))).json()
            while state["status"] == "active":
                turn = state["state"]["turn"]
                r = await client.post(f"/api/games/{code}/commands", json={"cmd": "add", "n": random.randint(1, 3)}, headers=auth(tokens[turn]))
                assert r.status_code == 200, r.text
                received[turn].append(r.json())
                for v in viewers:  # every viewer's HTTP views along the way
                    received[v].append((await client.get(f"/api/games/{code}/state", headers=auth(token_of[v]))).json())
                    got = await client.post(f"/api/games/{code}/commands", json={"cmd": "get-state"}, headers=auth(token_of[v]))
                    if v is not None:
                        received[v].append(got.json())
                state = (await client.get(f"/api/games/{code}/state", headers=auth(tokens[0]))).json()
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*listeners)
        return frames

    frames = run_async(scenario, timeout=120)
    log = httpx.get(f"{server.url}/api/games/{code}/actions").json()
    for v in viewers:
        states = [f for f in frames[v] if f.get("type") == "state"]
        assert states and states[-1]["status"] == "finished"  # followed the whole game live
        received[v] += frames[v]
    checked = 0
    for v in viewers:
        for payload in received[v]:
            seed_kept(payload)
            for path, key, value in walk(payload):
                assert key not in FORBIDDEN_KEYS, (v, path, key)
                if "secret" in key:
                    assert value == (secrets[v] if v is not None else None), (v, path, key, value)
                    checked += 1
                elif isinstance(value, int) and not isinstance(value, bool) and "secret" in str(path):
                    raise AssertionError((v, path, key))
    assert checked >= 4 * 10  # the check really saw the secret field, many times
    for _path, key, value in walk(log):  # the public log carries no secret at all
        assert key not in FORBIDDEN_KEYS | {"seed"} and "secret" not in key, (key, value)


def contracts_in(payload):
    """Every contract-shaped object anywhere in a payload."""
    for _path, _key, value in walk({"root": payload}):
        if isinstance(value, dict) and {"id", "type", "holder", "status", "commodity"} <= value.keys():
            yield value


def test_wood_and_steel_offers_and_private_contracts_stay_with_their_seat(daphne):
    load_builtin_engines()
    try:
        engine = get_engine("wood-and-steel")
    except Exception:
        pytest.skip("the Wood and Steel engine is not available")
    server = daphne()
    players = 3
    ensure_wood_and_steel_board()
    created = httpx.post(f"{server.url}/api/games", json={"kind": "wood-and-steel", "name": "p0"}).json()
    assert "code" in created, created
    code = created["code"]
    tokens = [created["token"]] + [
        httpx.post(f"{server.url}/api/games/{code}/seats", json={"name": f"p{i}"}).json()["token"] for i in range(1, players)
    ]
    assert httpx.post(f"{server.url}/api/games/{code}/start", headers=auth(tokens[0])).status_code == 200
    viewers = [*range(players), None]
    token_of = {seat: tokens[seat] for seat in range(players)} | {None: None}
    public_private = Game.objects.get(code=code).state["options"].get("private_contracts_public", False)
    received: dict = {v: [] for v in viewers}
    moves_wanted = 60

    async def scenario():
        frames = {v: [] for v in viewers}
        stop = asyncio.Event()
        listeners = [asyncio.create_task(record(server.ws_url, code, token_of[v], frames[v], stop)) for v in viewers]
        await asyncio.sleep(0.5)
        rng = random.Random(5)
        moves = 0
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            while moves < moves_wanted:
                game = await in_db_thread(lambda: Game.objects.get(code=code))
                active = engine.active_seats(game.state)
                if game.status != "active" or not active:
                    break
                seat = active[0]
                command = engine.bot_command(game.state, seat=seat, bot="simple", rng=rng)
                r = await client.post(f"/api/games/{code}/commands", json=command, headers=auth(tokens[seat]))
                assert r.status_code == 200, (command, r.text)
                moves += 1
                for v in viewers:
                    received[v].append((await client.get(f"/api/games/{code}/state", headers=auth(token_of[v]))).json())
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*listeners)
        return frames, moves

    frames, moves = run_async(scenario, timeout=240)
    assert moves >= 10
    offers_seen = hidden_seen = 0
    for v in viewers:
        received[v] += [f for f in frames[v] if f.get("type") == "state"]
        assert len(received[v]) >= moves
        for payload in received[v]:
            seed_kept(payload)
            for _path, key, _value in walk(payload):
                assert key not in FORBIDDEN_KEYS, (v, key)
            view = payload["state"]
            for contract in view["offers"]:  # a seat's offers are its own
                assert v is not None and contract["holder"] == v
                offers_seen += 1
            for contract in contracts_in(view):
                if contract["status"] == "offered":
                    assert contract["holder"] == v, (v, contract)
                if contract["type"] == "private" and contract["holder"] != v and not public_private:
                    assert contract["hidden"] is True and contract["commodity"] is None and contract["destination"] is None
                    hidden_seen += 1
            for p in view["players"]:
                if p["seat"] != v and view["phase"] == "ranking":
                    assert p["choices"] is None
    assert offers_seen > 0  # the walk really met per-seat offers
