"""HTTP admission: at most ``JUNCTION_HTTP_CONCURRENCY`` requests of this process run at once,
and no client holds more than its share of them.

Under ASGI Django runs each sync request in a thread of its own, without a bound: the soak's
200 pollers and 50 API clients had some 250 threads per process fighting over the GIL and the
database pool, a poll took seconds, and the WebSocket handshakes queued behind them ran past
Daphne's connect timeout, so 1,000 phones reconnected over and over while each process grew by
hundreds of MiB of waiting work. Here a request waits for its turn on the event loop (a
coroutine, not a thread) for up to ``JUNCTION_HTTP_QUEUE_SECONDS``; one that gets no turn by
then is answered 503 ``server-busy`` with ``Retry-After``: the API's JSON error under ``/api``,
a page that reloads itself elsewhere. Nothing was done, so a retry is always safe.

**Fair turns** (issue 29: a flood of reads from one client made everyone else's poll 5-9x slower,
its sixteen requests in flight queued ahead of theirs). A client is the seat token of a request
that presents one (``Authorization: Bearer``), else its address (``client_address_from_scope``:
the peer, or the trusted proxy's ``X-Forwarded-For`` entry; an IPv6 address as its /64). One
client runs at most ``JUNCTION_HTTP_CLIENT_SHARE`` requests at once, and one address, tokens or
not, at most half the process's turns (never fewer than the share): a flooder's excess waits on
the loop (a coroutine: no thread, no query) even while turns are free, and made-up tokens buy no
more than half. When a turn frees, the waiting request whose client has the fewest requests
running goes first (then whose address has the fewest, then the oldest): a player with nothing
running goes ahead of a flooder's backlog. A share of 0 turns this off (one queue in arrival
order, as before).

Liveness and readiness are never queued: a probe must see the process as it is."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from typing import Any

from django.conf import settings

from .api.throttling import address_key, client_address_from_scope
from .errors import BUSY_PAGE, DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER, error_body

EXEMPT = ("/livez", "/readyz", "/healthz")


def _busy_response(path: str) -> tuple[bytes, bytes]:
    if path.startswith("/api/"):
        return json.dumps(error_body("server-busy", DATABASE_BUSY_MESSAGE)).encode(), b"application/json"
    return BUSY_PAGE.encode(), b"text/html; charset=utf-8"


def client_of(scope: dict[str, Any]) -> tuple[str, str]:
    """(the client, its address) of an HTTP request's scope, as the keys the turns count: the client
    is its bearer token (``seat:…``) when it presents one, else its address (``addr:…``); the address
    (``from:…``) counts all of that address's requests, tokens or not."""
    address = address_key(client_address_from_scope(scope))
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            token = token.strip()
            if scheme.lower() == "bearer" and token:
                return "seat:" + token[:256], "from:" + address
            break
    return "addr:" + address, "from:" + address


class _Waiter:
    __slots__ = ("client", "address", "seq", "future")

    def __init__(self, client: str, address: str, seq: int, future: asyncio.Future) -> None:
        self.client, self.address, self.seq, self.future = client, address, seq, future


class Turns:
    """The turns of one event loop: how many requests run, per client and per address, and the
    waiting ones, one queue per (client, address) in arrival order."""

    def __init__(self) -> None:
        self.running = 0
        self.held: dict[str, int] = {}  # client or address -> its requests running
        self.waiting: dict[tuple[str, str], deque[_Waiter]] = {}
        self._seq = itertools.count()

    # -- the rules ---------------------------------------------------------------------

    @staticmethod
    def limits() -> tuple[int, int, int]:
        """(turns in all, per client, per address); 0 per client: no share."""
        total = settings.JUNCTION_HTTP_CONCURRENCY
        share = settings.JUNCTION_HTTP_CLIENT_SHARE
        if share <= 0:
            return total, total, total
        return total, share, max(share, total // 2)

    def _may_run(self, client: str, address: str) -> bool:
        total, per_client, per_address = self.limits()
        return self.running < total and self.held.get(client, 0) < per_client and self.held.get(address, 0) < per_address

    # -- holding and giving back ---------------------------------------------------------

    def _take(self, client: str, address: str) -> None:
        self.running += 1
        self.held[client] = self.held.get(client, 0) + 1
        self.held[address] = self.held.get(address, 0) + 1

    def release(self, client: str, address: str) -> None:
        self.running -= 1
        for key in (client, address):
            left = self.held[key] - 1
            if left:
                self.held[key] = left
            else:
                del self.held[key]
        self._hand_on()

    def _hand_on(self) -> None:
        """Give free turns to the waiting requests that may run, fewest running first (no share: oldest first)."""
        fair = settings.JUNCTION_HTTP_CLIENT_SHARE > 0
        while True:
            best: tuple | None = None
            for (client, address), queue in list(self.waiting.items()):
                while queue and queue[0].future.done():  # its task was cancelled just now
                    queue.popleft()
                if not queue:
                    del self.waiting[(client, address)]
                    continue
                if self._may_run(client, address):
                    rank = (self.held.get(client, 0), self.held.get(address, 0), queue[0].seq) if fair else (queue[0].seq,)
                    if best is None or rank < best[0]:
                        best = (rank, client, address, queue)
            if best is None:
                return
            _, client, address, queue = best
            waiter = queue.popleft()
            if not queue:
                del self.waiting[(client, address)]
            self._take(client, address)
            waiter.future.set_result(True)

    def _forget(self, waiter: _Waiter) -> None:
        key = (waiter.client, waiter.address)
        queue = self.waiting.get(key)
        if queue is not None:
            try:
                queue.remove(waiter)
            except ValueError:
                pass
            if not queue:
                del self.waiting[key]

    async def acquire(self, client: str, address: str, timeout: float) -> bool:
        """Wait for a turn (at once when the client may run and nobody who may is waiting); False
        when none came within ``timeout`` seconds."""
        if self._may_run(client, address):
            self._take(client, address)
            return True
        loop = asyncio.get_running_loop()
        waiter = _Waiter(client, address, next(self._seq), loop.create_future())
        self.waiting.setdefault((client, address), deque()).append(waiter)
        timer = loop.call_later(timeout, self._expire, waiter)
        try:
            return await waiter.future
        except asyncio.CancelledError:
            # The client went away while waiting; a turn handed to it just before goes on.
            if waiter.future.done() and not waiter.future.cancelled() and waiter.future.result():
                self.release(client, address)
            else:
                self._forget(waiter)
            raise
        finally:
            timer.cancel()

    def _expire(self, waiter: _Waiter) -> None:
        if not waiter.future.done():
            self._forget(waiter)
            waiter.future.set_result(False)


class HttpAdmission:
    """ASGI middleware around Django's HTTP application (see the module's doc)."""

    def __init__(self, app) -> None:
        self.app = app
        self._turns: dict[asyncio.AbstractEventLoop, Turns] = {}
        self.refused = 0  # requests answered 503 here (for tests and curiosity)

    def turns(self) -> Turns:
        """This event loop's turns."""
        loop = asyncio.get_running_loop()
        turns = self._turns.get(loop)
        if turns is None:
            self._turns = {k: v for k, v in self._turns.items() if not k.is_closed()}
            turns = self._turns[loop] = Turns()
        return turns

    async def __call__(self, scope: dict[str, Any], receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") in EXEMPT or settings.JUNCTION_HTTP_CONCURRENCY <= 0:
            await self.app(scope, receive, send)
            return
        turns = self.turns()
        client, address = client_of(scope)
        if not await turns.acquire(client, address, settings.JUNCTION_HTTP_QUEUE_SECONDS):
            self.refused += 1
            await self._refuse(scope, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            turns.release(client, address)

    async def _refuse(self, scope: dict[str, Any], send) -> None:
        body, content_type = _busy_response(scope.get("path", ""))
        await send({
            "type": "http.response.start",
            "status": 503,
            "headers": [(b"content-type", content_type), (b"retry-after", str(DATABASE_BUSY_RETRY_AFTER).encode()),
                        (b"content-length", str(len(body)).encode())],
        })
        await send({"type": "http.response.body", "body": body})
