"""The bankruptcy auction (issue 18): a lot is exactly what the player sold, the first
bidder chooses the lot, and any bid from the minimum in $1,000 steps up to the bidder's
cash can be made."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel.rules import route_cost, track_cost

from .helpers import clone, snapshot, started_game

SELLER, LEFT, SECOND = 1, 2, 0  # seed 7: seat 1 plays first; seat 2 sits to its left, then seat 0


def bankrupt_seller(state, track, owed):
    """Seat 1 (on turn) owns ``track`` ({route: units of length laid}) and owes ``owed``."""
    assert state["current_seat"] == SELLER
    board = ENGINE.board(state)
    p = state["players"][SELLER]
    for rid, units in track.items():
        p["track"][rid] = units
        route = board.routes[rid]
        paid = route_cost(route["length"], mountainous=route["mountainous"]) if ENGINE._by_route(state) else track_cost(units, mountainous=route["mountainous"])
        p["track_paid"][rid] = paid
    ENGINE._recompute_network(state, p)
    p["bankrupt_owed"] = owed
    return p


def sell(state, *routes):
    for rid in routes:
        ENGINE.apply(state, seat=SELLER, command={"cmd": "sell-track", "route": rid})


def rich(state, *seats, money=50_000):
    for s in seats:
        state["players"][s]["money"] = money


def finish_lot(state):
    """Everyone still in passes until the lot on the block closes."""
    lot = state["auction"]["lot"]
    while state["phase"] == "auction" and state["auction"]["lot"] == lot:
        ENGINE.apply(state, seat=ENGINE.active_seats(state)[0], command={"cmd": "pass-bid"})


# -- a lot is what was sold ---------------------------------------------------------------


@pytest.mark.parametrize(
    "auction_lots, built, bid, winner_units, in_network",
    [
        # a length-4 mountainous route built 1 unit of 4 (a game under the length reading)
        ("as-sold", 1, True, 1, False),  # the winner gets the one unit sold, not the route
        ("as-sold", 4, True, 4, True),  # a whole route stays whole
        ("whole-route", 1, True, 4, True),  # games started before: the whole route (the old defect)
    ],
)
def test_the_winner_gets_exactly_what_was_sold(auction_lots, built, bid, winner_units, in_network):
    state = started_game(3, segment_unit="length", auction_lots=auction_lots)
    rid = "Cleveland-New York"
    bankrupt_seller(state, {rid: built}, owed=1_000)
    price = track_cost(built, mountainous=True)
    sell(state, rid)
    assert state["phase"] == "auction"
    assert state["auction"]["lots"] == [{"route": rid, "segments": built, "price": price}]
    rich(state, LEFT, SECOND)
    ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "route": rid, "amount": price})
    events = ENGINE.apply(state, seat=SECOND, command={"cmd": "pass-bid"})
    sold = next(e for e in events if e["type"] == "lot-sold")
    w = state["players"][LEFT]
    assert (sold["seat"], sold["price"], sold["segments"]) == (LEFT, price, winner_units)
    assert w["track"][rid] == winner_units and w["track_paid"][rid] == price and w["money"] == 50_000 - price
    assert ("Cleveland" in w["network"]) is in_network
    assert state["phase"] == "play"
    if winner_units < 4:  # the winner may finish the route on a later turn, paying the rest
        assert rid not in state["players"][SELLER]["track"]


def test_a_bought_part_of_a_route_can_be_completed_by_its_new_owner():
    state = started_game(3, segment_unit="length")
    rid = "Cleveland-New York"
    bankrupt_seller(state, {rid: 2}, owed=1_000)
    sell(state, rid)
    rich(state, LEFT, SECOND)
    ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "amount": track_cost(2, mountainous=True)})
    ENGINE.apply(state, seat=SECOND, command={"cmd": "pass-bid"})
    w = state["players"][LEFT]
    state["current_seat"] = LEFT
    builds = [c for c in ENGINE.legal_commands(state, seat=LEFT) if c["cmd"] == "build-track" and c["route"] == rid]
    assert {c["segments"] for c in builds} == {1, 2}  # the two units left, no network needed
    ENGINE.apply(state, seat=LEFT, command={"cmd": "build-track", "route": rid, "segments": 2})
    assert w["track"][rid] == 4 and {"Cleveland", "New York"} <= set(w["network"])


@pytest.mark.parametrize(
    "auction_lots, built, indie_routes, joins",
    [
        ("as-sold", 4, [["Cleveland-Pittsburgh"]], 0),  # a whole route joins an independent reaching it
        ("as-sold", 1, [["Cleveland-Pittsburgh"]], None),  # part of a route reaches no second city: it leaves the board
        ("as-sold", 4, [["Cleveland-New York"], ["Cleveland-Pittsburgh"]], 1),  # never an independent already on the route
        ("as-sold", 4, [["Atlanta-Birmingham"]], None),  # no independent connected: it leaves the board
        ("whole-route", 1, [["Cleveland-Pittsburgh"]], 0),  # games started before: as they were played
    ],
)
def test_an_unsold_lot_joins_a_connected_independent_or_leaves_the_board(auction_lots, built, indie_routes, joins):
    state = started_game(3, segment_unit="length", auction_lots=auction_lots)
    state["railroads"] = [
        {"id": i + 1, "name": f"Indie {i + 1}", "routes": [{"route": r, "round": 0} for r in routes], "acquired_by": None, "acquired_round": None}
        for i, routes in enumerate(indie_routes)
    ]
    rid = "Cleveland-New York"
    bankrupt_seller(state, {rid: built}, owed=1_000)
    sell(state, rid)
    rich(state, LEFT, SECOND)
    events = []
    while state["phase"] == "auction":
        events += ENGINE.apply(state, seat=ENGINE.active_seats(state)[0], command={"cmd": "pass-bid"})
    unsold = next(e for e in events if e["type"] == "lot-unsold")
    holders = [i for i, r in enumerate(state["railroads"]) if rid in [x["route"] for x in r["routes"]]]
    if joins is None:
        assert unsold["railroad"] is None
        assert holders == [i for i, routes in enumerate(indie_routes) if rid in routes]
    else:
        assert unsold["railroad"] == joins + 1
        assert joins in holders
        assert [x["route"] for x in state["railroads"][joins]["routes"]].count(rid) == 1


# -- the first bidder chooses the lot ----------------------------------------------------------


def two_lot_auction(**options):
    state = started_game(3, **options)
    bankrupt_seller(state, {"Boston-New York": 2, "Boston-Syracuse": 2}, owed=6_000)
    sell(state, "Boston-New York", "Boston-Syracuse")
    assert state["phase"] == "auction"
    return state


def test_the_opener_chooses_any_lot_and_each_next_lot_opens_one_seat_further_left():
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    assert ENGINE.active_seats(state) == [LEFT]
    view = ENGINE.view(state, seat=LEFT)["auction"]
    assert view["choosing"] and view["lot"] is None
    assert [(x["route"], x["minimum"], x["blocked"]) for x in view["lots"]] == [("Boston-New York", 3_000, None), ("Boston-Syracuse", 3_000, None)]
    assert ENGINE.view(state, seat=SECOND)["auction"]["lots"][0]["blocked"] == "It is not your bid."
    assert ENGINE.legal_commands(state, seat=LEFT) == [
        {"cmd": "pass-bid", "route": "Boston-New York"},
        {"cmd": "pass-bid", "route": "Boston-Syracuse"},
        {"cmd": "bid", "route": "Boston-New York", "amount": 3_000},
        {"cmd": "bid", "route": "Boston-Syracuse", "amount": 3_000},
    ]
    span = {"arg": "amount", "min": 3_000, "max": 50_000, "step": 1_000}
    assert ENGINE.view(state, seat=LEFT)["listing"] == [
        {"command": {"cmd": "bid", "route": "Boston-New York", "amount": 3_000}, "price": 3_000, "reason": None, "range": span},
        {"command": {"cmd": "bid", "route": "Boston-Syracuse", "amount": 3_000}, "price": 3_000, "reason": None, "range": span},
    ]
    assert [e["reason"]["code"] for e in ENGINE.listing(state, seat=SECOND)] == ["not-your-turn", "not-your-turn"]
    # the opener picks the second piece sold, above the minimum
    events = ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "route": "Boston-Syracuse", "amount": 5_000})
    assert [e["type"] for e in events] == ["lot-chosen", "bid"] and events[0]["route"] == "Boston-Syracuse"
    view = ENGINE.view(state, seat=SECOND)["auction"]
    assert not view["choosing"] and view["lot"]["route"] == "Boston-Syracuse"
    assert [(x["route"], x["minimum"], x["blocked"]) for x in view["lots"]] == [("Boston-Syracuse", 6_000, None)]
    with pytest.raises(RulesError) as err:
        ENGINE.apply(clone(state), seat=SECOND, command={"cmd": "bid", "route": "Boston-New York", "amount": 6_000})
    assert err.value.code == "lot-on-block"
    ENGINE.apply(state, seat=SECOND, command={"cmd": "pass-bid"})
    assert "Boston-Syracuse" in state["players"][LEFT]["track"]
    # the second piece's auction starts with the second player to the left; one lot left
    assert state["phase"] == "auction" and ENGINE.active_seats(state) == [SECOND]
    assert [c.get("route") for c in ENGINE.legal_commands(state, seat=SECOND) if c["cmd"] == "bid"] == ["Boston-New York"]


def test_the_opener_may_choose_a_lot_and_pass_and_the_others_bid_on_it():
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    events = ENGINE.apply(state, seat=LEFT, command={"cmd": "pass-bid", "route": "Boston-Syracuse"})
    assert [e["type"] for e in events] == ["lot-chosen", "bid-passed"]
    assert ENGINE.active_seats(state) == [SECOND]
    assert [c for c in ENGINE.legal_commands(state, seat=SECOND) if c["cmd"] == "bid"] == [{"cmd": "bid", "route": "Boston-Syracuse", "amount": 3_000}]
    assert [(e["command"]["route"], e["range"]["max"]) for e in ENGINE.listing(state, seat=SECOND)] == [("Boston-Syracuse", 50_000)]
    ENGINE.apply(state, seat=SECOND, command={"cmd": "bid", "amount": 3_000})  # the lot on the block: no route needed
    assert "Boston-Syracuse" in state["players"][SECOND]["track"]


def test_a_bid_or_pass_without_a_route_takes_the_first_lot_sold_as_before():
    """Commands logged before the choice existed replay as they were played."""
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "amount": 3_000})
    assert state["auction"]["lots"][0]["route"] == "Boston-New York" and state["auction"]["high_bidder"] == LEFT


@pytest.mark.parametrize("route", ["Boston-Chicago", "Albany-Boston", "Seattle-Vancouver", 5])
def test_choosing_a_lot_that_is_not_for_sale_is_refused(route):
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    before = snapshot(state)
    for cmd in ({"cmd": "bid", "route": route, "amount": 3_000}, {"cmd": "pass-bid", "route": route}):
        with pytest.raises(RulesError) as err:
            ENGINE.apply(state, seat=LEFT, command=cmd)
        assert err.value.code == "no-such-lot" and snapshot(state) == before


# -- bids in $1,000 steps from the minimum up to the bidder's cash ---------------------------------


@pytest.mark.parametrize(
    "money, amount, code",
    [
        (20_000, 3_000, None),  # the minimum: the sale price
        (20_000, 4_000, None),
        (20_000, 17_000, None),
        (20_000, 20_000, None),  # all the bidder's cash
        (20_000, 2_000, "bid-too-low"),
        (20_000, 3_500, "bad-amount"),  # $1,000 steps
        (20_000, 21_000, "not-enough-money"),
        (20_000, "3000", "bad-amount"),
        (20_000, True, "bad-amount"),
        (2_000, 3_000, "not-enough-money"),  # cannot cover the minimum: only a pass
    ],
)
def test_bid_amounts(money, amount, code):
    state = two_lot_auction()
    rich(state, LEFT, money=money)
    before = snapshot(state)
    command = {"cmd": "bid", "route": "Boston-New York", "amount": amount}
    if code is None:
        ENGINE.apply(state, seat=LEFT, command=command)
        assert state["auction"]["high"] == amount
    else:
        with pytest.raises(RulesError) as err:
            ENGINE.apply(state, seat=LEFT, command=command)
        assert err.value.code == code and snapshot(state) == before


@pytest.mark.parametrize("money, listed_max", [(50_000, 50_000), (10_500, 10_000), (3_999, 3_000), (2_999, None)])
def test_the_listing_carries_the_bid_range(money, listed_max):
    state = two_lot_auction()
    rich(state, LEFT, money=money)
    entries = ENGINE.listing(state, seat=LEFT)
    legal_bids = [c for c in ENGINE.legal_commands(state, seat=LEFT) if c["cmd"] == "bid"]
    assert legal_bids == [e["command"] for e in entries if e["reason"] is None]
    if listed_max is None:
        assert legal_bids == []
        message = "The lowest bid is $3,000; you have $2,999."
        assert ENGINE.view(state, seat=LEFT)["auction"]["lots"][0]["blocked"] == message
        assert {(e["reason"]["code"], e["reason"]["message"], e["range"]) for e in entries} == {("not-enough-money", message, None)}
        with pytest.raises(RulesError) as err:
            ENGINE.apply(clone(state), seat=LEFT, command=entries[0]["command"])
        assert (err.value.code, err.value.message) == ("not-enough-money", message)
        return
    assert {e["range"]["max"] for e in entries} == {listed_max}
    for e in entries:  # every amount of the range is accepted
        span = e["range"]
        assert span["arg"] == "amount" and span["min"] == e["command"]["amount"] == e["price"]
        for amount in range(span["min"], span["max"] + 1, span["step"]):
            ENGINE.apply(clone(state), seat=LEFT, command=dict(e["command"], amount=amount))


def test_raises_start_a_thousand_above_the_high_bid():
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "route": "Boston-New York", "amount": 7_000})
    bid = ENGINE.listing(state, seat=SECOND)[0]
    assert (bid["command"]["amount"], bid["range"]["min"], bid["range"]["max"]) == (8_000, 8_000, 50_000)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(clone(state), seat=SECOND, command={"cmd": "bid", "amount": 7_000})
    assert err.value.code == "bid-too-low"
    ENGINE.apply(state, seat=SECOND, command={"cmd": "bid", "amount": 12_000})
    assert ENGINE.active_seats(state) == [LEFT]
    ENGINE.apply(state, seat=LEFT, command={"cmd": "pass-bid"})
    assert state["players"][SECOND]["money"] == 50_000 - 12_000 and "Boston-New York" in state["players"][SECOND]["track"]


def test_a_player_with_track_on_the_route_may_not_bid_for_it():
    state = two_lot_auction()
    rich(state, LEFT, SECOND)
    state["players"][LEFT]["track"]["Boston-New York"] = 2  # a parallel track of their own
    bids = [c["route"] for c in ENGINE.legal_commands(state, seat=LEFT) if c["cmd"] == "bid"]
    assert bids == ["Boston-Syracuse"]
    lots = ENGINE.view(state, seat=LEFT)["auction"]["lots"]
    assert lots[0]["blocked"] == "You already have track on that route."
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=LEFT, command={"cmd": "bid", "route": "Boston-New York", "amount": 3_000})
    assert err.value.code == "has-track"
    finish_lot(state)  # they may still choose it and pass
