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
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "token-required"


@pytest.mark.parametrize("cmd", ["end-turn", "get-state"])
def test_a_player_id_without_any_token_is_401_and_another_seats_token_403(api_client, rails, cmd):
    """No credentials at all is 401 token-required, player_id or not (it was 403 player-mismatch
    with one); a token that holds another seat stays 403 player-mismatch."""
    for player_id in (0, 1, 7):
        response = post(api_client, "/api", {"cmd": cmd, "game": rails["code"], "player_id": player_id})
        assert response.status_code == 401, response.content
        assert response.json()["error"]["code"] == "token-required" and response.json()["error"]["message"]
    mismatch = post(api_client, "/api", {"cmd": cmd, "game": rails["code"], "player_id": 1}, rails["t0"])
    assert mismatch.status_code == 403 and mismatch.json()["error"]["code"] == "player-mismatch"
    assert not Action.objects.filter(game__code=rails["code"], sequence=2).exists()


# -- Runerail: get-state through POST /api is the notes' state document ----------------------------------


@pytest.fixture
def runerail(api_client):
    created = post(api_client, "/api/games", {"kind": "runerail", "name": "Ann",
                                              "options": {"turn_order": "seated"}}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"}).json()
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return {"code": created["code"], "t0": created["host_token"], "t1": joined["token"]}


def test_runerail_get_state_is_the_notes_document_with_the_log_and_the_callers_part(api_client, runerail):
    code = runerail["code"]
    first = post(api_client, "/api", {"cmd": "get-state", "game": code, "player_id": 0}, runerail["t0"]).json()
    assert (first["response"], first["status"], first["version"], first["seat"]) == ("get-state-response", "ok", 1, 0)
    doc = first["state"]
    assert doc["format"] == "runerail/notes-state@1" and doc["phase"] == "start"
    assert list(doc)[list(doc).index("current_player") + 1] == "commands"  # the notes' order
    assert doc["commands"] == [{"sequence": 1, "player_id": 0, "command": {"cmd": "start"}}]  # the host, seat 0
    assert len(doc["geography"]["mileposts"]) == 2 and doc["track"] == [[], []]
    assert doc["you"]["player_id"] == 0 and len(doc["you"]["demand_cards"]) == 3
    dealt = [f["id"] for f in doc["you"]["foreman_draft"]]
    keep = {"cmd": "keep-foreman", "foreman": dealt[0]}
    assert keep in first["legal_commands"]
    # a command the notes' way, then the log in the document names it with its seat
    answer = post(api_client, "/api", {**keep, "game": code, "player_id": 0}, runerail["t0"]).json()
    assert (answer["response"], answer["status"], answer["version"]) == ("keep-foreman-response", "ok", 2)
    second = post(api_client, "/api", {"cmd": "get-state", "game": code, "geography": False}, runerail["t1"]).json()
    doc1 = second["state"]
    assert "geography" not in doc1 and second["seat"] == 1 and second["version"] == 2
    assert doc1["commands"][-1] == {"sequence": 2, "player_id": 0, "command": keep}
    assert doc1["players"][0]["foreman"]["id"] == dealt[0] and doc1["you"]["player_id"] == 1
    assert not any(f'"{card}"' in json.dumps(doc1) for card in dealt[1:])  # seat 0's other dealt cards
    # seat 1's turn in the first deal: keep one of its cards, or none
    assert second["legal_commands"] == [{"cmd": "keep-foreman", "foreman": f["id"]}
                                        for f in doc1["you"]["foreman_draft"]] + [{"cmd": "keep-foreman", "foreman": None}]
    # a spectator: the same public document, no private part, no commands to send
    watched = post(api_client, "/api", {"cmd": "get-state", "game": code, "geography": False}).json()
    assert watched["seat"] is None and watched["legal_commands"] == [] and watched["state"]["you"] is None
    assert {k: v for k, v in watched["state"].items() if k != "you"} == {k: v for k, v in doc1.items() if k != "you"}
    with_geo = post(api_client, "/api", {"cmd": "get-state", "game": code}).content
    without = post(api_client, "/api", {"cmd": "get-state", "game": code, "geography": False}).content
    assert len(with_geo) > 200_000 > 50_000 > len(without)


def test_runerail_get_state_before_the_start_has_no_document(api_client):
    created = post(api_client, "/api/games", {"kind": "runerail", "name": "Ann"}).json()
    got = post(api_client, "/api", {"cmd": "get-state", "game": created["code"], "player_id": 0}, created["host_token"])
    assert got.status_code == 200
    assert (got.json()["state"], got.json()["legal_commands"], got.json()["version"]) == (None, [], 0)


def test_runerail_get_state_elsewhere_stays_the_view(api_client, runerail):
    code = runerail["code"]
    via_commands = post(api_client, f"/api/games/{code}/commands", {"cmd": "get-state"}, runerail["t0"]).json()
    assert via_commands["state"]["kind"] == "runerail" and "listing" in via_commands["state"]
    assert "format" not in via_commands["state"]
    assert api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {runerail['t0']}").json()[
        "state"]["kind"] == "runerail"


def test_a_kind_without_a_protocol_document_answers_get_state_with_the_view(api_client, rails):
    state = post(api_client, "/api", {"cmd": "get-state", "game": rails["code"], "geography": False}, rails["t0"]).json()
    assert state["state"]["kind"] == "resourceful-rails" and "format" not in state["state"]


@pytest.mark.parametrize("body,status,code", [
    ({"cmd": "get-state", "game": "{code}", "player_id": 1}, 403, "player-mismatch"),
    ({"cmd": "get-state", "game": "{code}", "geography": "no"}, 400, "invalid-request"),
    ({"cmd": "get-state", "game": "{code}", "geography": 0}, 400, "invalid-request"),
    ({"cmd": "build-track", "game": "{code}", "start": [0, 20, 30]}, 400, "invalid-command"),  # no end
    ({"cmd": "build-track", "game": "{code}", "start": [0, 20, 30], "end": [0, 20, 31], "geography": False},
     400, "invalid-command"),  # geography is get-state's only
    ({"cmd": "build-track", "game": "{code}", "player_id": 0, "start": [0, 20, 30], "end": [0, 20, 31]},
     400, "choose-foreman"),  # the draft comes first: the rules' own code
])
def test_runerail_bad_bodies_get_a_4xx_with_code_and_message(api_client, runerail, body, status, code):
    body = {k: (v.format(code=runerail["code"]) if isinstance(v, str) else v) for k, v in body.items()}
    response = post(api_client, "/api", body, runerail["t0"])
    assert response.status_code == status, response.content
    assert response.json()["status"] == "error"
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert Action.objects.filter(game__code=runerail["code"]).count() == 1


def test_the_notes_answers_fit_the_openapi_schema(api_client, runerail):
    from tests.games.api.test_schema import fits

    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    operation = schema["paths"]["/api"]["post"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ProtocolResult"}
    assert "geography" in schema["components"]["schemas"]["ProtocolRequest"]["properties"]
    body = {"cmd": "get-state", "game": runerail["code"], "player_id": 0, "geography": False}
    assert fits(schema, "ProtocolRequest", body) == []
    got = post(api_client, "/api", body, runerail["t0"]).json()
    assert fits(schema, "ProtocolResult", got) == [] and fits(schema, "ProtocolStateResult", got) == []
    keep = got["legal_commands"][0]
    answer = post(api_client, "/api", {**keep, "game": runerail["code"]}, runerail["t0"]).json()
    assert fits(schema, "ProtocolResult", answer) == [] and fits(schema, "CommandResult", answer) == []
