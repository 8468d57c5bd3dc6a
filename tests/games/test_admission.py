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
