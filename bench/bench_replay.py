"""Benchmark: replaying a Locomotive Werks game through HTTP (GET /api/games/{code}/replay).

One Daphne on PostgreSQL + Redis. Four seats play a Locomotive Werks game over HTTP (each
move a seeded random choice among the seat's legal commands) until the log holds
``--actions`` actions after the start; then ``GET /api/games/{code}/replay?step=n`` for the
last step is asked ``--requests`` times over one keep-alive connection. Each answer rebuilds
the state from the seed and the whole log. Printed: the request's p50/p99 wall time and the
replayed actions per second (actions / time per request; the issue's goal is >= 20,000),
and the same for the first step (the request's fixed cost, nothing replayed).

    .venv/bin/python bench/bench_replay.py [--actions 300] [--requests 200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DEFAULT_PG,
    DEFAULT_REDIS,
    flush_redis,
    percentile,
    prepare_database,
    processes,
    services_reachable,
    start_daphne,
    started_game,
)

KIND = "locomotive-werks"


def play(client, code: str, tokens: list[str], actions: int, seed: int) -> int:
    """Moves over HTTP until the log holds ``actions`` actions after the start (or the game
    ends); the number of the last step."""
    rng = random.Random(seed)
    version = 1
    while version < actions + 1:
        moved = False
        for token in tokens:
            payload = client.get(f"/api/games/{code}/state", headers={"Authorization": f"Bearer {token}"}).json()
            version = payload["version"]
            if payload["status"] != "active" or version >= actions + 1:
                return version
            if payload["legal_commands"]:
                command = rng.choice(payload["legal_commands"])
                response = client.post(
                    f"/api/games/{code}/commands", headers={"Authorization": f"Bearer {token}"},
                    json={**command, "expected_version": version},
                )
                response.raise_for_status()
                version = response.json()["version"]
                moved = True
                break
        if not moved:
            raise RuntimeError(f"no seat has a legal command at version {version}")
    return version


def timed(client, code: str, step: int, requests: int) -> list[float]:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(f"/api/games/{code}/replay", params={"step": step})
        times.append(time.perf_counter() - start)
        response.raise_for_status()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300, help="actions in the replayed log (after the start)")
    parser.add_argument("--requests", type=int, default=200, help="timed replay requests per step")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    args = parser.parse_args()
    why = services_reachable(args.database_url, args.redis_url)
    if why:
        print(f"SKIPPED: the bench runs Daphne on PostgreSQL + Redis: {why}")
        return 0
    import httpx

    prepare_database(args.database_url)
    flush_redis(args.redis_url)
    with processes() as started:
        daphne = start_daphne({"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url})
        started.append(daphne)
        base = f"http://127.0.0.1:{daphne.port}"
        with httpx.Client(base_url=base, timeout=30) as client:
            for seed in range(args.seed, args.seed + 20):  # a game that ended sooner: the next seed
                code, tokens = started_game(base, KIND, args.players)
                last = play(client, code, tokens, args.actions, seed)
                if last >= args.actions + 1:
                    break
            replayed = last - 1
            timed(client, code, last, 20)  # warm up (imports, the connection, caches)
            full = timed(client, code, last, args.requests)
            first = timed(client, code, 1, args.requests)
    print(f"one Daphne, PostgreSQL + Redis, {KIND}, {args.players} seats, {replayed} actions replayed per request, "
          f"{args.requests} requests; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'request':34}{'p50 ms':>9}{'p99 ms':>9}{'actions/s (p50)':>17}{'actions/s (best)':>18}")
    p50, p99 = percentile(full, 50), percentile(full, 99)
    print(f"{f'replay?step={last} (whole log)':34}{p50 * 1e3:9.2f}{p99 * 1e3:9.2f}"
          f"{replayed / p50:17,.0f}{replayed / min(full):18,.0f}")
    print(f"{'replay?step=1 (nothing replayed)':34}{percentile(first, 50) * 1e3:9.2f}{percentile(first, 99) * 1e3:9.2f}")
    engine_part = p50 - percentile(first, 50)
    if engine_part > 0:
        print(f"the log's share: {engine_part * 1e3:.2f} ms, {replayed / engine_part:,.0f} actions/s")
    goal = 20_000
    print(f"goal >= {goal:,} actions/s: {'met' if replayed / p50 >= goal else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
