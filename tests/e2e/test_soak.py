"""Ordinary traffic against real Daphne processes: more concurrent HTTP requests than a
process has database connections get answers or 503, never 500, and the process never holds
more connections than its pool; a minute of mixed use (sockets playing, HTTP polling, API
clients) through a killed Daphne and a restarted Redis loses and duplicates nothing.
(The full-size soak with printed figures: bench/bench_soak.py.)"""

from __future__ import annotations

import asyncio
import os
import uuid

import httpx
import pytest
from django.db import connection

from bench.common import UNLIMITED, started_game
from bench.soak import Cluster, ConnectionWatch, daphne_env, soak

from .conftest import auth, database_env, toy_game

pytestmark = pytest.mark.processes


def _shared_services() -> bool:
    return bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))


def _database_url() -> str | None:
    return database_env().get("DATABASE_URL") or None if connection.vendor == "postgresql" else None


def test_http_above_the_pool_size_is_answered_or_503_never_500(daphne):
    prefix = f"junction-pool-{uuid.uuid4().hex[:8]}"
    server = daphne(extra_env={**UNLIMITED, "JUNCTION_DB_POOL_SIZE": "2", "JUNCTION_DB_POOL_TIMEOUT": "0.3",
                               "PGAPPNAME": prefix})
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]

    async def client(i: int, http: httpx.AsyncClient) -> list[httpx.Response]:
        out = []
        for k in range(8):
            which = (i + k) % 3
            if which == 0:
                out.append(await http.get(f"{server.url}/api/games/{code}/state", headers=auth(tokens[i % 2])))
            elif which == 1:
                out.append(await http.get(f"{server.url}/api/games/{code}/actions", params={"after": 0}))
            else:
                body = {"cmd": "add", "n": 1, "command_id": f"c{i}-{k}"}
                out.append(await http.post(f"{server.url}/api/games/{code}/commands", json=body, headers=auth(tokens[i % 2])))
        return out

    async def scenario():
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            return [r for rs in await asyncio.gather(*(client(i, http) for i in range(40))) for r in rs]

    database_url = _database_url()
    if database_url:
        with ConnectionWatch(database_url, prefix) as watch:
            responses = asyncio.run(scenario())
    else:
        responses = asyncio.run(scenario())
    statuses = {r.status_code for r in responses}
    assert statuses <= {200, 400, 409, 503}, statuses
    assert sum(r.status_code == 200 for r in responses) >= 40
    for r in responses:
        assert r.headers["content-type"].startswith("application/json")
        if r.status_code == 503:
            # No connection in time, or no turn in time (games/admission.py): either way nothing was done.
            assert r.json()["error"]["code"] in ("database-busy", "server-busy") and r.headers["Retry-After"] == "1"
    if database_url:
        assert 1 <= watch.peak_total <= 2 + 1  # the pool, and the event loop's own connection


def test_a_minute_of_mixed_traffic_through_a_kill_and_a_redis_restart(daphne, private_redis):
    """Two Daphnes sharing a Redis of the test's own on PostgreSQL; one Daphne on SQLite."""
    shared = _shared_services()
    redis = private_redis() if shared else None
    prefix = f"junction-soak-{uuid.uuid4().hex[:8]}"
    pool = 4

    def start(index: int, port: int | None):
        env = {**UNLIMITED, **daphne_env(index, pool, prefix)}
        if redis is not None:
            env["REDIS_URL"] = redis.url
        return daphne(extra_env=env, port=port)

    cluster = Cluster(start, 2 if shared else 1)
    from games.models import Action

    result = soak(
        cluster=cluster, create_game=started_game, kind="locomotive-werks", players=3, options={},
        tables=6, phones=4, rate=1.0, pollers=8, poll_period=0.5, api_clients=4, api_period=0.3, seconds=60,
        kill_at=0.4, redis_restart=(lambda: (redis.stop(), redis.start())) if redis else None, redis_restart_at=0.7,
        database_url=_database_url(), app_prefix=prefix, django_actions=Action.objects,
    )
    report = "\n".join(result.lines(budget=len(cluster.servers) * (pool + 1)))
    assert result.tally.server_errors == 0, report
    assert result.lost == 0 and result.duplicated == 0, report
    assert len(result.tally.answers) >= 100, report  # it did play: over sockets and over HTTP
    assert result.tally.latencies["ws-move"] and result.tally.latencies["http-move"], report
    assert result.tally.statuses[("http-state", 200)] > 0 and result.tally.statuses[("http-actions", 200)] > 0, report
    assert result.phones_behind == 0, report
    if shared:
        assert result.peak_connections <= len(cluster.servers) * (pool + 1), report
