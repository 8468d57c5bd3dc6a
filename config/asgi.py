"""ASGI entry point: HTTP goes to Django, WebSocket to the game consumer."""

import gc
import json
import logging
import os
import threading
import time

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games import broadcast  # noqa: E402
from games.admission import HttpAdmission  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

log = logging.getLogger(__name__)
LAYER_DOWN_FRAME = json.dumps({
    "type": "error",
    "error": {"code": "unavailable", "message": "Live updates are unavailable for a moment; reconnecting."},
})


class ChannelLayerOutage:
    """A WebSocket asked for while the channel layer (Redis) is unreachable: Channels subscribes
    the consumer's own channel before the consumer runs (``new_channel``: the pub/sub layer
    connects to Redis there), and what that raised reached Daphne as an HTTP 500 to the
    handshake. Here the handshake is accepted, told ``unavailable`` in the usual error frame and
    closed 1013 (try again later; the page reconnects by itself), as the consumers do when their
    ``group_add`` fails. The same failure once the application has closed the socket (its layer
    receive, after a consumer's own 1013) is only logged; during an open socket it is left as it is."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        connect_seen = answered = closed = False

        async def receiving():
            nonlocal connect_seen
            message = await receive()
            connect_seen = connect_seen or message["type"] == "websocket.connect"
            return message

        async def sending(message) -> None:
            nonlocal answered, closed
            answered = answered or message["type"] in ("websocket.accept", "websocket.close", "websocket.http.response.start")
            closed = closed or message["type"] == "websocket.close"
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        except broadcast.LAYER_ERRORS as exc:
            if closed:
                log.warning("channel layer unavailable after a socket on %s closed: %s", scope.get("path"), exc)
                return
            if answered:
                raise
            log.warning("channel layer unavailable: socket on %s refused with 1013: %s", scope.get("path"), exc)
            if not connect_seen and (await receive())["type"] != "websocket.connect":
                return  # the client left before its handshake
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": LAYER_DOWN_FRAME})
            await send({"type": "websocket.close", "code": 1013})


application = ProtocolTypeRouter(
    {
        "http": HttpAdmission(django_asgi_app),  # a bounded number of requests at once (games/admission.py)
        "websocket": AllowedHostsOriginValidator(ChannelLayerOutage(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded so far (Django, the apps, the engines and their data) lives as long as
# the process: moved out of the collector's reach, a full collection scans only what came
# after. Under the latency bench a full collection paused Daphne for 82 ms before, 18 ms after.
gc.freeze()

# What comes after is mostly per-socket objects (some 140 per WebSocket: Daphne's and
# autobahn's protocol, the consumer's task and queues) and each move's short-lived JSON
# containers. With the default thresholds (700, 10, 10) the young collections ran several
# times per Wood and Steel move, moved whatever that move had in flight to the oldest
# generation, and a full collection (150 k objects at 1,000 sockets, 90-150 ms with the
# event loop stopped) followed every 2-4 s: it was the fan-out's p99. Young collections stay
# small (2,000) and cheap; a full one may follow only after 1,000 middle ones, not 10.
# JUNCTION_GC_THRESHOLD ("gen0,gen1,gen2") overrides it; docs/PERFORMANCE.md has the figures.
GC_THRESHOLD = tuple(int(n) for n in os.environ.get("JUNCTION_GC_THRESHOLD", "2000,50,1000").split(","))
gc.set_threshold(*GC_THRESHOLD)

# With full collections that rare, the reference cycles each HTTP request leaves (tens of
# thousands per few thousand requests) waited for one for a long time: under the soak's HTTP
# clients a process grew by some 17 MiB a minute. A full collection every
# JUNCTION_GC_FULL_SECONDS (0: never) bounds that at one short pause a minute.
GC_FULL_SECONDS = float(os.environ.get("JUNCTION_GC_FULL_SECONDS", "60") or "0")


def _collect_periodically(every: float) -> None:
    while True:
        time.sleep(every)
        gc.collect()


if GC_FULL_SECONDS > 0:
    threading.Thread(target=_collect_periodically, args=(GC_FULL_SECONDS,), daemon=True, name="junction-gc").start()


def fill_reason_phrases() -> None:
    """Daphne writes the status line through Twisted (``Request.setResponseCode(status)``
    with no phrase), which looks the phrase up in ``twisted.web.http.RESPONSES`` and writes
    "Unknown Status" for a code missing there: 429 among them (also 422, 425, 428, 431, 451,
    ...). The table is one shared dict: what Python's ``http.HTTPStatus`` knows is added to
    it, what Twisted has is kept."""
    from http import HTTPStatus

    try:
        from twisted.web.http import RESPONSES
    except ImportError:  # served by another ASGI server: nothing to fill
        return
    for status in HTTPStatus:
        RESPONSES.setdefault(status.value, status.phrase.encode("ascii"))


fill_reason_phrases()


def allow_registered_close_codes() -> None:
    """Daphne closes a socket through autobahn's ``sendClose``, which refuses every code but
    1000 and 3000-4999: an application's ``close(code=1013)`` ("try again later": the database
    or the channel layer cannot serve now) raised inside Daphne, and the client saw 1011 (an
    internal error) instead. The codes autobahn itself lists as ones a server may send
    (``CLOSE_STATUS_CODES_ALLOWED``: 1001 going away, 1011, 1012 service restart, 1013 try
    again later, ...) are sent as they are; anything else still goes through ``sendClose``."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # served by another ASGI server: nothing to allow
        return
    close = WebSocketProtocol.serverClose
    if getattr(close, "registered_codes", False):
        return
    sendable = frozenset(WebSocketProtocol.CLOSE_STATUS_CODES_ALLOWED) - {1000}

    def serverClose(self, code=None):
        if code in sendable:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            close(self, code)

    serverClose.registered_codes = True
    WebSocketProtocol.serverClose = serverClose


allow_registered_close_codes()
