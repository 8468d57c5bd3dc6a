"""Django's PostgreSQL backend, pooled, with a health check that costs no round trip when it can.

**A bounded number of connections per process.** Under ASGI every concurrent sync request
runs in a thread of its own, and with persistent connections (``CONN_MAX_AGE``) each thread
kept its own connection until the dead thread's objects were collected: forty concurrent
``GET …/state`` left one process holding 47 connections and ran PostgreSQL out of them.
Here every connection comes from one psycopg pool per process (Django 5.2's ``pool`` option,
sized by ``JUNCTION_DB_POOL_SIZE``): a request borrows one on its first query and gives it
back when it ends. When none can be had within ``JUNCTION_DB_POOL_TIMEOUT`` seconds psycopg
raises ``PoolTimeout`` and the edges answer 503 ``database-busy`` (``games/dbbusy.py``).

A pooled connection keeps its session, so the write path's server-side prepared statements
(``games/store.py``) are prepared once per pooled connection, not once per request.

**The health check.** Django would hand the pool psycopg's own check (an empty query: one
round trip per borrowed connection, so one per request or command). Here the round trip is
skipped when both hold:

- the connection was checked less than ``RECENTLY_PROVEN`` seconds ago, and
- its socket has nothing to read. An idle connection never has: a server that ends the
  session (restart, ``pg_terminate_backend``, crash) sends an error and/or closes the
  socket, which makes it readable.

Otherwise psycopg's check runs, and a connection that fails it is discarded by the pool
and replaced (``get_new_connection``).
"""

from __future__ import annotations

import select
import time
import weakref

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base

RECENTLY_PROVEN = 10.0  # seconds

_checked_at: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _socket_readable(conn) -> bool:
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except Exception:  # closed or broken: let the full check decide
        return True
    return bool(readable)


def usable(conn) -> bool:
    """Whether a pooled connection about to be lent still works: a round trip only when it
    was not checked lately or its socket has something to say."""
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    if conn.closed:
        return False
    if now - _checked_at.get(conn, float("-inf")) < RECENTLY_PROVEN and not _socket_readable(conn):
        return True
    try:
        ConnectionPool.check_connection(conn)
    except Exception:  # psycopg's OperationalError and kin: this one is done for
        return False
    _checked_at[conn] = now
    return True


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            from psycopg_pool import ConnectionPool

            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # Django sets its own mode when it takes the connection
            pool = ConnectionPool(
                kwargs=kwargs,
                open=False,
                configure=self._configure_connection,
                check=None,  # get_new_connection checks, see there
                **({} if options is True else options),
            )
            # Threads racing here build one pool each; the first stored wins (none was opened).
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]

    def get_new_connection(self, conn_params):
        """A connection from the pool that works. psycopg's own check, on a failure, waits a
        second or more before it tries the next connection; a server restart ends them all
        at once, which would have kept requests waiting for a connection for the whole pool
        timeout. Here a dead connection goes back to the pool (which discards it and opens a
        replacement), the pool disposes of every other dead one at once, and the next is
        taken without waiting."""
        conn = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None:
            return conn
        for _ in range(pool.max_size + 1):
            if usable(conn):
                return conn
            pool.putconn(conn)
            pool.check()
            conn = super().get_new_connection(conn_params)
        return conn
