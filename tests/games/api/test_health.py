"""games/api/health.py: liveness checks nothing; readiness makes a real round trip to the database
(503 naming it when it is down) and reports the channel layer without depending on it; health says
``degraded`` when only the channel layer's Redis is down."""

from __future__ import annotations

import socket

import pytest
from django.db import OperationalError, connection

from games.api import health

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as s:  # bound, then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_liveness_answers_without_asking_anything(client, monkeypatch):
    monkeypatch.setattr(health, "check_database", lambda: pytest.fail("liveness must not touch the database"))
    response = client.get("/livez")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize("path", ["/readyz", "/healthz"])
def test_readiness_reports_what_answered(client, path):
    body = client.get(path).json()
    assert body["status"] == "ok" and body["database"] == connection.vendor
    assert body["channel_layer"] in {"InMemoryChannelLayer", "RedisPubSubChannelLayer", "RedisChannelLayer"}


def test_with_only_redis_down_the_process_stays_ready_and_health_says_degraded(client, settings, caplog):
    """One Redis is shared by every process: counting it in readiness would take every process out of the
    load balancer at once, though moves go on over HTTP and sockets resync when it is back."""
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [url]}}}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "ok" and ready.json()["channel_layer"] == "down" and ready.json()["database"] == connection.vendor
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "degraded" and health.json()["channel_layer"] == "down"
    assert any("degraded: channel layer down" in r.getMessage() for r in caplog.records)


def test_readiness_is_503_naming_the_database_when_it_is_down(client, monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)
    assert client.get("/healthz").status_code == 503
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "down" and "database down" in body["error"]["message"]
