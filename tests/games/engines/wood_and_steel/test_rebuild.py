"""A player whose bankruptcy sold all their track builds again (option ``rebuild_from``):
from one of their active cities (default) or one of their starting cities."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE

from .helpers import clone, started_game

SELLER = 1  # seed 7: seat 1 (Boston-Portland ME) plays first


def sold_out(**options):
    """Seat 1 delivered to Syracuse once, then went bankrupt and sold all its track; nobody
    bought it at auction. It is still seat 1's turn."""
    state = started_game(3, **options)
    p = state["players"][SELLER]
    p["active_cities"].append("Syracuse")
    p["bankrupt_owed"] = 50_000
    ENGINE.apply(state, seat=SELLER, command={"cmd": "sell-track", "route": "Boston-Portland ME"})
    while state["phase"] == "auction":
        ENGINE.apply(state, seat=ENGINE.active_seats(state)[0], command={"cmd": "pass-bid"})
    assert state["phase"] == "play" and state["current_seat"] == SELLER
    assert p["network"] == [] and p["track"] == {} and p["bankrupt_owed"] == 0
    p["money"] = 20_000
    return state


@pytest.mark.parametrize(
    ("rebuild_from", "route", "code"),
    [
        (None, "Cleveland-Syracuse", None),  # default: from an active city (a city delivered to)
        ("active-cities", "Boston-New York", None),  # a starting city is an active city
        ("active-cities", "Portland ME-Quebec City", None),
        ("active-cities", "Cleveland-Pittsburgh", "not-connected"),
        ("starting-cities", "Boston-New York", None),
        ("starting-cities", "Portland ME-Quebec City", None),
        ("starting-cities", "Cleveland-Syracuse", "not-connected"),
    ],
)
def test_a_player_with_no_track_left_builds_again(rebuild_from, route, code):
    state = sold_out(**({"rebuild_from": rebuild_from} if rebuild_from else {}))
    p = state["players"][SELLER]
    listed = {c["route"] for c in ENGINE.legal_commands(state, seat=SELLER) if c["cmd"] == "build-track"}
    offered = {b["route"] for b in ENGINE.view(state, seat=SELLER)["build_options"]}
    if code is None:
        assert route in listed and route in offered
        ENGINE.apply(state, seat=SELLER, command={"cmd": "build-track", "route": route})
        assert set(ENGINE.board(state).route_cities(route)) <= set(p["network"])
    else:
        assert route not in listed and route not in offered
        with pytest.raises(RulesError) as err:
            ENGINE.apply(clone(state), seat=SELLER, command={"cmd": "build-track", "route": route})
        assert err.value.code == code
        where = "starting" if rebuild_from == "starting-cities" else "active"
        assert f"one of your {where} cities" in err.value.message


def test_a_player_with_track_builds_only_from_their_network():
    state = started_game(3)
    p = state["players"][SELLER]
    p["active_cities"].append("Syracuse")  # e.g. delivered there over a railroad they later sold
    p["money"] = 20_000
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=SELLER, command={"cmd": "build-track", "route": "Cleveland-Syracuse"})
    assert err.value.code == "not-connected" and err.value.message == "Track must start from your network."
    assert "Cleveland-Syracuse" not in {c.get("route") for c in ENGINE.legal_commands(state, seat=SELLER)}


def test_rebuilding_is_an_option_of_two_readings():
    assert ENGINE.normalize_options({})["rebuild_from"] == "active-cities"
    with pytest.raises(RulesError):
        ENGINE.normalize_options({"rebuild_from": "nowhere"})
