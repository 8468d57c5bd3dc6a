"""Slipway's views and listing: what each seat and a spectator see (no other seat's contracts, no supply's
order), the listing offered to the active seat only, and every listed command answered by ``apply`` as the
listing says (accepted when legal, refused with the listed code when not), in set scenes and along games."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engines.base import RulesError

from .scenes import (
    ENGINE,
    PLAIN,
    acting,
    game,
    give_goods,
    player,
    set_canals,
    set_money,
    set_stock,
    ship_in_yard,
    take_turn,
)


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def hidden(state: dict[str, Any]) -> set[str]:
    """Ids no view may show now: every supply's tiles (their order is the future) and the unseen contracts."""
    out = set(state["contract_supply"]) | set(state["canal_supply"]) | set(state["goods_supply"])
    out |= set(state["employee_supply"])
    for pile in state["supply"].values():
        out |= set(pile)
    return out


def check_views(state: dict[str, Any]) -> None:
    """No view leaks: another seat's contracts, the supplies, the rng; the listing is the active seat's only."""
    active = ENGINE.active_seats(state)
    secret = hidden(state)
    for viewer in (None, *range(len(state["players"]))):
        view = ENGINE.view(state, seat=viewer)
        text = json.dumps(view)
        assert "rng" not in view and "supply" not in view and "contract_supply" not in text
        shown = _strings(view)
        assert not shown & secret, shown & secret
        for s, p in enumerate(view["players"]):
            if state["finished"] or s == viewer:
                assert p["contracts"] == state["players"][s]["contracts"]
            else:
                assert p["contracts"] is None
                assert not shown & set(state["players"][s]["contracts"])
            assert p["contract_count"] == len(state["players"][s]["contracts"])
        if viewer not in active:
            assert view["listing"] == []


def check_listing(state: dict[str, Any]) -> int:
    """Every listed command of the active seat, applied to a copy: accepted when listed legal, else refused with
    the listed code. Returns how many were checked."""
    checked = 0
    for s in ENGINE.active_seats(state):
        for entry in ENGINE.listing(state, seat=s):
            copied = copy.deepcopy(state)
            try:
                ENGINE.apply(copied, seat=s, command=copy.deepcopy(entry["command"]))
                got = None
            except RulesError as exc:
                got = exc.code
            want = None if entry["reason"] is None else entry["reason"]["code"]
            assert got == want, (entry, got)
            if got is None:
                assert entry["price"] <= state["players"][s]["money"]
            checked += 1
    return checked


# -- views -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_at_the_start(players):
    state = game(players)
    check_views(state)
    view = ENGINE.view(state, seat=0)
    assert view["you"] == 0 and view["active_seat"] == 0 and view["listing"]
    assert view["markets"]["ship_supply"] == {part: len(state["supply"][part]) for part in state["supply"]}
    assert ENGINE.view(state, seat=None)["listing"] == []
    assert all(p["contracts"] is None for p in ENGINE.view(state, seat=None)["players"])


def test_the_contracts_show_once_the_game_is_over():
    state = game(2)
    state["finished"] = True
    state["turn"] = None
    view = ENGINE.view(state, seat=None)
    assert [p["contracts"] for p in view["players"]] == [p["contracts"] for p in state["players"]]
    assert view["listing"] == []


@pytest.mark.parametrize(("option", "viewer", "shown"), [
    ({}, 0, None),  # the spec: the stack is face down, its owner included
    ({}, 1, None),
    ({}, None, None),
    ({"used_canals": "face-down"}, 0, None),
    ({"used_canals": "open"}, 0, ["start", "C06"]),
    ({"used_canals": "open"}, 1, ["start", "C06"]),
    ({"used_canals": "open"}, None, ["start", "C06"]),
])
def test_who_sees_the_stack_of_used_canals(option, viewer, shown):
    state = game(2, **option)
    state["players"][0]["used_canals"] = ["start", "C06"]
    view = ENGINE.view(state, seat=viewer)
    assert view["players"][0]["used_canals"] == 2  # its size is public either way
    assert view["players"][0]["used_canal_tiles"] == shown
    assert view["players"][1]["used_canal_tiles"] == ([] if shown else None)


# -- the listing against apply -----------------------------------------------------------------------------


def _launch():
    state = acting(game(2))
    ship_in_yard(state, 0, PLAIN)
    ship_in_yard(state, 0, ("B02", "M02", "S02"), at=4)
    set_stock(state, 0, captain=2, stoker=1, marine=3, sail=1)
    set_canals(state, 0, [(0, 0, "start", 0), (0, 1, "C06", 0), (0, 2, "C21", 0)])
    player(state)["outfits"]["4"] = ["captain"]
    return state


def _bonus_open():
    state = acting(game(2), "crew", done=True)
    give_goods(state, 0, "G17")
    return state


def _poor():
    state = acting(game(2), "build", done=False)
    set_money(state, 0, 1)
    return state


@pytest.mark.parametrize("scene", [lambda: game(2), lambda: game(4), _launch, _bonus_open, _poor,
                                   lambda: acting(game(3), "employee", done=False),
                                   lambda: acting(game(3), "canal", done=False)])
def test_every_listed_command_is_answered_as_listed(scene):
    state = scene()
    assert check_listing(state) > 0


def test_the_listing_along_games():
    """Random legal play: at every few commands the listing is checked whole and the views for leaks."""
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        state = game(players, seed=seed)
        rnd = random.Random(seed)
        n = 0
        while not state["finished"]:
            s = ENGINE.active_seats(state)[0]
            if n % 9 == 0:
                check_listing(state)
                check_views(state)
            ENGINE.apply(state, seat=s, command=rnd.choice(ENGINE.legal_commands(state, seat=s)))
            n += 1
        check_views(state)


def test_a_seat_not_to_act_is_refused():
    state = game(2)
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=1, command={"cmd": "choose", "action": "crew"})
    assert err.value.code == "not-your-turn" and state == before


def test_the_listing_is_for_the_active_seat_only():
    state = game(3, seed=9)
    assert ENGINE.listing(state, seat=0) and ENGINE.listing(state, seat=1) == []
    take_turn(state, "equipment")
    assert ENGINE.listing(state, seat=0) == [] and ENGINE.listing(state, seat=1)
    assert ENGINE.legal_commands(state, seat=2) == []
