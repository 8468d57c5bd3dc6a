"""Moving along track: own track free, tolls per opponent per turn paid before first use,
reversing only at a city, major cities free to all, movement points, links."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.rail_core import Fee, RailHooks

from .helpers import core_of, k
from .test_build import COSTS, own

# A line of track along row 0: player 0 owns 0-1-2, player 1 owns 2-3-4, player 2 owns 4-5-6.
# (2,0) is the small city "a"; row 1 has no track.
LINE = [
    "..a....",
    ".......",
]


@pytest.fixture
def line():
    core = core_of(LINE)
    rail = core.new_state([0, 1, 2])
    own(rail, 0, (k(0, 0), k(1, 0)), (k(1, 0), k(2, 0)))
    own(rail, 1, (k(2, 0), k(3, 0)), (k(3, 0), k(4, 0)))
    own(rail, 2, (k(4, 0), k(5, 0)), (k(5, 0), k(6, 0)))
    core.start_turn(rail, 0)
    return core, rail


def path(*qs):
    return [k(q, 0) for q in qs]


MOVES = [
    # (what, path, came_from, moves_left, cash, moves or error code, fees [(payee, step)])
    ("own track is free", path(0, 1, 2), None, None, None, 2, []),
    ("each opponent once, before first use", path(0, 1, 2, 3, 4, 5, 6), None, None, None, 6, [(1, 3), (2, 5)]),
    ("no reversing on an opponent's track", path(2, 3, 4, 3), None, None, None, "no-reverse", None),
    ("an opponent's track used twice costs once", path(3, 2, 3, 4), None, None, None, 3, [(1, 1)]),
    ("reverse at a city", path(0, 1, 2, 1, 0), None, None, None, 4, []),
    ("no reversing away from a city", path(0, 1, 0), None, None, None, "no-reverse", None),
    ("no reversing on the first step either", path(1, 0), k(0, 0), None, None, "no-reverse", None),
    ("reverse at the city after arriving there", path(2, 1), k(1, 0), None, None, 1, []),
    ("too far", path(0, 1, 2, 3, 4, 5, 6), None, 5, None, "too-far", None),
    ("exactly the movement left", path(0, 1, 2, 3, 4, 5, 6), None, 6, None, 6, [(1, 3), (2, 5)]),
    ("cannot pay the first toll", path(0, 1, 2, 3), None, None, 3, "cannot-pay", None),
    ("can pay one toll, not two", path(0, 1, 2, 3, 4, 5), None, None, 7, "cannot-pay", None),
    ("pays both with 8", path(0, 1, 2, 3, 4, 5), None, None, 8, 5, [(1, 3), (2, 5)]),
    ("standing still", path(3), None, None, None, 0, []),
]


@pytest.mark.parametrize("what,steps,came_from,moves_left,cash,expected,fees", MOVES, ids=[m[0] for m in MOVES])
def test_moves(line, what, steps, came_from, moves_left, cash, expected, fees):
    core, rail = line
    if isinstance(expected, str):
        with pytest.raises(RulesError) as err:
            core.move(rail, 0, steps, came_from=came_from, moves_left=moves_left, cash=cash)
        assert err.value.code == expected
        assert rail["turn"]["fees_paid"] == []
        return
    plan = core.move(rail, 0, steps, came_from=came_from, moves_left=moves_left, cash=cash)
    assert plan.moves == expected
    assert [(f["payee"], f["step"]) for f in plan.fees] == fees
    assert all(f["amount"] == 4 for f in plan.fees)
    assert plan.tolls == {p: 4 for p, _ in fees}
    assert plan.fee_total == 4 * len(fees)


def test_a_toll_is_paid_once_per_turn_and_again_next_turn(line):
    core, rail = line
    first = core.move(rail, 0, path(0, 1, 2, 3))
    assert first.fees == [{"id": "toll:1", "payee": 1, "amount": 4, "step": 3}]
    assert rail["turn"]["fees_paid"] == ["toll:1"]
    again = core.move(rail, 0, path(3, 4, 5), came_from=k(2, 0))
    assert [f["payee"] for f in again.fees] == [2]  # player 1 already paid this turn
    core.start_turn(rail, 0)
    assert [f["payee"] for f in core.check_move(rail, 0, path(3, 4), came_from=k(2, 0)).fees] == [1]
    assert first.came_from == k(2, 0) and again.came_from == k(4, 0)


def test_no_track_and_not_neighbours(line):
    core, rail = line
    with pytest.raises(RulesError) as err:
        core.check_move(rail, 0, [k(0, 0), k(0, 1)])
    assert err.value.code == "no-track"
    with pytest.raises(RulesError) as err:
        core.check_move(rail, 0, [k(0, 0), k(3, 0)])
    assert err.value.code == "not-adjacent"


def test_major_city_mileposts_are_free_track_for_everyone():
    core = core_of(COSTS)
    rail = core.new_state([0, 1])
    own(rail, 1, (k(2, 1), k(3, 0)))
    core.start_turn(rail, 0)
    plan = core.check_move(rail, 0, [k(1, 1), k(2, 1), k(2, 2), k(1, 2), k(1, 1)])
    assert plan.moves == 4 and plan.fees == []  # and reversing anywhere inside it is allowed
    plan = core.check_move(rail, 0, [k(1, 1), k(2, 1), k(3, 0)])
    assert plan.moves == 2 and plan.tolls == {1: 4}


# Two layers: the surface (row 0) and an underground of rock (row 0 of layer 1). An entrance
# (a public passage) joins [0,3,0] and [1,0,0]; a tunnel (a link holding track) joins [0,0,1]
# and [1,3,1].
SURFACE = ["....", "...."]
UNDER = ["####", "####"]
LINKS = [
    {"kind": "entrance", "name": "north entrance", "edges": [[[0, 3, 0], [1, 0, 0]]]},
    {"kind": "tunnel", "name": "old tunnel", "edges": [[[0, 0, 1], [1, 3, 1]]]},
]
LINK_RULES = {
    "terrain_cost": {"clear": 1, "rock": 5},
    "link_kinds": {"entrance": {"track": False, "moves": 2}, "tunnel": {"track": True, "cost": 1}},
}


@pytest.fixture
def layers():
    core = core_of(SURFACE, rules=LINK_RULES, extra_layers=[UNDER], links=LINKS)
    rail = core.new_state([0, 1])
    own(rail, 0, (k(2, 0), k(3, 0)))
    core.start_turn(rail, 0)
    return core, rail


def test_building_goes_on_across_an_open_passage(layers):
    core, rail = layers
    plan = core.build(rail, 0, [k(3, 0), k(0, 0, 1), k(1, 0, 1)])
    assert plan.sections == [[k(0, 0, 1), k(1, 0, 1)]] and plan.cost == 5
    assert core.can_start_at(rail, 0, core.map.find(k(0, 0, 1)))
    rail["links"]["north entrance"] = False
    assert not core.can_start_at(rail, 1, core.map.find(k(0, 0, 1)))
    with pytest.raises(RulesError) as err:
        core.check_build(rail, 0, [k(3, 0), k(0, 0, 1), k(0, 1, 1)])
    assert err.value.code == "link-closed"


def test_a_track_link_is_built_owned_and_tolled(layers):
    core, rail = layers
    own(rail, 0, (k(0, 0), k(0, 1)))
    plan = core.build(rail, 0, [k(0, 1), k(3, 1, 1)])
    assert plan.cost == 5 + 1
    assert core.owner(rail, k(3, 1, 1), k(0, 1)) == 0
    core.start_turn(rail, 1)
    move = core.check_move(rail, 1, [k(0, 0), k(0, 1), k(3, 1, 1)])
    assert move.moves == 2 and move.tolls == {0: 4}


def test_a_passage_costs_its_movement_points_and_no_toll(layers):
    core, rail = layers
    own(rail, 0, (k(0, 0, 1), k(1, 0, 1)))
    core.start_turn(rail, 1)
    move = core.check_move(rail, 1, [k(2, 0), k(3, 0), k(0, 0, 1), k(1, 0, 1)])
    assert move.moves == 1 + 2 + 1 and move.tolls == {0: 4}


class Underground(RailHooks):
    """A fantasy-style hook set: half rate in rock, a once-per-turn bribe to seat 1 underground,
    a dwarf-like cheap rock for player 0, no building on one milepost."""

    def section_cost(self, m, player, a, b, cost):
        node = 2 if player == 0 and m.nodes[b].terrain == "rock" else cost.node
        return node + sum(c for _, c in cost.crossings) + cost.link

    def section_refusal(self, m, player, a, b):
        return ("area-closed", "A storm closes this milepost.") if m.nodes[b].key == "1,2,0" else None

    def build_fee(self, m, player, sections):
        return 1 if any(m.nodes[b].layer == 1 for _, b in sections) else 0

    def step_moves(self, m, player, a, b, moves):
        return moves * 2 if m.nodes[b].terrain == "rock" else moves

    def step_fees(self, m, player, a, b):
        return [Fee("bribe", 1, 1)] if m.nodes[b].layer == 1 and player != 1 else []

    def can_reverse_at(self, m, player, node, default):
        return default or m.nodes[node].key == "0,1,0"


def test_hooks_change_costs_legality_movement_fees_and_reversing(layers):
    core, rail = layers
    hooks = Underground()
    plan = core.build(rail, 0, [k(3, 0), k(0, 0, 1), k(1, 0, 1)], hooks=hooks)
    assert plan.costs == [2] and plan.fee == 1 and plan.cost == 3
    with pytest.raises(RulesError) as err:
        core.check_build(rail, 0, [k(1, 0, 1), k(2, 0, 1)], hooks=hooks)
    assert (err.value.code, err.value.message) == ("area-closed", "A storm closes this milepost.")
    assert core.section_cost(rail, 1, k(1, 0, 1), k(1, 1, 1), hooks=hooks) == 5
    move = core.move(rail, 0, [k(2, 0), k(3, 0), k(0, 0, 1), k(1, 0, 1)], hooks=hooks)
    assert move.moves == 1 + 2 * 2 + 2  # rock steps at half rate
    assert move.fees == [{"id": "bribe", "payee": 1, "amount": 1, "step": 2}]
    assert core.check_move(rail, 0, [k(1, 0, 1), k(0, 0, 1), k(3, 0)], hooks=hooks).fees == []  # paid this turn
    own(rail, 0, (k(0, 0), k(1, 0)), (k(1, 0), k(2, 0)))
    with pytest.raises(RulesError):
        core.check_move(rail, 0, [k(0, 0), k(1, 0), k(2, 0), k(1, 0)])
    assert core.check_move(rail, 0, [k(0, 0), k(1, 0), k(0, 0)], hooks=hooks).moves == 2


def test_move_distances_count_the_way_the_train_faces(line):
    core, rail = line
    # From (1,0) having come from (0,0) the train faces east: (0,0) is behind it, reached only by going
    # on to the city at (2,0), turning there and coming back (3 moves), never by reversing on the spot.
    facing_east = core.move_distances(rail, 0, k(1, 0), came_from=k(0, 0))
    assert facing_east[k(0, 0)] == 3 and facing_east[k(2, 0)] == 1 and facing_east[k(6, 0)] == 5
    # Standing with no direction it goes either way.
    assert core.move_distances(rail, 0, k(1, 0))[k(0, 0)] == 1
    # No track, no reach: row 1 has none.
    assert k(1, 1) not in facing_east and facing_east[k(1, 0)] == 0
    # Each distance is what plan_move takes for the fewest moves.
    for key, moves in facing_east.items():
        assert core.plan_move(rail, 0, k(1, 0), key, came_from=k(0, 0)).moves == moves
