"""Slipway's eight actions (README, "Build ships" to "Subsidy"): what each costs and gives, each refusal, the
markets sliding and refilling, the wheels' markers, the employees' effects on the actions."""

from __future__ import annotations

import pytest

from .scenes import (
    START_MONEY,
    acting,
    game,
    give_employees,
    give_goods,
    of_type,
    player,
    refuse,
    send,
    set_canal_market,
    set_goods_market,
    set_market,
    set_money,
    set_stock,
    set_wheel_stop,
    set_yard,
    track_actions,
)

ITEMS = ("smokestack", "sail", "crane", "cannon", "captain", "stoker", "marine", "merchant")


def _build_scene(money=START_MONEY):
    state = acting(game(2), "build", done=False)
    set_market(state, "bow", ["B15", "B01", "B02"])  # costs 1, 0, 0 (deck 2 but B01, B02)
    set_market(state, "middle", ["M32", "M44", "M01"])  # 1, 2, 0
    set_market(state, "stern", ["S20", "S15", "S01"])  # 2, 1, 0
    set_money(state, 0, money)
    return state


def build(*pairs):
    return {"cmd": "build", "tiles": [{"tile": t, "slot": s} for t, s in pairs]}


# -- build -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("pairs", "cost"), [
    ((("B01", 0),), 0),
    ((("B15", 0), ("M44", 1)), 3),
    ((("B15", 2), ("M32", 3), ("S20", 4)), 4),
    ((("M01", 5), ("S15", 7)), 1),
])
def test_build_pays_each_tile_and_places_it(pairs, cost):
    state = _build_scene()
    events = send(state, build(*pairs))
    assert player(state)["money"] == START_MONEY - cost
    assert of_type(events, "built")[0]["cost"] == cost
    for tile, slot in pairs:
        assert player(state)["yard"][slot] == tile
    assert state["turn"]["main_done"]


def test_a_build_that_completes_a_ship_says_so():
    state = _build_scene()
    events = send(state, build(("B15", 2), ("M32", 3), ("S20", 4)))
    assert of_type(events, "ship-completed") == [{"type": "ship-completed", "seat": 0, "slot": 2, "length": 3}]


@pytest.mark.parametrize(("pairs", "money", "yard", "code"), [
    ((("B03", 0),), 10, {}, "not-in-market"),  # in the supply
    ((("B01", 0), ("B01", 3)), 10, {}, "same-tile"),
    ((("B01", 0), ("B02", 0)), 10, {}, "slot-taken"),
    ((("B01", 1),), 10, {1: "M02"}, "slot-taken"),
    ((("S01", 0),), 10, {}, "no-ship-possible"),  # a stern in the first slot ends no ship
    ((("B01", 6),), 10, {}, "no-ship-possible"),  # no room for a ship after slot 6
    ((("M01", 0),), 10, {}, "no-ship-possible"),
    ((("B01", 1),), 10, {2: "S02"}, "no-ship-possible"),  # a bow right before a stern
    ((("B01", 1), ("B02", 4)), 10, {2: "S02"}, "no-ship-possible"),
    ((("B15", 0), ("M44", 1)), 2, {}, "cannot-afford"),
])
def test_build_refusals(pairs, money, yard, code):
    state = _build_scene(money)
    if "B03" in state["market"]["bow"]:
        pytest.skip("B03 dealt to the market")
    set_yard(state, 0, yard)
    assert refuse(state, build(*pairs)) == code


@pytest.mark.parametrize(("pairs", "yard"), [
    ((("B01", 1),), {2: "B04"}),  # the bow in slot 3 leaves first, then slot 2's ship can form
    ((("S01", 7),), {}),
    ((("M01", 1), ("M44", 5)), {0: "B04", 7: "S02"}),
    ((("S01", 3),), {0: "B04", 4: "B06"}),  # 4 is a ship's bow once 3 has left with 0's ship
])
def test_build_accepts_placements_every_tile_can_still_leave_from(pairs, yard):
    state = _build_scene()
    set_yard(state, 0, yard)
    send(state, build(*pairs))
    assert state["turn"]["main_done"]


def test_too_many_tiles_are_refused_by_the_command_shape():
    state = _build_scene()
    assert refuse(state, build(("B01", 0), ("M01", 1), ("S01", 2), ("B02", 3))) == "invalid-command"


def test_infeasible_placement_names_the_tile_that_could_never_leave():
    state = _build_scene()
    try:
        send(state, build(("S01", 0)))
    except Exception as exc:  # noqa: BLE001 - the RulesError's message is the subject
        assert "stern in slot 1 could never end a ship" in exc.message
    else:
        raise AssertionError("accepted")


def test_the_market_column_slides_down_and_refills_from_its_supply():
    state = _build_scene()
    nxt = state["supply"]["bow"][0]
    left = len(state["supply"]["bow"])
    send(state, build(("B15", 0)))
    assert state["market"]["bow"] == ["B01", "B02", nxt]
    assert len(state["supply"]["bow"]) == left - 1
    assert state["market"]["middle"] == ["M32", "M44", "M01"]  # other parts untouched


def test_taking_a_parts_last_supply_tile_triggers_the_stack_end():
    state = _build_scene()
    last = state["supply"]["stern"][-1]
    state["supply"]["stern"] = [last]  # the others, out of the game for this test
    events = send(state, build(("S01", 2)))
    assert state["market"]["stern"] == ["S20", "S15", last] and state["supply"]["stern"] == []
    assert of_type(events, "end-triggered") == [{"type": "end-triggered", "reason": "stack", "part": "stern"}]
    assert state["end"]["reason"] == "stack"


# -- rent a canal ------------------------------------------------------------------------------------------


def _canal_scene(money=START_MONEY):
    state = acting(game(2), "canal", done=False)
    set_canal_market(state, ["C01", "C09", "C06", "C30"])  # costs 0, 0, 2, 3
    set_money(state, 0, money)
    return state


def rent(tile, x, y, rotation=0):
    return {"cmd": "rent-canal", "tile": tile, "x": x, "y": y, "rotation": rotation}


@pytest.mark.parametrize(("command", "money", "code"), [
    (rent("C02", 0, 1), 10, "not-in-market"),
    (rent("C30", 0, 1), 1, "cannot-afford"),  # C30 costs 2
    (rent("C01", 0, 0), 10, "cell-taken"),  # the start tile's cell
    (rent("C01", 3, 3), 10, "not-adjacent"),
    (rent("C01", 1, 0, 1), 10, "sides-mismatch"),  # its west mouth against the start's east bank
    (rent("C01", 1, 0, 0), 10, "no-connection"),  # bank to bank only
    (rent("C09", 0, 1, 1), 10, "sides-mismatch"),  # turned east-south: a bank faces the start's south mouth
])
def test_rent_canal_refusals(command, money, code):
    state = _canal_scene(money)
    assert refuse(state, command) == code


@pytest.mark.parametrize(("command", "cost"), [
    (rent("C01", 0, 1), 0),
    (rent("C01", 0, -1, 2), 0),
    (rent("C09", 0, 1), 0),  # a bend, its north mouth meeting the start's south one
    (rent("C06", 0, -1), 1),
    (rent("C30", 0, 1, 3), 2),
])
def test_rent_canal_pays_places_and_refills(command, cost):
    state = _canal_scene()
    nxt = state["canal_supply"][0]
    events = send(state, command)
    assert player(state)["money"] == START_MONEY - cost
    assert of_type(events, "canal-rented")[0]["cost"] == cost
    assert {"x": command["x"], "y": command["y"], "tile": command["tile"], "rotation": command["rotation"]} \
        in player(state)["canal"]["tiles"]
    assert command["tile"] not in state["canal_market"] and state["canal_market"][-1] == nxt
    assert len(state["canal_market"]) == 4


# -- purchase commodities ----------------------------------------------------------------------------------


def test_buy_commodity_pays_takes_and_refills():
    state = acting(game(2), "commodity", done=False)
    set_goods_market(state, ["G01", "G05", "G13", "G17"])
    nxt = state["goods_supply"][0]
    events = send(state, {"cmd": "buy-commodity", "tile": "G13"})
    assert of_type(events, "commodity-bought")[0]["cost"] == 3
    assert player(state)["money"] == START_MONEY - 3 and player(state)["goods"] == ["G13"]
    assert state["goods_market"] == ["G01", "G05", "G17", nxt]


@pytest.mark.parametrize(("tile", "money", "code"), [("G02", 10, "not-in-market"), ("G17", 3, "cannot-afford")])
def test_buy_commodity_refusals(tile, money, code):
    state = acting(game(2), "commodity", done=False)
    set_goods_market(state, ["G01", "G05", "G13", "G17"])
    set_money(state, 0, money)
    assert refuse(state, {"cmd": "buy-commodity", "tile": tile}) == code


# -- manufacture and recruit -------------------------------------------------------------------------------

# equipment ring: sail, smokestack, crane, sail, smokestack, cannon, sail, smokestack (wheels.json)
# crew ring: stoker, captain, marine, stoker, captain, merchant, stoker, captain
@pytest.mark.parametrize(("action", "marker", "steps", "employees", "cost", "items"), [
    ("equipment", 0, 1, (), 0, ["smokestack"]),
    ("equipment", 0, 2, (), 1, ["crane"]),
    ("equipment", 0, 5, (), 4, ["cannon"]),
    ("equipment", 6, 3, (), 2, ["smokestack"]),  # 6 -> 1, round the ring
    ("equipment", 0, 3, ("E23",), 0, ["sail"]),  # two free steps with the foundry runner
    ("equipment", 0, 5, ("E23",), 2, ["cannon"]),
    ("equipment", 0, 3, ("E24",), 2, ["sail"]),  # the crew's mover does nothing here
    ("equipment", 0, 1, ("E16",), 0, ["smokestack", "sail"]),  # the sailmaker's extra sail
    ("equipment", 0, 2, ("E15", "E17"), 1, ["crane", "smokestack", "crane"]),
    ("crew", 0, 1, (), 0, ["captain"]),
    ("crew", 0, 2, (), 1, ["marine"]),
    ("crew", 0, 5, (), 4, ["merchant"]),
    ("crew", 0, 4, ("E24",), 1, ["captain"]),
    ("crew", 0, 3, ("E24", "E26"), 0, ["stoker"]),  # the employee mover does nothing here
    ("crew", 0, 1, ("E20",), 0, ["captain", "stoker"]),  # the stokehold foreman's stoker
    ("crew", 7, 2, ("E21", "E22"), 1, ["captain", "marine", "merchant"]),
])
def test_wheel_actions(action, marker, steps, employees, cost, items):
    state = acting(game(2), action, done=False)
    state["markers"][action] = marker
    give_employees(state, 0, *employees)
    set_stock(state, 0)
    cmd = "manufacture" if action == "equipment" else "recruit"
    events = send(state, {"cmd": cmd, "steps": steps})
    assert player(state)["money"] == START_MONEY - cost
    assert state["markers"][action] == (marker + steps) % 8
    got = {item: n for item, n in player(state)["items"].items() if n}
    assert got == {item: items.count(item) for item in items}
    assert sorted(events[0]["items"]) == sorted(items) and events[0]["cost"] == cost


@pytest.mark.parametrize(("steps", "money", "code"), [(9, 10, "too-far"), (3, 1, "cannot-afford")])
def test_wheel_refusals(steps, money, code):
    state = acting(game(2), "equipment", done=False)
    set_money(state, 0, money)
    assert refuse(state, {"cmd": "manufacture", "steps": steps}) == code


# -- hire --------------------------------------------------------------------------------------------------


def _hire_scene(held=(), money=START_MONEY):
    state = acting(game(2), "employee", done=False)
    set_wheel_stop(state, 1, ["E15", "E01", "E02"])  # costs 1, 0, 1
    set_wheel_stop(state, 3, ["E10", "E14", None])  # 2, 0, (empty)
    give_employees(state, 0, *held)
    set_money(state, 0, money)
    return state


@pytest.mark.parametrize(("held", "steps", "choice", "cost"), [
    ((), 1, 0, 1),
    ((), 1, 1, 0),
    ((), 3, 0, 2 + 2),  # two paid steps and the derrick fitter's 2
    (("E26",), 3, 1, 1 + 0),  # the office boy's free step
    (("E25",), 3, 0, 0 + 2),
    (("E01",), 1, 2, 1),  # level 2 with its level 1
])
def test_hire_pays_steps_and_the_employee(held, steps, choice, cost):
    state = _hire_scene(held)
    emp = state["employee_wheel"][steps][choice]
    nxt = state["employee_supply"][0]
    events = send(state, {"cmd": "hire", "steps": steps, "choice": choice})
    assert of_type(events, "hired") == [{"type": "hired", "seat": 0, "employee": emp, "cost": cost}]
    assert player(state)["money"] == START_MONEY - cost
    assert player(state)["employees"] == [*held, emp]
    assert state["markers"]["employee"] == steps
    assert state["employee_wheel"][steps][choice] == nxt  # refilled from the supply


@pytest.mark.parametrize(("held", "steps", "choice", "money", "code"), [
    ((), 1, 2, 10, "trader-level"),  # level 2 of coal, no level 1
    (("E03",), 1, 2, 10, "trader-level"),  # level 1 of another good
    (("E12",), 3, 1, 10, "same-employee"),  # the second cabin builder does what the first does
    ((), 3, 2, 10, "no-employee"),
    ((), 3, 0, 3, "cannot-afford"),
    ((), 7, 0, 10, "too-far"),
])
def test_hire_refusals(held, steps, choice, money, code):
    state = _hire_scene(held, money)
    assert refuse(state, {"cmd": "hire", "steps": steps, "choice": choice}) == code


# -- exchange ----------------------------------------------------------------------------------------------

# price ring space 1: coal 3, iron 5, cotton 3, rum 2; space 0: coal 2, iron 4, cotton 4, rum 3 (goods.json)
@pytest.mark.parametrize(("tile", "uses", "marker", "traders", "income", "items"), [
    ("G01", ["sell"], 0, (), 3, {}),
    ("G01", ["sell"], 7, (), 2, {}),  # the marker goes round to space 0
    ("G01", ["sell"], 0, ("E01",), 4, {}),
    ("G01", ["sell"], 0, ("E01", "E02"), 5, {}),
    ("G05", ["sell", "sell"], 0, ("E03",), 6, {}),  # the iron trader adds nothing to coal
    ("G09", ["sell", "sell"], 0, ("E03",), 3 + 6, {}),
    ("G01", ["stoker"], 0, (), 0, {"stoker": 1}),
    ("G05", ["stoker", "smokestack"], 0, (), 0, {"stoker": 1, "smokestack": 1}),
    ("G17", ["stoker", "cannon", "sell"], 0, (), 3, {"stoker": 1, "cannon": 1}),
    ("G18", ["crane", "merchant", "captain"], 0, (), 0, {"crane": 1, "merchant": 1, "captain": 1}),
])
def test_exchange(tile, uses, marker, traders, income, items):
    state = acting(game(2), "exchange", done=False)
    state["markers"]["price"] = marker
    give_goods(state, 0, tile)
    give_employees(state, 0, *traders)
    set_stock(state, 0)
    events = send(state, {"cmd": "exchange", "tile": tile, "uses": uses})
    assert state["markers"]["price"] == (marker + 1) % 8  # exactly one step
    assert of_type(events, "exchanged")[0]["income"] == income
    assert player(state)["money"] == START_MONEY + income
    assert {i: n for i, n in player(state)["items"].items() if n} == items
    assert player(state)["goods"] == [] and state["goods_discards"][-1] == tile


@pytest.mark.parametrize(("tile", "own", "uses", "code"), [
    ("G05", True, ["stoker", "stoker"], "same-item"),
    ("G01", True, ["captain"], "not-tradable"),
    ("G05", True, ["sell"], "uses-count"),
    ("G01", False, ["sell"], "not-yours"),
])
def test_exchange_refusals(tile, own, uses, code):
    state = acting(game(2), "exchange", done=False)
    give_goods(state, 0, "G05" if tile == "G05" else "G02")
    if own and tile != "G05":
        give_goods(state, 0, tile)
    assert refuse(state, {"cmd": "exchange", "tile": tile, "uses": uses}) == code


# -- subsidy -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "option", "present"), [
    (2, None, False), (3, None, False), (4, None, True),
    (2, "always", True), (3, "always", True), (4, "never", False), (3, "four-players", False),
])
def test_subsidy_tile_by_players_and_option(players, option, present):
    state = game(players, **({"subsidy": option} if option else {}))
    assert ("subsidy" in track_actions(state)) == present
    assert len(track_actions(state)) == 7 + present


def test_subsidy_gives_two():
    state = acting(game(4), "subsidy", done=False)
    events = send(state, {"cmd": "subsidy"})
    assert events[0] == {"type": "subsidy", "seat": 0, "amount": 2}
    assert player(state)["money"] == START_MONEY + 2


def test_subsidy_is_refused_where_it_is_not_in_the_game():
    state = game(2)
    assert refuse(state, {"cmd": "choose", "action": "subsidy"}) == "no-such-action"


def test_an_empty_commodity_supply_is_refilled_from_the_exchanged_tiles():
    state = acting(game(2), "commodity", done=False)
    set_goods_market(state, ["G01", "G05", "G13", "G17"])
    back = state["goods_supply"]
    state["goods_supply"] = []
    state["goods_discards"] = back  # as if every other tile had been exchanged
    send(state, {"cmd": "buy-commodity", "tile": "G01"})
    assert state["goods_discards"] == []
    assert sorted(state["goods_market"][3:] + state["goods_supply"]) == sorted(back)
    assert state["goods_market"][:3] == ["G05", "G13", "G17"]
