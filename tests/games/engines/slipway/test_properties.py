"""Hypothesis: random legal play of Slipway keeps the invariants.

Each example sets up a game (2–4 players, the options drawn, a drawn seed) and plays commands picked from
``ENGINE.legal_commands`` by drawn numbers; some picks lean toward the ship commands (build, rent a canal,
recruit, outfit, cruise) so that ships are completed, outfitted, cruised and lost. After every command:

- every component is in exactly one place: each ship tile in a supply, a market, a yard, a fleet ship or the
  scrapped pile (and the lost ships' tiles are the scrapped pile); each canal tile in the supply, the market, a
  canal system or a used stack (every player's start tile in their system or used stack); each commodity tile
  in the supply, the market, a player's goods or the exchanged discards; each employee in the supply, on the
  wheel or with a player; each contract in the supply, a player's hand or discarded (a discard's contract is
  the one that left that player's hand);
- each player's money is what the events say (income, subsidy and sales in; tiles, steps, hires and bonuses
  out) and never below 0;
- the state is plain JSON; every few commands, no view leaks (``test_rules.check_views``).

At the end the command log replayed from the same seed gives the identical state.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engines.slipway import data

from .scenes import ENGINE, NAMES
from .test_rules import check_views

ALL_SHIPS = Counter(list(data.ships()))
ALL_CANALS = Counter(t for t in data.canals() if t != data.start_canal())
ALL_GOODS = Counter(list(data.goods()))
ALL_EMPLOYEES = Counter(list(data.employees()))
ALL_CONTRACTS = Counter(list(data.contracts()))
START = data.start_canal()

OPTIONS = st.fixed_dictionaries({
    "subsidy": st.sampled_from(["four-players", "always", "never"]),
    "stack_end": st.sampled_from(["immediate", "final-round"]),
    "two_player_cubes": st.sampled_from([1, 2]),
})
SHIPWRIGHT = {"build", "rent-canal", "recruit", "outfit", "cruise", "pass"}
PICKS = st.lists(st.tuples(st.booleans(), st.integers(0, 2**16)), min_size=40, max_size=320)

MONEY_OUT = ("bonus", "built", "canal-rented", "commodity-bought", "manufactured", "recruited", "hired")


def ledger(money: list[int], events: list[dict[str, Any]]) -> list[int]:
    """The players' money after ``events``, from what the events say was paid and received."""
    out = list(money)
    for e in events:
        if e["type"] in MONEY_OUT:
            out[e["seat"]] -= e["cost"]
        elif e["type"] in ("chose", "exchanged"):
            out[e["seat"]] += e["income"]
        elif e["type"] == "subsidy":
            out[e["seat"]] += e["amount"]
    return out


def places(state: dict[str, Any], discarded: Counter) -> dict[str, Counter]:
    """Each family's components over every place the state keeps them in."""
    players = state["players"]
    ships = Counter(t for pile in state["supply"].values() for t in pile)
    ships += Counter(t for column in state["market"].values() for t in column)
    ships += Counter(t for p in players for t in p["yard"] if t is not None)
    ships += Counter(t for p in players for s in p["fleet"] for t in s["tiles"])
    ships += Counter(state["scrapped"])
    canals = Counter(state["canal_supply"]) + Counter(state["canal_market"])
    canals += Counter(t["tile"] for p in players for t in p["canal"]["tiles"])
    canals += Counter(t for p in players for t in p["used_canals"])
    goods = Counter(state["goods_supply"]) + Counter(state["goods_market"]) + Counter(state["goods_discards"])
    goods += Counter(t for p in players for t in p["goods"])
    employees = Counter(state["employee_supply"]) + Counter(e for stop in state["employee_wheel"] for e in stop if e)
    employees += Counter(e for p in players for e in p["employees"])
    contracts = Counter(state["contract_supply"]) + Counter(c for p in players for c in p["contracts"]) + discarded
    return {"ships": ships, "canals": canals, "goods": goods, "employees": employees, "contracts": contracts}


def check(state: dict[str, Any], before: dict[str, Any] | None, events: list[dict[str, Any]],
          discarded: Counter) -> None:
    found = places(state, discarded)
    canals = found["canals"]
    assert canals.pop(START, 0) == len(state["players"])  # each player's start tile, in the system or used
    assert found == {"ships": ALL_SHIPS, "canals": ALL_CANALS, "goods": ALL_GOODS, "employees": ALL_EMPLOYEES,
                     "contracts": ALL_CONTRACTS}
    for p in state["players"]:
        assert [t["tile"] for t in p["canal"]["tiles"]].count(START) + p["used_canals"].count(START) == 1
        assert p["money"] >= 0
    assert Counter(t for p in state["players"] for s in p["lost"] for t in s["tiles"]) == Counter(state["scrapped"])
    if before is not None:
        assert [p["money"] for p in state["players"]] == ledger([p["money"] for p in before["players"]], events)
    json.dumps(state)


def _wanted(yard: list[str | None]) -> set[tuple[int, str]]:
    """The (slot, part) builds that grow a ship from the left: a middle or stern after a bow's run, else a bow."""
    parts = [None if t is None else data.ships()[t]["part"] for t in yard]
    out = set()
    for first, part in enumerate(parts):
        if part != "bow":
            continue
        j = first + 1
        while j < len(parts) and parts[j] == "middle":
            j += 1
        if j < len(parts) and parts[j] is None:
            out.add((j, "stern" if j - first >= 2 else "middle"))
    if not out:
        out |= {(k, "bow") for k in range(len(parts) - 2) if parts[k:k + 3] == [None, None, None]}
    return out


def pick(state: dict[str, Any], legal: list[dict[str, Any]], lean: bool, n: int) -> dict[str, Any]:
    """``legal[n]`` (round the list); leaning: a captain aboard, a cruise, a build that grows a ship, choosing a
    ship action, performing one or ending the turn (no bonus), in that order of preference."""
    if lean:
        wanted = _wanted(state["players"][state["turn"]["seat"]]["yard"])
        for test in (lambda c: c["cmd"] == "outfit" and c["items"] == ["captain"],
                     lambda c: c["cmd"] == "cruise",
                     lambda c: c["cmd"] == "build" and all(
                         (w["slot"], data.ships()[w["tile"]]["part"]) in wanted for w in c["tiles"]),
                     lambda c: c["cmd"] == "choose" and c["action"] in ("build", "canal", "crew"),
                     lambda c: c["cmd"] in SHIPWRIGHT or c["cmd"] == "end-turn"):
            leaning = [c for c in legal if test(c)]
            if leaning:
                return leaning[n % len(leaning)]
    return legal[n % len(legal)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31), options=OPTIONS, picks=PICKS)
def test_random_play_keeps_the_invariants(players, seed, options, picks):
    state = ENGINE.setup(players=list(NAMES[:players]), options=dict(options), seed=seed)
    initial = copy.deepcopy(state)
    discarded: Counter = Counter()
    check(state, None, [], discarded)
    check_views(state)
    log = []
    for lean, n in picks:
        if state["finished"]:
            break
        s = ENGINE.active_seats(state)[0]
        command = pick(state, ENGINE.legal_commands(state, seat=s), lean, n)
        before = copy.deepcopy(state)
        events = ENGINE.apply(state, seat=s, command=copy.deepcopy(command))
        log.append((s, command))
        for e in events:
            event(f"event: {e['type']}")
            if e["type"] == "contract-discarded":
                discarded += Counter(before["players"][e["seat"]]["contracts"]) - Counter(
                    state["players"][e["seat"]]["contracts"])
        check(state, before, events, discarded)
        if len(log) % 10 == 0:
            check_views(state)
    check_views(state)
    event(f"finished: {state['finished']}")
    replay = copy.deepcopy(initial)
    for s, command in log:
        ENGINE.apply(replay, seat=s, command=command)
    assert replay == state
    again = ENGINE.setup(players=list(NAMES[:players]), options=dict(options), seed=seed)
    assert again == initial


def test_a_whole_random_game_replays_and_conserves():
    """One fixed game to the end (the property above may stop early): every family conserved at the end."""
    state = ENGINE.setup(players=list(NAMES[:3]), options={}, seed=11)
    initial = copy.deepcopy(state)
    rnd = random.Random(11)
    log = []
    discarded: Counter = Counter()
    while not state["finished"]:
        s = ENGINE.active_seats(state)[0]
        command = pick(state, ENGINE.legal_commands(state, seat=s), rnd.random() < 0.7, rnd.randrange(2**16))
        before = copy.deepcopy(state)
        events = ENGINE.apply(state, seat=s, command=command)
        for e in events:
            if e["type"] == "contract-discarded":
                discarded += Counter(before["players"][e["seat"]]["contracts"]) - Counter(
                    state["players"][e["seat"]]["contracts"])
        check(state, before, events, discarded)
        log.append((s, command))
    assert sum(discarded.values()) > 0 and state["scores"] is not None
    for s, command in log:
        ENGINE.apply(initial, seat=s, command=command)
    assert initial == state
