"""Real processes: Daphne servers on free ports, sharing the test database (and
Redis on the services pass), and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from bench.common import PrivateRedis
from tests.support.boards import ensure_wood_and_steel_board  # noqa: F401  (the e2e tests import it from here)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]

# Playwright's sync API keeps an event loop in this thread; our direct ORM reads are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_env() -> dict[str, str]:
    """Point a child process at the database this test session uses."""
    from django.db import connection

    cfg = connection.settings_dict
    if cfg["ENGINE"].endswith("sqlite3"):
        return {"SQLITE_PATH": str(cfg["NAME"]), "DATABASE_URL": ""}
    user = cfg.get("USER") or "postgres"
    host = cfg.get("HOST") or "127.0.0.1"
    port = cfg.get("PORT") or 5432
    return {"DATABASE_URL": f"postgres://{user}@{host}:{port}/{cfg['NAME']}"}


class DaphneServer:
    def __init__(self, port: int, proc: subprocess.Popen, log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_daphne(extra_env: dict[str, str] | None = None, port: int | None = None, bind: str = "127.0.0.1") -> DaphneServer:
    port = port or free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "JUNCTION_EXTRA_ENGINES": "tests.support.toy_engine",
        "JUNCTION_BOT_DELAY": "0",
        # Several tests poll state and the log in tight loops on purpose (test_faults'
        # http_traffic): reads and commands are not what they measure. Creation and joins keep
        # their defaults; tests of the limits set theirs in extra_env.
        "JUNCTION_READ_RATE": "1000000/min",
        "JUNCTION_READ_SEAT_RATE": "1000000/min",
        "JUNCTION_COMMAND_RATE": "1000000/min",
        "JUNCTION_COMMAND_SEAT_RATE": "1000000/min",
        "PYTHONUNBUFFERED": "1",
        **database_env(),
        **(extra_env or {}),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    logs = ROOT / "var" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"daphne-{port}.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", bind, "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    server = DaphneServer(port, proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/livez", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"daphne did not come up:\n{log.read_text()[-3000:]}")


@pytest.fixture
def daphne(transactional_db):
    servers: list[DaphneServer] = []

    def factory(**kwargs) -> DaphneServer:
        server = start_daphne(**kwargs)
        servers.append(server)
        return server

    yield factory
    for server in servers:
        server.stop()


@pytest.fixture
def live_server_url(daphne) -> str:
    return daphne().url


@pytest.fixture(scope="module")
def chromium_browser():
    """One Chromium per test module (Playwright's loop must not outlive the module:
    async tests elsewhere need this thread's loop free)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is missing (.ci/run installs it: apt-get install -y chromium)")
        pytest.skip("Debian's chromium is not installed: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium_browser):
    contexts = []

    def factory(width: int = 390, height: int = 844):
        context = chromium_browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield factory
    for context in contexts:
        context.close()


def requires_shared_services() -> pytest.MarkDecorator:
    shared = bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))
    return pytest.mark.skipif(not shared, reason="needs PostgreSQL + Redis shared between processes (make test's second pass)")


def run_async(coro_factory, timeout: float = 60):
    """Run an async scenario in its own thread (Playwright owns this thread's loop)."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(coro_factory())).result(timeout=timeout)


# --- helpers for the fault, abuse and secrets tests ------------------------------------


class RedisServer(PrivateRedis):
    """A throwaway redis-server on its own port (never the shared one on 6379), so a test
    may stop and restart it without disturbing anything else (bench.common.PrivateRedis)."""

    def start(self) -> RedisServer:
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed")
        super().start()
        return self


@pytest.fixture
def private_redis():
    servers: list[RedisServer] = []

    def factory() -> RedisServer:
        server = RedisServer().start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        server.stop()


def toy_game(url: str, players: int = 2, target: int = 1000, seed: int | None = None) -> dict:
    """Create, fill and start a toy game over HTTP: {"code", "tokens": [seat 0, 1, ...], "host_token"}.
    With ``seed`` the game's seed is set (through the shared database) before it starts."""
    created = httpx.post(f"{url}/api/games", json={"kind": "toy", "name": "p0", "options": {"target": target}}).json()
    tokens = [created["token"]]
    for i in range(1, players):
        tokens.append(httpx.post(f"{url}/api/games/{created['code']}/seats", json={"name": f"p{i}"}).json()["token"])
    if seed is not None:
        from games.models import Game

        Game.objects.filter(code=created["code"]).update(seed=seed)
    started = httpx.post(f"{url}/api/games/{created['code']}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert started.status_code == 200, started.text
    return {"code": created["code"], "tokens": tokens, "host_token": created["host_token"]}


def walk(node, path=()):
    """Every (path, key, value) in a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, (*path, i))


async def ws_record(url: str, path: str, frames: list, stop) -> None:
    """Every JSON frame the socket at ``url + path`` receives, into ``frames``, until ``stop`` is set."""
    import asyncio
    import json

    import websockets

    async with websockets.connect(f"{url}{path}", max_size=2**24) as ws:
        while not stop.is_set():
            try:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 0.2)))
            except TimeoutError:
                continue


async def in_db_thread(read):
    """``read()`` (an ORM read) in a worker thread, whose connection goes back to the pool after: the
    loop's executor threads outlive a read, and each would otherwise keep a pooled connection (on
    PostgreSQL a few tests' reads used the pool up: PoolTimeout)."""
    import asyncio

    from django.db import connections

    def run():
        try:
            return read()
        finally:
            connections.close_all()
    return await asyncio.to_thread(run)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def ws_next(ws, predicate, timeout: float = 10) -> dict:
    """The next JSON frame on ``ws`` for which ``predicate`` holds (others are skipped)."""
    import asyncio
    import json

    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if predicate(message):
                return message


async def ws_state(ws, version: int, timeout: float = 10) -> dict:
    return await ws_next(ws, lambda m: m.get("type") == "state" and m["version"] >= version, timeout)


async def ws_command(ws, body: dict, timeout: float = 10) -> dict:
    """Send a command frame and return the result/error answering its command_id."""
    import json

    await ws.send(json.dumps(body))
    return await ws_next(
        ws, lambda m: m.get("type") in ("result", "error") and m.get("command_id") == body.get("command_id"), timeout
    )


@pytest.fixture(autouse=True)
def _wood_and_steel_board_present(request):
    """Tests on real Daphne processes run on a flushed database after the first one (a
    transactional test's teardown truncates the data migration's board rows): put the
    default board back before each such test."""
    if "daphne" in request.fixturenames:
        request.getfixturevalue("transactional_db")
        ensure_wood_and_steel_board()
    yield


def join_game(page, base_url: str, code: str, *, name: str) -> None:
    """Take a seat in ``code`` as a person does: its join link, a name, "Take a seat", then the game's page."""
    page.goto(f"{base_url}/join/{code}")
    page.fill("#join-name", name)
    page.click("text=Take a seat")
    page.wait_for_url(f"**/games/{code}/")


def two_phones(new_page, base_url: str, *, kind: str = "toy", options=None, start: bool = True):
    """Ann creates a game of ``kind`` on a 390 px phone and Bo joins it by its link on another; with ``start``
    Ann starts it once Bo is seated. Returns (ann, bo, code)."""
    ann = new_page(width=390, height=844)
    code = create_game(ann, base_url, kind=kind, name="Ann", options=options)
    bo = new_page(width=390, height=844)
    join_game(bo, base_url, code, name="Bo")
    ann.wait_for_selector("#seat-list li[data-seat='1']")
    if start:
        ann.click("#start-game")
    return ann, bo, code


def create_game(page, base_url: str, *, kind: str, name: str | None, options=None, to_room: bool = True) -> str:
    """Create a game from the home page's form as a person does; its join code. ``options``,
    if given, is called with the page once the form's options block is open. A Wood and Steel game
    made without a name lands on the table screen (its waiting room too); ``to_room`` then opens the
    room page as well, for tests that work there."""
    page.goto(base_url + "/")
    page.select_option("#create-kind", kind)
    if options is not None:
        page.click("#create-options > summary")
        options(page)
    if name:
        page.fill("#create-name", name)
    page.click("#create-submit")
    if kind == "wood-and-steel" and not name:
        page.wait_for_url("**/games/*/table")
        code = page.get_attribute("#ws-table", "data-code")
        if not to_room:
            return code
        page.goto(f"{base_url}/games/{code}/")
    page.wait_for_url("**/games/*/")
    return page.text_content("#room-code").strip()


def open_chat(page) -> None:
    """Unfold the game's chat panel (a phone shows it folded) and wait until it can be read."""
    box = page.locator("#chat-box")
    box.wait_for(state="visible")
    if not page.evaluate("document.getElementById('chat-box').open"):
        box.locator("summary").click()
    page.wait_for_selector("#chat-form:not([hidden]), #chat-sign-in:not([hidden])")
