"""Runerail's scene for the browser tests: a 3-player game whose seed makes the third player's hand
discard (in round 1) draw the Raiders from the Ash while the second player's train stands in the Ashen
Reach with two different loads, so that the event asks another player to choose a load to lose (a train
with one load, or loads all alike, has no choice: it loses it without being asked).

The seed is found on a replica of the game (``ENGINE.setup`` with the same players, options and seed,
and the commands of :func:`prefix` applied) and set through the database before the game starts."""

from __future__ import annotations

import copy

from games.engines.registry import get_engine
from games.engines.runerail import data

ENGINE = get_engine("runerail")
RAIDERS = "ashland-raiders"  # a lose-load event: every train in the Ashen Reach with a load loses one
NAMES = ["Ann", "Bo", "Cy"]


def key_of(at) -> str:
    return ",".join(str(v) for v in at)


def listed(state: dict, seat: int, cmd: str) -> list[dict]:
    return [e["command"] for e in ENGINE.listing(state, seat=seat) if e["command"]["cmd"] == cmd and e["reason"] is None]


def ashen_city_with_load(state: dict) -> tuple[dict, dict, dict]:
    """A place-train command at a city of the Raiders' area that has two different loads to pick up, and
    those two pick-ups."""
    area = set(data.content()["areas"][RAIDERS]["nodes"])
    for place in listed(state, 1, "place-train"):
        if key_of(place["at"]) not in area:
            continue
        trial = copy.deepcopy(state)
        ENGINE.apply(trial, seat=1, command=place)
        loads = listed(trial, 1, "pick-up")
        if len({c["load"] for c in loads}) >= 2:
            return place, loads[0], next(c for c in loads if c["load"] != loads[0]["load"])
    raise AssertionError("no city of the Ashen Reach has two loads to pick up")


def prefix(state: dict) -> list[tuple[int, dict]]:
    """The commands up to Cy's hand discard, applied to ``state`` as they are made: each seat keeps the
    first foreman dealt; the build rounds end at once (the laptop's tapped build spends gold only,
    it draws no card); in round 1 Ann puts her train on a port outside the Ashen Reach, Bo on a
    city inside it and loads two different loads there."""
    done: list[tuple[int, dict]] = []

    def do(seat: int, command: dict) -> None:
        ENGINE.apply(state, seat=seat, command=command)
        done.append((seat, command))

    while state["phase"] == "draft":
        seat = state["active"]
        do(seat, listed(state, seat, "keep-foreman")[0])
    while state["phase"] == "build":
        do(state["active"], {"cmd": "end-turn"})
    assert state["active"] == 0
    area = set(data.content()["areas"][RAIDERS]["nodes"])
    ports = data.port_keys()
    do(0, next(c for c in listed(state, 0, "place-train") if key_of(c["at"]) not in area and key_of(c["at"]) in ports))
    do(0, {"cmd": "end-turn"})
    place, pick, second = ashen_city_with_load(state)
    do(1, place)
    do(1, pick)
    do(1, second)
    do(1, {"cmd": "end-turn"})
    assert state["active"] == 2
    return done


def raiders_ask_bo(state: dict) -> bool:
    """Whether Cy's hand discard, now, asks Bo (and only Bo) to lose a load because of the Raiders (and
    draws no event that keeps ships in port: Ann boards one afterwards)."""
    trial = copy.deepcopy(state)
    ENGINE.apply(trial, seat=2, command={"cmd": "discard-hand"})
    pending = trial.get("pending")
    return (bool(pending) and [q["seat"] for q in pending["queue"]] == [1] and pending["queue"][0]["card"] == RAIDERS
            and not any(e["kind"] == "no-boarding" for e in trial["effects"]))


def find_seed(options: dict) -> int:
    """The first seed whose deck makes Cy's discard (after the prefix) draw the Raiders asking Bo."""
    events = data.events()
    for seed in range(20_000):
        state = ENGINE.setup(players=NAMES, options=options, seed=seed)
        deck, demands, ahead = list(state["deck"]), 0, []
        while demands < 3 and deck:  # the cards a 3-card hand discard would draw (events draw again)
            card = deck.pop()
            ahead.append(card)
            demands += card not in events
        if RAIDERS not in ahead:
            continue
        prefix(state)
        if raiders_ask_bo(state):
            return seed
    raise AssertionError("no seed puts the Raiders in Cy's discard")
