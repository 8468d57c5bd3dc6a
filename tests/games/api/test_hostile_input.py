"""Hostile fields are refused by name: ``command_id`` must be a JSON string (a number was
turned into text), names are NFC and free of invisible characters (games/names.py)."""

from __future__ import annotations

import json

import pytest

from games.api.serializers import CommandSerializer, command_validate
from games.models import Action
from games.selectors import game_get

pytestmark = pytest.mark.django_db


def post(client, path, body, token=None):
    extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **extra)


def assert_invalid(response, field):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == "invalid-request", body
    assert body["error"]["message"].startswith(f"{field}:"), body
    return body


@pytest.fixture
def started(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"})
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return created


@pytest.mark.parametrize("command_id", [5, 0, -1, 2.5, 10**20, True, [], {}, ["c-1"]])
def test_command_id_must_be_a_string(api_client, started, command_id):
    before = game_get(code=started["code"])
    response = post(api_client, f"/api/games/{started['code']}/commands",
                    {"cmd": "add", "n": 1, "command_id": command_id}, started["host_token"])
    assert "command_id" in assert_invalid(response, "command_id")["error"]["message"]
    after = game_get(code=started["code"])
    assert (after.version, after.state) == (before.version, before.state)
    assert not Action.objects.filter(game=after, command_id=str(command_id)).exists()


def test_the_fast_path_and_the_serializer_both_refuse_a_number():
    for body in ({"cmd": "add", "command_id": 5}, {"cmd": "add", "command_id": 1.5}):
        assert not CommandSerializer(data=body).is_valid()
        with pytest.raises(Exception) as caught:
            command_validate(body)
        assert set(caught.value.detail) == {"command_id"}
    assert command_validate({"cmd": "add", "command_id": "5"}) == {"cmd": "add", "command_id": "5"}


def test_a_string_command_id_still_works_and_is_idempotent(api_client, started):
    path = f"/api/games/{started['code']}/commands"
    first = post(api_client, path, {"cmd": "add", "n": 1, "command_id": "c-1"}, started["host_token"])
    again = post(api_client, path, {"cmd": "add", "n": 1, "command_id": "c-1"}, started["host_token"])
    assert first.status_code == again.status_code == 200 and first.json()["version"] == again.json()["version"]


SPOOFS = ["Ann\u202e", "\u2067Ann\u2069", "An\u200bn", "An\x00n", "An\nn", "   ", "An\u2028n", 5, ["Ann"]]


@pytest.mark.parametrize("name", SPOOFS, ids=[repr(n)[:16] for n in SPOOFS])
def test_names_with_invisible_or_control_characters_are_refused_everywhere(api_client, name):
    assert_invalid(post(api_client, "/api/games", {"kind": "toy", "name": name}), "name")
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    seats = f"/api/games/{created['code']}/seats"
    assert_invalid(post(api_client, seats, {"name": name}), "name")
    assert_invalid(post(api_client, seats, {"name": name, "bot": "random"}, created["host_token"]), "name")
    assert [s["name"] for s in api_client.get(f"/api/games/{created['code']}").json()["seats"]] == ["Ann"]


def test_names_are_stored_in_nfc_without_surrounding_space(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": " Zoe\u0301 "}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Rene\u0301"})
    assert joined.status_code == 201
    bot = post(api_client, f"/api/games/{created['code']}/seats", {"bot": "random", "name": "Cle\u0301o"}, created["host_token"])
    assert bot.status_code == 201
    names = [s["name"] for s in api_client.get(f"/api/games/{created['code']}").json()["seats"]]
    assert names == ["Zoé", "René", "Cléo"]
