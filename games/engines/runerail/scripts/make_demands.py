"""Make ``data/demands.json``: Runerail's demand cards and its deck, generated once from the world
map with a fixed seed.

    python -m games.engines.runerail.scripts.make_demands

Distance: for a load and a city, the least cost of joining them on an empty board at the start
of a game, from any milepost of any city that produces the load to any milepost of the city:

- building a section costs what the rail core prices it (``RailCore.section_cost`` with the
  game's rules, ``make_world.RULES``: the milepost built to — plain 1, desert 1, forest 2,
  mountain 2, jungle 3, alpine 5, volcano 5, Deepways rock 5, small or medium city 3, major 5 —
  plus 2 for a river and 3 for an inlet crossed), with a Deepway gate milepost at 2 (published;
  a hook, as the engine will price it); free inside a major city;
- passages open at the start (the Deepway gates' links, the Ley Line) cost nothing; the Prism
  Bridge, closed at the start, is not used;
- a sea trip from a port milepost to another costs ``VOYAGE_COST`` (stopping, boarding, the
  turn it takes) + ``SEA_POINT_COST`` per sea point sailed (the fewest, over the map's sea hexes).
  Without it the Lantern Isles could not be reached at all; with it a far port is sometimes
  cheaper to reach by sea than by rail, as in play.

Payout: ``BASE + PER_COST × distance`` rounded half up (whole tenths, no floats), the same for
every load, so it never falls as the distance grows. A demand is never to a city that produces
its load, and never to one closer than ``MIN_DISTANCE``.

Cards: ``CARDS`` cards of 3 demands, 3 different loads and 3 different cities on each card.
Loads are dealt from a shuffled bag holding every load equally often; each demand's city is
drawn among the eligible cities with weights by size (``CITY_WEIGHTS``: a major city is three
times as likely as a small one, a medium one twice). All randomness from ``random.Random(SEED)``.

Deck: the published deck is 120 demand cards and 20 event cards shuffled together; ``deck`` lists
every card id of it (demand ids ``d001``…, then the event ids of ``data/events.json``), and the
engine shuffles it.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from games.engines.rail_core import RailCore, RailHooks, RailMap, hexgrid, load_map
from games.engines.rail_core.authoring import build_distances, deal_demands

from ._common import DATA, read_json, write_json
from .make_world import RULES

SEED = 15_2026
CARDS = 120
DEMANDS_PER_CARD = 3
BASE = 6  # gold
PER_COST_TENTHS = 8  # gold per unit of distance, in tenths: 0.8
MIN_DISTANCE = 6
CITY_WEIGHTS = {"small": 1, "medium": 2, "major": 3}  # a city's chance of a demand, by size
GATE_COST = 2  # building to a Deepway gate milepost (published: an Underground entrance costs 2)
VOYAGE_COST = 6  # a sea trip's overhead in build-cost units: stopping at the port, the boarding fee, a turn
SEA_POINT_COST = 1  # each sea point sailed, like a plain milepost


class GateCost(RailHooks):
    """Building to a Deepway gate costs ``GATE_COST`` (plus any crossing), whatever its terrain."""

    def __init__(self, gates: set[int]) -> None:
        self.gates = gates

    def section_cost(self, m: RailMap, player: int, a: int, b: int, cost: Any) -> int | None:
        node = GATE_COST if b in self.gates else cost.node
        return node + sum(c for _, c in cost.crossings) + cost.link


def gate_nodes(m: RailMap) -> set[int]:
    return {i for i, node in enumerate(m.data["nodes"]) if node.get("gate")}


def section_costs(core: RailCore) -> list[list[tuple[int, int]]]:
    """For each milepost, its (neighbour, cost of building to it) pairs: the rail core's price of a
    new section (with the gates' cost), 0 inside a major city and across a passage open at the
    start (the gates, the Ley Line); a closed passage (the Prism Bridge) is left out."""
    m, rail = core.map, core.new_state(players=[0])
    hooks = GateCost(gate_nodes(m))
    out: list[list[tuple[int, int]]] = []
    for u in range(len(m.nodes)):
        row = []
        for nb in m.adjacency[u]:
            if m.is_internal(u, nb.node):
                row.append((nb.node, 0))
            elif nb.link is not None and not core.rules["link_kinds"][nb.link.kind]["track"]:
                if nb.link.enabled and core.rules["link_kinds"][nb.link.kind]["connects"]:
                    row.append((nb.node, 0))
            else:
                cost = core.section_cost(rail, 0, m.key(u), m.key(nb.node), hooks=hooks)
                if cost is not None:
                    row.append((nb.node, cost))
        out.append(row)
    return out


def sea_points(m: RailMap, map_data: dict[str, Any], a: int) -> dict[int, int]:
    """From the port milepost ``a``: every other port milepost a ship reaches and the fewest sea
    points it sails through on the way (breadth first over the map's sea hexes)."""
    sea = {tuple(at[1:]) for at in map_data["sea"]}
    ports = {(n.q, n.r): n.index for n in m.nodes if n.port and n.layer == 0}
    start = (m.nodes[a].q, m.nodes[a].r)
    seen = {start: 0}
    queue = deque([start])
    out: dict[int, int] = {}
    while queue:
        cell = queue.popleft()
        for nxt in hexgrid.neighbours(m.layout, *cell):
            if nxt in seen:
                continue
            if nxt in sea:
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
            elif nxt in ports and cell != start:
                seen[nxt] = seen[cell]
                out[ports[nxt]] = seen[cell]
    return out


def voyages(m: RailMap, map_data: dict[str, Any]) -> list[list[tuple[int, int]]]:
    """For each milepost, the (port milepost, cost) of the sea trips from it: ``VOYAGE_COST`` +
    ``SEA_POINT_COST`` × the sea points sailed."""
    out: list[list[tuple[int, int]]] = [[] for _ in m.nodes]
    for n in m.nodes:
        if n.port and n.layer == 0:
            out[n.index] = sorted((b, VOYAGE_COST + SEA_POINT_COST * k) for b, k in sea_points(m, map_data, n.index).items())
    return out


def payout(distance: int) -> int:
    """Round half up: the same distance always pays the same, a longer one never less."""
    return (10 * BASE + PER_COST_TENTHS * distance + 5) // 10


def load_sources(loads: dict[str, Any]) -> dict[str, list[str]]:
    return {x["id"]: sorted(x["sources"]) for x in loads["loads"]}


def make_demands(map_data: dict[str, Any], loads: dict[str, Any], events: dict[str, Any]) -> dict[str, Any]:
    core = RailCore(load_map(map_data), rules=RULES)
    m = core.map
    sea = voyages(m, map_data)
    costs = [land + sea[u] for u, land in enumerate(section_costs(core))]
    sources = load_sources(loads)
    produces = {cid: {lid for lid, cities in sources.items() if cid in cities} for cid in m.cities}
    distances = {lid: build_distances(m, costs, cities) for lid, cities in sorted(sources.items())}
    eligible = {
        lid: {cid: d for cid, d in by_city.items() if d >= MIN_DISTANCE and lid not in produces[cid]}
        for lid, by_city in distances.items()
    }
    rng = random.Random(SEED)

    def pick(cities: list[str]) -> str:
        return rng.choices(cities, weights=[CITY_WEIGHTS[m.cities[c].size] for c in cities])[0]

    dealt = deal_demands(eligible, rng=rng, cards=CARDS, per_card=DEMANDS_PER_CARD, item="load", pick=pick,
                         payout=payout)
    cards = [{"id": f"d{number:03d}", "demands": demands} for number, demands in enumerate(dealt, start=1)]
    event_ids = [e["id"] for e in events["events"]]
    return {
        "format": "junction/runerail-demands@1",
        "about": "Runerail's demand cards and deck, made once by scripts/make_demands.py from data/map.json, "
                 "data/loads.json and data/events.json. 'distance': the least cost of joining the load's nearest "
                 "source city to the demand city on an empty board (rail core section costs, rivers and inlets "
                 "included, Deepway gates 2; passages open at the start free; a sea trip between ports costs "
                 "voyage + sea_point × sea points); payout = base + per_cost × distance, rounded "
                 "half up. 'deck': every card of the demand deck, demand cards and event cards together, "
                 "for the engine to shuffle.",
        "seed": SEED,
        "payout": {"base": BASE, "per_cost": PER_COST_TENTHS / 10, "min_distance": MIN_DISTANCE},
        "distance": {"gate": GATE_COST, "voyage": VOYAGE_COST, "sea_point": SEA_POINT_COST},
        "city_weights": CITY_WEIGHTS,
        "map": map_data["name"],
        "cards": cards,
        "events": event_ids,
        "deck": [c["id"] for c in cards] + event_ids,
    }


def main(argv: list[str] | None = None) -> None:
    data = make_demands(read_json(DATA / "map.json"), read_json(DATA / "loads.json"), read_json(DATA / "events.json"))
    write_json(DATA / "demands.json", data)
    pays = [d["payout"] for c in data["cards"] for d in c["demands"]]
    print(f"wrote {DATA / 'demands.json'}: {len(data['cards'])} cards, {len(pays)} demands, "
          f"{len(data['events'])} events in the deck, payouts {min(pays)}..{max(pays)} "
          f"(mean {sum(pays) / len(pays):.1f})")


if __name__ == "__main__":
    main()
