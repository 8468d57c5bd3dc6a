"""Health: liveness (the process answers) and readiness (it can serve: the database and the
channel layer each answered a real round trip just now).

A load balancer or orchestrator restarts a process that fails liveness and stops sending
traffic to one that fails readiness; ``/healthz`` is readiness (what it always claimed to
check). A readiness failure names what is down, so an operator sees "channel layer down"
rather than a bare 503."""

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
    "status": serializers.CharField(help_text="`ok`, or `error` with `error.code` `not-ready`"),
    "database": serializers.CharField(help_text="the database vendor, or `down`"),
    "channel_layer": serializers.CharField(help_text="the layer's class, or `down`"),
    "milliseconds": serializers.FloatField(help_text="how long the checks took"),
})


class LivenessView(APIView):
    @extend_schema(responses={200: inline_serializer("Liveness", {"status": serializers.CharField()})},
                   summary="Liveness: the process answers (checks nothing else)")
    def get(self, request):
        return Response({"status": "ok"})


class ReadinessView(APIView):
    @extend_schema(responses={200: HEALTH, 503: HEALTH},
                   summary="Readiness: the database and the channel layer each answered a round trip")
    def get(self, request):
        began = time.perf_counter()
        down = {}
        database_error = check_database()
        if database_error:
            down["database"] = database_error
        layer_error = check_channel_layer()
        if layer_error:
            down["channel layer"] = layer_error
        body = {
            "status": "ok",
            "database": "down" if database_error else connection.vendor,
            "channel_layer": "down" if layer_error else layer_backend(),
            "milliseconds": round((time.perf_counter() - began) * 1000, 2),
        }
        if not down:
            return Response(body)
        message = "; ".join(f"{name} down ({why})" for name, why in down.items())
        log.warning("not ready: %s", message)
        return Response({**body, "status": "error", "error": {"code": "not-ready", "message": message}}, status=503)
