"""Runerail building: the foremen's costs on real mileposts, the gates, the Troll, the Deepways' build
bribe, the capped ports and gates, the 20-gold budget shared by hiring, building and upgrading, upgrades."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

from .helpers import (
    CROSSING,
    ENGINE,
    GATE,
    MAP,
    TERRAIN_COST,
    address,
    apply,
    build,
    build_turn,
    crossings,
    draft_first,
    end_turn,
    find_pairs,
    foothold,
    give_foreman,
    gold,
    lay,
    neighbours,
    normal_turn,
    pair_away,
    pair_from_major,
    plain_place,
    raw_node,
    refused,
    seated_game,
)

NORTH_GATE, NORTH_GATE_DEEP = "0,42,9", "1,42,9"
EAST_GATE = "0,57,24"  # a mountain milepost


def _cost_of(state, seat, a, b):
    before = state["players"][seat]["gold"]
    apply(state, seat, build(a, b))
    return before - state["players"][seat]["gold"]


# terrain from a major city: (terrain, foreman kind, the published price)
TERRAIN_CASES = [
    ("plain", None, 1), ("plain", "dwarf", 1),
    ("desert", None, 1),
    ("forest", None, 2), ("forest", "elf", 1), ("forest", "dwarf", 2), ("forest", "catfolk", 2),
    ("mountain", None, 2), ("mountain", "dwarf", 1), ("mountain", "elf", 2),
    ("jungle", None, 3), ("jungle", "catfolk", 1), ("jungle", "elf", 3), ("jungle", "human", 3),
    ("alpine", None, 5), ("alpine", "dwarf", 5),
]


@pytest.mark.parametrize(("terrain", "kind", "price"), TERRAIN_CASES)
def test_terrain_cost_with_each_foreman(terrain, kind, price):
    state = build_turn()
    give_foreman(state, 0, kind)
    a, b = pair_from_major(terrain)
    assert raw_node(b)["terrain"] == terrain
    if kind is None:
        assert price == TERRAIN_COST[terrain]
    assert _cost_of(state, 0, a, b) == price


INLET = find_pairs(lambda a, b: crossings(a, b) == ["inlet"] and plain_place(a) and plain_place(b))[0]
RIVER = find_pairs(lambda a, b: crossings(a, b) == ["river"] and plain_place(a) and plain_place(b)
                   and raw_node(b)["terrain"] == "plain")[0]


@pytest.mark.parametrize(("pair", "kind", "extra"), [
    (RIVER, None, 2), (RIVER, "human", 0), (RIVER, "dwarf", 2),
    (INLET, None, 3), (INLET, "human", 1), (INLET, "elf", 3),
])
def test_crossings_with_the_human(pair, kind, extra):
    a, b = pair
    state = build_turn()
    give_foreman(state, 0, kind)
    foothold(state, 0, a, avoid=(b,))
    terrain = raw_node(b)["terrain"]
    node = 1 if (kind, terrain) in (("elf", "forest"), ("dwarf", "mountain")) else TERRAIN_COST[terrain]
    assert extra in (CROSSING[crossings(a, b)[0]], 0, 1)
    assert _cost_of(state, 0, a, b) == node + extra


@pytest.mark.parametrize(("gate", "kind"), [(NORTH_GATE, None), (EAST_GATE, None), (EAST_GATE, "dwarf")])
def test_a_gate_milepost_costs_2_whatever_its_terrain(gate, kind):
    state = build_turn()
    give_foreman(state, 0, kind)
    start = neighbours(gate)[0]
    foothold(state, 0, start, avoid=(gate,))
    assert raw_node(gate)["terrain"] in ("plain", "mountain")
    assert _cost_of(state, 0, start, gate) == GATE


def _deep_pair():
    return "1,42,8", "1,43,8"


def test_deepways_rock_costs_5_and_the_build_bribe_1_once_a_turn():
    state = build_turn()
    give_foreman(state, 0, "dwarf")
    a, b = _deep_pair()
    foothold(state, 0, a, avoid=(b,))
    c = next(n for n in neighbours(b) if n != a and plain_place(n) and n.startswith("1,") and not crossings(b, n))
    assert _cost_of(state, 0, a, b) == 5 + 1
    assert state["turn"]["build_bribe_paid"] is True
    assert _cost_of(state, 0, b, c) == 5  # the bribe is paid once a turn
    end_turn(state)
    while state["active"] != 0:
        end_turn(state)
    d = next(n for n in neighbours(c) if n not in (a, b) and plain_place(n) and not crossings(c, n))
    assert _cost_of(state, 0, c, d) == 5 + 1  # and again the next turn


@pytest.mark.parametrize(("kind", "price"), [("troll", 2), ("orc", 5), ("human", 6)])
def test_troll_and_orc_pay_no_build_bribe(kind, price):
    state = build_turn()
    give_foreman(state, 0, kind)
    a, b = _deep_pair()
    foothold(state, 0, a, avoid=(b,))
    assert _cost_of(state, 0, a, b) == price


def test_the_deep_gate_costs_the_troll_2_too():
    state = build_turn()
    give_foreman(state, 0, "troll")
    start = next(n for n in neighbours(NORTH_GATE_DEEP) if plain_place(n))
    foothold(state, 0, start, avoid=(NORTH_GATE_DEEP,))
    assert _cost_of(state, 0, start, NORTH_GATE_DEEP) == GATE


def test_the_troll_may_not_build_on_the_surface():
    state = build_turn()
    give_foreman(state, 0, "troll")
    a, b = pair_from_major("plain")
    assert refused(state, 0, build(a, b)) == "foreman-layer"
    # nor from its own surface track
    foothold(state, 0, "0,45,2", avoid=("0,46,2",))
    assert refused(state, 0, build("0,45,2", "0,46,2")) == "foreman-layer"


def test_a_medium_port_takes_track_from_two_players_only():
    state = draft_first(seated_game(3))
    assert state["active"] == 0
    port = MAP.key(MAP.cities["amberquay"].nodes[0])
    assert raw_node(port)["port"] is True
    outside = [n for n in neighbours(port) if plain_place(n)]
    lay(state, 1, outside[0], port)
    lay(state, 2, outside[1], port)
    foothold(state, 0, outside[2], avoid=(port,))
    assert refused(state, 0, build(outside[2], port)) == "city-full"
    state["rail"]["track"].pop(MAP.edge_key(MAP.index[outside[1]], MAP.index[port]))
    apply(state, 0, build(outside[2], port))  # with one other player in, a second may come


def test_at_most_three_own_sections_into_a_gate():
    state = build_turn()
    around = neighbours(NORTH_GATE)
    for n in around[:3]:
        lay(state, 0, n, NORTH_GATE)
    foothold(state, 0, around[3], avoid=(NORTH_GATE,))
    assert refused(state, 0, build(around[3], NORTH_GATE)) == "city-sections"
    assert refused(state, 0, build(NORTH_GATE, around[4])) == "city-sections"
    state["rail"]["track"].pop(MAP.edge_key(MAP.index[around[0]], MAP.index[NORTH_GATE]))
    apply(state, 0, build(around[3], NORTH_GATE))


def test_the_twenty_gold_is_shared_by_hiring_upgrading_and_building():
    state = normal_turn()
    give_foreman(state, 0, "dwarf")  # plain 1, jungle 3, alpine 5
    mine = state["players"][0]["foreman"]
    pairs = [pair_away("alpine"), pair_away("jungle"), pair_away("alpine", 1), pair_away("plain"),
             pair_away("plain", 1)]
    for a, b in pairs:
        foothold(state, 0, a, avoid=(b,))
    apply(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"})
    apply(state, 0, {"cmd": "keep-foreman", "foreman": mine})
    apply(state, 0, {"cmd": "upgrade", "loco": "swiftwick"})
    assert (state["turn"]["spent"], gold(state)[0], ENGINE.budget_left(state, 0)) == (11, 49, 9)
    apply(state, 0, build(*pairs[0]))
    apply(state, 0, build(*pairs[1]))
    assert (state["turn"]["spent"], ENGINE.budget_left(state, 0)) == (19, 1)
    assert refused(state, 0, build(*pairs[2])) == "over-budget"
    apply(state, 0, build(*pairs[3]))
    assert (state["turn"]["spent"], gold(state)[0], ENGINE.budget_left(state, 0)) == (20, 40, 0)
    assert refused(state, 0, build(*pairs[4])) == "over-budget"
    assert refused(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"}) == "over-budget"


def test_no_loans_the_budget_is_also_the_gold_held():
    state = build_turn()
    give_foreman(state, 0, "dwarf")
    state["players"][0]["gold"] = 3
    assert refused(state, 0, build(*pair_from_major("alpine"))) == "over-budget"
    apply(state, 0, build(*pair_from_major("jungle")))
    assert gold(state)[0] == 0


# upgrades: (from, to, nothing spent before?, result: cost or error code)
UPGRADES = [
    ("kettle-crawler", "swiftwick", False, 10),
    ("kettle-crawler", "oxhorn-hauler", False, 10),
    ("kettle-crawler", "gale-runner", False, 20),
    ("kettle-crawler", "boulderback", True, "already-spent"),
    ("kettle-crawler", "swiftwick", True, 10),
    ("kettle-crawler", "thunderhide", False, "too-many-levels"),
    ("swiftwick", "oxhorn-hauler", False, "no-such-upgrade"),
    ("thunderhide", "runeforged-colossus", False, 10),
    ("boulderback", "runeforged-colossus", False, 20),
]


@pytest.mark.parametrize(("old", "to", "spent_first", "result"), UPGRADES)
def test_upgrades(old, to, spent_first, result):
    state = normal_turn()
    give_foreman(state, 0, "dwarf")
    state["players"][0]["loco"] = old
    if spent_first:
        apply(state, 0, build(*pair_from_major("plain")))
    before = gold(state)[0]
    if isinstance(result, str):
        assert refused(state, 0, {"cmd": "upgrade", "loco": to}) == result
        return
    supply = dict(state["locos"])
    apply(state, 0, {"cmd": "upgrade", "loco": to})
    assert before - gold(state)[0] == result
    assert state["players"][0]["loco"] == to
    assert state["locos"][to] == supply[to] - 1
    level = data.locos()[old]["level"]
    assert state["locos"][old] == supply[old] + (1 if 2 <= level <= 4 else 0)


def test_one_upgrade_a_turn_and_none_when_no_card_is_left():
    state = normal_turn()
    apply(state, 0, {"cmd": "upgrade", "loco": "swiftwick"})
    assert refused(state, 0, {"cmd": "upgrade", "loco": "gale-runner"}) == "already-upgraded"
    state = normal_turn()
    state["locos"]["swiftwick"] = 0
    assert refused(state, 0, {"cmd": "upgrade", "loco": "swiftwick"}) == "none-left"
    state["effects"].append({"card": "foundry-fires-out", "kind": "no-upgrade", "params": {}, "status": "active",
                             "duration": "next-turn-end", "drawn_by": 1, "ends": {"seat": 1, "turn": 9}})
    assert refused(state, 0, {"cmd": "upgrade", "loco": "oxhorn-hauler"}) == "no-upgrade"


def test_the_start_supply_of_locos():
    state = seated_game(4)
    assert state["locos"] == {"kettle-crawler": 2, "oxhorn-hauler": 3, "swiftwick": 3, "boulderback": 3,
                              "gale-runner": 3, "thunderhide": 3, "starling-comet": 3, "runeforged-colossus": 6}


def test_in_the_build_rounds_an_upgrade_replaces_building():
    state = build_turn()
    give_foreman(state, 0, "dwarf")
    apply(state, 0, {"cmd": "upgrade", "loco": "swiftwick"})
    assert refused(state, 0, build(*pair_from_major("plain"))) == "upgraded-instead"
    end_turn(state)
    give_foreman(state, 1, "dwarf")
    apply(state, 1, build(*pair_from_major("plain", 1)))
    assert refused(state, 1, {"cmd": "upgrade", "loco": "swiftwick"}) == "already-spent"


# hiring


def test_hire_by_drawing_keeps_one_of_the_two():
    state = normal_turn()
    mine = state["players"][0]["foreman"]
    deck = list(state["foreman_deck"])
    apply(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"})
    assert state["hire"] == {"seat": 0, "drawn": deck[-1], "source": "deck"} and gold(state)[0] == 59
    assert refused(state, 0, build(*pair_from_major("plain"))) == "choose-foreman"
    assert refused(state, 0, {"cmd": "end-turn"}) == "choose-foreman"
    assert refused(state, 0, {"cmd": "keep-foreman", "foreman": deck[0]}) == "not-offered"
    apply(state, 0, {"cmd": "keep-foreman", "foreman": deck[-1]})
    assert state["players"][0]["foreman"] == deck[-1]
    assert state["foreman_discards"] == [mine] and state["foreman_deck"] == deck[:-1]
    # from the discard pile, keeping the one held
    apply(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "discard"})
    apply(state, 0, {"cmd": "keep-foreman", "foreman": deck[-1]})
    assert state["players"][0]["foreman"] == deck[-1] and state["foreman_discards"] == [mine]
    assert gold(state)[0] == 58 and state["stage"] == "build"


def test_hire_by_choosing_costs_5_and_reshuffles_the_deck():
    state = normal_turn()
    mine = state["players"][0]["foreman"]
    deck = list(state["foreman_deck"])
    want = deck[0]
    apply(state, 0, {"cmd": "hire-foreman", "mode": "choose", "foreman": want})
    assert state["players"][0]["foreman"] == want and gold(state)[0] == 55
    assert state["foreman_discards"] == [mine]
    assert sorted(state["foreman_deck"]) == sorted(deck[1:])
    held = {p["foreman"] for p in state["players"]}
    assert sorted(held | set(state["foreman_deck"]) | set(state["foreman_discards"])) == sorted(data.foremen())
    assert refused(state, 0, {"cmd": "hire-foreman", "mode": "choose", "foreman": state["players"][1]["foreman"]}) \
        == "not-available"
    assert refused(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "discard", "foreman": mine}) \
        == "bad-hire"


def test_no_hiring_while_the_guild_seals_its_ledger():
    state = normal_turn()
    state["effects"].append({"card": "guild-ledger-sealed", "kind": "no-foreman-change", "params": {},
                             "status": "active", "duration": "next-turn-end", "drawn_by": 1,
                             "ends": {"seat": 1, "turn": 9}})
    assert refused(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"}) == "no-foreman-change"


def test_build_plan_prices_with_the_foreman_and_the_bribe():
    state = build_turn()
    give_foreman(state, 0, "catfolk")
    a, b = pair_from_major("jungle")
    plan = ENGINE.plan(state, seat=0, request={"plan": "build", "points": [a, b]})
    assert plan["cost"] == 1 and plan["affordable"]
    apply(state, 0, plan["command"])
    assert gold(state)[0] == 59
    x, y = _deep_pair()
    foothold(state, 0, x, avoid=(y,))
    plan = ENGINE.plan(state, seat=0, request={"plan": "build", "points": [x, y]})
    assert (plan["costs"], plan["bribe"], plan["cost"]) == ([5], 1, 6)


def test_the_notes_build_track_is_a_one_section_build_priced_and_checked_as_build():
    """The notes' example command: {"cmd": "build-track", "start": [...], "end": [...]}."""
    a, b = pair_from_major("forest")
    notes_way, build_way = build_turn(), build_turn()
    events = apply(notes_way, 0, {"cmd": "build-track", "start": address(a), "end": address(b)})
    assert events == apply(build_way, 0, build(a, b))
    assert notes_way == build_way
    assert events[0]["sections"] == 1 and events[0]["cost"] == 2
    far = pair_away("plain")  # not joined to a major city nor to the builder's track
    assert refused(build_turn(), 0, {"cmd": "build-track", "start": address(far[0]), "end": address(far[1])}) \
        == refused(build_turn(), 0, build(*far))


def _port_pair(city):
    """A port milepost of ``city`` and a plain neighbour off any city or gate, no crossing between them."""
    port = next(MAP.key(i) for i in MAP.cities[city].nodes if raw_node(MAP.key(i)).get("port"))
    start = next(n for n in neighbours(port) if plain_place(n) and not crossings(n, port)
                 and raw_node(n)["terrain"] != "sea")
    return start, port


@pytest.mark.parametrize(("city", "port_price", "kind", "price"), [
    ("amberquay", "published", None, 2),   # a medium port: the published port price
    ("owlbury", "published", None, 2),     # a small one
    ("owlbury", "published", "elf", 2),    # a foreman's terrain price does not apply to a port
    ("amberquay", "city", None, 3),        # the option: its city's price
    ("owlbury", "city", None, 3),
])
def test_a_port_milepost_costs_the_published_2(city, port_price, kind, price):
    state = draft_first(seated_game(2, port_price=port_price))
    give_foreman(state, 0, kind)
    start, port = _port_pair(city)
    foothold(state, 0, start, avoid=(port,))
    assert _cost_of(state, 0, start, port) == price
