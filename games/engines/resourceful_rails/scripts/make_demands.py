"""Make ``data/demands.json``: the demand deck, generated once from the map with a fixed seed.

    python -m games.engines.resourceful_rails.scripts.make_demands

Distance: for a good and a city, the least cost of building track from any milepost of any city
that sources the good to any milepost of the city, on an empty board, with the game's build
costs as the rail core prices each section (the milepost built to: clear 1, mountain 2, small
or medium city 3, major city 5; +2 for each river crossed; free inside a major city; water
never). It measures what a player must spend to join the two, terrain and rivers included.

Payout: ``BASE + PER_COST × distance`` rounded half up (whole tenths, no floats), the same
for every good, so it never falls as
the distance grows. A demand is never to a city that sources its good, and never to one
closer than ``MIN_DISTANCE``.

Cards: ``CARDS`` cards of 3 demands, 3 different goods and 3 different cities on each card.
Goods are dealt from a shuffled bag holding every good equally often; each demand's city is
drawn by size (small : medium : major = 3 : 5 : 2, the Resourceful Rails team's weights) and
then evenly among the eligible cities of that size. All randomness from ``random.Random(SEED)``.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.rail_core import RailCore, load_map
from games.engines.rail_core.authoring import build_distances, deal_demands

from ._common import DATA, read_json, write_json
from .make_map import RULES

SEED = 14_2026
CARDS = 144
DEMANDS_PER_CARD = 3
BASE = 8  # dollars
PER_COST_TENTHS = 7  # dollars per unit of distance, in tenths: $0.70
MIN_DISTANCE = 6
SIZE_WEIGHTS = {"small": 3, "medium": 5, "major": 2}


def section_costs(core: RailCore) -> list[list[tuple[int, int]]]:
    """For each milepost, its (neighbour, cost of building to it) pairs; 0 inside a major city."""
    m, rail = core.map, core.new_state(players=[0])
    out: list[list[tuple[int, int]]] = []
    for u in range(len(m.nodes)):
        row = []
        for nb in m.adjacency[u]:
            if m.is_internal(u, nb.node):
                row.append((nb.node, 0))
                continue
            cost = core.section_cost(rail, 0, m.key(u), m.key(nb.node))
            if cost is not None:
                row.append((nb.node, cost))
        out.append(row)
    return out


def payout(distance: int) -> int:
    """Round half up: the same distance always pays the same, a longer one never less."""
    return (10 * BASE + PER_COST_TENTHS * distance + 5) // 10


def make_demands(map_data: dict[str, Any], goods: dict[str, Any]) -> dict[str, Any]:
    core = RailCore(load_map(map_data), rules=RULES)
    m = core.map
    costs = section_costs(core)
    distances = {g["id"]: build_distances(m, costs, g["sources"]) for g in goods["goods"]}
    eligible = {
        gid: {cid: d for cid, d in by_city.items() if d >= MIN_DISTANCE and gid not in m.cities[cid].data["goods"]}
        for gid, by_city in distances.items()
    }
    rng = random.Random(SEED)

    def pick(cities: list[str]) -> str:
        sizes = sorted({m.cities[cid].size for cid in cities}, key=list(SIZE_WEIGHTS).index)
        size = rng.choices(sizes, weights=[SIZE_WEIGHTS[s] for s in sizes])[0]
        return rng.choice([c for c in cities if m.cities[c].size == size])

    dealt = deal_demands(eligible, rng=rng, cards=CARDS, per_card=DEMANDS_PER_CARD, item="good", pick=pick,
                         payout=payout)
    cards = [{"id": number, "demands": demands} for number, demands in enumerate(dealt, start=1)]
    return {
        "format": "junction/resourceful-rails-demands@1",
        "about": "The demand deck, made once by scripts/make_demands.py from data/map.json and data/goods.json. "
                 "'distance': the least build cost from the good's nearest source city to the demand city on "
                 "an empty board (rail core section costs, rivers included); payout = base + per_cost "
                 "× distance, rounded half up.",
        "seed": SEED,
        "payout": {"base": BASE, "per_cost": PER_COST_TENTHS / 10, "min_distance": MIN_DISTANCE},
        "map": map_data["name"],
        "cards": cards,
    }


def main(argv: list[str] | None = None) -> None:
    data = make_demands(read_json(DATA / "map.json"), read_json(DATA / "goods.json"))
    write_json(DATA / "demands.json", data)
    pays = [d["payout"] for c in data["cards"] for d in c["demands"]]
    print(f"wrote {DATA / 'demands.json'}: {len(data['cards'])} cards, {len(pays)} demands, "
          f"payouts {min(pays)}..{max(pays)} (mean {sum(pays) / len(pays):.1f})")


if __name__ == "__main__":
    main()
