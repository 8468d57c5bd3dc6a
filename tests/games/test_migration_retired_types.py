"""Migration 0004: Locomotive Werks games started before ``retired_types`` keep the older
reading ('developable') and replay to exactly their state; lobby games get the rules'."""

from __future__ import annotations

import importlib
import random

import pytest

from games import services
from games.engines.registry import get_engine
from games.models import Game
from games.replay import game_replay
from tests.games.factories import actor, make_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0004_locomotive_werks_retired_types")
KIND = "locomotive-werks"


def test_started_games_keep_the_older_reading_and_replay_to_their_state():
    code, tokens = make_game(players=3, kind=KIND, options={"retired_types": "developable"})
    engine = get_engine(KIND)
    rng = random.Random(3)
    for _ in range(80):
        game = Game.objects.get(code=code)
        if engine.is_finished(game.state):
            break
        seat = engine.active_seats(game.state)[0]
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=engine.bot_command(game.state, seat=seat, bot="random", rng=rng))
    game = Game.objects.get(code=code)
    state = game.state
    state["options"].pop("retired_types")
    Game.objects.filter(pk=game.pk).update(options={k: v for k, v in game.options.items() if k != "retired_types"}, state=state)
    lobby = services.game_create(kind=KIND, host_name="Later", options={})
    Game.objects.filter(pk=lobby.game.pk).update(options={k: v for k, v in lobby.game.options.items() if k != "retired_types"})

    assert migration.mark_started_games(Game) == 1
    game = Game.objects.get(code=code)
    assert game.options["retired_types"] == "developable" == game.state["options"]["retired_types"]
    assert game_replay(game=game) == game.state
    assert "retired_types" not in Game.objects.get(pk=lobby.game.pk).options
    assert migration.mark_started_games(Game) == 0
