"""Generation N-2 in the round someone develops generation N (option ``retired_types``).

The rules: "When the Third, Fourth or Fifth generation of a locomotive type is purchased,
remove all purchased locomotive cards of that type that are two generations older". Its
cards leave the game, so by default nobody develops that type afterwards, not even later in
the same round (before the market phase marks it obsolete)."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, give_card, set_dice


def develop(state, seat, space):
    state["turn"] = state["order"].index(seat)
    return ENGINE.apply(state, seat=seat, command={"cmd": "develop", "space": space})


def round_with_generation_three_developed(**options):
    """Seat 0 develops green generation 3 (space 8); seat 1, next, could afford green 1."""
    state = blank_game(coins=40, **options)
    set_dice(state, 1, existing=[2])
    set_dice(state, 5, existing=[3])
    set_dice(state, 8, initial=6)
    give_card(state, 2, 1)
    develop(state, 0, 8)
    assert state["order"][state["turn"]] == 1 and state["phase"] == "development"
    return state


def test_generation_n_minus_2_cannot_be_developed_after_generation_n_in_the_same_round():
    state = round_with_generation_three_developed()
    assert {"cmd": "develop", "space": 1} not in ENGINE.legal_commands(state, seat=1)
    listed = [e for e in ENGINE.listing(state, seat=1) if e["command"] == {"cmd": "develop", "space": 1}]
    assert listed == []
    assert ENGINE.view(state, seat=None)["spaces"][0]["developable"] is False
    coins = state["players"][1]["coins"]
    with pytest.raises(RulesError) as err:
        develop(state, 1, 1)
    assert err.value.code == "not-developable" and "retired" in err.value.message
    assert state["players"][1]["coins"] == coins and 1 not in state["players"][1]["developed"]
    # Generation 2 of the colour stays developable.
    assert {"cmd": "develop", "space": 5} in ENGINE.legal_commands(state, seat=1)


def test_before_generation_n_is_developed_generation_n_minus_2_is_developable():
    state = blank_game(coins=40)
    set_dice(state, 1, existing=[2])
    set_dice(state, 8, initial=6)
    assert {"cmd": "develop", "space": 1} in ENGINE.legal_commands(state, seat=0)
    develop(state, 0, 1)
    assert state["players"][0]["cards"] == [{"space": 1, "units": 1}]


def test_the_older_reading_is_an_option():
    state = round_with_generation_three_developed(retired_types="developable")
    assert {"cmd": "develop", "space": 1} in ENGINE.legal_commands(state, seat=1)
    develop(state, 1, 1)
    assert {"space": 1, "units": 1} in state["players"][1]["cards"]


def test_a_saved_state_without_the_option_keeps_the_older_reading():
    state = round_with_generation_three_developed()
    del state["options"]["retired_types"]
    develop(state, 1, 1)
    assert {"space": 1, "units": 1} in state["players"][1]["cards"]
