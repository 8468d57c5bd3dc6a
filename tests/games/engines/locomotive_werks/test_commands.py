"""Command shapes, turns and the error codes."""

import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, give_card, new_game, set_dice, snapshot, to_capacity


def refuse(state, seat, command):
    before = snapshot(state)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command=command)
    assert state == before
    return err.value.code


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("pass", "invalid-command"),
        (None, "invalid-command"),
        (["pass"], "invalid-command"),
        ({}, "invalid-command"),
        ({"cmd": 3}, "invalid-command"),
        ({"cmd": "build"}, "unknown-command"),
        ({"cmd": "Pass"}, "unknown-command"),
        ({"cmd": "pass", "space": 1}, "invalid-command"),
        ({"cmd": "develop"}, "invalid-command"),
        ({"cmd": "develop", "space": "1"}, "invalid-command"),
        ({"cmd": "develop", "space": 1.0}, "invalid-command"),
        ({"cmd": "develop", "space": True}, "invalid-command"),
        ({"cmd": "develop", "space": 0}, "invalid-command"),
        ({"cmd": "develop", "space": 15}, "invalid-command"),
        ({"cmd": "develop", "space": None}, "invalid-command"),
        ({"cmd": "develop", "spot": 1}, "invalid-command"),
        ({"cmd": "develop", "space": 1, "count": 1}, "invalid-command"),
        ({"cmd": "buy-units", "space": 1}, "invalid-command"),
        ({"cmd": "buy-units", "space": 1, "count": 0}, "invalid-command"),
        ({"cmd": "buy-units", "space": 1, "count": -2}, "invalid-command"),
        ({"cmd": "buy-units", "space": 1, "count": 1000}, "invalid-command"),
        ({"cmd": "shift-units", "from": 1, "to": 5}, "invalid-command"),
        ({"cmd": "shift-units", "from": 1, "to": 99, "count": 1}, "invalid-command"),
        ({"cmd": "shift-units", "from": [1], "to": 5, "count": 1}, "invalid-command"),
    ],
)
def test_malformed_commands(command, code):
    state = new_game()
    seat = ENGINE.active_seats(state)[0]
    assert refuse(state, seat, command) == code


@pytest.mark.parametrize("seat", [None, -1, 3, "0", 1.0])
def test_not_your_turn_for_odd_seats(seat):
    state = blank_game()
    assert refuse(state, seat, {"cmd": "pass"}) == "not-your-turn"


def test_not_your_turn_for_another_player():
    state = blank_game()
    state["order"] = [2, 0, 1]
    assert refuse(state, 0, {"cmd": "pass"}) == "not-your-turn"
    ENGINE.apply(state, seat=2, command={"cmd": "pass"})
    assert refuse(state, 2, {"cmd": "pass"}) == "not-your-turn"
    ENGINE.apply(state, seat=0, command={"cmd": "pass"})


def test_game_finished():
    state = blank_game(coins=400)
    to_capacity(state)
    for seat in range(3):
        ENGINE.apply(state, seat=seat, command={"cmd": "pass"})
    assert state["finished"]
    assert refuse(state, 0, {"cmd": "pass"}) == "game-finished"
    assert ENGINE.legal_commands(state, seat=0) == []


@pytest.mark.parametrize(
    ("phase", "command", "code"),
    [
        ("development", {"cmd": "develop", "space": 4}, "not-developable"),
        ("development", {"cmd": "develop", "space": 1}, "already-developed"),
        ("development", {"cmd": "develop", "space": 2}, "no-cards-left"),
        ("development", {"cmd": "develop", "space": 5}, "cannot-afford"),
        ("development", {"cmd": "buy-units", "space": 1, "count": 1}, "wrong-phase"),
        ("development", {"cmd": "shift-units", "from": 1, "to": 5, "count": 1}, "wrong-phase"),
        ("capacity", {"cmd": "develop", "space": 5}, "wrong-phase"),
        ("capacity", {"cmd": "buy-units", "space": 4, "count": 1}, "card-not-owned"),
        ("capacity", {"cmd": "buy-units", "space": 1, "count": 10}, "cannot-afford"),
        ("capacity", {"cmd": "shift-units", "from": 1, "to": 4, "count": 1}, "card-not-owned"),
        ("capacity", {"cmd": "shift-units", "from": 3, "to": 1, "count": 1}, "not-an-upgrade"),
        ("capacity", {"cmd": "shift-units", "from": 1, "to": 3, "count": 5}, "not-enough-units"),
        ("capacity", {"cmd": "shift-units", "from": 1, "to": 3, "count": 4}, "cannot-afford"),
    ],
)
def test_every_rules_error_code(phase, command, code):
    state = blank_game(coins=15)
    set_dice(state, 1, existing=[3])
    set_dice(state, 2, existing=[3])
    set_dice(state, 5, initial=2)
    give_card(state, 0, 1, units=4)
    give_card(state, 0, 3, units=1)
    state["spaces"][1]["cards_left"] = 0  # red I: all taken
    if phase == "capacity":
        to_capacity(state)
    assert refuse(state, 0, command) == code


def test_pass_moves_the_turn_in_both_phases():
    state = blank_game()
    state["order"] = [1, 2, 0]
    events = ENGINE.apply(state, seat=1, command={"cmd": "pass"})
    assert events == [{"type": "passed", "seat": 1, "phase": "development"}]
    assert ENGINE.active_seats(state) == [2]
    ENGINE.apply(state, seat=2, command={"cmd": "pass"})
    ENGINE.apply(state, seat=0, command={"cmd": "pass"})
    assert state["phase"] == "capacity" and ENGINE.active_seats(state) == [1]
    events = ENGINE.apply(state, seat=1, command={"cmd": "pass"})
    assert events == [{"type": "passed", "seat": 1, "phase": "capacity"}]


def test_legal_commands_are_empty_for_others():
    state = new_game()
    active = ENGINE.active_seats(state)[0]
    for seat in range(3):
        legal = ENGINE.legal_commands(state, seat=seat)
        assert bool(legal) == (seat == active)
