"""Benchmark: the rail core's planners on the full Resourceful Rails reference map.

Prints p50/p99 per call for:

- the cheapest build path across the map (from a major city's centre to a milepost at least
  ``--min-distance`` hex steps away), on an empty map and on a mid-game map;
- the cheapest build path from a player's whole network (every milepost of their track and every
  major city) to a random milepost, mid-game; and the costs to every milepost in one search;
- the best move between two mileposts of the mid-game track (tolls and reversing in the search);
- checking a 20-section build (what every replayed build command costs).

The mid-game map: 4 players, each joined to 4 major cities by planned paths (the planner itself
builds them). Aim (issue 14): p99 under 20 ms for a cross-map build path. Wall-clock and CPU
(thread) time are both printed: on a busy machine the wall p99 shows the scheduler, the CPU p99
the planner.

    .venv/bin/python bench/bench_rail_core.py [--samples N] [--map PATH] [--seed S]

``--map`` takes a rail map (``junction/rail-map@1``) or a grid asset like the reference file;
without it the reference map at ``../shared/reference/resourceful-rails-map.json`` is used
(SKIPPED if it is not there).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.rail_core import FORMAT, RailCore, load_map, map_from_grid_asset  # noqa: E402

DEFAULT_MAP = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "resourceful-rails-map.json"
RULES = {"terrain_cost": {"clear": 1, "mountain": 2, "water": None}}


def load(path: Path) -> RailCore:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        data = map_from_grid_asset(data, name=path.stem)
    return RailCore(load_map(data), RULES)


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return f"p50 {p50 * 1e3:6.2f} p99 {p99 * 1e3:6.2f} max {ordered[-1] * 1e3:6.2f} ms"


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def timed_both(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.thread_time()
    result = fn()
    return time.perf_counter() - wall, time.thread_time() - cpu, result


def mid_game(core: RailCore, rng: random.Random, players: int = 4, cities_each: int = 4) -> dict:
    m = core.map
    rail = core.new_state(list(range(players)))
    majors = list(m.majors)
    for p in range(players):
        chosen = rng.sample(majors, cities_each)
        core.start_turn(rail, p)
        first = m.cities[chosen[0]]
        for cid in chosen[1:]:
            target = m.key(m.cities[cid].centre)
            start = m.key(first.centre) if not core.cities_reached(rail, p) else None
            plan = core.plan_build(rail, p, target, start=start, from_majors=False if start is None else True)
            if plan is not None and plan.sections:
                core.start_turn(rail, p)
                core.build(rail, p, plan.path)
    return rail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300, help="calls timed per figure")
    parser.add_argument("--map", type=Path, default=DEFAULT_MAP, help="rail map or grid asset JSON")
    parser.add_argument("--min-distance", type=int, default=40, help="hex steps that make a path cross-map")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.map.exists():
        print(f"SKIPPED: no map at {args.map}")
        return

    seconds, core = timed(lambda: load(args.map))
    m = core.map
    print(f"map {args.map.name}: {len(m.nodes)} mileposts, {len(m.cities)} cities, {len(m.majors)} major; "
          f"loaded and indexed in {seconds * 1e3:.0f} ms")
    rng = random.Random(args.seed)
    centres = [m.cities[c].centre for c in m.majors]
    land = [i for i in range(len(m.nodes)) if core.node_cost[i] is not None]
    pairs = []
    while len(pairs) < args.samples:
        a, b = rng.choice(centres), rng.choice(land)
        if (m.hex_distance(a, b) or 0) >= args.min_distance:
            pairs.append((m.key(a), m.key(b)))

    def run(label: str, calls) -> None:
        for fn in calls[:5]:  # warm up
            fn()
        walls, cpus, found = [], [], 0
        for fn in calls:
            wall, cpu, result = timed_both(fn)
            walls.append(wall)
            cpus.append(cpu)
            found += result is not None
        print(f"{label}\n    n={len(walls)} ({found} found)  wall {percentiles(walls)}  |  cpu {percentiles(cpus)}")

    empty = core.new_state([0, 1, 2, 3])
    core.start_turn(empty, 0)
    run(f"build path, cross-map (>= {args.min_distance} steps), empty map",
        [lambda a=a, b=b: core.plan_build(empty, 0, b, start=a) for a, b in pairs])

    seconds, rail = timed(lambda: mid_game(core, rng))
    print(f"mid-game map: {len(rail['track'])} sections of 4 players (built by the planner in {seconds:.2f} s)")
    core.start_turn(rail, 0)
    run(f"build path, cross-map (>= {args.min_distance} steps), mid-game",
        [lambda a=a, b=b: core.plan_build(rail, 0, b, start=a) for a, b in pairs])
    targets = [m.key(rng.choice(land)) for _ in range(args.samples)]
    run("build path from the player's network + majors, mid-game",
        [lambda t=t: core.plan_build(rail, 0, t) for t in targets])

    run("build costs to every milepost in one search, mid-game",
        [lambda: core.build_costs(rail, 0) for _ in range(max(20, args.samples // 10))])

    on_track = sorted({i for key in rail["track"] for i in m.edge_nodes[key]})
    moves = []
    while len(moves) < args.samples:
        a, b = rng.sample(on_track, 2)
        moves.append((m.key(a), m.key(b)))
    run("move, shortest legal with tolls, mid-game (no limit)",
        [lambda a=a, b=b: core.plan_move(rail, 1, a, b) for a, b in moves])
    run("move, within 12 mileposts and $8, mid-game",
        [lambda a=a, b=b: core.plan_move(rail, 1, a, b, moves_left=12, cash=8) for a, b in moves])

    long_paths = []
    for a, b in pairs:
        plan = core.plan_build(empty, 0, b, start=a)
        if plan is not None and len(plan.sections) >= 20:
            cut = plan.path.index(plan.sections[19][1]) + 1
            long_paths.append(plan.path[:cut])
    run("check a 20-section build",
        [lambda p=p: core.check_build(empty, 0, p) for p in long_paths[: args.samples]])


if __name__ == "__main__":
    main()
