"""Resourceful Rails' standings (README, "Standings"): the winners first, everyone else shares second."""

import json
from pathlib import Path

import pytest

from games.engines.resourceful_rails import ENGINE

RECORDED = Path(__file__).parent / "recorded"


@pytest.mark.parametrize(("name", "expected"), [("game_206.json", [2, 1]), ("game_223.json", [1, 1])])
def test_recorded_games_winners_first(name, expected):
    game = json.loads((RECORDED / name).read_text())
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert ENGINE.is_finished(state)
    assert ENGINE.standings(state) == expected


def test_the_others_share_second():
    state = {"finished": True, "players": [{}, {}, {}, {}], "winners": [2]}
    assert ENGINE.standings(state) == [2, 2, 1, 2]
