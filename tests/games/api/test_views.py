"""Every endpoint and every error shape of the HTTP API."""

from __future__ import annotations

import json

import pytest

from games.selectors import game_get

pytestmark = pytest.mark.django_db


def auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}


def post(client, path, body, token=None, raw=None):
    data = raw if raw is not None else json.dumps(body)
    return client.post(path, data=data, content_type="application/json", **auth(token))


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body


@pytest.fixture
def started(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 50}}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo", "color": "blue"}).json()
    started = post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"])
    assert started.status_code == 200
    return {"code": created["code"], "t0": created["host_token"], "t1": joined["token"]}


def test_healthz_checks_the_database(api_client):
    body = api_client.get("/healthz").json()
    assert body["status"] == "ok" and body["database"] in {"sqlite", "postgresql"}
    assert body["channel_layer"] in {"InMemoryChannelLayer", "RedisPubSubChannelLayer", "RedisChannelLayer"}


def test_kinds_lists_engines_with_options(api_client):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    toy = kinds["toy"]
    assert (toy["min_players"], toy["max_players"]) == (2, 4)
    assert toy["options"][0]["name"] == "target" and toy["options"][0]["default"] == 10
    assert toy["bots"] == ["random"]


def test_create_join_start_flow(api_client):
    response = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"})
    assert response.status_code == 201
    created = response.json()
    assert created["status"] == "lobby" and created["seat"] == 0 and created["host_token"]
    assert created["token"] == created["host_token"]
    code = created["code"]

    # Unlisted by default (games/listing.py): not in the list until the host opens the table.
    assert code not in [g["code"] for g in api_client.get("/api/games?status=lobby").json()]
    assert post(api_client, f"/api/games/{code}/listing", {"listed": True}, created["host_token"]).status_code == 200
    lobby = api_client.get("/api/games?status=lobby").json()
    assert code in [g["code"] for g in lobby]

    joined = post(api_client, f"/api/games/{code}/seats", {"name": "Bo"})
    assert joined.status_code == 201 and joined.json()["seat"] == 1 and joined.json()["token"]
    again = post(api_client, f"/api/games/{code}/seats", {"name": "Bo"}, joined.json()["token"])
    assert again.status_code == 200 and again.json()["seat"] == 1 and again.json()["token"] is None

    summary = api_client.get(f"/api/games/{code}").json()
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Bo"]
    assert "token" not in json.dumps(summary) and "hash" not in json.dumps(summary)

    assert_error(post(api_client, f"/api/games/{code}/start", {}, joined.json()["token"]), 403, "host-only")
    assert_error(post(api_client, f"/api/games/{code}/start", {}), 401, "token-required")
    started = post(api_client, f"/api/games/{code}/start", {}, created["host_token"])
    assert started.status_code == 200 and started.json()["version"] == 1
    assert code not in [g["code"] for g in api_client.get("/api/games?status=lobby").json()]
    assert_error(post(api_client, f"/api/games/{code}/seats", {"name": "Cy"}), 409, "game-started")


def test_full_game_refuses_with_a_clear_code(api_client):
    code = post(api_client, "/api/games", {"kind": "toy"}).json()["code"]
    for i in range(4):
        assert post(api_client, f"/api/games/{code}/seats", {"name": f"P{i}"}).status_code == 201
    assert_error(post(api_client, f"/api/games/{code}/seats", {"name": "P5"}), 409, "game-full")


def test_state_per_seat_and_spectator(api_client, started):
    code = started["code"]
    mine = api_client.get(f"/api/games/{code}/state", **auth(started["t1"])).json()
    watcher = api_client.get(f"/api/games/{code}/state").json()
    assert mine["seat"] == 1 and mine["version"] == 1 and mine["state"]["my_secret"] is not None
    assert watcher["seat"] is None and watcher["state"]["my_secret"] is None and watcher["legal_commands"] == []
    host = api_client.get(f"/api/games/{code}/state", **auth(started["t0"])).json()
    assert host["legal_commands"] == [{"cmd": "add", "n": 1}, {"cmd": "add", "n": 2}, {"cmd": "add", "n": 3}]


def test_command_ok_and_get_state(api_client, started):
    code = started["code"]
    response = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2, "command_id": "x1"}, started["t0"])
    assert response.status_code == 200
    body = response.json()
    assert body["response"] == "add-response" and body["status"] == "ok" and body["version"] == 2
    assert body["events"][0]["type"] == "added"
    again = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2, "command_id": "x1"}, started["t0"])
    assert again.json() == body
    state = post(api_client, f"/api/games/{code}/commands", {"cmd": "get-state"}, started["t1"]).json()
    assert state["response"] == "get-state-response" and state["status"] == "ok"
    assert state["version"] == 2 and state["state"]["counter"] == 2 and state["seat"] == 1


def test_a_command_id_reused_for_another_command_is_409_naming_the_first(api_client, started):
    code = started["code"]
    first = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2, "command_id": "k"}, started["t0"]).json()
    post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, started["t1"])
    body = assert_error(post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 3, "command_id": "k"}, started["t0"]),
                        409, "command-id-reused")
    assert body["first"] == {"sequence": first["version"], "command": {"cmd": "add", "n": 2}} and body["version"] == 3
    again = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2, "command_id": "k", "expected_version": 1}, started["t0"])
    assert again.status_code == 200 and again.json() == first  # the same command (whatever version it names): the first result
    assert game_get(code=code).version == 3


def test_actions_after(api_client, started):
    code = started["code"]
    post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, started["t0"])
    post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, started["t1"])
    actions = api_client.get(f"/api/games/{code}/actions?after=1").json()
    assert [a["sequence"] for a in actions] == [2, 3] and [a["seat"] for a in actions] == [0, 1]
    assert api_client.get(f"/api/games/{code}/actions").json()[0]["command"] == {"cmd": "start"}
    assert_error(api_client.get(f"/api/games/{code}/actions?after=x"), 400, "invalid-request")
    assert_error(api_client.get(f"/api/games/{code}/actions?after=-1"), 400, "invalid-request")


BAD_COMMANDS = [
    ("malformed json", None, '{"cmd": "add", ', 400, "malformed-json"),
    ("not an object", None, "[1, 2]", 400, "invalid-request"),
    ("missing cmd", {"n": 1}, None, 400, "invalid-request"),
    ("cmd not a string", {"cmd": 5}, None, 400, "invalid-request"),
    ("cmd bad shape", {"cmd": "ADD ME"}, None, 400, "invalid-request"),
    ("wrong argument type", {"cmd": "add", "n": "two"}, None, 400, "invalid-command"),
    ("argument out of range", {"cmd": "add", "n": 9}, None, 400, "invalid-command"),
    ("unknown command", {"cmd": "teleport"}, None, 400, "unknown-command"),
    ("expected_version not int", {"cmd": "add", "n": 1, "expected_version": "a"}, None, 400, "invalid-request"),
    ("command_id too long", {"cmd": "add", "n": 1, "command_id": "x" * 65}, None, 400, "invalid-request"),
    ("huge body", None, json.dumps({"cmd": "add", "n": 1, "pad": "x" * 100_000}), 413, "payload-too-large"),
]


@pytest.mark.parametrize("label,body,raw,status,code", BAD_COMMANDS, ids=[b[0] for b in BAD_COMMANDS])
def test_bad_commands_are_4xx_and_change_nothing(api_client, started, label, body, raw, status, code):
    before = game_get(code=started["code"])
    response = post(api_client, f"/api/games/{started['code']}/commands", body, started["t0"], raw=raw)
    assert_error(response, status, code)
    after = game_get(code=started["code"])
    assert (after.version, after.state) == (before.version, before.state)


def test_auth_errors(api_client, started):
    code = started["code"]
    path = f"/api/games/{code}/commands"
    assert_error(post(api_client, path, {"cmd": "add", "n": 1}), 401, "token-required")
    assert_error(post(api_client, path, {"cmd": "add", "n": 1}, "bogus"), 401, "invalid-token")
    response = api_client.post(path, data="{}", content_type="application/json", HTTP_AUTHORIZATION="Basic abc")
    assert_error(response, 401, "invalid-token")
    other = post(api_client, "/api/games", {"kind": "toy", "name": "Zed"}).json()
    assert_error(post(api_client, path, {"cmd": "add", "n": 1}, other["host_token"]), 403, "wrong-game")
    assert_error(post(api_client, path, {"cmd": "add", "n": 1}, started["t1"]), 400, "not-your-turn")


def test_stale_expected_version_is_409_with_current_version(api_client, started):
    code = started["code"]
    ok = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1, "expected_version": 1}, started["t0"])
    assert ok.status_code == 200
    body = assert_error(
        post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1, "expected_version": 1}, started["t1"]),
        409,
        "stale-version",
    )
    assert body["version"] == 2


def test_unknown_game_is_404_everywhere(api_client):
    for path in ("/api/games/ZZZZZ", "/api/games/ZZZZZ/state", "/api/games/ZZZZZ/actions"):
        assert_error(api_client.get(path), 404, "game-not-found")
    assert_error(post(api_client, "/api/games/ZZZZZ/commands", {"cmd": "add"}, "t"), 404, "game-not-found")
    assert_error(post(api_client, "/api/games/ZZZZZ/seats", {"name": "A"}), 404, "game-not-found")


def test_create_validation(api_client):
    assert_error(post(api_client, "/api/games", {}), 400, "invalid-request")
    assert_error(post(api_client, "/api/games", {"kind": "chess"}), 400, "unknown-kind")
    assert_error(post(api_client, "/api/games", {"kind": "toy", "options": {"target": 1}}), 400, "invalid-option")
    assert_error(post(api_client, "/api/games", {"kind": "toy", "options": "x"}), 400, "invalid-request")
    assert_error(post(api_client, "/api/games", {"kind": "toy", "color": "mauve"}), 400, "invalid-request")
    assert_error(api_client.get("/api/games?status=nope"), 400, "invalid-request")
    assert_error(api_client.put("/api/games", data="{}", content_type="application/json"), 405, "method-not-allowed")


def test_join_validation_and_bots(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    code = created["code"]
    assert_error(post(api_client, f"/api/games/{code}/seats", {}), 400, "invalid-request")
    assert_error(post(api_client, f"/api/games/{code}/seats", {"name": "x" * 41}), 400, "invalid-request")
    assert_error(post(api_client, f"/api/games/{code}/seats", {"name": "Bo", "color": "orange"}), 400, "color-taken")
    assert_error(post(api_client, f"/api/games/{code}/seats", {"bot": "random"}), 401, "token-required")
    assert_error(post(api_client, f"/api/games/{code}/seats", {"bot": "genius"}, created["host_token"]), 400, "unknown-bot")
    bot = post(api_client, f"/api/games/{code}/seats", {"bot": "random"}, created["host_token"])
    assert bot.status_code == 201 and bot.json()["game"]["seats"][1]["is_bot"] is True


def test_join_flood_is_rate_limited(api_client, settings):
    settings.JUNCTION_JOIN_RATE = "3/min"
    code = post(api_client, "/api/games", {"kind": "toy"}).json()["code"]
    statuses = [post(api_client, f"/api/games/{code}/seats", {"name": f"P{i}"}).status_code for i in range(3)]
    assert statuses == [201, 201, 201]
    response = post(api_client, f"/api/games/{code}/seats", {"name": "P9"})
    assert_error(response, 429, "rate-limited")
    assert int(response["Retry-After"]) > 0
    assert len(game_get(code=code).seats.all()) == 3


def test_openapi_schema_documents_every_endpoint(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    paths = set(schema["paths"])
    for path in ("/api/kinds", "/api/games", "/api/games/{code}", "/api/games/{code}/seats", "/api/games/{code}/start",
                 "/api/games/{code}/state", "/api/games/{code}/commands", "/api/games/{code}/actions", "/healthz"):
        assert path in paths, path
    docs = api_client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_games_list_pages_with_a_cursor_to_every_game(api_client):
    from games.models import Game

    codes = [post(api_client, "/api/games", {"kind": "toy", "listed": True}).json()["code"] for _ in range(5)]  # open tables
    Game.objects.filter(code=codes[2]).update(created_at=Game.objects.get(code=codes[3]).created_at)  # a tie: the id decides
    seen, url, pages = [], "/api/games?status=lobby&limit=2", 0
    while url:
        response = api_client.get(url)
        assert response.status_code == 200
        page = response.json()
        assert isinstance(page, list) and len(page) <= 2  # the body is the same list as before
        seen += [g["code"] for g in page]
        pages += 1
        if pages == 1:  # a flood after the first page neither shifts nor repeats the next ones
            post(api_client, "/api/games", {"kind": "toy", "listed": True})
        link = response.headers.get("Link")
        url = link[1:link.index(">")] if link else None
        assert url is None or (url.startswith("/api/games?") and "status=lobby" in url and "limit=2" in url and 'rel="next"' in link)
    assert seen == codes[::-1] and pages == 3  # newest first, each game once
    assert "Link" not in api_client.get("/api/games?status=lobby&limit=100").headers


def test_games_list_refuses_a_cursor_or_limit_it_did_not_give(api_client):
    for bad in ("x", "!!!", "bm90LWEtZGF0ZXwx", "MjAyNC0wMS0wMXwx", "MjAyNC0wMS0wMVQwMDowMDowMCswMDowMHwtMQ"):
        assert_error(api_client.get(f"/api/games?cursor={bad}"), 400, "invalid-request")
    for bad in ("0", "101", "-1", "ten"):
        assert_error(api_client.get(f"/api/games?limit={bad}"), 400, "invalid-request")


def test_openapi_schema_documents_the_games_list_pages_and_429(api_client):
    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    listing = schema["paths"]["/api/games"]["get"]
    assert {"status", "cursor", "limit"} <= {p["name"] for p in listing["parameters"]}
    assert "Link" in listing["responses"]["200"]["headers"] and "429" in listing["responses"]
    for path, method in (("/api/games", "post"), ("/api/games/{code}/seats", "post"), ("/api/games/{code}/commands", "post"),
                         ("/api/games/{code}/state", "get"), ("/api/games/{code}/actions", "get")):
        assert "429" in schema["paths"][path][method]["responses"], (path, method)
