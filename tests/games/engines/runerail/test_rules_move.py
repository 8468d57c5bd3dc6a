"""Runerail moving: placing the train, speed, tolls, the Deepways' movement bribe to the Orc's holder,
the gates, the Ley Line, reversing, loads."""

from __future__ import annotations

from games.engines.runerail import data

from .helpers import (
    ENGINE,
    MAP,
    apply,
    give_foreman,
    gold,
    lay,
    line,
    move,
    neighbours,
    normal_turn,
    plain_place,
    put_train,
    refused,
)

NORTH_GATE, NORTH_GATE_DEEP = "0,42,9", "1,42,9"


def test_place_the_train_at_any_city_once():
    state = normal_turn()
    assert refused(state, 0, {"cmd": "place-train", "at": [0, 45, 2]}) == "not-a-city"
    assert refused(state, 0, move("0,45,2", "0,46,2")) == "no-train"
    far = MAP.key(MAP.cities["lanterhaven"].nodes[0])  # an island city nobody's track reaches
    apply(state, 0, {"cmd": "place-train", "at": [int(x) for x in far.split(",")]})
    assert state["players"][0]["at"] == far
    assert refused(state, 0, {"cmd": "place-train", "at": [int(x) for x in far.split(",")]}) == "train-placed"


def test_tolls_4_per_opponent_once_a_turn():
    state = normal_turn(3)
    row = line(6)
    lay(state, 1, *row[:3])
    lay(state, 2, *row[2:])
    put_train(state, 0, row[0])
    apply(state, 0, move(row[0], row[1]))
    assert gold(state) == [56, 64, 60]
    apply(state, 0, move(row[1], row[2], row[3]))
    assert gold(state) == [52, 64, 64]
    apply(state, 0, move(row[3], row[4], row[5]))
    assert gold(state) == [52, 64, 64] and state["turn"]["moves_used"] == 5
    ev = ENGINE.view(state, seat=2)
    assert sorted(ev["turn"]["tolls_paid"]) == [1, 2]


def test_a_toll_must_be_paid_before_use():
    state = normal_turn()
    row = line(3)
    lay(state, 1, *row)
    put_train(state, 0, row[0])
    state["players"][0]["gold"] = 3
    assert refused(state, 0, move(*row)) == "cannot-pay"


def test_speed_and_no_reversing_between_cities():
    state = normal_turn()
    row = line(12)
    lay(state, 0, *row)
    put_train(state, 0, row[0])
    assert refused(state, 0, move(*row[:12])) == "too-far"  # 11 mileposts, the loco runs 10
    apply(state, 0, move(*row[:4]))
    assert refused(state, 0, move(row[3], row[2])) == "no-reverse"
    assert ENGINE.moves_left(state, 0) == 7


def test_reversing_at_a_city():
    state = normal_turn()
    city = next(c for c in MAP.cities.values() if c.size == "small" and not c.data.get("port"))
    at = MAP.key(city.nodes[0])
    x = next(n for n in neighbours(at) if plain_place(n))
    y = next(n for n in neighbours(x) if plain_place(n) and n != at)
    lay(state, 0, y, x, at)
    put_train(state, 0, y)
    apply(state, 0, move(y, x, at, x, y))  # turned back at the city
    assert state["players"][0]["at"] == y and state["turn"]["moves_used"] == 4


def _deep_row(state, seat):
    row = [NORTH_GATE_DEEP, *line(3, start=NORTH_GATE_DEEP)[1:]]
    lay(state, seat, *row)
    return row


def test_a_gate_costs_one_movement_point_and_the_bribe_goes_to_the_orc_holder():
    state = normal_turn(3)
    give_foreman(state, 0, "dwarf")
    give_foreman(state, 1, "elf")
    give_foreman(state, 2, "orc")
    row = _deep_row(state, 0)
    put_train(state, 0, NORTH_GATE)
    events = apply(state, 0, move(NORTH_GATE, NORTH_GATE_DEEP))
    assert state["turn"]["moves_used"] == 1
    assert gold(state) == [59, 60, 61]
    assert events[0]["fees"] == [{"kind": "bribe", "payee": 2, "amount": 1}]
    apply(state, 0, move(*row))  # once a turn
    assert gold(state) == [59, 60, 61] and state["turn"]["moves_used"] == 3
    assert ENGINE.view(state, seat=1)["turn"]["move_bribe_paid"] is True


def test_the_bribe_goes_to_the_bank_when_nobody_holds_the_orc():
    state = normal_turn()
    for seat in (0, 1):
        give_foreman(state, seat, "elf")
    _deep_row(state, 0)
    put_train(state, 0, NORTH_GATE)
    apply(state, 0, move(NORTH_GATE, NORTH_GATE_DEEP))
    assert gold(state) == [59, 60]


def test_the_bribe_is_paid_before_entering():
    state = normal_turn()
    give_foreman(state, 0, "elf")
    _deep_row(state, 0)
    put_train(state, 0, NORTH_GATE)
    state["players"][0]["gold"] = 0
    assert refused(state, 0, move(NORTH_GATE, NORTH_GATE_DEEP)) == "cannot-pay"


def test_orc_and_troll_pay_no_movement_bribe():
    for kind in ("orc", "troll"):
        state = normal_turn()
        give_foreman(state, 1, "human")
        give_foreman(state, 0, kind)
        row = _deep_row(state, 0)
        put_train(state, 0, NORTH_GATE)
        apply(state, 0, move(NORTH_GATE, *row))
        assert gold(state) == [60, 60], kind


def test_a_train_already_below_pays_the_bribe_to_move():
    state = normal_turn()
    give_foreman(state, 0, "elf")
    give_foreman(state, 1, "orc")
    row = _deep_row(state, 0)
    put_train(state, 0, row[1], came_from=row[0])
    apply(state, 0, move(row[1], row[2]))
    assert gold(state) == [59, 61]


def test_the_ley_line_counts_as_one_milepost_and_closes_when_suspended():
    state = normal_turn()
    thorn = MAP.key(MAP.cities["thornhollow"].nodes[0])
    ember = MAP.key(MAP.cities["emberforge"].nodes[3])
    put_train(state, 0, thorn)
    plan = ENGINE.plan(state, seat=0, request={"plan": "move", "to": [int(x) for x in ember.split(",")]})
    assert plan["moves"] == 1 and plan["fee_total"] == 0
    apply(state, 0, move(thorn, ember))
    assert state["turn"]["moves_used"] == 1 and state["players"][0]["at"] == ember
    state["rail"]["links"][data.LEY_LINE] = False
    assert refused(state, 0, move(ember, thorn)) == "link-closed"


def test_the_prism_bridge_is_closed_until_its_event():
    state = normal_turn()
    sands = MAP.key(MAP.cities["sandspire"].nodes[0])
    moss = MAP.key(MAP.cities["mossgate"].nodes[-1])
    put_train(state, 0, sands)
    assert refused(state, 0, move(sands, moss)) == "link-closed"
    state["rail"]["links"][data.PRISM_BRIDGE] = True
    apply(state, 0, move(sands, moss))
    assert state["players"][0]["at"] == moss and state["turn"]["moves_used"] == 1


def test_pick_up_drop_and_capacity():
    state = normal_turn()
    city = MAP.cities["highcairn"]
    at = MAP.key(city.nodes[0])
    load = data.city_loads()["highcairn"][0]
    chips = state["supply"][load]
    put_train(state, 0, at)
    apply(state, 0, {"cmd": "pick-up", "load": load})
    apply(state, 0, {"cmd": "pick-up", "load": load})
    assert state["players"][0]["loads"] == [load, load] and state["supply"][load] == chips - 2
    assert refused(state, 0, {"cmd": "pick-up", "load": load}) == "train-full"
    other = next(x for x in data.loads() if x not in data.city_loads()["highcairn"])
    assert refused(state, 0, {"cmd": "pick-up", "load": other}) == "not-here"
    apply(state, 0, {"cmd": "drop", "load": load})
    assert state["supply"][load] == chips - 1
    state["supply"][load] = 0
    apply(state, 0, {"cmd": "drop", "load": load})
    state["supply"][load] = 0
    assert refused(state, 0, {"cmd": "pick-up", "load": load}) == "none-left"


def test_moving_after_spending_is_over():
    state = normal_turn()
    give_foreman(state, 0, "dwarf")
    row = line(3)
    lay(state, 0, *row[:2])
    put_train(state, 0, row[0])
    apply(state, 0, {"cmd": "upgrade", "loco": "swiftwick"})
    assert refused(state, 0, move(row[0], row[1])) == "phase-over"
