"""Benchmark: fan-out. N tables x M phones over WebSocket, first to one Daphne, then to two
Daphne processes sharing Redis; every table plays moves at a steady rate.

The workload is a real game (Wood and Steel by default; ``--kind locomotive-werks`` or ``toy``).
Per table: one phone per player (they make the moves, over their own sockets: a player whose
view is current and who has legal commands picks one at random, with ``expected_version``)
plus watching phones up to M. Reports the delivery latency from sending a move to its state
reaching the LAST phone of that table (p50/p99/max), committed moves per second, CPU and
peak memory per process, messages lost (a phone missing a version it should have got) and
refused commands (a rule refusing a pick is counted, not fatal).

    .venv/bin/python bench/bench_fanout.py                      # 20 tables x 5 phones, 1 then 2 Daphnes
    .venv/bin/python bench/bench_fanout.py --tables 200 --moves 20 --rate 0.25   # the full size

Runs on PostgreSQL + Redis (the bench database, Redis db 7 by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DEFAULT_PG,
    DEFAULT_REDIS,
    flush_redis,
    prepare_database,
    processes,
    services_reachable,
    start_daphne,
    started_game,
    summary,
)

KINDS = {  # kind: (players by default, options)
    "wood-and-steel": (4, {}),
    "locomotive-werks": (3, {}),
    "toy": (2, {"target": 1000}),
}


class Phone:
    """One WebSocket client: records when each state version arrives; answers results."""

    def __init__(self, ws, table: int, arrivals: dict) -> None:
        self.ws, self.table, self.arrivals = ws, table, arrivals
        self.pending: dict[str, asyncio.Future] = {}
        self.versions: set[int] = set()
        self.state: dict | None = None  # the newest state message
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    version = message["version"]
                    if self.state is None or version > self.state["version"]:
                        self.state = message
                    if version not in self.versions:
                        self.versions.add(version)
                        self.arrivals[(self.table, version)].append(now)
                elif kind in ("result", "error"):
                    future = self.pending.pop(message.get("command_id"), None)
                    if future is not None and not future.done():
                        future.set_result(message)
        except Exception:  # noqa: BLE001 - a dropped socket shows up as lost messages
            pass

    async def command(self, body: dict, timeout: float = 30) -> dict:
        future = asyncio.get_running_loop().create_future()
        self.pending[body["command_id"]] = future
        await self.ws.send(json.dumps(body))
        return await asyncio.wait_for(future, timeout)


async def run_tables(urls: list[str], games: list[dict], phones_per_table: int, moves: int, rate: float) -> dict:
    """Every table plays ``moves`` moves at ``rate``; each game's players are its first phones."""
    import websockets

    arrivals: dict = defaultdict(list)
    tables: list[list[Phone]] = []
    for t, game in enumerate(games):
        phones = []
        for k in range(phones_per_table):
            token = game["tokens"][k] if k < len(game["tokens"]) else None
            url = urls[(t + k) % len(urls)]
            query = f"?token={token}" if token else ""
            ws = await websockets.connect(f"{url}/ws/games/{game['code']}/{query}", max_queue=None)
            phones.append(Phone(ws, t, arrivals))
        tables.append(phones)
    await asyncio.sleep(1.0)  # initial snapshots in
    sent: dict = {}
    errors: list = []

    async def pick(t: int, rng: random.Random) -> tuple[Phone, dict] | None:
        """A player whose view is the table's newest and who may act, and one of its legal commands."""
        players = tables[t][: len(games[t]["tokens"])]
        for _ in range(500):  # up to 5 s for the last broadcast to land
            newest = max((p.state["version"] for p in players if p.state), default=0)
            if any(p.state and p.state["status"] != "active" for p in players):
                return None  # the game is over
            ready = [p for p in players if p.state and p.state["version"] == newest
                     and any(c.get("cmd") != "undo" for c in p.state["legal_commands"])]
            if ready:
                mover = rng.choice(ready)
                return mover, rng.choice([c for c in mover.state["legal_commands"] if c.get("cmd") != "undo"])
            await asyncio.sleep(0.01)
        return None

    async def play(t: int) -> None:
        rng = random.Random(t)
        await asyncio.sleep(rng.random() / rate)  # spread the tables' phases
        for i in range(moves):
            start = time.perf_counter()
            picked = await pick(t, rng)
            if picked is None:
                return
            mover, command = picked
            answer = await mover.command({**command, "command_id": f"t{t}m{i}", "expected_version": mover.state["version"]})
            if answer.get("type") == "result":
                sent[(t, answer["version"])] = start
            else:
                errors.append(answer)
            await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - start)))

    began = time.perf_counter()
    await asyncio.gather(*(play(t) for t in range(len(tables))))
    played = time.perf_counter() - began
    await asyncio.sleep(2.0)  # let the last broadcasts land
    latencies, lost = [], 0
    for (t, version), start in sent.items():
        got = arrivals.get((t, version), [])
        lost += phones_per_table - len(got)
        if len(got) == phones_per_table:
            latencies.append((max(got) - start) * 1000)
    for phones in tables:
        for phone in phones:
            await phone.ws.close()
            phone.task.cancel()
    return {"latencies": latencies, "committed": len(sent), "seconds": played, "lost": lost, "errors": errors}


class Sampler:
    """CPU seconds and peak RSS of some processes over a run (psutil)."""

    def __init__(self, named_pids: dict[str, int]) -> None:
        import psutil

        self.procs = {name: psutil.Process(pid) for name, pid in named_pids.items()}
        self.cpu0 = {name: self._cpu(p) for name, p in self.procs.items()}
        self.peak = {name: 0 for name in self.procs}
        self.t0 = time.perf_counter()

    @staticmethod
    def _cpu(p) -> float:
        times = p.cpu_times()
        return times.user + times.system

    def sample(self) -> None:
        for name, p in self.procs.items():
            try:
                self.peak[name] = max(self.peak[name], p.memory_info().rss)
            except Exception:  # noqa: BLE001
                pass

    def report(self) -> dict[str, tuple[float, float]]:
        wall = time.perf_counter() - self.t0
        self.sample()
        return {name: (100 * (self._cpu(p) - self.cpu0[name]) / wall, self.peak[name] / 2**20) for name, p in self.procs.items()}


async def with_sampling(sampler: Sampler, coro):
    task = asyncio.create_task(coro)
    while not task.done():
        sampler.sample()
        await asyncio.sleep(0.5)
    return await task


def redis_pid(redis_url: str) -> int | None:
    import redis

    try:
        return int(redis.Redis.from_url(redis_url).info("server")["process_id"])
    except Exception:  # noqa: BLE001
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--kind", choices=sorted(KINDS), default="wood-and-steel", help="the game every table plays")
    parser.add_argument("--players", type=int, help="players per table (default: 4 Wood and Steel, 3 Locomotive Werks, 2 toy)")
    parser.add_argument("--phones", type=int, default=5, help="phones per table: the players' and watchers'")
    parser.add_argument("--moves", type=int, default=10, help="moves per table")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    parser.add_argument("--servers", default="1,2", help="Daphne counts to run, e.g. 1,2")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    args = parser.parse_args()
    players = args.players or KINDS[args.kind][0]
    if args.phones < players:
        parser.error(f"--phones must be at least the {players} players")

    why = services_reachable(args.database_url, args.redis_url)
    if why:
        print(f"SKIPPED: the fan-out bench runs on PostgreSQL + Redis: {why}")
        return 0
    prepare_database(args.database_url)
    flush_redis(args.redis_url)
    print(f"fan-out: {args.kind}, {args.tables} tables x {args.phones} phones ({players} players), "
          f"{args.moves} moves per table at {args.rate}/s per table "
          f"(offered {args.tables * args.rate:.0f} moves/s); PostgreSQL + Redis")
    env = {"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url}
    for count in [int(c) for c in args.servers.split(",") if c.strip()]:
        with processes() as started:
            servers = [start_daphne(env) for _ in range(count)]
            started.extend(servers)
            games = [dict(zip(("code", "tokens"), started_game(f"http://127.0.0.1:{servers[t % count].port}", args.kind, players,
                                                                KINDS[args.kind][1]), strict=True)) for t in range(args.tables)]
            pids = {f"daphne{i + 1}": s.pid for i, s in enumerate(servers)} | {"bench client": os.getpid()}
            rpid = redis_pid(args.redis_url)
            if rpid:
                pids["redis-server"] = rpid
            sampler = Sampler(pids)
            urls = [f"ws://127.0.0.1:{s.port}" for s in servers]
            out = asyncio.run(with_sampling(sampler, run_tables(urls, games, args.phones, args.moves, args.rate)))
            usage = sampler.report()
        s = summary(out["latencies"])
        print(f"\n{count} Daphne process{'es' if count > 1 else ''}: {args.tables * args.phones} sockets")
        print(f"  move -> last phone of its table: p50 {s['p50']:.1f} ms  p99 {s['p99']:.1f} ms  max {s['max']:.1f} ms  (n={s['n']})")
        print(f"  committed {out['committed']} moves in {out['seconds']:.1f} s = {out['committed'] / out['seconds']:.1f} moves/s; "
              f"messages lost: {out['lost']}; refused commands: {len(out['errors'])}"
              + (f" (first: {out['errors'][0].get('error')})" if out["errors"] else ""))
        for name, (cpu, rss) in usage.items():
            print(f"  {name:14} CPU {cpu:5.1f} %   peak RSS {rss:6.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
