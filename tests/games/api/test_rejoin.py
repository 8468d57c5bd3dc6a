"""The API of seats that come back: the host's rejoin code (POST …/seats/{seat}/rejoin-code)
and its redemption (POST …/rejoin); the old token is then refused with 401 seat-moved."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import RejoinCode
from games.tokens import hash_token
from tests.games.factories import seat_away

from .test_views import assert_error, auth, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 50}}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo", "color": "blue"}).json()
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    seat_away(created["code"], 1)  # Bo's phone has been away a while: the host may hand the seat on
    return {"code": created["code"], "t0": created["host_token"], "t1": joined["token"]}


def code_for(client, game, seat=1, token=None):
    response = post(client, f"/api/games/{game['code']}/seats/{seat}/rejoin-code", None, token or game["t0"], raw="")
    assert response.status_code == 201, response.content
    return response.json()


def test_the_host_gets_a_one_time_code_with_its_link_and_qr_code(api_client, started, settings):
    settings.JUNCTION_REJOIN_TTL = 600
    body = code_for(api_client, started)
    assert set(body) == {"game", "seat", "name", "code", "url", "qr_svg", "expires_at", "expires_in"}
    assert (body["game"], body["seat"], body["name"]) == (started["code"], 1, "Bo")
    letters = body["code"].replace("-", "")
    assert len(body["code"]) == 11 and body["code"][5] == "-" and len(letters) == 10
    # The code rides in the fragment: it never reaches a server log or a Referer.
    assert body["url"] == f"http://testserver/games/{started['code']}/rejoin#{letters}"
    assert body["qr_svg"].startswith("<svg") and 590 <= body["expires_in"] <= 600
    assert RejoinCode.objects.get().code_hash == hash_token(letters)  # only the hash is kept


def test_the_link_carries_the_public_address(api_client, started, settings):
    settings.JUNCTION_PUBLIC_URL = "https://table.example.org"
    assert code_for(api_client, started)["url"].startswith(f"https://table.example.org/games/{started['code']}/rejoin#")


def test_only_the_host_makes_codes(api_client, started):
    path = f"/api/games/{started['code']}/seats/1/rejoin-code"
    assert_error(post(api_client, path, None, started["t1"], raw=""), 403, "host-only")
    assert_error(post(api_client, path, None, None, raw=""), 401, "token-required")
    assert_error(post(api_client, path, None, "not-a-token", raw=""), 401, "invalid-token")
    assert_error(post(api_client, f"/api/games/{started['code']}/seats/7/rejoin-code", None, started["t0"], raw=""), 404, "seat-not-found")
    assert_error(post(api_client, f"/api/games/{started['code']}/seats/{2**70}/rejoin-code", None, started["t0"], raw=""), 404, "seat-not-found")
    assert_error(post(api_client, "/api/games/ZZZZZ/seats/1/rejoin-code", None, started["t0"], raw=""), 404, "game-not-found")
    assert not RejoinCode.objects.exists()


def test_redeeming_moves_the_seat_and_the_old_token_is_told_it_moved(api_client, started):
    code = code_for(api_client, started)["code"]
    response = post(api_client, f"/api/games/{started['code']}/rejoin", {"code": code.lower()})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["seat"], body["host"], body["game"]["code"]) == (1, False, started["code"])
    new = body["token"]
    assert new not in (started["t0"], started["t1"])

    state = api_client.get(f"/api/games/{started['code']}/state", **auth(new)).json()
    assert state["seat"] == 1 and state["state"]["my_secret"] is not None  # the hidden part too
    for response in (
        api_client.get(f"/api/games/{started['code']}/state", **auth(started["t1"])),
        post(api_client, f"/api/games/{started['code']}/commands", {"cmd": "get-state"}, started["t1"]),
        post(api_client, f"/api/games/{started['code']}/seats", {"name": "Bo"}, started["t1"]),
    ):
        body = assert_error(response, 401, "seat-moved")
        assert "rejoin code" in body["error"]["message"]

    log = api_client.get(f"/api/games/{started['code']}/actions?after=1").json()
    assert log[-1]["command"] == {"cmd": "admin", "action": "seat-moved", "by": "host", "seat": 1}
    assert new not in json.dumps(log) and code.replace("-", "") not in json.dumps(log)

    assert_error(post(api_client, f"/api/games/{started['code']}/rejoin", {"code": code}), 410, "rejoin-code-used")


def test_bad_codes_are_4xx_and_change_nothing(api_client, started):
    path = f"/api/games/{started['code']}/rejoin"
    for bad in ({}, {"code": 5}, {"code": "x"}, {"code": "ABCDE-FGHJ1"}, {"code": "ABCDE-FGHJKL"}, {"code": "é" * 10}):
        assert_error(post(api_client, path, bad), 400, "invalid-request")
    assert_error(post(api_client, path, None, raw="[1]"), 400, "invalid-request")
    assert_error(post(api_client, path, None, raw="{"), 400, "malformed-json")
    assert_error(post(api_client, path, {"code": "ABCDE-FGHJK"}), 404, "rejoin-code-unknown")
    assert_error(post(api_client, "/api/games/ZZZZZ/rejoin", {"code": "ABCDE-FGHJK"}), 404, "game-not-found")

    code = code_for(api_client, started)["code"]
    RejoinCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert_error(post(api_client, path, {"code": code}), 410, "rejoin-code-expired")
    assert api_client.get(f"/api/games/{started['code']}/state", **auth(started["t1"])).json()["seat"] == 1
    assert api_client.get(f"/api/games/{started['code']}").json()["version"] == 2  # the code made, no move


def test_redeeming_is_limited_like_joining(api_client, started, settings):
    settings.JUNCTION_JOIN_RATE = "3/min"  # the fixture's join counted one: it is the same limit
    path = f"/api/games/{started['code']}/rejoin"
    statuses = [post(api_client, path, {"code": "ABCDE-FGHJK"}).status_code for _ in range(2)]
    assert statuses == [404, 404]
    response = post(api_client, path, {"code": "ABCDE-FGHJK"})
    assert_error(response, 429, "rate-limited")
    assert int(response["Retry-After"]) > 0


def test_the_schema_documents_both_calls(api_client):
    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    issue = schema["paths"]["/api/games/{code}/seats/{seat}/rejoin-code"]["post"]
    redeem = schema["paths"]["/api/games/{code}/rejoin"]["post"]
    assert {"201", "401", "403", "404", "409", "429"} <= set(issue["responses"])
    assert {"200", "400", "404", "409", "410", "429"} <= set(redeem["responses"])
    assert "code" in schema["components"]["schemas"]["RejoinRequest"]["properties"]
