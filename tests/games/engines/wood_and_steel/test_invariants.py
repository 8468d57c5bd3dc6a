"""Hypothesis: random legal play (mixed with the simple bot) never breaks an invariant."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE, turn_key
from games.engines.wood_and_steel.contracts import contract_key
from games.engines.wood_and_steel.scoring import breadth_bonus, depth_bonus
from games.engines.wood_and_steel.simulate import simple_policy

from .helpers import clone, snapshot

OPEN = ("offered", "held", "market")
GARBAGE = [
    {"cmd": "fulfill-contract", "contract": 10_000},
    {"cmd": "build-track", "route": "Seattle-Vancouver", "segments": 9},
    {"cmd": "buy-engine", "engine": "challenger"},
    {"cmd": "choose-offer", "offer": -1},
    {"cmd": "end-round"},
    {"cmd": "repay-debt", "amount": 7_000},
    {"cmd": "bid", "amount": 1},
    {"cmd": "acquire-railroad", "railroad": "1"},
    {"cmd": "place-engine", "city": "Atlanta"},
    {"cmd": 5},
]


def check_invariants(state, events):
    light = {k: v for k, v in state.items() if k != "board"}  # the board never changes; checked at setup
    assert json.loads(json.dumps(light)) == light
    board = ENGINE.board(state)
    opts = state["options"]
    ids = [c["id"] for c in state["contracts"]]
    assert len(ids) == len(set(ids))
    open_keys = [contract_key(c["commodity"], c["destination"]) for c in state["contracts"] if c["status"] in OPEN]
    assert len(open_keys) == len(set(open_keys)), "duplicate open contracts"
    for c in state["contracts"]:
        assert c["commodity"] not in board.cities[c["destination"]]["commodities"]
        assert c["value"] == 3_000 * board.nearest[c["commodity"]][c["destination"]]
        if c["type"] == "market":
            assert c["value"] >= opts["min_market_value"]
    held_refs = []
    all_active = set()
    for p in state["players"]:
        assert p["money"] >= 0 and p["debt"] >= 0 and p["debt"] % 5_000 == 0
        all_active |= set(p["active_cities"]) | set(p["network"])
        # active cities (rules): the starting cities, then every city delivered to, the latest last
        if p["start_route"]:
            expected = list(board.route_cities(p["start_route"]))
            if p["engine_city"]:
                expected = [c for c in expected if c != p["engine_city"]] + [p["engine_city"]]
            for cid in p["fulfilled"]:
                dest = ENGINE._contract(state, cid)["destination"]
                expected = [c for c in expected if c != dest] + [dest]
            assert p["active_cities"] == expected
        else:
            assert p["active_cities"] == []
        for key in ("private", "market"):
            if p[key] is not None:
                c = ENGINE._contract(state, p[key])
                assert c["status"] == "held" and c["holder"] == p["seat"] and c["type"] == ("private" if key == "private" else "market")
                held_refs.append(c["id"])
        for cid in p["offers"]:
            c = ENGINE._contract(state, cid)
            assert c["status"] == "offered" and c["holder"] == p["seat"]
        # ties: every fulfilled contract is paid out once (or forfeited in a bankruptcy)
        deliveries = [e for e in p["tie_log"] if e["source"] == "delivery"]
        bankruptcies = [e for e in p["tie_log"] if e["source"] == "bankruptcy"]
        assert len(deliveries) + len(bankruptcies) == len(p["fulfilled"])
        for e in deliveries:
            assert e["ties"] == ENGINE._contract(state, e["contract"])["ties"]
        # breadth and depth count paid deliveries only (a bankrupt delivery earns no ties);
        # games started before issue 18 counted every fulfilled contract
        paid = len(deliveries) if opts.get("segment_unit", "length") == "route" else len(p["fulfilled"])
        assert sum(p["deliveries"].values()) == paid
        view_ties = ENGINE.view(state, seat=p["seat"])["players"][p["seat"]]["ties"]
        counts = [n for n in p["deliveries"].values() if n]
        expected = sum(e["ties"] for e in p["tie_log"]) + sum(e["ties"] for e in p["end_bonus"])
        expected += breadth_bonus(len(counts)) + depth_bonus(max(counts, default=0), opts["depth_rule"])
        assert view_ties == expected
    held = [c["id"] for c in state["contracts"] if c["status"] == "held"]
    assert sorted(held) == sorted(held_refs)
    # independents never share a city with each other
    seen = set()
    for rr in state["railroads"]:
        if rr["acquired_by"] is None:
            cs = ENGINE._railroad_cities(state, rr)
            assert not (cs & seen)
            seen |= cs
    # growth this command never touched a player's city (network or active) or a neighbour of one
    near = set(all_active) | {n for c in all_active for n in board.neighbours[c]}
    for e in events:
        if e["type"] == "railroad-grew":
            assert not (set(board.route_cities(e["route"])) & near)
    for seat in [None] + list(range(len(state["players"]))):
        text = json.dumps(ENGINE.view(state, seat=seat))
        assert '"rng"' not in text and '"routes": [{"a"' not in text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 6),
    choices=st.lists(st.integers(0, 2**16), min_size=30, max_size=260),
    options=st.fixed_dictionaries(
        {
            "min_market_value": st.sampled_from([6_000, 9_000]),
            "tie_rule": st.sampled_from(["section", "region-matrix"]),
            "limit_actions": st.booleans(),
            "check_network": st.booleans(),
            "target_ties": st.sampled_from([10, 30]),
        }
    ),
)
def test_random_games_keep_invariants(seed, players, choices, options):
    state = ENGINE.setup(players=[f"P{i}" for i in range(players)], options=ENGINE.normalize_options(options), seed=seed)
    bot_rng = random.Random(seed)
    assert json.loads(json.dumps(state)) == state
    check_invariants(state, [])
    for step, choice in enumerate(choices):
        if ENGINE.is_finished(state):
            break
        seats = ENGINE.active_seats(state)
        assert seats
        seat = seats[choice % len(seats)]
        legal = ENGINE.legal_commands(state, seat=seat)
        assert legal, "an active seat always has something to do"
        if step % 20 == 7:  # every listed command is accepted
            for cmd in legal[:40]:
                ENGINE.apply(clone(state), seat=seat, command=cmd)
        if step % 5 == 3:  # a garbage command is refused without touching the state
            before = snapshot(state)
            try:
                ENGINE.apply(clone(state), seat=seat, command=GARBAGE[choice % len(GARBAGE)])
            except RulesError:
                pass
            twin = clone(state)
            try:
                ENGINE.apply(twin, seat=seat, command=GARBAGE[choice % len(GARBAGE)])
            except RulesError:
                assert snapshot(twin) == before
        if choice % 3 == 0:
            cmd = simple_policy(ENGINE, state, seat, bot_rng)
        else:
            ends = [c for c in legal if c["cmd"] in ("end-turn", "end-round")]
            cmd = ends[0] if ends and choice % 7 == 1 else legal[(choice // 3) % len(legal)]
        key_before = json.dumps(turn_key(state))
        events = ENGINE.apply(state, seat=seat, command=cmd)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        if cmd["cmd"] not in ("end-turn", "end-round", "place-engine", "rank-starting-routes", "fulfill-contract", "sell-track", "bid", "pass-bid"):
            assert json.dumps(turn_key(state)) == key_before or state["phase"] != "play"
        check_invariants(state, events)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 6))
def test_replaying_a_command_log_reproduces_the_game(seed, players):
    state = ENGINE.setup(players=[f"P{i}" for i in range(players)], options=ENGINE.normalize_options({"max_rounds": 4}), seed=seed)
    start = clone(state)
    log = []
    rng = random.Random(seed)
    for _ in range(400):
        if ENGINE.is_finished(state):
            break
        seat = ENGINE.active_seats(state)[0]
        cmd = simple_policy(ENGINE, state, seat, rng)
        log.append((seat, cmd))
        ENGINE.apply(state, seat=seat, command=cmd)
    replay = start
    for seat, cmd in log:
        ENGINE.apply(replay, seat=seat, command=json.loads(json.dumps(cmd)))
    assert snapshot(replay) == snapshot(state)
