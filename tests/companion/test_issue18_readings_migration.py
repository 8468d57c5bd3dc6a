"""Issue 18's later corrections (migration 0004): games started before them keep their old
readings (auction lots, avoid_cities, the market) and replay to exactly their state; lobby
games and new games get the corrections; the admin's avoid_cities reach the engine."""

from __future__ import annotations

import importlib
import json

import pytest

from companion.admin import BoardForm
from companion.selectors import board_default
from games import services
from games.engines.registry import get_engine
from games.models import Game
from games.replay import game_replay
from games.selectors import game_get
from tests.companion.test_segment_unit_migration import _play
from tests.companion.test_services import start_ws_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("companion.migrations.0004_issue18_readings_for_started_games")
OLD = {"auction_lots": "whole-route", "avoid_cities_rule": "ignore", "market_tableau": "grows"}


def _as_before(code):
    """Take the new keys out of a game's options and state, as saved before the corrections."""
    game = Game.objects.get(code=code)
    options = {k: v for k, v in game.options.items() if k not in OLD}
    state = game.state
    for k in OLD:
        state["options"].pop(k)
    Game.objects.filter(pk=game.pk).update(options=options, state=state)


def test_started_games_keep_their_readings_and_replay_to_their_state():
    code, tokens = start_ws_game(3, options=dict(OLD, max_rounds=30))
    _play(code, tokens, 150)
    _as_before(code)
    lobby = services.game_create(kind="wood-and-steel", host_name="Later", options={})
    Game.objects.filter(code=lobby.game.code).update(options={k: v for k, v in lobby.game.options.items() if k not in OLD})

    assert migration.mark_started_games(Game) == 1
    game = Game.objects.get(code=code)
    assert {k: game.options[k] for k in OLD} == OLD
    assert not set(OLD) & set(Game.objects.get(code=lobby.game.code).options)  # not started: the corrections at start
    assert migration.mark_started_games(Game) == 0  # idempotent

    replayed = game_replay(game=game)
    for k, v in OLD.items():
        assert replayed["options"].pop(k) == v
    assert json.dumps(replayed, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    _play(code, tokens, 30)  # and it plays on
    state = game_get(code=code).state
    assert not set(OLD) & set(state["options"])


def test_a_new_game_gets_the_corrections():
    code, _ = start_ws_game(3)
    options = Game.objects.get(code=code).state["options"]
    assert (options["auction_lots"], options["avoid_cities_rule"], options["market_tableau"]) == ("as-sold", "honour", "fixed")


def test_the_admin_boards_avoid_cities_keep_independents_away():
    board = board_default()
    engine = get_engine("wood-and-steel")
    # the cities independents start in, in a game on the board as it is
    code, _ = start_ws_game(3)
    state = Game.objects.get(code=code).state
    used = sorted({c for r in state["railroads"] for c in r["routes"][0]["route"].split("-")})
    board.avoid_cities = used
    board.save()
    code, _ = start_ws_game(3)
    game = Game.objects.get(code=code)
    assert game.options["board"]["avoid_cities"] == used
    cities = {c for r in game.state["railroads"] for c in r["routes"][0]["route"].split("-")}
    assert cities.isdisjoint(used) and game.state["railroads"]
    assert engine.board(game.state).avoid_cities == used


@pytest.mark.parametrize(
    ("avoid", "error"),
    [
        ('["Boston", "Atlantis"]', "Not cities of this board: Atlantis."),
        ('"Boston"', "A list of city names"),
        ('["Boston", 3]', "A list of city names"),
        ('["Boston", "New York"]', None),
        ("[]", None),
    ],
)
def test_the_board_admin_refuses_avoid_cities_that_are_not_its_cities(avoid, error):
    board = board_default()
    data = {
        "name": board.name, "slug": board.slug, "is_default": True, "image_width": 1110, "image_height": 696,
        "sections": json.dumps(board.sections), "regions": json.dumps(board.regions), "tie_matrix": json.dumps(board.tie_matrix),
        "starting_routes": json.dumps(board.starting_routes), "avoid_cities": avoid,
    }
    form = BoardForm(data=data, instance=board)
    if error is None:
        assert form.is_valid(), form.errors
    else:
        assert not form.is_valid() and error in str(form.errors["avoid_cities"])
