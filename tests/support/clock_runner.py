"""``manage.py run_clocks`` in a process of its own, on the test session's database (and Redis on
the services pass): what tests/games/test_clocks.py restarts and tests/e2e/test_browser_clock.py
runs beside Daphne."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def clock_runner(tick: float = 0.2, extra_env: dict[str, str] | None = None, wait: bool = True) -> subprocess.Popen:
    """Started and, with ``wait``, running (its first line read; else call :func:`clock_running`
    later); stop it with SIGTERM (or kill it)."""
    from tests.e2e.conftest import database_env

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "JUNCTION_EXTRA_ENGINES": "tests.support.toy_engine",
           "JUNCTION_BOT_DELAY": "0", "JUNCTION_CLOCK_TICK": str(tick), "PYTHONUNBUFFERED": "1",
           **database_env(), **(extra_env or {})}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    proc = subprocess.Popen([sys.executable, "manage.py", "run_clocks"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return clock_running(proc) if wait else proc


def clock_running(proc: subprocess.Popen) -> subprocess.Popen:
    """Once ``proc`` (a :func:`clock_runner`) says it runs."""
    line = proc.stdout.readline()
    if not line.startswith("clocks: running"):
        proc.kill()
        raise RuntimeError("run_clocks did not start: " + line + proc.stdout.read())
    return proc
