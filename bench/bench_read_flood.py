"""Benchmark: one client's flood of big reads against another player's state polls (issue 29).

    .venv/bin/python bench/bench_read_flood.py [--reads 1200] [--inflight 16] [--quiet 8] [--poll-ms 150]
        [--moves 40] [--database-url postgres://… --redis-url redis://…] [--before share|cache|none]
        [--flood-rate 0] [--window-left 30]

One Daphne as it ships (the default limits, the read cache on), on the embedded default (a SQLite file
and the in-memory layer) unless ``--database-url`` and ``--redis-url`` are given (``DATABASE_URL`` /
``REDIS_URL`` or ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` from the environment are the defaults).
``JUNCTION_TRUSTED_PROXIES=1``: each client names its own address in ``X-Forwarded-For``, so the
flooder and the player are two clients, as they would be on the internet. A 2-seat Runerail game with
``--moves`` legal moves played (seeded random picks from each seat's legal commands).

The player (seat 1, its own address) polls ``GET /api/games/{code}/state`` with its token every
``--poll-ms``, one at a time: ``--quiet`` seconds alone, then during each flood. A flood is ``--reads``
token-less ``POST /api {"cmd": "get-state", "game": code}`` (the notes' whole document, geography and
log included), ``--inflight`` at a time:

1. from one address: the read limits price each by its size (one token per started 64 KiB of the
   1,200/min per address), so most are refused 429 before they cost a query (and, once refused, at
   admission before Django: games/admission.py);
2. from a new address each (a flood spread over many addresses, which per-address limits cannot
   see): what the per-version cache alone does (one serialisation for all of them).

``--flood-rate`` N sends at most N a second (a flooder whose pace is its own, not the server's answers:
on this one machine a flood that goes as fast as it is answered also takes CPU from the server). Each
flood starts with at least ``--window-left`` seconds (30) left in the limits' one-minute window, so one
address's flood meets one window, not two.

Printed for each: the poll's p50 / p99 / max quiet and during, the ratio of the p50s (goal: within
2x), the flood's answers by status and its duration, and the Daphne's RSS before, at its peak during,
right after, and ``--settle`` seconds after. Then the same on a second Daphne, flood 1 only, with
``--before share`` (the default) admission's per-client share off (``JUNCTION_HTTP_CLIENT_SHARE=0``: one
queue in arrival order, as before fair admission), or with ``--before cache`` the cache and the price off
(``JUNCTION_READ_CACHE_BYTES=0``, ``JUNCTION_READ_PRICE_BYTES=0``: every read serialised afresh and costing
one token, as before the read price); ``--before none`` skips it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    PYTHON,
    ROOT,
    flush_redis,
    percentile,
    prepare_database,
    processes,
    services_reachable,
    start_daphne,
    started_game,
)

# The limits as they ship (config/settings.py), not bench/common.py's unlimited ones.
SHIPPED_LIMITS = {
    "JUNCTION_READ_RATE": "1200/min",
    "JUNCTION_READ_SEAT_RATE": "600/min",
    "JUNCTION_COMMAND_RATE": "1200/min",
    "JUNCTION_COMMAND_SEAT_RATE": "600/min",
}
# The second Daphne of a run (--before): what a change is compared with, within one run.
BEFORE = {
    "share": ("before: admission's per-client share off (JUNCTION_HTTP_CLIENT_SHARE=0: one queue in arrival order, "
              "no refusal remembered)",
              {"JUNCTION_HTTP_CLIENT_SHARE": "0"}),
    "cache": ("before: cache and price off (JUNCTION_READ_CACHE_BYTES=0, JUNCTION_READ_PRICE_BYTES=0)",
              {"JUNCTION_READ_CACHE_BYTES": "0", "JUNCTION_READ_PRICE_BYTES": "0"}),
    "none": ("", {}),
}
SETUP_ADDRESS = "192.0.2.1"
PLAYER_ADDRESS = "198.51.100.2"
FLOODER_ADDRESS = "203.0.113.9"


def play(base: str, code: str, tokens: list[str], moves: int, seed: int = 7) -> int:
    """``moves`` legal commands, each seat on turn picking one at random (seeded); the game's version."""
    import httpx

    rng = random.Random(seed)
    headers = {"X-Forwarded-For": SETUP_ADDRESS}
    version = 1
    with httpx.Client(base_url=base, timeout=60, headers=headers) as client:
        for _ in range(moves):
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                state = client.get(f"/api/games/{code}/state", headers=auth).json()
                if state["legal_commands"]:
                    command = rng.choice(state["legal_commands"])
                    answer = client.post(f"/api/games/{code}/commands", json=command, headers=auth)
                    if answer.status_code == 200:
                        version = answer.json()["version"]
                    break
            else:
                break
    return version


class Poller(threading.Thread):
    """The other player: GET …/state with its token every ``every`` seconds; (start, seconds, status)."""

    def __init__(self, base: str, code: str, token: str, every: float) -> None:
        super().__init__(daemon=True)
        self.base, self.code, self.token, self.every = base, code, token, every
        self.samples: list[tuple[float, float, int]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {self.token}", "X-Forwarded-For": PLAYER_ADDRESS}
        with httpx.Client(base_url=self.base, timeout=30, headers=headers) as client:
            while not self.stop.is_set():
                t0 = time.perf_counter()
                status = client.get(f"/api/games/{self.code}/state").status_code
                self.samples.append((t0, time.perf_counter() - t0, status))
                self.stop.wait(max(0.0, self.every - (time.perf_counter() - t0)))

    def between(self, start: float, end: float) -> list[float]:
        return [s for t, s, status in self.samples if start <= t < end and status == 200]


class Memory(threading.Thread):
    """The Daphne's RSS every 50 ms (MiB)."""

    def __init__(self, pid: int) -> None:
        import psutil

        super().__init__(daemon=True)
        self.proc = psutil.Process(pid)
        self.peak = 0.0
        self.stop = threading.Event()

    def now(self) -> float:
        return self.proc.memory_info().rss / 2**20

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, self.now())
            self.stop.wait(0.05)


def flood(base: str, code: str, reads: int, inflight: int, spread: bool, rate: float = 0) -> tuple[Counter, float, int, float]:
    """``reads`` token-less get-states, ``inflight`` at a time (and at most ``rate`` a second, 0: as fast as
    they are answered), from a process of their own (so the player's poller never waits on this one's
    GIL); statuses, seconds, bytes of one answer, the flooding process's own CPU seconds."""
    worker = subprocess.run(
        [PYTHON, __file__, "--flood-worker", json.dumps([base, code, reads, inflight, spread, rate])],
        capture_output=True, text=True, check=True,
    )
    statuses, seconds, size, cpu = json.loads(worker.stdout)
    return Counter({int(k): v for k, v in statuses.items()}), seconds, size, cpu


def flood_worker(base: str, code: str, reads: int, inflight: int, spread: bool, rate: float = 0) -> None:
    import httpx

    body = {"cmd": "get-state", "game": code}
    size = [0]
    local = threading.local()

    def one(i: int) -> int:
        if rate > 0:  # the i-th request is not sent before its time
            time.sleep(max(0.0, t0 + i / rate - time.perf_counter()))
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = httpx.Client(base_url=base, timeout=60)
        address = f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}" if spread else FLOODER_ADDRESS
        response = client.post("/api", json=body, headers={"X-Forwarded-For": address})
        if response.status_code == 200:
            size[0] = len(response.content)
        return response.status_code

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=inflight) as pool:
        statuses = Counter(pool.map(one, range(reads)))
    print(json.dumps([statuses, time.perf_counter() - t0, size[0], time.process_time()]))


def fresh_window(at_least: float) -> None:
    """Wait for the next minute when less than ``at_least`` seconds of this one are left: the limits count in
    windows of a minute, and a flood that crosses into the next gets twice its reads through."""
    left = 60 - time.time() % 60
    if left < at_least:
        time.sleep(left + 0.2)


def ms(values: list[float]) -> str:
    if not values:
        return "  (no polls)"
    return (f"p50 {percentile(values, 50) * 1000:7.1f}  p99 {percentile(values, 99) * 1000:7.1f}  "
            f"max {max(values) * 1000:7.1f} ms  ({len(values)} polls)")


def run(label: str, env: dict[str, str], args: argparse.Namespace, floods: list[tuple[str, bool]], started: list) -> list[str]:
    daphne = start_daphne({**env, **SHIPPED_LIMITS, "JUNCTION_TRUSTED_PROXIES": "1", "JUNCTION_BOTS_INLINE": "0"})
    started.append(daphne)
    base = f"http://127.0.0.1:{daphne.port}"
    lines = [f"\n{label}"]
    code, tokens = started_game(base, "runerail", 2)
    version = play(base, code, tokens, args.moves)
    memory = Memory(daphne.pid)
    memory.start()
    poller = Poller(base, code, tokens[1], args.poll_ms / 1000)
    poller.start()
    time.sleep(1.0)  # the poller's first requests warm the process
    rss_before = memory.now()
    q0 = time.perf_counter()
    time.sleep(args.quiet)
    quiet = poller.between(q0, time.perf_counter())
    lines.append(f"  Runerail game at version {version}; RSS before the floods {rss_before:.0f} MiB")
    lines.append(f"  quiet                      {ms(quiet)}")
    for name, spread in floods:
        fresh_window(args.window_left)
        memory.peak = memory.now()
        cpu0 = sum(memory.proc.cpu_times()[:2])
        f0 = time.perf_counter()
        statuses, seconds, size, flood_cpu = flood(base, code, args.reads, args.inflight, spread, args.flood_rate)
        during = poller.between(f0, time.perf_counter())
        cpu = sum(memory.proc.cpu_times()[:2]) - cpu0
        after = memory.now()
        time.sleep(args.settle)
        settled = memory.now()
        ratio = percentile(during, 50) / percentile(quiet, 50) if during and quiet else float("nan")
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
        lines.append(f"  flood {name}: {args.reads} get-states ({size / 1024:.0f} KiB each), {args.inflight} in flight, "
                     f"{seconds:.1f} s: {answers}; the Daphne's CPU {cpu:.1f} s ({cpu / args.reads * 1000:.1f} ms a request, "
                     f"the player's polls included; the flooder's own {flood_cpu:.1f} s)")
        lines.append(f"    the player's poll during {ms(during)}")
        lines.append(f"    p50 during / quiet: {ratio:.2f}x (goal <= 2x: {'met' if ratio <= 2 else 'NOT met'}); "
                     f"p99 {percentile(during, 99) / percentile(quiet, 99):.2f}x")
        lines.append(f"    RSS {rss_before:.0f} MiB before, peak {memory.peak:.0f} during, {after:.0f} right after, "
                     f"{settled:.0f} after {args.settle:g} s")
    poller.stop.set()
    memory.stop.set()
    poller.join(10)
    daphne.stop()
    return lines


def main() -> int:
    if sys.argv[1:2] == ["--flood-worker"]:
        flood_worker(*json.loads(sys.argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=1200, help="get-states in each flood")
    parser.add_argument("--inflight", type=int, default=16, help="flood requests at a time")
    parser.add_argument("--flood-rate", type=float, default=0, help="flood requests a second at most (0: as fast as answered)")
    parser.add_argument("--window-left", type=float, default=30.0,
                        help="a flood starts with at least this many seconds left in the limits' minute (else waits for the next)")
    parser.add_argument("--quiet", type=float, default=8.0, help="seconds of polls with no flood")
    parser.add_argument("--poll-ms", type=float, default=150.0, help="the player's poll period (its seat limit: 600/min)")
    parser.add_argument("--moves", type=int, default=40, help="legal moves played before the floods")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after a flood before RSS is read again")
    parser.add_argument("--before", choices=sorted(BEFORE), default="share",
                        help="the second Daphne: admission's share off (share), the cache and price off (cache), or none")
    parser.add_argument("--no-before", dest="before", action="store_const", const="none", help="the same as --before none")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", os.environ.get("DATABASE_URL", "")),
                        help="PostgreSQL (with --redis-url) instead of the embedded SQLite + in-memory layer")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", os.environ.get("REDIS_URL", "")))
    args = parser.parse_args()
    if bool(args.database_url) != bool(args.redis_url):
        parser.error("--database-url and --redis-url go together")
    if args.database_url:
        why = services_reachable(args.database_url, args.redis_url)
        if why:
            print(f"SKIPPED: {why}")
            return 0

    load_before = os.getloadavg()[0]
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-read-flood-") as tmp, processes() as started:
        if args.database_url:
            env = {"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url}
            prepare_database(args.database_url)
            flush_redis(args.redis_url)
        else:  # the embedded default: no DATABASE_URL / REDIS_URL from this shell may reach the server
            os.environ.pop("DATABASE_URL", None)
            os.environ.pop("REDIS_URL", None)
            env = {"SQLITE_PATH": str(Path(tmp) / "db.sqlite3")}
            subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                           env={**os.environ, **env}, check=True)
        lines += run("as shipped (fair admission, read cache on, reads priced by size)", env, args,
                     [("1, one address", False), ("2, a new address each", True)], started)
        if args.before != "none":
            if args.database_url:
                flush_redis(args.redis_url)  # the first run's counters
            label, before_env = BEFORE[args.before]
            lines += run(label, {**env, **before_env}, args, [("1, one address", False)], started)

    where = "PostgreSQL + Redis" if args.database_url else "embedded: SQLite + in-memory channel layer"
    print(f"one Daphne ({where}), limits as shipped, JUNCTION_TRUSTED_PROXIES=1; load average {load_before:.1f} "
          f"before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs")
    print(f"the player polls GET /api/games/CODE/state with its token every {args.poll_ms:g} ms")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
