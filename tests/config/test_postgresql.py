"""The pooled PostgreSQL backend (config/postgresql/base.py): a bounded number of
connections per process, lent to one request at a time, checked without a round trip
when that is safe, and prepared statements that outlive the request."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import close_old_connections, connection, connections

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pool():
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL backend")
    return connection.pool


@pytest.fixture
def full_checks(pool, monkeypatch):
    """Every round-trip check psycopg's pool makes of a connection it lends."""
    from psycopg_pool import ConnectionPool

    calls = []
    original = ConnectionPool.check_connection

    def counting(conn):
        calls.append(conn.info.backend_pid)
        return original(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counting))
    return calls


def admin_connection() -> psycopg.Connection:
    s = connection.settings_dict
    return psycopg.connect(dbname=s["NAME"], user=s["USER"], host=s["HOST"], port=s["PORT"] or 5432, autocommit=True)


def request_using_the_database() -> int:
    """What Django and channels do around every request or command; the backend's pid."""
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    close_old_connections()  # CONN_MAX_AGE 0: the connection goes back to the pool
    return pid


def test_the_connection_goes_back_to_the_pool_when_the_request_ends(pool):
    request_using_the_database()
    assert connection.connection is None
    assert pool.get_stats()["pool_size"] <= pool.max_size


def test_a_connection_lent_a_moment_ago_is_not_checked_with_a_round_trip(full_checks, pool):
    for _ in range(2 * pool.max_size):  # every pooled connection has been lent and checked once
        request_using_the_database()
    before = len(full_checks)
    for _ in range(2 * pool.max_size):
        request_using_the_database()
    assert len(full_checks) == before


def test_a_connection_not_checked_lately_is_checked(full_checks, monkeypatch):
    from config.postgresql import base

    request_using_the_database()
    monkeypatch.setattr(base, "RECENTLY_PROVEN", 0.0)
    before = len(full_checks)
    request_using_the_database()
    request_using_the_database()
    assert len(full_checks) == before + 2


def test_connections_the_server_ended_are_replaced_without_an_error(full_checks, pool):
    pids = {request_using_the_database() for _ in range(2 * pool.max_size)}
    with admin_connection() as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(pids)])
    time.sleep(0.2)  # the server's goodbye reaches the pooled sockets
    before = len(full_checks)
    pid = request_using_the_database()  # no error: the check saw it and the pool replaced it
    assert pid not in pids
    assert len(full_checks) > before


def _pooled_pids(pool) -> set[int]:
    """The backend pids of the pool's idle connections (each borrowed once and given back)."""
    held = []
    try:
        while pool.get_stats().get("pool_available", 0) > 0:
            held.append(pool.getconn())
        return {conn.info.backend_pid for conn in held}
    finally:
        for conn in held:
            pool.putconn(conn)


def test_concurrent_requests_never_hold_more_connections_than_the_pool(pool):
    """Three times as many threads as the pool has connections, each making requests: the
    server never sees more of this process's sessions than the pool's size. Sessions that
    were there before the threads started and are not the pool's (a backend still exiting
    after an earlier test, say) are not this pool's doing and are left out of the count."""
    peak, stop, errors = [0], threading.Event(), []
    name = connection.settings_dict["NAME"]
    close_old_connections()
    request_using_the_database()  # the pool is open
    ours = _pooled_pids(pool)
    sessions = "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
    with admin_connection() as admin:
        others = {pid for (pid,) in admin.execute(sessions, [name]).fetchall()} - ours

    def watch():
        with admin_connection() as admin:
            while not stop.is_set():
                pids = {pid for (pid,) in admin.execute(sessions, [name]).fetchall()}
                peak[0] = max(peak[0], len(pids - others))
                time.sleep(0.005)

    def client():
        try:
            for _ in range(5):
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_sleep(0.02)")
                close_old_connections()
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    watcher = threading.Thread(target=watch)
    watcher.start()
    threads = [threading.Thread(target=client) for _ in range(3 * pool.max_size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    watcher.join()
    assert errors == []
    assert pool.max_size // 2 <= peak[0] <= pool.max_size


def test_the_write_path_prepares_its_statement_once_per_pooled_connection(pool):
    from games import services

    from ..games.factories import actor, make_game

    code, tokens = make_game(options={"target": 1000})
    moves = 1  # the start is saved by the same statement
    for i in range(3 * pool.max_size):  # more saves than connections: some share one
        close_old_connections()
        seat = i % 2
        services.game_command(code=code, actor=actor(code, tokens[seat]), command={"cmd": "add", "n": 1})
        moves += 1
    close_old_connections()
    # Borrow every pooled connection and ask each how often it ran the save statement.
    held, prepared, executions = [], 0, 0
    try:
        while pool.get_stats().get("pool_available", 0) > 0:
            conn = pool.getconn()
            held.append(conn)
            rows = conn.execute(
                "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement ILIKE %s",
                ["%UPDATE%games_game%"]).fetchall()
            prepared += len(rows)
            executions += sum(r[0] for r in rows)
    finally:
        for conn in held:
            pool.putconn(conn)
    assert executions == moves  # every save ran as a prepared statement
    assert prepared < moves  # prepared once per connection, used again by later requests
