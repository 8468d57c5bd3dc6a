"""HTTP admission: at most ``JUNCTION_HTTP_CONCURRENCY`` requests of this process run at once.

Under ASGI Django runs each sync request in a thread of its own, without a bound: the soak's
200 pollers and 50 API clients had some 250 threads per process fighting over the GIL and the
database pool, a poll took seconds, and the WebSocket handshakes queued behind them ran past
Daphne's connect timeout, so 1,000 phones reconnected over and over while each process grew by
hundreds of MiB of waiting work. Here a request waits for its turn on the event loop (a
coroutine, not a thread) for up to ``JUNCTION_HTTP_QUEUE_SECONDS``; one that gets no turn by
then is answered 503 ``server-busy`` with ``Retry-After``: the API's JSON error under ``/api``,
a page that reloads itself elsewhere. Nothing was done, so a retry is always safe.

Liveness and readiness are never queued: a probe must see the process as it is."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.conf import settings

from .errors import BUSY_PAGE, DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER, error_body

EXEMPT = ("/livez", "/readyz", "/healthz")


def _busy_response(path: str) -> tuple[bytes, bytes]:
    if path.startswith("/api/"):
        return json.dumps(error_body("server-busy", DATABASE_BUSY_MESSAGE)).encode(), b"application/json"
    return BUSY_PAGE.encode(), b"text/html; charset=utf-8"


class HttpAdmission:
    """ASGI middleware around Django's HTTP application (see the module's doc)."""

    def __init__(self, app) -> None:
        self.app = app
        self._semaphores: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self.refused = 0  # requests answered 503 here (for tests and curiosity)

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            self._semaphores = {k: v for k, v in self._semaphores.items() if not k.is_closed()}
            semaphore = self._semaphores[loop] = asyncio.Semaphore(settings.JUNCTION_HTTP_CONCURRENCY)
        return semaphore

    async def __call__(self, scope: dict[str, Any], receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") in EXEMPT or settings.JUNCTION_HTTP_CONCURRENCY <= 0:
            await self.app(scope, receive, send)
            return
        semaphore = self._semaphore()
        try:
            await asyncio.wait_for(semaphore.acquire(), settings.JUNCTION_HTTP_QUEUE_SECONDS)
        except TimeoutError:
            self.refused += 1
            await self._refuse(scope, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            semaphore.release()

    async def _refuse(self, scope: dict[str, Any], send) -> None:
        body, content_type = _busy_response(scope.get("path", ""))
        await send({
            "type": "http.response.start",
            "status": 503,
            "headers": [(b"content-type", content_type), (b"retry-after", str(DATABASE_BUSY_RETRY_AFTER).encode()),
                        (b"content-length", str(len(body)).encode())],
        })
        await send({"type": "http.response.body", "body": body})
