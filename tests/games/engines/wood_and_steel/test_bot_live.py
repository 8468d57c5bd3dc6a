"""The planner bot in a live game: seated from the lobby, it plays every seat through the
write path (games.bots) to the end of the game by the rules, and the log replays."""

from __future__ import annotations

import pytest

from games import services
from games.replay import game_replay
from games.selectors import game_get
from tests.games.factories import actor
from tests.support.boards import ensure_wood_and_steel_board

pytestmark = pytest.mark.django_db


def test_planner_bots_play_a_live_game_to_its_end(django_capture_on_commit_callbacks):
    ensure_wood_and_steel_board()
    created = services.game_create(kind="wood-and-steel", host_name="Host")
    code = created.game.code
    host = actor(code, created.host_token)
    for _ in range(2):
        services.seat_add_bot(code=code, actor=host, bot="planner")
    services.game_start(code=code, actor=host)
    game = game_get(code=code)
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_bot_assign(game_id=game.pk, seat=0, bot="planner", by="test")
    game = game_get(code=code)
    assert game.status == game.Status.FINISHED
    state = game.state
    assert state["finished"] and state["final"]["winners"]
    assert max(s["ties"] for s in state["final"]["scores"]) >= state["options"]["target_ties"]
    assert {s.bot for s in game.seats.all()} == {"planner"}
    assert game.actions.filter(command_id__startswith="bot:").count() > 50
    assert game_replay(game=game) == state
