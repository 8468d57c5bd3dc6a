"""Scenes for the Slipway rules tests: games in turn order 0, 1, 2, ... and positions set in the state
directly (states are plain JSON), where reaching them by commands would take many turns: a yard, a stock,
a canal system, money, markets, employees, commodity tiles, the action track.

Every helper that hands out a component takes it out of wherever it lay (supply, market, wheel), refilling
a market from its supply as the rules do, so a scene still holds every component exactly once (the property
tests' conservation check reads the same places). Numbers the tests compare with are written out again here
from the README and the data files' tables, not asked of the engine.
"""

from __future__ import annotations

import copy
from typing import Any

from games.engines.base import RulesError
from games.engines.slipway import data
from games.engines.slipway.rules import Slipway
from tests.support.rules_table import RulesTable

State = dict[str, Any]
Command = dict[str, Any]

ENGINE = Slipway()
NAMES = ("Ann", "Bo", "Cy", "Di")
TABLE = RulesTable(ENGINE, NAMES)
apply, refused = TABLE.apply, TABLE.refused

ITEMS = ("smokestack", "sail", "crane", "cannon", "captain", "stoker", "marine", "merchant")
BONUS = 6
START_MONEY = 10

# Ships whose room is written out from ships.json (checked against the file by test_rules_outfit).
PLAIN = ("B01", "M01", "S01")  # cabins 1 + 1, stoker cabin 1
RIGGED = ("B03", "M04", "S11")  # rig mounts 1 + 1 + 2
ARMED = ("B07", "M41", "S19")  # cabin 1, cranes 1 + 1, cannons 1 + 1, stoker cabin 1


# -- games and turns -------------------------------------------------------------------------------------


def game(players: int = 2, *, seed: int = 1, **options: Any) -> State:
    """A game at seat 0's first turn, seats playing in order 0, 1, 2, ... (the first turn only places a cube,
    so restarting it changes nothing but who plays first)."""
    state = TABLE.new_game(players, seed=seed, **options)
    state["order"] = list(range(players))
    state["turn_no"] = 0
    ENGINE._start_turn(state, 0, [])
    return state


def seat(state: State) -> int:
    return state["turn"]["seat"]


def send(state: State, command: Command) -> list[dict[str, Any]]:
    """The active seat sends ``command``."""
    return apply(state, seat(state), command)


def refuse(state: State, command: Command) -> str:
    return refused(state, seat(state), command)


def choose(state: State, action: str) -> list[dict[str, Any]]:
    return send(state, {"cmd": "choose", "action": action})


def end_turn(state: State) -> list[dict[str, Any]]:
    return send(state, {"cmd": "end-turn"})


def take_turn(state: State, action: str, command: Command | None = None) -> list[dict[str, Any]]:
    """The active seat chooses ``action``, performs it (``command``, or the cheapest way listed) and ends."""
    events = choose(state, action)
    if not state["turn"]["main_done"]:
        events += send(state, command or cheapest(state, action))
    if state["turn"] is not None and state["turn"]["stage"] != "choose":
        events += end_turn(state)
    return events


def cheapest(state: State, action: str) -> Command:
    cmd = {"equipment": "manufacture", "crew": "recruit"}.get(action)
    if cmd:
        return {"cmd": cmd, "steps": 1}
    listed = [e for e in ENGINE.listing(state, seat=seat(state)) if e["reason"] is None]
    names = {"build": "build", "canal": "rent-canal", "commodity": "buy-commodity", "employee": "hire",
             "exchange": "exchange", "subsidy": "subsidy"}
    return min((e for e in listed if e["command"]["cmd"] == names[action]), key=lambda e: e["price"])["command"]


def codes(state: State, cmd: str) -> dict[str, str | None]:
    """The listing's reason code for each ``choose``/``bonus`` entry's action (None: legal)."""
    return {e["command"]["action"]: None if e["reason"] is None else e["reason"]["code"]
            for e in ENGINE.listing(state, seat=seat(state)) if e["command"]["cmd"] == cmd}


def acting(state: State, main: str = "equipment", *, done: bool = True) -> State:
    """The active seat's turn at its act stage with ``main`` chosen (done or not), set directly."""
    state["turn"].update(stage="act", main=main, main_done=done)
    return state


def player(state: State, s: int | None = None) -> dict[str, Any]:
    return state["players"][seat(state) if s is None else s]


# -- the track ---------------------------------------------------------------------------------------------


def set_track(state: State, actions: list[str], cubes: dict[str, int] | None = None) -> None:
    """The action tiles from the back (first) to the front (last), with cubes: ``{action: seat}``; each seat's
    cubes become those, oldest first in track order from the back (set ``player["cubes"]`` for another age)."""
    assert sorted(actions) == sorted(t["action"] for t in state["track"])
    cubes = cubes or {}
    state["track"] = [{"action": a, "cube": cubes.get(a)} for a in actions]
    for s, p in enumerate(state["players"]):
        p["cubes"] = [a for a in actions if cubes.get(a) == s]


def track_actions(state: State) -> list[str]:
    return [t["action"] for t in state["track"]]


# -- components --------------------------------------------------------------------------------------------


def _pull(state: State, tile: str, piles: list[tuple[list[Any], list[Any] | None]]) -> None:
    """Take ``tile`` out of the first pile holding it; a market (a pile with a supply) refills from its supply."""
    for pile, supply in piles:
        if tile in pile:
            i = pile.index(tile)
            if supply is not None and supply:
                pile[i] = supply.pop(0)
            else:
                pile.pop(i)
            return
    raise LookupError(f"{tile} is in none of the piles")


def pull_ship(state: State, tile: str) -> str:
    part = data.ships()[tile]["part"]
    _pull(state, tile, [(state["supply"][part], None), (state["market"][part], state["supply"][part])])
    return tile


def set_market(state: State, part: str, tiles: list[str]) -> None:
    """The market column of ``part`` becomes ``tiles``; the tiles it held go to the front of the supply."""
    old = state["market"][part]
    state["market"][part] = []
    for t in tiles:
        if t in old:
            old.remove(t)
        else:
            state["supply"][part].remove(t)
    state["market"][part] = list(tiles)
    state["supply"][part][:0] = old


def set_yard(state: State, s: int, tiles: dict[int, str]) -> None:
    """Put ship tiles in ``s``'s yard slots (taken from the supply or the market)."""
    for slot, t in tiles.items():
        pull_ship(state, t)
        state["players"][s]["yard"][slot] = t


def ship_in_yard(state: State, s: int, tiles: tuple[str, ...] | list[str], at: int = 0) -> int:
    """A completed ship of ``tiles`` (bow, middles, stern) from slot ``at``; returns the bow's slot."""
    set_yard(state, s, {at + i: t for i, t in enumerate(tiles)})
    return at


def set_stock(state: State, s: int, **items: int) -> None:
    """``s``'s stock: the items named, every other item 0."""
    state["players"][s]["items"] = {item: items.get(item, 0) for item in ITEMS}


def set_money(state: State, s: int, amount: int) -> None:
    state["players"][s]["money"] = amount


def give_employees(state: State, s: int, *emps: str) -> None:
    """Hand ``s`` employees (taken off the wheel, refilled from the supply, or out of the supply)."""
    for emp in emps:
        for stop in state["employee_wheel"]:
            if emp in stop:
                stop[stop.index(emp)] = state["employee_supply"].pop(0) if state["employee_supply"] else None
                break
        else:
            state["employee_supply"].remove(emp)
        state["players"][s]["employees"].append(emp)


def set_wheel_stop(state: State, stop: int, emps: list[str | None]) -> None:
    """Employee wheel stop ``stop`` holds ``emps``; the ones it held and the newcomers swap places."""
    old = state["employee_wheel"][stop]
    for new, was in zip(emps, old, strict=True):
        if new == was:
            continue
        if new is not None:
            for other in state["employee_wheel"]:
                if new in other and other is not old:
                    other[other.index(new)] = was
                    break
            else:
                i = state["employee_supply"].index(new)
                if was is None:
                    state["employee_supply"].pop(i)
                else:
                    state["employee_supply"][i] = was
        elif was is not None:
            state["employee_supply"].append(was)
    state["employee_wheel"][stop] = list(emps)


def give_goods(state: State, s: int, *tiles: str) -> None:
    for t in tiles:
        _pull(state, t, [(state["goods_supply"], None), (state["goods_market"], state["goods_supply"])])
        state["players"][s]["goods"].append(t)


def set_goods_market(state: State, tiles: list[str]) -> None:
    """The commodity market becomes ``tiles``; the others go back to the supply."""
    everything = state["goods_market"] + state["goods_supply"]
    for t in tiles:
        everything.remove(t)
    state["goods_market"] = list(tiles)
    state["goods_supply"] = everything


def set_canal_market(state: State, tiles: list[str]) -> None:
    everything = state["canal_market"] + state["canal_supply"]
    for t in tiles:
        everything.remove(t)
    state["canal_market"] = list(tiles)
    state["canal_supply"] = everything


def set_canals(state: State, s: int, tiles: list[tuple[int, int, str, int]], token: dict[str, Any] | None = None) -> None:
    """``s``'s canal system: (x, y, tile, rotation) each (the start tile among them or not: ``start``)."""
    ids = [t for _, _, t, _ in tiles if t != data.start_canal()]
    for t in ids:
        _pull(state, t, [(state["canal_supply"], None), (state["canal_market"], state["canal_supply"])])
    state["players"][s]["canal"] = {"tiles": [{"x": x, "y": y, "tile": t, "rotation": r} for x, y, t, r in tiles],
                                    "token": token}


def pos(x: int, y: int, spot: str) -> dict[str, Any]:
    return {"x": x, "y": y, "spot": spot}


def cruise(slot: int, path: list[tuple[int, int, str]], start: tuple[int, int, str] | None = None) -> Command:
    cmd: Command = {"cmd": "cruise", "slot": slot, "path": [pos(*p) for p in path]}
    if start is not None:
        cmd["start"] = pos(*start)
    return cmd


# -- checks ------------------------------------------------------------------------------------------------


def accepted(state: State, command: Command) -> bool:
    """Whether apply takes ``command`` (on a copy)."""
    try:
        ENGINE.apply(copy.deepcopy(state), seat=seat(state), command=copy.deepcopy(command))
    except RulesError:
        return False
    return True


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
