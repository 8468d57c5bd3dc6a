"""Slipway's standings (README, "Standings"): most points, then most money; still tied, a shared place."""

import json
from pathlib import Path

from games.engines.slipway import ENGINE

RECORDED = Path(__file__).parent / "recorded"


def test_recorded_game_places_by_the_final_scores():
    game = json.loads((RECORDED / "game_2004.json").read_text())
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert ENGINE.is_finished(state)
    standings = ENGINE.standings(state)
    assert [s for s, place in enumerate(standings) if place == 1] == state["winners"] == [0]


def test_points_then_money_then_shared():
    state = {"finished": True, "players": [{}, {}, {}, {}], "scores": [
        {"seat": 0, "total": 20, "money": 3},
        {"seat": 1, "total": 20, "money": 7},
        {"seat": 2, "total": 31, "money": 0},
        {"seat": 3, "total": 20, "money": 7},
    ]}
    assert ENGINE.standings(state) == [4, 2, 1, 2]
