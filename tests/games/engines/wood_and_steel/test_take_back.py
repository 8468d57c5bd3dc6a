"""What Wood and Steel's take-back relies on (games/takeback.py, README "Take back"): every action
that draws something hidden marks an event "random", and an action that draws nothing marks none,
so a player can take back a build or a delivery that refilled nothing, never one that dealt cards."""

from games.engines.wood_and_steel import ENGINE

from .helpers import started_game
from .test_engine import give_contract, give_track


def drew(events):
    return any(e.get("random") for e in events)


def test_the_engine_offers_take_back():
    assert ENGINE.takes_back and "take-back" in [spec.name for spec in ENGINE.command_specs()]


def test_a_build_a_loan_and_a_turn_that_passes_on_draw_nothing():
    state = started_game(3)
    seat = state["current_seat"]
    build = next(c for c in ENGINE.legal_commands(state, seat=seat) if c["cmd"] == "build-track")
    assert not drew(ENGINE.apply(state, seat=seat, command=build))
    assert not drew(ENGINE.apply(state, seat=seat, command={"cmd": "borrow", "amount": 5000}))
    assert not drew(ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"}))
    assert state["current_seat"] != seat  # the next player has not acted yet


def test_a_market_delivery_that_refills_nothing_draws_nothing():
    state = started_game(2)
    seat = state["current_seat"]
    give_track(state, seat, "Boston-New York", "Boston-Syracuse")
    c = give_contract(state, seat, "machinery", "New York", ctype="market")
    state["options"]["market_size"] = ENGINE._open_market_count(state)  # a full market: no replacement is dealt
    assert not ENGINE._market_refill(state)
    events = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert events[0]["type"] == "contract-fulfilled" and not drew(events)


def test_a_private_delivery_deals_new_offers_and_says_it_drew():
    state = started_game(2)
    seat = state["current_seat"]
    give_track(state, seat, "Boston-New York", "Boston-Syracuse")
    c = give_contract(state, seat, "machinery", "New York")
    events = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert any(e["type"] == "offers-dealt" for e in events) and drew(events)


def test_discarding_a_private_contract_draws():
    state = started_game(2)
    seat = state["current_seat"]
    assert drew(ENGINE.apply(state, seat=seat, command={"cmd": "discard-private-contract"}))


def test_the_end_of_a_round_grows_the_railroads_and_says_it_drew():
    state = started_game(2)
    events = []
    while state["round"] == 1:
        events = ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    assert any(e["type"] in ("railroad-grew", "railroads-unchanged") for e in events) and drew(events)
