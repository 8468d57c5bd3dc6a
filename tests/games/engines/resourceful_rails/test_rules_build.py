"""Resourceful Rails building, table-driven, on the shipped map through ``Engine.apply``: exact
prices per terrain and river, own track and major cities free, where building may start, the two
major-city starts a turn, the $20 limit and cash, right of way, city caps and the courtesy rule,
upgrades, and the first build ending phase 1.

The rail core's own tests price and refuse the same things on tiny hand-drawn maps; these check
the engine wires them up with the spec's numbers on the real board (prices are recomputed from
``map.json`` by ``helpers.price``, never asked of the engine)."""

import pytest

from games.engines.resourceful_rails import ENGINE

from .helpers import (
    DENVER,
    LOGAN,
    MAP,
    SLC,
    apply,
    build,
    cash,
    city_with_ways,
    clear_walk,
    end_turn,
    feeder,
    lay,
    load,
    major_exit,
    neighbours,
    node,
    nodes_of,
    normal_turn,
    own,
    owner,
    pair_to,
    plain,
    price,
    put_train,
    refused,
    rivers,
    seated_game,
    terrain,
    ways_into,
)

SEATTLE = "seattle-wa"
SMALL = city_with_ways("small", 6)  # Glasgow, MT: six ways in, all from clear mileposts
MEDIUM = city_with_ways("medium", 6)  # Kennewick, WA: six ways in, four of them across rivers
NEWPORT = "newport-or"  # small, on the coast: three ways in


def until(state, seat):
    """End build-round turns until ``seat`` is to play."""
    for _ in range(20):
        if state["active"] == seat:
            return state
        end_turn(state)
    raise AssertionError(f"seat {seat} never came")


def built(state, seat, command):
    events = apply(state, seat, command)
    assert events[0]["type"] == "built"
    return events[0]


# -- prices -----------------------------------------------------------------------------------------------

TERRAINS = [("clear", 1), ("mountain", 2), ("small", 3), ("medium", 3), ("major", 5)]


@pytest.mark.parametrize("target, cost", TERRAINS, ids=[t for t, _ in TERRAINS])
def test_a_section_costs_the_milepost_built_to(target, cost):
    state = seated_game()
    a, b = pair_to(target)
    assert price(a, b) == cost and rivers(a, b) == 0
    own(state, 0, feeder(a, {b}), a)
    event = built(state, 0, build(a, b))
    assert event == {"type": "built", "seat": 0, "path": [a, b], "sections": 1, "cost": cost}
    assert cash(state) == [50 - cost, 50]
    assert state["turn"]["spent"] == cost
    assert owner(state, a, b) == 0
    assert ENGINE.view(state, seat=0)["turn"]["build_left"] == 20 - cost


def test_the_price_is_the_milepost_built_to_not_from():
    a, b = pair_to("mountain")  # a clear, b mountain
    state = seated_game()
    own(state, 0, feeder(a, {b}), a)
    assert built(state, 0, build(a, b))["cost"] == 2
    state = seated_game()
    own(state, 0, feeder(b, {a}), b)
    assert built(state, 0, build(b, a))["cost"] == 1
    assert cash(state) == [49, 50]


RIVERS = [("clear", 1, 3), ("mountain", 1, 4), ("clear", 2, 5)]


@pytest.mark.parametrize("target, count, cost", RIVERS, ids=["clear+river", "mountain+river", "clear+2rivers"])
def test_each_river_crossed_adds_2(target, count, cost):
    state = seated_game()
    a, b = pair_to(target, river=count)
    names = [name for _kind, name in MAP.crossings[MAP.edge_key(MAP.find(a), MAP.find(b))]]
    assert len(names) == count  # e.g. the Columbia and the Deschutes on one pair
    own(state, 0, feeder(a, {b}), a)
    assert built(state, 0, build(a, b))["cost"] == cost
    assert cash(state) == [50 - cost, 50]


def test_a_path_adds_up_its_sections_and_rivers():
    state = seated_game()
    a, b = pair_to("clear", river=1)
    c = feeder(a, {b})
    d = next(x for x in neighbours(b) if x != a and plain(x) and rivers(b, x) == 0)
    assert [terrain(k) for k in (a, b, d)] == ["clear", "clear", "mountain"]
    own(state, 0, feeder(c, {a, b}), c)
    # c -> a (clear: 1) -> b (clear across a river: 3) -> d (mountain: 2)
    assert built(state, 0, build(c, a, b, d)) == {"type": "built", "seat": 0, "path": [c, a, b, d], "sections": 3,
                                                  "cost": 6}
    assert cash(state) == [44, 50]


def test_the_sea_is_no_milepost():
    # The board has no water mileposts (the sea is left off the map): building into it is refused.
    state = seated_game()
    assert {n.terrain for n in MAP.nodes} == {"clear", "mountain"}
    seattle = node(SEATTLE)
    assert seattle == "0,9,41" and "0,8,41" not in MAP.index
    assert refused(state, 0, {"cmd": "build", "path": [[0, 9, 41], [0, 8, 41]]}) == "not-a-milepost"


# -- own track, major cities, where building starts ----------------------------------------------------------


def test_own_track_is_free_and_only_new_sections_are_paid():
    state = seated_game()
    walk = clear_walk(major_exit(SLC)[0], 4)
    assert built(state, 0, build(*walk[:3]))["cost"] == 2
    event = built(state, 0, build(*walk))
    assert (event["sections"], event["cost"]) == (2, 2)
    assert cash(state) == [46, 50]
    assert state["rail"]["turn"]["major_starts"] == 1  # running over own track out of the city starts nothing
    assert sorted(state["rail"]["track"].values()) == [0, 0, 0, 0]


def test_inside_a_major_city_nothing_is_built_or_paid():
    state = seated_game()
    centre = MAP.key(MAP.cities[SLC].centre)
    m, x = major_exit(SLC)
    other = next(n for n in nodes_of(SLC) if n not in (m, centre))
    assert refused(state, 0, build(m, centre)) == "nothing-to-build"
    assert refused(state, 0, build(other, centre, m)) == "nothing-to-build"
    event = built(state, 0, build(other, centre, m, x))
    assert (event["sections"], event["cost"]) == (1, 1)
    assert state["rail"]["track"] == {MAP.edge_key(MAP.find(m), MAP.find(x)): 0}


@pytest.mark.parametrize("where, code", [
    ("nothing", "not-connected"),  # a clear milepost with no track
    ("small-city", "not-connected"),  # a small city is no start
    ("opponent", "not-connected"),  # an opponent's track is no start
    ("own", None),
    ("major", None),
])
def test_building_starts_at_a_major_city_or_own_track(where, code):
    state = seated_game()
    if where == "small-city":
        a = node(LOGAN)
        b = next(x for x in neighbours(a) if terrain(x) == "clear")
    elif where == "major":
        a, b = major_exit(DENVER)
    else:
        a, b = pair_to("clear")
        others = [x for x in neighbours(a) if x != b and plain(x)]
        if where == "opponent":
            own(state, 1, others[0], a)
        if where == "own":
            own(state, 0, others[1], a)
    if code:
        assert refused(state, 0, build(a, b)) == code
    else:
        assert built(state, 0, build(a, b))["cost"] == 1 and owner(state, a, b) == 0


# -- two starts at major cities a turn ------------------------------------------------------------------------


def test_at_most_two_sections_a_turn_start_at_major_cities():
    state = seated_game()
    (m1, x1), (m2, x2), (m3, x3) = major_exit(SLC), major_exit(DENVER), major_exit(SLC, skip=1)
    built(state, 0, build(m1, x1))
    built(state, 0, build(m2, x2))
    assert refused(state, 0, build(m3, x3)) == "major-start-limit"
    # building on from one's own track is not a start
    y = next(x for x in neighbours(x1) if plain(x) and terrain(x) == "clear" and rivers(x1, x) == 0)
    built(state, 0, build(x1, y))
    assert cash(state) == [47, 50]
    end_turn(state)
    # seat 1 plays twice in a row (the snake): its count starts again with its second turn
    built(state, 1, build(m3, x3))
    built(state, 1, build(*major_exit("casper-wy")))
    assert refused(state, 1, build(*major_exit("missoula-mt"))) == "major-start-limit"
    end_turn(state)
    assert state["active"] == 1
    built(state, 1, build(*major_exit("missoula-mt")))
    built(state, 1, build(*major_exit(SEATTLE)))
    assert refused(state, 1, build(*major_exit("redding-ca"))) == "major-start-limit"


def test_a_path_leaving_a_major_city_twice_uses_both_starts():
    state = seated_game()
    # out of Salt Lake City at 0,37,18, back in at 0,37,19 and out again: two starts, $1 + $5 + $1
    path = ["0,37,18", "0,36,19", "0,37,19", "0,36,20"]
    assert [terrain(k) for k in path[1::2]] == ["clear", "clear"] and nodes_of(SLC)[:2] == path[0::2]
    event = built(state, 0, build(*path))
    assert (event["sections"], event["cost"]) == (3, 7)
    assert refused(state, 0, build(*major_exit(DENVER))) == "major-start-limit"


def test_a_path_through_a_major_city_uses_one_start():
    state = seated_game()
    own(state, 0, "0,36,17", "0,37,17")
    # in at 0,37,18 ($5), across the centre, out at 0,39,19 to the mountain 0,40,20 ($2): one start
    event = built(state, 0, build("0,37,17", "0,37,18", "0,38,19", "0,39,19", "0,40,20"))
    assert (event["sections"], event["cost"]) == (2, 7)
    built(state, 0, build(*major_exit(DENVER)))
    assert refused(state, 0, build(*major_exit(SEATTLE))) == "major-start-limit"


def test_too_many_starts_in_one_path_are_refused():
    state = seated_game()
    built(state, 0, build(*major_exit(DENVER)))
    assert refused(state, 0, build("0,37,18", "0,36,19", "0,37,19", "0,36,20")) == "major-start-limit"


# -- the $20 limit and cash ------------------------------------------------------------------------------------


def test_twenty_dollars_a_turn_across_several_builds():
    state = seated_game()
    walk = clear_walk(major_exit(SLC)[0], 22)
    assert built(state, 0, build(*walk[:11]))["cost"] == 10
    assert built(state, 0, build(*walk[10:19]))["cost"] == 8
    assert (cash(state), state["turn"]["spent"]) == ([32, 50], 18)
    assert refused(state, 0, build(*walk[18:22])) == "over-turn-limit"  # $3 with $2 left
    assert built(state, 0, build(*walk[18:21]))["cost"] == 2
    assert (cash(state), state["turn"]["spent"]) == ([30, 50], 20)
    assert refused(state, 0, build(*walk[20:22])) == "over-turn-limit"
    assert ENGINE.view(state, seat=0)["turn"]["build_left"] == 0
    assert not [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "build"]
    # the next turn has $20 again
    end_turn(state)
    end_turn(state)
    end_turn(state)
    assert state["active"] == 0 and state["turn"]["spent"] == 0
    assert built(state, 0, build(*walk[20:22]))["cost"] == 1


@pytest.mark.parametrize("sections, code", [(20, None), (21, "over-turn-limit")])
def test_one_build_over_twenty_is_refused(sections, code):
    state = seated_game()
    walk = clear_walk(major_exit(SLC)[0], sections)
    if code:
        assert refused(state, 0, build(*walk)) == code
    else:
        assert built(state, 0, build(*walk))["cost"] == 20
        assert cash(state) == [30, 50]


def test_never_more_than_the_cash_in_hand():
    state = seated_game()
    state["players"][0]["cash"] = 5
    walk = clear_walk(major_exit(SLC)[0], 6)
    assert ENGINE.view(state, seat=0)["turn"]["build_left"] == 5
    assert refused(state, 0, build(*walk)) == "not-enough-cash"
    assert built(state, 0, build(*walk[:6]))["cost"] == 5
    assert cash(state) == [0, 50]
    assert refused(state, 0, build(*walk[5:])) == "not-enough-cash"


# -- right of way ------------------------------------------------------------------------------------------------


def test_a_milepost_pair_has_one_owner():
    state = seated_game()
    walk = clear_walk(major_exit(SLC)[0], 3)
    own(state, 1, walk[1], walk[2])
    assert refused(state, 0, build(*walk[:3])) == "track-taken"
    assert refused(state, 0, build(*walk)) == "track-taken"
    built(state, 0, build(*walk[:2]))
    assert owner(state, walk[1], walk[2]) == 1 and owner(state, walk[0], walk[1]) == 0


# -- city caps and the courtesy rule -----------------------------------------------------------------------------


def build_way(state, seat, city_id, way):
    """``seat`` builds the way (outside, inside) into the city: outward from a major city, else from
    its own track at the outside milepost. Returns the price it should cost."""
    o, i = way
    if MAP.cities[city_id].size == "major":
        return build(i, o), price(i, o)
    f = feeder(o, set(nodes_of(city_id)))
    own(state, seat, f, o)
    return build(o, i), price(o, i)


def hold(state, city_id, holders):
    """Give each seat in ``holders`` that many ways into the city, in order; return the free ways."""
    ways = ways_into(city_id)
    for seat, count in holders.items():
        for _ in range(count):
            own(state, seat, *ways.pop(0))
    return ways


def table_id(row):
    city_id, players, holders, builder, expected = row
    held = ",".join(f"s{s}:{n}" for s, n in holders.items())
    return f"{city_id}-{players}p-held[{held}]-seat{builder}-{expected or 'ok'}"


def test_the_cities_in_these_tables():
    assert (SMALL, MEDIUM) == ("glasgow-mt", "kennewick-wa")
    assert [len(ways_into(c)) for c in (SMALL, MEDIUM, NEWPORT, SEATTLE)] == [6, 6, 3, 12]
    assert [MAP.cities[c].size for c in (SMALL, MEDIUM, NEWPORT)] == ["small", "medium", "small"]


CAPS = [
    # (city, players, ways held by seat, builder, expected)
    (SMALL, 3, {0: 1}, 2, None),  # the second player into a small city
    (SMALL, 3, {0: 1, 1: 1}, 2, "city-full"),  # the third
    (SMALL, 3, {0: 1, 1: 1}, 0, None),  # a player already in may add track
    (MEDIUM, 4, {0: 1, 1: 1}, 3, None),  # the third into a medium city
    (MEDIUM, 4, {0: 1, 1: 1, 2: 1}, 3, "city-full"),  # the fourth
    (MEDIUM, 4, {0: 1, 1: 1, 2: 1}, 2, None),
    (SMALL, 2, {0: 2}, 0, None),  # a third section of one's own into a city
    (SMALL, 2, {0: 3}, 0, "city-sections"),  # never a fourth
    (MEDIUM, 2, {0: 3}, 0, "city-sections"),
]


@pytest.mark.parametrize("city_id, players, holders, builder, expected", CAPS, ids=[table_id(r) for r in CAPS])
def test_city_caps(city_id, players, holders, builder, expected):
    state = until(seated_game(players), builder)
    ways = hold(state, city_id, holders)
    command, cost = build_way(state, builder, city_id, ways[0])
    if expected:
        assert refused(state, builder, command) == expected
    else:
        assert built(state, builder, command)["cost"] == cost
        assert cash(state)[builder] == 50 - cost
        assert owner(state, *ways[0]) == builder


COURTESY = [
    # (city, players, ways held by seat, builder, expected)
    (NEWPORT, 2, {0: 1}, 0, None),  # a second way for seat 0 leaves one for seat 1
    (NEWPORT, 2, {0: 2}, 0, "courtesy"),  # the last way in would shut seat 1 out
    (NEWPORT, 2, {0: 2}, 1, None),  # seat 1 may take it
    (NEWPORT, 3, {0: 1, 1: 1}, 0, None),  # both places taken: nobody else is entitled
    (MEDIUM, 3, {0: 3, 1: 1}, 1, None),  # leaves one way for seat 2
    (MEDIUM, 3, {0: 3, 1: 2}, 1, "courtesy"),  # would leave none for seat 2
    (MEDIUM, 3, {0: 3, 1: 2}, 2, None),  # seat 2 takes the last way in
    (MEDIUM, 2, {0: 3, 1: 2}, 1, None),  # two players: nobody is left entitled
    (SEATTLE, 2, {0: 10}, 0, None),  # a major city: one way out left for seat 1
    (SEATTLE, 2, {0: 11}, 0, "courtesy"),  # its last way out
    (SEATTLE, 2, {0: 11}, 1, None),
    (SEATTLE, 3, {0: 10}, 0, "courtesy"),  # two others each keep a way out
    (SEATTLE, 3, {0: 9}, 0, None),
]


@pytest.mark.parametrize("city_id, players, holders, builder, expected", COURTESY,
                         ids=[table_id(r) for r in COURTESY])
def test_courtesy_rule(city_id, players, holders, builder, expected):
    state = until(seated_game(players), builder)
    ways = hold(state, city_id, holders)
    command, cost = build_way(state, builder, city_id, ways[0])
    if expected:
        assert refused(state, builder, command) == expected
    else:
        assert built(state, builder, command)["cost"] == cost
        assert cash(state)[builder] == 50 - cost


def test_courtesy_counts_every_way_a_build_takes():
    # seat 0 in a 2-player game holds one of Newport's three ways; one build taking both others is refused
    state = seated_game(2)
    ways = hold(state, NEWPORT, {0: 1})
    (o1, i), (o2, _i) = ways
    assert o2 in neighbours(o1)
    own(state, 0, feeder(o1, {i, o2}), o1)
    assert refused(state, 0, build(o1, i, o2)) == "courtesy"
    assert built(state, 0, build(o1, i))["cost"] == 3


# -- upgrades ------------------------------------------------------------------------------------------------------


UPGRADES = [
    ("modest", "fast", None),
    ("modest", "heavy", None),
    ("modest", "advanced", "no-such-upgrade"),
    ("fast", "advanced", None),
    ("heavy", "advanced", None),
    ("fast", "heavy", "no-such-upgrade"),
    ("heavy", "fast", "no-such-upgrade"),
    ("advanced", "fast", "no-such-upgrade"),
]


@pytest.mark.parametrize("train, to, code", UPGRADES)
def test_upgrade_paths(train, to, code):
    state = seated_game(build_round_upgrade=True)
    state["players"][0]["train"] = train
    command = {"cmd": "upgrade", "train": to}
    if code:
        assert refused(state, 0, command) == code
    else:
        assert apply(state, 0, command) == [{"type": "upgraded", "seat": 0, "from": train, "to": to, "cost": 20}]
        assert (state["players"][0]["train"], cash(state), state["turn"]["spent"]) == (to, [30, 50], 20)


def test_upgrade_needs_20_dollars():
    state = seated_game(build_round_upgrade=True)
    state["players"][0]["cash"] = 19
    assert refused(state, 0, {"cmd": "upgrade", "train": "fast"}) == "cannot-afford"
    state["players"][0]["cash"] = 20
    apply(state, 0, {"cmd": "upgrade", "train": "fast"})
    assert cash(state) == [0, 50]


def test_an_upgrade_excludes_building_in_the_same_turn():
    state = seated_game(build_round_upgrade=True)
    apply(state, 0, {"cmd": "upgrade", "train": "heavy"})
    assert refused(state, 0, build(*major_exit(SLC))) == "over-turn-limit"
    assert refused(state, 0, {"cmd": "upgrade", "train": "advanced"}) == "already-built"
    assert {c["cmd"] for c in ENGINE.legal_commands(state, seat=0)} == {"end-turn"}


def test_building_excludes_an_upgrade_in_the_same_turn():
    state = seated_game(build_round_upgrade=True)
    built(state, 0, build(*major_exit(SLC)))
    assert refused(state, 0, {"cmd": "upgrade", "train": "fast"}) == "already-built"
    assert cash(state) == [49, 50]
    # the next turn may upgrade
    end_turn(state)
    end_turn(state)
    end_turn(state)
    apply(state, 0, {"cmd": "upgrade", "train": "fast"})
    assert cash(state) == [29, 50]


# -- the first build ends phase 1 -------------------------------------------------------------------------------


AFTER_BUILDING = [
    {"cmd": "move", "path": [[0, 39, 21], [0, 38, 21]]},
    {"cmd": "pick-up", "good": "cattle"},
    {"cmd": "drop", "good": "cattle"},
    {"cmd": "deliver", "card": 1, "demand": 0},
    {"cmd": "discard-hand"},
]


@pytest.mark.parametrize("how", ["build", "upgrade"])
@pytest.mark.parametrize("command", AFTER_BUILDING, ids=lambda c: c["cmd"])
def test_the_first_build_or_upgrade_ends_phase_one(how, command):
    state = normal_turn()
    lay(state, 0, node(SLC), node(LOGAN))
    put_train(state, 0, node(LOGAN))
    load(state, 0, "cattle")
    if how == "build":
        built(state, 0, build(*major_exit(DENVER)))
    else:
        apply(state, 0, {"cmd": "upgrade", "train": "fast"})
    assert state["stage"] == "build"
    assert ENGINE.view(state, seat=0)["turn"]["moves_left"] == 0
    assert refused(state, 0, command) == "phase-over"


def test_place_train_is_over_once_building_began():
    state = normal_turn()
    lay(state, 0, node(SLC), node(LOGAN))
    built(state, 0, build(*major_exit(DENVER)))
    assert refused(state, 0, {"cmd": "place-train", "at": [0, 39, 21]}) == "phase-over"
    # building goes on after the first build, then the turn ends
    built(state, 0, build(*major_exit(DENVER, skip=1)))
    end_turn(state)
    assert state["active"] == 1 and cash(state) == [48, 50]


def test_building_in_a_normal_turn_after_moving():
    state = normal_turn()
    line = lay(state, 0, node(SLC), node(LOGAN))
    put_train(state, 0, line[1])
    apply(state, 0, {"cmd": "move", "path": [MAP.address(MAP.find(k)) for k in line[1:]]})
    event = built(state, 0, build(*major_exit(DENVER)))
    assert event["cost"] == 1 and cash(state) == [49, 50] and state["stage"] == "build"
