"""Slipway's end (README, "The end"): the empty queue's trigger and the round finished, the final action
(no cube, no income, no bonus), the final build (one tile short only, pass, seats with none skipped), the
stack end with either option, the scores (contracts by their tables, traders, ties), and contracts' measures."""

from __future__ import annotations

import pytest

from .scenes import (
    ARMED,
    ENGINE,
    PLAIN,
    choose,
    codes,
    cruise,
    end_turn,
    game,
    give_employees,
    of_type,
    player,
    refuse,
    seat,
    send,
    set_market,
    set_money,
    set_yard,
    take_turn,
)


def _last_turn_of_round(players=3):
    """A game at the last seat's first turn, its action done: ending it starts seat 0's turn with step 1."""
    state = game(players)
    actions = ["equipment", "crew", "commodity", "canal"]
    for i in range(players - 1):
        take_turn(state, actions[i])
    choose(state, actions[players - 1])
    send(state, {"cmd": "buy-commodity", "tile": state["goods_market"][0]} if players == 3
         else {"cmd": "manufacture", "steps": 1})
    return state


def _queue_ends(players=3):
    """The queue is empty and the timer one space from a rotation: the next step 1 triggers the end."""
    state = _last_turn_of_round(players)
    state["timer"].update(space=5, queue=0, removals=5)
    return state


def test_an_empty_queue_at_a_rotation_triggers_the_end_and_the_round_is_finished():
    state = _queue_ends()
    events = end_turn(state)
    assert of_type(events, "end-triggered") == [{"type": "end-triggered", "reason": "queue"}]
    assert state["end"] == {"reason": "queue", "after_seat": 2} and state["phase"] == "play"
    take_turn(state, "build")
    assert state["phase"] == "play" and seat(state) == 1
    take_turn(state, "employee")
    assert state["phase"] == "play" and seat(state) == 2
    events = take_turn(state, "equipment")
    assert of_type(events, "phase") == [{"type": "phase", "phase": "final-action"}]
    assert state["phase"] == "final-action" and seat(state) == 0


def test_the_end_triggered_later_in_the_round_still_finishes_it():
    state = _queue_ends()
    end_turn(state)  # seat 0
    state["end"] = None
    state["timer"]["space"] = 5
    take_turn(state, "build")  # seat 1's step 1 triggers it now
    assert state["end"] == {"reason": "queue", "after_seat": 2}
    take_turn(state, "employee")
    assert state["phase"] == "play" and seat(state) == 2
    take_turn(state, "equipment")
    assert state["phase"] == "final-action"


def _final_action():
    state = _queue_ends()
    end_turn(state)
    for action in ("build", "employee", "equipment"):
        take_turn(state, action)
    assert state["phase"] == "final-action" and seat(state) == 0
    return state


def test_the_final_action_ignores_cubes_pays_no_income_and_has_no_bonus():
    state = _final_action()
    track = [dict(t) for t in state["track"]]
    taken = next(t["action"] for t in reversed(track) if t["cube"] is not None and t["action"] not in
                 ("exchange",))
    listed = codes(state, "choose")
    assert listed[taken] is None  # a cube on it does not matter now
    money = player(state)["money"]
    timer = dict(state["timer"])
    events = choose(state, taken)
    assert of_type(events, "chose")[0]["income"] == 0 and player(state)["money"] == money
    assert state["track"] == track and state["timer"] == timer  # no cube placed, no step 1
    assert refuse(state, {"cmd": "bonus", "action": "crew" if taken != "crew" else "equipment"}) == "no-bonus"
    assert not [e for e in ENGINE.listing(state, seat=0) if e["command"]["cmd"] == "bonus"]


def test_the_final_action_still_needs_a_performable_action():
    state = _final_action()
    assert codes(state, "choose")["exchange"] == ("no-commodity" if not player(state)["goods"] else None)
    player(state)["goods"] = []
    assert refuse(state, {"cmd": "choose", "action": "exchange"}) == "no-commodity"


def _to_final_build(yards):
    """Every seat's final action taken (a free manufacture), ``yards`` set just before the last one ends."""
    state = _final_action()
    for s in range(3):
        choose(state, "equipment")
        send(state, {"cmd": "manufacture", "steps": 1})
        if s == 2:
            for who, yard in yards.items():
                set_yard(state, who, yard)
        end_turn(state)
    return state


def test_the_final_build_offers_only_the_tiles_that_complete_a_ship_and_skips_seats_with_none():
    state = _final_action()
    set_market(state, "stern", ["S01", "S02", "S03"])
    set_market(state, "middle", ["M01", "M02", "M03"])
    for s in range(3):
        choose(state, "equipment")
        send(state, {"cmd": "manufacture", "steps": 1})
        if s == 2:
            set_yard(state, 0, {0: "B01", 1: "M04"})  # a stern short
            set_yard(state, 2, {3: "B02", 5: "S04"})  # a middle short
            set_yard(state, 1, {0: "B03"})  # two tiles short: no final build
        events = end_turn(state)
    assert of_type(events, "phase") == [{"type": "phase", "phase": "final-build"}]
    assert state["phase"] == "final-build" and seat(state) == 0
    listed = [e["command"] for e in ENGINE.listing(state, seat=0) if e["reason"] is None]
    builds = sorted(c["tiles"][0]["tile"] for c in listed if c["cmd"] == "build")
    assert builds == ["S01", "S02", "S03"] and all(c["tiles"][0]["slot"] == 2 for c in listed if c["cmd"] == "build")
    assert {"cmd": "pass"} in listed and not [c for c in listed if c["cmd"] == "end-turn"]
    assert refuse(state, {"cmd": "build", "tiles": [{"tile": "M01", "slot": 2}]}) == "final-build-complete"
    assert refuse(state, {"cmd": "build", "tiles": [{"tile": "S01", "slot": 2}, {"tile": "M01", "slot": 3}]}) \
        == "final-build-one"
    assert refuse(state, {"cmd": "choose", "action": "build"}) == "wrong-phase"
    assert refuse(state, {"cmd": "end-turn"}) == "wrong-phase"
    money = player(state)["money"]
    send(state, {"cmd": "build", "tiles": [{"tile": "S01", "slot": 2}]})
    assert player(state)["money"] == money  # S01 costs 0
    assert refuse(state, {"cmd": "pass"}) == "already-built"
    player(state)["items"]["captain"] = 1
    send(state, {"cmd": "outfit", "slot": 0, "items": ["captain"]})
    events = send(state, cruise(0, [(0, 0, "S")], start=(0, 0, "N")))
    assert of_type(events, "cruised") and seat(state) == 2  # seat 1 has no ship one tile short
    assert state["turn"]["stage"] == "final-build"
    events = send(state, {"cmd": "pass"})
    assert state["finished"] and state["phase"] == "finished" and of_type(events, "game-over")
    assert state["players"][2]["yard"][3] == "B02"  # passed: nothing built


def test_a_final_build_the_seat_cannot_pay_for_is_skipped():
    state = _final_action()
    set_market(state, "stern", ["S20", "S21", "S22"])  # all cost 2
    for s in range(3):
        choose(state, "equipment")
        send(state, {"cmd": "manufacture", "steps": 1})
        if s == 2:
            set_yard(state, 0, {0: "B01", 1: "M04"})
            set_money(state, 0, 1)
        end_turn(state)
    assert state["finished"]


def test_no_ship_one_tile_short_ends_the_game_after_the_final_actions():
    state = _to_final_build({})
    assert state["finished"] and state["turn"] is None and ENGINE.active_seats(state) == []


# -- the stack end -----------------------------------------------------------------------------------------


def _stack_runs_out(stack_end):
    state = game(3, stack_end=stack_end)
    take_turn(state, "crew")
    choose(state, "build")
    last = state["supply"]["bow"][-1]
    state["supply"]["bow"] = [last]
    tile = min(state["market"]["bow"], key=lambda t: 0 if t in ("B01", "B02", "B03", "B04") else 1)
    events = send(state, {"cmd": "build", "tiles": [{"tile": tile, "slot": 0}]})
    assert of_type(events, "end-triggered")[0]["reason"] == "stack"
    assert state["end"]["reason"] == "stack" and state["phase"] == "play"
    return state


def test_stack_end_immediate_scores_after_that_turn():
    state = _stack_runs_out("immediate")
    events = end_turn(state)
    assert state["finished"] and of_type(events, "game-over") and state["scores"] is not None
    assert ENGINE.view(state, seat=None)["end_reason"] == "stack"


def test_stack_end_final_round_gives_the_final_actions_and_build():
    state = _stack_runs_out("final-round")
    events = end_turn(state)
    assert of_type(events, "phase") == [{"type": "phase", "phase": "final-action"}]
    assert state["phase"] == "final-action" and seat(state) == 0 and not state["finished"]
    for _ in range(3):
        take_turn(state, "equipment")
    assert state["finished"]


# -- scores ------------------------------------------------------------------------------------------------

SAFE6 = ["B04", "M10", "M11", "M25", "M24", "S04"]  # 6 pieces with every safety kind


def _ship(tiles, items, speed, riband, total):
    score = {"crew": 0, "equipment": 0, "speed": speed, "officials": 0, "riband": riband, "total": total}
    return {"tiles": list(tiles), "items": list(items), "speed": speed, "score": score, "canals": 1}


FLEET = [
    _ship(PLAIN, ["captain", "captain", "stoker", "smokestack", "sail"], 6, 3, 10),
    _ship(SAFE6, ["captain", "cannon", "cannon", "marine"], 4, 0, 8),
    _ship(ARMED, ["captain", "crane", "crane", "merchant", "stoker"], 2, 5, 7),
]

CONTRACTS = [
    ("K01", 8), ("K02", 4), ("K03", 8), ("K04", 4), ("K05", 9), ("K06", 6), ("K07", 5), ("K08", 5), ("K09", 5),
    ("K10", 14), ("K11", 19), ("K12", 3), ("K13", 7), ("K14", 9), ("K15", 11), ("K16", 4), ("K17", 9), ("K18", 13),
]


@pytest.mark.parametrize(("contract", "points"), CONTRACTS)
def test_each_contract_scores_its_tables_row(contract, points):
    state = game(2)
    p = player(state, 0)
    p["fleet"] = FLEET
    p["used_canals"] = ["start", "C01", "C02", "C03", "C04", "C05"]
    assert ENGINE.contract_score(p, contract) == points
    p["fleet"], p["used_canals"] = [], []
    assert ENGINE.contract_score(p, contract) == 0


def _scored(money, fleets=None, contracts=None, employees=None):
    state = _final_action()
    for s in range(3):
        choose(state, "equipment")
        send(state, {"cmd": "manufacture", "steps": 1})
        if s == 2:
            for who in range(3):
                p = state["players"][who]
                p["money"] = money[who]
                p["fleet"] = (fleets or {}).get(who, [])
                p["contracts"] = (contracts or {}).get(who, [])
                give_employees(state, who, *(employees or {}).get(who, ()))
        end_turn(state)
    assert state["finished"]
    return state


def test_scores_count_cruises_the_best_kept_contracts_and_traders():
    state = _scored([0, 0, 0], fleets={0: FLEET}, contracts={0: ["K10", "K15", "K02", "K04"]},
                    employees={0: ("E01", "E02"), 1: ("E03",)})
    s0, s1, s2 = state["scores"]
    assert s0["cruises"] == 25 and s0["contracts"] == 14 + 11 and s0["traders"] == 1 + 5
    assert s0["contract_points"] == {"K10": 14, "K15": 11}
    assert s0["total"] == 25 + 25 + 6
    assert (s1["total"], s1["traders"]) == (1, 1) and s2["total"] == 0
    assert state["winners"] == [0]


@pytest.mark.parametrize(("money", "winners"), [([3, 7, 5], [1]), ([3, 7, 7], [1, 2]), ([4, 4, 4], [0, 1, 2])])
def test_ties_go_to_money_then_are_shared(money, winners):
    state = _scored(money)
    assert [s["total"] for s in state["scores"]] == [0, 0, 0]
    assert state["winners"] == winners


def test_more_points_beat_more_money():
    state = _scored([0, 30, 30], employees={0: ("E01",)})
    assert state["winners"] == [0]
