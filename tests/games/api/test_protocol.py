"""POST /api: the fantasy rail game's server notes' protocol — the game named in the body,
``player_id`` checked against the token's seat — over the same write path as the commands route."""

from __future__ import annotations

import json

import pytest

from games.models import Action

pytestmark = pytest.mark.django_db


def post(client, path, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **headers)


@pytest.fixture
def rails(api_client):
    created = post(api_client, "/api/games", {"kind": "resourceful-rails", "name": "Ann",
                                              "options": {"turn_order": "seated"}}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"}).json()
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return {"code": created["code"], "t0": created["host_token"], "t1": joined["token"]}


def test_a_command_the_notes_way_is_answered_as_the_commands_route_answers(api_client, rails):
    state = post(api_client, "/api", {"cmd": "get-state", "game": rails["code"]}, rails["t0"]).json()
    assert state["state"]["active_seat"] == 0
    build = next(c for c in state["legal_commands"] if c["cmd"] == "build")  # a section from a major city
    body = {**build, "game": rails["code"].lower(), "player_id": 0}
    response = post(api_client, "/api", body, rails["t0"])
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["response"] == "build-response" and answer["status"] == "ok" and answer["version"] == 2
    assert answer["events"][0]["type"] == "built"
    action = Action.objects.get(game__code=rails["code"], sequence=2)
    assert action.seat == 0 and action.command == build


def test_player_id_must_be_the_tokens_seat(api_client, rails):
    response = post(api_client, "/api", {"cmd": "end-turn", "game": rails["code"], "player_id": 1}, rails["t0"])
    assert response.status_code == 403 and response.json()["error"]["code"] == "player-mismatch"
    assert not Action.objects.filter(game__code=rails["code"], sequence=2).exists()
    # Without player_id the token decides; the command is the same as on the commands route.
    ok = post(api_client, "/api", {"cmd": "end-turn", "game": rails["code"]}, rails["t0"])
    assert ok.status_code == 200 and ok.json()["response"] == "end-turn-response"


@pytest.mark.parametrize("body,status,code", [
    ({"cmd": "end-turn"}, 400, "invalid-request"),  # no game
    ({"cmd": "end-turn", "game": "NOT A CODE"}, 400, "invalid-request"),
    ({"cmd": "end-turn", "game": "ZZZZZ"}, 404, None),
    ({"cmd": "end-turn", "game": "{code}", "player_id": "0"}, 400, "invalid-request"),
    ({"cmd": "end-turn", "game": "{code}", "player_id": True}, 400, "invalid-request"),
    ({"game": "{code}"}, 400, None),  # no cmd
    ({"cmd": "build", "game": "{code}", "path": "north"}, 400, "invalid-command"),
])
def test_bad_bodies_get_a_clear_4xx_and_change_nothing(api_client, rails, body, status, code):
    body = {k: (v.format(code=rails["code"]) if isinstance(v, str) else v) for k, v in body.items()}
    response = post(api_client, "/api", body, rails["t0"])
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["message"]
    if code:
        assert error["code"] == code
    assert Action.objects.filter(game__code=rails["code"]).count() == 1


def test_a_body_that_is_not_an_object_and_a_spectators_state(api_client, rails):
    assert post(api_client, "/api", ["cmd"]).status_code == 400
    watched = post(api_client, "/api", {"cmd": "get-state", "game": rails["code"]}).json()
    assert watched["state"]["you"] is None and all(p["hand"] is None for p in watched["state"]["players"])
    # A spectator cannot act.
    refused = post(api_client, "/api", {"cmd": "end-turn", "game": rails["code"]})
    assert refused.status_code in (401, 403)
