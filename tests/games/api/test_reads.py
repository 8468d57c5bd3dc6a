"""The big public reads (a state, get-state through POST /api and …/commands, the log, a replay step, a
kind's content): priced against the read limits by their size, with or without a token; served from
the per-version cache (games/readcache.py) with an ETag and 304 for If-None-Match; a move (or a status
change) makes a new one; every seat gets its own bytes, spectators share theirs; the token is still
checked on every request."""

from __future__ import annotations

import json
import time

import pytest

from games import readcache, services
from games.api import throttling
from games.models import Seat
from games.selectors import game_get

pytestmark = pytest.mark.django_db


def auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}


def post(client, path, body, token=None, **extra):
    return client.post(path, data=json.dumps(body), content_type="application/json", **auth(token), **extra)


def get(client, path, token=None, **extra):
    return client.get(path, **auth(token), **extra)


def assert_limited(response):
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == "rate-limited" and body["error"]["message"]
    assert 1 <= int(response["Retry-After"]) <= 3601


@pytest.fixture(autouse=True)
def _fresh(settings, monkeypatch):
    """Each test starts with an empty read cache and in-process counters, far from an hour's end
    (the limits below are per hour), and with every limit but the one it sets out of the way."""
    for name in ("CREATE", "JOIN", "COMMAND", "COMMAND_SEAT", "READ", "READ_SEAT"):
        setattr(settings, f"JUNCTION_{name}_RATE", "100000/hour")
    settings.JUNCTION_READ_PRICE_BYTES = 65536
    settings.JUNCTION_READ_CACHE_BYTES = 32 * 1024 * 1024
    monkeypatch.setattr(throttling, "_shared_down_until", 0.0)
    throttling.FALLBACK.clear()
    readcache.reads_forget()
    left = 3600 - time.time() % 3600
    if left < 5:
        time.sleep(left + 0.1)
    yield
    readcache.reads_forget()


@pytest.fixture
def toy(api_client):
    """A started toy race: seat 0 (the host), seats 1 and 2; each seat has a secret only it sees."""
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 1000}}).json()
    tokens = [created["host_token"]]
    for name in ("Bo", "Cy"):
        tokens.append(post(api_client, f"/api/games/{created['code']}/seats", {"name": name}).json()["token"])
    assert post(api_client, f"/api/games/{created['code']}/start", {}, tokens[0]).status_code == 200
    return {"code": created["code"], "tokens": tokens}


@pytest.fixture
def runerail(api_client):
    created = post(api_client, "/api/games", {"kind": "runerail", "name": "Ann"}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"}).json()
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return {"code": created["code"], "tokens": [created["host_token"], joined["token"]]}


def add(client, toy, seat, n=1):
    response = post(client, f"/api/games/{toy['code']}/commands", {"cmd": "add", "n": n}, toy["tokens"][seat])
    assert response.status_code == 200, response.content


# --- the price ----------------------------------------------------------------------------------


def test_the_price_is_a_token_per_started_64_kib(settings):
    assert [throttling.read_price(n) for n in (0, 1, 65536, 65537, 344_000)] == [1, 1, 1, 2, 6]
    settings.JUNCTION_READ_PRICE_BYTES = 0  # off: every read one token
    assert throttling.read_price(10**7) == 1


def test_a_big_read_costs_more_of_the_read_limit_than_a_small_one(api_client, runerail, settings):
    settings.JUNCTION_READ_RATE = "12/hour"
    code = runerail["code"]
    big = {"cmd": "get-state", "game": code}  # the notes' document with its geography: about 340 KB
    small = {"cmd": "get-state", "game": code, "geography": False}
    first = post(api_client, "/api", big)
    assert first.status_code == 200 and len(first.content) > 5 * 65536
    assert throttling.read_price(len(first.content)) == 6
    assert post(api_client, "/api", big).status_code == 200  # 12 tokens of 12
    assert_limited(post(api_client, "/api", big))
    # A small read from another address: twelve of them before the same limit.
    statuses = [post(api_client, "/api", small, REMOTE_ADDR="198.51.100.7").status_code for _ in range(13)]
    assert statuses == [200] * 12 + [429]


def test_token_less_big_reads_are_limited_on_every_route(api_client, runerail, settings):
    settings.JUNCTION_READ_RATE = "10/hour"
    code = runerail["code"]
    routes = [
        lambda addr: post(api_client, "/api", {"cmd": "get-state", "game": code}, REMOTE_ADDR=addr),
        lambda addr: get(api_client, "/api/kinds/runerail/content", REMOTE_ADDR=addr),
    ]
    for i, read in enumerate(routes):
        address = f"198.51.100.{i + 20}"
        statuses = []
        for _ in range(10):
            response = read(address)
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert_limited(response)
                break
        assert statuses[-1] == 429 and len(statuses) <= 5, statuses  # ten small reads would all pass


def test_a_seats_big_reads_count_against_its_seat_limit_too(api_client, runerail, settings):
    settings.JUNCTION_READ_SEAT_RATE = "8/hour"
    body = {"cmd": "get-state", "game": runerail["code"]}
    responses = [post(api_client, "/api", body, runerail["tokens"][1], REMOTE_ADDR=f"198.51.100.{i}") for i in range(3)]
    assert [r.status_code for r in responses[:1]] == [200]
    assert_limited(responses[1])  # 6 + 6 > 8, whatever address it comes from


def test_get_state_over_post_is_a_read_not_a_command(api_client, toy, settings):
    settings.JUNCTION_COMMAND_RATE = "1/hour"  # the start used it up
    code, token = toy["code"], toy["tokens"][1]
    for _ in range(3):
        assert post(api_client, f"/api/games/{code}/commands", {"cmd": "get-state"}, token).status_code == 200
        assert post(api_client, "/api", {"cmd": "get-state", "game": code}, token).status_code == 200
    assert_limited(post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, toy["tokens"][0]))
    assert_limited(post(api_client, "/api", {"cmd": "add", "n": 1, "game": code}, toy["tokens"][0]))


def test_a_body_that_is_not_json_is_still_a_command_and_its_error(api_client, toy, settings):
    response = api_client.post(f"/api/games/{toy['code']}/commands", data="{nope", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "malformed-json"
    settings.JUNCTION_COMMAND_RATE = "1/hour"
    assert_limited(api_client.post("/api", data="{nope", content_type="application/json"))


def test_a_304_costs_one_token_however_big_the_read(api_client, runerail, settings):
    settings.JUNCTION_READ_RATE = "12/hour"
    first = get(api_client, "/api/kinds/runerail/content")
    price = throttling.read_price(len(first.content))
    assert first.status_code == 200 and price >= 3  # about 230 KB
    statuses = [get(api_client, "/api/kinds/runerail/content", HTTP_IF_NONE_MATCH=first["ETag"]).status_code
                for _ in range(13 - price)]
    assert statuses == [304] * (12 - price) + [429]


# --- ETag and 304 ---------------------------------------------------------------------------------


READS = [
    ("GET", "/api/games/{code}/state", None),
    ("GET", "/api/games/{code}/actions?after=0", None),
    ("GET", "/api/games/{code}/replay?step=1", None),
    ("POST", "/api/games/{code}/commands", {"cmd": "get-state"}),
    ("POST", "/api", {"cmd": "get-state", "game": "{code}"}),
]


def read(client, method, path, body, code, token=None, **extra):
    path = path.format(code=code)
    if method == "GET":
        return get(client, path, token, **extra)
    return post(client, path, {k: v.format(code=code) for k, v in body.items()}, token, **extra)


@pytest.mark.parametrize(("method", "path", "body"), READS)
def test_if_none_match_gets_304_with_no_body_and_a_move_makes_a_new_etag(api_client, toy, method, path, body):
    code, token = toy["code"], toy["tokens"][1]
    first = read(api_client, method, path, body, code, token)
    assert first.status_code == 200 and first.json()
    etag = first["ETag"]
    assert etag.startswith(f'W/"{code}-1-seat1-')
    assert first["Cache-Control"] == "private, no-cache" and "Authorization" in first["Vary"]
    again = read(api_client, method, path, body, code, token, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    add(api_client, toy, 0)
    moved = read(api_client, method, path, body, code, token, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag and moved["ETag"].startswith(f'W/"{code}-2-seat1-')
    assert moved.content != first.content or path.endswith("replay?step=1")  # the replay's step 1 is step 1 still...
    if path.endswith("replay?step=1"):
        assert moved.json()["last"] == 2 and first.json()["last"] == 1  # ...but it knows the log grew


def test_a_move_is_seen_at_once_by_a_reader_of_the_cached_state(api_client, toy):
    code = toy["code"]
    before = [get(api_client, f"/api/games/{code}/state", t).json() for t in (*toy["tokens"], None)]
    add(api_client, toy, 0, 3)
    after = [get(api_client, f"/api/games/{code}/state", t).json() for t in (*toy["tokens"], None)]
    assert {b["version"] for b in before} == {1} and {a["version"] for a in after} == {2}
    assert all(a["state"]["counter"] == 3 for a in after)
    assert after[1]["legal_commands"] and not before[1]["legal_commands"]  # seat 1's turn now


def test_a_status_change_without_a_move_makes_a_new_etag(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    code = created["code"]
    first = get(api_client, f"/api/games/{code}/state")
    assert first.json()["status"] == "lobby"
    services.game_end(game_id=game_get(code=code).pk, by="admin", reason="test")  # a lobby game: no version bump
    again = get(api_client, f"/api/games/{code}/state", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["status"] == "abandoned" and again.json()["version"] == 0


def test_the_content_keeps_its_version_as_etag(api_client):
    first = get(api_client, "/api/kinds/runerail/content")
    assert first["ETag"] == f'"{first.json()["version"]}"' and first["Cache-Control"] == "public, max-age=3600"
    again = get(api_client, "/api/kinds/runerail/content", HTTP_IF_NONE_MATCH=f'W/{first["ETag"]}')
    assert again.status_code == 304 and again.content == b""


def test_an_error_is_never_a_304(api_client, toy):
    code = toy["code"]
    etag = get(api_client, f"/api/games/{code}/replay?step=1")["ETag"]
    response = get(api_client, f"/api/games/{code}/replay?step=9", HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid-request"
    assert get(api_client, f"/api/games/{code}/replay?step=1", HTTP_IF_NONE_MATCH=etag).status_code == 304


# --- every viewer its own bytes -------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body"), READS)
def test_a_seat_never_gets_another_viewers_cached_bytes(api_client, toy, method, path, body):
    code, tokens = toy["code"], toy["tokens"]
    viewers = [*tokens, None]  # seats 0, 1, 2 and a spectator
    first = {i: read(api_client, method, path, body, code, t) for i, t in enumerate(viewers)}
    # Again in the other order, each time after every other viewer's copy was made (the cache is warm).
    second = {i: read(api_client, method, path, body, code, viewers[i]) for i in reversed(range(4))}
    for i in range(4):
        assert first[i].status_code == second[i].status_code == 200
        assert first[i].content == second[i].content and first[i]["ETag"] == second[i]["ETag"]
    assert len({first[i]["ETag"] for i in range(4)}) == 4
    assert first[3]["ETag"].startswith(f'W/"{code}-1-spectator-')
    if "state" in path or "commands" in path or path == "/api":
        secrets = [first[i].json()["state"]["my_secret"] for i in range(4)]
        assert secrets[3] is None and None not in secrets[:3]
        assert [first[i].json()["seat"] for i in range(4)] == [0, 1, 2, None]
        assert len(set(secrets[:3])) == 3 or len({first[i].content for i in range(3)}) == 3
    # Another viewer's ETag is no 304 for this one: it gets its own bytes.
    for i in range(4):
        other = first[(i + 1) % 4]["ETag"]
        response = read(api_client, method, path, body, code, viewers[i], HTTP_IF_NONE_MATCH=other)
        assert response.status_code == 200 and response.content == first[i].content


def test_spectators_and_a_host_without_a_seat_share_one_copy(api_client, toy, monkeypatch):
    created = post(api_client, "/api/games", {"kind": "toy", "options": {"target": 1000}}).json()  # no host seat
    code = created["code"]
    for name in ("Bo", "Cy"):
        post(api_client, f"/api/games/{code}/seats", {"name": name})
    assert post(api_client, f"/api/games/{code}/start", {}, created["host_token"]).status_code == 200
    builds = readcache.READS.builds
    watchers = [get(api_client, f"/api/games/{code}/state", token) for token in (None, created["host_token"], None)]
    assert readcache.READS.builds == builds + 1  # one serialisation for the three of them
    assert len({w.content for w in watchers}) == 1 and watchers[0].json()["state"]["my_secret"] is None


def test_a_crowd_of_readers_costs_one_serialisation_per_move(api_client, toy):
    code = toy["code"]
    builds = readcache.READS.builds
    for _ in range(20):
        post(api_client, "/api", {"cmd": "get-state", "game": code})
    assert readcache.READS.builds == builds + 1
    add(api_client, toy, 0)
    for _ in range(20):
        post(api_client, "/api", {"cmd": "get-state", "game": code})
    assert readcache.READS.builds == builds + 2


def test_the_token_is_checked_on_every_read_of_a_cached_copy(api_client, toy):
    code, tokens = toy["code"], toy["tokens"]
    for token in tokens:
        assert get(api_client, f"/api/games/{code}/state", token).status_code == 200
    bogus = get(api_client, f"/api/games/{code}/state", "not-a-token")
    assert bogus.status_code == 401 and bogus.json()["error"]["code"] == "invalid-token"
    other = post(api_client, "/api/games", {"kind": "toy", "name": "Zed"}).json()
    foreign = post(api_client, "/api", {"cmd": "get-state", "game": code}, other["host_token"])
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "wrong-game"
    # The seat's token replaced (as handing it to another device does): the old one reads nothing more.
    Seat.objects.filter(game__code=code, index=1).update(token_hash="0" * 64)
    moved = get(api_client, f"/api/games/{code}/state", tokens[1])
    assert moved.status_code == 401 and moved.json()["error"]["code"] == "invalid-token"
