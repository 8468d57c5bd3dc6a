"""Replay the recorded whole games (see record_games.py) and check they end exactly as recorded."""

import json
from pathlib import Path

import pytest

from games.engines.locomotive_werks import ENGINE

RECORDED = sorted((Path(__file__).parent / "recorded").glob("game_*.json"))


def load(path):
    return json.loads(path.read_text())


def test_enough_recorded_games():
    games = [load(p) for p in RECORDED]
    assert len(games) >= 20
    assert {len(g["players"]) for g in games} == {3, 4, 5}
    assert len({g["seed"] for g in games}) == len(games)


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_replay_recorded_game(path):
    game = load(path)
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        assert not state["finished"]
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert state["finished"]
    assert [p["coins"] for p in state["players"]] == game["final_coins"]
    assert state["round"] == game["rounds"]
    assert state["winners"] == game["winners"]
