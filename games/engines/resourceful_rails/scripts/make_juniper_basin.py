"""Make the second board, "Juniper Basin": this project's own invented region, with its goods and deck.

    python -m games.engines.resourceful_rails.scripts.make_juniper_basin

Writes ``data/maps/juniper-basin/map.json``, ``goods.json`` and ``demands.json`` (a game with the option
``map: juniper-basin`` plays on it). Nothing here is read from elsewhere: the terrain, the cities and their
names, the rivers and where each good comes from are made by this script, deterministically (all randomness
from ``random.Random(SEED)``; same script, same bytes).

1. **Terrain.** A 42 × 32 board (the rail core's ``odd-q-up`` layout, like the default board). The sea
   is a coast along the west edge (``COAST``); Lake Tamsin is every milepost within 2 of its centre.
   Mountains come from value noise (a coarse grid of seeded random values, interpolated): a milepost is
   mountain where the noise is above ``MOUNTAIN_ABOVE``.
2. **Cities** (``CITIES``): 7 majors (a centre and its six neighbours), 10 medium, 14 small, placed by
   hand; a city's mileposts are never water or mountain.
3. **Rivers** (``RIVERS``): each a polyline of board positions. A pair of neighbouring land mileposts is
   a crossing of the river when the segment between their centres crosses the polyline (so a river is
   continuous: no track slips past it without crossing). Pairs inside one major city are left out.
4. **Goods**: the default board's 30 goods (ids and names from ``data/goods.json``), each sourced by 1
   or 2 of this board's cities (dealt by the seeded RNG, at most 3 goods a city, at most 1 a major).
5. **The deck**: ``make_demands.make_demands`` on this map and these goods, as for the default board.
6. The result is loaded by the rail core (``load_map`` and ``RailCore``), which checks it; every city
   must be reachable by building from every major city.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engines.rail_core import RailCore, hexgrid, load_map

from . import make_demands
from ._common import DATA, read_json, slug, write_json
from .make_map import LAYOUT, RULES

MAP_ID = "juniper-basin"
MAP_NAME = "Juniper Basin"
OUT = DATA / "maps" / MAP_ID
SEED = 30_2042
WIDTH, HEIGHT = 42, 32
NOISE_CELL = 6  # mileposts per cell of the coarse noise grid
MOUNTAIN_ABOVE = 0.64
LAKE = ((27, 12), 2)  # Lake Tamsin: centre and radius


def COAST(r: int) -> int:
    """The westmost land column of row ``r`` (everything west of it is sea)."""
    return 1 + (2 if 9 <= r <= 13 else 0) + (1 if r % 7 == 3 else 0)


# (name, size, (q, r)): a major city's position is its centre.
CITIES: list[tuple[str, str, tuple[int, int]]] = [
    ("Port Ember", "major", (6, 5)),
    ("Ridgeholm", "major", (20, 4)),
    ("Wyndmoor", "major", (36, 6)),
    ("Copperton", "major", (20, 16)),
    ("Bellhaven", "major", (7, 25)),
    ("Ashford Cross", "major", (34, 22)),
    ("Harrowgate", "major", (21, 28)),
    ("Orrin Falls", "medium", (12, 10)),
    ("Quarryvale", "medium", (28, 4)),
    ("Fenwick", "medium", (39, 14)),
    ("Duncairn", "medium", (13, 19)),
    ("Marlow Flats", "medium", (27, 17)),
    ("Stoneleigh", "medium", (5, 15)),
    ("Greywater", "medium", (30, 28)),
    ("Hollins", "medium", (14, 27)),
    ("Brackenridge", "medium", (38, 29)),
    ("Tamsin", "medium", (24, 9)),
    ("Pike's Ford", "small", (3, 9)),
    ("Elder Hollow", "small", (14, 3)),
    ("Cobble Hill", "small", (25, 1)),
    ("Thistlewood", "small", (33, 1)),
    ("Rookery", "small", (40, 4)),
    ("Sparrow Gap", "small", (17, 10)),
    ("Lowmere", "small", (32, 11)),
    ("Caddis", "small", (9, 19)),
    ("Whitlow", "small", (17, 22)),
    ("Farrier's Rest", "small", (26, 23)),
    ("Ketterby", "small", (38, 19)),
    ("Moss Landing", "small", (3, 30)),
    ("Juniper", "small", (27, 31)),
    ("Dunmore", "small", (10, 30)),
]

# (name, points as board positions (q, r), in the direction of flow)
RIVERS: list[tuple[str, list[tuple[float, float]]]] = [
    ("Alder", [(27.0, 12.0), (22.6, 12.4), (16.4, 13.6), (10.3, 12.6), (4.4, 12.2), (1.0, 11.6)]),
    ("Cinder", [(37.4, 0.0), (34.6, 9.3), (30.6, 15.4), (30.4, 24.6), (24.5, 31.9)]),
    ("Mossrun", [(11.6, 0.0), (9.4, 7.6), (8.6, 15.6), (6.4, 21.2), (1.0, 27.4)]),
    ("Harrow Brook", [(19.4, 20.6), (18.6, 25.4), (16.4, 31.9)]),
]

MAX_SOURCES = 2
MAX_GOODS_PER_CITY = 3
MAX_GOODS_PER_MAJOR = 1


def _noise(rng: random.Random) -> list[list[float]]:
    cols, rows = WIDTH // NOISE_CELL + 2, HEIGHT // NOISE_CELL + 2
    return [[rng.random() for _ in range(rows)] for _ in range(cols)]


def _value(grid: list[list[float]], q: int, r: int) -> float:
    """Bilinear value noise at milepost ``(q, r)`` (smoothstep between coarse cells)."""
    x, y = q / NOISE_CELL, r / NOISE_CELL
    i, j = int(x), int(y)
    fx, fy = x - i, y - j
    sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    top = grid[i][j] * (1 - sx) + grid[i + 1][j] * sx
    bottom = grid[i][j + 1] * (1 - sx) + grid[i + 1][j + 1] * sx
    return top * (1 - sy) + bottom * sy


def _pixel(q: float, r: float) -> tuple[float, float]:
    """A board position's pixel (the core's units); between columns, the two columns' pixels interpolated."""
    q0 = math.floor(q)
    f = q - q0
    x0, y0 = hexgrid.pixel(LAYOUT, q0, 0)
    x1, y1 = hexgrid.pixel(LAYOUT, q0 + 1, 0)
    x = x0 + (x1 - x0) * f
    y = (y0 + (y1 - y0) * f) - math.sqrt(3.0) * r
    return x, y


def _crosses(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]) -> bool:
    """Whether segments a–b and c–d cross (strictly)."""
    def orient(p: tuple[float, float], q: tuple[float, float], s: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def make_map() -> dict[str, Any]:
    rng = random.Random(SEED)
    noise = _noise(rng)
    city_at: dict[tuple[int, int], str] = {}
    cities = []
    for name, size, (q, r) in CITIES:
        cid = slug(name)
        cities.append({"id": cid, "name": name, "size": size, "goods": []})
        cells = [(q, r)] + (list(hexgrid.neighbours(LAYOUT, q, r)) if size == "major" else [])
        for cell in cells:
            assert cell not in city_at, f"{name} overlaps {city_at[cell]}"
            city_at[cell] = cid
    nodes = []
    terrain: dict[tuple[int, int], str] = {}
    for q in range(WIDTH):
        for r in range(HEIGHT):
            if q < COAST(r):
                continue  # the sea: no milepost
            lake = hexgrid.distance(LAYOUT, (q, r), LAKE[0]) <= LAKE[1]
            kind = "water" if lake else ("mountain" if _value(noise, q, r) > MOUNTAIN_ABOVE else "clear")
            if (q, r) in city_at:
                assert kind != "water", f"{city_at[(q, r)]} is in the lake"
                kind = "clear"
            terrain[(q, r)] = kind
            node: dict[str, Any] = {"at": [0, q, r], "terrain": kind}
            if (q, r) in city_at:
                node["city"] = city_at[(q, r)]
            nodes.append(node)
    crossings = []
    for name, points in RIVERS:
        line = [_pixel(q, r) for q, r in points]
        edges = []
        for (q, r), kind in sorted(terrain.items()):
            if kind == "water":
                continue
            for nq, nr in hexgrid.neighbours(LAYOUT, q, r):
                if (nq, nr) <= (q, r) or terrain.get((nq, nr), "water") == "water":
                    continue
                a, b = city_at.get((q, r)), city_at.get((nq, nr))
                if a is not None and a == b:
                    continue  # inside one city
                pa, pb = hexgrid.pixel(LAYOUT, q, r), hexgrid.pixel(LAYOUT, nq, nr)
                if any(_crosses(pa, pb, line[i], line[i + 1]) for i in range(len(line) - 1)):
                    edges.append([[0, q, r], [0, nq, nr]])
        crossings.append({"kind": "river", "name": name, "edges": edges})
    return {
        "format": "junction/rail-map@1",
        "name": MAP_NAME,
        "layout": LAYOUT,
        "layers": [{"id": 0, "name": "surface"}],
        "cities": cities,
        "nodes": nodes,
        "crossings": crossings,
        "links": [],
        "about": "This project's own invented region, made by games/engines/resourceful_rails/scripts/"
                 "make_juniper_basin.py (terrain from seeded value noise, cities and rivers placed by hand).",
    }


def make_goods(map_data: dict[str, Any], default_goods: dict[str, Any]) -> dict[str, Any]:
    """The default board's goods, sourced by this board's cities (dealt by the seeded RNG)."""
    rng = random.Random(SEED + 1)
    sizes = {c["id"]: c["size"] for c in map_data["cities"]}
    held = {cid: 0 for cid in sizes}
    out = []
    for good in default_goods["goods"]:
        count = rng.randint(1, MAX_SOURCES)
        sources: list[str] = []
        while len(sources) < count:
            room = [cid for cid in sorted(held) if cid not in sources and held[cid] < (
                MAX_GOODS_PER_MAJOR if sizes[cid] == "major" else MAX_GOODS_PER_CITY)]
            least = min(held[c] for c in room)
            cid = rng.choice([c for c in room if held[c] <= least + 1])
            sources.append(cid)
            held[cid] += 1
        out.append({"id": good["id"], "name": good["name"], "sources": sorted(sources)})
    for city in map_data["cities"]:
        city["goods"] = [g["id"] for g in out if city["id"] in g["sources"]]
    return {"format": default_goods.get("format", "junction/resourceful-rails-goods@1"),
            "about": "The default board's 30 goods, each sourced by 1 or 2 Juniper Basin cities (made by "
                     "scripts/make_juniper_basin.py).",
            "goods": out}


def check(map_data: dict[str, Any]) -> RailCore:
    core = RailCore(load_map(map_data), RULES)
    costs = make_demands.section_costs(core)
    from games.engines.rail_core.authoring import build_distances

    majors = [cid for cid, c in core.map.cities.items() if c.size == "major"]
    for cid in majors:
        reached = build_distances(core.map, costs, [cid])
        missing = sorted(set(core.map.cities) - set(reached))
        assert not missing, f"cannot build from {cid} to {missing}"
    return core


def main(argv: list[str] | None = None) -> None:
    map_data = make_map()
    goods = make_goods(map_data, read_json(DATA / "goods.json"))
    core = check(map_data)
    demands = make_demands.make_demands(map_data, goods)
    demands["about"] = demands["about"].replace("data/map.json and data/goods.json",
                                                f"data/maps/{MAP_ID}/map.json and goods.json")
    OUT.mkdir(parents=True, exist_ok=True)
    write_json(OUT / "map.json", map_data)
    write_json(OUT / "goods.json", goods)
    write_json(OUT / "demands.json", demands)
    m = core.map
    terrains = {}
    for n in m.nodes:
        terrains[n.terrain] = terrains.get(n.terrain, 0) + 1
    pays = [d["payout"] for c in demands["cards"] for d in c["demands"]]
    print(f"wrote {OUT}: {len(m.nodes)} mileposts {terrains}, {len(m.cities)} cities, "
          f"rivers {[(c['name'], len(c['edges'])) for c in map_data['crossings']]}, {len(demands['cards'])} cards, "
          f"payouts {min(pays)}..{max(pays)} (mean {sum(pays) / len(pays):.1f})")


if __name__ == "__main__":
    main()
