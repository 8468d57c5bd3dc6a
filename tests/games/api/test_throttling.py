"""Client addresses (trusted proxies only) and the rate limits on everything that floods:
per address and per seat, 429 rate-limited with Retry-After, and still in force (never a
500) when the cache — Redis in production — fails or stalls."""

from __future__ import annotations

import json
import socket
import time

import pytest
import redis.exceptions
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import RequestFactory

from games.api import throttling
from games.api.throttling import (
    address_key,
    client_address,
    client_address_from_scope,
    command_allowed,
    seat_key,
)

pytestmark = pytest.mark.django_db


def auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}


def post(client, path, body, token=None, **extra):
    return client.post(path, data=json.dumps(body), content_type="application/json", **auth(token), **extra)


def assert_limited(response):
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == "rate-limited" and body["error"]["message"]
    assert 1 <= int(response["Retry-After"]) <= 3601
    return body


@pytest.fixture(autouse=True)
def _fresh_fallback(monkeypatch):
    """Each test starts with the shared cache trusted and the in-process fallback empty."""
    monkeypatch.setattr(throttling, "_shared_down_until", 0.0)
    throttling.FALLBACK.clear()
    left = 3600 - time.time() % 3600  # the limits below are per hour: no window ends mid-test
    if left < 5:
        time.sleep(left + 0.1)
    yield
    throttling.FALLBACK.clear()


@pytest.fixture
def generous(settings):
    for name in ("CREATE", "JOIN", "COMMAND", "COMMAND_SEAT", "READ", "READ_SEAT"):
        setattr(settings, f"JUNCTION_{name}_RATE", "100000/hour")  # the same windows as the tests' own rates
    return settings


def toy_started(client):
    created = post(client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 1000}}).json()
    joined = post(client, f"/api/games/{created['code']}/seats", {"name": "Bo"}).json()
    assert post(client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return created["code"], created["host_token"], joined["token"]


# --- the client's address ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "203.0.113.9"),
        (0, "198.51.100.1", "203.0.113.9"),  # no proxy trusted: the header is the client's own claim
        (0, "198.51.100.1, 192.0.2.7", "203.0.113.9"),
        (1, "198.51.100.1, 192.0.2.7", "192.0.2.7"),  # what our proxy appended: the rightmost
        (1, "192.0.2.7", "192.0.2.7"),
        (2, "198.51.100.1, 192.0.2.7, 10.0.0.2", "192.0.2.7"),
        (2, "10.0.0.2", "203.0.113.9"),  # fewer hops than proxies: the peer
        (1, "", "203.0.113.9"),
        (1, "not-an-address", "203.0.113.9"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_client_address_trusts_only_what_our_proxies_wrote(settings, proxies, forwarded, expected):
    settings.JUNCTION_TRUSTED_PROXIES = proxies
    extra = {"REMOTE_ADDR": "203.0.113.9"}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_address(RequestFactory().get("/api/games", **extra)) == expected
    headers = [(b"host", b"x")] + ([(b"x-forwarded-for", forwarded.encode())] if forwarded is not None else [])
    assert client_address_from_scope({"type": "websocket", "client": ["203.0.113.9", 5555], "headers": headers}) == expected


def test_scope_joins_repeated_forwarded_headers_and_survives_no_client(settings):
    settings.JUNCTION_TRUSTED_PROXIES = 1
    scope = {"client": ("10.0.0.1", 1), "headers": [(b"x-forwarded-for", b"1.1.1.1"), (b"X-Forwarded-For", b"192.0.2.8")]}
    assert client_address_from_scope(scope) == "192.0.2.8"
    settings.JUNCTION_TRUSTED_PROXIES = 0
    assert client_address_from_scope({"client": None, "headers": []}) == "unknown"
    assert client_address_from_scope({"headers": [(b"x-forwarded-for", b"1.1.1.1")]}) == "unknown"


def test_an_ipv6_host_counts_as_its_slash_64():
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert address_key("192.0.2.1") == "192.0.2.1"
    assert seat_key("abc") == seat_key("abc") != seat_key("abd") and seat_key(None) is None
    assert "abc" not in seat_key("abc")


def test_rates_parse_and_off_means_no_limit():
    assert throttling.parse_rate("30/min") == (30, 60)
    assert throttling.parse_rate("5/s") == (5, 1) and throttling.parse_rate("2/hour") == (2, 3600)
    assert throttling.parse_rate("off") is None and throttling.parse_rate("") is None
    with pytest.raises(Exception, match="not like"):
        throttling.parse_rate("lots")


def test_rotating_x_forwarded_for_does_not_escape_the_join_limit(api_client, settings):
    settings.JUNCTION_JOIN_RATE = "3/hour"
    code = post(api_client, "/api/games", {"kind": "toy"}).json()["code"]
    statuses = [
        post(api_client, f"/api/games/{code}/seats", {"name": f"P{i}"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(4)
    ]
    assert statuses[:3] == [201, 201, 201] and statuses[3] == 429


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(api_client, settings):
    settings.JUNCTION_TRUSTED_PROXIES = 1
    settings.JUNCTION_JOIN_RATE = "1/hour"
    code = post(api_client, "/api/games", {"kind": "toy"}).json()["code"]
    first = post(api_client, f"/api/games/{code}/seats", {"name": "A"}, HTTP_X_FORWARDED_FOR="spoofed, 198.51.100.1")
    second = post(api_client, f"/api/games/{code}/seats", {"name": "B"}, HTTP_X_FORWARDED_FOR="198.51.100.2")
    again = post(api_client, f"/api/games/{code}/seats", {"name": "C"}, HTTP_X_FORWARDED_FOR="other, 198.51.100.1")
    assert (first.status_code, second.status_code) == (201, 201)
    assert_limited(again)  # the same client behind the proxy, whatever it put to the left


# --- the limits -------------------------------------------------------------------------


def test_game_creation_is_limited_per_address(api_client, settings):
    settings.JUNCTION_CREATE_RATE = "3/hour"
    statuses = [post(api_client, "/api/games", {"kind": "toy"}).status_code for _ in range(3)]
    assert statuses == [201, 201, 201]
    assert_limited(post(api_client, "/api/games", {"kind": "toy"}))
    # Another address still creates; listing games is not creating.
    assert post(api_client, "/api/games", {"kind": "toy"}, REMOTE_ADDR="192.0.2.50").status_code == 201
    assert api_client.get("/api/games").status_code == 200


# A command the shape check refuses (400): counted like any other (a get-state is a read: test_reads.py).
REFUSED = {"cmd": "add", "n": 9}


def test_commands_are_limited_per_seat_and_per_address(api_client, generous):
    code, t0, t1 = toy_started(api_client)  # the host's start counted as one of seat 0's commands
    generous.JUNCTION_COMMAND_SEAT_RATE = "3/hour"
    statuses = [post(api_client, f"/api/games/{code}/commands", REFUSED, t1).status_code for _ in range(3)]
    assert statuses == [400, 400, 400]
    assert_limited(post(api_client, f"/api/games/{code}/commands", REFUSED, t1))
    # The other seat at the same address is not caught by seat 1's flood.
    assert post(api_client, f"/api/games/{code}/commands", REFUSED, t0).status_code == 400

    generous.JUNCTION_COMMAND_SEAT_RATE = "100000/hour"
    generous.JUNCTION_COMMAND_RATE = "7/hour"  # 6 counted so far (the start and the refused one too)
    assert post(api_client, f"/api/games/{code}/commands", REFUSED, t0).status_code == 400
    assert_limited(post(api_client, f"/api/games/{code}/commands", REFUSED, t0))
    assert post(api_client, f"/api/games/{code}/commands", REFUSED, t0, REMOTE_ADDR="192.0.2.60").status_code == 400


@pytest.mark.parametrize("path", ["/api/games", "/api/games/{code}", "/api/games/{code}/state",
                                  "/api/games/{code}/actions?after=0", "/api/games/{code}/replay?step=1"])
def test_reads_are_limited_per_address(api_client, generous, path):
    code, _, _ = toy_started(api_client)
    generous.JUNCTION_READ_RATE = "2/hour"
    url = path.format(code=code)
    assert [api_client.get(url).status_code for _ in range(2)] == [200, 200]
    assert_limited(api_client.get(url))
    assert api_client.get(url, REMOTE_ADDR="192.0.2.70").status_code == 200


def test_state_polls_are_limited_per_seat_token(api_client, generous):
    code, t0, t1 = toy_started(api_client)
    generous.JUNCTION_READ_SEAT_RATE = "2/hour"
    state = f"/api/games/{code}/state"
    assert [api_client.get(state, **auth(t0)).status_code for _ in range(2)] == [200, 200]
    assert_limited(api_client.get(state, **auth(t0)))
    assert_limited(api_client.get(state, **auth(t0), REMOTE_ADDR="192.0.2.80"))  # the token, from anywhere
    assert api_client.get(state, **auth(t1)).status_code == 200
    assert api_client.get(state).status_code == 200  # spectators count per address only


def test_socket_commands_share_the_http_command_limit(api_client, generous):
    code, _, t1 = toy_started(api_client)
    generous.JUNCTION_COMMAND_SEAT_RATE = "4/hour"
    assert post(api_client, f"/api/games/{code}/commands", REFUSED, t1).status_code == 400
    assert post(api_client, f"/api/games/{code}/commands", REFUSED, t1).status_code == 400
    key = seat_key(t1)
    assert command_allowed(address="192.0.2.90", seat_key=key) is None
    assert command_allowed(address="192.0.2.90", seat_key=key) is None
    wait = command_allowed(address="192.0.2.90", seat_key=key)  # the 5th command of this seat
    assert wait is not None and 1 <= wait <= 3600
    assert_limited(post(api_client, f"/api/games/{code}/commands", REFUSED, t1))
    assert command_allowed(address="192.0.2.90", seat_key=seat_key("another")) is None


@pytest.mark.asyncio
async def test_acommand_allowed_counts_the_same(settings):
    settings.JUNCTION_COMMAND_RATE = "1/hour"
    assert await throttling.acommand_allowed(address="192.0.2.91", seat_key=None) is None
    assert await throttling.acommand_allowed(address="192.0.2.91", seat_key=None) is not None


def test_retry_after_is_the_rest_of_the_window(settings):
    settings.JUNCTION_CREATE_RATE = "1/min"
    now = 600 * 60 + 15.0  # 15 s into a minute
    assert throttling.check("create", address="192.0.2.1", seat=None, now=now) is None
    assert throttling.check("create", address="192.0.2.1", seat=None, now=now + 1) == pytest.approx(44.0)
    assert throttling.check("create", address="192.0.2.1", seat=None, now=now + 45) is None  # a new window


# --- the cache fails --------------------------------------------------------------------


def _cache_down(monkeypatch):
    """The cache's methods raise as redis-py does with Redis down, until ``state["down"]`` is False."""
    state = {"n": 0, "down": True}
    cache = caches["default"]

    def failing(method):
        original = getattr(throttling, method) if method == "_count_in_redis" else getattr(cache, method)

        def call(*args, **kwargs):
            if not state["down"]:
                return original(*args, **kwargs)
            state["n"] += 1
            raise redis.exceptions.ConnectionError("Error 111 connecting to redis. Connection refused.")

        return call

    for method in ("add", "incr", "get", "set"):
        monkeypatch.setattr(cache, method, failing(method))
    if isinstance(cache, RedisCache):  # the counters' own round trip (a pipeline)
        monkeypatch.setattr(throttling, "_count_in_redis", failing("_count_in_redis"))
    return state


def test_with_the_cache_down_joins_and_creates_are_still_limited_never_500(api_client, settings, monkeypatch):
    settings.JUNCTION_CREATE_RATE = "2/hour"
    settings.JUNCTION_JOIN_RATE = "2/hour"
    calls = _cache_down(monkeypatch)
    creates = [post(api_client, "/api/games", {"kind": "toy"}) for _ in range(3)]
    assert [r.status_code for r in creates] == [201, 201, 429]
    assert_limited(creates[2])
    code = creates[0].json()["code"]
    joins = [post(api_client, f"/api/games/{code}/seats", {"name": f"P{i}"}) for i in range(3)]
    assert [r.status_code for r in joins] == [201, 201, 429]
    assert_limited(joins[2])
    # The dead cache was tried once, then left alone for a while (no request waits on it).
    assert calls["n"] == 1


def test_the_cache_is_tried_again_after_a_while(settings, monkeypatch):
    settings.JUNCTION_JOIN_RATE = "100/min"
    state = _cache_down(monkeypatch)
    assert throttling.check("join", address="192.0.2.2", seat=None) is None
    assert throttling.check("join", address="192.0.2.2", seat=None) is None
    assert state["n"] == 1 and any("rl:join:192.0.2.2" in key for key in throttling.FALLBACK._cache)
    state["down"] = False  # Redis is back ...
    assert throttling.check("join", address="192.0.2.2", seat=None) is None
    assert not any("rl:join:192.0.2.2" in key for key in _cache_keys())  # ... but not tried yet
    monkeypatch.setattr(throttling, "_shared_down_until", time.monotonic() - 1)  # FALLBACK_FOR has passed
    assert throttling.check("join", address="192.0.2.2", seat=None) is None
    assert any("rl:join:192.0.2.2" in key for key in _cache_keys())


def _cache_keys():
    cache = caches["default"]
    if hasattr(cache, "_cache") and isinstance(cache._cache, dict):  # LocMemCache
        return list(cache._cache)
    return [k.decode() for k in cache._cache.get_client().keys("*rl:*")]


def test_a_stalled_redis_costs_a_request_a_fraction_of_a_second(api_client, settings, monkeypatch):
    """A Redis that accepts connections and never answers, with this project's client options:
    the first request waits out socket_timeout once, the next ones do not wait at all."""
    from config.settings import REDIS_CACHE_OPTIONS

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # the kernel completes handshakes; nobody ever reads or answers
    try:
        stalled = RedisCache(f"redis://127.0.0.1:{silent.getsockname()[1]}/0", {"OPTIONS": REDIS_CACHE_OPTIONS})
        monkeypatch.setattr(throttling, "caches", {"default": stalled})
        settings.JUNCTION_CREATE_RATE = "2/hour"
        took = []
        for _ in range(3):
            began = time.monotonic()
            response = post(api_client, "/api/games", {"kind": "toy"})
            took.append(time.monotonic() - began)
            assert response.status_code in (201, 429)
        assert response.status_code == 429
        assert took[0] < 2.0 and max(took[1:]) < 0.3, took
    finally:
        silent.close()
