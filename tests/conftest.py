"""Shared fixtures. The toy engine is registered for every test; Daphne processes
started by end-to-end tests get it through JUNCTION_EXTRA_ENGINES. Pure engine
tests also run without Django (``-p no:django``), so Django fixtures are optional."""

from __future__ import annotations

import os

import pytest

TOY_ENGINE_MODULE = "tests.support.toy_engine"


# Fixtures through which a test reaches the database, the channel layer or a server.
# (pytest-django's django_db_blocker is on every test: not one of them.)
_SERVICE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "client", "api_client", "settings",
                     "daphne", "live_server_url"}


def pytest_collection_modifyitems(config, items):
    """Fast in-process tests first; real processes and browsers (tests/e2e) last.

    JUNCTION_TEST_PART splits the suite for ``make test``: ``pure`` keeps only the pure rules tests (under
    tests/games/engines/, using none of the fixtures above and not marked django_db: the engines import no
    Django and touch no database, channel layer or server), which pass 1 runs on every core; ``services``
    keeps everything else, which pass 1 runs on the embedded default and pass 2 again on PostgreSQL + Redis
    (but the tests marked ``layout``: what pages look like does not depend on the services). When both
    passes run (``make test`` sets JUNCTION_TEST_SPLIT=1 once PostgreSQL and Redis answer), a case marked
    ``pass_only(n)`` runs in pass ``n`` only: the cases of a long parametrized test shared between the
    passes, each run once. Unset (a plain ``pytest``): everything."""
    items.sort(key=lambda item: "/e2e/" in str(item.fspath))
    part = os.environ.get("JUNCTION_TEST_PART")
    if part not in ("pure", "services"):
        return
    pure = {id(item) for item in items if _pure(item)}
    drop = [item for item in items if (id(item) in pure) != (part == "pure")]
    if part == "services" and os.environ.get("DATABASE_URL"):
        # Pass 2 (PostgreSQL + Redis): not the layout walk, which looks at pages, not at the services behind them.
        drop += [item for item in items if id(item) not in pure and item.get_closest_marker("layout") is not None]
    if part == "services" and os.environ.get("JUNCTION_TEST_SPLIT") == "1":
        this = 2 if os.environ.get("DATABASE_URL") else 1
        drop += [item for item in items if (only := item.get_closest_marker("pass_only")) is not None and only.args[0] != this]
    if drop:
        config.hook.pytest_deselected(items=drop)
        gone = set(map(id, drop))
        items[:] = [item for item in items if id(item) not in gone]


def _pure(item) -> bool:
    return ("/tests/games/engines/" in str(item.fspath) and not _SERVICE_FIXTURES & set(getattr(item, "fixturenames", ()))
            and item.get_closest_marker("django_db") is None)


def _django_active(request) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True, scope="session")
def _toy_engine():
    from games.engines.registry import register
    from tests.support.toy_engine import ENGINE

    register(ENGINE)


@pytest.fixture(autouse=True)
def _django_test_settings(request):
    """Bots move inline; rate-limit counters (in the cache) and remembered games start from zero."""
    if not _django_active(request):
        yield
        return
    from django.core.cache import cache

    from games import store

    settings = request.getfixturevalue("settings")
    settings.JUNCTION_BOTS_INLINE = True
    cache.clear()
    store.forget()  # the games this process remembers (the database is emptied between tests)
    yield
    cache.clear()
    store.forget()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(scope="session", autouse=True)
def _test_database_to_ourselves(request):
    """PostgreSQL refuses to drop the test database while other sessions use it: those of
    channels' database threads (a consumer's ``database_sync_to_async`` keeps its thread
    and connection) and of any straggling Daphne. End them before the database is dropped."""
    if not _django_active(request):
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with request.getfixturevalue("django_db_blocker").unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
