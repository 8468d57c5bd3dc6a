"""The soak: Junction used the way real clients use it, for minutes, through faults.

One asyncio client process drives, against one or more Daphne processes:

- **tables**: each a game played over WebSocket by its players' phones (plus watching
  phones). A player whose view is current picks a random legal command and sends it with
  ``expected_version`` and a ``command_id``; a phone whose socket drops reconnects to the
  next server (after a back-off) and sends its unanswered command again with the same id.
- **pollers**: HTTP clients that poll ``GET …/state`` of a table (with a seat token or as a
  spectator) and fetch what they missed with ``GET …/actions?after=n``.
- **API clients**: third-party clients, each playing its own toy game over HTTP
  (``POST …/commands``), both seats, with ``expected_version`` and a ``command_id``; a 503
  is asked again after its ``Retry-After``, a refused connection on the next server, always
  with the same id.

Midway a Daphne is killed with SIGKILL and started again on its port, and (when the soak
has a Redis of its own) Redis is restarted. Afterwards every answered move (HTTP 200, or a
socket's ``result``) is checked against the game log: a move answered but not in the log
at its version is *lost*; two different command ids answered with the same version, or a
command id in the log twice, is *duplicated*.

Used by ``bench/bench_soak.py`` (the full size, printed) and ``tests/e2e/test_soak.py``
(a minute in CI shape, asserted). Everything stays on loopback and stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.common import percentile

HTTP_TIMEOUT = 15.0


@dataclass
class Tally:
    """What the clients saw."""

    statuses: Counter = field(default_factory=Counter)  # (path, status) → count
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # path → ms
    answers: list[tuple[str, int, str]] = field(default_factory=list)  # (code, version, command_id)
    socket_errors: Counter = field(default_factory=Counter)  # error code → count
    reconnects: int = 0
    drops: Counter = field(default_factory=Counter)  # why a socket dropped (close code or error) → count
    network_errors: int = 0

    def http(self, path: str, status: int, ms: float) -> None:
        self.statuses[(path, status)] += 1
        self.latencies[path].append(ms)

    @property
    def server_errors(self) -> int:
        return sum(n for (_, status), n in self.statuses.items() if status >= 500 and status != 503)

    @property
    def busy(self) -> int:
        return sum(n for (_, status), n in self.statuses.items() if status == 503)


class Cluster:
    """The Daphne processes under test: ``start(index, port)`` starts the one of slot
    ``index`` (``port`` None: any free one) and returns an object with ``port``, ``proc`` (a
    Popen) and ``stop()``."""

    def __init__(self, start: Callable[[int, int | None], Any], count: int) -> None:
        self._start = start
        self.servers = [start(i, None) for i in range(count)]

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{s.port}" for s in self.servers]

    def pids(self) -> list[int]:
        return [s.proc.pid for s in self.servers]

    def kill_and_restart(self, index: int) -> None:
        server = self.servers[index]
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        self.servers[index] = self._start(index, server.port)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class ConnectionWatch:
    """Samples PostgreSQL's sessions per ``application_name`` (each Daphne of the soak runs
    with its own ``PGAPPNAME``) and keeps the highest total seen for the given prefix."""

    def __init__(self, database_url: str, prefix: str) -> None:
        self.database_url, self.prefix = database_url, prefix
        self.peak_total = 0
        self.peak_by_name: Counter = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ConnectionWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True, application_name="soak-watch") as conn:
            while not self._stop.is_set():
                rows = conn.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name LIKE %s GROUP BY 1",
                    [self.prefix + "%"],
                ).fetchall()
                self.peak_total = max(self.peak_total, sum(n for _, n in rows))
                for name, n in rows:
                    self.peak_by_name[name] = max(self.peak_by_name[name], n)
                self._stop.wait(0.25)


# --- the clients ------------------------------------------------------------------------


class Phone:
    """One phone's socket to a game, reconnecting to the next server when it drops."""

    def __init__(self, urls: list[str], code: str, token: str | None, start: int, tally: Tally) -> None:
        self.urls, self.code, self.token, self.index, self.tally = urls, code, token, start, tally
        self.state: dict | None = None
        self.pending: dict[str, asyncio.Future] = {}
        self.ws = None
        self.connected = asyncio.Event()
        self.closing = False
        self.task = asyncio.create_task(self._run())

    def _url(self) -> str:
        base = self.urls[self.index % len(self.urls)].replace("http://", "ws://")
        return f"{base}/ws/games/{self.code}/" + (f"?token={self.token}" if self.token else "")

    async def _run(self) -> None:
        import websockets

        delay = 0.2
        while not self.closing:
            try:
                async with websockets.connect(self._url(), max_queue=None, open_timeout=10) as ws:
                    self.ws, delay = ws, 0.2
                    self.connected.set()
                    async for raw in ws:
                        message = json.loads(raw)
                        kind = message.get("type")
                        if kind == "state":
                            if self.state is None or message["version"] >= self.state["version"]:
                                self.state = message
                        elif kind in ("result", "error"):
                            if kind == "error":
                                self.tally.socket_errors[message["error"]["code"]] += 1
                            future = self.pending.pop(message.get("command_id"), None)
                            if future is not None and not future.done():
                                future.set_result(message)
            except Exception as exc:  # noqa: BLE001 - refused, reset, closed: reconnect below
                self.tally.drops[_why(exc)] += 1
            else:
                if not self.closing:  # the server ended the socket cleanly
                    self.tally.drops[f"closed {self.ws.close_code if self.ws else '?'}"] += 1
            self.connected.clear()
            self.ws = None
            for future in self.pending.values():
                if not future.done():
                    future.set_result({"type": "error", "error": {"code": "disconnected"}})
            self.pending.clear()
            if self.closing:
                return
            self.tally.reconnects += 1
            self.index += 1  # the next server
            await asyncio.sleep(delay + random.random() * 0.2)
            delay = min(delay * 2, 3.0)

    async def command(self, body: dict, timeout: float = 20) -> dict:
        """Send ``body`` until it is answered (same command id each time) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                await asyncio.wait_for(self.connected.wait(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            future = asyncio.get_running_loop().create_future()
            self.pending[body["command_id"]] = future
            try:
                await self.ws.send(json.dumps(body))
                answer = await asyncio.wait_for(future, max(0.1, deadline - time.monotonic()))
            except Exception:  # noqa: BLE001 - dropped while sending or waiting
                continue
            code = answer.get("error", {}).get("code") if answer.get("type") == "error" else None
            if code == "disconnected":
                continue
            if code == "database-busy":
                await asyncio.sleep(answer.get("retry_after", 1))
                continue
            return answer
        return {"type": "error", "error": {"code": "timeout"}}

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        self.task.cancel()


def _why(exc: BaseException) -> str:
    """A short reason for a dropped socket: the close code (and who sent it) or the error's type."""
    rcvd = getattr(exc, "rcvd", None)
    sent = getattr(exc, "sent", None)
    if rcvd is not None:
        return f"server closed {rcvd.code}"
    if sent is not None:
        return f"client closed {sent.code}"
    return type(exc).__name__


async def _http(client, tally: Tally, path_name: str, method: str, urls: list[str], start: int, path: str, **kwargs):
    """One request, tallied; a refused connection tries the next server. (response or None, index)."""
    import httpx

    for attempt in range(len(urls) * 3):
        index = start + attempt
        began = time.perf_counter()
        try:
            response = await client.request(method, urls[index % len(urls)] + path, **kwargs)
        except httpx.HTTPError:
            tally.network_errors += 1
            await asyncio.sleep(0.2)
            continue
        tally.http(path_name, response.status_code, (time.perf_counter() - began) * 1000)
        return response, index
    return None, start


async def _table(urls, game, phones_per_table, rate, until, tally, rng):
    players = len(game["tokens"])
    phones = [Phone(urls, game["code"], game["tokens"][k] if k < players else None, k + rng.randrange(len(urls)), tally)
              for k in range(phones_per_table)]
    await asyncio.sleep(rng.random() / rate)
    n = 0
    try:
        while time.monotonic() < until:
            began = time.perf_counter()
            mine = phones[:players]
            newest = max((p.state["version"] for p in mine if p.state), default=0)
            if any(p.state and p.state["status"] != "active" for p in mine):
                break
            ready = [p for p in mine if p.state and p.state["version"] == newest
                     and any(c.get("cmd") != "undo" for c in p.state["legal_commands"])]
            if not ready:
                await asyncio.sleep(0.05)
                continue
            mover = rng.choice(ready)
            command = rng.choice([c for c in mover.state["legal_commands"] if c.get("cmd") != "undo"])
            command_id = f"{game['code']}-ws-{n}"
            n += 1
            answer = await mover.command({**command, "command_id": command_id, "expected_version": newest})
            if answer.get("type") == "result":
                tally.answers.append((game["code"], answer["version"], command_id))
                tally.latencies["ws-move"].append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - began)))
    finally:
        # The last move's broadcast, and any resync after a reconnect, gets a few seconds.
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            newest = max((p.state["version"] for p in phones if p.state), default=-1)
            if all(p.state and p.state["version"] == newest for p in phones):
                break
            await asyncio.sleep(0.1)
        versions = [p.state["version"] if p.state else -1 for p in phones]
        for phone in phones:
            await phone.close()
    return versions


async def _poller(urls, games, period, until, tally, rng):
    import httpx

    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        index = rng.randrange(len(urls))
        while time.monotonic() < until:
            game = rng.choice(games)
            token = rng.choice([*game["tokens"], None])
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            response, index = await _http(client, tally, "http-state", "GET", urls, index, f"/api/games/{game['code']}/state",
                                          headers=headers)
            if response is not None and response.status_code == 200:
                seen = max(0, response.json()["version"] - rng.randrange(1, 5))
                await _http(client, tally, "http-actions", "GET", urls, index, f"/api/games/{game['code']}/actions?after={seen}")
            await asyncio.sleep(period * (0.5 + rng.random()))


async def _api_client(urls, game, period, until, tally, rng):
    """A third-party client playing both seats of its own toy game over HTTP."""
    import httpx

    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as client:
        index, version, seat, n = rng.randrange(len(urls)), 1, 0, 0
        while time.monotonic() < until:
            began = time.perf_counter()
            command_id = f"{game['code']}-api-{n}"
            body = {"cmd": "add", "n": 1, "command_id": command_id, "expected_version": version}
            headers = {"Authorization": f"Bearer {game['tokens'][seat]}"}
            while time.monotonic() < until + 30:
                response, index = await _http(client, tally, "http-move", "POST", urls, index,
                                              f"/api/games/{game['code']}/commands", json=body, headers=headers)
                if response is not None and response.status_code == 503:
                    await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
                    continue
                break
            n += 1
            if response is not None and response.status_code == 200:
                version = response.json()["version"]
                tally.answers.append((game["code"], version, command_id))
                seat = 1 - seat
            elif response is not None and response.status_code in (400, 409):
                state, index = await _http(client, tally, "http-state", "GET", urls, index, f"/api/games/{game['code']}/state",
                                           headers=headers)
                if state is not None and state.status_code == 200:
                    payload = state.json()
                    version = payload["version"]
                    if payload.get("status") != "active":
                        return
                    seat = seat if payload["legal_commands"] else 1 - seat
            await asyncio.sleep(max(0.0, period * (0.5 + rng.random()) - (time.perf_counter() - began)))


# --- the run ----------------------------------------------------------------------------


@dataclass
class SoakResult:
    tally: Tally
    seconds: float
    lost: int
    duplicated: int
    moves_logged: int
    peak_connections: int
    peak_connections_by_process: dict[str, int]
    memory_mib: dict[str, tuple[float, float]]  # process → (at its start, at the end)
    memory_trace: dict[str, list[float]]  # process → RSS at each tenth of the run (flat after warm-up?)
    phones_behind: int
    faults: list[str]

    def lines(self, budget: int | None = None) -> list[str]:
        t = self.tally
        out = [f"{self.seconds:.0f} s; faults: {', '.join(self.faults) or 'none'}"]
        for path in sorted(t.latencies):
            values = t.latencies[path]
            codes = {status: n for (p, status), n in sorted(t.statuses.items()) if p == path}
            out.append(f"  {path:13} n={len(values):6d}  p50 {percentile(values, 50):7.1f} ms  p99 {percentile(values, 99):7.1f} ms"
                       + (f"  statuses {codes}" if codes else ""))
        moves = sum(1 for _ in t.answers)
        out.append(f"  moves answered {moves} ({moves / max(self.seconds, 1):.1f}/s); in the log {self.moves_logged}; "
                   f"lost {self.lost}; duplicated {self.duplicated}")
        out.append(f"  5xx (not 503) {t.server_errors}; 503 {t.busy}; socket errors {dict(t.socket_errors)}; "
                   f"reconnects {t.reconnects}; refused connections {t.network_errors}")
        if t.drops:
            out.append(f"  why sockets dropped: {dict(t.drops.most_common())}")
        out.append(f"  phones not at their game's last version at the end: {self.phones_behind}")
        budget_text = f" (budget {budget})" if budget is not None else ""
        out.append(f"  PostgreSQL connections, highest seen: {self.peak_connections}{budget_text}; "
                   f"per process {dict(self.peak_connections_by_process)}")
        for name, (start, end) in self.memory_mib.items():
            out.append(f"  {name:22} RSS {start:6.1f} MiB at its start, {end:6.1f} MiB at the end")
            trace = self.memory_trace.get(name)
            if trace:
                out.append(f"  {'':22} RSS each tenth of the run: {' '.join(f'{m:.0f}' for m in trace)} MiB")
        return out


def _rss_mib(pid: int) -> float:
    import psutil

    try:
        return psutil.Process(pid).memory_info().rss / 2**20
    except Exception:  # noqa: BLE001
        return float("nan")


def log_check(database_url: str | None, answers: list[tuple[str, int, str]], codes: list[str], django_db=None) -> tuple[int, int, int]:
    """(lost, duplicated, moves in the log) of these answers against the games' logs."""
    rows: list[tuple[str, int, str | None]]
    sql = ("SELECT g.code, a.sequence, a.command_id FROM games_action a JOIN games_game g ON g.id = a.game_id "
           "WHERE g.code = ANY(%s)")
    if database_url:
        import psycopg

        with psycopg.connect(database_url) as conn:
            rows = conn.execute(sql, [codes]).fetchall()
    else:  # through Django (SQLite): one query per game
        rows = []
        for code in codes:
            rows += list(django_db.filter(game__code=code).values_list("game__code", "sequence", "command_id"))
    log = {(code, seq): cid for code, seq, cid in rows}
    ids = Counter((code, cid) for code, _, cid in rows if cid)
    by_version: dict[tuple[str, int], set[str]] = defaultdict(set)
    for code, version, command_id in answers:
        by_version[(code, version)].add(command_id)
    lost = sum(1 for (code, version), cids in by_version.items() for cid in cids if log.get((code, version)) != cid)
    duplicated = sum(len(cids) - 1 for cids in by_version.values()) + sum(n - 1 for n in ids.values() if n > 1)
    moves = sum(1 for code, seq, cid in rows if cid and ("-ws-" in cid or "-api-" in cid))
    return lost, duplicated, moves


async def _run_clients(cluster, tables, api_games, *, phones, rate, pollers, poll_period, api_period, seconds, faults, tally):
    until = time.monotonic() + seconds
    urls = cluster.urls
    tasks = [asyncio.create_task(_table(urls, g, phones, rate, until, tally, random.Random(i))) for i, g in enumerate(tables)]
    tasks += [asyncio.create_task(_poller(urls, tables or api_games, poll_period, until, tally, random.Random(1000 + i)))
              for i in range(pollers)]
    tasks += [asyncio.create_task(_api_client(urls, g, api_period, until, tally, random.Random(2000 + i)))
              for i, g in enumerate(api_games)]
    began = time.monotonic()
    for at, action in sorted(faults, key=lambda f: f[0]):
        await asyncio.sleep(max(0.0, began + at * seconds - time.monotonic()))
        await asyncio.get_running_loop().run_in_executor(None, action)
    results = await asyncio.gather(*tasks)
    return results[: len(tables)]


def soak(
    *,
    cluster: Cluster,
    create_game: Callable[[str, str, int, dict], tuple[str, list[str]]],
    kind: str,
    players: int,
    options: dict,
    tables: int,
    phones: int,
    rate: float,
    pollers: int,
    poll_period: float,
    api_clients: int,
    api_period: float,
    seconds: float,
    kill_at: float | None = 0.5,
    redis_restart: Callable[[], None] | None = None,
    redis_restart_at: float = 0.7,
    database_url: str | None = None,
    app_prefix: str = "junction-soak",
    django_actions=None,
) -> SoakResult:
    """Run the soak; ``create_game(base_url, kind, players, options)`` → (code, tokens)."""
    urls = cluster.urls
    table_games = [dict(zip(("code", "tokens"), create_game(urls[i % len(urls)], kind, players, options), strict=True))
                   for i in range(tables)]
    api_games = [dict(zip(("code", "tokens"), create_game(urls[i % len(urls)], "toy", 2, {"target": 1000}), strict=True))
                 for i in range(api_clients)]
    memory_start = {pid: _rss_mib(pid) for pid in cluster.pids()}  # by pid: a restarted Daphne is measured anew
    faults: list[tuple[float, Callable[[], None]]] = []
    names: list[str] = []
    if kill_at is not None:
        victim = len(cluster.servers) - 1

        def kill() -> None:
            cluster.kill_and_restart(victim)
            pid = cluster.servers[victim].proc.pid
            memory_start[pid] = _rss_mib(pid)

        faults.append((kill_at, kill))
        names.append(f"SIGKILL + restart of daphne{victim + 1} at {kill_at:.0%}")
    if redis_restart is not None:
        faults.append((redis_restart_at, redis_restart))
        names.append(f"Redis restarted at {redis_restart_at:.0%}")
    tally = Tally()
    watch = ConnectionWatch(database_url, app_prefix) if database_url else None
    trace: dict[int, list[float]] = defaultdict(list)
    tracing = threading.Event()

    def sample() -> None:  # every tenth of the run, each live process's RSS
        while not tracing.wait(seconds / 10):
            for pid in cluster.pids():
                trace[pid].append(_rss_mib(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    began = time.monotonic()
    if watch:
        watch.__enter__()
    try:
        versions = asyncio.run(_run_clients(
            cluster, table_games, api_games, phones=phones, rate=rate, pollers=pollers, poll_period=poll_period,
            api_period=api_period, seconds=seconds, faults=faults, tally=tally,
        ))
    finally:
        tracing.set()
        if watch:
            watch.__exit__(None, None, None)
    elapsed = time.monotonic() - began
    names_by_pid = {pid: f"daphne{i + 1} (pid {pid})" for i, pid in enumerate(cluster.pids())}
    memory = {name: (memory_start.get(pid, float("nan")), _rss_mib(pid)) for pid, name in names_by_pid.items()}
    codes = [g["code"] for g in table_games + api_games]
    lost, duplicated, logged = log_check(database_url, tally.answers, codes, django_actions)
    last = _last_versions(database_url, [g["code"] for g in table_games], django_actions)
    behind = sum(1 for g, vs in zip(table_games, versions, strict=True) for v in vs if v < last.get(g["code"], 0))
    return SoakResult(
        tally=tally, seconds=elapsed, lost=lost, duplicated=duplicated, moves_logged=logged,
        peak_connections=watch.peak_total if watch else 0,
        peak_connections_by_process=dict(watch.peak_by_name) if watch else {},
        memory_mib=memory, memory_trace={names_by_pid[pid]: t for pid, t in trace.items() if pid in names_by_pid},
        phones_behind=behind, faults=names,
    )


def _last_versions(database_url, codes, django_actions) -> dict[str, int]:
    if database_url:
        import psycopg

        with psycopg.connect(database_url) as conn:
            return dict(conn.execute("SELECT code, version FROM games_game WHERE code = ANY(%s)", [codes]).fetchall())
    from games.models import Game

    return dict(Game.objects.filter(code__in=codes).values_list("code", "version"))


def daphne_env(index: int, pool_size: int, app_prefix: str = "junction-soak") -> dict[str, str]:
    """The environment a soak's Daphne runs with: its own PostgreSQL application name."""
    return {"PGAPPNAME": f"{app_prefix}-{index}-{os.getpid()}", "JUNCTION_DB_POOL_SIZE": str(pool_size)}
