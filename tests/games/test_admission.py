"""games/admission.py: at most JUNCTION_HTTP_CONCURRENCY requests run at once; the others
wait on the loop and, past JUNCTION_HTTP_QUEUE_SECONDS, are answered 503 server-busy with
Retry-After (JSON under /api, a self-reloading page elsewhere); probes are never queued."""

from __future__ import annotations

import asyncio
import json

import pytest

from games.admission import HttpAdmission

pytestmark = pytest.mark.asyncio


class SlowApp:
    """An ASGI app whose requests run until released; counts how many ran at once."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.running = 0
        self.most = 0

    async def __call__(self, scope, receive, send) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        finally:
            self.running -= 1


async def request(app, path: str) -> tuple[int, dict[bytes, bytes], bytes]:
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    await app({"type": "http", "path": path, "method": "GET"}, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


async def test_requests_past_the_limit_wait_and_then_are_answered_busy(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 2
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 0.2
    inner = SlowApp()
    app = HttpAdmission(inner)
    first = [asyncio.create_task(request(app, f"/api/games/X{i}/state")) for i in range(2)]
    await asyncio.sleep(0.05)
    status, headers, body = await request(app, "/api/games/X3/state")  # a third, for 0.2 s: no turn
    assert status == 503 and headers[b"retry-after"] == b"1"
    assert json.loads(body)["error"]["code"] == "server-busy"
    page_status, page_headers, page = await request(app, "/games/X3/")
    assert page_status == 503 and page_headers[b"content-type"].startswith(b"text/html")
    assert b"http-equiv=refresh" in page
    assert app.refused == 2

    waiting = asyncio.create_task(request(app, "/api/games/X4/state"))  # waits its turn...
    await asyncio.sleep(0.05)
    inner.release.set()  # ... which comes when the others finish
    assert [s for s, _, _ in await asyncio.gather(*first, waiting)] == [200, 200, 200]
    assert inner.most == 2


async def test_probes_and_websockets_are_never_queued(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 1
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 0.1
    inner = SlowApp()
    app = HttpAdmission(inner)
    busy = asyncio.create_task(request(app, "/api/kinds"))
    await asyncio.sleep(0.05)
    probes = [asyncio.create_task(request(app, path)) for path in ("/livez", "/readyz", "/healthz")]
    await asyncio.sleep(0.2)  # past the queue time: had they queued, they would be refused by now
    assert inner.running == 4 and app.refused == 0
    inner.release.set()
    assert [s for s, _, _ in await asyncio.gather(busy, *probes)] == [200] * 4


class HeldApp:
    """An ASGI app whose requests (named by their path's last part) run until each is let go; it
    records the order they started in."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.going: dict[str, asyncio.Event] = {}

    def name(self, scope) -> str:
        return scope["path"].rsplit("/", 1)[-1]

    def let_go(self, name: str) -> None:
        self.going.setdefault(name, asyncio.Event()).set()

    @property
    def running(self) -> list[str]:
        return [n for n in self.started if not self.going.get(n, asyncio.Event()).is_set()]

    async def __call__(self, scope, receive, send) -> None:
        name = self.name(scope)
        self.started.append(name)
        await self.going.setdefault(name, asyncio.Event()).wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def from_client(app, name: str, address: str, token: str | None = None) -> int:
    sent = []
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    scope = {"type": "http", "path": f"/api/games/X/state/{name}", "method": "GET", "headers": headers,
             "client": (address, 40000)}
    await app(scope, receive, send)
    return next(m for m in sent if m["type"] == "http.response.start")["status"]


async def settle() -> None:
    """Let every task that can run go as far as it can (no clock involved)."""
    for _ in range(20):
        await asyncio.sleep(0)


FLOODER, PLAYER, OTHER = "203.0.113.9", "198.51.100.2", "192.0.2.7"


async def test_a_client_holds_its_share_and_one_with_nothing_running_goes_ahead_of_its_backlog(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 3
    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 60  # never reached: each step below is decided by the order alone
    inner = HeldApp()
    app = HttpAdmission(inner)
    flood = [asyncio.create_task(from_client(app, f"f{i}", FLOODER)) for i in range(5)]
    await settle()
    # A turn is free, yet the flooder runs only its share: the rest of its requests wait on the loop.
    assert inner.running == ["f0", "f1"]
    other = asyncio.create_task(from_client(app, "o", OTHER))
    await settle()
    assert inner.running == ["f0", "f1", "o"]  # another client is admitted at once
    player = asyncio.create_task(from_client(app, "p", PLAYER))
    await settle()
    assert "p" not in inner.started  # every turn is taken: the player waits too...
    inner.let_go("f0")
    await settle()
    # ... and goes ahead of the flooder's three older requests: it had nothing running.
    assert inner.running == ["f1", "o", "p"]
    inner.let_go("o")
    await settle()
    assert inner.running == ["f1", "p", "f2"]  # the flooder's next, in its own order, within its share
    for name in ("f1", "p", "f2", "f3", "f4"):
        inner.let_go(name)
    assert await asyncio.gather(*flood, other, player) == [200] * 7
    assert app.refused == 0 and app.turns().running == 0 and not app.turns().held and not app.turns().waiting


async def test_a_seat_token_is_a_client_of_its_own_and_one_address_holds_at_most_half(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 8
    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 60
    inner = HeldApp()
    app = HttpAdmission(inner)
    # Two phones behind one address, each with its seat's token: two clients, two turns each.
    phones = [asyncio.create_task(from_client(app, f"{seat}{i}", FLOODER, token=f"tok-{seat}"))
              for seat in "ab" for i in range(3)]
    await settle()
    assert sorted(inner.running) == ["a0", "a1", "b0", "b1"]
    # Made-up tokens from that address buy nothing more: it holds half the process's turns already.
    made_up = [asyncio.create_task(from_client(app, f"m{i}", FLOODER, token=f"made-up-{i}")) for i in range(3)]
    await settle()
    assert not any(name.startswith("m") for name in inner.started)
    player = asyncio.create_task(from_client(app, "p", PLAYER, token="tok-player"))
    await settle()
    assert "p" in inner.running
    inner.let_go("a0")
    await settle()
    # The freed turn goes to the address's oldest waiting request whose client has the fewest running:
    # a made-up token's (none running) before seat a's third (one running).
    assert inner.started[-1] == "m0"
    for name in ("a1", "a2", "b0", "b1", "b2", "m0", "m1", "m2", "p"):
        inner.let_go(name)
    assert await asyncio.gather(*phones, *made_up, player) == [200] * 10
    assert not app.turns().held and not app.turns().waiting


async def test_a_flooders_excess_is_answered_busy_and_a_request_given_up_holds_nothing(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 4
    settings.JUNCTION_HTTP_CLIENT_SHARE = 1
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 0.2
    inner = HeldApp()
    app = HttpAdmission(inner)
    first = asyncio.create_task(from_client(app, "f0", FLOODER))
    await settle()
    gone = asyncio.create_task(from_client(app, "f1", FLOODER))  # waits for its share...
    await settle()
    gone.cancel()  # ... and its client goes away
    await settle()
    assert gone.cancelled() and not app.turns().waiting
    assert await from_client(app, "f2", FLOODER) == 503  # no turn within the queue time: busy, as before
    assert app.refused == 1
    player = asyncio.create_task(from_client(app, "p", PLAYER))
    await settle()
    assert inner.running == ["f0", "p"]
    inner.let_go("f0")
    inner.let_go("p")
    assert await asyncio.gather(first, player) == [200, 200]
    assert app.turns().running == 0 and not app.turns().held


async def test_a_share_of_zero_is_one_queue_in_arrival_order(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 2
    settings.JUNCTION_HTTP_CLIENT_SHARE = 0
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 60
    inner = HeldApp()
    app = HttpAdmission(inner)
    flood = [asyncio.create_task(from_client(app, f"f{i}", FLOODER)) for i in range(3)]
    await settle()
    player = asyncio.create_task(from_client(app, "p", PLAYER))
    await settle()
    assert inner.running == ["f0", "f1"]
    inner.let_go("f0")
    await settle()
    assert inner.running == ["f1", "f2"]  # first come, first served
    for name in ("f1", "f2", "p"):
        inner.let_go(name)
    assert await asyncio.gather(*flood, player) == [200] * 4


class LimitedApp:
    """An ASGI app that answers 429 (Retry-After ``retry_after``, a cookie) to every request whose body or
    path has ``refuse`` in it, 200 otherwise; it records the requests that reached it."""

    def __init__(self, retry_after: int = 30) -> None:
        self.retry_after = retry_after
        self.reached: list[tuple[str, bytes]] = []

    async def __call__(self, scope, receive, send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.reached.append((scope["path"], body))
        if b"refuse" in body or "refuse" in scope["path"]:
            headers = [(b"content-type", b"application/json"), (b"retry-after", str(self.retry_after).encode()),
                       (b"set-cookie", b"sessionid=someone")]
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": b'{"status": "error"}'})
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


async def call(app, method: str, path: str, body: bytes = b"", address: str = FLOODER, token: str | None = None):
    sent = []
    chunks = [body[:5], body[5:]] if body else [b""]  # a body in two messages, as a server may hand it on
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []

    async def send(message):
        sent.append(message)

    async def receive():
        if not chunks:  # the body is over; the client stays connected (Django listens for its going)
            await asyncio.Event().wait()
        chunk = chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    await app({"type": "http", "path": path, "method": method, "headers": headers, "client": (address, 40000)}, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {name.lower(): value for name, value in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


async def test_a_request_refused_429_is_refused_again_before_django_for_what_is_surely_left_of_its_window(settings):
    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    inner = LimitedApp(retry_after=30)
    app = HttpAdmission(inner)
    now = [1000.0]
    app.limited.clock = lambda: now[0]
    app.limited.hold = 0  # answered at once here (the hold: the next test)
    flood = b'{"cmd": "get-state", "game": "refuse"}'
    assert (await call(app, "POST", "/api", flood))[0] == 429
    assert len(inner.reached) == 1
    now[0] += 10
    status, headers, body = await call(app, "POST", "/api", flood)  # the same request again: answered here
    assert status == 429 and len(inner.reached) == 1 and app.answered_limited == 1
    assert headers[b"retry-after"] == b"19" and b"set-cookie" not in headers  # the window's end, never a cookie
    assert json.loads(body)["error"]["code"] == "rate-limited"
    # Anything else reaches the app: another body (a command), another path, another client or token.
    assert (await call(app, "POST", "/api", b'{"cmd": "add", "n": 1}'))[0] == 200
    assert (await call(app, "POST", "/api/games/X/commands", flood))[0] == 429
    assert (await call(app, "POST", "/api", flood, address=PLAYER))[0] == 429
    assert (await call(app, "POST", "/api", flood, token="tok-a"))[0] == 429
    assert len(inner.reached) == 5
    assert (await call(app, "GET", "/api/games/refuse/state"))[0] == 429
    assert (await call(app, "GET", "/api/games/refuse/state"))[0] == 429 and len(inner.reached) == 6
    # Retry-After 30 means the window ends at least 29 s after the decision: remembered 27 s, no longer.
    now[0] += 16.9
    assert (await call(app, "POST", "/api", flood))[0] == 429 and len(inner.reached) == 6
    now[0] += 0.2
    assert (await call(app, "POST", "/api", flood))[0] == 429 and len(inner.reached) == 7
    # The body read here for a client with refusals remembered reaches the app whole.
    assert await call(app, "POST", "/api", b'{"cmd": "add", "n": 2}') == (200, {}, b'{"cmd": "add", "n": 2}')


async def test_a_remembered_refusal_is_held_on_the_loop_before_its_answer_and_takes_no_turn(settings):
    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    settings.JUNCTION_HTTP_CONCURRENCY = 1
    inner = LimitedApp(retry_after=30)
    app = HttpAdmission(inner)
    app.limited.hold = 10  # longer than the test takes: what matters is that it has not answered yet
    assert (await call(app, "GET", "/api/games/refuse/state"))[0] == 429
    held = [asyncio.create_task(call(app, "GET", "/api/games/refuse/state")) for _ in range(3)]
    await settle()
    assert not any(task.done() for task in held) and len(inner.reached) == 1  # waiting, not in the app
    assert app.turns().running == 0  # and holding no turn: another client's request runs at once
    assert (await call(app, "GET", "/api/games/X/state", address=PLAYER))[0] == 200
    for task in held:
        task.cancel()
    await asyncio.gather(*held, return_exceptions=True)
    assert app.answered_limited == 3


async def test_refusals_are_not_remembered_past_the_api_when_short_or_with_no_share(settings):
    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    app = HttpAdmission(inner := LimitedApp(retry_after=3))  # too little left to be sure of
    for _ in range(2):
        assert (await call(app, "GET", "/api/games/refuse/state"))[0] == 429
    app = HttpAdmission(inner_pages := LimitedApp())  # a page's 429 (allauth's, say) is not the API's limits
    for _ in range(2):
        assert (await call(app, "GET", "/accounts/refuse/"))[0] == 429
    settings.JUNCTION_HTTP_CLIENT_SHARE = 0
    app = HttpAdmission(inner_off := LimitedApp())
    for _ in range(2):
        assert (await call(app, "GET", "/api/games/refuse/state"))[0] == 429
    assert [len(i.reached) for i in (inner, inner_pages, inner_off)] == [2, 2, 2]


@pytest.mark.django_db(transaction=True)
async def test_django_s_own_429_is_remembered_and_answered_alike(settings):
    from django.core.asgi import get_asgi_application

    settings.JUNCTION_HTTP_CLIENT_SHARE = 2
    settings.JUNCTION_READ_RATE = "2/hour"
    app = HttpAdmission(get_asgi_application())
    app.limited.hold = 0
    answers = [await call(app, "GET", "/api/games") for _ in range(4)]
    assert [status for status, _, _ in answers] == [200, 200, 429, 429]
    assert app.answered_limited == 1  # the fourth never reached Django
    (_, django_headers, django_body), (_, headers, body) = answers[2:]
    assert json.loads(django_body)["error"]["code"] == json.loads(body)["error"]["code"] == "rate-limited"
    assert json.loads(body)["error"]["message"].startswith("Request was throttled.")
    assert headers[b"content-type"] == django_headers[b"content-type"] == b"application/json"
    assert headers[b"x-content-type-options"] == django_headers[b"x-content-type-options"]  # its other headers too
    assert 1 <= int(headers[b"retry-after"]) <= int(django_headers[b"retry-after"])


async def test_the_protocol_endpoint_is_answered_busy_in_json(settings):
    settings.JUNCTION_HTTP_CONCURRENCY = 1
    settings.JUNCTION_HTTP_QUEUE_SECONDS = 0.1
    inner = HeldApp()
    app = HttpAdmission(inner)
    busy = asyncio.create_task(from_client(app, "b", PLAYER))
    await settle()
    status, headers, body = await call(app, "POST", "/api", b'{"cmd": "get-state", "game": "X"}', address=OTHER)
    assert status == 503 and headers[b"content-type"] == b"application/json"
    assert json.loads(body)["error"]["code"] == "server-busy"
    inner.let_go("b")
    assert await busy == 200
