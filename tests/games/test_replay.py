"""Replay at engine speed: a replay step reads the log in a bounded number of queries,
whatever the length of the game, and gives the state the game reached."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engines.registry import get_engine
from games.models import Game
from games.replay import game_replay
from games.selectors import replay_step
from tests.games.factories import actor, make_game

KIND = "locomotive-werks"


def played_game(*, actions: int) -> str:
    """A Locomotive Werks game for three seats played by the greedy bot (through the
    services, one command at a time) until it has ``actions`` logged actions or ends."""
    code, tokens = make_game(players=3, kind=KIND)
    engine = get_engine(KIND)
    rng = random.Random(7)
    while True:
        game = Game.objects.get(code=code)
        if game.version >= actions or engine.is_finished(game.state):
            return code
        seat = engine.active_seats(game.state)[0]
        command = engine.bot_command(game.state, seat=seat, bot="greedy", rng=rng)
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)


def queries_of(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


@pytest.mark.django_db
def test_replay_step_queries_do_not_grow_with_the_log():
    code = played_game(actions=120)
    game = Game.objects.get(code=code)
    assert game.version >= 100
    early = queries_of(lambda: replay_step(game=Game.objects.get(code=code), step=2))
    late = queries_of(lambda: replay_step(game=Game.objects.get(code=code), step=game.version))
    assert late == early
    assert late <= 3  # the game, its log, its seats


@pytest.mark.django_db
def test_the_http_replay_step_is_a_bounded_number_of_queries(api_client, django_assert_max_num_queries):
    code = played_game(actions=120)
    game = Game.objects.get(code=code)
    with django_assert_max_num_queries(3):
        response = api_client.get(f"/api/games/{code}/replay", {"step": game.version})
    assert response.status_code == 200
    body = response.json()
    assert body["step"] == game.version
    assert body["action"]["sequence"] == game.version
    assert body["state"] == get_engine(KIND).view(game.state, seat=None)


@pytest.mark.django_db
def test_a_rename_after_the_step_still_names_the_players_at_the_start():
    code, tokens = make_game(players=3, kind=KIND)
    game = Game.objects.get(code=code)
    services.seat_rename(game_id=game.pk, seat=1, name="Renamed", by="gm")
    game = Game.objects.get(code=code)
    assert game.state["players"][1]["name"] == "Renamed"
    assert replay_step(game=game, step=1)["state"]["players"][1]["name"] == "P1"
    assert game_replay(game=game) == game.state


@pytest.mark.django_db
def test_replay_gives_the_state_the_game_reached_at_every_length():
    code = played_game(actions=60)
    game = Game.objects.get(code=code)
    assert game_replay(game=game) == game.state
    # Part way: the step's state is the state after that many logged actions.
    engine = get_engine(KIND)
    half = game_replay(game=game, upto=30)
    assert engine.view(half, seat=None) == replay_step(game=game, step=30)["state"]
    assert half != game.state
