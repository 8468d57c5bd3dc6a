"""The host reorders the waiting room's seats (games/seating.py, issue 30), and the colour a seat
picks there is the colour it plays (issue 34)."""

from __future__ import annotations

import json

import pytest

from games import services
from games.engines.registry import all_engines, get_engine
from games.errors import Conflict, Forbidden, ServiceError
from games.models import Game, RejoinCode
from games.replay import game_replay
from games.seating import seats_reorder
from games.selectors import game_get
from games.tokens import hash_token

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def names(code):
    return [s.name for s in game_get(code=code).seats.order_by("index")]


def test_the_host_reorders_and_each_token_still_opens_its_own_seat():
    code, tokens = make_game(players=3, start=False)  # Host, P1, P2
    colors = {s.name: s.color for s in game_get(code=code).seats.all()}
    seats = seats_reorder(code=code, actor=actor(code, tokens[0]), order=[2, 0, 1])
    assert [s.name for s in seats] == names(code) == ["P2", "Host", "P1"]
    assert {s.name: s.color for s in game_get(code=code).seats.all()} == colors  # each keeps their colour
    # each token opens the seat of its own person, at its new index
    assert actor(code, tokens[2]).seat == 0 and actor(code, tokens[0]).seat == 1 and actor(code, tokens[1]).seat == 2
    assert actor(code, tokens[0]).is_host
    seat, token, created = services.seat_join(code=code, name="ignored", token=tokens[1])
    assert (seat.index, seat.name, token, created) == (2, "P1", None, False)
    services.game_start(code=code, actor=actor(code, tokens[0]))
    assert game_get(code=code).state["players"] == ["P2", "Host", "P1"]


def test_a_reorder_bumps_the_revision_after_commit(django_capture_on_commit_callbacks):
    code, tokens = make_game(players=2, start=False)
    before = Game.objects.get(code=code).revision
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        seats_reorder(code=code, actor=actor(code, tokens[0]), order=[1, 0])
    assert callbacks and Game.objects.get(code=code).revision == before + 1


def test_only_the_host_reorders():
    code, tokens = make_game(players=2, start=False)
    with pytest.raises(Forbidden) as err:
        seats_reorder(code=code, actor=actor(code, tokens[1]), order=[1, 0])
    assert err.value.code == "host-only" and names(code) == ["Host", "P1"]


def test_only_in_the_lobby():
    code, tokens = make_game(players=2, start=True)
    with pytest.raises(Conflict) as err:
        seats_reorder(code=code, actor=actor(code, tokens[0]), order=[1, 0])
    assert err.value.code == "game-started" and err.value.status == 409


@pytest.mark.parametrize("order", [[0], [0, 0, 1], [0, 1, 3], [1, 2, 0, 3], [], "0,1,2", [0, 1, True]])
def test_a_bad_order_is_refused(order):
    code, tokens = make_game(players=3, start=False)
    with pytest.raises(ServiceError) as err:
        seats_reorder(code=code, actor=actor(code, tokens[0]), order=order)
    assert err.value.status == 400 and err.value.code in ("bad-seat-order", "invalid-request")
    assert names(code) == ["Host", "P1", "P2"]


def test_a_rejoin_code_moves_with_its_seat():
    code, tokens = make_game(players=3, start=False)
    game = game_get(code=code)
    RejoinCode.objects.create(game=game, seat=2, code_hash=hash_token("x"), created_by="host",
                              expires_at=game.created_at)
    seats_reorder(code=code, actor=actor(code, tokens[0]), order=[2, 0, 1])
    assert RejoinCode.objects.get(game=game).seat == 0  # still P2's


def post(client, path, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **headers)


def test_the_api_route(api_client):
    code, tokens = make_game(players=3, start=False)
    path = f"/api/games/{code}/seats/order"
    answer = post(api_client, path, {"order": [1, 2, 0]}, tokens[0])
    assert answer.status_code == 200
    assert [s["name"] for s in answer.json()["game"]["seats"]] == ["P1", "P2", "Host"]
    assert post(api_client, path, {"order": [0, 1, 2]}, tokens[1]).json()["error"]["code"] == "host-only"
    assert post(api_client, path, {"order": [0, 1]}, tokens[0]).json()["error"]["code"] == "bad-seat-order"
    assert post(api_client, path, {"order": "0,1,2"}, tokens[0]).status_code == 400
    assert post(api_client, path, {"order": [0, 1, 2]}).status_code == 401
    services.game_start(code=code, actor=actor(code, tokens[0]))
    started = post(api_client, path, {"order": [0, 1, 2]}, tokens[0])
    assert started.status_code == 409 and started.json()["error"]["code"] == "game-started"


# --- the colour you pick is the colour you play (issue 34) -------------------------------------

COLOURED = [e.kind for e in all_engines() if getattr(e, "takes_seat_colors", False)]


def test_the_titles_with_colours_take_them():
    assert set(COLOURED) == {"resourceful-rails", "runerail"}


def test_the_palette_is_every_coloured_titles():
    from games.engines.resourceful_rails.data import COLORS as RR
    from games.engines.runerail.data import COLORS as RN

    assert set(services.PALETTE) == set(RR) == set(RN) and len(services.PALETTE) == 8


@pytest.mark.parametrize("kind", COLOURED)
def test_the_lobby_colour_is_the_games_colour(kind):
    engine = get_engine(kind)
    picks = ["purple", "black", "vermilion", "sky", "green", "orange"][: engine.max_players]
    created = services.game_create(kind=kind, host_name="Ann", host_color=picks[0])
    code = created.game.code
    for i, color in enumerate(picks[1:], start=1):
        services.seat_join(code=code, name=f"P{i}", color=color)
    services.game_start(code=code, actor=actor(code, created.host_token))
    game = game_get(code=code)
    lobby = [s.color for s in game.seats.order_by("index")]
    assert lobby == picks
    assert [p["color"] for p in game.state["players"]] == lobby
    assert [p["color"] for p in get_engine(kind).view(game.state, seat=None)["players"]] == lobby
    assert game_replay(game=game) == game.state  # the replay sets it up the same


@pytest.mark.parametrize("kind", COLOURED)
def test_a_game_without_the_seats_colours_keeps_the_old_ones(kind):
    engine = get_engine(kind)
    state = engine.setup(players=["A", "B", "C"], options={}, seed=7)
    assert [p["color"] for p in state["players"]] == ["orange", "sky", "green"]
    assert "seat_colors" not in state["options"]


@pytest.mark.parametrize("kind", COLOURED)
def test_seat_colors_is_no_option_a_host_sets(kind):
    with pytest.raises(ServiceError) as err:
        services.game_create(kind=kind, host_name="Ann", options={"seat_colors": ["black", "purple"]})
    assert err.value.code == "invalid-option"
