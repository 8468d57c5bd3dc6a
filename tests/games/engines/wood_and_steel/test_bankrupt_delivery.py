"""Issue 18 part 2: "If a player has gone bankrupt fulfilling a contract, they earn no
railroad ties" — none from that delivery, breadth, depth and the West Coast bonus included,
and a bankrupt West Coast delivery leaves the game's first +3 to the next one. Games
started before issue 18 (``segment_unit='length'``) replay as they were played."""

from __future__ import annotations

import pytest

from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel import scoring as S

from .helpers import started_game


def _deliver(state, seat, commodity, destination, *, bankrupt):
    p = state["players"][seat]
    c = ENGINE._new_contract(state, ctype="private", commodity=commodity, destination=destination, holder=seat, status="held", reason="test")
    if p["private"] is not None:
        ENGINE._contract(state, p["private"])["status"] = "discarded"
    p["private"] = c["id"]
    p["offers"] = []
    p["turn_actions"] = []
    if bankrupt:
        p["debt"], p["money"], p["western_started"] = 500_000, 0, True
    return ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})


def _breadth_depth(p):
    lines = {x["source"]: x["ties"] for x in S.tie_breakdown(p)}
    return lines.get("breadth", 0), lines.get("depth", 0)


CASES = [
    # segment_unit, earlier deliveries, commodity, destination, deliveries after, West Coast used
    ("route", {}, "grain", "Denver", {}, False),
    ("route", {"grain": 1}, "grain", "Denver", {"grain": 1}, False),  # no depth from it
    ("route", {"coal": 2}, "grain", "Denver", {"coal": 2}, False),  # no breadth from it
    ("route", {}, "wine", "Seattle", {}, False),  # the game's first +3 stays open
    ("length", {}, "grain", "Denver", {"grain": 1}, False),  # games before issue 18: as played
    ("length", {"grain": 1}, "grain", "Denver", {"grain": 2}, False),
    ("length", {}, "wine", "Seattle", {"wine": 1}, True),
]


@pytest.mark.parametrize(("unit", "before", "commodity", "destination", "after", "west_used"), CASES)
def test_a_bankrupt_delivery_earns_no_ties(unit, before, commodity, destination, after, west_used):
    state = started_game(3, segment_unit=unit, check_network=False)
    seat = state["current_seat"]
    p = state["players"][seat]
    p["deliveries"] = dict(before)
    p["tie_log"].append({"source": "test", "ties": 10, "detail": "", "round": 1})
    ties_before = ENGINE._ties(state, p)
    bd_before = _breadth_depth(p)
    ev = _deliver(state, seat, commodity, destination, bankrupt=True)
    assert any(e["type"] == "bankruptcy" for e in ev) and ev[0]["ties"] == 0
    assert p["deliveries"] == after
    assert state["west_coast_delivered"] is west_used
    assert not any(x["source"] == "west-coast" for x in p["tie_log"])
    if unit == "route":
        assert _breadth_depth(p) == bd_before
        assert ENGINE._ties(state, p) == ties_before - 5
    else:
        assert ENGINE._ties(state, p) == ties_before - 5 + sum(_breadth_depth(p)) - sum(bd_before)


@pytest.mark.parametrize(("unit", "next_bonus"), [("route", 3), ("length", 2)])
def test_the_next_west_coast_delivery_after_a_bankrupt_one(unit, next_bonus):
    state = started_game(3, segment_unit=unit, check_network=False)
    first = state["current_seat"]
    _deliver(state, first, "wine", "Seattle", bankrupt=True)
    other = (first + 1) % 3
    state["current_seat"] = other  # the bankrupt player's sale and auction are not the point here
    q = state["players"][other]
    q["money"] = 50_000
    ev = _deliver(state, other, "wine", "Vancouver", bankrupt=False)
    bonus = [x for x in q["tie_log"] if x["source"] == "west-coast"]
    assert [x["ties"] for x in bonus] == [next_bonus]
    assert ev[0]["ties"] == ENGINE._contract(state, ev[0]["contract"])["ties"] + next_bonus
    assert state["west_coast_delivered"]
