"""The limits against a real Daphne with no proxy in front, as a hostile client tries them: a
client rotating X-Forwarded-For values is limited by its real address, creating games past
the rate is 429 with the API's JSON and Retry-After, and with Redis gone the limits still
answer 201/429 (counted in the process), never 500."""

from __future__ import annotations

import os
import time

import httpx
import pytest

pytestmark = pytest.mark.processes


@pytest.fixture(autouse=True)
def _one_window():
    """Limits count in fixed windows; the rates here are per hour and each test starts at
    least a minute before the hour turns, so a window never ends mid-test."""
    left = 3600 - time.time() % 3600
    if left < 60:
        time.sleep(left + 0.5)


def isolated(env: dict[str, str], private_redis) -> dict[str, str]:
    """Counters of their own: a private Redis on the services pass (the process's memory otherwise)."""
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = private_redis().url
    return env


def assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == "rate-limited" and body["error"]["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3601


def test_rotating_x_forwarded_for_is_limited_by_the_real_address(daphne, private_redis):
    server = daphne(extra_env=isolated({"JUNCTION_TRUSTED_PROXIES": "0", "JUNCTION_JOIN_RATE": "5/hour"}, private_redis))
    with httpx.Client(base_url=server.url, timeout=30) as client:
        codes = [client.post("/api/games", json={"kind": "toy"}).json()["code"] for _ in range(3)]  # 12 open seats
        joins = [
            client.post(f"/api/games/{codes[i % 3]}/seats", json={"name": f"p{i}"},
                        headers={"X-Forwarded-For": f"198.51.100.{i}, 203.0.113.{i}"})
            for i in range(12)
        ]
        assert [r.status_code for r in joins] == [201] * 5 + [429] * 7
        for r in joins[5:]:
            assert_limited(r)
        seated = sum(len(client.get(f"/api/games/{code}").json()["seats"]) for code in codes)
        assert seated == 5


def test_behind_one_trusted_proxy_each_forwarded_client_counts_alone(daphne, private_redis):
    server = daphne(extra_env=isolated({"JUNCTION_TRUSTED_PROXIES": "1", "JUNCTION_JOIN_RATE": "1/hour"}, private_redis))
    with httpx.Client(base_url=server.url, timeout=30) as client:
        code = client.post("/api/games", json={"kind": "toy"}).json()["code"]
        first = [client.post(f"/api/games/{code}/seats", json={"name": f"p{i}"}, headers={"X-Forwarded-For": f"192.0.2.{i}"})
                 for i in range(3)]
        assert [r.status_code for r in first] == [201, 201, 201]  # three clients behind the proxy
        # The first client again, whatever it claims to the left of what the proxy wrote.
        assert_limited(client.post(f"/api/games/{code}/seats", json={"name": "again"},
                                   headers={"X-Forwarded-For": "10.9.9.9, 192.0.2.0"}))


def test_creating_games_past_the_rate_is_429_with_json_and_retry_after(daphne, private_redis):
    server = daphne(extra_env=isolated({"JUNCTION_CREATE_RATE": "3/hour"}, private_redis))
    with httpx.Client(base_url=server.url, timeout=30) as client:
        created = [client.post("/api/games", json={"kind": "toy", "name": "x", "listed": True},  # open tables: listed
                               headers={"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(6)]
        assert [r.status_code for r in created] == [201] * 3 + [429] * 3
        for r in created[3:]:
            assert_limited(r)
        lobby = client.get("/api/games", params={"status": "lobby"})
        assert lobby.status_code == 200 and len(lobby.json()) == 3  # the refused ones created nothing


def test_with_redis_gone_creates_and_joins_are_still_limited_never_500(daphne, private_redis):
    redis = private_redis()
    server = daphne(extra_env={"REDIS_URL": redis.url, "JUNCTION_CREATE_RATE": "3/hour", "JUNCTION_JOIN_RATE": "2/hour"})
    with httpx.Client(base_url=server.url, timeout=30) as client:
        code = client.post("/api/games", json={"kind": "toy"}).json()["code"]  # counted in Redis: 1 of 3
        redis.stop()
        creates = [client.post("/api/games", json={"kind": "toy"}) for _ in range(4)]
        joins = [client.post(f"/api/games/{code}/seats", json={"name": f"p{i}"}) for i in range(3)]
    # Counted in the process from the failure on (Redis's count of 1 is out of its reach).
    assert [r.status_code for r in creates] == [201, 201, 201, 429]
    assert [r.status_code for r in joins] == [201, 201, 429]
    assert_limited(creates[-1])
    assert_limited(joins[-1])
    assert "rate limits: the cache failed" in server.log.read_text()
