"""The core on the full reference map (64×64 flat-top grid, 1,720 mileposts): planners across
the map give legal paths whose cost is the sum of the rules' costs, and moves pay their tolls."""

from __future__ import annotations

import json

import pytest

from games.engines.rail_core import RailCore, load_map, map_from_grid_asset

from .helpers import REFERENCE_MAP


@pytest.fixture(scope="module")
def core():
    if not REFERENCE_MAP.exists():
        pytest.skip(f"the reference map is not at {REFERENCE_MAP}")
    asset = json.loads(REFERENCE_MAP.read_text(encoding="utf-8"))
    rules = {"terrain_cost": {"clear": 1, "mountain": 2, "water": None}}
    return RailCore(load_map(map_from_grid_asset(asset, name="Pacific Northwest")), rules)


def test_cross_map_build_path_is_legal_and_priced_by_the_rules(core):
    m = core.map
    rail = core.new_state([0, 1, 2])
    core.start_turn(rail, 0)
    seattle, denver = m.cities["seattle-wa"], m.cities["denver-co"]
    plan = core.plan_build(rail, 0, m.key(denver.centre), start=m.key(seattle.centre))
    assert plan.path[0] == m.key(seattle.centre) and plan.path[-1] == m.key(denver.centre)
    assert plan.cost == sum(core.section_cost(rail, 0, a, b) for a, b in plan.sections)
    assert core.check_build(rail, 0, plan.path).cost == plan.cost
    assert plan.major_starts <= 2
    # hex steps between the cities' rings bound the number of sections from below
    assert len(plan.sections) >= m.hex_distance(seattle.centre, denver.centre) - 4
    # planned from anywhere, Denver is free: it is a major city, so building may start there
    assert core.plan_build(rail, 0, m.key(denver.centre)).cost == 0


def test_build_it_in_turns_then_an_opponent_moves_along_it_paying_one_toll(core):
    m = core.map
    rail = core.new_state([0, 1])
    seattle, portland = m.cities["seattle-wa"], m.cities["portland-or"]
    target = m.key(portland.centre)
    turns = 0
    while not core.connected(rail, 0, m.key(seattle.centre), target):
        core.start_turn(rail, 0)
        if turns == 0:
            plan = core.plan_build(rail, 0, target, start=m.key(seattle.centre))
        else:
            plan = core.plan_build(rail, 0, target, from_majors=False)
        assert plan is not None and plan.sections
        cut = 2  # the longest start of the path that $20 buys this turn (costs only grow along it)
        while cut < len(plan.path) and core.check_build(rail, 0, plan.path[: cut + 1]).cost <= 20:
            cut += 1
        core.build(rail, 0, plan.path[:cut], budget=20)
        turns += 1
        assert turns < 10
    assert core.majors_connected(rail, 0) == ["seattle-wa", "portland-or"]
    core.start_turn(rail, 1)
    move = core.plan_move(rail, 1, m.key(seattle.centre), target)
    assert move is not None and move.tolls == {0: 4}
    assert core.plan_move(rail, 1, m.key(seattle.centre), target, cash=3) is None
