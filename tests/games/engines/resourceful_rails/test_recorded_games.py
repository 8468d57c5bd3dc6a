"""Replay the recorded whole games (see record_games.py) and check they end exactly as recorded."""

import json
from pathlib import Path

import pytest

from games.engines.resourceful_rails import ENGINE

from .record_games import GAMES, state_digest

RECORDED = sorted((Path(__file__).parent / "recorded").glob("game_*.json"))


def load(path):
    return json.loads(path.read_text())


def test_enough_recorded_games():
    games = [load(p) for p in RECORDED]
    assert len(games) >= 20
    assert len(games) == len(GAMES)
    assert {len(g["players"]) for g in games} == {2, 3, 4, 5, 6}
    assert len({g["seed"] for g in games}) == len(games)
    assert {b for g in games for b in g["bots"]} == {"planner", "random"}
    # several options, and both ways a game ends
    changed = {name for g in games for name, value in g["options"].items()
               if value != ENGINE.normalize_options({})[name]}
    assert {"fast_trains", "extra_build_turn", "extra_starting_cards", "win_timing", "goods_supply",
            "place_anywhere", "turn_order", "round_limit", "map"} <= changed
    assert {g["end_reason"] for g in games} == {"won", "round-limit"}
    assert sum(p.stat().st_size for p in RECORDED) < 2_000_000


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_replay_recorded_game(path):
    game = load(path)
    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        assert not state["finished"]
        ENGINE.apply(state, seat=step["seat"], command=step["command"])
    assert state["finished"]
    assert state["end_reason"] == game["end_reason"]
    assert state["round"] == game["rounds"]
    assert state["winners"] == game["winners"]
    assert [p["cash"] for p in state["players"]] == game["final_cash"]
    assert state_digest(state) == game["digest"]
