"""Planners against brute force on small maps: the cheapest legal build path and the best
legal move, exact on every case; and a few hand-checked answers."""

from __future__ import annotations

import random

import pytest

from games.engines.base import RulesError
from games.engines.rail_core import DEFAULT_HOOKS, RailCore, load_map

from .helpers import core_of, k, random_map, random_track
from .test_build import COST_CROSSINGS, COSTS, HEMMED, own
from .test_movement import LINE, path


def brute_build(core: RailCore, rail, player, target, sources, below=None):
    """The least cost over every simple path from a source to ``target`` that the rules accept,
    looking only at paths cheaper than ``below`` if given; None if there is no such path.

    Every prefix is checked with the rules' own check: what makes a prefix illegal (a taken or
    unbuildable pair, too many major-city starts, a cap or the courtesy rule) only gets worse as the
    path grows, and costs only grow, so pruning there loses no path."""
    m = core.map
    tgt = m.find(target)
    best = [below]

    def dfs(nodes, on_path):
        plan, error, _ = core._evaluate_build(rail, player, nodes, DEFAULT_HOOKS)
        if error is not None:
            return
        cost = plan.cost
        if best[0] is not None and cost >= best[0]:
            return
        if nodes[-1] == tgt:
            best[0] = cost
            return
        for nb in m.adjacency[nodes[-1]]:
            if nb.node in on_path:
                continue
            on_path.add(nb.node)
            nodes.append(nb.node)
            dfs(nodes, on_path)
            nodes.pop()
            on_path.discard(nb.node)

    for s in sources:
        dfs([s], {s})
    return None if best[0] == below else best[0]


def brute_move(core: RailCore, rail, player, start, target, *, moves_left, cash=None, came_from=None, prefer="moves"):
    """The best (moves, fees) over every walk of at most ``moves_left`` steps that check_move accepts."""
    m = core.map
    s, t = m.find(start), m.find(target)
    best = None

    def walk(nodes):
        nonlocal best
        if nodes[-1] == t:
            try:
                plan = core.check_move(rail, player, [m.key(i) for i in nodes], moves_left=moves_left, cash=cash,
                                       came_from=came_from)
            except RulesError:
                plan = None
            if plan is not None:
                score = (plan.moves, plan.fee_total) if prefer == "moves" else (plan.fee_total, plan.moves)
                best = score if best is None or score < best else best
        if len(nodes) - 1 >= moves_left:
            return
        for v, _moves, _fees in core.step_options(rail, player, nodes[-1], DEFAULT_HOOKS):
            nodes.append(v)
            walk(nodes)
            nodes.pop()

    walk([s])
    return best


def scenario(seed):
    rng = random.Random(seed)
    data = random_map(rng, width=4 + seed % 2, height=4, major=seed % 3 != 0)
    core = RailCore(load_map(data))
    players = [0, 1, 2][: 2 + seed % 2]
    rail = core.new_state(players)
    random_track(rng, core, rail, players, rng.randint(0, 12))
    core.start_turn(rail, 0)
    rail["turn"]["major_starts"] = rng.choice([0, 0, 1, 2])
    return rng, core, rail


@pytest.mark.parametrize("seed", range(120))
def test_build_planner_is_optimal_against_brute_force(seed):
    rng, core, rail = scenario(seed)
    m = core.map
    sources = core.build_starts(rail, 0)
    for _ in range(3):
        target = m.key(rng.randrange(len(m.nodes)))
        starts = [None] + ([rng.choice(sources)] if sources else [])
        for start in starts:
            plan = core.plan_build(rail, 0, target, start=None if start is None else m.key(start))
            froms = sources if start is None else [start]
            if plan is None:
                assert brute_build(core, rail, 0, target, froms) is None
                continue
            if plan.sections:  # legal, and what it says it costs
                assert core.check_build(rail, 0, plan.path).cost == plan.cost
            assert plan.path[-1] == target and (start is None or plan.path[0] == m.key(start))
            # no legal path is cheaper
            assert brute_build(core, rail, 0, target, froms, below=plan.cost) is None


@pytest.mark.parametrize("seed", range(40))
def test_one_search_for_all_targets_agrees_with_the_planner(seed):
    rng, core, rail = scenario(500 + seed)
    m = core.map
    sources = core.build_starts(rail, 0)
    for start in [None] + ([m.key(rng.choice(sources))] if sources else []):
        costs = core.build_costs(rail, 0, start=start)
        for node in m.nodes:
            plan = core.plan_build(rail, 0, node.key, start=start)
            assert costs.get(node.key) == (plan.cost if plan else None)


@pytest.mark.parametrize("seed", range(80))
def test_move_planner_is_optimal_against_brute_force(seed):
    rng, core, rail = scenario(1000 + seed)
    m = core.map
    random_track(rng, core, rail, rail["players"], 14)
    on_track = sorted({i for key in rail["track"] for i in m.edge_nodes[key]})
    if len(on_track) < 2:
        return
    rail["turn"]["fees_paid"] = rng.choice([[], ["toll:1"]])
    for _ in range(3):
        start, target = rng.sample(on_track, 2)
        came_from = None
        options = [v for v, _mv, _f in core.step_options(rail, 0, start, DEFAULT_HOOKS)]
        if options and rng.random() < 0.5:
            came_from = m.key(rng.choice(options))
        moves_left = rng.randint(1, 7)
        cash = rng.choice([None, 0, 4, 8])
        prefer = rng.choice(["moves", "fees"])
        expected = brute_move(core, rail, 0, m.key(start), m.key(target), moves_left=moves_left, cash=cash,
                              came_from=came_from, prefer=prefer)
        plan = core.plan_move(rail, 0, m.key(start), m.key(target), moves_left=moves_left, cash=cash,
                              came_from=came_from, prefer=prefer)
        if expected is None:
            assert plan is None
            continue
        assert plan is not None
        got = (plan.moves, plan.fee_total) if prefer == "moves" else (plan.fee_total, plan.moves)
        assert got == expected


def test_build_plan_takes_the_mountain_rather_than_the_river():
    core = core_of(COSTS, crossings=COST_CROSSINGS)
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    # (2,1) -> (3,0) -> across the river to (4,0) is 1 + 3; over the mountain (3,1) is 2 + 1
    plan = core.plan_build(rail, 0, k(4, 0), start=k(2, 1))
    assert plan.cost == 3 and plan.path == [k(2, 1), k(3, 1), k(4, 0)]
    assert core.plan_build(rail, 0, k(4, 0)).cost == 3
    # a target building may already start from costs nothing
    assert core.plan_build(rail, 0, k(1, 1)).sections == []
    with pytest.raises(RulesError) as err:
        core.plan_build(rail, 0, k(4, 1), start=k(5, 0))
    assert err.value.code == "not-connected"
    assert core.plan_build(rail, 0, k(2, 4)) is None  # water


def test_build_plan_from_the_network_only():
    core = core_of(COSTS, crossings=COST_CROSSINGS)
    rail = core.new_state([0, 1])
    own(rail, 0, (k(5, 0), k(5, 1)))
    core.start_turn(rail, 0)
    plan = core.plan_build(rail, 0, k(3, 2), from_majors=False)
    assert plan.path[0] in (k(5, 0), k(5, 1)) and plan.path[-1] == k(3, 2)
    assert core.plan_build(rail, 1, k(3, 2), from_majors=False) is None  # player 1 has no track


def test_build_plan_respects_the_per_turn_major_limit():
    core = core_of(COSTS, crossings=COST_CROSSINGS)
    rail = core.new_state([0, 1])
    own(rail, 0, (k(5, 0), k(5, 1)))
    core.start_turn(rail, 0)
    rail["turn"]["major_starts"] = 2
    plan = core.plan_build(rail, 0, k(3, 0))
    assert plan.major_starts == 0 and plan.path[0] in (k(5, 0), k(5, 1))


def test_build_plan_avoids_a_courtesy_breach():
    # the small city a has three ways in, n (2,1), e (3,2) and s (2,3); player 0 already owns e-a.
    # Through a from n to s costs 3 + 1 but would take the last two ways; every way round is dearer.
    rows = [
        ".....",
        ".~.^.",
        ".~a^^",
        ".~.^.",
        ".....",
    ]
    rivers = [{"kind": "river", "name": "R", "edges": [[[0, 2, 1], [0, 3, 2]], [[0, 3, 2], [0, 2, 3]]]}]
    core = core_of(rows, crossings=rivers)
    rail = core.new_state([0, 1, 2])
    a, n, e, s = k(2, 2), k(2, 1), k(3, 2), k(2, 3)
    own(rail, 0, (e, a), (k(2, 0), n))
    core.start_turn(rail, 0)
    with pytest.raises(RulesError) as err:
        core.check_build(rail, 0, [n, a, s])
    assert err.value.code == "courtesy"
    plan = core.plan_build(rail, 0, s, start=n)
    # to e (over the mountain, or across the river: 4 either way), along its own e-a section into a,
    # then out to s: only one new way into a
    assert plan.path[-3:] == [e, a, s] and plan.cost == 4 + 1
    assert brute_build(core, rail, 0, s, [core.map.find(n)]) == plan.cost
    core.check_build(rail, 0, plan.path)
    # alone in the game, nobody else is entitled to a way in: the plan goes straight through a
    rail2 = core.new_state([0])
    rail2["track"] = dict(rail["track"])
    assert core.plan_build(rail2, 0, s, start=n).path == [n, a, s]


def test_build_plan_keeps_a_way_out_of_a_major_city():
    core = core_of(HEMMED)
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    core.build(rail, 0, [k(3, 2), k(4, 2)])
    assert core.plan_build(rail, 0, k(0, 2)) is None


def test_build_through_waypoints():
    core = core_of(COSTS, crossings=COST_CROSSINGS)
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    plan = core.plan_build_through(rail, 0, [k(2, 1), k(3, 0), k(5, 0)])
    assert plan.path == [k(2, 1), k(3, 0), k(4, 0), k(5, 0)] and plan.cost == 1 + 3 + 1
    assert core.check_build(rail, 0, plan.path).cost == plan.cost
    assert rail["track"] == {}  # planning builds nothing
    back = core.plan_build_through(rail, 0, [None, k(5, 0), k(3, 0)])
    assert back.path[-1] == k(3, 0) and core.check_build(rail, 0, back.path).cost == back.cost


def test_move_plan_prefers_fewer_moves_or_fewer_tolls():
    # two routes from (0,0) to (6,0): along row 0 over players 1 and 2, or round by row 1 on own track
    core = core_of(LINE)
    rail = core.new_state([0, 1, 2])
    own(rail, 0, (k(0, 0), k(1, 0)), (k(1, 0), k(2, 0)))
    own(rail, 1, (k(2, 0), k(3, 0)), (k(3, 0), k(4, 0)))
    own(rail, 2, (k(4, 0), k(5, 0)), (k(5, 0), k(6, 0)))
    row1 = [k(q, 1) for q in range(7)]
    own(rail, 0, (k(2, 0), row1[2]), *zip(row1[2:], row1[3:], strict=False), (row1[6], k(6, 0)))
    core.start_turn(rail, 0)
    fast = core.plan_move(rail, 0, k(0, 0), k(6, 0))
    assert fast.path == path(0, 1, 2, 3, 4, 5, 6) and fast.fee_total == 8
    cheap = core.plan_move(rail, 0, k(0, 0), k(6, 0), prefer="fees")
    assert cheap.fee_total == 0 and cheap.moves == 8
    assert core.plan_move(rail, 0, k(0, 0), k(6, 0), moves_left=7, prefer="fees").moves == 6
    poor = core.plan_move(rail, 0, k(0, 0), k(6, 0), cash=7)  # cannot pay both opponents: the long way
    assert poor.fee_total == 0 and poor.moves == 8
    assert core.plan_move(rail, 0, k(0, 0), k(6, 0), cash=0, moves_left=7) is None
    with pytest.raises(RulesError):
        core.plan_move(rail, 0, k(0, 0), k(6, 0), prefer="scenery")


def test_move_plan_turns_round_only_at_a_city():
    core = core_of(LINE)
    rail = core.new_state([0])
    own(rail, 0, *zip(path(0, 1, 2, 3, 4), path(1, 2, 3, 4), strict=False))
    core.start_turn(rail, 0)
    # arrived at (3,0) from (2,0): going back west means running on to nowhere; no way to turn round
    assert core.plan_move(rail, 0, k(3, 0), k(1, 0), came_from=k(2, 0)) is None
    # arrived from (4,0): straight on
    assert core.plan_move(rail, 0, k(3, 0), k(1, 0), came_from=k(4, 0)).moves == 2
    # arrived at (1,0) from (2,0): no city to reverse at before (2,0)... (0,0) is a dead end
    assert core.plan_move(rail, 0, k(1, 0), k(3, 0), came_from=k(2, 0)) is None
    # heading east at (1,0) and wanting (0,0): on to the city (2,0), turn there, come back
    plan = core.plan_move(rail, 0, k(1, 0), k(0, 0), came_from=k(0, 0))
    assert plan.path == path(1, 2, 1, 0) and plan.moves == 3
    assert core.plan_move(rail, 0, k(1, 0), k(0, 0), came_from=k(0, 0), moves_left=2) is None


def test_build_through_neighbouring_points_takes_the_section_between_them():
    # A loop of own track: from (2,0) to its neighbour (3,0) the way over own track is free, but a
    # player who taps the two neighbours means the new section between them.
    core = core_of(["......", "......", "......"])
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    rail["track"].update({core.map.edge_key(core.map.find(a), core.map.find(b)): 0 for a, b in [
        (k(2, 0), k(2, 1)), (k(2, 1), k(3, 1)), (k(3, 1), k(3, 0))]})
    through = core.plan_build_through(rail, 0, [k(2, 0), k(3, 0)])
    assert through.sections == [[k(2, 0), k(3, 0)]] and through.cost == 1
    # Not neighbours: the cheapest way, over own track where it can.
    assert core.plan_build_through(rail, 0, [k(2, 0), k(3, 1)]).sections == []
    # A section already built by another player cannot be the way: the cheapest legal one is taken.
    rail["track"][core.map.edge_key(core.map.find(k(2, 0)), core.map.find(k(3, 0)))] = 1
    assert core.plan_build_through(rail, 0, [k(2, 0), k(3, 0)]).sections == []
