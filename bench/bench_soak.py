"""Benchmark: the soak. Real use for minutes, through a killed Daphne and a restarted Redis.

2 Daphnes on PostgreSQL + a Redis of the bench's own; tables of phones playing a real game
over WebSocket, HTTP clients polling state and fetching missed actions, third-party clients
sending commands over HTTP. Midway one Daphne is killed with SIGKILL and restarted, then
Redis is restarted. Printed: requests, moves, p50/p99 per path, 5xx (goal 0), 503s, moves
lost or duplicated against the log (goal 0), the highest PostgreSQL connection count (goal:
within the budget, processes x (pool + 1)) and each process's memory at start and end.
What each client does: bench/soak.py.

    .venv/bin/python bench/bench_soak.py                 # 1 minute, 20 tables x 5 phones, 20 pollers, 5 API clients
    .venv/bin/python bench/bench_soak.py --minutes 10 --tables 200 --pollers 200 --api-clients 50   # the full size
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    DEFAULT_PG,
    UNLIMITED,
    PrivateRedis,
    prepare_database,
    services_reachable,
    start_daphne,
    started_game,
)
from bench.soak import Cluster, daphne_env, soak  # noqa: E402

KINDS = {"wood-and-steel": (4, {}), "locomotive-werks": (3, {}), "toy": (2, {"target": 1000})}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--kind", choices=sorted(KINDS), default="wood-and-steel")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=5, help="phones per table (players + watchers)")
    parser.add_argument("--rate", type=float, default=0.25, help="moves per second per table")
    parser.add_argument("--pollers", type=int, default=20)
    parser.add_argument("--poll-period", type=float, default=2.0, help="seconds between one poller's polls")
    parser.add_argument("--api-clients", type=int, default=5)
    parser.add_argument("--api-period", type=float, default=1.0, help="seconds between one API client's commands")
    parser.add_argument("--pool-size", type=int, default=10, help="JUNCTION_DB_POOL_SIZE of each Daphne")
    parser.add_argument("--no-faults", action="store_true", help="no kill, no Redis restart")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG))
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        print("SKIPPED: the soak starts a redis-server of its own, and none is installed")
        return 0
    why = services_reachable(args.database_url, "redis://127.0.0.1:6379")
    if why:
        print(f"SKIPPED: the soak runs on PostgreSQL: {why}")
        return 0
    prepare_database(args.database_url)
    redis = PrivateRedis().start()
    players, options = KINDS[args.kind]
    env = {"DATABASE_URL": args.database_url, "REDIS_URL": redis.url, **UNLIMITED}
    budget = args.servers * (args.pool_size + 1)
    print(f"soak: {args.minutes:g} min, {args.servers} Daphnes (pool {args.pool_size} each; connection budget {budget}), "
          f"{args.tables} tables x {args.phones} phones playing {args.kind} at {args.rate}/s per table, "
          f"{args.pollers} pollers every {args.poll_period:g} s, {args.api_clients} API clients every {args.api_period:g} s")

    def start(index: int, port: int | None):
        return start_daphne({**env, **daphne_env(index, args.pool_size)}, port=port)

    cluster = Cluster(start, args.servers)
    try:
        result = soak(
            cluster=cluster, create_game=started_game, kind=args.kind, players=players, options=options,
            tables=args.tables, phones=args.phones, rate=args.rate, pollers=args.pollers, poll_period=args.poll_period,
            api_clients=args.api_clients, api_period=args.api_period, seconds=args.minutes * 60,
            kill_at=None if args.no_faults else 0.5, redis_restart=None if args.no_faults else redis.restart,
            database_url=args.database_url,
        )
    finally:
        cluster.stop()
        redis.stop()
    for line in result.lines(budget):
        print(line)
    goals = {
        "no 5xx but 503": result.tally.server_errors == 0,
        "nothing lost or duplicated": result.lost == 0 and result.duplicated == 0,
        "connections within the budget": result.peak_connections <= budget,
    }
    print("goals: " + "; ".join(f"{name}: {'met' if ok else 'NOT MET'}" for name, ok in goals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
