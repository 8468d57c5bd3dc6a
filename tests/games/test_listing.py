"""Private tables by default (games/listing.py, issue 31): a new game is unlisted, joined and watched
by its code only; the host opens it to anyone and makes it unlisted again; only open tables are in
the lobby's list (the home page, GET /api/games, the lobby socket's news)."""

from __future__ import annotations

import json

import pytest

from games import broadcast, services
from games.errors import Forbidden, ServiceError, Unauthorized
from games.listing import game_listed_set
from games.models import Game
from games.selectors import game_get, open_games

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def post(client, path, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **headers)


def listed_codes(client, query="?status=lobby"):
    response = client.get("/api/games" + query)
    assert response.status_code == 200
    return [g["code"] for g in response.json()]


@pytest.fixture
def sent(monkeypatch):
    messages: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: messages.extend(batch))
    return messages


def lobby_news(sent):
    return [json.loads(m["text"]) for group, m in sent if group == broadcast.LOBBY_GROUP]


# --- services -----------------------------------------------------------------------------------


def test_a_new_game_is_unlisted_and_the_host_opens_and_closes_it():
    code, tokens = make_game(players=2, start=False)
    assert Game.objects.get(code=code).listed is False
    assert code not in [g.code for g in open_games(status="lobby")]

    game = game_listed_set(code=code, actor=actor(code, tokens[0]), listed=True)
    assert game.listed is True and code in [g.code for g in open_games(status="lobby")]

    game = game_listed_set(code=code, actor=actor(code, tokens[0]), listed=False)
    assert game.listed is False and code not in [g.code for g in open_games(status="lobby")]


def test_a_game_made_open_is_listed_from_the_start():
    created = services.game_create(kind="toy", host_name="Ann", listed=True)
    assert created.game.listed and created.game.code in [g.code for g in open_games(status="lobby")]


def test_only_the_host_opens_the_table():
    code, tokens = make_game(players=2, start=False)
    with pytest.raises(Forbidden) as err:
        game_listed_set(code=code, actor=actor(code, tokens[1]), listed=True)
    assert err.value.code == "host-only"
    with pytest.raises(Unauthorized) as err:
        game_listed_set(code=code, actor=actor(code, None), listed=True)
    assert err.value.code == "token-required"
    assert Game.objects.get(code=code).listed is False


@pytest.mark.parametrize("bad", [1, 0, "true", "yes", None, [], {}])
def test_listed_must_be_true_or_false(bad):
    code, tokens = make_game(players=1, start=False)
    with pytest.raises(ServiceError) as err:
        game_listed_set(code=code, actor=actor(code, tokens[0]), listed=bad)
    assert err.value.status == 400 and err.value.code == "invalid-request"
    with pytest.raises(ServiceError) as err:
        services.game_create(kind="toy", host_name="Ann", listed=bad)
    assert err.value.status == 400
    assert Game.objects.get(code=code).listed is False
    assert not Game.objects.filter(listed=True).exists()


def test_the_lobby_hears_of_open_tables_only(sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        hidden = services.game_create(kind="toy", host_name="Ann")
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_join(code=hidden.game.code, name="Bo")
    assert lobby_news(sent) == []  # an unlisted game's comings and goings are nobody's news

    code = hidden.game.code
    with django_capture_on_commit_callbacks(execute=True):
        game_listed_set(code=code, actor=actor(code, hidden.host_token), listed=True)
    assert lobby_news(sent) == [{"type": "lobby-changed"}]
    room = [m for group, m in sent if group == broadcast.game_group(hidden.game.pk)]
    assert json.loads(room[-1]["summary"])["game"]["listed"] is True  # the waiting room redraws its switch

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_join(code=code, name="Cy")
    assert lobby_news(sent) == [{"type": "lobby-changed"}]  # an open table's seats are the lobby's news

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game_listed_set(code=code, actor=actor(code, hidden.host_token), listed=False)
    assert lobby_news(sent) == [{"type": "lobby-changed"}]  # it leaves the lobby's list: they look again

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game_listed_set(code=code, actor=actor(code, hidden.host_token), listed=False)
    assert callbacks == [] and sent == []  # nothing changed, nobody told
    with django_capture_on_commit_callbacks(execute=True):
        services.game_create(kind="toy", host_name="Dee", listed=True)
    assert lobby_news(sent) == [{"type": "lobby-changed"}]


def test_a_started_unlisted_game_stays_out_of_every_list():
    code, tokens = make_game(players=2, start=True)
    assert code not in [g.code for g in open_games()]
    game_listed_set(code=code, actor=actor(code, tokens[0]), listed=True)  # the host may list a running game
    assert code in [g.code for g in open_games(status="active")]


# --- the API -------------------------------------------------------------------------------------


def test_the_api_creates_unlisted_by_default_and_open_when_asked(api_client):
    private = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    public = post(api_client, "/api/games", {"kind": "toy", "name": "Bo", "listed": True}).json()
    assert (private["listed"], public["listed"]) == (False, True)
    assert listed_codes(api_client) == [public["code"]]
    assert listed_codes(api_client, "") == [public["code"]]
    # Unlisted is not secret: its code reaches it, to join or to watch.
    assert api_client.get(f"/api/games/{private['code']}").json()["listed"] is False
    assert api_client.get(f"/api/games/{private['code']}/state").status_code == 200
    joined = post(api_client, f"/api/games/{private['code']}/seats", {"name": "Cy"})
    assert joined.status_code == 201 and joined.json()["game"]["listed"] is False


@pytest.mark.parametrize("bad", [1, "true", "yes", None, [], {"a": 1}])
def test_the_create_field_takes_only_true_or_false(api_client, bad):
    answer = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "listed": bad})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid-request"
    assert "listed" in answer.json()["error"]["message"]
    assert not Game.objects.exists()  # nothing made


def test_the_listing_route(api_client):
    code, tokens = make_game(players=2, start=False)
    path = f"/api/games/{code}/listing"
    opened = post(api_client, path, {"listed": True}, tokens[0])
    assert opened.status_code == 200 and opened.json()["game"]["listed"] is True
    assert listed_codes(api_client) == [code]
    closed = post(api_client, path, {"listed": False}, tokens[0])
    assert closed.status_code == 200 and closed.json()["game"]["listed"] is False
    assert listed_codes(api_client) == []

    for token, status, error in ((tokens[1], 403, "host-only"), (None, 401, "token-required"), ("nonsense", 401, "invalid-token")):
        answer = post(api_client, path, {"listed": True}, token)
        assert answer.status_code == status and answer.json()["error"]["code"] == error
    for body in ({}, {"listed": "true"}, {"listed": 1}, {"listed": None}, [True], "listed"):
        answer = post(api_client, path, body, tokens[0])
        assert answer.status_code == 400 and answer.json()["error"]["code"] in ("invalid-request", "invalid-json"), body
    assert api_client.post(path, data="{", content_type="application/json",
                           HTTP_AUTHORIZATION=f"Bearer {tokens[0]}").status_code == 400
    assert post(api_client, "/api/games/ZZZZZ/listing", {"listed": True}, tokens[0]).status_code == 404
    assert game_get(code=code).listed is False and listed_codes(api_client) == []


def test_the_routes_are_in_the_openapi_schema(api_client):
    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    assert "/api/games/{code}/listing" in schema["paths"]
    assert "/api/games/{code}/seats/{seat}/remove" in schema["paths"]
    creates = [name for name in schema["components"]["schemas"] if name.endswith("GameCreateRequest") and name != "GameCreateRequest"]
    assert len(creates) >= 5  # each kind's (games/api/schema.py; GameCreateRequest is one of them)
    for name in creates:
        assert schema["components"]["schemas"][name]["properties"]["listed"]["type"] == "boolean", name
    assert "listed" in schema["components"]["schemas"]["GameSummary"]["required"]


def test_the_home_page_lists_open_tables_only(client):
    private = services.game_create(kind="toy", host_name="Ann").game.code
    public = services.game_create(kind="toy", host_name="Bo", listed=True).game.code
    page = client.get("/").content.decode()
    assert f"/join/{public}" in page and f"/join/{private}" not in page
    assert client.get(f"/join/{private}").status_code == 200  # its link still works
    assert client.get(f"/games/{private}/").status_code == 200


def test_the_migration_opens_the_games_made_before_it():
    """0008_game_listed: games made when every game was listed keep their listing."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0008_game_listed")
    older = [make_game(players=2, start=start)[0] for start in (False, True)]
    assert not Game.objects.filter(listed=True).exists()
    migration.existing_games_open(apps, None)
    assert set(Game.objects.filter(listed=True).values_list("code", flat=True)) == set(older)
    assert services.game_create(kind="toy", host_name="Later").game.listed is False  # new ones: unlisted
