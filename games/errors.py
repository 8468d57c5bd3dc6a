"""Errors the platform reports to clients, with a stable code and an HTTP status.

Edges translate them: the API to ``{"status": "error", "error": {"code", "message"}}``
with ``status``; the WebSocket to ``{"type": "error", "error": {...}}``.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(self, code: str, message: str, *, status: int | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return error_body(self.code, self.message, **self.extra)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The API's one error shape."""
    return {"status": "error", "error": {"code": code, "message": message}, **extra}


INTERNAL_ERROR_MESSAGE = "Something went wrong on the server."


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


# -- a database that cannot serve now ------------------------------------------------------

DATABASE_BUSY_RETRY_AFTER = 1  # seconds a client is asked to wait (Retry-After)
DATABASE_BUSY_MESSAGE = "The server is busy; try again in a moment."
# What a page (not the API) answers when the server cannot serve it now: it reloads itself.
BUSY_PAGE = (
    "<!doctype html><title>Busy</title><meta name=viewport content='width=device-width'>"
    f"<meta http-equiv=refresh content='{DATABASE_BUSY_RETRY_AFTER + 1}'>"
    f"<p>{DATABASE_BUSY_MESSAGE} This page reloads by itself.</p>"
)


def database_busy(exc: BaseException) -> bool:
    """Whether ``exc`` means the database could not serve this request now, and a retry may
    succeed: no pooled connection could be had in time (``psycopg_pool.PoolTimeout``, which
    is also what a server that is down or refusing connections looks like through the pool),
    the server's own connection limit, or an SQLite file that stayed locked. The edges answer
    these 503 ``database-busy`` with ``Retry-After`` instead of 500."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        name = type(current).__name__
        if name == "PoolTimeout":
            return True
        if getattr(current, "sqlstate", None) in ("53300", "57P03"):  # too many connections, starting up
            return True
        if name == "OperationalError" and type(current).__module__ == "sqlite3" and "locked" in str(current):
            return True
        current = current.__cause__ or current.__context__
    return False


DATABASE_UNAVAILABLE_MESSAGE = "The database is unavailable for a moment; send it again shortly (with the same command_id)."


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means the PostgreSQL server went away under this request: the connection
    refused, lost or shut down (a restart, an administrator's shutdown, a terminated backend),
    a statement cancelled, a serialization failure: psycopg's ``OperationalError`` and
    ``InterfaceError``, and Django's wrapping them. A move is one statement or one transaction
    (``store.move_save``), rolled back with the connection: nothing of it is half applied. Only
    a commit whose answer was lost while the server went down may have happened (the write path
    asks the log on a fresh connection, which may fail too), so the command is sent again with
    the same ``command_id``: it applies once, or answers what it did. The edges answer 503
    ``database-unavailable`` with ``Retry-After``. A busy database (:func:`database_busy`) is
    not this; SQLite's errors are not either (an SQL error there is a defect)."""
    if database_busy(exc):
        return False
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (psycopg.OperationalError, psycopg.InterfaceError)):
            return True
        current = current.__cause__ or current.__context__
    return False


def database_fault(exc: BaseException) -> tuple[str, str] | None:
    """The edges' answer to a database that cannot serve now: (code, message) for a 503 with
    ``Retry-After`` (or the socket's error frame), or None when ``exc`` is something else."""
    if database_busy(exc):
        return "database-busy", DATABASE_BUSY_MESSAGE
    if database_unavailable(exc):
        return "database-unavailable", DATABASE_UNAVAILABLE_MESSAGE
    return None
