"""Helpers to build exact game situations for the Locomotive Werks tests."""

from __future__ import annotations

import copy
from typing import Any

from games.engines.locomotive_werks import ENGINE
from games.engines.rng import Rng

NAMES = ["Ada", "Brunel", "Cugnot", "Dorothy", "Ericsson"]


def new_game(players: int = 3, seed: int = 1, **options: Any) -> dict[str, Any]:
    return ENGINE.setup(players=NAMES[:players], options=options, seed=seed)


def blank_game(players: int = 3, seed: int = 1, coins: int = 0, **options: Any) -> dict[str, Any]:
    """A game with an empty board, no cards, seats in order 0, 1, 2, ... and ``coins`` each."""
    state = new_game(players, seed, **options)
    for sp in state["spaces"]:
        sp["initial_order"] = None
        sp["existing_orders"] = []
        sp["customer_base"] = []
    state["order"] = list(range(players))
    for player in state["players"]:
        player["coins"] = coins
    return state


def give_card(state: dict[str, Any], seat: int, space: int, units: int = 1) -> None:
    """Put a card of ``space`` in front of ``seat`` as if developed earlier."""
    player = state["players"][seat]
    state["spaces"][space - 1]["cards_left"] -= 1
    player["developed"].append(space)
    player["cards"].append({"space": space, "units": units})
    player["cards"].sort(key=lambda c: c["space"])


def set_dice(state: dict[str, Any], space: int, existing=(), customer=(), initial=None) -> None:
    sp = state["spaces"][space - 1]
    sp["existing_orders"] = list(existing)
    sp["customer_base"] = list(customer)
    sp["initial_order"] = initial


def to_capacity(state: dict[str, Any]) -> None:
    state["phase"] = "capacity"
    state["turn"] = 0


def finish_round(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone passes until the automatic phases have run; return all events."""
    events: list[dict[str, Any]] = []
    start = state["round"]
    while not state["finished"] and state["round"] == start:
        seat = ENGINE.active_seats(state)[0]
        events += ENGINE.apply(state, seat=seat, command={"cmd": "pass"})
    return events


def upcoming_rolls(state: dict[str, Any], count: int) -> list[int]:
    """The next ``count`` die rolls the game's generator will produce."""
    rng = Rng(state["rng"])
    return [rng.randint(1, 6) for _ in range(count)]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def snapshot(state: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(state)
