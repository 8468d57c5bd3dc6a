"""Issue 18: a segment is one route between two cities.

Building (2 routes a turn, 3 with the Employment Office, each priced from the rules' table
by its length), mergers ($3,000 / $4,000 per route), the hub discount ($1,000 less per
route), connection bonuses, and games started before issue 18 (``segment_unit='length'``).
"""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel import rules as RU
from games.engines.wood_and_steel.railroads import round_half_up

from .helpers import clone, new_game, snapshot, started_game

# The rules' "Build track" table, in thousands: length -> (plain, mountainous, parallel, both)
TABLE = {1: (2, 4, 3, 6), 2: (3, 6, 4, 8), 3: (4, 8, 5, 10), 4: (5, 10, 6, 12), 5: (6, 12, 7, 14)}
COLUMNS = [(False, False), (True, False), (False, True), (True, True)]  # (mountainous, parallel)

# one route of the default board per (length, mountainous)
ROUTE_OF = {
    (1, False): "Chicago-Milwaukee",
    (1, True): "Los Angeles-San Diego",
    (2, False): "Atlanta-Savannah",
    (2, True): "New York-Syracuse",
    (3, False): "Chicago-Cincinnati",
    (3, True): "Boise-Salt Lake City",
    (4, False): "Atlanta-Raleigh",
    (4, True): "Cleveland-New York",
    (5, False): "Denver-Kansas City",
    (5, True): "Bismarck-Butte",
}

CASES = [(length, m, par, hub) for length in TABLE for (m, par) in COLUMNS for hub in (False, True)]


def price(length, mountainous, parallel, hub=False):
    return TABLE[length][COLUMNS.index((mountainous, parallel))] * 1_000 - (1_000 if hub else 0)


@pytest.mark.parametrize(("length", "mountainous", "parallel", "hub"), CASES)
def test_route_cost_is_the_rules_table(length, mountainous, parallel, hub):
    assert RU.route_cost(length, mountainous=mountainous, parallel=parallel, hub=hub) == price(length, mountainous, parallel, hub)


def test_the_issues_examples():
    # a length-3, 4, 5 route: one segment, the table's $4k/$5k/$6k (not $5k/$6k/$8k over 2-3 turns)
    assert [RU.route_cost(n) for n in (3, 4, 5)] == [4_000, 5_000, 6_000]
    assert RU.route_cost(5, mountainous=True) == 12_000
    assert RU.route_cost(5, mountainous=True, parallel=True) == 14_000


@pytest.fixture(scope="module")
def base_state():
    state = started_game(3)
    state["railroads"] = []  # no independent on any route: occupancy is set by each case
    return state


def _setup_build(base_state, length, mountainous, parallel, hub, money):
    state = clone(base_state)
    seat = state["current_seat"]
    p = state["players"][seat]
    board = ENGINE.board(state)
    rid = board.parse_route(ROUTE_OF[(length, mountainous)])
    a, _b = board.route_cities(rid)
    assert board.routes[rid]["length"] == length and board.routes[rid]["mountainous"] == mountainous
    p["network"] = sorted(set(p["network"]) | {a})
    p["money"] = money
    if hub:
        p["hub"] = a
        p["upgrades"].append("hub")
    if parallel:
        other = state["players"][(seat + 1) % 3]
        other["track"][rid] = length
    return state, seat, rid


@pytest.mark.parametrize(("length", "mountainous", "parallel", "hub"), CASES)
def test_engine_charges_the_table_lists_and_shows_it(base_state, length, mountainous, parallel, hub):
    expected = price(length, mountainous, parallel, hub)
    state, seat, rid = _setup_build(base_state, length, mountainous, parallel, hub, money=expected)
    option = next(b for b in ENGINE.view(state, seat=seat)["build_options"] if b["route"] == rid)
    assert (option["cost"], option["parallel"], option["hub"], option["length"]) == (expected, parallel, hub, length)
    assert {"cmd": "build-track", "route": rid} in ENGINE.legal_commands(state, seat=seat)
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": rid})
    p = state["players"][seat]
    assert ev[0]["cost"] == expected and ev[0]["complete"] and ev[0]["segments"] == 1 and ev[0]["parallel"] == parallel
    assert p["money"] == 0 and p["track"][rid] == length and p["turn_segments"] == 1
    assert set(ENGINE.board(state).route_cities(rid)) <= set(p["network"])
    # a dollar short: not listed, refused
    state, seat, rid = _setup_build(base_state, length, mountainous, parallel, hub, money=expected - 1)
    assert not any(c["cmd"] == "build-track" and c["route"] == rid for c in ENGINE.legal_commands(state, seat=seat))
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": rid})
    assert err.value.code == "not-enough-money"


@pytest.mark.parametrize(("employment_office", "allowed"), [(False, 2), (True, 3)])
def test_two_routes_a_turn_three_with_the_employment_office_whatever_their_length(base_state, employment_office, allowed):
    state = clone(base_state)
    seat = state["current_seat"]
    p = state["players"][seat]
    p["network"] = sorted(set(p["network"]) | {"Denver"})
    p["money"] = 100_000
    if employment_office:
        p["upgrades"].append("employment-office")
    assert ENGINE.view(state, seat=seat)["players"][seat]["segment_allowance"] == allowed
    routes = ["Denver-Kansas City", "Denver-Omaha", "Denver-Salt Lake City", "Kansas City-Memphis"]  # lengths 5, 5, 4, 4
    for rid in routes[:allowed]:
        ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": rid})
        assert ev[0]["complete"]
    assert p["turn_segments"] == allowed
    assert not [c for c in ENGINE.legal_commands(state, seat=seat) if c["cmd"] == "build-track"]
    before = snapshot(state)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": routes[allowed]})
    assert err.value.code == "too-many-segments" and snapshot(state) == before


@pytest.mark.parametrize("segments", [0, 2, 5, True, "1"])
def test_a_route_is_one_segment(base_state, segments):
    state, seat, rid = _setup_build(base_state, 5, False, False, False, money=50_000)
    before = snapshot(state)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": rid, "segments": segments})
    assert err.value.code == "bad-segments" and snapshot(state) == before


# -- mergers -----------------------------------------------------------------------------

MERGES = [
    # routes of the independent, West broken?, price
    (["Chicago-Cincinnati"], False, 3_000),
    (["Chicago-Cincinnati"], True, 4_000),
    (["Chicago-Cincinnati", "Cincinnati-Cleveland", "Chicago-Cleveland"], False, 9_000),  # three length-3 routes
    (["Chicago-Cincinnati", "Cincinnati-Cleveland", "Chicago-Cleveland"], True, 12_000),
    (["Atlanta-Raleigh", "Atlanta-Birmingham"], False, 6_000),  # lengths 4 and 1
    (["Atlanta-Raleigh", "Atlanta-Birmingham"], True, 8_000),
]


@pytest.mark.parametrize("price_unit", ["segment", "route"])
@pytest.mark.parametrize(("routes", "west", "expected"), MERGES)
def test_merger_price_per_route(routes, west, expected, price_unit):
    state = started_game(3, railroad_price_unit=price_unit)
    board = ENGINE.board(state)
    seat = state["current_seat"]
    p = state["players"][seat]
    rr = state["railroads"][0]
    rr["routes"] = [{"route": board.parse_route(r), "round": 0} for r in routes]
    state["railroads"] = [rr]
    p["network"] = sorted(set(p["network"]) | {board.route_cities(rr["routes"][0]["route"])[0]})
    if west:
        state["players"][(seat + 1) % 3]["network"].append("Denver")
    view = ENGINE.view(state, seat=seat)
    assert view["western_broken"] == west
    assert view["railroads"][0]["price"] == expected and view["railroads"][0]["segments"] == len(routes)
    p["money"] = expected - 1
    assert {"cmd": "acquire-railroad", "railroad": rr["id"]} not in ENGINE.legal_commands(state, seat=seat)
    p["money"] = expected
    assert {"cmd": "acquire-railroad", "railroad": rr["id"]} in ENGINE.legal_commands(state, seat=seat)
    ENGINE.apply(state, seat=seat, command={"cmd": "acquire-railroad", "railroad": rr["id"]})
    assert p["money"] == 0 and rr["acquired_by"] == seat


@pytest.mark.parametrize(
    ("routes", "length", "segment_unit", "price_unit", "expected"),
    [
        (3, 9, "route", "segment", 9_000),
        (3, 9, "route", "route", 9_000),
        (3, 9, "length", "segment", 27_000),  # games started before issue 18
        (3, 9, "length", "route", 9_000),
    ],
)
def test_merger_price_function(routes, length, segment_unit, price_unit, expected):
    assert RU.merger_price(3_000, routes=routes, length=length, segment_unit=segment_unit, price_unit=price_unit) == expected


# -- income and bonuses ----------------------------------------------------------------


def test_heavy_engine_earns_per_route_of_the_delivery_not_per_unit_of_length():
    state = started_game(3)
    board = ENGINE.board(state)
    seat = state["current_seat"]
    p = state["players"][seat]
    c = ENGINE._new_contract(state, ctype="private", commodity="precious metals", destination="Denver", holder=seat, status="held", reason="test")
    hops = min(board.hop("Denver", x) for x in board.producers["precious metals"])
    segs = min(board.seg("Denver", x) for x in board.producers["precious metals"])
    assert c["hops"] == hops and hops != segs
    assert RU.delivery_income(c["value"], hops=c["hops"], upgraded_stations=False, heavy_engine=True) == c["value"] + 1_000 * hops
    p["engines"] = ["mountain"]
    p["private"] = c["id"]
    p["network"] = sorted(set(p["network"]) | {"Denver", *board.producers["precious metals"]})
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert ev[0]["income"] == c["value"] + 1_000 * hops


@pytest.mark.parametrize(("segment_unit", "coast_segments", "ties_per"), [("route", 6, 2), ("length", 19, 6)])
def test_connection_bonuses_count_routes(segment_unit, coast_segments, ties_per):
    for seed in (1, 2, 3):
        state = new_game(3, seed=seed, segment_unit=segment_unit)
        board = ENGINE.board(state)
        dist = board.hop if segment_unit == "route" else board.seg
        bonuses = state["connection_bonuses"]
        assert bonuses[0]["segments"] == coast_segments and bonuses[0]["ties"] == 3
        for b in bonuses[1:]:
            assert b["segments"] == dist(b["a"][0], b["b"][0])
            assert b["ties"] == max(1, round_half_up(b["segments"], ties_per))
            if segment_unit == "route":
                assert 4 <= b["segments"] <= 8


# -- games started before issue 18 ---------------------------------------------------------


def test_new_games_count_routes_and_say_so():
    state = new_game(3)
    assert state["options"]["segment_unit"] == "route"
    assert ENGINE.view(state, seat=None)["segment_unit"] == "route"
    assert ENGINE.normalize_options({})["segment_unit"] == "route"
    with pytest.raises(RulesError):
        ENGINE.normalize_options({"segment_unit": "furlong"})
    assert "segment_unit" not in {o["name"] for o in ENGINE.describe()["options"]}  # not offered in the lobby


def _legacy_build(state):
    seat = state["current_seat"]
    p = state["players"][seat]
    p["network"] = sorted(set(p["network"]) | {"Denver"})
    p["money"] = 50_000
    return ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Denver-Kansas City", "segments": 2}), p


@pytest.mark.parametrize("how", ["option", "state-without-the-key"])
def test_games_started_before_issue_18_keep_the_length_reading(how):
    if how == "option":
        state = started_game(3, segment_unit="length")
    else:
        state = started_game(3)
        del state["options"]["segment_unit"]  # a state saved before issue 18
    assert ENGINE.view(state, seat=None)["segment_unit"] == "length"
    ev, p = _legacy_build(state)
    # 2 of the 5 units, $3,000, not complete; 2 units is the whole turn's allowance
    assert ev[0]["cost"] == 3_000 and not ev[0]["complete"] and p["track"]["Denver-Kansas City"] == 2
    assert not [c for c in ENGINE.legal_commands(state, seat=p["seat"]) if c["cmd"] == "build-track"]
    rr = state["railroads"][0]
    board = ENGINE.board(state)
    unit = 4_000 if ENGINE._western_broken(state) else 3_000
    assert ENGINE._railroad_price(state, rr) == unit * sum(board.routes[x["route"]]["length"] for x in rr["routes"])
