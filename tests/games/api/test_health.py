"""games/api/health.py: liveness checks nothing; readiness makes a real round trip to the
database and to the channel layer's servers, and a 503 names what is down."""

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


def test_readiness_is_503_naming_the_channel_layer_when_its_redis_is_down(client, settings):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [url]}}}
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["channel_layer"] == "down" and body["database"] == connection.vendor
    assert body["error"]["code"] == "not-ready" and body["error"]["message"].startswith("channel layer down")


def test_readiness_is_503_naming_the_database_when_it_is_down(client, monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "down" and "database down" in body["error"]["message"]
