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
running goes ahead of a flooder's backlog.

**Refusals remembered** (:class:`Limited`): a request the API answered 429 ``rate-limited`` is,
asked again by the same client, answered 429 here for what is surely left of its limit's window,
before it takes a turn or reaches Django (about 1 ms of the process's CPU instead of 5: under a
flood most requests are those), after a second's wait on the loop that paces a flooder. A share of 0 turns both off (one queue in arrival order, nothing
remembered, as before).

Liveness and readiness are never queued: a probe must see the process as it is."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import math
import time
from collections import deque
from typing import Any

from django.conf import settings
from rest_framework.exceptions import Throttled

from .api.throttling import address_key, client_address_from_scope
from .errors import BUSY_PAGE, DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER, error_body

EXEMPT = ("/livez", "/readyz", "/healthz")


def _api(path: str) -> bool:
    """``/api`` (the protocol endpoint) or under it."""
    return (path + "/").startswith("/api/")


def _busy_response(path: str) -> tuple[bytes, bytes]:
    if _api(path):
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


BODY_KEPT = 16 * 1024  # a POST body up to this long names its request; a longer one is never remembered
SURE_MARGIN = 3  # seconds of a refusal's Retry-After not remembered (see Limited)
REMEMBERED_CLIENTS = 10_000
REMEMBERED_PER_CLIENT = 64
HOLD_SECONDS = 1.0  # a remembered refusal waits this long on the loop before its answer (see Limited)


class _Ask:
    """What names a request for :class:`Limited`: its method, path and, for a POST, its whole body
    (up to ``BODY_KEPT`` bytes: past that, or with the body not read to its end, nothing)."""

    __slots__ = ("method", "path", "body", "complete")

    def __init__(self, method: str, path: str) -> None:
        self.method, self.path = method, path
        self.body: bytearray | None = bytearray()
        self.complete = method in ("GET", "HEAD")

    def add(self, message: dict) -> None:
        if self.body is None or self.complete:
            return
        if message["type"] != "http.request":
            self.body = None
            return
        self.body += message.get("body", b"")
        if len(self.body) > BODY_KEPT:
            self.body = None
        elif not message.get("more_body"):
            self.complete = True

    def key(self) -> tuple | None:
        if self.method in ("GET", "HEAD"):
            return (self.method, self.path)
        if self.method != "POST" or self.body is None or not self.complete:
            return None
        return (self.method, self.path, hashlib.blake2b(bytes(self.body), digest_size=16).digest())


class Limited:
    """The API's 429s, remembered per client and request (its method, path and, for a POST, body) for
    what is surely left of their window: the same request again is answered 429 here, before it takes a
    turn or reaches Django. Sound because the limits count in fixed windows (games/api/throttling.py):
    a refusal means a counter this same request counts against (its address's, or its token's) is past
    its limit until the window ends, and a counter only grows within its window (throttles run before
    any view: the same request meets the same throttle first). ``Retry-After`` is the wait rounded down
    plus one, so the window ends at least ``Retry-After - 1`` seconds after the decision; remembered for
    ``Retry-After - 3`` from the answer, it is sound while the answer leaves within 2 s of its decision.
    Set-Cookie is never repeated (a client keyed by its address may be several people).

    Such an answer waits ``HOLD_SECONDS`` on the loop first (a coroutine asleep: no thread, no CPU).
    Answered at once, a flooder that sends its next request when it has an answer (16 in flight, say)
    sent hundreds a second and kept the event loop busy with nothing else: every request's thread then
    waited on the loop for the GIL at each step, and another player's poll was slower than with the
    refusals made by Django. Held, such a flooder sends at most its in-flight count a second."""

    def __init__(self) -> None:
        # (client, address) -> request key -> (answered here until, the window's end, headers to answer with)
        self.by_client: dict[tuple[str, str], dict[tuple, tuple[float, float, list]]] = {}
        self.clock = time.monotonic
        self.hold = HOLD_SECONDS

    async def ask(self, scope, receive, who) -> tuple[Any, _Ask]:
        """(the ``receive`` to hand on, what names the request). A POST's body is read here only for a
        client with a refusal remembered; else it is watched as Django reads it."""
        ask = _Ask(scope.get("method", ""), scope.get("path", ""))
        if ask.method != "POST":
            return receive, ask
        if who not in self.by_client:
            async def watching():
                message = await receive()
                ask.add(message)
                return message

            return watching, ask
        pending = []
        while True:
            message = await receive()
            pending.append(message)
            ask.add(message)
            if ask.complete or ask.body is None:
                break
        pending.reverse()

        async def replay():
            return pending.pop() if pending else await receive()

        return replay, ask

    def answer(self, who, ask: _Ask, ahead: float = 0.0) -> tuple[dict, dict] | None:
        """The 429 to answer, ``ahead`` seconds from now, for a request refused before, or None."""
        remembered = self.by_client.get(who)
        key = ask.key() if remembered else None
        if key is None:
            return None
        entry = remembered.get(key)
        now = self.clock() + ahead
        if entry is None or entry[0] <= now:
            for gone in [k for k, e in remembered.items() if e[0] <= now]:
                del remembered[gone]
            if not remembered:
                del self.by_client[who]
            return None
        wait = max(1, math.ceil(entry[1] - now))
        body = json.dumps(error_body("rate-limited", str(Throttled(wait=wait).detail))).encode()
        headers = [*entry[2], (b"retry-after", str(wait).encode()), (b"content-length", str(len(body)).encode())]
        return ({"type": "http.response.start", "status": 429, "headers": headers},
                {"type": "http.response.body", "body": body})

    def watch(self, send, who, ask):
        """``send``, remembering a 429 with Retry-After it carries for the request ``ask`` names."""

        async def watching(message):
            if message["type"] == "http.response.start" and message.get("status") == 429:
                self.remember(who, ask, message.get("headers") or [])
            await send(message)

        return watching

    def remember(self, who, ask: _Ask, headers) -> None:
        key = ask.key()
        if key is None:
            return
        retry_after = next((value for name, value in headers if name.lower() == b"retry-after"), b"")
        try:
            seconds = int(retry_after)
        except ValueError:
            return
        if seconds <= SURE_MARGIN:
            return
        now = self.clock()
        if len(self.by_client) >= REMEMBERED_CLIENTS:  # a bound: the expired go, else everything
            self.by_client = {k: v for k, v in self.by_client.items() if max(e[0] for e in v.values()) > now}
            if len(self.by_client) >= REMEMBERED_CLIENTS:
                self.by_client = {}
        kept = [(n, v) for n, v in headers if n.lower() not in (b"retry-after", b"content-length", b"set-cookie")]
        remembered = self.by_client.setdefault(who, {})
        if len(remembered) >= REMEMBERED_PER_CLIENT:
            remembered.clear()
        remembered[key] = (now + seconds - SURE_MARGIN, now + seconds - 1, kept)


class HttpAdmission:
    """ASGI middleware around Django's HTTP application (see the module's doc)."""

    def __init__(self, app) -> None:
        self.app = app
        self._turns: dict[asyncio.AbstractEventLoop, Turns] = {}
        self.refused = 0  # requests answered 503 here (for tests and curiosity)
        self.limited = Limited()
        self.answered_limited = 0  # requests answered 429 here, from a refusal remembered

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
        if settings.JUNCTION_HTTP_CLIENT_SHARE > 0 and _api(scope.get("path", "")):
            receive, ask = await self.limited.ask(scope, receive, (client, address))
            answer = self.limited.answer((client, address), ask, ahead=self.limited.hold)
            if answer is not None:
                self.answered_limited += 1
                await asyncio.sleep(self.limited.hold)  # see Limited: a flood paced by its answers slows down
                await send(answer[0])
                await send(answer[1])
                return
            send = self.limited.watch(send, (client, address), ask)
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
