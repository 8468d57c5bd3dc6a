"""Hypothesis: random play of Runerail on the shipped world keeps the invariants.

Each example sets up a game (2–6 players, both options drawn), either from the start or rigged at the first
normal turn with the area events on top of the deck (``test_rules_random._rigged``: trains in and out of the
Ashen Reach with loads, so events destroy track, ask for loads and take turns), and plays a hypothesis-drawn
script: a random pick among ``legal_commands`` (never refused), end-turn, the planner bot's command, a build
planned to a random milepost (``Engine.plan``), or a wild build or move along a random walk (accepted or
refused; a refused command changes nothing). After every command:

- every track key is a real pair of neighbouring mileposts (or a link's pair) owned by a seat, and a section
  that stays keeps its owner (one owner per milepost pair); a section only goes by an event destroying it;
- each player's gold is what the events say: builds, upgrades and hiring at their event's price, tolls and
  bribes moved from payer to payee, payouts, the war tax, ships' boarding fees; never below 0;
- loads are conserved (supply + every train's loads == the chips of each load), a train within its capacity;
- cards are conserved: the demand deck, its discards, the hands and the event cards in force hold every card
  of the deck once; the foremen (deck, discards, players, the draft, a hire's draw) and the ships (deck,
  discards, aboard, the Halfling's offer) likewise; locos in the supply plus on the trains are the cards
  (an upgrade's old loco of level 2–4 goes back to the supply, the starting level 1 does not);
- the state is plain JSON, and no view shows a seat another seat's hand, a foreman deal or a ship offer.

At the end, the command log replayed from the same start gives the identical state.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.runerail import data

from .helpers import ENGINE, MAP, NAMES, to_play
from .test_rules_random import _rigged

OPTIONS = st.fixed_dictionaries({
    "turn_order": st.sampled_from(["random", "seated"]),
    "prism_bridge": st.sampled_from(["game", "until-strike"]),
})
KINDS = ["legal"] * 5 + ["end"] * 2 + ["bot", "bot", "plan-build", "wild-build", "wild-move"]
SCRIPT = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2**20)), min_size=20, max_size=120)
START = st.sampled_from(["setup", "play", "rigged"])

ALL_CARDS = Counter(data.deck())
ALL_FOREMEN = Counter(list(data.foremen()))
ALL_SHIPS = Counter(list(data.ships()))
LOCO_CARDS = {t: spec["count"] for t, spec in data.locos().items()}
CHIPS = {x: spec["chips"] for x, spec in data.loads().items()}
PAIRS = set(MAP.edge_nodes)


def ledger(gold: list[int], events: list[dict]) -> list[int]:
    """The players' gold after ``events``, from what the events say was paid."""
    out = list(gold)
    for e in events:
        kind = e["type"]
        if kind == "built":
            out[e["seat"]] -= e["cost"]
        elif kind == "upgraded":
            out[e["seat"]] -= e["cost"]
        elif kind in ("foreman-drawn", "foreman-hired"):
            out[e["seat"]] -= e["price"]
        elif kind == "boarded":
            out[e["seat"]] -= e["fee"]
        elif kind == "delivered":
            out[e["seat"]] += e["payout"]
        elif kind == "moved":
            for fee in e["fees"]:
                out[e["seat"]] -= fee["amount"]
                if fee["payee"] is not None:
                    out[fee["payee"]] += fee["amount"]
        elif kind == "war-tax":
            for seat, paid in e["paid"].items():
                out[int(seat)] -= paid
    return out


def check(state: dict, before: dict | None, events: list[dict], retired: Counter, views: bool = True) -> None:
    """The invariants (the module's list); ``views``: every seat's and a spectator's view too (the dearest part,
    so the script checks them every few commands and at the end)."""
    players = state["players"]
    track = state["rail"]["track"]
    assert set(track) <= PAIRS
    assert all(owner in range(len(players)) for owner in track.values())
    if before is not None:
        destroyed = set()
        for e in events:
            if e["type"] == "track-destroyed":
                destroyed |= set(e["sections"])
        for key, owner in before["rail"]["track"].items():
            if key in track:
                assert track[key] == owner, key
            else:
                assert key in destroyed, key
        assert [p["gold"] for p in players] == ledger([p["gold"] for p in before["players"]], events), events
    assert all(p["gold"] >= 0 for p in players)
    carried = Counter(x for p in players for x in p["loads"])
    assert {x: state["supply"][x] + carried[x] for x in CHIPS} == CHIPS
    assert all(len(p["loads"]) <= ENGINE.capacity(state, p["seat"]) for p in players)
    # An event card is in force until discarded; destroyed track's rebuild rights outlast their card (then
    # already in the discards, and perhaps drawn again).
    in_force = [e["card"] for e in state["effects"] if e["status"] != "rebuild"]
    assert Counter(state["deck"]) + Counter(state["discards"]) + Counter(c for p in players for c in p["hand"]) \
        + Counter(in_force) == ALL_CARDS
    foremen = Counter(state["foreman_deck"]) + Counter(state["foreman_discards"]) \
        + Counter(p["foreman"] for p in players if p["foreman"])
    if state["draft"] is not None:
        foremen += Counter(f for dealt in state["draft"]["dealt"].values() for f in dealt)
        foremen += Counter(state["draft"].get("undrafted", []))
    if state["hire"] is not None:
        foremen += Counter([state["hire"]["drawn"]])
    assert foremen == ALL_FOREMEN
    if state.get("ship_deck") is not None:
        ships = Counter(state["ship_deck"]) + Counter(state.get("ship_discards") or []) \
            + Counter(p["ship"] for p in players if p.get("ship"))
        if state.get("ship_offer"):
            ships += Counter(state["ship_offer"]["ships"])
        assert ships == ALL_SHIPS
    on_trains = Counter(p["loco"] for p in players)
    assert {t: state["locos"][t] + on_trains[t] + retired[t] for t in LOCO_CARDS} == LOCO_CARDS
    json.dumps(state)
    if not views:
        return
    for viewer in (None, *range(len(players))):
        view = ENGINE.view(state, seat=viewer)
        json.dumps(view)
        assert all(p["hand"] is None for p in view["players"] if p["seat"] != viewer)
        if view["draft"] is not None and viewer is None:
            assert view["draft"]["yours"] is None
        if view["ship_offer"] is not None and view["ship_offer"]["seat"] != viewer:
            assert view["ship_offer"]["ships"] is None
        assert "deck" not in view and "rng" not in view


def walk(start: str, rnd: random.Random, length: int) -> list[list[int]]:
    """A random walk of neighbouring mileposts from ``start`` (a key)."""
    keys = [start]
    for _ in range(length):
        here = MAP.index[keys[-1]]
        nxt = [MAP.key(nb.node) for nb in MAP.adjacency[here]]
        if not nxt:
            break
        keys.append(rnd.choice(nxt))
    return [[int(x) for x in k.split(",")] for k in keys]


def command_for(kind: str, state: dict, seat: int, rnd: random.Random) -> dict | None:
    legal = ENGINE.legal_commands(state, seat=seat)
    if kind == "legal" or not legal:
        return rnd.choice(legal) if legal else None
    if kind == "end":
        return {"cmd": "end-turn"}
    if kind == "bot":
        return ENGINE.bot_command(state, seat=seat, bot="planner", rng=rnd)
    if kind == "plan-build":
        target = MAP.nodes[rnd.randrange(len(MAP.nodes))].key
        try:
            plan = ENGINE.plan(state, seat=seat, request={"plan": "build", "points": [None, target]})
        except RulesError:
            return None
        return plan["command"] if plan["affordable"] and plan["sections"] else None
    player = state["players"][seat]
    if kind == "wild-move" and player["at"]:
        return {"cmd": "move", "path": walk(player["at"], rnd, rnd.randint(1, 6))}
    owned = [k for k, o in state["rail"]["track"].items() if o == seat]
    if owned:
        start = rnd.choice(rnd.choice(owned).split("|"))
    else:
        start = MAP.key(rnd.choice(MAP.cities[rnd.choice(sorted(MAP.majors))].nodes))
    return {"cmd": "build", "path": walk(start, rnd, rnd.randint(1, 4))}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31), options=OPTIONS, start=START, script=SCRIPT)
def test_random_play_keeps_the_invariants(players, seed, options, start, script):
    if start == "rigged":
        state = _rigged(players, seed)
    else:
        state = ENGINE.setup(players=NAMES[:players], options=dict(options), seed=seed)
        if start == "play":
            to_play(state)
    event(f"start: {start}")
    initial = copy.deepcopy(state)
    retired: Counter = Counter()  # locos an upgrade took off a train that do not go back (levels 1 and 5)
    check(state, None, [], retired)
    log = []
    for kind, salt in script:
        if state["finished"]:
            break
        seat = ENGINE.active_seats(state)[0]
        rnd = random.Random(salt)
        command = command_for(kind, state, seat, rnd)
        if command is None:
            continue
        before = copy.deepcopy(state)
        try:
            events = ENGINE.apply(state, seat=seat, command=copy.deepcopy(command))
        except RulesError:
            assert kind.startswith("wild") or kind == "end", (kind, command)
            assert state == before, f"refused {command} but changed the state"
            continue
        log.append((seat, command))
        for e in events:
            event(f"event: {e['type']}")
            if e["type"] == "upgraded" and not 2 <= data.locos()[e["from"]]["level"] <= 4:
                retired[e["from"]] += 1
        check(state, before, events, retired, views=len(log) % 4 == 0)
    check(state, None, [], retired)
    replay = initial
    for seat, command in log:
        ENGINE.apply(replay, seat=seat, command=command)
    assert replay == state
