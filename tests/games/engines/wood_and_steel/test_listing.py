"""The priced listing (view["listing"]): every money-spending command a seat could send now,
with the dollars ``apply`` takes for it and, when it cannot be sent now, the reason ``apply``
gives. The phone shows prices from it before anyone pays."""

from __future__ import annotations

import random

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel.rules import route_cost

from .helpers import clone, snapshot, started_game

PRICED = {"build-track", "buy-engine", "buy-upgrade", "acquire-railroad", "repay-debt", "bid"}


def check_listing(state, seat):
    listing = ENGINE.listing(state, seat=seat)
    assert listing == ENGINE.view(state, seat=seat)["listing"]
    legal = ENGINE.legal_commands(state, seat=seat)
    free = [e["command"] for e in listing if e["reason"] is None]
    assert free == [c for c in legal if c["cmd"] in PRICED], "the entries without a reason are the legal money commands"
    p = state["players"][seat]
    before = snapshot(state)
    for e in listing:
        if e["reason"] is not None:
            # A refusal changes nothing: tried on the state itself (no copy of its 46 KiB), then compared.
            with pytest.raises(RulesError) as err:
                ENGINE.apply(state, seat=seat, command=e["command"])
            assert (err.value.code, err.value.message) == (e["reason"]["code"], e["reason"]["message"]), e
            assert snapshot(state) == before, e
            continue
        twin = clone(state)
        if e["command"]["cmd"] == "bid":  # paid when the lot closes
            ENGINE.apply(twin, seat=seat, command=e["command"])
            assert twin["auction"] is None or twin["auction"]["high"] == e["price"] or twin["auction"]["high_bidder"] is None
        else:
            ENGINE.apply(twin, seat=seat, command=e["command"])
            assert p["money"] - twin["players"][seat]["money"] == e["price"], e
    return listing


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_listed_price_is_what_apply_takes_and_every_reason_what_it_says(seed):
    state = started_game(3, seed=seed)
    rng = random.Random(seed)
    seen = set()
    for step in range(400):
        if state["finished"]:
            break
        seat = ENGINE.active_seats(state)[0]
        if step % 3 == 0:
            for s in range(3):
                for e in check_listing(state, s):
                    seen.add((e["command"]["cmd"], e["reason"]["code"] if e["reason"] else None))
        ENGINE.apply(state, seat=seat, command=ENGINE.bot_command(state, seat=seat, bot="simple", rng=rng))
    assert {("build-track", None), ("build-track", "not-your-turn"), ("buy-engine", "not-enough-money")} <= seen


@pytest.mark.parametrize(
    ("route", "money", "price", "reason"),
    [
        ("Boston-New York", 20_000, 3_000, None),  # length 2
        ("New York-Syracuse", 20_000, 6_000, None),  # length 2, mountainous
        ("Boston-Syracuse", 20_000, 3_000, None),
        ("New York-Syracuse", 5_000, 6_000, "That track costs $6,000; you have $5,000."),
    ],
)
def test_a_build_is_listed_with_its_table_price_before_paying(route, money, price, reason):
    state = started_game(3)
    seat = state["current_seat"]  # seat 1: Boston-Portland ME
    state["players"][seat]["track"]["New York-Philadelphia"] = 1  # reach New York too (seat 2 runs it in parallel)
    ENGINE._recompute_network(state, state["players"][seat])
    state["players"][seat]["money"] = money
    entry = next(e for e in ENGINE.view(state, seat=seat)["listing"] if e["command"] == {"cmd": "build-track", "route": route})
    board = ENGINE.board(state)
    r = board.routes[route]
    assert entry["price"] == price == route_cost(r["length"], mountainous=r["mountainous"])
    assert (entry["reason"] or {}).get("message") == reason
    check_listing(state, seat)


def test_builds_are_listed_with_why_not_once_the_turn_allows_no_more():
    state = started_game(3)
    seat = state["current_seat"]
    state["players"][seat]["money"] = 50_000
    for rid in ("Boston-New York", "Boston-Syracuse"):
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": rid})
    builds = [e for e in ENGINE.listing(state, seat=seat) if e["command"]["cmd"] == "build-track"]
    assert builds and {e["reason"]["code"] for e in builds} == {"too-many-segments"}
    other = (seat + 1) % 3
    assert {e["reason"]["code"] for e in ENGINE.listing(state, seat=other)} == {"not-your-turn"}
    ENGINE.apply(state, seat=seat, command={"cmd": "borrow", "amount": 5_000})
    engines = [e for e in ENGINE.listing(state, seat=seat) if e["command"]["cmd"] == "buy-engine"]
    assert engines and {e["reason"]["code"] for e in engines} == {"no-actions-left"}
    check_listing(state, seat)


def test_spectators_and_setup_get_no_listing():
    state = started_game(3)
    assert ENGINE.listing(state, seat=None) == [] and ENGINE.view(state, seat=None)["listing"] == []
    fresh = ENGINE.setup(players=["A", "B"], options=ENGINE.normalize_options({}), seed=1)
    assert ENGINE.listing(fresh, seat=0) == []
