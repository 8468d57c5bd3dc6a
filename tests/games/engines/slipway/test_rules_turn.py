"""Slipway's turn (README, "The turn"): step 1 (the oldest cube's tile to the front, the timer, the queue),
choosing a tile (each refusal, income), the forfeit when nothing can be performed, the bonus action, ending
a turn, and the contract discards owed at the marked cube removals."""

from __future__ import annotations

import pytest

from .scenes import (
    BONUS,
    ENGINE,
    PLAIN,
    START_MONEY,
    acting,
    choose,
    codes,
    end_turn,
    game,
    give_goods,
    of_type,
    player,
    refuse,
    seat,
    send,
    set_canal_market,
    set_goods_market,
    set_market,
    set_money,
    set_stock,
    set_track,
    set_wheel_stop,
    set_yard,
    ship_in_yard,
    take_turn,
    track_actions,
)

SEVEN = ["build", "canal", "commodity", "equipment", "crew", "employee", "exchange"]


# -- step 1 ------------------------------------------------------------------------------------------------


def test_first_turns_skip_step_1_with_three_players():
    state = game(3)
    events = []
    for action in ("equipment", "crew", "commodity"):
        events += take_turn(state, action)
    # the only advance is the one that starts seat 0's second turn
    assert of_type(events, "advanced") == [{"type": "advanced", "seat": 0, "action": "equipment"}]
    assert events[-1]["type"] == "advanced"
    # seat 0's second turn: its cube's tile went to the front, the cube off, the timer one space on
    assert track_actions(state)[-1] == "equipment" and state["track"][-1]["cube"] is None
    assert player(state)["cubes"] == [] and state["timer"]["space"] == 1
    assert state["turn"]["front"] == "equipment"


def test_two_players_place_both_cubes_before_step_1_and_move_the_oldest():
    state = game(2)
    assert player(state)["cube_count"] == 2
    events = []
    for action in ("equipment", "crew", "commodity", "canal"):
        events += take_turn(state, action)
    assert of_type(events, "advanced") == [{"type": "advanced", "seat": 0, "action": "equipment"}]
    assert seat(state) == 0 and player(state)["cubes"] == ["commodity"]  # equipment, its oldest, moved
    assert track_actions(state)[-1] == "equipment" and state["timer"]["space"] == 1
    events = take_turn(state, "build")
    assert of_type(events, "advanced") == [{"type": "advanced", "seat": 1, "action": "crew"}]
    assert state["players"][1]["cubes"] == ["canal"]


def test_two_player_cubes_option_gives_one_cube():
    state = game(2, two_player_cubes=1)
    take_turn(state, "equipment")
    take_turn(state, "crew")
    assert state["timer"]["space"] == 1 and track_actions(state)[-1] == "equipment"


def _third_player_turn(players=3, **options):
    state = game(players, **options)
    take_turn(state, "equipment")
    take_turn(state, "crew")
    choose(state, "commodity")
    send(state, {"cmd": "buy-commodity", "tile": state["goods_market"][0]})
    return state  # seat 2 is about to end its first turn; seat 0's next starts with step 1


def test_a_full_rotation_removes_a_queue_cube():
    state = _third_player_turn()
    state["timer"]["space"] = 5
    queue = state["timer"]["queue"]
    events = end_turn(state)
    assert of_type(events, "queue-cube-removed") == [{"type": "queue-cube-removed", "left": queue - 1}]
    assert state["timer"]["space"] == 0 and state["timer"]["queue"] == queue - 1
    assert state["timer"]["removals"] == 1 and state["end"] is None


def test_a_part_rotation_removes_nothing():
    state = _third_player_turn()
    state["timer"]["space"] = 4
    events = end_turn(state)
    assert not of_type(events, "queue-cube-removed") and state["timer"]["space"] == 5


# -- choosing ----------------------------------------------------------------------------------------------


def test_choose_refuses_a_tile_with_a_cube_and_the_just_moved_tile():
    state = _third_player_turn()
    end_turn(state)
    assert state["turn"]["front"] == "equipment"
    listed = codes(state, "choose")
    assert listed["crew"] == "tile-taken" and listed["commodity"] == "tile-taken"
    assert listed["equipment"] == "just-moved"
    assert refuse(state, {"cmd": "choose", "action": "crew"}) == "tile-taken"
    assert refuse(state, {"cmd": "choose", "action": "equipment"}) == "just-moved"
    choose(state, "canal")
    assert state["turn"]["main"] == "canal"


def _bows_only(state, s=0):
    """``s`` can pay only for bows (cost 0), and slots 6 and 7 are its only empty ones: a bow there could never
    begin a ship."""
    _broke(state, s)
    set_market(state, "bow", ["B01", "B02", "B03"])
    set_yard(state, s, {0: "B04", 1: "M01", 2: "M02", 3: "M03", 4: "M05", 5: "S01"})


def _broke(state, s=0):
    """``s`` has no money and nothing costs nothing: build, canal, commodity and employee cannot be performed."""
    set_money(state, s, 0)
    set_market(state, "bow", ["B15", "B16", "B17"])  # deck 2, cost 1 each
    set_market(state, "middle", ["M32", "M33", "M34"])
    set_market(state, "stern", ["S15", "S16", "S17"])
    set_canal_market(state, ["C06", "C13", "C15", "C16"])  # cost 1 each
    set_wheel_stop(state, 1, ["E15", "E10", "E20"])  # costs 1, 2, 1


@pytest.mark.parametrize(("action", "code", "scene"), [
    ("exchange", "no-commodity", None),
    ("build", "cannot-afford", _broke),
    ("canal", "cannot-afford", _broke),
    ("commodity", "cannot-afford", _broke),
    ("employee", "no-employee", _broke),
    ("build", "no-placement", _bows_only),
])
def test_choose_refuses_an_action_that_cannot_be_performed_with_its_reason(action, code, scene):
    state = game(2)
    if scene:
        scene(state)
    assert codes(state, "choose")[action] == code
    assert refuse(state, {"cmd": "choose", "action": action}) == code


@pytest.mark.parametrize(("cubes", "chosen", "income"), [
    ({}, "build", 0),
    ({"canal": 1, "crew": 2}, "build", 2),  # both nearer the front
    ({"canal": 1, "crew": 2}, "commodity", 1),  # crew only
    ({"build": 1, "canal": 2}, "employee", 0),  # nothing nearer the front
    ({"build": 0, "crew": 1, "employee": 2}, "canal", 2),  # own cube counts too
])
def test_income_is_one_per_cube_nearer_the_front(cubes, chosen, income):
    state = game(3)
    set_track(state, SEVEN, cubes)
    before = player(state)["money"]
    events = choose(state, chosen)
    assert of_type(events, "chose")[0]["income"] == income
    assert player(state)["money"] == before + income
    assert state["track"][SEVEN.index(chosen)]["cube"] == 0


# Goods tiles of ``goods.json``: G01-G04 single goods (cost 1), G05-G08 pairs (cost 2). ``_broke``'s canal tiles
# and ship tiles cost 1 each.
PAIRS = ["G05", "G06", "G07", "G08"]


@pytest.mark.parametrize(("option", "action", "cubes", "code"), [
    # the spec's order (default): step 3's income is in hand for step 4, so it counts toward "able to perform"
    ({}, "commodity", {"crew": 1, "employee": 2}, None),  # 0 coins + 2 income pays a pair (2)
    ({}, "commodity", {"crew": 1}, "cannot-afford"),  # + 1 income: not 2
    ({}, "commodity", {"build": 1, "canal": 2}, "cannot-afford"),  # cubes behind pay nothing
    ({}, "canal", {"employee": 1}, None),  # + 1 income pays a canal tile of 1
    ({}, "build", {"canal": 1}, None),  # + 1 income pays a bow of cost 1
    ({"choice_income": "counted"}, "commodity", {"crew": 1, "employee": 2}, None),
    # the option's other reading: only the money held before the cube goes down
    ({"choice_income": "ignored"}, "commodity", {"crew": 1, "employee": 2}, "cannot-afford"),
    ({"choice_income": "ignored"}, "canal", {"employee": 1}, "cannot-afford"),
])
def test_whether_an_action_can_be_chosen_counts_the_income_its_tile_pays(option, action, cubes, code):
    state = game(3, **option)
    _broke(state)
    set_goods_market(state, PAIRS)
    set_track(state, SEVEN, cubes)
    assert codes(state, "choose")[action] == code
    if code is not None:
        assert refuse(state, {"cmd": "choose", "action": action}) == code
        return
    events = choose(state, action)
    assert of_type(events, "forfeited") == []  # the action is open, to be performed with the income
    income = of_type(events, "chose")[0]["income"]
    assert income > 0 and player(state)["money"] == income
    assert ENGINE.cannot_perform(state, 0, action, spend=0) is None


def test_nothing_performable_lets_any_free_tile_take_the_cube_and_forfeits_it():
    state = game(3)
    _broke(state)
    # the cubes lie behind every other tile: no tile pays income that could make its action affordable
    set_track(state, ["equipment", "crew", "build", "canal", "commodity", "employee", "exchange"],
              {"equipment": 1, "crew": 2})
    listed = codes(state, "choose")
    assert listed["equipment"] == listed["crew"] == "tile-taken"
    assert all(listed[a] is None for a in ("build", "canal", "commodity", "employee", "exchange"))
    events = choose(state, "exchange")
    assert of_type(events, "forfeited") == [{"type": "forfeited", "seat": 0, "action": "exchange"}]
    assert state["turn"]["main_done"] and player(state)["money"] == 0  # nothing nearer the front
    end_turn(state)
    assert seat(state) == 1


# -- the bonus ---------------------------------------------------------------------------------------------


def test_bonus_costs_six_and_its_action_is_performed():
    state = acting(game(2), "crew", done=False)
    events = send(state, {"cmd": "bonus", "action": "equipment"})
    assert of_type(events, "bonus") == [{"type": "bonus", "seat": 0, "action": "equipment", "cost": BONUS}]
    assert player(state)["money"] == START_MONEY - BONUS
    send(state, {"cmd": "manufacture", "steps": 1})
    send(state, {"cmd": "recruit", "steps": 1})
    assert state["turn"]["bonus_done"] and state["turn"]["main_done"]
    assert player(state)["items"]["smokestack"] == 1 and player(state)["items"]["captain"] == 3 + 1


@pytest.mark.parametrize(("money", "action", "code"), [
    (10, "crew", "same-as-main"),
    (5, "equipment", "cannot-afford"),
    (10, "exchange", "no-commodity"),
])
def test_bonus_refusals(money, action, code):
    state = acting(game(2), "crew", done=False)
    set_money(state, 0, money)
    listed = codes(state, "bonus")
    assert (action not in listed) if code == "same-as-main" else listed[action] == code  # main: not listed
    assert refuse(state, {"cmd": "bonus", "action": action}) == code


def test_bonus_may_take_the_just_moved_tile_and_a_tile_with_a_cube():
    state = _third_player_turn()
    end_turn(state)
    choose(state, "canal")
    listed = codes(state, "bonus")
    assert listed["equipment"] is None  # just moved to the front
    assert listed["crew"] is None  # seat 1's cube is on it
    assert "canal" not in listed  # the main action is not offered
    send(state, {"cmd": "bonus", "action": "crew"})
    send(state, {"cmd": "recruit", "steps": 1})
    assert state["turn"]["bonus_done"]


def test_bonus_once_a_turn():
    state = acting(game(2), "crew", done=False)
    set_money(state, 0, 20)
    send(state, {"cmd": "bonus", "action": "equipment"})
    assert refuse(state, {"cmd": "bonus", "action": "build"}) == "bonus-taken"
    assert "bonus" not in {e["command"]["cmd"] for e in ENGINE.listing(state, seat=0)}


def test_bonus_after_the_main_action_and_paid_by_it():
    state = game(4)  # Subsidy is in the game with 4 players
    set_money(state, 0, 4)
    choose(state, "subsidy")
    assert refuse(state, {"cmd": "bonus", "action": "equipment"}) == "cannot-afford"
    send(state, {"cmd": "subsidy"})
    assert player(state)["money"] == 6
    send(state, {"cmd": "bonus", "action": "equipment"})
    send(state, {"cmd": "manufacture", "steps": 1})
    assert player(state)["money"] == 0
    end_turn(state)
    assert seat(state) == 1


def test_no_bonus_after_a_cruise():
    state = acting(game(2))
    ship_in_yard(state, 0, PLAIN, at=0)
    ship_in_yard(state, 0, ("B02", "M02", "S02"), at=3)
    set_stock(state, 0)
    send(state, {"cmd": "cruise", "slot": 0, "path": []})  # no captain: lost
    assert state["turn"]["stage"] == "launch"
    assert refuse(state, {"cmd": "bonus", "action": "crew"}) == "launching"
    assert refuse(state, {"cmd": "recruit", "steps": 1}) == "launching"


def test_an_action_command_other_than_the_chosen_one_is_refused():
    state = acting(game(2), "crew", done=False)
    assert refuse(state, {"cmd": "manufacture", "steps": 1}) == "wrong-action"
    send(state, {"cmd": "recruit", "steps": 1})
    assert refuse(state, {"cmd": "recruit", "steps": 1}) == "no-action-open"


# -- ending the turn ---------------------------------------------------------------------------------------


def test_end_turn_refusals():
    state = game(2)
    assert refuse(state, {"cmd": "end-turn"}) == "choose-first"
    choose(state, "crew")
    assert refuse(state, {"cmd": "end-turn"}) == "act-first"
    send(state, {"cmd": "bonus", "action": "equipment"})
    send(state, {"cmd": "recruit", "steps": 1})
    assert refuse(state, {"cmd": "end-turn"}) == "act-first"  # the bonus is open
    send(state, {"cmd": "manufacture", "steps": 1})
    ship_in_yard(state, 0, PLAIN)
    assert refuse(state, {"cmd": "end-turn"}) == "ships-to-launch"


def test_the_turn_ends_by_itself_after_the_last_cruise():
    state = acting(game(2))
    ship_in_yard(state, 0, PLAIN)
    set_stock(state, 0)
    events = send(state, {"cmd": "cruise", "slot": 0, "path": []})
    assert of_type(events, "turn-ended") == [{"type": "turn-ended", "seat": 0}]
    assert seat(state) == 1 and state["turn"]["stage"] == "choose"


# -- contract discards -------------------------------------------------------------------------------------


def test_discards_are_owed_at_the_marked_removals_and_made_first():
    state = _third_player_turn()  # 3 players: discards at removals 3 and 5 (countdown 7)
    state["timer"].update(space=5, removals=2, queue=5)
    events = end_turn(state)
    assert len(of_type(events, "discard-owed")) == 3
    assert [p["discards_owed"] for p in state["players"]] == [1, 1, 1]
    assert state["turn"]["stage"] == "discard"
    assert refuse(state, {"cmd": "choose", "action": "canal"}) == "discard-first"
    assert refuse(state, {"cmd": "discard-contract", "contract": "K99"}) == "unknown-contract"
    held = list(player(state)["contracts"])
    send(state, {"cmd": "discard-contract", "contract": held[1]})
    assert player(state)["contracts"] == held[:1] + held[2:] and player(state)["discards_owed"] == 0
    assert state["turn"]["stage"] == "choose"
    assert refuse(state, {"cmd": "discard-contract", "contract": held[0]}) == "no-discard-owed"
    take_turn(state, "canal")
    assert seat(state) == 1 and state["turn"]["stage"] == "discard"  # at the start of its next turn


@pytest.mark.parametrize(("removals", "owed"), [(0, 0), (1, 0), (3, 0), (2, 1), (4, 1)])
def test_no_discard_at_other_removals(removals, owed):
    state = _third_player_turn()  # 3 players: discards at removals 3 and 5 (countdown 7)
    state["timer"].update(space=5, removals=removals, queue=7 - removals)
    end_turn(state)
    assert [p["discards_owed"] for p in state["players"]] == [owed] * 3


def test_a_second_discard_only_down_to_the_kept_contracts():
    state = _third_player_turn()
    for p in state["players"]:
        p["contracts"] = p["contracts"][:2]  # already down to contracts_kept
    state["timer"].update(space=5, removals=4, queue=3)  # the removal about to come is the 5th: a discard's
    events = end_turn(state)
    assert not of_type(events, "discard-owed") and state["turn"]["stage"] == "choose"


def test_exchange_goods_lets_exchange_be_chosen():
    state = game(2)
    give_goods(state, 0, "G01")
    assert codes(state, "choose")["exchange"] is None


def test_a_bonus_that_spends_the_mains_money_forfeits_the_main():
    """Not in the README (the engine's choice, so that a turn can always end): paying for the bonus first
    can leave the main action impossible; it is then forfeited at once."""
    state = game(2)
    _broke(state)
    set_money(state, 0, 6)  # cost 1 each: affordable with 6, not after paying 6
    choose(state, "build")
    events = send(state, {"cmd": "bonus", "action": "equipment"})
    assert of_type(events, "forfeited") == [{"type": "forfeited", "seat": 0, "action": "build"}]
    assert state["turn"]["main_done"] and player(state)["money"] == 0
    send(state, {"cmd": "manufacture", "steps": 1})
    end_turn(state)
    assert seat(state) == 1
