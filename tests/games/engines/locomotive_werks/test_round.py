"""The automatic phases: production (selling), taxes, end check, turn order, market."""

import pytest

from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, finish_round, give_card, of_type, set_dice, to_capacity, upcoming_rolls

# ---------------------------------------------------------------- selling


@pytest.mark.parametrize(
    ("dice", "units", "case", "die", "sold", "orders_after", "customers_after"),
    [
        ([3, 5], 3, "equal", 3, 3, [5], [3]),
        ([3, 5], 5, "equal", 5, 5, [3], [5]),
        ([5, 3, 5], 5, "equal", 5, 5, [3, 5], [5]),
        ([3, 5], 4, "lower", 5, 4, [3, 1], []),  # highest die lowered by 4, stays
        ([2], 1, "lower", 2, 1, [1], []),
        ([6, 2], 1, "lower", 6, 1, [5, 2], []),  # lowers the highest, not the nearest
        ([3, 5], 6, "higher", 5, 5, [3], [5]),  # sells only the highest die's value
        ([1], 4, "higher", 1, 1, [], [1]),
        ([2, 2, 1], 9, "higher", 2, 2, [2, 1], [2]),
    ],
)
def test_single_die_sale(dice, units, case, die, sold, orders_after, customers_after):
    state = blank_game(players=3)
    set_dice(state, 6, existing=dice)  # red II: income 6
    give_card(state, 0, 6, units=units)
    to_capacity(state)
    events = finish_round(state)
    assert of_type(events, "sale") == [
        {
            "type": "sale",
            "seat": 0,
            "space": 6,
            "units": units,
            "case": case,
            "die": die,
            "sold": sold,
            "income": 6 * sold,
            "die_after": die - sold if case == "lower" else None,
            "die_to": "existing-orders" if case == "lower" else "customer-base",
        }
    ]
    # Red II is the only red generation, so the market (case b) rolls the customer base,
    # plus one die if below the maximum of 3, into the existing orders after the sale.
    [step] = of_type(events, "market-step")
    assert step["added"] == (1 if len(dice) < 3 else 0)
    assert len(step["rolled"]) == len(customers_after) + step["added"]
    assert step["existing_orders"] == orders_after + step["rolled"]
    tax = (6 * sold) // 10
    assert state["players"][0]["coins"] == 6 * sold - tax


def test_no_sale_without_units_or_orders():
    state = blank_game()
    set_dice(state, 1, existing=[4])
    give_card(state, 0, 1, units=0)
    give_card(state, 1, 5, units=3)  # no dice on space 5
    to_capacity(state)
    events = finish_round(state)
    assert of_type(events, "sale") == []


def test_players_sell_in_turn_order_each_to_one_die():
    state = blank_game(players=3)
    state["order"] = [2, 0, 1]
    set_dice(state, 1, existing=[4, 2, 6])
    give_card(state, 0, 1, units=3)
    give_card(state, 1, 1, units=2)
    give_card(state, 2, 1, units=6)
    to_capacity(state)
    sales = of_type(finish_round(state), "sale")
    assert [(s["seat"], s["case"], s["die"], s["sold"]) for s in sales] == [
        (2, "equal", 6, 6),  # dice now 4, 2
        (0, "lower", 4, 3),  # dice now 1, 2
        (1, "equal", 2, 2),  # dice now 1
    ]


def test_every_card_sells_to_its_own_space():
    state = blank_game(players=3)
    set_dice(state, 1, existing=[2])
    set_dice(state, 5, existing=[3])
    give_card(state, 0, 1, units=2)
    give_card(state, 0, 5, units=2)
    to_capacity(state)
    sales = of_type(finish_round(state), "sale")
    assert [(s["space"], s["case"], s["income"]) for s in sales] == [(1, "equal", 2), (5, "lower", 10)]
    assert state["players"][0]["coins"] == 12 - 1  # 12 earned, 1 tax


# ---------------------------------------------------------------- taxes


@pytest.mark.parametrize(
    ("before", "tax"),
    [(0, 0), (9, 0), (10, 1), (19, 1), (20, 2), (99, 9), (299, 29), (333, 33), (334, 33)],
)
def test_tax_is_ten_percent_rounded_down(before, tax):
    state = blank_game(coins=before, end_threshold=100_000)
    to_capacity(state)
    events = finish_round(state)
    assert of_type(events, "tax")[0] == {
        "type": "tax",
        "seat": 0,
        "coins_before": before,
        "tax": tax,
        "coins": before - tax,
    }
    assert [p["coins"] for p in state["players"]] == [before - tax] * 3


# ---------------------------------------------------------------- end check


@pytest.mark.parametrize(
    ("coins", "finished", "winners"),
    [
        ([333, 10, 20], True, [0]),  # 333 - 33 = 300
        ([332, 10, 20], False, []),  # 332 - 33 = 299
        ([400, 500, 20], True, [1]),
        ([20, 350, 500], True, [2]),  # everyone's coins count, not only who reached it
        ([340, 340, 10], True, [0, 1]),  # shared victory
    ],
)
def test_end_check_after_tax(coins, finished, winners):
    state = blank_game()
    for player, c in zip(state["players"], coins, strict=True):
        player["coins"] = c
    to_capacity(state)
    events = finish_round(state)
    [check] = of_type(events, "end-check")
    assert check["finished"] is finished
    assert check["winners"] == winners
    assert check["threshold"] == 300
    assert state["finished"] is finished
    assert state["winners"] == winners
    assert ENGINE.is_finished(state) is finished
    if finished:
        assert state["phase"] == "finished" and state["round"] == 1
        assert ENGINE.active_seats(state) == []
        assert of_type(events, "market") == [] and of_type(events, "turn-order") == []
    else:
        assert state["round"] == 2 and state["phase"] == "development"


def test_winner_tie_broken_by_later_turn_order():
    state = blank_game(winner_ties="later-in-turn-order")
    state["order"] = [1, 0, 2]
    for player, c in zip(state["players"], [340, 340, 10], strict=True):
        player["coins"] = c
    to_capacity(state)
    finish_round(state)
    assert state["winners"] == [0]


def test_custom_end_threshold():
    state = blank_game(coins=50, end_threshold=45)
    to_capacity(state)
    finish_round(state)
    assert state["finished"] and state["winners"] == [0, 1, 2]


# ---------------------------------------------------------------- turn order


@pytest.mark.parametrize(
    ("order", "coins", "expected"),
    [
        ([0, 1, 2], [30, 20, 10], [2, 1, 0]),
        ([2, 0, 1], [10, 10, 10], [2, 0, 1]),  # all tied: unchanged
        ([1, 2, 0], [50, 20, 20], [1, 2, 0]),  # tie between 1 and 2 keeps 1 before 2
        ([2, 1, 0], [50, 20, 20], [2, 1, 0]),
        ([3, 0, 2, 1], [15, 15, 5, 15], [2, 3, 0, 1]),
    ],
)
def test_new_turn_order_poorest_first(order, coins, expected):
    state = blank_game(players=len(order))
    state["order"] = order
    for player, c in zip(state["players"], coins, strict=True):
        player["coins"] = c
    to_capacity(state)
    events = finish_round(state)
    after_tax = [c - c // 10 for c in coins]
    assert of_type(events, "turn-order") == [
        {"type": "turn-order", "before": order, "after": expected, "coins": after_tax}
    ]
    assert state["order"] == expected
    assert ENGINE.active_seats(state) == [expected[0]]


# ---------------------------------------------------------------- market demands


def run_market(state):
    to_capacity(state)
    events = finish_round(state)
    return of_type(events, "market"), of_type(events, "market-step")


def test_case_a_no_generation():
    state = blank_game()
    set_dice(state, 1, initial=4)  # an Initial Order alone does not make a generation exist
    markets, steps = run_market(state)
    assert [(m["color"], m["case"], m["generations"]) for m in markets] == [
        ("green", "a", []),
        ("red", "a", []),
        ("yellow", "a", []),
        ("blue", "a", []),
    ]
    assert steps == []
    assert state["spaces"][0]["initial_order"] == 4 and state["spaces"][0]["existing_orders"] == []


def test_case_b_adds_one_die_when_below_maximum():
    state = blank_game()
    set_dice(state, 1, existing=[4], customer=[2])  # 2 of 3
    r = upcoming_rolls(state, 2)
    markets, steps = run_market(state)
    assert markets[0]["case"] == "b"
    assert steps == [
        {
            "type": "market-step",
            "color": "green",
            "case": "b",
            "role": "only",
            "space": 1,
            "generation": 1,
            "added": 1,
            "removed": 0,
            "pool_short": 0,
            "rolled": r,
            "existing_orders": [4, *r],
        }
    ]
    assert state["spaces"][0]["existing_orders"] == [4, *r]
    assert state["spaces"][0]["customer_base"] == []


def test_case_b_at_maximum_only_rolls():
    state = blank_game()
    set_dice(state, 3, existing=[1], customer=[6])  # yellow I holds 2 at most
    r = upcoming_rolls(state, 1)
    markets, steps = run_market(state)
    assert [m["case"] for m in markets] == ["a", "a", "b", "a"]
    assert (steps[0]["added"], steps[0]["rolled"], steps[0]["existing_orders"]) == (0, r, [1, *r])


def test_case_b_with_only_existing_orders_at_maximum_rolls_nothing():
    state = blank_game()
    set_dice(state, 4, existing=[3])  # blue I: 1 box
    markets, steps = run_market(state)
    assert (steps[0]["added"], steps[0]["rolled"], steps[0]["existing_orders"]) == (0, [], [3])


def test_case_c_old_loses_a_die_new_gains_one():
    state = blank_game()
    set_dice(state, 2, existing=[6], customer=[1, 2])  # red I, old
    set_dice(state, 6, existing=[3], customer=[4])  # red II, new: 2 of 3
    r = upcoming_rolls(state, 3)
    markets, steps = run_market(state)
    assert [m["case"] for m in markets] == ["a", "c", "a", "a"]
    assert markets[1]["generations"] == [1, 2]
    old, new = steps
    assert (old["role"], old["space"], old["removed"], old["added"], old["rolled"]) == ("old", 2, 1, 0, r[:1])
    assert old["existing_orders"] == [6, r[0]]
    assert (new["role"], new["space"], new["removed"], new["added"], new["rolled"]) == ("new", 6, 0, 1, r[1:])
    assert new["existing_orders"] == [3, *r[1:]]


def test_case_c_old_with_empty_customer_base_and_new_at_maximum():
    state = blank_game()
    set_dice(state, 3, existing=[2, 5])  # yellow I
    set_dice(state, 7, existing=[1, 1], customer=[3])  # yellow II at its maximum 3
    r = upcoming_rolls(state, 1)
    markets, steps = run_market(state)
    assert markets[2]["case"] == "c"
    old, new = steps
    assert (old["removed"], old["rolled"], old["existing_orders"]) == (0, [], [2, 5])
    assert (new["added"], new["rolled"], new["existing_orders"]) == (0, r, [1, 1, *r])


def test_case_c_old_generation_can_run_out_of_dice():
    state = blank_game()
    set_dice(state, 1, customer=[3])
    set_dice(state, 5, existing=[2])
    markets, steps = run_market(state)
    assert steps[0]["existing_orders"] == [] and steps[0]["removed"] == 1
    # No dice left: the generation no longer exists and cannot be developed.
    assert ENGINE.view(state, seat=None)["spaces"][0]["developable"] is False


def test_case_d_oldest_obsolete_middle_filled_newest_plus_one():
    state = blank_game()
    set_dice(state, 1, existing=[5], customer=[2])  # green I: oldest
    set_dice(state, 5, existing=[1])  # green II (4 boxes): filled up with 3 dice
    set_dice(state, 8, existing=[2], customer=[4])  # green III (4 boxes): one die added
    r = upcoming_rolls(state, 6)
    markets, steps = run_market(state)
    assert markets[0] == {
        "type": "market",
        "color": "green",
        "locomotive": "passenger",
        "case": "d",
        "generations": [1, 2, 3],
    }
    oldest, middle, newest = steps
    assert (oldest["role"], oldest["removed"], oldest["rolled"], oldest["existing_orders"]) == (
        "obsolete",
        2,
        [],
        [],
    )
    assert (middle["role"], middle["added"], middle["rolled"]) == ("middle", 3, r[:3])
    assert middle["existing_orders"] == [1, *r[:3]]
    assert (newest["role"], newest["added"], newest["rolled"]) == ("newest", 1, r[3:5])
    assert newest["existing_orders"] == [2, *r[3:5]]
    green1 = state["spaces"][0]
    assert green1["obsolete"] and green1["existing_orders"] == [] and green1["customer_base"] == []
    assert ENGINE.view(state, seat=None)["spaces"][0]["developable"] is False


def test_four_generations_make_the_two_oldest_obsolete():
    state = blank_game()
    set_dice(state, 1, existing=[1])
    set_dice(state, 5, existing=[2])
    set_dice(state, 8, existing=[3])
    set_dice(state, 11, existing=[4])
    markets, steps = run_market(state)
    assert markets[0]["case"] == "d" and markets[0]["generations"] == [1, 2, 3, 4]
    assert [(s["space"], s["role"]) for s in steps] == [
        (1, "obsolete"),
        (5, "obsolete"),
        (8, "middle"),
        (11, "newest"),
    ]
    assert state["spaces"][0]["obsolete"] and state["spaces"][4]["obsolete"]


def test_obsolete_generation_stays_out_of_later_markets():
    state = blank_game()
    set_dice(state, 1, existing=[5])
    set_dice(state, 5, existing=[1])
    set_dice(state, 8, existing=[2])
    run_market(state)
    markets, steps = run_market(state)
    assert markets[0]["case"] == "c" and markets[0]["generations"] == [2, 3]


def test_colours_run_in_order_green_red_yellow_blue():
    state = blank_game()
    set_dice(state, 4, existing=[1])
    set_dice(state, 3, existing=[1])
    set_dice(state, 2, existing=[1])
    set_dice(state, 1, existing=[1])
    markets, steps = run_market(state)
    assert [m["color"] for m in markets] == ["green", "red", "yellow", "blue"]
    assert [s["space"] for s in steps] == [1, 2, 3, 4]


def test_twenty_dice_pool_runs_short():
    state = blank_game(dice_pool="twenty")
    set_dice(state, 5, existing=[1, 1, 1, 1])  # green II, at maximum
    set_dice(state, 8, existing=[1, 1, 1, 1])  # green III, at maximum
    set_dice(state, 6, existing=[1, 1, 1])  # red II, at maximum
    set_dice(state, 10, existing=[1, 1, 1])  # red III: wants 1, gets the last free die
    set_dice(state, 7, existing=[1, 1, 1])  # yellow II, at maximum
    set_dice(state, 12, existing=[1])  # yellow III: wants 1, pool empty
    set_dice(state, 9, existing=[1])  # blue II: wants 1, pool empty. 19 dice on the board.
    markets, steps = run_market(state)
    assert [m["case"] for m in markets] == ["c", "c", "c", "b"]
    assert {s["space"]: (s["added"], s["pool_short"]) for s in steps} == {
        5: (0, 0),
        8: (0, 0),
        6: (0, 0),
        10: (1, 0),
        7: (0, 0),
        12: (0, 1),
        9: (0, 1),
    }
    dice = sum(len(sp["existing_orders"]) + len(sp["customer_base"]) for sp in state["spaces"])
    assert dice == 20
    assert ENGINE.view(state, seat=None)["dice_pool"] == 0


def test_unlimited_pool_never_runs_short():
    state = blank_game()
    set_dice(state, 12, existing=[1])
    set_dice(state, 9, existing=[1])
    markets, steps = run_market(state)
    assert [(s["added"], s["pool_short"]) for s in steps] == [(1, 0), (1, 0)]
    assert ENGINE.view(state, seat=None)["dice_pool"] is None


def test_market_rolls_only_customer_base_dice():
    state = blank_game()
    set_dice(state, 5, existing=[6, 1, 1, 1])  # at maximum, nothing in the customer base
    rng_before = state["rng"]
    run_market(state)
    assert state["spaces"][4]["existing_orders"] == [6, 1, 1, 1]
    assert state["rng"] == rng_before


# ---------------------------------------------------------------- the round report


def test_last_round_report_is_kept_in_the_state():
    state = blank_game(coins=20)
    set_dice(state, 1, existing=[2])
    give_card(state, 1, 1, units=2)
    to_capacity(state)
    events = finish_round(state)
    report = state["last_round"]
    assert report["round"] == 1
    automatic = events[events.index({"type": "phase-started", "phase": "production", "round": 1}) :]
    assert report["events"] == automatic
    assert [e["type"] for e in report["events"]][:3] == ["phase-started", "sale", "tax"]
    assert report["events"][-1] == {"type": "round-started", "round": 2}
    assert ENGINE.view(state, seat=0)["last_round"] == report
    events[-1]["round"] = 99  # the caller's events are not the state's
    assert report["events"][-1]["round"] == 2


def test_units_stay_on_cards_for_the_next_round():
    state = blank_game()
    set_dice(state, 1, existing=[2, 2, 2])
    give_card(state, 0, 1, units=2)
    to_capacity(state)
    finish_round(state)
    assert state["players"][0]["cards"] == [{"space": 1, "units": 2}]
    finish_round(state)  # development passes, capacity passes, second production
    assert len(of_type(state["last_round"]["events"], "sale")) == 1
