import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, give_card, of_type, set_dice, upcoming_rolls


def develop(state, seat, space):
    return ENGINE.apply(state, seat=seat, command={"cmd": "develop", "space": space})


def test_develop_pays_cost_and_gives_a_card_with_one_unit():
    state = blank_game(coins=30)
    set_dice(state, 1, existing=[3, 4])
    events = develop(state, 0, 1)
    assert state["players"][0]["coins"] == 26
    assert state["players"][0]["cards"] == [{"space": 1, "units": 1}]
    assert state["players"][0]["developed"] == [1]
    assert state["spaces"][0]["cards_left"] == 3
    assert events == [{"type": "developed", "seat": 0, "space": 1, "cost": 4, "units": 1}]
    assert state["turn"] == 1  # one development per round: the turn moves on


def test_developing_the_initial_order_moves_the_die_and_unlocks_the_next_space():
    state = blank_game(coins=30)
    set_dice(state, 2, initial=5)
    [die] = upcoming_rolls(state, 1)
    events = develop(state, 0, 2)
    assert state["spaces"][1]["initial_order"] is None
    assert state["spaces"][1]["existing_orders"] == [5]
    assert state["spaces"][2]["initial_order"] == die
    assert events[1:] == [
        {"type": "initial-order-moved", "space": 2, "die": 5},
        {"type": "space-unlocked", "space": 3, "die": die},
    ]
    # The next player may now develop space 3, but space 4 is still locked.
    with pytest.raises(RulesError) as err:
        develop(state, 1, 4)
    assert err.value.code == "not-developable"
    develop(state, 1, 3)
    assert state["spaces"][2]["existing_orders"] == [die]
    assert state["spaces"][3]["initial_order"] is not None


def test_second_buyer_does_not_move_dice():
    state = blank_game(coins=30)
    set_dice(state, 2, existing=[5], initial=None)
    set_dice(state, 3, initial=2)
    rng_before = state["rng"]
    develop(state, 0, 2)
    assert state["spaces"][1]["existing_orders"] == [5]
    assert state["spaces"][2]["initial_order"] == 2
    assert state["rng"] == rng_before


def test_last_space_has_no_next_space_to_unlock():
    state = blank_game(coins=60)
    set_dice(state, 14, initial=4)
    events = develop(state, 0, 14)
    assert state["spaces"][13]["existing_orders"] == [4]
    assert not of_type(events, "space-unlocked")


def test_each_type_once_per_game():
    state = blank_game(coins=30)
    set_dice(state, 1, existing=[3])
    give_card(state, 0, 1)
    state["players"][0]["cards"] = []  # even after losing the card
    with pytest.raises(RulesError) as err:
        develop(state, 0, 1)
    assert err.value.code == "already-developed"


@pytest.mark.parametrize(
    ("space", "coins", "dice", "cards_left", "code"),
    [
        (3, 30, {}, None, "not-developable"),  # no dice at all
        (1, 30, {"existing": [2]}, 0, "no-cards-left"),
        (1, 3, {"existing": [2]}, None, "cannot-afford"),  # costs 4
        (14, 55, {"initial": 1}, None, "cannot-afford"),  # costs 56
    ],
)
def test_develop_refusals(space, coins, dice, cards_left, code):
    state = blank_game(coins=coins)
    set_dice(state, space, **dice)
    if cards_left is not None:
        state["spaces"][space - 1]["cards_left"] = cards_left
    with pytest.raises(RulesError) as err:
        develop(state, 0, space)
    assert err.value.code == code


def test_customer_base_dice_alone_make_a_space_developable():
    state = blank_game(coins=30)
    set_dice(state, 1, customer=[4])
    develop(state, 0, 1)
    assert state["players"][0]["cards"] == [{"space": 1, "units": 1}]


def test_obsolete_space_cannot_be_developed():
    state = blank_game(coins=30)
    set_dice(state, 1, existing=[4])
    state["spaces"][0]["obsolete"] = True
    with pytest.raises(RulesError) as err:
        develop(state, 0, 1)
    assert err.value.code == "not-developable"


def test_third_generation_retires_owned_first_generation_cards():
    state = blank_game(coins=40)
    set_dice(state, 1, existing=[2])
    set_dice(state, 5, existing=[3])
    set_dice(state, 8, initial=6)
    give_card(state, 0, 1, units=4)
    give_card(state, 1, 1, units=2)
    give_card(state, 1, 5, units=3)
    give_card(state, 2, 2, units=1)
    events = develop(state, 0, 8)
    assert of_type(events, "card-retired") == [
        {"type": "card-retired", "seat": 0, "space": 1, "units": 4},
        {"type": "card-retired", "seat": 1, "space": 1, "units": 2},
    ]
    assert state["players"][0]["cards"] == [{"space": 8, "units": 1}]
    assert state["players"][1]["cards"] == [{"space": 5, "units": 3}]  # generation 2 stays
    assert state["players"][2]["cards"] == [{"space": 2, "units": 1}]  # other colours stay
    assert state["removed_cards"][0] == 2
    assert state["spaces"][0]["cards_left"] == 2  # the board keeps its undeveloped cards
    assert state["players"][0]["developed"] == [1, 8]  # still counts as developed once


@pytest.mark.parametrize(("new", "old"), [(8, 1), (11, 5), (14, 8), (10, 2), (13, 6), (12, 3)])
def test_which_generation_each_space_retires(new, old):
    state = blank_game(coins=60)
    set_dice(state, new, initial=1)
    give_card(state, 1, old, units=2)
    develop(state, 0, new)
    assert state["players"][1]["cards"] == []
    assert state["removed_cards"][old - 1] == 1


@pytest.mark.parametrize("space", [1, 2, 3, 4, 5, 6, 7, 9])
def test_first_and_second_generations_retire_nothing(space):
    # Every other card already developed (space 8 too): the older reading lets space 1 be
    # developed after it (tests/.../test_retired_types.py for the default).
    state = blank_game(coins=60, retired_types="developable")
    set_dice(state, space, existing=[1])
    for other in range(1, 15):
        if other != space:
            give_card(state, 1, other)
    develop(state, 0, space)
    assert len(state["players"][1]["cards"]) == 13
    assert sum(state["removed_cards"]) == 0


def test_board_cards_obsolescence_removes_undeveloped_cards_instead():
    state = blank_game(coins=40, obsolescence="board-cards")
    set_dice(state, 8, initial=6)
    give_card(state, 1, 1, units=2)
    events = develop(state, 0, 8)
    assert of_type(events, "board-cards-retired") == [{"type": "board-cards-retired", "space": 1, "cards": 3}]
    assert state["spaces"][0]["cards_left"] == 0
    assert state["removed_cards"][0] == 3
    assert state["players"][1]["cards"] == [{"space": 1, "units": 2}]


def test_twenty_dice_pool_delays_the_unlock_until_a_die_is_free():
    state = blank_game(coins=40, dice_pool="twenty")
    set_dice(state, 1, existing=[1], customer=[2, 2])
    set_dice(state, 5, existing=[1, 1], customer=[2, 2])
    set_dice(state, 8, existing=[1, 1, 1, 1])
    set_dice(state, 6, existing=[1], customer=[2, 2])
    set_dice(state, 7, existing=[1, 1, 1])
    set_dice(state, 9, existing=[1, 1])
    set_dice(state, 2, initial=3)  # 20 dice on the board
    events = develop(state, 0, 2)
    assert of_type(events, "space-unlock-waiting") == [{"type": "space-unlock-waiting", "space": 3}]
    assert state["spaces"][2]["initial_order"] is None
    assert state["spaces"][2]["initial_order_pending"] is True
    with pytest.raises(RulesError) as err:
        develop(state, 1, 3)
    assert err.value.code == "not-developable"
    # The market's case d makes green generation 1 obsolete, freeing 3 dice; the space then unlocks.
    ENGINE.apply(state, seat=1, command={"cmd": "pass"})
    ENGINE.apply(state, seat=2, command={"cmd": "pass"})
    for seat in range(3):
        events = ENGINE.apply(state, seat=seat, command={"cmd": "pass"})
    unlocked = of_type(events, "space-unlocked")
    assert [e["space"] for e in unlocked] == [3]
    assert state["spaces"][2]["initial_order"] == unlocked[0]["die"]
    assert state["spaces"][2]["initial_order_pending"] is False


def test_develop_only_in_development_phase():
    state = blank_game(coins=30)
    set_dice(state, 1, existing=[3])
    state["phase"] = "capacity"
    with pytest.raises(RulesError) as err:
        develop(state, 0, 1)
    assert err.value.code == "wrong-phase"


def test_development_ends_after_every_player_had_a_turn():
    state = blank_game(coins=30)
    set_dice(state, 1, existing=[3])
    develop(state, 0, 1)
    ENGINE.apply(state, seat=1, command={"cmd": "pass"})
    events = develop(state, 2, 1)
    assert state["phase"] == "capacity" and state["turn"] == 0
    assert events[-1] == {"type": "phase-started", "phase": "capacity", "round": 1}
