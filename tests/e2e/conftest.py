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


def start_daphne(extra_env: dict[str, str] | None = None, port: int | None = None) -> DaphneServer:
    port = port or free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "JUNCTION_EXTRA_ENGINES": "tests.support.toy_engine",
        "JUNCTION_BOT_DELAY": "0",
        "PYTHONUNBUFFERED": "1",
        **database_env(),
        **(extra_env or {}),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    logs = ROOT / "var" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"daphne-{port}.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    server = DaphneServer(port, proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200:
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
