"""Issue 18's data migration: games started before it keep reading a segment as a unit of
route length and replay to exactly their state; lobby games get the rules' reading."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from games import services
from games.engines.registry import get_engine
from games.models import Game
from games.replay import game_replay
from games.selectors import game_get
from tests.companion.test_services import start_ws_game
from tests.games.factories import actor

pytestmark = pytest.mark.django_db

migration = importlib.import_module("companion.migrations.0003_segment_unit_for_started_games")


def _play(code, tokens, moves):
    engine = get_engine("wood-and-steel")
    rng = random.Random(5)
    built = 0
    for _ in range(moves):
        state = game_get(code=code).state
        seats = engine.active_seats(state)
        if not seats:
            break
        seat = seats[0]
        command = engine.bot_command(state, seat=seat, bot="simple", rng=rng)
        built += command["cmd"] == "build-track"
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)
    return built


def _as_before_issue_18(code):
    """Take ``segment_unit`` out of a game's options and state, as saved before issue 18."""
    game = Game.objects.get(code=code)
    options = dict(game.options)
    options.pop("segment_unit")
    state = game.state
    state["options"].pop("segment_unit")
    Game.objects.filter(pk=game.pk).update(options=options, state=state)


def test_started_games_keep_the_length_reading_and_replay_to_their_state():
    code, tokens = start_ws_game(3, options={"segment_unit": "length"})
    assert _play(code, tokens, 120) > 0  # the bots built track under the old reading
    _as_before_issue_18(code)
    lobby = services.game_create(kind="wood-and-steel", host_name="Later", options={})
    Game.objects.filter(code=lobby.game.code).update(options={k: v for k, v in lobby.game.options.items() if k != "segment_unit"})

    assert migration.mark_started_games(Game) == 1
    game = Game.objects.get(code=code)
    assert game.options["segment_unit"] == "length"
    assert "segment_unit" not in Game.objects.get(code=lobby.game.code).options  # not started: the rules' reading at start
    assert migration.mark_started_games(Game) == 0  # idempotent

    replayed = game_replay(game=game)
    saved = game.state
    assert replayed["options"].pop("segment_unit") == "length"
    assert json.dumps(replayed, sort_keys=True) == json.dumps(saved, sort_keys=True)
    engine = get_engine("wood-and-steel")
    assert engine.view(saved, seat=None)["segment_unit"] == "length"
    # and the game plays on under its own reading
    _play(code, tokens, 40)
    assert game_get(code=code).state["options"].get("segment_unit", "length") == "length"


def test_a_new_game_counts_routes():
    code, tokens = start_ws_game(3)
    game = Game.objects.get(code=code)
    assert game.options["segment_unit"] == "route" and game.state["options"]["segment_unit"] == "route"
    _play(code, tokens, 60)
    game = Game.objects.get(code=code)
    assert json.dumps(game_replay(game=game), sort_keys=True) == json.dumps(game.state, sort_keys=True)
