"""Make ``data/map.json`` (the realm of Vell, both layers) and ``data/loads.json`` (the 26 loads).

    python -m games.engines.runerail.scripts.make_world

Reads the hand-curated ``data/sources/world.json`` (shapes, cities, rivers, inlets, the Deepways)
and ``data/sources/loads.json`` (load names and chips). Everything else is computed, with fixed
seeds and no other randomness, so a rerun writes the same bytes:

1. **Land and sea.** A cell of the board (``odd-r``, ``width`` × ``height``) is land when it lies
   inside a land shape (the continent, three isles) by more than a noise term (ragged coasts),
   and not inside a water shape (the Inland Sea) or a channel (its mouth, the Narrows). The
   board's rim is sea. Enclosed water is filled (no lakes: the sea is one body), land specks of
   fewer than ``MIN_LAND`` cells are drowned.
2. **Regions.** An isle's cells take its shape's region; the continent's the region of the
   nearest seed point (``regions[].seeds``) after a noise warp of the cell's position, so borders
   wander. Sea cells are ``inland-sea`` inside the Inland Sea's shape or the Narrows (within the
   continent's outline), else ``western-sea``.
3. **Terrain** from an elevation (hand-drawn ridges, Gaussian across their width, plus noise) and
   a moisture field (noise) by the region's rule (``terrain_for``), then ``terrain_overrides``.
4. **Cities** are placed at the cell nearest their ``near`` point that satisfies: land of their
   region, every milepost (a major's seven) land, two steps at least from every other city, and
   for a port a milepost beside the sea (a major's port milepost: the one with most sea around).
   City mileposts on alpine or volcano become mountain.
5. **Rivers and inlets** run along hex sides (the lines between mileposts): from the corner
   nearest each course point to the next by the shortest way that stays near the drawn line
   (shunning major cities and the coast). A river stops where it first reaches the sea on its last
   leg, or where it meets a river drawn before it (a confluence). Every side between two land
   mileposts is a crossing (``river``, ``inlet``); sides inside a major city are left out.
6. **The Deepways** (layer 1): every cell within ``width`` of a tunnel line or inside a cavern,
   terrain ``underground``. The four gates are the land cells nearest their ``near`` points,
   two steps from any city; each is linked to the Deepways milepost below it.
7. **Links**: the Ley Line joins each of Thornhollow's 7 mileposts to each of Emberforge's 7 (49
   pairs: "any milepost of one to any of the other counts as one milepost"); the Prism Bridge
   each of Sandspire's 7 to each of Mossgate's 7, across the Narrows (``enabled: false``); one
   ``entrance`` link per gate.
8. **Checks**: ``load_map`` and ``RailCore`` with the game's costs (``RULES``); the sea is one
   body touching every port; every land milepost reaches every other over land or by sea from a
   port; every load has a source; the chips total 100.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from typing import Any

from games.engines.rail_core import RailCore, hexgrid, load_map

from ._common import DATA, SOURCES, read_json, write_json

LAYOUT = "odd-r"
ROW = 1.5 / math.sqrt(3.0)  # a row's height in columns: the board's points are [x, y] in columns and rows
# The published build costs (the notes, "The fantasy rail game"); links are public passages.
RULES: dict[str, Any] = {
    "terrain_cost": {"plain": 1, "desert": 1, "forest": 2, "mountain": 2, "jungle": 3, "alpine": 5,
                     "volcano": 5, "underground": 5},
    "city_cost": {"small": 3, "medium": 3, "major": 5},
    "crossing_cost": {"river": 2, "inlet": 3},
    "link_kinds": {"magic": {"track": False, "moves": 1, "connects": True},
                   "bridge": {"track": False, "moves": 1, "connects": True},
                   "entrance": {"track": False, "moves": 1, "connects": True}},
}
TERRAINS = ("plain", "desert", "forest", "mountain", "jungle", "alpine", "volcano")
MIN_LAND = 12  # smaller land specks are drowned
STRAIGHTNESS = 4.0  # how hard a river keeps to its drawn line
AVOID_MAJOR = 50.0  # extra weight of a hex side inside a major city (nobody builds there)
AVOID_COAST = 30.0  # extra weight of a side between land and sea (rivers do not run along coasts)
MAX_LOADS_PER_CITY = 3
CHIPS_TOTAL = 100

Cell = tuple[int, int]
Corner = tuple[int, int]


# -- noise (integer hashing, so the same on every run and machine) ---------------------------------

def _lattice(ix: int, iy: int, seed: int) -> float:
    h = ((ix * 73856093) ^ (iy * 19349663) ^ (seed * 83492791)) & 0xFFFFFFFF
    h = (h ^ (h >> 13)) * 0x5BD1E995 & 0xFFFFFFFF
    h ^= h >> 15
    return (h & 0xFFFF) / 0xFFFF * 2.0 - 1.0


def _noise(x: float, y: float, seed: int) -> float:
    x0, y0 = math.floor(x), math.floor(y)
    fx, fy = x - x0, y - y0
    sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    a = _lattice(x0, y0, seed) + sx * (_lattice(x0 + 1, y0, seed) - _lattice(x0, y0, seed))
    b = _lattice(x0, y0 + 1, seed) + sx * (_lattice(x0 + 1, y0 + 1, seed) - _lattice(x0, y0 + 1, seed))
    return a + sy * (b - a)


def fbm(x: float, y: float, seed: int, octaves: int = 3) -> float:
    """Fractal value noise in [-1, 1]."""
    total = norm = 0.0
    amp = 1.0
    for o in range(octaves):
        total += amp * _noise(x * 2 ** o, y * 2 ** o, seed * 7 + o)
        norm += amp
        amp *= 0.5
    return total / norm


# -- geometry in column units ------------------------------------------------------------------------

def point(xy: list[float]) -> tuple[float, float]:
    """A source point [x (columns), y (rows)] in column units."""
    return float(xy[0]), float(xy[1]) * ROW


def cell_point(q: int, r: int) -> tuple[float, float]:
    return q + 0.5 * (r & 1), r * ROW


def _seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    vx, vy = b[0] - a[0], b[1] - a[1]
    ll = vx * vx + vy * vy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / ll))
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


def polyline_dist(p: tuple[float, float], pts: list[tuple[float, float]]) -> float:
    if len(pts) == 1:
        return math.hypot(p[0] - pts[0][0], p[1] - pts[0][1])
    return min(_seg_dist(p, a, b) for a, b in zip(pts, pts[1:], strict=False))


def signed_dist(p: tuple[float, float], poly: list[tuple[float, float]]) -> float:
    """Distance to a closed polygon's outline, positive inside."""
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    d = min(_seg_dist(p, poly[i], poly[(i + 1) % n]) for i in range(n))
    return d if inside else -d


def neighbours(c: Cell) -> tuple[Cell, ...]:
    return hexgrid.neighbours(LAYOUT, c[0], c[1])


def hex_distance(a: Cell, b: Cell) -> int:
    return hexgrid.distance(LAYOUT, a, b)


def corner_keys(c: Cell) -> list[Corner]:
    """The six corners of a cell as exact integer keys: (x / (sqrt 3 / 2), 2 y) in pixel units."""
    q, r = c
    cx, cy = 2 * q + (r & 1), 3 * r
    return [(cx + 1, cy - 1), (cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1), (cx, cy - 2)]


def corner_point(k: Corner) -> tuple[float, float]:
    """A corner key in column units."""
    return k[0] / 2.0, k[1] / 2.0 / math.sqrt(3.0)


class Sides:
    """The honeycomb of hex sides over the board (and a margin): which two cells each side parts."""

    def __init__(self, width: int, height: int) -> None:
        self.cells: dict[tuple[Corner, Corner], tuple[Cell, Cell]] = {}
        self.next: dict[Corner, list[Corner]] = {}
        self.around: dict[Corner, list[Cell]] = {}
        for r in range(-1, height + 1):
            for q in range(-1, width + 1):
                ks = corner_keys((q, r))
                for k in ks:
                    self.around.setdefault(k, []).append((q, r))
                for n in neighbours((q, r)):
                    if n < (q, r):
                        continue
                    a, b = sorted(set(ks) & set(corner_keys(n)))
                    self.cells[(a, b)] = ((q, r), n)
                    self.next.setdefault(a, []).append(b)
                    self.next.setdefault(b, []).append(a)
        for k in self.next:
            self.next[k].sort()
        self.corners = sorted(self.next)

    def nearest(self, p: tuple[float, float]) -> Corner:
        return min(self.corners, key=lambda c: ((corner_point(c)[0] - p[0]) ** 2 + (corner_point(c)[1] - p[1]) ** 2, c))

    def route(self, start: Corner, goal: Corner, a: tuple[float, float], b: tuple[float, float],
              penalty: Any) -> list[Corner]:
        """Cheapest corner path: each side weighs 1, plus how far it strays from a–b, plus ``penalty``."""
        dist = {start: 0.0}
        prev: dict[Corner, Corner] = {}
        heap = [(0.0, start)]
        while heap:
            d, u = heapq.heappop(heap)
            if u == goal:
                break
            if d > dist[u]:
                continue
            for v in self.next[u]:
                (ux, uy), (vx, vy) = corner_point(u), corner_point(v)
                stray = _seg_dist(((ux + vx) / 2, (uy + vy) / 2), a, b)
                nd = d + 1.0 + STRAIGHTNESS * stray * stray + penalty(self.cells[(min(u, v), max(u, v))])
                if nd < dist.get(v, math.inf) - 1e-9:
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        path = [goal]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return path[::-1]


# -- terrain rules -----------------------------------------------------------------------------------

def terrain_for(region: str, e: float, m: float) -> str:
    """A region's terrain from elevation ``e`` (about 0..1.3) and moisture ``m`` (0..1)."""
    if region == "frostmarch":  # far north: alpine, mountain, some forest
        return "alpine" if e > 0.98 else "mountain" if e > 0.55 else "forest" if m > 0.56 else "plain"
    if region == "greyhold":  # mountains around high valleys
        return "alpine" if e > 0.92 else "mountain" if e > 0.42 else "forest" if m > 0.68 else "plain"
    if region == "amber-plains":  # plains and rivers
        return "mountain" if e > 0.62 else "forest" if m > 0.7 else "plain"
    if region == "thornwood":  # old forest with clearings
        return "mountain" if e > 0.62 else "forest" if m > 0.3 else "plain"
    if region == "saltmere":  # coast plains
        return "mountain" if e > 0.7 else "forest" if m > 0.6 else "plain"
    if region == "ashen-reach":  # volcanoes, ash, mountains
        return "volcano" if e > 1.12 else "mountain" if e > 0.45 else "desert" if m < 0.42 else "plain"
    if region == "sunward-sands":  # desert, a few hills and green oases
        return "mountain" if e > 0.55 else "plain" if m > 0.74 else "desert"
    if region == "verdant-tangle":  # jungle
        return "volcano" if e > 0.95 else "mountain" if e > 0.6 else "jungle" if m > 0.27 else "forest"
    if region == "lantern-isles":
        return "mountain" if e > 0.6 else "forest" if m > 0.55 else "plain"
    raise ValueError(f"no terrain rule for region {region!r}")


# -- the world ---------------------------------------------------------------------------------------

def _components(cells: set[Cell]) -> list[set[Cell]]:
    seen: set[Cell] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        comp = {start}
        todo = deque([start])
        seen.add(start)
        while todo:
            c = todo.popleft()
            for n in neighbours(c):
                if n in cells and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    todo.append(n)
        out.append(comp)
    return out


class World:
    def __init__(self, src: dict[str, Any]) -> None:
        self.src = src
        self.w, self.h = src["board"]["width"], src["board"]["height"]
        self.seed = src["seed"]
        self.board = [(q, r) for r in range(self.h) for q in range(self.w)]
        self.region_names = {g["id"]: g["name"] for g in src["regions"]}

    # 1. land and sea
    def make_land(self) -> None:
        amp, scale = self.src["coast"]["amplitude"], self.src["coast"]["scale"]
        lands = [(s.get("region"), [point(p) for p in s["points"]]) for s in self.src["lands"]]
        waters = [[point(p) for p in s["points"]] for s in self.src["waters"]]
        channels = [(s["width"], [point(p) for p in s["points"]]) for s in self.src["channels"]]
        continent = lands[0][1]
        self.land: set[Cell] = set()
        self.shape_region: dict[Cell, str | None] = {}
        inland: set[Cell] = set()
        for c in self.board:
            p = cell_point(*c)
            n = amp * fbm(p[0] / scale, p[1] / scale, self.seed)
            best = max(range(len(lands)), key=lambda i: signed_dist(p, lands[i][1]))
            is_land = signed_dist(p, lands[best][1]) + n > 0
            in_water = any(signed_dist(p, w) + 0.7 * n > 0 for w in waters)
            in_channel = any(polyline_dist(p, pts) < wd for wd, pts in channels)
            if in_water or (in_channel and signed_dist(p, continent) > -1.0):
                inland.add(c)
            rim = c[0] in (0, self.w - 1) or c[1] in (0, self.h - 1)
            if is_land and not in_water and not in_channel and not rim:
                self.land.add(c)
                self.shape_region[c] = lands[best][0]
        sea = set(self.board) - self.land
        for comp in _components(sea):
            if (0, 0) not in comp:
                self.land |= comp  # no lakes: the sea is one body
                for c in comp:
                    self.shape_region[c] = self.shape_region.get(c) or self._shape_of(c, lands)
        for comp in _components(self.land):
            if len(comp) < MIN_LAND:
                self.land -= comp
        self.sea = set(self.board) - self.land
        self.inland_sea = inland & self.sea
        if not self.inland_sea or len(_components(self.sea)) != 1:
            raise ValueError("the sea must be one body with the Inland Sea in it")

    @staticmethod
    def _shape_of(c: Cell, lands: list) -> str | None:
        p = cell_point(*c)
        return max(lands, key=lambda s: signed_dist(p, s[1]))[0]

    # 2. regions, 3. terrain
    def make_terrain(self) -> None:
        seeds = [(g["id"], point(s)) for g in self.src["regions"] for s in g["seeds"]]
        ridges = [(g["height"], g["width"], [point(p) for p in g["points"]]) for g in self.src["ridges"]]
        self.region: dict[Cell, str] = {}
        self.terrain: dict[Cell, str] = {}
        self.elevation: dict[Cell, float] = {}
        for c in sorted(self.land):
            x, y = cell_point(*c)
            region = self.shape_region.get(c)
            if region is None:
                wx = x + 2.2 * fbm(x / 6, y / 6, self.seed + 11)
                wy = y + 2.2 * fbm(x / 6, y / 6, self.seed + 12)
                region = min(seeds, key=lambda s: ((s[1][0] - wx) ** 2 + (s[1][1] - wy) ** 2, s[0]))[0]
            e = max([h * math.exp(-(polyline_dist((x, y), pts) / wd) ** 2) for h, wd, pts in ridges] + [0.0])
            e += 0.28 * fbm(x / 3.5, y / 3.5, self.seed + 21)
            m = 0.5 + 0.5 * fbm(x / 4.5, y / 4.5, self.seed + 31)
            self.region[c] = region
            self.elevation[c] = e
            self.terrain[c] = terrain_for(region, e, m)
        for o in self.src["terrain_overrides"]:
            c = (o["at"][0], o["at"][1])
            if c not in self.land or o["terrain"] not in TERRAINS:
                raise ValueError(f"terrain override {o} is not on land or names no terrain")
            self.terrain[c] = o["terrain"]

    def touches_sea(self, c: Cell) -> bool:
        return any(n in self.sea for n in neighbours(c))

    # 4. cities
    def place_cities(self) -> None:
        self.city_of: dict[Cell, str] = {}
        self.major_of: dict[Cell, str] = {}
        self.cells_of: dict[str, list[Cell]] = {}
        self.ports: set[Cell] = set()
        cities = sorted(self.src["cities"], key=lambda c: c["size"] != "major")  # majors first (stable)
        for city in cities:
            target = point(city["near"])
            best = None
            for c in sorted(self.land, key=lambda c: (math.dist(cell_point(*c), target), c[1], c[0])):
                cells = [c, *neighbours(c)] if city["size"] == "major" else [c]
                if self.region[c] != city["region"] or any(x not in self.land for x in cells):
                    continue
                if any(n in self.city_of for x in cells for n in (x, *neighbours(x))):
                    continue
                if city.get("port") and not any(self.touches_sea(x) for x in cells):
                    continue
                best = cells
                break
            if best is None:
                raise ValueError(f"no place for city {city['id']}")
            if math.dist(cell_point(*best[0]), target) > 3.0:
                raise ValueError(f"city {city['id']} lands {math.dist(cell_point(*best[0]), target):.1f} from its point")
            self.cells_of[city["id"]] = best
            for x in best:
                self.city_of[x] = city["id"]
                if city["size"] == "major":
                    self.major_of[x] = city["id"]
                    self.region[x] = city["region"]
                if self.terrain[x] in ("alpine", "volcano"):
                    self.terrain[x] = "mountain"
            if city.get("port"):
                port = max(best, key=lambda x: (sum(n in self.sea for n in neighbours(x)), -best.index(x)))
                self.ports.add(port)

    # 5. rivers and inlets
    def walk(self, course: list[list[float]], *, river: bool, taken: set[Corner]) -> list[Corner]:
        pts = [point(p) for p in course]

        def penalty(pair: tuple[Cell, Cell]) -> float:
            a, b = pair
            cost = 0.0
            if self.major_of.get(a) is not None and self.major_of.get(a) == self.major_of.get(b):
                cost += AVOID_MAJOR
            if (a in self.sea) != (b in self.sea):
                cost += AVOID_COAST
            return cost

        walk = [self.sides.nearest(pts[0])]
        for i in range(1, len(pts)):
            leg = self.sides.route(walk[-1], self.sides.nearest(pts[i]), pts[i - 1], pts[i], penalty)[1:]
            last = i == len(pts) - 1
            for k in leg:
                walk.append(k)
                if river and k in taken:
                    return walk  # a confluence
                if river and last and any(c in self.sea for c in self.sides.around[k]):
                    return walk  # the mouth
        if river:
            raise ValueError(f"a river ends on dry land at {course[-1]}: it must reach the sea or another river")
        return walk

    def crossing_edges(self, walk: list[Corner]) -> list[list[list[int]]]:
        edges, seen = [], set()
        for a, b in zip(walk, walk[1:], strict=False):
            c1, c2 = self.sides.cells[(min(a, b), max(a, b))]
            if c1 not in self.land or c2 not in self.land or (c1, c2) in seen:
                continue
            if self.major_of.get(c1) is not None and self.major_of.get(c1) == self.major_of.get(c2):
                continue
            seen.add((c1, c2))
            edges.append([[0, *c1], [0, *c2]])
        return edges

    def make_crossings(self) -> list[dict[str, Any]]:
        self.sides = Sides(self.w, self.h)
        out = []
        taken: set[Corner] = set()
        used_pairs: set[tuple] = set()
        for kind, key in (("river", "rivers"), ("inlet", "inlets")):
            for src in self.src[key]:
                walk = self.walk(src["course"], river=(kind == "river"), taken=taken)
                taken |= set(walk)
                edges = self.crossing_edges(walk)
                if not edges:
                    raise ValueError(f"{src['name']} crosses no land")
                for a, b in edges:
                    pair = (tuple(a), tuple(b))
                    if pair in used_pairs:
                        raise ValueError(f"{src['name']} shares the pair {pair} with another crossing")
                    used_pairs.add(pair)
                out.append({"kind": kind, "name": src["name"], "edges": edges})
        return out

    # 6. the Deepways
    def make_deepways(self) -> None:
        dw = self.src["deepways"]
        self.gates: dict[str, Cell] = {}
        self.gate_names: dict[Cell, str] = {}
        replace: dict[tuple[float, float], Cell] = {}
        for g in dw["gates"]:
            target = point(g["near"])
            for c in sorted(self.land, key=lambda c: (math.dist(cell_point(*c), target), c[1], c[0])):
                if self.region[c] == "lantern-isles" or c in self.ports:
                    continue
                if any(n in self.city_of for n in (c, *neighbours(c))):
                    continue
                self.gates[g["id"]] = c
                self.gate_names[c] = g["name"]
                replace[tuple(g["near"])] = c
                break
        self.deep: set[Cell] = set()
        for t in dw["tunnels"]:
            pts = [cell_point(*replace[tuple(p)]) if tuple(p) in replace else point(p) for p in t["points"]]
            self.deep |= {c for c in self.board if polyline_dist(cell_point(*c), pts)
                          < dw["width"] + 0.45 * fbm(cell_point(*c)[0] / 2.5, cell_point(*c)[1] / 2.5, self.seed + 41)}
        for cav in dw["caverns"]:
            centre = point(cav["at"])
            self.deep |= {c for c in self.board if math.dist(cell_point(*c), centre) < cav["radius"]}
        self.deep |= set(self.gates.values())
        if len(_components(self.deep)) != 1:
            raise ValueError("the Deepways must be one connected cave system")

    # the map
    def build(self) -> dict[str, Any]:
        self.make_land()
        self.make_terrain()
        self.place_cities()
        crossings = self.make_crossings()
        self.make_deepways()
        gate_of = {c: gid for gid, c in self.gates.items()}
        nodes = []
        for c in sorted(self.land, key=lambda c: (c[1], c[0])):
            node: dict[str, Any] = {"at": [0, c[0], c[1]], "terrain": self.terrain[c], "region": self.region[c]}
            if c in self.city_of:
                node["city"] = self.city_of[c]
            if c in self.ports:
                node["port"] = True
            if c in gate_of:
                node["name"] = self.gate_names[c]
                node["gate"] = gate_of[c]
            nodes.append(node)
        for c in sorted(self.deep, key=lambda c: (c[1], c[0])):
            node = {"at": [1, c[0], c[1]], "terrain": "underground", "region": "deepways"}
            if c in gate_of:
                node["name"] = self.gate_names[c]
                node["gate"] = gate_of[c]
            nodes.append(node)

        cities = []
        for city in self.src["cities"]:
            entry = {"id": city["id"], "name": city["name"], "size": city["size"], "region": city["region"],
                     "loads": list(city["loads"])}
            if city.get("port"):
                entry["port"] = True
            cities.append(entry)

        def city_addresses(cid: str) -> list[list[int]]:
            return [[0, *c] for c in sorted(self.cells_of[cid], key=lambda c: (c[1], c[0]))]

        links = []
        for spec in (self.src["links"]["ley_line"], self.src["links"]["bridge"]):
            a, b = spec["between"]
            links.append({"kind": spec["kind"], "name": spec["name"], "enabled": spec.get("enabled", True),
                          "edges": [[x, y] for x in city_addresses(a) for y in city_addresses(b)]})
        for g in self.src["deepways"]["gates"]:
            c = self.gates[g["id"]]
            links.append({"kind": "entrance", "name": g["name"], "enabled": True, "edges": [[[0, *c], [1, *c]]]})

        sea = sorted(self.sea, key=lambda c: (c[1], c[0]))
        data = {
            "format": "junction/rail-map@1",
            "name": self.src["name"],
            "about": ("The realm of Vell, Runerail's world: an original map made for this project (names, "
                      "geography and layout invented; only the published game family's rule mechanics and "
                      "numbers are used). Generated by games/engines/runerail/scripts/make_world.py from "
                      "data/sources/world.json: do not edit by hand."),
            "layout": LAYOUT,
            "board": {"width": self.w, "height": self.h},
            "layers": [{"id": 0, "name": "surface"}, {"id": 1, "name": "The Deepways"}],
            "regions": [{"id": g["id"], "name": g["name"], "kind": g["kind"]} for g in self.src["regions"]],
            "cities": cities,
            "nodes": nodes,
            "crossings": crossings,
            "links": links,
            "sea": [[0, *c] for c in sea],
            "sea_regions": {
                "western-sea": [[0, *c] for c in sea if c not in self.inland_sea],
                "inland-sea": [[0, *c] for c in sea if c in self.inland_sea],
            },
        }
        return data


# -- checks ------------------------------------------------------------------------------------------

def check_map(data: dict[str, Any]) -> RailCore:
    core = RailCore(load_map(data), rules=RULES)  # the format, the majors, every pair, every cost
    land = {(n["at"][1], n["at"][2]) for n in data["nodes"] if n["at"][0] == 0}
    sea = {(s[1], s[2]) for s in data["sea"]}
    ports = {(n["at"][1], n["at"][2]) for n in data["nodes"] if n.get("port")}
    if land & sea:
        raise ValueError("a sea point is also land")
    if len(_components(sea)) != 1:
        raise ValueError("the sea is not one body")
    if not all(any(n in sea for n in neighbours(p)) for p in ports):
        raise ValueError("a port is not beside the sea")
    # land plus sea passage between ports
    comps = _components(land)
    if any(not (comp & ports) for comp in comps if len(comps) > 1):
        raise ValueError("a piece of land has no port and no way by land")
    return core


def make_loads(src_loads: dict[str, Any], world_src: dict[str, Any]) -> dict[str, Any]:
    sources: dict[str, list[str]] = {ld["id"]: [] for ld in src_loads["loads"]}
    for city in world_src["cities"]:
        if len(city["loads"]) > MAX_LOADS_PER_CITY or len(set(city["loads"])) != len(city["loads"]):
            raise ValueError(f"{city['id']} has more than {MAX_LOADS_PER_CITY} loads or one twice")
        for lid in city["loads"]:
            if lid not in sources:
                raise ValueError(f"{city['id']}: unknown load {lid!r}")
            sources[lid].append(city["id"])
    if unsourced := [lid for lid, s in sources.items() if not s]:
        raise ValueError(f"loads with no source: {unsourced}")
    chips = [ld["chips"] for ld in src_loads["loads"]]
    if sum(chips) != CHIPS_TOTAL or not all(3 <= c <= 5 for c in chips):
        raise ValueError(f"chips must be 3 to 5 each and {CHIPS_TOTAL} in all, not {sum(chips)}")
    return {"format": "junction/runerail-loads@1",
            "about": ("Runerail's 26 loads: display name, chips in the game, the cities that produce each "
                      "(made by scripts/make_world.py from data/sources/loads.json and world.json)."),
            "loads": [{"id": ld["id"], "name": ld["name"], "chips": ld["chips"], "sources": sources[ld["id"]]}
                      for ld in src_loads["loads"]]}


def make_world(world_src: dict[str, Any], loads_src: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    loads = make_loads(loads_src, world_src)
    data = World(world_src).build()
    check_map(data)
    return data, loads


def main(argv: list[str] | None = None) -> None:
    data, loads = make_world(read_json(SOURCES / "world.json"), read_json(SOURCES / "loads.json"))
    write_json(DATA / "map.json", data)
    write_json(DATA / "loads.json", loads)
    land = sum(1 for n in data["nodes"] if n["at"][0] == 0)
    deep = len(data["nodes"]) - land
    print(f"wrote {DATA / 'map.json'}: {land} land mileposts, {deep} in the Deepways, {len(data['sea'])} sea points, "
          f"{len(data['cities'])} cities, {sum(1 for n in data['nodes'] if n.get('port'))} ports, "
          f"{sum(c['kind'] == 'river' for c in data['crossings'])} rivers, "
          f"{sum(c['kind'] == 'inlet' for c in data['crossings'])} inlets; {DATA / 'loads.json'}: {len(loads['loads'])} loads")


if __name__ == "__main__":
    main()
