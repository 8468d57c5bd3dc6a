"""A PostgreSQL server that goes away under a request (an administrator's shutdown terminating
the backend mid-command, then connections refused) is answered 503 ``database-unavailable``
with ``Retry-After`` over HTTP, with an error frame over the WebSocket (which stays open), and
as a 1013 close to a handshake; the move is not applied, and the same command (same
``command_id``) goes through once, when the server is back. It was a 500 ``internal-error``."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import django.db
import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import close_old_connections, connection, connections
from django.test import Client

from games.errors import database_busy, database_fault, database_unavailable
from games.models import Action
from games.selectors import game_get
from tests.support.toy_engine import ENGINE

from .factories import make_game
from .test_consumers import communicator, connected, receive_type

pytestmark = pytest.mark.django_db(transaction=True)

postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's faults: PostgreSQL only")


def wrapped(cause: BaseException, django_class=django.db.OperationalError) -> BaseException:
    """``cause`` as Django raises it: its own class, the driver's error as the cause."""
    try:
        try:
            raise cause
        except BaseException as exc:
            raise django_class(str(exc)) from exc
    except BaseException as outer:
        return outer


def test_a_server_gone_away_is_told_apart_from_a_busy_one_and_from_a_defect():
    from psycopg_pool import PoolTimeout

    gone = [
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg.OperationalError("connection failed: Connection refused"),
        psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"),
        psycopg.InterfaceError("the connection is closed"),
        psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
    ]
    for exc in gone:
        for seen in (exc, wrapped(exc), wrapped(exc, django.db.InterfaceError)):
            assert database_unavailable(seen) and not database_busy(seen), seen
            assert database_fault(seen)[0] == "database-unavailable"
    busy = wrapped(PoolTimeout("couldn't get a connection after 5.00 sec"))
    assert database_fault(busy)[0] == "database-busy" and not database_unavailable(busy)
    for defect in (wrapped(sqlite3.OperationalError("no such table: nowhere")), RuntimeError("a defect"),
                   wrapped(psycopg.errors.UndefinedTable("relation does not exist"), django.db.ProgrammingError),
                   wrapped(psycopg.errors.UniqueViolation("duplicate key"), django.db.IntegrityError)):
        assert database_fault(defect) is None, defect


@contextmanager
def refused(monkeypatch):
    """From now on, every new connection is refused, as a server that is down refuses it."""
    wrapper = type(connections["default"])  # (``connection`` is a proxy)

    def refuse(self, conn_params):
        raise psycopg.OperationalError("connection failed: connection to server at 127.0.0.1, port 5432 failed: Connection refused")

    monkeypatch.setattr(wrapper, "get_new_connection", refuse)
    try:
        yield
    finally:
        monkeypatch.undo()
        close_old_connections()
        connection.close()


def terminate(pid: int) -> None:
    """pg_terminate_backend from another connection: what an administrator's shutdown does."""
    params = {k: v for k, v in connection.get_connection_params().items() if k in ("host", "port", "user", "password", "dbname")}
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@postgresql_only
def test_a_server_that_goes_away_mid_command_is_503_and_the_move_applies_once_after(api_client, monkeypatch):
    code, tokens = make_game()
    body = {"cmd": "add", "n": 1, "command_id": "gone-1"}
    auth = {"HTTP_AUTHORIZATION": f"Bearer {tokens[0]}"}
    close_old_connections()
    connection.close()
    apply = ENGINE.apply
    down = refused(monkeypatch)

    def apply_then_shut_down(state, **kwargs):
        """The command is applied in memory; then the server terminates this request's backend
        and refuses new connections, before the save's statement."""
        events = apply(state, **kwargs)
        terminate(connection.connection.info.backend_pid)
        down.__enter__()
        return events

    monkeypatch.setattr(ENGINE, "apply", apply_then_shut_down)
    try:
        response = api_client.post(f"/api/games/{code}/commands", body, format="json", **auth)
    finally:
        down.__exit__(None, None, None)
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "1"
    assert response.json()["error"]["code"] == "database-unavailable" and response.json()["error"]["message"]
    assert game_get(code=code).version == 1 and Action.objects.filter(game__code=code).count() == 1  # nothing applied
    again = api_client.post(f"/api/games/{code}/commands", body, format="json", **auth)
    assert again.status_code == 200 and again.json()["version"] == 2
    once_more = api_client.post(f"/api/games/{code}/commands", body, format="json", **auth)
    assert once_more.status_code == 200 and once_more.json()["version"] == 2  # answered, not applied twice
    assert Action.objects.filter(game__code=code, command_id="gone-1").count() == 1
    assert game_get(code=code).version == 2


@postgresql_only
def test_reads_and_pages_are_503_while_the_server_refuses_connections(api_client, monkeypatch):
    code, tokens = make_game()
    close_old_connections()
    connection.close()
    with refused(monkeypatch):
        state = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
        protocol = api_client.post("/api", {"cmd": "get-state", "game": code}, format="json")
        page = Client(raise_request_exception=False).get(f"/games/{code}/")
    for response in (state, protocol):
        assert response.status_code == 503 and response["Retry-After"] == "1", response.content
        assert response.json()["error"]["code"] == "database-unavailable"
    assert page.status_code == 503 and page["Retry-After"] == "1" and b"reloads" in page.content


@postgresql_only
@pytest.mark.asyncio
async def test_a_socket_is_told_database_unavailable_and_stays_and_a_handshake_is_closed_1013(monkeypatch):
    code, tokens = await database_sync_to_async(make_game)()
    seat0, _ = await connected(code, tokens[0])
    frame = json.dumps({"cmd": "get-state", "command_id": "gone-ws"})
    down = refused(monkeypatch)
    await database_sync_to_async(down.__enter__)()
    try:
        await seat0.send_to(text_data=frame)
        error = await receive_type(seat0, "error", timeout=5)
        late = communicator(code, tokens[1])
        ok, _ = await late.connect(timeout=5)
        told = json.loads(await late.receive_from(timeout=5))
        closed = await late.receive_output(timeout=5)
    finally:
        await database_sync_to_async(down.__exit__)(None, None, None)
    assert error["error"]["code"] == "database-unavailable" and error["retry_after"] == 1
    assert error["command_id"] == "gone-ws"
    assert ok and told["error"]["code"] == "database-unavailable"
    assert closed == {"type": "websocket.close", "code": 1013}
    await seat0.send_to(text_data=frame)  # the same socket, the same command id, the server back
    answer = await receive_type(seat0, "state", timeout=5)
    assert answer["version"] == 1
    await seat0.disconnect()
