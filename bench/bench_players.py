"""Benchmark: what players (issue 17: accounts, turn notices, clocks) cost a move, and how soon a turn notice lands.

One Daphne, on the embedded default (a SQLite file and the in-memory channel layer) unless
``--database-url`` and ``--redis-url`` are given (PostgreSQL + Redis; ``DATABASE_URL`` /
``REDIS_URL`` or ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` from the environment are taken as
the defaults). This process opens the same database through the ORM to do what the accounts pages
would: make users and set ``Seat.user``. The game is the test suite's toy race (two seats take
turns adding 1 to a counter): a steady stream of legal moves that costs the rules nothing, so what
is measured is the platform's move path.

1. **Move latency**, a guest game against a watched one, in alternating rounds of ``--moves``
   moves each, one move at a time (``--gap-ms`` between them):

   - *guest*: nobody signed in, no clock: unwatched, the fast path;
   - *watched*: created with a clock (``turn_seconds=3600``), both seats linked to users
     (``Seat.user`` set in the lobby, then ``games.turns.game_watch``). Every move writes the
     seats' turn fields and deadline in its transaction, and after commit the turn notice's
     listener runs in the Daphne process (the TurnNotice row, then the open-socket check: one read;
     without a socket, the seat, game, setting and address in one more); these users have no push device and no e-mail, so nothing is sent.

   Over HTTP (``POST /api/games/{code}/commands``, keep-alive, no socket open: each move starts
   a signed-in player's turn with no page open) the time to the answer; over WebSocket (both
   seats' sockets open, so the notices stop at the open-socket check) the time to the mover's
   ``result`` frame and to the other seat's ``state`` frame of the new version.

2. **Turn-notice delay**: Daphne gets VAPID keys; a fake Web Push service (tests/support/fake_push.py)
   runs in this process; two users hold the seats of a watched toy game (no clock), each with one
   push device and no socket open. ``--turns`` moves over HTTP, each waited on until the notice of
   the turn it started has reached the fake service: the delay is from the move's HTTP answer
   (this process's clock) to the service receiving the push (same clock). Negative means the
   notice arrived before the answer was read. After the last turn (and ``--settle`` seconds) every
   device must hold exactly one notice per turn of its seat (the game's start counts as seat 0's
   first turn), and the database a ``push`` TurnNotice for each.

    .venv/bin/python bench/bench_players.py [--moves 120] [--rounds 2] [--turns 100] [--gap-ms 5]
        [--database-url postgres://… --redis-url redis://…] [--sqlite-path FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
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
)

sys.path.insert(0, str(ROOT))

TOY_TARGET = 1000  # the toy race's largest target: a game holds up to 999 moves
RUN = uuid.uuid4().hex[:8]  # this run's users' names (a PostgreSQL bench database keeps earlier runs')
CLOCK = 3600  # the watched game's clock: an hour per turn (never runs out during the bench)


# -- setting up games -----------------------------------------------------------------------------

def toy_game(client, *, turn_seconds: int | None, users: list | None) -> tuple[str, list[str]]:
    """Create a two-seat toy race over HTTP (with a clock if ``turn_seconds``), fill it, link its
    seats to ``users`` through the ORM and watch it (in the lobby, as a signed-in player joining
    would), then start it; its code and seat tokens."""
    from games.models import Game, Seat
    from games.turns import game_watch

    created = client.post("/api/games", json={"kind": "toy", "name": "p0", "options": {"target": TOY_TARGET},
                                              **({"turn_seconds": turn_seconds} if turn_seconds else {})})
    created.raise_for_status()
    code = created.json()["code"]
    tokens = [created.json()["token"]]
    joined = client.post(f"/api/games/{code}/seats", json={"name": "p1"})
    joined.raise_for_status()
    tokens.append(joined.json()["token"])
    if users:
        game = Game.objects.get(code=code)
        for index, user in enumerate(users):
            Seat.objects.filter(game=game, index=index).update(user=user)
        game_watch(game_id=game.pk)
    client.post(f"/api/games/{code}/start", headers=bearer(tokens[0])).raise_for_status()
    return code, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_users(tag: str, n: int, *, email: bool) -> list:
    from django.contrib.auth import get_user_model

    User = get_user_model()  # noqa: N806
    # No password: no hashing. No e-mail address unless asked: a notice with no device then sends nothing.
    return [User.objects.create_user(f"bench-{tag}-{i}", f"bench-{tag}-{i}@example.com" if email else "")
            for i in range(n)]


# -- 1. move latency ------------------------------------------------------------------------------

def http_moves(client, code: str, tokens: list[str], moves: int, gap: float) -> tuple[list[float], list[str]]:
    """``moves`` moves over HTTP, seats in turn; the time to each answer (ms) and the errors."""
    times, errors = [], []
    for i in range(moves):
        start = time.perf_counter()
        response = client.post(f"/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=bearer(tokens[i % 2]))
        elapsed = time.perf_counter() - start
        if response.status_code == 200:
            times.append(elapsed * 1000)
        else:
            errors.append(f"{response.status_code} {response.text[:200]}")
        time.sleep(gap)
    return times, errors


class Socket:
    """A seat's WebSocket: when each state version arrived; answers to its commands by id."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.state_at: dict[int, float] = {}
        self.waiting: dict[tuple[str, object], asyncio.Future] = {}
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                self.state_at.setdefault(message["version"], now)
                self._resolve(("state", message["version"]), now)
            elif kind in ("result", "error"):
                self._resolve(("answer", message.get("command_id")), (now, message))

    def _resolve(self, key, value) -> None:
        future = self.waiting.pop(key, None)
        if future is not None and not future.done():
            future.set_result(value)

    def wait(self, key) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        if key[0] == "state" and key[1] in self.state_at:
            future.set_result(self.state_at[key[1]])
        else:
            self.waiting[key] = future
        return future


async def ws_moves(ws_base: str, code: str, tokens: list[str], moves: int, gap: float) -> dict:
    """``moves`` moves over WebSocket, seats in turn, both sockets open; per move the time to the
    mover's result and to the other seat's state frame of the new version (ms)."""
    import websockets

    answer, other, errors = [], [], []
    conns = [await websockets.connect(f"{ws_base}/ws/games/{code}/?token={t}", max_queue=None) for t in tokens]
    sockets = [Socket(ws) for ws in conns]
    try:
        while not all(s.state_at for s in sockets):  # each seat's first snapshot
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the sockets' presence rows written (a signed-in seat's)
        for i in range(moves):
            mover, watcher = sockets[i % 2], sockets[(i + 1) % 2]
            command_id = f"m{i}"
            result = mover.wait(("answer", command_id))
            start = time.perf_counter()
            await mover.ws.send(json.dumps({"cmd": "add", "n": 1, "command_id": command_id}))
            at, message = await asyncio.wait_for(result, 30)
            if message.get("type") != "result":
                errors.append(json.dumps(message)[:200])
                continue
            answer.append((at - start) * 1000)
            seen = await asyncio.wait_for(watcher.wait(("state", message["version"])), 30)
            other.append((seen - start) * 1000)
            await asyncio.sleep(gap)
    finally:
        for ws in conns:
            await ws.close()
        for s in sockets:
            s.task.cancel()
    return {"answer": answer, "other": other, "errors": errors}


def move_latency(base: str, ws_base: str, args: argparse.Namespace) -> tuple[dict, dict]:
    """Alternating rounds of guest and watched games over HTTP and WebSocket; the times per
    (transport, game) and what the watched games left in the database."""
    import httpx

    from games.models import Game, Seat
    from players.models import TurnNotice

    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    errors: list[str] = []
    watched_codes: list[str] = []
    gap = args.gap_ms / 1000
    with httpx.Client(base_url=base, timeout=30) as client:
        for r in range(args.rounds):
            for transport in ("http", "ws"):
                for game in ("guest", "watched"):
                    users = new_users(f"{RUN}-{r}-{transport}", 2, email=False) if game == "watched" else None
                    code, tokens = toy_game(client, turn_seconds=CLOCK if game == "watched" else None, users=users)
                    if game == "watched":
                        watched_codes.append(code)
                    if transport == "http":
                        lat, errs = http_moves(client, code, tokens, args.moves, gap)
                        times[("HTTP POST → its answer", game)] += lat
                    else:
                        out = asyncio.run(ws_moves(ws_base, code, tokens, args.moves, gap))
                        times[("WS command → its result", game)] += out["answer"]
                        times[("WS command → other seat's state", game)] += out["other"]
                        errs = out["errors"]
                    errors += errs
    time.sleep(0.5)  # the last turn's listener
    games = Game.objects.filter(code__in=watched_codes)
    check = {
        "games": games.count(),
        "watched": games.filter(watched=True, turn_seconds=CLOCK).count(),
        "deadlines": Seat.objects.filter(game__in=games, turn_deadline__isnull=False).count(),
        "notices": TurnNotice.objects.filter(game__in=games).count(),
        "errors": errors,
    }
    return times, check


# -- 2. turn-notice delay ---------------------------------------------------------------------------

class Stamped(list):
    """FakePushService.received with the arrival time of each request, per path (this process's
    clock), and a condition to wait on instead of polling."""

    def __init__(self) -> None:
        super().__init__()
        self.cond = threading.Condition()
        self.at: dict[str, list[float]] = defaultdict(list)

    def append(self, item) -> None:
        now = time.perf_counter()
        super().append(item)
        with self.cond:
            self.at[item.path].append(now)
            self.cond.notify_all()

    def wait_count(self, path: str, count: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: len(self.at[path]) >= count, timeout)


def notice_delay(base: str, push, args: argparse.Namespace) -> dict:
    import httpx

    from games.models import Game
    from players.models import PushSubscription, TurnNotice

    stamped = Stamped()
    push.received = stamped  # the handler appends to it under the service's own lock
    users = new_users(f"{RUN}-push", 2, email=False)
    devices = []
    for i, user in enumerate(users):
        device = push.device(f"bench-{RUN}-{i}")
        PushSubscription.objects.create(user=user, endpoint=device.endpoint, **device.keys)
        devices.append(device)
    paths = [d.endpoint.removeprefix(push.url) for d in devices]
    expected = [1, 0]  # the start begins seat 0's turn
    delays, missing = [], 0
    with httpx.Client(base_url=base, timeout=30) as client:
        code, tokens = toy_game(client, turn_seconds=None, users=users)
        if not stamped.wait_count(paths[0], 1, 10):
            missing += 1
        for i in range(args.turns):
            mover, next_seat = i % 2, (i + 1) % 2
            response = client.post(f"/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=bearer(tokens[mover]))
            answered = time.perf_counter()
            response.raise_for_status()
            expected[next_seat] += 1
            if stamped.wait_count(paths[next_seat], expected[next_seat], 10):
                delays.append((stamped.at[paths[next_seat]][expected[next_seat] - 1] - answered) * 1000)
            else:
                missing += 1
            time.sleep(args.gap_ms / 1000)
    time.sleep(args.settle)  # a second notice for a turn would have come by now
    got = [len(stamped.at[p]) for p in paths]
    game = Game.objects.get(code=code)
    decrypted = devices[1].decrypt(push.to(devices[1])[0].body) if got[1] else {}
    return {
        "delays": delays, "expected": expected, "got": got, "missing": missing,
        "pushed_rows": TurnNotice.objects.filter(game=game, channel=TurnNotice.Channel.PUSH).count(),
        "rows": TurnNotice.objects.filter(game=game).count(),
        "url_ok": decrypted.get("url") == f"/games/{code}/",
    }


# -- the run ----------------------------------------------------------------------------------------

def stats(values: list[float]) -> str:
    if not values:
        return f"{'—':>8}" * 4 + f"{0:>7}"
    return "".join(f"{percentile(values, q):8.2f}" for q in (50, 95, 99)) + f"{max(values):8.2f}{len(values):7d}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=120, help="moves per game and round (each transport, each game)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of guest and watched games")
    parser.add_argument("--turns", type=int, default=100, help="timed turn notices")
    parser.add_argument("--gap-ms", type=float, default=5, help="pause between moves")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds waited for stray notices after the last turn")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", os.environ.get("DATABASE_URL", "")),
                        help="PostgreSQL (with --redis-url) instead of the embedded SQLite + in-memory layer")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", os.environ.get("REDIS_URL", "")))
    parser.add_argument("--sqlite-path", default="", help="the embedded default's SQLite file (default: a new temporary one)")
    args = parser.parse_args()
    if bool(args.database_url) != bool(args.redis_url):
        parser.error("--database-url and --redis-url go together")
    if max(args.moves, args.turns) > TOY_TARGET - 10:
        parser.error(f"--moves and --turns must stay under {TOY_TARGET - 10} (one toy game each)")
    if args.database_url:
        why = services_reachable(args.database_url, args.redis_url)
        if why:
            print(f"SKIPPED: {why}")
            return 0

    from tests.support.fake_push import FakePushService, vapid_pair

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-players-") as tmp, processes() as started:
        if args.database_url:
            env = {"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url}
            prepare_database(args.database_url)
            flush_redis(args.redis_url)
        else:  # the embedded default: no DATABASE_URL / REDIS_URL from this shell may reach the server
            os.environ.pop("DATABASE_URL", None)
            os.environ.pop("REDIS_URL", None)
            env = {"SQLITE_PATH": args.sqlite_path or str(Path(tmp) / "db.sqlite3")}
            subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                           env={**os.environ, **env}, check=True)
        # This process reaches the same database through the ORM (the server's own settings).
        os.environ.update({**env, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
                           "JUNCTION_BOTS_INLINE": "0"})
        import django

        django.setup()
        logging.getLogger("httpx").setLevel(logging.WARNING)  # Django's logging config would print each request

        private, public = vapid_pair()
        push = FakePushService().start()
        try:
            daphne = start_daphne({**env, "JUNCTION_BOTS_INLINE": "0",
                                   "JUNCTION_VAPID_PRIVATE_KEY": private, "JUNCTION_VAPID_PUBLIC_KEY": public})
            started.append(daphne)
            base, ws_base = f"http://127.0.0.1:{daphne.port}", f"ws://127.0.0.1:{daphne.port}"
            t0 = time.perf_counter()
            times, check = move_latency(base, ws_base, args)
            t1 = time.perf_counter()
            notices = notice_delay(base, push, args)
            t2 = time.perf_counter()
        finally:
            push.stop()

    where = "PostgreSQL + Redis" if args.database_url else "embedded: SQLite + in-memory channel layer"
    print(f"one Daphne ({where}); toy race, 2 seats; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs")
    print(f"\n1. Move latency: {args.rounds} rounds x {args.moves} moves per game and transport, one at a time "
          f"(gap {args.gap_ms:g} ms), {t1 - t0:.1f} s")
    print("   guest = unwatched (the fast path); watched = seats linked to users + a clock of 1 hour per turn")
    print(f"{'':34}{'game':9}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}{'moves':>7}")
    for path in ("HTTP POST → its answer", "WS command → its result", "WS command → other seat's state"):
        for game in ("guest", "watched"):
            print(f"{path if game == 'guest' else '':34}{game:9}{stats(times[(path, game)])}")
        g, w = times[(path, "guest")], times[(path, "watched")]
        if g and w:
            extra = percentile(w, 50) - percentile(g, 50)
            print(f"{'':34}{'watched - guest at p50:':>31} {extra:+.2f} ms ({100 * extra / percentile(g, 50):+.0f} %)")
    print(f"   watched games: {check['watched']} of {check['games']} watched with the clock, {check['deadlines']} seats "
          f"holding a deadline at the end, {check['notices']} turn notices recorded (no device, no e-mail: none sent)")
    if check["errors"]:
        print(f"   {len(check['errors'])} error answers, first: {check['errors'][0]}")

    d = notices["delays"]
    per_turn = "exactly one per turn" if notices["got"] == notices["expected"] and not notices["missing"] else "NOT one per turn"
    print(f"\n2. Turn notices (VAPID Web Push to a fake push service, no socket open): {args.turns} turns, {t2 - t1:.1f} s")
    print(f"{'':34}{'':9}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}{'turns':>7}")
    print(f"{'move answered → push received':34}{'':9}{stats(d)}")
    if d:
        print(f"{'':34}{'min':>9}{min(d):8.2f} ms; {sum(x < 0 for x in d)} arrived before the answer was read")
    print(f"   notices per device: {notices['got']} for {notices['expected']} turns begun (the start included): {per_turn}; "
          f"{notices['missing']} not received within 10 s; TurnNotice rows {notices['rows']}, sent by push "
          f"{notices['pushed_rows']}; payload decrypted, its link {'right' if notices['url_ok'] else 'WRONG'}")
    ok = (per_turn == "exactly one per turn" and notices["pushed_rows"] == sum(notices["expected"])
          and notices["url_ok"] and not check["errors"] and check["watched"] == check["games"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
