"""Replay the recorded whole games (see record_games.py) and check they end exactly as recorded, that a
second replay gives the same, and what the set covers."""

import functools
import json
from pathlib import Path

import pytest

from games.engines.slipway import ENGINE

from .record_games import GAMES, coverage, replay, state_digest

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
    listed = {seed: (bots, options) for seed, bots, options in GAMES}
    assert sorted(g["seed"] for g in games) == sorted(listed)
    for g in games:  # each fixture is the game record_games.py lists
        bots, options = listed[g["seed"]]
        assert g["bots"] == bots
        assert g["options"] == ENGINE.normalize_options(options)
        assert len(g["players"]) == len(bots)
    assert {len(g["players"]) for g in games} == {2, 3, 4}
    assert {b for g in games for b in g["bots"]} == {"shipwright", "random"}
    assert {g["options"]["subsidy"] for g in games} == {"four-players", "always", "never"}
    assert {g["options"]["stack_end"] for g in games} == {"immediate", "final-round"}
    assert {g["options"]["two_player_cubes"] for g in games} == {1, 2}
    assert all(set(step) == {"seat", "command"} for g in games for step in g["commands"])
    assert sum(p.stat().st_size for p in RECORDED) < 1_000_000


def test_recorded_games_cover_every_command_and_the_game_s_turns():
    covered = set()
    for path in RECORDED:
        covered |= coverage(replayed(path)[1])
    commands = {spec.name for spec in ENGINE.commands}
    assert commands <= covered, commands - covered
    assert {"bonus", "forfeited", "contract-discarded", "queue-cube-removed", "cruised", "lost:no-captain",
            "lost:canal-too-short", "end:queue", "phase:final-action", "phase:final-build", "passed",
            "spot:riband", "spot:navy", "spot:trade"} <= covered


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_replay_recorded_game(path):
    game = load(path)
    state, seen = replay(game)
    assert state["finished"]
    assert state["end"]["reason"] == game["end_reason"]
    assert state["turn_no"] == game["turns"]
    assert state["winners"] == game["winners"]
    assert [s["total"] for s in state["scores"]] == game["totals"]
    assert [p["money"] for p in state["players"]] == game["final_money"]
    assert state_digest(state) == game["digest"]
    # a second replay from scratch: the same coverage, the same final state
    digest, first = replayed(path)
    assert digest == game["digest"]
    assert seen == first
