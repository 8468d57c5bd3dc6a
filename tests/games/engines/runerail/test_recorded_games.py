"""Replay the recorded whole games (see record_games.py) and check they end exactly as recorded, that a
second replay gives the same, and what the set covers (every kind of event card, ships, foremen,
upgrades, a lost load, destroyed track rebuilt)."""

import functools
import json
from pathlib import Path

import pytest

from games.engines.runerail import ENGINE, data

from .record_games import GAMES, replay, state_digest

RECORDED = sorted((Path(__file__).parent / "recorded").glob("game_*.json"))


def load(path):
    return json.loads(path.read_text())


@functools.cache
def replayed(path):
    """The first replay of a fixture: (final state's digest, what it covered)."""
    state, seen = replay(load(path))
    return state_digest(state), seen


def test_enough_recorded_games():
    games = [load(p) for p in RECORDED]
    assert len(games) >= 20
    assert len(games) == len(GAMES)
    listed = {seed: (bots, options) for seed, bots, options in GAMES}
    assert sorted(g["seed"] for g in games) == sorted(listed)
    for g in games:  # each fixture is the game record_games.py lists
        bots, options = listed[g["seed"]]
        assert g["bots"] == bots
        assert g["options"] == ENGINE.normalize_options(options)
        assert len(g["players"]) == len(bots)
    assert {len(g["players"]) for g in games} == {2, 3, 4, 5, 6}
    assert len({g["seed"] for g in games}) == len(games)
    assert {b for g in games for b in g["bots"]} == {"planner", "random"}
    assert sum("random" in g["bots"] for g in games) >= len(games) // 2
    # No fixture sets a round limit (option round_limit 0): every game has a planner, and every game ended in a win.
    assert all("planner" in g["bots"] for g in games)
    assert {g["end_reason"] for g in games} == {"won"}
    # both values of each option
    assert {g["options"]["turn_order"] for g in games} == {"random", "seated"}
    assert {g["options"]["prism_bridge"] for g in games} == {"game", "until-strike"}
    assert {g["options"]["win_check"] for g in games} == {"at-once", "own-turn-end"}
    assert {g["options"]["win_tie"] for g in games} == {"most-gold", "shared"}
    assert {g["options"]["port_price"] for g in games} == {"published", "city"}
    # the commands only: compact
    assert all(set(step) == {"seat", "command"} for g in games for step in g["commands"])
    assert sum(p.stat().st_size for p in RECORDED) < 2_000_000


def test_recorded_games_cover_events_ships_foremen_and_rebuilding():
    kinds, facts = set(), set()
    for path in RECORDED:
        _digest, seen = replayed(path)
        kinds |= seen["kinds"]
        facts |= seen["facts"]
    assert kinds == {e["kind"] for e in data.events().values()}
    assert {"boarded", "sailed", "landed", "foreman-hired", "upgraded", "load-lost", "track-destroyed",
            "rebuilt"} <= facts


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_replay_recorded_game(path):
    game = load(path)
    state, seen = replay(game)
    assert state["finished"]
    assert state["end_reason"] == game["end_reason"]
    assert state["round"] == game["rounds"]
    assert state["winners"] == game["winners"]
    assert [p["gold"] for p in state["players"]] == game["final_gold"]
    assert state_digest(state) == game["digest"]
    # a second replay from scratch: the same events in the same order, the same final state
    digest, first = replayed(path)
    assert digest == game["digest"]
    assert seen == first
