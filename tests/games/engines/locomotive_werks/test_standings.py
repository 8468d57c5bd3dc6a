"""Locomotive Werks' standings (README, "Standings"): most coins first, ties by the winner_ties option."""

import json
from pathlib import Path

from games.engines.locomotive_werks import ENGINE

RECORDED = Path(__file__).parent / "recorded"


def finished(name):
    game = json.loads((RECORDED / name).read_text())
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert ENGINE.is_finished(state)
    return state


def test_recorded_game_places_by_coins_and_the_winners_are_first():
    state = finished("game_101.json")
    coins = [p["coins"] for p in state["players"]]
    standings = ENGINE.standings(state)
    assert [s for s, place in enumerate(standings) if place == 1] == state["winners"]
    assert sorted(range(len(coins)), key=standings.__getitem__) == sorted(range(len(coins)), key=lambda s: -coins[s])


def test_recorded_shared_win_shares_first_place():
    state = finished("game_102.json")
    assert state["options"]["winner_ties"] == "shared" and len(state["winners"]) == 2
    assert ENGINE.standings(state) == [1, 4, 3, 1]


def test_later_in_turn_order_breaks_every_tie_as_the_end_check_does():
    state = finished("game_102.json")
    state["options"]["winner_ties"] = "later-in-turn-order"
    standings = ENGINE.standings(state)
    later = max((0, 3), key=state["order"].index)
    assert standings[later] == 1 and standings[3 - later] == 2
    assert sorted(standings) == [1, 2, 3, 4]
