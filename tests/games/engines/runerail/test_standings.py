"""Runerail's standings (README, "Standings"): the winner first, everyone else shares second."""

import json
from pathlib import Path

from games.engines.runerail import ENGINE

RECORDED = Path(__file__).parent / "recorded"


def test_recorded_game_winner_first_the_others_share_second():
    game = json.loads((RECORDED / "game_1004.json").read_text())
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert ENGINE.is_finished(state) and state["winners"] == [0]
    assert ENGINE.standings(state) == [1, 2, 2]
