"""Runerail ships: boarding at a port (a ship card drawn, its boarding cost paid; the Halfling draws 3,
chooses and boards free), sailing on the next turn up to the ship's speed, landing at a port (the card
discarded), the sea events (no boarding, ships to port, a lost load at sea)."""

from __future__ import annotations

from collections import deque

import pytest

from games.engines.runerail import data

from .helpers import ENGINE, MAP, apply, end_turn, give_foreman, normal_turn, put_train, refused, trigger

SALTHARBOR = "0,15,31"  # Saltharbor's port milepost (a major city)
LANTERHAVEN = "0,11,27"


def _voyage(a, b):
    """The fewest sea points from port ``a`` to port ``b`` (keys, both ends included)."""
    graph, prev, queue = data.sea_graph(), {a: None}, deque([a])
    while queue:
        k = queue.popleft()
        for nb in graph[k]:
            if nb in prev or (nb in data.port_keys() and nb != b):
                continue
            prev[nb] = k
            if nb == b:
                out = [b]
                while prev[out[-1]] is not None:
                    out.append(prev[out[-1]])
                return out[::-1]
            queue.append(nb)
    raise LookupError(b)


def _addr(keys):
    return [[int(x) for x in k.split(",")] for k in keys]


def _at_port(ship=None, seat=0, port=SALTHARBOR):
    state = normal_turn()
    put_train(state, seat, port)
    if ship:
        state["ship_deck"] = [s for s in sorted(data.ships()) if s != ship] + [ship]
        state["ship_discards"] = []
    return state


def test_ports_and_the_sea_graph():
    assert len(data.port_keys()) == 17 and SALTHARBOR in data.port_keys()
    assert len(_voyage(SALTHARBOR, LANTERHAVEN)) - 1 == 6
    assert all(data.sea_graph()[p] for p in data.port_keys())


@pytest.mark.parametrize(("ship", "cost", "speed"), [
    ("mudlark", 1, 8), ("tarred-gander", 2, 9), ("greyfin", 3, 11), ("tidecutter", 4, 12),
    ("morrow-star", 5, 13),
])
def test_boarding_pays_the_ships_cost_and_ends_the_turns_movement(ship, cost, speed):
    state = _at_port(ship)
    gold = state["players"][0]["gold"]
    events = apply(state, 0, {"cmd": "board-ship"})
    assert events == [{"type": "boarded", "seat": 0, "ship": ship, "fee": cost, "at": SALTHARBOR}]
    assert state["players"][0]["gold"] == gold - cost and state["players"][0]["ship"] == ship
    assert ENGINE.moves_left(state, 0) == 0
    assert data.ships()[ship]["speed"] == speed
    voyage = _addr(_voyage(SALTHARBOR, LANTERHAVEN))
    assert refused(state, 0, {"cmd": "sail", "path": voyage}) == "just-boarded"
    assert refused(state, 0, {"cmd": "board-ship"}) == "on-ship"
    view = ENGINE.view(state, seat=1)
    assert view["players"][0]["ship"] == ship and view["ship_deck_size"] == 12


def test_boarding_refusals():
    state = normal_turn()
    put_train(state, 0, MAP.key(MAP.cities["highcairn"].centre))
    assert refused(state, 0, {"cmd": "board-ship"}) == "not-at-port"
    state = _at_port("mudlark")
    state["players"][0]["gold"] = 4
    assert refused(state, 0, {"cmd": "board-ship"}) == "cannot-pay"
    state = _at_port("mudlark")
    trigger(state, 1, "sea-fog")
    assert refused(state, 0, {"cmd": "board-ship"}) == "no-boarding"


def test_the_halfling_draws_three_chooses_and_boards_free():
    state = _at_port("mudlark")
    give_foreman(state, 0, "halfling")
    gold = state["players"][0]["gold"]
    top3 = state["ship_deck"][-3:][::-1]
    apply(state, 0, {"cmd": "board-ship"})
    assert state["ship_offer"] == {"seat": 0, "ships": top3}
    assert ENGINE.view(state, seat=0)["ship_offer"]["ships"] == top3
    assert ENGINE.view(state, seat=1)["ship_offer"] == {"seat": 0, "count": 3, "ships": None}
    assert ENGINE.legal_commands(state, seat=0) == [{"cmd": "choose-ship", "ship": s} for s in top3]
    assert refused(state, 0, {"cmd": "end-turn"}) == "choose-ship"
    apply(state, 0, {"cmd": "choose-ship", "ship": top3[1]})
    p = state["players"][0]
    assert p["ship"] == top3[1] and p["gold"] == gold and state["ship_discards"] == [top3[0], top3[2]]


@pytest.mark.parametrize(("ship", "points", "ok"), [
    ("mudlark", 6, True),      # speed 8: the whole voyage of 6, landing
    ("mudlark", 8, True),      # 8 sea points out to sea (not to a port)
    ("mudlark", 9, False),
    ("morrow-star", 13, True),
    ("morrow-star", 14, False),
])
def test_sailing_up_to_the_ships_speed_on_the_next_turn(ship, points, ok):
    state = _at_port(ship)
    apply(state, 0, {"cmd": "board-ship"})
    end_turn(state)
    end_turn(state)
    if points == 6:
        path = _voyage(SALTHARBOR, LANTERHAVEN)
    else:  # out to sea along the shortest way to a far port, stopping short of it
        path = _voyage(SALTHARBOR, "0,29,50")[:points + 1]
        assert path[-1] not in data.port_keys()
    cmd = {"cmd": "sail", "path": _addr(path)}
    if not ok:
        assert refused(state, 0, cmd) == "too-far"
        return
    events = apply(state, 0, cmd)
    p = state["players"][0]
    if path[-1] in data.port_keys():
        assert events[-1] == {"type": "landed", "seat": 0, "ship": ship, "at": LANTERHAVEN}
        assert p["at"] == LANTERHAVEN and p["ship"] is None and state["ship_discards"] == [ship]
        assert ENGINE.moves_left(state, 0) == 0  # landed: movement over this turn, loading allowed
    else:
        assert p["at"] is None and p["sea_at"] == path[-1] and p["ship"] == ship
        assert refused(state, 0, {"cmd": "sail", "path": _addr(path[-2:])}) == "sailed"
        assert not [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] in ("place-train", "move")]


def test_ships_to_port_and_lost_loads_at_sea():
    state = _at_port("mudlark")
    apply(state, 0, {"cmd": "board-ship"})
    state["players"][0]["loads"] = ["salt", "ale"]
    end_turn(state)
    end_turn(state)
    path = _voyage(SALTHARBOR, LANTERHAVEN)
    apply(state, 0, {"cmd": "sail", "path": _addr(path[:3])})
    assert state["players"][0]["sea_at"] == path[2]
    trigger(state, 0, "wreckers-lights")  # the Western Sea: the train at sea is asked for a load
    assert state["pending"]["queue"] == [{"seat": 0, "card": "wreckers-lights", "loads": 1}]
    apply(state, 0, {"cmd": "choose-load-to-lose", "load": "salt"})
    events = trigger(state, 0, "harbour-bells")
    assert events[-2:] == [{"type": "landed", "seat": 0, "ship": "mudlark", "at": SALTHARBOR},
                           {"type": "ships-to-port", "landed": {"0": SALTHARBOR}}]
    p = state["players"][0]
    assert p["at"] == SALTHARBOR and p["ship"] is None and p["sea_at"] is None


def test_no_boarding_refuses_landing():
    state = _at_port("mudlark")
    apply(state, 0, {"cmd": "board-ship"})
    end_turn(state)
    end_turn(state)
    trigger(state, 0, "sea-fog")
    assert refused(state, 0, {"cmd": "sail", "path": _addr(_voyage(SALTHARBOR, LANTERHAVEN))}) == "no-boarding"


@pytest.mark.parametrize(("ship", "target", "points", "arrives", "turns"), [
    ("mudlark", LANTERHAVEN, 6, True, 1),
    ("mudlark", "0,29,50", 28, False, 4),   # Glasswind: legs of 8, 8, 8, 4
    ("morrow-star", "0,29,50", 28, False, 3),  # 13, 13, 2
])
def test_plan_a_voyage(ship, target, points, arrives, turns):
    state = _at_port(ship)
    apply(state, 0, {"cmd": "board-ship"})
    plan = ENGINE.plan(state, seat=0, request={"plan": "sail", "to": _addr([target])[0]})
    assert (plan["points"], plan["arrives"], plan["turns"]) == (points, arrives, turns)
    assert plan["route"] == _voyage(SALTHARBOR, target)
    assert plan["reason"]  # boarded this turn: it sails next turn
    end_turn(state)
    end_turn(state)
    plan = ENGINE.plan(state, seat=0, request={"plan": "sail", "to": _addr([target])[0]})
    assert plan["reason"] is None
    events = apply(state, 0, plan["command"])
    assert events[0]["points"] == min(points, data.ships()[ship]["speed"])
    assert (state["players"][0]["at"] == target) == arrives
