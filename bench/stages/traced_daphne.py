"""Daphne with timestamps at each stage of a WebSocket move, for bench/bench_move_stages.py.

    python bench/stages/traced_daphne.py <daphne's own arguments>

Wraps, in this process only, the points a move passes (socket read, frame parsed, consumer's
``receive``, the save, its statement, the broadcast, socket writes) and records
``(stage, CLOCK_MONOTONIC ns, fd)`` for each; the Node client stamps its send and receive on the
same clock. The records go to the file named by ``STAGES_OUT`` when Daphne shuts down.
Measurement only: nothing here is imported by the app.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import time

sys.path.insert(0, os.getcwd())  # the project, as `python -m daphne` would have it

import daphne.server  # noqa: E402,F401  (installs the asyncio reactor first, as Daphne's CLI does)

EVENTS: list[tuple[str, int, int]] = []
now = time.monotonic_ns


def _mark(stage: str, fd: int = 0) -> None:
    EVENTS.append((stage, now(), fd))


def _around(owner, name: str, stage: str) -> None:
    """Record ``<stage>0`` / ``<stage>1`` around ``owner.name`` (a function or coroutine function)."""
    inner = getattr(owner, name)
    if inspect.iscoroutinefunction(inner):
        @functools.wraps(inner)
        async def wrapped(*args, **kwargs):
            _mark(stage + "0")
            try:
                return await inner(*args, **kwargs)
            finally:
                _mark(stage + "1")
    else:
        @functools.wraps(inner)
        def wrapped(*args, **kwargs):
            _mark(stage + "0")
            try:
                return inner(*args, **kwargs)
            finally:
                _mark(stage + "1")
    setattr(owner, name, wrapped)


def _install() -> None:
    from twisted.internet import tcp

    read, write = tcp.Connection.doRead, tcp.Connection.writeSomeData

    def do_read(self):
        _mark("read", self.socket.fileno())
        return read(self)

    def write_some_data(self, data):
        written = write(self, data)
        _mark("write", self.socket.fileno())
        return written

    tcp.Connection.doRead, tcp.Connection.writeSomeData = do_read, write_some_data

    from daphne import ws_protocol

    _around(ws_protocol.WebSocketProtocol, "onMessage", "parsed")

    import django

    django.setup()
    import psycopg

    from games import broadcast, consumers, store

    _around(consumers.GameConsumer, "receive", "receive")
    _around(store, "move_save_on_loop", "save")
    _around(psycopg.AsyncConnection, "execute", "statement")
    _around(broadcast, "send_async", "broadcast")


def _dump() -> None:
    target = os.environ.get("STAGES_OUT")
    if target:
        with open(target, "w") as out:
            out.writelines(f"{stage} {ns} {fd}\n" for stage, ns, fd in EVENTS)


if __name__ == "__main__":
    _install()
    from twisted.internet import reactor

    reactor.addSystemEventTrigger("before", "shutdown", _dump)
    from daphne.cli import CommandLineInterface

    sys.argv = ["daphne", *sys.argv[1:]]
    CommandLineInterface.entrypoint()
