"""The status line Daphne writes carries the code's own reason phrase: Twisted's table lacks
some codes (429 among them) and wrote "Unknown Status"; config/asgi.py fills it from
Python's http.HTTPStatus at start-up."""

from __future__ import annotations

import socket
from http import HTTPStatus

import pytest

from tests.e2e.conftest import daphne  # noqa: F401  (the fixture: real Daphne processes)


def status_line(port: int, request: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request.encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\r\n", 1)[0]


def test_the_table_holds_every_status_python_knows_and_keeps_twisteds():
    from twisted.web import http

    import config.asgi  # noqa: F401  (fills the table)

    for status in HTTPStatus:
        assert http.RESPONSES.get(status.value, b"Unknown Status") != b"Unknown Status", status
    assert http.RESPONSES[429] == b"Too Many Requests"
    assert http.RESPONSES[404] == b"Not Found"  # Twisted's own entries stay


@pytest.mark.processes
def test_daphne_writes_429_and_503_with_their_phrases(daphne, tmp_path):  # noqa: F811
    # A database that cannot be opened: readiness answers 503; the join limit answers 429
    # (it counts in the cache, before the view would reach the database).
    server = daphne(extra_env={
        "DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": str(tmp_path / "missing" / "db.sqlite3"),
        "JUNCTION_JOIN_RATE": "1/min",
    })
    host = "Host: 127.0.0.1\r\nConnection: close\r\n"
    assert status_line(server.port, f"GET /healthz HTTP/1.1\r\n{host}\r\n") == b"HTTP/1.1 503 Service Unavailable"
    join = f"POST /api/games/ABCDE/seats HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 13\r\n\r\n" + '{"name":"Bo"}'
    lines = [status_line(server.port, join) for _ in range(3)]
    assert lines[-1] == b"HTTP/1.1 429 Too Many Requests", lines
    assert all(b"Unknown Status" not in line for line in lines)
