"""Shared helpers for the benchmarks (not a benchmark itself: `make bench` runs bench_*.py).

Everything here stays on loopback and stops by itself: servers are started as child
processes on free ports and stopped when the benchmark ends.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"  # git-ignored: logs and the throwaway npm install
PYTHON = sys.executable

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/junction_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/7"  # not db 0: the test suite's pass 2 uses it
BGIO_VERSION = os.environ.get("BGIO_VERSION", "boardgame.io")  # the current npm release unless pinned


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def replay_recorded(engine, games: list[dict], seconds: float, money: str) -> dict:
    """Replay recorded whole games (``tests/games/engines/<title>/recorded/``: seed, players, options and
    commands) through ``engine`` from setup, again and again for at least ``seconds`` (once at least), each
    game's players' ``money`` checked against its ``final_<money>``. The first pass times every command
    (``by_kind``: seconds per command name); the rest run untimed. Returns the counts, wall and CPU seconds."""
    logs = [[(c["seat"], c["command"]) for c in g["commands"]] for g in games]
    clock = time.perf_counter
    passes = actions = 0
    setup_time = 0.0
    by_kind: dict[str, list[float]] = {}
    start, cpu = clock(), time.process_time()
    while clock() - start < seconds or passes == 0:
        for game, log in zip(games, logs, strict=True):
            t0 = clock()
            state = engine.setup(players=game["players"], options=game["options"], seed=game["seed"])
            setup_time += clock() - t0
            if passes == 0:
                for seat, command in log:
                    t1 = clock()
                    engine.apply(state, seat=seat, command=command)
                    by_kind.setdefault(command["cmd"], []).append(clock() - t1)
            else:
                for seat, command in log:
                    engine.apply(state, seat=seat, command=command)
            assert [p[money] for p in state["players"]] == game[f"final_{money}"]
            actions += len(log)
        passes += 1
    elapsed, cpu = clock() - start, time.process_time() - cpu
    return {"games": len(games), "passes": passes, "actions": actions, "elapsed": elapsed, "cpu": cpu,
            "setup": setup_time, "by_kind": by_kind}


def replay_report(r: dict, *, what: str, aim: int) -> list[str]:
    """The lines a title's benchmark prints for ``replay_recorded``'s result ``r`` (``what``: the games replayed,
    e.g. "recorded games"): actions per second against ``aim``, then the time per command kind, slowest first."""
    apply_time = r["elapsed"] - r["setup"]
    rate = r["actions"] / r["elapsed"]
    setup = r["setup"] / (r["passes"] * r["games"]) * 1000
    lines = [f"  replay: {rate:,.0f} actions/s with the setups, {r['actions'] / apply_time:,.0f} actions/s in apply "
             f"alone, {r['actions'] / r['cpu']:,.0f} actions per CPU second ({r['passes']} passes over {r['games']} "
             f"{what}, {r['actions']} actions; setup {setup:.2f} ms a game); aim {aim:,}: "
             f"{'met' if rate >= aim else 'NOT met'}"]
    total = sum(map(sum, r["by_kind"].values()))
    for kind, times in sorted(r["by_kind"].items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"    {kind:>19}: {len(times):6d} commands, mean {sum(times) / len(times) * 1e6:8.1f} µs, "
                     f"p99 {percentile(times, 99) * 1e6:8.1f} µs, {100 * sum(times) / total:4.1f} % of apply time")
    return lines


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": max(values) if values else float("nan"),
        "mean": sum(values) / len(values) if values else float("nan"),
    }


def services_reachable(database_url: str, redis_url: str) -> str | None:
    """None when both answer, else a reason."""
    for url, default_port in ((database_url, 5432), (redis_url, 6379)):
        parsed = urlparse(url)
        try:
            socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2).close()
        except OSError as exc:
            return f"{parsed.scheme} at {parsed.hostname}:{parsed.port or default_port} not reachable ({exc})"
    return None


def prepare_database(database_url: str) -> None:
    """Create the bench database if needed and migrate it."""
    import psycopg

    parsed = urlparse(database_url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": database_url}, check=True,
    )


def flush_redis(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()


class Proc:
    def __init__(self, name: str, proc: subprocess.Popen, port: int, log: Path) -> None:
        self.name, self.proc, self.port, self.log = name, proc, port, log

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _wait_port(proc: subprocess.Popen, port: int, log: Path, path: str = "/", timeout: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited early:\n{log.read_text()[-3000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}{path}", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"did not come up:\n{log.read_text()[-3000:]}")


# Every client of a bench comes from one address: the rate limits must not be what it measures.
UNLIMITED = {f"JUNCTION_{name}_RATE": "1000000/min" for name in ("JOIN", "CREATE", "COMMAND", "COMMAND_SEAT", "READ", "READ_SEAT", "CHAT", "CHAT_SEAT")}


def start_daphne(env: dict[str, str], port: int | None = None, launcher: list[str] | None = None) -> Proc:
    """Daphne serving the app (``launcher``: the command that stands for ``python -m daphne``)."""
    port = port or free_port()
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"daphne-{port}.log"
    full_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "JUNCTION_EXTRA_ENGINES": "tests.support.toy_engine",
        **UNLIMITED,
        "LOG_LEVEL": "WARNING",
        "DJANGO_DEBUG": "0",  # as in production: DEBUG also records every SQL query
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    proc = subprocess.Popen(
        [*(launcher or [PYTHON, "-m", "daphne"]), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=full_env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    _wait_port(proc, port, log, "/livez")
    return Proc("daphne", proc, port, log)


def ensure_boardgameio() -> Path | None:
    """npm-install boardgame.io (koa-compose held at 4.1.0) into bench/out/node; its node_modules path."""
    if not shutil.which("node") or not shutil.which("npm"):
        return None
    target = OUT / "node"
    modules = target / "node_modules"
    if not (modules / "boardgame.io").exists():
        target.mkdir(parents=True, exist_ok=True)
        (target / "package.json").write_text('{"name": "junction-bench-bgio", "private": true}\n')
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", BGIO_VERSION, "koa-compose@4.1.0"],
            cwd=target, check=True,
        )
    return modules


def start_bgio(modules: Path) -> Proc:
    port = free_port()
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"bgio-{port}.log"
    proc = subprocess.Popen(
        ["node", str(ROOT / "bench" / "bgio" / "server.js"), str(port)],
        env={**os.environ, "NODE_PATH": str(modules)}, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    _wait_port(proc, port, log, "/games")
    return Proc("boardgame.io", proc, port, log)


@contextmanager
def processes():
    started: list[Proc] = []
    try:
        yield started
    finally:
        for p in reversed(started):
            p.stop()


def toy_game(base_url: str, players: int = 2, target: int = 1000) -> tuple[str, list[str]]:
    """Create, fill and start a toy game over HTTP; its code and seat tokens."""
    return started_game(base_url, "toy", players, {"target": target})


def started_game(base_url: str, kind: str, players: int, options: dict | None = None) -> tuple[str, list[str]]:
    """Create a game of ``kind``, seat ``players`` over HTTP and start it; its code and seat tokens."""
    import httpx

    with httpx.Client(base_url=base_url, timeout=30) as client:
        created = client.post("/api/games", json={"kind": kind, "name": "p0", "options": options or {}}).json()
        tokens = [created["token"]]
        for i in range(1, players):
            tokens.append(client.post(f"/api/games/{created['code']}/seats", json={"name": f"p{i}"}).json()["token"])
        response = client.post(f"/api/games/{created['code']}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
        response.raise_for_status()
    return created["code"], tokens


class PrivateRedis:
    """A redis-server of the bench's own on a free port (never the shared one), which the
    bench may restart."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> PrivateRedis:
        import redis

        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return self
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not come up")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()
