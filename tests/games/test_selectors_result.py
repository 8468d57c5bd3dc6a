"""A finished game's state payload carries its ending (Engine.result): every seat in place order;
a game still being played carries none."""

from __future__ import annotations

import pytest

from games import services
from games.selectors import game_get, state_payload

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def test_the_payload_has_a_result_only_once_the_rules_finish_the_game():
    code, tokens = make_game(players=3, options={"target": 3})
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    for seat in (None, 0, 1):
        assert "result" not in state_payload(game=game_get(code=code), seat=seat)

    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 2})  # 3: seat 1 wins
    game = game_get(code=code)
    assert game.status == "finished"
    for seat in (None, 0, 2):
        result = state_payload(game=game, seat=seat)["result"]
        assert [row["seat"] for row in result["ranking"]] == [1, 0, 2]
        assert [row["place"] for row in result["ranking"]] == [1, 2, 2]
        assert all(row["score"] is None and row["parts"] == [] for row in result["ranking"])
        assert result["columns"] == [] and result["how"] == ""


def test_the_replay_step_that_ended_the_game_carries_the_ending_and_the_steps_before_do_not():
    from games.selectors import replay_step

    code, tokens = make_game(players=2, options={"target": 3})
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 3})  # seat 0 wins
    game = game_get(code=code)
    assert "result" not in replay_step(game=game, step=1)
    last = replay_step(game=game, step=game.version)
    assert [row["seat"] for row in last["result"]["ranking"]] == [0, 1]
