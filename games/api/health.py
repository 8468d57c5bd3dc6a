"""Health: liveness (the process answers), readiness (it can serve) and health (what it depends on).

- ``/livez``: the process answers; nothing else is asked. An orchestrator restarts a process that fails it.
- ``/readyz``: this process can serve: the database made a real round trip just now. A load balancer
  stops sending traffic to a process that fails it (503 ``not-ready`` naming the database). The
  channel layer's Redis is reported (``channel_layer``: ``down``) but does **not** make a process
  unready: every process shares one Redis, so counting it would take every process out of the
  load balancer at once, a total outage, while moves still work over HTTP and over sockets (the
  database is the truth; each process delivers its own moves to its own sockets, and the resync
  brings every socket to its game's version when Redis is back).
- ``/healthz``: the same checks for an operator or a monitor: ``"status": "degraded"`` (still 200,
  and a warning in the logs) when only the channel layer is down, 503 when the database is."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

log = logging.getLogger(__name__)

PROBE_TIMEOUT = 1.0  # seconds a dependency may take to answer a readiness probe

_redis_clients: dict[str, object] = {}
_redis_lock = threading.Lock()


def _redis_client(url: str):
    """One client per Redis URL for the probes (its pool reconnects after a restart)."""
    with _redis_lock:
        client = _redis_clients.get(url)
        if client is None:
            import redis

            client = redis.Redis.from_url(url, socket_timeout=PROBE_TIMEOUT, socket_connect_timeout=PROBE_TIMEOUT)
            _redis_clients[url] = client
        return client


def layer_backend() -> str:
    return settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]


def check_database() -> str | None:
    """None when a query made the round trip, else what went wrong."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # report, never crash
        return f"{type(exc).__name__}: {exc}".strip()
    return None


def check_channel_layer() -> str | None:
    """None when every server of the channel layer answered a PING, else what went wrong.
    The in-memory layer lives in this process: nothing to reach."""
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG") or {}
    for host in config.get("hosts", []):
        url = host if isinstance(host, str) else host.get("address")
        if not isinstance(url, str):
            continue
        try:
            _redis_client(url).ping()
        except Exception as exc:  # redis' ConnectionError, TimeoutError, ...
            return f"{type(exc).__name__}: {exc}".strip()
    return None


HEALTH = inline_serializer("Health", {
    "status": serializers.CharField(help_text="`ok`; `degraded` (/healthz: the channel layer is down, the process serves); "
                                    "or `error` with `error.code` `not-ready` (the database is down)"),
    "database": serializers.CharField(help_text="the database vendor, or `down`"),
    "channel_layer": serializers.CharField(help_text="the layer's class, or `down`"),
    "milliseconds": serializers.FloatField(help_text="how long the checks took"),
})


class LivenessView(APIView):
    @extend_schema(responses={200: inline_serializer("Liveness", {"status": serializers.CharField()})},
                   summary="Liveness: the process answers (checks nothing else)")
    def get(self, request):
        return Response({"status": "ok"})


def health_report(*, degraded_status: str) -> Response:
    """The checks, answered: 503 ``not-ready`` when the database is down; else 200, with the channel
    layer ``down`` and ``status`` ``degraded_status`` when only its Redis is."""
    began = time.perf_counter()
    database_error = check_database()
    layer_error = check_channel_layer()
    body = {
        "status": "ok",
        "database": "down" if database_error else connection.vendor,
        "channel_layer": "down" if layer_error else layer_backend(),
        "milliseconds": round((time.perf_counter() - began) * 1000, 2),
    }
    if layer_error:
        log.warning("degraded: channel layer down (%s); serving on, sockets resync when it is back", layer_error)
    if not database_error:
        return Response({**body, "status": degraded_status} if layer_error else body)
    down = {"database": database_error, **({"channel layer": layer_error} if layer_error else {})}
    message = "; ".join(f"{name} down ({why})" for name, why in down.items())
    log.warning("not ready: %s", message)
    return Response({**body, "status": "error", "error": {"code": "not-ready", "message": message}}, status=503)


class ReadinessView(APIView):
    @extend_schema(responses={200: HEALTH, 503: HEALTH},
                   summary="Readiness: the database answered a round trip (the channel layer is reported, not required)")
    def get(self, request):
        return health_report(degraded_status="ok")


class HealthView(APIView):
    @extend_schema(responses={200: HEALTH, 503: HEALTH},
                   summary="Health: readiness, and `degraded` when the channel layer's Redis is down")
    def get(self, request):
        return health_report(degraded_status="degraded")
