"""The PostgreSQL backend's health check (config/postgresql/base.py)."""

from __future__ import annotations

import pytest
from django.db import close_old_connections, connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def probes(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL backend")
    calls = []
    from django.db import connections

    wrapper = type(connections["default"])
    original = wrapper.is_usable

    def counting(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(wrapper, "is_usable", counting)
    return calls


def request_using_the_database():
    close_old_connections()  # what Django and channels do around every request / command
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    close_old_connections()


def test_a_connection_proven_a_moment_ago_is_not_probed_again(probes):
    request_using_the_database()
    before = len(probes)
    request_using_the_database()
    request_using_the_database()
    assert len(probes) == before


def test_an_idle_connection_is_probed(probes, monkeypatch):
    from config.postgresql import base

    request_using_the_database()
    before = len(probes)
    monkeypatch.setattr(base, "RECENTLY_PROVEN", 0.0)
    request_using_the_database()
    assert len(probes) == before + 1


def test_a_request_that_did_not_touch_the_database_proves_nothing(probes):
    request_using_the_database()
    connection._proven_at = float("-inf")
    close_old_connections()  # a request without queries
    close_old_connections()
    before = len(probes)
    request_using_the_database()
    assert len(probes) == before + 1


def test_a_connection_the_server_ended_is_probed_and_replaced(probes):
    import psycopg

    request_using_the_database()
    pid = connection.connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(dbname=settings["NAME"], user=settings["USER"], host=settings["HOST"],
                         port=settings["PORT"] or 5432, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    import select

    select.select([connection.connection.fileno()], [], [], 5)  # the server's goodbye arrives
    before = len(probes)
    request_using_the_database()  # no error: the probe saw it and Django reconnected
    assert len(probes) == before + 1
    assert connection.connection.info.backend_pid != pid


def test_after_a_database_error_django_probes_the_connection(probes):
    request_using_the_database()
    close_old_connections()
    with pytest.raises(Exception), connection.cursor() as cursor:  # noqa: B017 - any database error
        cursor.execute("SELECT * FROM no_such_table")
    before = len(probes)
    close_old_connections()  # the request ends with an error on record: Django probes
    assert len(probes) == before + 1
    request_using_the_database()  # usable: kept
