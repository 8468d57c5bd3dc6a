"""The priced listing (view["listing"]): every command a seat could send this phase, with the coins
``apply`` takes for it and, when it cannot be sent now, the reason ``apply`` would give."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import NAMES, blank_game, give_card, new_game, set_dice, snapshot, to_capacity
from .test_properties import OPTIONS


def entry(listing, command):
    found = [e for e in listing if e["command"] == command]
    assert len(found) == 1, command
    return found[0]


def charged(state, seat, command):
    """Apply ``command`` on a copy; return the coins it took from ``seat`` (income and tax of an
    automatic round end, which only the last pass can start, are taken out)."""
    copy = snapshot(state)
    before = copy["players"][seat]["coins"]
    events = ENGINE.apply(copy, seat=seat, command=command)
    after = copy["players"][seat]["coins"]
    automatic = sum(e["income"] for e in events if e["type"] == "sale" and e["seat"] == seat) - sum(
        e["tax"] for e in events if e["type"] == "tax" and e["seat"] == seat
    )
    return before - after + automatic, events


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 5),
    options=OPTIONS,
    play_seed=st.integers(0, 2**32),
    steps=st.integers(1, 250),
)
def test_apply_charges_exactly_the_listed_price(seed, players, options, play_seed, steps):
    """Over random games, for every seat and every listed command: a command without a reason
    is legal and ``apply`` takes exactly its price; one with a reason is refused with that very
    code and message and changes nothing; the entries without a reason are legal_commands."""
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    chooser = random.Random(play_seed)
    checked = 0
    for _ in range(steps):
        if state["finished"]:
            break
        active = ENGINE.active_seats(state)[0]
        for seat in range(players):
            listing = ENGINE.listing(state, seat=seat)
            assert listing == ENGINE.view(state, seat=seat)["listing"]
            assert [e["command"] for e in listing if e["reason"] is None] == ENGINE.legal_commands(
                state, seat=seat
            )
            assert listing[-1]["command"] == {"cmd": "pass"} and listing[-1]["price"] == 0
            for e in listing:
                assert type(e["price"]) is int and e["price"] >= 0
                if e["reason"] is None:
                    assert seat == active
                    cost, events = charged(state, seat, e["command"])
                    assert cost == e["price"], e
                    paid = [
                        ev for ev in events if ev["type"] in ("developed", "units-bought", "units-shifted")
                    ]
                    assert sum(ev["cost"] for ev in paid) == e["price"]
                else:
                    assert e["reason"]["code"] == ("cannot-afford" if seat == active else "not-your-turn")
                    copy = snapshot(state)
                    with pytest.raises(RulesError) as err:
                        ENGINE.apply(copy, seat=seat, command=e["command"])
                    assert (err.value.code, err.value.message) == (
                        e["reason"]["code"],
                        e["reason"]["message"],
                    )
                    assert copy == state
                checked += 1
        legal = ENGINE.legal_commands(state, seat=active)
        ENGINE.apply(
            state, seat=active, command=legal[-1] if chooser.random() < 1 / 3 else chooser.choice(legal)
        )
    assert checked


def test_development_prices_and_reasons():
    state = blank_game(coins=20)
    set_dice(state, 1, existing=[2])
    set_dice(state, 2, initial=4)
    set_dice(state, 5, existing=[3])  # green II, costs 20
    set_dice(state, 6, existing=[1])  # red II, costs 24: more than 20
    give_card(state, 0, 1)  # already developed: not offered
    listing = ENGINE.listing(state, seat=0)
    assert [(e["command"].get("space"), e["price"]) for e in listing] == [(2, 8), (5, 20), (6, 24), (None, 0)]
    assert entry(listing, {"cmd": "develop", "space": 5})["reason"] is None
    assert entry(listing, {"cmd": "develop", "space": 6})["reason"] == {
        "code": "cannot-afford",
        "message": "Developing costs 24 coins; you have 20 coins.",
    }
    # The others see the same offers with their prices, refused because it is not their turn.
    waiting = ENGINE.listing(state, seat=1)
    assert [e["price"] for e in waiting] == [4, 8, 20, 24, 0]
    assert {e["reason"]["code"] for e in waiting} == {"not-your-turn"}


def test_capacity_prices_and_reasons():
    state = blank_game(coins=13)
    give_card(state, 0, 1, units=4)  # green I: production 2
    give_card(state, 0, 3, units=5)  # yellow I: production 6
    to_capacity(state)
    listing = ENGINE.listing(state, seat=0)
    buys = [
        (e["command"]["space"], e["command"]["count"], e["price"], e["reason"] and e["reason"]["code"])
        for e in listing
        if e["command"]["cmd"] == "buy-units"
    ]
    assert buys == [(1, 1, 2, None), (1, 2, 4, None), (3, 1, 6, None)]
    shifts = [e for e in listing if e["command"]["cmd"] == "shift-units"]
    # green I -> yellow I costs 4 a unit; yellow I has room for one unit only.
    assert [(e["command"]["count"], e["price"], e["reason"]) for e in shifts] == [(1, 4, None)]
    state["players"][0]["coins"] = 1
    poor = ENGINE.listing(state, seat=0)
    assert entry(poor, {"cmd": "buy-units", "space": 1, "count": 1})["reason"] == {
        "code": "cannot-afford",
        "message": "These units cost 2 coins; you have 1 coin.",
    }
    assert entry(poor, {"cmd": "shift-units", "from": 1, "to": 3, "count": 1})["reason"]["message"] == (
        "This shift costs 4 coins; you have 1 coin."
    )
    assert ENGINE.legal_commands(state, seat=0) == [{"cmd": "pass"}]


def test_nothing_listed_for_spectators_strangers_or_a_finished_game():
    state = new_game(3)
    assert ENGINE.listing(state, seat=None) == []
    assert ENGINE.view(state, seat=None)["listing"] == []
    assert ENGINE.listing(state, seat=7) == []
    state["finished"] = True
    assert ENGINE.listing(state, seat=state["order"][0]) == []
