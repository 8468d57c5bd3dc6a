import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, give_card, to_capacity


def buy(state, seat, space, count):
    return ENGINE.apply(state, seat=seat, command={"cmd": "buy-units", "space": space, "count": count})


def shift(state, seat, source, target, count):
    return ENGINE.apply(
        state, seat=seat, command={"cmd": "shift-units", "from": source, "to": target, "count": count}
    )


@pytest.mark.parametrize(
    ("costs", "space", "count", "price"),
    [
        ("fixed", 1, 3, 6),
        ("fixed", 2, 2, 4),  # red I: Production 2 in the rules
        ("fixed", 7, 1, 16),  # yellow II: 16
        ("fixed", 12, 1, 26),  # yellow III: 26
        ("published", 2, 2, 8),  # cost 8 / 2
        ("published", 7, 1, 14),
        ("published", 12, 1, 24),
        ("published", 14, 2, 56),
    ],
)
def test_buying_units(costs, space, count, price):
    state = blank_game(coins=100, production_costs=costs)
    give_card(state, 0, space)
    to_capacity(state)
    events = buy(state, 0, space, count)
    assert events == [{"type": "units-bought", "seat": 0, "space": space, "count": count, "cost": price}]
    assert state["players"][0]["coins"] == 100 - price
    assert state["players"][0]["cards"] == [{"space": space, "units": 1 + count}]
    assert state["turn"] == 0  # several purchases per turn are allowed


def test_buying_all_the_player_can_afford_and_no_more():
    state = blank_game(coins=21)
    give_card(state, 0, 5)
    to_capacity(state)
    with pytest.raises(RulesError) as err:
        buy(state, 0, 5, 3)
    assert err.value.code == "cannot-afford"
    buy(state, 0, 5, 2)
    assert state["players"][0]["coins"] == 1


def test_buying_needs_the_card():
    state = blank_game(coins=50)
    to_capacity(state)
    with pytest.raises(RulesError) as err:
        buy(state, 0, 1, 1)
    assert err.value.code == "card-not-owned"


@pytest.mark.parametrize(
    ("costs", "source", "target", "count", "price"),
    [
        ("fixed", 1, 5, 2, 16),  # 2 x (10 - 2)
        ("fixed", 2, 6, 1, 10),  # 12 - 2
        ("fixed", 1, 3, 2, 8),  # across colours: 2 x (6 - 2)
        ("fixed", 7, 9, 1, 2),  # 18 - 16
        ("published", 2, 6, 1, 8),  # 12 - 4
        ("published", 7, 8, 1, 2),  # 16 - 14
    ],
)
def test_shifting_units_pays_the_difference(costs, source, target, count, price):
    state = blank_game(coins=50, production_costs=costs)
    give_card(state, 0, source, units=3)
    give_card(state, 0, target, units=1)
    to_capacity(state)
    events = shift(state, 0, source, target, count)
    assert events == [
        {"type": "units-shifted", "seat": 0, "from": source, "to": target, "count": count, "cost": price}
    ]
    assert state["players"][0]["coins"] == 50 - price
    units = {c["space"]: c["units"] for c in state["players"][0]["cards"]}
    assert units == {source: 3 - count, target: 1 + count}


@pytest.mark.parametrize(
    ("costs", "rule", "source", "target"),
    [
        ("fixed", "higher-cost", 5, 1),  # downgrade
        ("fixed", "higher-cost", 1, 1),  # same card
        ("fixed", "higher-cost", 1, 2),  # equal production cost (2 and 2): a trade-in
        ("fixed", "higher-cost", 7, 8),  # 16 and 16
        ("fixed", "higher-cost", 12, 13),  # 26 and 26
        ("fixed", "same-colour", 1, 3),  # newer, but another colour
        ("fixed", "same-colour", 5, 1),
    ],
)
def test_shifting_only_upgrades(costs, rule, source, target):
    state = blank_game(coins=50, production_costs=costs, shift_rule=rule)
    give_card(state, 0, source, units=3)
    if target != source:
        give_card(state, 0, target, units=1)
    to_capacity(state)
    with pytest.raises(RulesError) as err:
        shift(state, 0, source, target, 1)
    assert err.value.code == "not-an-upgrade"


def test_same_colour_rule_allows_a_later_generation():
    state = blank_game(coins=50, shift_rule="same-colour")
    give_card(state, 0, 1, units=2)
    give_card(state, 0, 8, units=1)
    to_capacity(state)
    shift(state, 0, 1, 8, 2)
    assert state["players"][0]["coins"] == 50 - 2 * 14


def test_published_costs_make_red_one_an_upgrade_from_green_one():
    state = blank_game(coins=50, production_costs="published")
    give_card(state, 0, 1, units=2)
    give_card(state, 0, 2, units=1)
    to_capacity(state)
    shift(state, 0, 1, 2, 1)
    assert state["players"][0]["coins"] == 48


@pytest.mark.parametrize(
    ("coins", "units", "count", "code"),
    [
        (50, 2, 3, "not-enough-units"),
        (15, 3, 2, "cannot-afford"),  # 2 x 8 = 16
    ],
)
def test_shift_refusals(coins, units, count, code):
    state = blank_game(coins=coins)
    give_card(state, 0, 1, units=units)
    give_card(state, 0, 5, units=1)
    to_capacity(state)
    with pytest.raises(RulesError) as err:
        shift(state, 0, 1, 5, count)
    assert err.value.code == code


def test_shift_needs_both_cards():
    state = blank_game(coins=50)
    give_card(state, 0, 1, units=2)
    to_capacity(state)
    with pytest.raises(RulesError) as err:
        shift(state, 0, 1, 5, 1)
    assert err.value.code == "card-not-owned"


def test_units_only_in_capacity_phase():
    state = blank_game(coins=50)
    give_card(state, 0, 1, units=2)
    give_card(state, 0, 5, units=1)
    for command in (
        {"cmd": "buy-units", "space": 1, "count": 1},
        {"cmd": "shift-units", "from": 1, "to": 5, "count": 1},
    ):
        with pytest.raises(RulesError) as err:
            ENGINE.apply(state, seat=0, command=command)
        assert err.value.code == "wrong-phase"


def test_legal_commands_in_capacity_phase():
    state = blank_game(coins=10)
    give_card(state, 0, 1, units=4)  # production 2: room for 2 more useful units
    give_card(state, 0, 5, units=5)  # production 10: 1 affordable
    to_capacity(state)
    legal = ENGINE.legal_commands(state, seat=0)
    assert legal == [
        {"cmd": "buy-units", "space": 1, "count": 1},
        {"cmd": "buy-units", "space": 1, "count": 2},
        {"cmd": "buy-units", "space": 5, "count": 1},
        {"cmd": "shift-units", "from": 1, "to": 5, "count": 1},  # 8 coins each, room for 1
        {"cmd": "pass"},
    ]
    assert ENGINE.legal_commands(state, seat=1) == []


def test_legal_commands_in_development_phase():
    state = blank_game(coins=12)
    state["spaces"][0]["existing_orders"] = [3]
    state["spaces"][1]["initial_order"] = 4
    state["spaces"][2]["initial_order"] = 4  # affordable: 12
    state["spaces"][3]["existing_orders"] = [1]  # 16: too dear
    assert ENGINE.legal_commands(state, seat=0) == [
        {"cmd": "develop", "space": 1},
        {"cmd": "develop", "space": 2},
        {"cmd": "develop", "space": 3},
        {"cmd": "pass"},
    ]
