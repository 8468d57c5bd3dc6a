"""Building track: exact costs, right of way, where building may start, major cities and their
per-turn limit, city caps and the courtesy rule, budgets, rebuild rights and links."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.rail_core import pair_key

from .helpers import core_of, k

# Costs map (odd-r). M1 is the major city centred on (2,2); a small city at (4,2), a medium
# one at (4,3), a mountain at (3,1), water at (2,4); a river between (3,0) and (4,0), an inlet
# between (0,0) and (1,0).
COSTS = [
    "......",
    ".11^..",
    ".111a.",
    ".11.B.",
    "..~...",
]
COST_CROSSINGS = [
    {"kind": "river", "name": "Blue River", "edges": [[[0, 3, 0], [0, 4, 0]]]},
    {"kind": "inlet", "name": "Grey Inlet", "edges": [[[0, 0, 0], [0, 1, 0]]]},
]


def own(rail, player, *pairs):
    """Put track on the map directly (test setup, not a build)."""
    for a, b in pairs:
        rail["track"][pair_key(tuple(map(int, a.split(","))), tuple(map(int, b.split(","))))] = player


@pytest.fixture
def costs():
    core = core_of(COSTS, crossings=COST_CROSSINGS)
    rail = core.new_state([0, 1, 2])
    core.start_turn(rail, 0)
    return core, rail


# (what, player 0's track before, the path, its cost)
COST_TABLE = [
    ("clear", [], [k(2, 1), k(3, 0)], 1),
    ("mountain", [], [k(2, 1), k(3, 1)], 2),
    ("small city", [], [k(3, 2), k(4, 2)], 3),
    ("medium city", [(k(3, 2), k(3, 3))], [k(3, 3), k(4, 3)], 3),
    ("major city", [(k(2, 1), k(3, 0))], [k(3, 0), k(3, 1), k(3, 2)], 2 + 5),
    ("clear across a river", [(k(2, 1), k(3, 0))], [k(3, 0), k(4, 0)], 1 + 2),
    ("clear across an inlet", [(k(1, 1), k(1, 0))], [k(1, 0), k(0, 0)], 1 + 3),
    ("the price is the milepost built to", [(k(2, 1), k(3, 1))], [k(3, 1), k(3, 0)], 1),
    ("own track and the major city are free", [(k(2, 1), k(3, 0))],
     [k(3, 0), k(2, 1), k(2, 2), k(3, 2), k(4, 2), k(5, 2)], 3 + 1),
]


@pytest.mark.parametrize("what,track,path,cost", COST_TABLE, ids=[c[0] for c in COST_TABLE])
def test_exact_costs(costs, what, track, path, cost):
    core, rail = costs
    own(rail, 0, *track)
    plan = core.check_build(rail, 0, path)
    assert plan.cost == cost
    assert sum(plan.costs) == cost and plan.fee == 0
    for (a, b), c in zip(plan.sections, plan.costs, strict=True):
        assert core.section_cost(rail, 0, a, b) == c


REFUSED = [
    ("water, never", [], [k(2, 3), k(2, 4)], "unbuildable", "Track cannot be built on water"),
    ("between major-city mileposts: nothing to build", [], [k(1, 1), k(2, 1)], "nothing-to-build", None),
    ("not neighbours", [], [k(2, 1), k(5, 0)], "not-adjacent", None),
    ("start away from the network", [], [k(5, 0), k(5, 1)], "not-connected", "must start at a major city"),
    ("off the map", [], [k(2, 1), k(9, 9)], "not-a-milepost", None),
    ("own track only", [(k(2, 1), k(3, 0))], [k(2, 1), k(3, 0)], "nothing-to-build", None),
]


@pytest.mark.parametrize("what,track,path,code,message", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_builds(costs, what, track, path, code, message):
    core, rail = costs
    own(rail, 0, *track)
    before = dict(rail["track"]), dict(rail["turn"])
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, path)
    assert err.value.code == code
    if message:
        assert message in err.value.message
    assert (rail["track"], rail["turn"]) == before  # nothing applied


def test_right_of_way_one_owner_per_pair(costs):
    core, rail = costs
    core.build(rail, 0, [k(2, 1), k(3, 0)])
    assert core.owner(rail, k(3, 0), k(2, 1)) == 0
    core.start_turn(rail, 1)
    with pytest.raises(RulesError) as err:
        core.build(rail, 1, [k(2, 1), k(3, 0)])
    assert err.value.code == "track-taken"
    # player 1 reaches the same milepost another way: allowed, the pair stays player 0's
    core.build(rail, 1, [k(2, 1), k(3, 1), k(3, 0)])
    assert core.owner(rail, k(2, 1), k(3, 0)) == 0
    assert core.track_by_player(rail) == {0: [[k(2, 1), k(3, 0)]], 1: [[k(2, 1), k(3, 1)], [k(3, 0), k(3, 1)]], 2: []}


def test_building_may_start_at_any_major_milepost_or_own_track(costs):
    core, rail = costs
    assert core.can_start_at(rail, 0, core.map.find(k(1, 3)))
    assert not core.can_start_at(rail, 0, core.map.find(k(0, 0)))
    own(rail, 0, (k(0, 0), k(0, 1)))
    assert core.can_start_at(rail, 0, core.map.find(k(0, 0)))
    assert not core.can_start_at(rail, 1, core.map.find(k(0, 0)))
    assert core.check_build(rail, 0, [k(0, 1), k(0, 2)]).cost == 1


def test_at_most_two_sections_started_at_major_cities_per_turn(costs):
    core, rail = costs
    core.build(rail, 0, [k(2, 1), k(3, 0)])  # started at M1: 1
    assert rail["turn"]["major_starts"] == 1
    core.build(rail, 0, [k(3, 0), k(4, 0)])  # from own track: still 1
    core.build(rail, 0, [k(1, 1), k(0, 1)])  # started at M1: 2
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, [k(1, 3), k(0, 3)])
    assert err.value.code == "major-start-limit"
    assert "(2 already this turn, 1 in this build)" in err.value.message
    # a path that leaves the city from a milepost reached on own track also starts there
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, [k(0, 1), k(1, 1), k(1, 2), k(0, 2)])
    assert err.value.code == "major-start-limit"
    # building *into* a major city does not count
    core.build(rail, 0, [k(0, 1), k(0, 2), k(1, 2)])
    core.start_turn(rail, 0)
    core.build(rail, 0, [k(1, 3), k(0, 3)])
    # another player's turn counts from zero
    core.start_turn(rail, 1)
    core.build(rail, 1, [k(3, 2), k(3, 3)])
    core.build(rail, 1, [k(2, 3), k(3, 4)])
    assert rail["turn"] == {"player": 1, "major_starts": 2, "fees_paid": []}


def test_two_major_starts_in_one_path_are_refused_at_once(costs):
    core, rail = costs
    core.build(rail, 0, [k(2, 1), k(3, 0)])
    with pytest.raises(RulesError) as err:  # leaves M1 twice in one path: 1 + 2 > 2
        core.build(rail, 0, [k(1, 1), k(0, 1), k(0, 2), k(1, 2), k(1, 3), k(0, 3)])
    assert err.value.code == "major-start-limit"


def test_budget(costs):
    core, rail = costs
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, [k(2, 1), k(3, 1), k(4, 1)], budget=2)
    assert err.value.code == "over-budget" and "costs 3; you may spend 2" in err.value.message
    assert core.build(rail, 0, [k(2, 1), k(3, 1), k(4, 1)], budget=3).cost == 3


# (what, the limit left this turn, the cash in hand, the code for a build costing 3 or None: built)
MONEY_TABLE = [
    ("both cover it", 3, 3, None),
    ("too little cash", 20, 2, "not-enough-cash"),
    ("over the turn's limit", 2, 50, "over-turn-limit"),
    ("both short: the cash is named", 2, 2, "not-enough-cash"),
]


@pytest.mark.parametrize("what,left,cash,code", MONEY_TABLE, ids=[c[0] for c in MONEY_TABLE])
def test_cash_and_turn_limit_are_told_apart(costs, what, left, cash, code):
    core, rail = costs
    path = [k(2, 1), k(3, 1), k(4, 1)]  # mountain 2 + clear 1
    if code is None:
        assert core.build(rail, 0, path, budget=left, cash=cash).cost == 3
        return
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, path, budget=left, cash=cash)
    assert err.value.code == code
    said = {"not-enough-cash": f"costs 3; you have {cash}.", "over-turn-limit": f"the turn's limit leaves {left} "}[code]
    assert said in err.value.message
    assert rail["track"] == {}


# (what, player 0's track before, a path that comes back to a milepost, the step of the second visit)
REVISIT_TABLE = [
    ("out and back: [a, b, c, b]", [], [k(2, 1), k(3, 0), k(4, 0), k(3, 0)], 3),
    ("a loop back into the major city", [], [k(2, 1), k(3, 0), k(2, 0), k(2, 1)], 3),
    ("a triangle closed on the way", [], [k(2, 1), k(3, 0), k(4, 0), k(4, 1), k(3, 1), k(3, 0)], 5),
    ("over own track and back, then on", [(k(2, 1), k(3, 0))], [k(3, 0), k(2, 1), k(3, 0), k(2, 0)], 2),
]


@pytest.mark.parametrize("what,track,path,step", REVISIT_TABLE, ids=[c[0] for c in REVISIT_TABLE])
def test_a_path_visits_each_milepost_once(costs, what, track, path, step):
    core, rail = costs
    own(rail, 0, *track)
    before = dict(rail["track"])
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, path, budget=20)
    assert err.value.code == "path-revisits"
    assert path[step] in err.value.message
    assert rail["track"] == before
    # the planner never offers such a path: through the same points it finds none or a simple one
    plan = core.plan_build_through(rail, 0, path)
    assert plan is None or len(set(plan.path)) == len(plan.path)


def test_rebuild_right_keeps_a_destroyed_section_for_its_owner(costs):
    core, rail = costs
    core.build(rail, 0, [k(2, 1), k(3, 0), k(4, 0)])
    assert core.remove_section(rail, k(4, 0), k(3, 0), reserve=True) == 0
    assert core.owner(rail, k(3, 0), k(4, 0)) is None
    core.start_turn(rail, 1)
    own(rail, 1, (k(4, 1), k(4, 0)))
    with pytest.raises(RulesError) as err:
        core.build(rail, 1, [k(4, 0), k(3, 0)])
    assert err.value.code == "track-reserved"
    core.start_turn(rail, 0)
    assert core.build(rail, 0, [k(3, 0), k(4, 0)]).cost == 3  # the river again
    assert rail["reserved"] == {}


# -- city caps and the courtesy rule ------------------------------------------------------------------

# A small city "a" at (2,2) with three ways in: from (2,1), (3,2) and (2,3); water on its west.
SMALL = [
    ".....",
    ".~...",
    ".~a..",
    ".~...",
    ".....",
]
WAYS = {"n": k(2, 1), "e": k(3, 2), "s": k(2, 3)}
A = k(2, 2)


def small_city(players, rules=None):
    core = core_of(SMALL, rules=rules)
    return core, core.new_state(players)


def stub(rail, player, way):
    """Give ``player`` track reaching milepost ``way`` from outside the city (test setup)."""
    outside = {WAYS["n"]: k(2, 0), WAYS["e"]: k(4, 2), WAYS["s"]: k(2, 4)}[way]
    own(rail, player, (outside, way))


# (what, players in the game, rules, entries before [(player, way)], builder, way, expected code or None)
CAPS = [
    ("first player in", [0, 1, 2], None, [], 0, "n", None),
    ("second section of the first player leaves one way for one entitled player", [0, 1, 2], None,
     [(0, "n")], 0, "e", None),
    ("third section would leave none for the second entitled player", [0, 1, 2], None,
     [(0, "n"), (0, "e")], 0, "s", "courtesy"),
    ("the second player takes the last way", [0, 1, 2], None, [(0, "n"), (0, "e")], 1, "s", None),
    ("full: two players already", [0, 1, 2], None, [(0, "n"), (1, "e")], 2, "s", "city-full"),
    ("full, but a member may add a section", [0, 1, 2], None, [(0, "n"), (1, "e")], 0, "s", None),
    ("two players: the first may take two ways, not three", [0, 1], None, [(0, "n"), (0, "e")], 0, "s", "courtesy"),
    ("one player alone: no one to block", [0], None, [(0, "n"), (0, "e")], 0, "s", None),
]


@pytest.mark.parametrize("what,players,rules,before,builder,way,code", CAPS, ids=[c[0] for c in CAPS])
def test_small_city_caps_and_courtesy(what, players, rules, before, builder, way, code):
    core, rail = small_city(players, rules)
    for p, w in before:
        own(rail, p, (WAYS[w], A))
    stub(rail, builder, WAYS[way])
    core.start_turn(rail, builder)
    if code is None:
        core.build(rail, builder, [WAYS[way], A])
        assert core.owner(rail, WAYS[way], A) == builder
    else:
        with pytest.raises(RulesError) as err:
            core.build(rail, builder, [WAYS[way], A])
        assert err.value.code == code


# The same three ways into a medium city (cap 3).
MEDIUM = [row.replace("a", "B") for row in SMALL]
MEDIUM_CASES = [
    ("four players: the first may take one way only", [0, 1, 2, 3], None, [(0, "n")], 0, "e", "courtesy"),
    ("two players: two ways, not three", [0, 1], None, [(0, "n")], 0, "e", None),
    ("two players: the third way stays for the other", [0, 1], None, [(0, "n"), (0, "e")], 0, "s", "courtesy"),
    ("two players counting the cap alone: one way only", [0, 1], {"courtesy_counts_players": False},
     [(0, "n")], 0, "e", "courtesy"),
    ("courtesy off", [0, 1, 2, 3], {"courtesy": False}, [(0, "n"), (0, "e")], 0, "s", None),
    ("three players in: full", [0, 1, 2, 3], None, [(0, "n"), (1, "e"), (2, "s")], 3, "s", "track-taken"),
]


@pytest.mark.parametrize("what,players,rules,before,builder,way,code", MEDIUM_CASES, ids=[c[0] for c in MEDIUM_CASES])
def test_medium_city_caps_and_courtesy(what, players, rules, before, builder, way, code):
    core = core_of(MEDIUM, rules=rules)
    rail = core.new_state(players)
    for p, w in before:
        own(rail, p, (WAYS[w], A))
    stub(rail, builder, WAYS[way])
    core.start_turn(rail, builder)
    if code is None:
        core.build(rail, builder, [WAYS[way], A])
    else:
        with pytest.raises(RulesError) as err:
            core.build(rail, builder, [WAYS[way], A])
        assert err.value.code == code


def test_medium_city_refuses_a_fourth_player():
    core = core_of([".....", ".....", "..B..", ".....", "....."])
    rail = core.new_state([0, 1, 2, 3])
    city = k(2, 2)
    for p, way in enumerate([k(2, 1), k(3, 2), k(2, 3)]):
        own(rail, p, (way, city))
    own(rail, 3, (k(1, 1), k(0, 1)))
    core.start_turn(rail, 3)
    with pytest.raises(RulesError) as err:
        core.build(rail, 3, [k(1, 1), city])
    assert err.value.code == "city-full" and "track from 3 players" in err.value.message


def test_at_most_three_own_sections_into_a_capped_city():
    core = core_of([".....", ".....", "..a..", ".....", "....."])
    rail = core.new_state([0])
    city = k(2, 2)
    own(rail, 0, (k(2, 1), city), (k(3, 2), city), (k(2, 3), city), (k(1, 1), k(1, 0)))
    core.start_turn(rail, 0)
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, [k(1, 1), city])
    assert err.value.code == "city-sections"
    no_limit = core_of([".....", ".....", "..a..", ".....", "....."], rules={"max_own_sections": None})
    rail2 = no_limit.new_state([0])
    rail2["track"] = dict(rail["track"])
    no_limit.build(rail2, 0, [k(1, 1), city])


def test_a_city_the_map_already_starves_can_still_be_entered():
    # one way in, two players entitled: the map blocks, not a build; entering does not make it worse
    core = core_of(["~~~", "~a.", "~~~"])
    rail = core.new_state([0, 1, 2])
    own(rail, 0, (k(2, 0), k(2, 1)))
    core.start_turn(rail, 0)
    core.build(rail, 0, [k(2, 1), k(1, 1)])


def test_a_path_through_a_capped_city_counts_both_sections():
    core, rail = small_city([0, 1, 2])
    stub(rail, 0, WAYS["n"])
    core.start_turn(rail, 0)
    # in and out in one path: 1 free way left for 1 entitled player: allowed
    core.build(rail, 0, [WAYS["n"], A, WAYS["e"]])
    core2, rail2 = small_city([0, 1, 2])
    own(rail2, 0, (WAYS["s"], A))
    stub(rail2, 0, WAYS["n"])
    core2.start_turn(rail2, 0)
    with pytest.raises(RulesError) as err:  # through the city takes the last two ways
        core2.build(rail2, 0, [WAYS["n"], A, WAYS["e"]])
    assert err.value.code == "courtesy"


# A major city with two ways out: the ring is hemmed in by water except (4,2) and (0,2).
HEMMED = [
    "~~~~~",
    "~11~~",
    ".111.",
    "~11~~",
    "~~~~~",
]


def test_every_player_keeps_a_way_out_of_each_major_city():
    core = core_of(HEMMED)
    assert core.places["M1"].ways == (pair_key((0, 0, 2), (0, 1, 2)), pair_key((0, 3, 2), (0, 4, 2)))
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    core.build(rail, 0, [k(3, 2), k(4, 2)])
    with pytest.raises(RulesError) as err:
        core.build(rail, 0, [k(1, 2), k(0, 2)])
    assert err.value.code == "courtesy" and "Major 1" in err.value.message
    core.start_turn(rail, 1)
    core.build(rail, 1, [k(1, 2), k(0, 2)])
    # one player alone may take both
    rail1 = core.new_state([0])
    core.start_turn(rail1, 0)
    core.build(rail1, 0, [k(3, 2), k(4, 2)])
    core.build(rail1, 0, [k(1, 2), k(0, 2)])
