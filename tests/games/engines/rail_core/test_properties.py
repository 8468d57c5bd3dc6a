"""Hypothesis: random play on random small maps keeps the core's invariants.

- one owner per milepost pair, and an owner never changes once a section is built;
- a refused build changes nothing;
- a planned build path is legal, and its cost is the sum of the rules' cost of each new section;
- no capped place ever has more players than its cap, nor a player more sections into it than allowed;
- at most two sections a turn start at major cities;
- every piece of a player's track is joined to a major city (where all building starts);
- a planned move is legal and its fees are the tolls of the opponents it uses, once each.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.rail_core import RailCore, load_map

from .helpers import random_map

ops = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(["plan", "plan-from", "walk", "turn", "move"]), st.integers(0, 10**6)),
    min_size=5, max_size=30,
)


def invariants(core: RailCore, rail, owners_seen):
    m = core.map
    for key, owner in rail["track"].items():
        assert owners_seen.setdefault(key, owner) == owner  # never changes
        a, b = m.edge_nodes[key]
        assert not m.is_internal(a, b)
        assert core.node_cost[a] is not None and core.node_cost[b] is not None
    for place in core.places.values():
        owners = [rail["track"][key] for key in place.incident if key in rail["track"]]
        if place.cap is not None:
            assert len(set(owners)) <= place.cap
        if not place.major:
            assert all(owners.count(p) <= core.rules["max_own_sections"] for p in set(owners))
    assert rail["turn"]["major_starts"] <= core.rules["major_starts_per_turn"]
    majors = {m.key(i) for i, major in enumerate(core.is_major) if major}
    for p in rail["players"]:
        for comp in core.components(rail, p):
            assert majors.intersection(comp)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), script=ops)
def test_random_play_keeps_the_invariants(seed, players, script):
    rng = random.Random(seed)
    core = RailCore(load_map(random_map(rng, width=6, height=5, major=True, river_pairs=3)))
    m = core.map
    seats = list(range(players))
    rail = core.new_state(seats)
    core.start_turn(rail, 0)
    owners_seen: dict[str, int] = {}
    for who, action, pick in script:
        player = seats[who % players]
        if action == "turn" or player != rail["turn"]["player"]:
            core.start_turn(rail, player)
        r = random.Random(pick)
        if action == "move":
            on_track = sorted({i for key in rail["track"] for i in m.edge_nodes[key]})
            if len(on_track) >= 2:
                a, b = r.sample(on_track, 2)
                plan = core.plan_move(rail, player, m.key(a), m.key(b), moves_left=r.randint(1, 12))
                if plan is not None:
                    again = core.check_move(rail, player, plan.path, moves_left=12)
                    assert (again.moves, again.fees) == (plan.moves, plan.fees)
                    users = {rail["track"].get(m.edge_key(m.index[x], m.index[y]))
                             for x, y in zip(plan.path, plan.path[1:], strict=False)}
                    paid = set(core.turn_counts(rail, player)[1])
                    assert {f["payee"] for f in plan.fees} == {o for o in users
                                                             if o is not None and o != player
                                                             and f"toll:{o}" not in paid}
            continue
        target = m.key(r.randrange(len(m.nodes)))
        if action == "walk":  # any path at all: legal or refused, never half-built
            path = [r.randrange(len(m.nodes))]
            for _ in range(r.randint(1, 4)):
                path.append(r.choice(m.adjacency[path[-1]]).node if m.adjacency[path[-1]] else path[-1])
            before = (dict(rail["track"]), dict(rail["turn"]))
            try:
                core.build(rail, player, [m.key(i) for i in path], budget=r.choice([None, 5, 20]))
            except RulesError:
                assert (rail["track"], rail["turn"]) == before
            invariants(core, rail, owners_seen)
            continue
        start = None
        if action == "plan-from":
            starts = core.build_starts(rail, player)
            start = m.key(r.choice(starts)) if starts else None
        plan = core.plan_build(rail, player, target, start=start)
        if plan is not None and plan.sections:
            checked = core.check_build(rail, player, plan.path)
            assert checked.cost == plan.cost == sum(
                core.section_cost(rail, player, a, b) for a, b in plan.sections)
            assert plan.path[-1] == target
            budget = r.choice([None, plan.cost, plan.cost - 1])
            try:
                core.build(rail, player, plan.path, budget=budget)
                assert budget is None or budget >= plan.cost
            except RulesError as err:
                assert err.code == "over-budget" and budget == plan.cost - 1
        invariants(core, rail, owners_seen)
