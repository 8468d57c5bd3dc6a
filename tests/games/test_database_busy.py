"""A database that cannot serve now (no pooled connection in time on PostgreSQL, a write
lock held too long on SQLite) is answered 503 ``database-busy`` with ``Retry-After`` over
HTTP and with an error frame over the WebSocket, which stays open; nothing is written, and
the same command (same ``command_id``) goes through once the database is back."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import django.db
import pytest
from channels.db import database_sync_to_async
from django.db import close_old_connections, connection

from games.errors import database_busy
from games.selectors import game_get

from .factories import make_game
from .test_consumers import communicator, connected, receive_type

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def database_busy_now():
    """Hold the database so that a new request cannot use it for ~0.3 s: every pooled
    connection on PostgreSQL, the write lock on SQLite (where readers still read)."""
    close_old_connections()
    connection.close()
    if connection.vendor == "postgresql":
        pool = connection.pool
        pool.open()
        timeout, pool.timeout = pool.timeout, 0.3
        held = []
        try:
            while len(held) < pool.max_size:
                held.append(pool.getconn(timeout=10))
            yield
        finally:
            for conn in held:
                pool.putconn(conn)
            pool.timeout = timeout
    else:
        options = connection.settings_dict["OPTIONS"]
        timeout, options["timeout"] = options["timeout"], 0.3
        locker = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        try:
            locker.execute("BEGIN IMMEDIATE")
            yield
        finally:
            locker.execute("ROLLBACK")
            locker.close()
            options["timeout"] = timeout
            connection.close()


def test_the_busy_test_database_is_recognised():
    """The two faults the fixture makes are what the edges take for a busy database."""
    code, tokens = make_game()
    with database_busy_now(), pytest.raises(django.db.OperationalError) as caught:
        with connection.cursor() as cursor:  # a write: blocked on both
            cursor.execute("UPDATE games_game SET version = version WHERE code = %s", [code])
    assert database_busy(caught.value)
    assert not database_busy(django.db.OperationalError("no such table: nowhere"))


def test_an_http_command_is_answered_503_and_nothing_is_written(api_client):
    code, tokens = make_game()
    body = {"cmd": "add", "n": 1, "command_id": "busy-1"}
    auth = {"HTTP_AUTHORIZATION": f"Bearer {tokens[0]}"}
    with database_busy_now():
        response = api_client.post(f"/api/games/{code}/commands", body, format="json", **auth)
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.json()["error"]["code"] == "database-busy"
    close_old_connections()
    assert game_get(code=code).version == 1
    again = api_client.post(f"/api/games/{code}/commands", body, format="json", **auth)
    assert again.status_code == 200 and again.json()["version"] == 2


def test_a_page_and_a_read_are_answered_503_when_no_connection_can_be_had(api_client, client):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite readers are never blocked by a writer")
    code, tokens = make_game()
    with database_busy_now():
        page = client.get(f"/games/{code}/")
        state = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
    assert page.status_code == 503 and page["Retry-After"] == "1"
    assert b"busy" in page.content
    assert state.status_code == 503 and state.json()["error"]["code"] == "database-busy"


@pytest.mark.asyncio
async def test_a_socket_command_gets_an_error_frame_and_the_socket_stays():
    code, tokens = await database_sync_to_async(make_game)()
    seat0, first = await connected(code, tokens[0])
    # PostgreSQL: a read needs a pooled connection (a remembered game's move may be saved on
    # the event loop's own connection, which is no pool's). SQLite: a write needs the lock.
    command = {"cmd": "get-state"} if connection.vendor == "postgresql" else {"cmd": "add", "n": 1}
    frame = json.dumps({**command, "command_id": "busy-ws"})
    busy = database_busy_now()
    await database_sync_to_async(busy.__enter__)()
    try:
        await seat0.send_to(text_data=frame)
        error = await receive_type(seat0, "error", timeout=5)
    finally:
        await database_sync_to_async(busy.__exit__)(None, None, None)
    assert error["error"]["code"] == "database-busy" and error["retry_after"] == 1
    assert error["command_id"] == "busy-ws"
    await seat0.send_to(text_data=frame)  # the same socket, the same command id
    answer = json.loads(await seat0.receive_from(timeout=5))
    assert answer["type"] in ("state", "result")
    await seat0.disconnect()


@pytest.mark.asyncio
async def test_a_socket_that_connects_while_no_connection_can_be_had_is_told_and_closed():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite readers are never blocked by a writer")
    code, tokens = await database_sync_to_async(make_game)()
    busy = database_busy_now()
    await database_sync_to_async(busy.__enter__)()
    try:
        comm = communicator(code, tokens[0])
        ok, _ = await comm.connect(timeout=5)
        assert ok
        message = json.loads(await comm.receive_from(timeout=5))
        closed = await comm.receive_output(timeout=5)
    finally:
        await database_sync_to_async(busy.__exit__)(None, None, None)
    assert message["error"]["code"] == "database-busy"
    assert closed == {"type": "websocket.close", "code": 1013}
