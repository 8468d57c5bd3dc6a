"""Hypothesis: random play of Resourceful Rails on the shipped map keeps the invariants.

Each example sets up a game (2-5 players, random options) and plays a hypothesis-drawn script:
a random pick among ``legal_commands`` (never refused), end-turn, a planned build to a city
(``Engine.plan``), a planned move, the planner bot's command, or a wild build or move along a random
walk (accepted or refused; a refused one changes nothing). After every command:

- every track key is a real hex-neighbour pair of the map, not inside a major city, owned by a seat,
  and an owner never changes (one owner per milepost pair);
- each player's cash is what the events say: builds at the spec's prices (recomputed from map.json),
  upgrades $20, payouts from the deck, tolls of $4 moved from payer to payee once a turn each;
- goods are conserved (supply + loads == goods_supply for every good), loads within capacity;
- cards are conserved (deck + discards + hands == every card once), hands hold 3 (5 before the
  extra-cards discard);
- small and medium cities have at most 2 / 3 players' track, at most 3 sections of one player;
- every player's track is joined, through their own track and the major cities, to a major city
  (where all building starts);
- the state is plain JSON, and no view shows a seat another seat's hand.

At the end, the command log replayed from the same seed gives the identical state.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.resourceful_rails import ENGINE, data

from .helpers import MAP, NAMES, SLC, major_exit, pair_to, price

ALL_CARDS = list(range(1, 145))
CAPS = {"small": 2, "medium": 3}
CITY_NODES = sorted(i for c in MAP.cities.values() for i in c.nodes)
MAJOR_NODES = {i for i, m in enumerate(MAP.major_of) if m is not None}
PLACES = {cid: set(c.nodes) for cid, c in MAP.cities.items() if c.size in CAPS}

OPTIONS = st.fixed_dictionaries({
    "turn_order": st.sampled_from(["random", "seated"]),
    "fast_trains": st.booleans(),
    "extra_build_turn": st.booleans(),
    "extra_starting_cards": st.booleans(),
    "win_timing": st.sampled_from(["at-once", "finish-round"]),
    "goods_supply": st.integers(1, 3),
    "place_anywhere": st.booleans(),
    "round_limit": st.sampled_from([0, 3, 6]),
})
# weights by repetition: mostly random legal commands and ends of turns, some planned play
KINDS = ["legal"] * 4 + ["end"] * 2 + ["plan-build", "plan-move", "plan-move", "bot", "bot", "wild"]
SCRIPT = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2**20)), min_size=20, max_size=150)


class Ledger:
    """What the events say each player's cash must be, and the tolls paid this turn."""

    def __init__(self, state):
        self.cash = [p["cash"] for p in state["players"]]
        self.paid: set[int] = set()
        self.owners: dict[str, int] = {}

    def record(self, state, before_track, seat, events):
        for e in events:
            t = e["type"]
            if t == "turn-started":
                self.paid = set()
            elif t == "built":
                assert e["seat"] == seat
                new = {k: o for k, o in state["rail"]["track"].items() if k not in before_track}
                assert set(new.values()) <= {seat} and len(new) == e["sections"]
                expected = 0
                for a, b in zip(e["path"], e["path"][1:], strict=False):
                    k = MAP.edge_key(MAP.find(a), MAP.find(b))
                    if k in new:
                        expected += price(a, b)
                        new.pop(k)  # a pair is paid once even if the path comes back over it
                assert not new
                assert e["cost"] == expected
                self.cash[seat] -= expected
            elif t == "upgraded":
                assert e["cost"] == 20
                self.cash[seat] -= 20
            elif t == "delivered":
                assert e["payout"] == data.cards()[e["card"]]["demands"][e["demand"]]["payout"]
                self.cash[seat] += e["payout"]
            elif t == "moved":
                users = set()
                for a, b in zip(e["path"], e["path"][1:], strict=False):
                    o = before_track.get(MAP.edge_key(MAP.find(a), MAP.find(b)))
                    if o is not None and o != seat:
                        users.add(o)
                assert e["moves"] == len(e["path"]) - 1
                assert sorted(t["payee"] for t in e["tolls"]) == sorted(users - self.paid)
                for toll in e["tolls"]:
                    assert toll["amount"] == 4
                    self.cash[seat] -= 4
                    self.cash[toll["payee"]] += 4
                    self.paid.add(toll["payee"])


def check(state, ledger, viewer=None):
    assert json.loads(json.dumps(state)) == state
    players = state["players"]
    seats = [p["seat"] for p in players]
    assert [p["cash"] for p in players] == ledger.cash
    assert all(c >= 0 for c in ledger.cash)
    # goods
    supply = state["options"]["goods_supply"]
    for good, left in state["supply"].items():
        assert left >= 0
        assert left + sum(p["loads"].count(good) for p in players) == supply
    for p in players:
        assert len(p["loads"]) <= ENGINE.capacity(state, p["seat"])
    # cards
    hands = [c for p in players for c in p["hand"]]
    assert sorted(state["deck"] + state["discards"] + hands) == ALL_CARDS
    for p in players:
        assert len(p["hand"]) == (5 if p["must_discard"] else 3)
    # track: real pairs, one owner each, never changing
    for key, who in state["rail"]["track"].items():
        a, b = MAP.edge_nodes[key]
        nb = MAP.between(a, b)
        assert nb is not None and nb.link is None and nb.key == key
        assert MAP.hex_distance(a, b) == 1
        assert not (MAP.major_of[a] is not None and MAP.major_of[a] == MAP.major_of[b])
        assert who in seats
        assert ledger.owners.setdefault(key, who) == who
    assert set(ledger.owners) == set(state["rail"]["track"])
    # caps
    for cid, nodes in PLACES.items():
        owners = [o for k, o in state["rail"]["track"].items() if set(MAP.edge_nodes[k]) & nodes]
        assert len(set(owners)) <= CAPS[MAP.cities[cid].size]
        assert all(owners.count(o) <= 3 for o in set(owners))
    # connectivity: every piece of a player's track reaches a major city through their own track
    for seat in seats:
        assert not cut_off(state["rail"]["track"], seat)
    # the turn
    if not state["finished"]:
        assert state["active"] in seats
        assert 0 <= state["turn"]["spent"] <= 20
        assert state["turn"]["moves_used"] <= ENGINE.speed(state, state["active"])
        assert state["rail"]["turn"]["major_starts"] <= 2
    else:
        assert state["winners"] and set(state["winners"]) <= set(seats)
    # the view (of one seat or a spectator a time: views are slow): a seat sees its own hand only
    view = ENGINE.view(state, seat=viewer)
    for vp, p in zip(view["players"], players, strict=True):
        assert vp["hand_size"] == len(p["hand"])
        if vp["seat"] == viewer:
            assert [c["id"] for c in vp["hand"]] == p["hand"]
        else:
            assert vp["hand"] is None
    assert view["track"] == state["rail"]["track"]


def cut_off(track, seat):
    """The mileposts of ``seat``'s track not joined to any major city by ``seat``'s own track and the
    major cities' insides (union-find, independent of the rail core's ``components``)."""
    parent: dict[int, int] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    ends = set()
    for key, who in track.items():
        if who == seat:
            a, b = MAP.edge_nodes[key]
            parent[find(a)] = find(b)
            ends.update((a, b))
    for c in MAP.majors:
        first, *rest = MAP.cities[c].nodes
        for n in rest:
            parent[find(n)] = find(first)
    rooted = {find(n) for n in MAJOR_NODES}
    return sorted(n for n in ends if find(n) not in rooted)


def city_target(pick):
    return MAP.address(CITY_NODES[pick % len(CITY_NODES)])


def own_or_city_nodes(state, seat):
    nodes = set(CITY_NODES)
    for key, who in state["rail"]["track"].items():
        if who == seat:
            nodes.update(MAP.edge_nodes[key])
    return sorted(nodes)


def walk(rng, start, steps):
    path = [start]
    for _ in range(steps):
        path.append(rng.choice(MAP.adjacency[path[-1]]).node)
    return [MAP.address(i) for i in path]


def choose(state, seat, kind, pick):
    """The command to try for ``seat``, and whether it must be accepted."""
    rng = random.Random(pick)
    legal = ENGINE.legal_commands(state, seat=seat)
    assert legal, "the active seat always has something to do"
    stage = state["stage"]
    if kind == "end" and stage != "discard":
        assert {"cmd": "end-turn"} in legal
        return {"cmd": "end-turn"}, True
    if kind == "bot":
        return ENGINE.bot_command(state, seat=seat, bot="planner", rng=rng), True
    if kind == "plan-build" and ENGINE.build_left(state, seat) > 0:
        try:
            plan = ENGINE.plan(state, seat=seat, request={"plan": "build", "points": [None, city_target(pick)]})
        except RulesError as err:
            assert err.code == "no-path"
        else:
            assert plan["costs"] == [price(a, b) for a, b in plan["sections"]]
            assert plan["cost"] == sum(plan["costs"])
            if plan["sections"]:  # else the target is reached for free already: nothing to send
                return plan["command"], plan["affordable"]
    if kind == "plan-move" and stage == "move" and state["players"][seat]["at"] is not None:
        nodes = own_or_city_nodes(state, seat)
        try:
            plan = ENGINE.plan(state, seat=seat, request={"plan": "move", "to": MAP.address(rng.choice(nodes))})
        except RulesError as err:
            assert err.code == "no-path"
        else:
            assert plan["moves"] == len(plan["path"]) - 1 <= plan["moves_left"]
            if plan["moves"]:  # else the train is there already
                return plan["command"], True
    if kind == "wild":
        player = state["players"][seat]
        if stage == "move" and player["at"] is not None and rng.random() < 0.5:
            return {"cmd": "move", "path": walk(rng, MAP.find(player["at"]), rng.randint(1, 4))}, None
        starts = data.core().build_starts(state["rail"], seat)
        return {"cmd": "build", "path": walk(rng, rng.choice(starts), rng.randint(1, 3))}, None
    # a kind of command first, then one of that kind: builds, one per section, would crowd out the rest
    names = sorted({c["cmd"] for c in legal})
    name = names[pick % len(names)]
    of_kind = [c for c in legal if c["cmd"] == name]
    return of_kind[(pick // len(names)) % len(of_kind)], True


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), options=OPTIONS, script=SCRIPT)
def test_random_play_keeps_the_invariants(seed, players, options, script):
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    ledger = Ledger(state)
    check(state, ledger)
    log = []
    viewers = [*range(players), None]
    for step, (kind, pick) in enumerate(script):
        if state["finished"]:
            break
        seat = state["active"]
        command, must = choose(state, seat, kind, pick)
        before = copy.deepcopy(state)
        try:
            events = ENGINE.apply(state, seat=seat, command=command)
        except RulesError as err:
            assert must is not True, f"a legal command was refused: {command} -> {err.code}: {err}"
            assert state == before, f"refused {command} ({err.code}) but changed the state"
            if must is False:  # a planned build over the budget: the cash or the turn's limit
                assert err.code in ("not-enough-cash", "over-turn-limit")
            continue
        assert must is not False, f"{command} was planned over budget but accepted"
        log.append((seat, command))
        ledger.record(state, before["rail"]["track"], seat, events)
        check(state, ledger, viewers[step % len(viewers)])
        for e in events:
            if e["type"] in ("train-placed", "moved", "picked-up", "delivered", "upgraded", "game-over"):
                event(e["type"])
            if e["type"] == "moved" and e["tolls"]:
                event("toll")

    replay = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    for seat, command in log:
        ENGINE.apply(replay, seat=seat, command=command)
    assert replay == state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_planner_bots_play_a_long_stretch_keeping_the_invariants(seed, players):
    """The planner reaches what random play rarely does (deliveries, the draw, upgrades, tolls)."""
    state = ENGINE.setup(players=NAMES[:players], options={"round_limit": 4}, seed=seed)
    ledger = Ledger(state)
    rng = random.Random(seed)
    kinds = set()
    viewers = [*range(players), None]
    for step in range(400):
        if state["finished"]:
            break
        seat = state["active"]
        before_track = dict(state["rail"]["track"])
        command = ENGINE.bot_command(state, seat=seat, bot="planner", rng=rng)
        events = ENGINE.apply(state, seat=seat, command=command)
        kinds.update(e["type"] for e in events)
        kinds.update("toll" for e in events if e["type"] == "moved" and e["tolls"])
        ledger.record(state, before_track, seat, events)
        check(state, ledger, viewers[step % len(viewers)])
    assert {"built", "train-placed", "moved"} <= kinds
    for kind in sorted(kinds & {"picked-up", "delivered", "upgraded", "toll", "game-over"}):
        event(kind)


def test_the_connectivity_check_finds_detached_track():
    a, b = pair_to("clear")
    m, x = major_exit(SLC)
    track = {MAP.edge_key(MAP.find(a), MAP.find(b)): 0, MAP.edge_key(MAP.find(m), MAP.find(x)): 1}
    assert cut_off(track, 0) == sorted([MAP.find(a), MAP.find(b)])
    assert cut_off(track, 1) == []
