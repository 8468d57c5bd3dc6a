"""Faults against real processes: simultaneous moves, a Daphne killed mid-game, Redis
restarted under connected clients, a phone that slept through 50 moves; HTTP clients poll
state and log throughout the kill and the Redis restart.

What must hold every time: each command gets its result or an explicit conflict, no
committed move is lost, the log stays gapless, and clients resync by version."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
from collections import Counter
from contextlib import contextmanager

import httpx
import pytest
import websockets

from .conftest import auth, requires_shared_services, run_async, toy_game, ws_command, ws_state

pytestmark = pytest.mark.processes

EXPLICIT_CONFLICTS = {"stale-version", "not-your-turn", "busy"}


def log_of(url: str, code: str, after: int = 0) -> list[dict]:
    response = httpx.get(f"{url}/api/games/{code}/actions", params={"after": after})
    assert response.status_code == 200
    return response.json()


def state_of(url: str, code: str, token: str | None = None) -> dict:
    return httpx.get(f"{url}/api/games/{code}/state", headers=auth(token)).json()


def assert_gapless(actions: list[dict], last: int) -> None:
    assert [a["sequence"] for a in actions] == list(range(1, last + 1))


@contextmanager
def http_traffic(url: str, code: str, tokens: list[str], clients: int = 4):
    """HTTP clients polling the game's state and its log while the fault happens (as phones
    and third-party clients do); yields the statuses they got (a refused connection while
    the process is down counts as ``"refused"``)."""
    statuses: Counter = Counter()
    stop = threading.Event()

    def poll(i: int) -> None:
        with httpx.Client(timeout=10) as client:
            while not stop.is_set():
                try:
                    r = client.get(f"{url}/api/games/{code}/state", headers=auth(tokens[i % len(tokens)]))
                    statuses[r.status_code] += 1
                    r = client.get(f"{url}/api/games/{code}/actions", params={"after": max(0, r.json().get("version", 1) - 3)})
                    statuses[r.status_code] += 1
                except httpx.HTTPError:
                    statuses["refused"] += 1
                    stop.wait(0.1)

    threads = [threading.Thread(target=poll, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    try:
        yield statuses
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=15)


def test_simultaneous_moves_each_get_a_result_or_an_explicit_conflict(daphne):
    shared = bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))
    servers = [daphne(), daphne()] if shared else [daphne()]
    game = toy_game(servers[0].url)
    code, tokens = game["code"], game["tokens"]
    rounds, per_seat = 8, 6  # per round: 6 clients per seat (3 WebSocket, 3 HTTP), all at once

    async def scenario():
        sockets = []  # (seat, ws)
        for seat, token in enumerate(tokens):
            for i in range(per_seat // 2):
                server = servers[i % len(servers)]
                ws = await websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={token}")
                await ws_state(ws, 1)
                sockets.append((seat, ws))
        answers = []  # (command_id, seat, answer)
        async with httpx.AsyncClient(timeout=30) as client:

            async def over_http(seat, i, body):
                server = servers[i % len(servers)]
                r = await client.post(f"{server.url}/api/games/{code}/commands", json=body, headers=auth(tokens[seat]))
                data = r.json()
                if r.status_code == 200:
                    return {"type": "result", **data}
                assert r.status_code in (400, 409), (r.status_code, data)
                return {"type": "error", **data}

            version = 1
            for rnd in range(rounds):
                jobs, ids = [], []
                for k, (seat, ws) in enumerate(sockets):
                    body = {"cmd": "add", "n": 1, "command_id": f"r{rnd}-ws{k}"}
                    if k % 2:
                        body["expected_version"] = version
                    jobs.append(ws_command(ws, body, timeout=30))
                    ids.append((body["command_id"], seat))
                for seat in range(len(tokens)):
                    for i in range(per_seat - per_seat // 2):
                        body = {"cmd": "add", "n": 1, "command_id": f"r{rnd}-http{seat}-{i}"}
                        if i % 2:
                            body["expected_version"] = version
                        jobs.append(over_http(seat, i, body))
                        ids.append((body["command_id"], seat))
                results = await asyncio.gather(*jobs)
                answers += [(cid, seat, answer) for (cid, seat), answer in zip(ids, results, strict=True)]
                won = [a for a in results if a["type"] == "result"]
                assert won, "somebody must win each round"
                version = max(a["version"] for a in won)
        for _, ws in sockets:
            await ws.close()
        return answers

    answers = run_async(scenario, timeout=180)
    assert len(answers) == rounds * per_seat * len(tokens)  # nobody left without an answer
    committed = {}
    for command_id, seat, answer in answers:
        if answer["type"] == "result":
            assert answer["status"] == "ok" and answer["response"] == "add-response"
            committed[command_id] = (seat, answer["version"])
        else:
            assert answer.get("status", "error") == "error"  # WebSocket errors carry type only
            assert answer["error"]["code"] in EXPLICIT_CONFLICTS, answer
            assert answer["error"]["message"]
    versions = sorted(v for _, v in committed.values())
    assert versions == list(range(2, 2 + len(committed)))  # one version per committed command
    actions = log_of(servers[0].url, code)
    assert_gapless(actions, 1 + len(committed))
    assert all(a["command"] == {"cmd": "add", "n": 1} for a in actions[1:])
    # Every committed command is in the log at the version it was told, by its seat.
    for seat, version in committed.values():
        assert actions[version - 1]["seat"] == seat
    final = state_of(servers[0].url, code, tokens[0])
    assert final["version"] == 1 + len(committed) and final["state"]["counter"] == len(committed)


def test_daphne_killed_mid_game_loses_no_committed_move(daphne):
    first = daphne()
    port = first.port
    game = toy_game(first.url)
    code, tokens = game["code"], game["tokens"]

    async def play(url, moves, start_version, tag):
        """Alternate moves over two seat sockets; returns the acknowledged versions."""
        acked = []
        async with websockets.connect(f"{url}/ws/games/{code}/?token={tokens[0]}") as s0, \
                websockets.connect(f"{url}/ws/games/{code}/?token={tokens[1]}") as s1:
            seats = [s0, s1]
            snapshot = await ws_state(s0, 0)
            assert snapshot["version"] == start_version
            version = start_version
            for i in range(moves):
                mover = (version - 1) % 2  # start is version 1, seat 0 moves first
                answer = await ws_command(seats[mover], {"cmd": "add", "n": 1, "command_id": f"{tag}{i}"})
                assert answer["type"] == "result", answer
                version = answer["version"]
                acked.append(version)
                other = await ws_state(seats[1 - mover], version)
                assert other["version"] == version
        return acked

    traffic = http_traffic(first.url, code, tokens)  # the same port before and after the kill
    statuses = traffic.__enter__()
    acked = run_async(lambda: play(first.ws_url, 10, 1, "a"), timeout=60)
    assert acked == list(range(2, 12))

    async def move_then_die():
        """A move in flight when the process dies: acknowledged or not, the log decides."""
        async with websockets.connect(f"{first.ws_url}/ws/games/{code}/?token={tokens[0]}") as s0:
            await ws_state(s0, 11)
            await s0.send(json.dumps({"cmd": "add", "n": 1, "command_id": "in-flight"}))
            os.kill(first.proc.pid, signal.SIGKILL)
            try:
                async with asyncio.timeout(5):
                    while True:
                        message = json.loads(await s0.recv())
                        if message.get("command_id") == "in-flight":
                            return message
            except (websockets.ConnectionClosed, TimeoutError):
                return None

    in_flight = run_async(move_then_die, timeout=30)
    first.proc.wait(timeout=10)
    second = daphne(port=port)  # same address: clients reconnect where they were

    actions = log_of(second.url, code)
    last = actions[-1]["sequence"]
    assert_gapless(actions, last)
    assert last in (11, 12)  # the in-flight move either committed or not, never half
    if in_flight is not None and in_flight["type"] == "result":
        assert last == 12 and in_flight["version"] == 12
    for version in acked:  # every acknowledged move survived
        assert actions[version - 1]["seat"] == (version - 2) % 2

    async def resync():
        snapshots = []
        for token in (*tokens, None):
            query = f"?token={token}" if token else ""
            async with websockets.connect(f"{second.ws_url}/ws/games/{code}/{query}") as ws:
                snapshots.append(await ws_state(ws, 0))
        return snapshots

    snapshots = run_async(resync, timeout=30)
    assert [s["version"] for s in snapshots] == [last] * 3
    assert all(s["state"]["counter"] == last - 1 for s in snapshots)
    # Play goes on from the same version.
    acked_after = run_async(lambda: play(second.ws_url, 4, last, "b"), timeout=60)
    assert acked_after == list(range(last + 1, last + 5))
    assert_gapless(log_of(second.url, code), last + 4)
    traffic.__exit__(None, None, None)
    assert statuses[200] > 20 and set(statuses) <= {200, "refused"}, statuses


@requires_shared_services()
def test_redis_restart_loses_no_move_and_clients_catch_up_by_version(daphne, private_redis):
    redis = private_redis()
    env = {"REDIS_URL": redis.url}
    a, b = daphne(extra_env=env), daphne(extra_env=env)
    game = toy_game(a.url)
    code, tokens = game["code"], game["tokens"]
    phones = [(b, tokens[0]), (b, tokens[1]), (a, None), (b, None)]  # two seats and two watchers

    async def scenario():
        sockets = [await websockets.connect(f"{s.ws_url}/ws/games/{code}/" + (f"?token={t}" if t else "")) for s, t in phones]
        seen = [(await ws_state(ws, 1))["version"] for ws in sockets]
        async with httpx.AsyncClient(timeout=30) as client:

            async def move(seat):
                r = await client.post(f"{a.url}/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=auth(tokens[seat]))
                assert r.status_code == 200, r.text
                return r.json()["version"]

            for i in range(4):  # before: everyone follows live
                version = await move(i % 2)
                for k, ws in enumerate(sockets):
                    seen[k] = (await ws_state(ws, version))["version"]
            assert seen == [5] * 4

            await asyncio.to_thread(redis.stop)
            committed = [await move(i % 2) for i in range(4)]  # Redis down: moves still commit
            assert committed == [6, 7, 8, 9]
            await asyncio.to_thread(redis.start)

            # Every open socket is brought to the log's version without reconnecting: those on
            # the process that moved got the moves from it, the others are resynced by theirs.
            for ws in sockets:
                assert (await ws_state(ws, 9, timeout=15))["version"] == 9
            # Each phone catches up: the missing actions come from the log, by version.
            for k in range(len(sockets)):
                r = await client.get(f"{phones[k][0].url}/api/games/{code}/actions", params={"after": seen[k]})
                missed = r.json()
                assert [m["sequence"] for m in missed] == list(range(seen[k] + 1, 10))
            # And they are live again: reconnecting (as the browser client does when its socket
            # dropped) gives the current version, and the next move reaches everyone.
            live = []
            for k, ws in enumerate(sockets):
                try:
                    await ws.close()
                except websockets.ConnectionClosed:
                    pass
                server, token = phones[k]
                fresh = await websockets.connect(f"{server.ws_url}/ws/games/{code}/" + (f"?token={token}" if token else ""))
                assert (await ws_state(fresh, 0))["version"] == 9
                live.append(fresh)
            version = await move(0)  # eight moves since the start: seat 0's turn
            for ws in live:
                assert (await ws_state(ws, version))["version"] == version == 10
                await ws.close()

    with http_traffic(b.url, code, tokens) as statuses:
        run_async(scenario, timeout=120)
    assert_gapless(log_of(a.url, code), 10)
    assert statuses[200] > 20 and set(statuses) == {200}, statuses


def test_phone_that_slept_through_50_moves_fetches_only_the_missing_actions(daphne):
    server = daphne()
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]

    async def before_sleep():
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[1]}") as ws:
            return (await ws_state(ws, 1))["version"]

    slept_at = run_async(before_sleep)
    with httpx.Client(base_url=server.url) as client:
        for i in range(50):
            r = client.post(f"/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=auth(tokens[i % 2]))
            assert r.status_code == 200, r.text
        missed = client.get(f"/api/games/{code}/actions", params={"after": slept_at}).json()
        everything = client.get(f"/api/games/{code}/actions", params={"after": 0}).json()
    assert [m["sequence"] for m in missed] == list(range(slept_at + 1, slept_at + 51))
    assert missed == everything[slept_at:]  # exactly the tail, nothing it already had
    assert all(m["command"] == {"cmd": "add", "n": 1} for m in missed)

    async def wake():
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[1]}") as ws:
            return await ws_state(ws, 0)

    woke = run_async(wake)
    assert woke["version"] == slept_at + 50 and woke["state"]["counter"] == 50
