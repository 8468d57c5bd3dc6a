"""Settings come from the environment; production refuses unsafe set-ups."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "WEB_CONCURRENCY", "DJANGO_SECRET_KEY"}}
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG, settings.CHANNEL_LAYERS['default']['BACKEND'], settings.DATABASES['default']['ENGINE'])"
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        cwd=ROOT, env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env}, capture_output=True, text=True, timeout=60,
    )


def test_embedded_default_needs_nothing():
    out = load_settings()
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "channels.layers.InMemoryChannelLayer", "django.db.backends.sqlite3"]


def test_urls_select_postgres_and_redis():
    out = load_settings(DATABASE_URL="postgres://u@db:5432/x", REDIS_URL="redis://cache:6379/0")
    assert out.returncode == 0, out.stderr
    # Django's PostgreSQL backend with a cheaper health check (config/postgresql/base.py)
    assert out.stdout.split()[1:] == ["channels_redis.pubsub.RedisPubSubChannelLayer", "config.postgresql"]
    out = load_settings(REDIS_URL="redis://cache:6379/0", JUNCTION_CHANNEL_LAYER="channels_redis.core.RedisChannelLayer")
    assert out.returncode == 0 and out.stdout.split()[1] == "channels_redis.core.RedisChannelLayer", out.stderr


def test_production_needs_a_secret_key():
    out = load_settings(DJANGO_ENV="production")
    assert out.returncode != 0 and "DJANGO_SECRET_KEY" in out.stderr


def test_production_refuses_several_processes_on_the_in_memory_layer():
    out = load_settings(DJANGO_ENV="production", DJANGO_SECRET_KEY="s" * 50, WEB_CONCURRENCY="2")
    assert out.returncode != 0 and "WEB_CONCURRENCY > 1 needs REDIS_URL" in out.stderr


def test_production_single_process_without_redis_warns_loudly():
    out = load_settings(DJANGO_ENV="production", DJANGO_SECRET_KEY="s" * 50)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "False"
    assert "only works with ONE server process" in out.stderr


def test_production_with_redis_and_several_processes_starts():
    out = load_settings(DJANGO_ENV="production", DJANGO_SECRET_KEY="s" * 50, WEB_CONCURRENCY="4", REDIS_URL="redis://cache:6379/0")
    assert out.returncode == 0, out.stderr
    assert "ONE server process" not in out.stderr


_GC_PROBE = """
import gc, threading, time, config.asgi
print(*gc.get_threshold(), gc.get_freeze_count() > 0, any(t.name == "junction-gc" for t in threading.enumerate()))
before = gc.get_stats()[2]["collections"]
time.sleep(1.5)
print(gc.get_stats()[2]["collections"] - before)
"""


def _asgi_gc(**env: str) -> tuple[int, ...]:
    return _asgi_gc_run(**env)[0]


def _asgi_gc_run(**env: str) -> tuple[tuple[int, ...], bool, int]:
    """(thresholds, whether the full-collection thread runs, full collections in 1.5 s)."""
    base = {k: v for k, v in os.environ.items()
            if k not in {"DATABASE_URL", "REDIS_URL", "JUNCTION_GC_THRESHOLD", "JUNCTION_GC_FULL_SECONDS"}}
    out = subprocess.run(
        [sys.executable, "-c", _GC_PROBE],
        cwd=ROOT, env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env}, capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    *threshold, frozen, collector = first.split()
    assert frozen == "True"  # what was loaded at start-up is out of the collector's reach
    return tuple(map(int, threshold)), collector == "True", int(second)


def test_the_asgi_process_collects_in_full_on_a_timer():
    _, running, _ = _asgi_gc_run()
    assert running  # every JUNCTION_GC_FULL_SECONDS (60 by default)
    _, running, collections = _asgi_gc_run(JUNCTION_GC_FULL_SECONDS="0.2")
    assert running and collections >= 3
    _, running, collections = _asgi_gc_run(JUNCTION_GC_FULL_SECONDS="0")
    assert not running and collections == 0


def test_the_asgi_process_collects_garbage_rarely_and_the_thresholds_can_be_set():
    assert _asgi_gc() == (2000, 50, 1000)
    assert _asgi_gc(JUNCTION_GC_THRESHOLD="700,10,10") == (700, 10, 10)
