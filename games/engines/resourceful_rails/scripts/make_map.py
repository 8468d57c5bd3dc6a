"""Make ``data/map.json``: the reference board in the rail core's format, with goods and rivers.

    python -m games.engines.resourceful_rails.scripts.make_map [--reference PATH]

1. The reference grid asset goes through the rail core's converter (``map_from_grid_asset``).
2. Each city's goods become the ids of the goods ``data/goods.json`` says it sources.
3. Rivers from ``data/sources/rivers.json``: every course point (latitude, longitude) is placed
   on the board by a least-squares affine fit of the cities' real coordinates to their board
   positions, corrected by inverse-distance weighting of the cities' residuals (so a river keeps
   its side of the cities near it). The river then runs along hex sides — the lines between
   mileposts — from the corner nearest one point to the corner nearest the next (a shortest
   path that stays close to the straight line). Every side it follows between two land
   mileposts is a crossing of kind ``river``; sides inside one major city are left out (nobody
   builds there).
4. The result is validated by the rail core (``load_map`` and ``RailCore`` with the game's costs).
"""

from __future__ import annotations

import argparse
import heapq
import math
from pathlib import Path
from typing import Any

from games.engines.rail_core import RailCore, hexgrid, load_map, map_from_grid_asset

from ._common import DATA, REFERENCE_MAP, SOURCES, read_json, write_json

MAP_NAME = "Pacific Northwest"
LAYOUT = "odd-q-up"
# The spec's build costs (the rail core's defaults, written out here so the check is explicit).
RULES = {"terrain_cost": {"clear": 1, "mountain": 2, "water": None},
         "city_cost": {"small": 3, "medium": 3, "major": 5},
         "crossing_cost": {"river": 2}}
STRAIGHTNESS = 4.0  # weight of a side's squared distance from the course line, per unit of length
IDW_POWER = 2.0
GRID = range(-2, 67)  # cells whose corners a river may use (the board is 0..63, plus margins)
_HALF_ROW = math.sqrt(3.0) / 2.0


# -- placing real coordinates on the board -----------------------------------------------------------

def _solve3(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a 3×3 linear system (Gaussian elimination with partial pivoting)."""
    m = [row[:] + [v] for row, v in zip(a, b, strict=True)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(3):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][3] / m[i][i] for i in range(3)]


class Placement:
    """Real (lat, lon) → board pixel (the core's ``hexgrid.pixel`` units, size 1)."""

    def __init__(self, anchors: list[tuple[tuple[float, float], tuple[float, float]]]) -> None:
        self.anchors = anchors
        feats = [self._features(ll) for ll, _ in anchors]
        ata = [[sum(f[i] * f[j] for f in feats) for j in range(3)] for i in range(3)]
        self.coef = [
            _solve3(ata, [sum(f[i] * p[k] for f, (_, p) in zip(feats, anchors, strict=True)) for i in range(3)])
            for k in range(2)
        ]
        self.residuals = [(ll, (p[0] - self._affine(ll)[0], p[1] - self._affine(ll)[1])) for ll, p in anchors]

    @staticmethod
    def _features(ll: tuple[float, float]) -> list[float]:
        return [1.0, ll[1], ll[0]]

    def _affine(self, ll: tuple[float, float]) -> tuple[float, float]:
        f = self._features(ll)
        return (sum(c * x for c, x in zip(self.coef[0], f, strict=True)),
                sum(c * x for c, x in zip(self.coef[1], f, strict=True)))

    def __call__(self, ll: tuple[float, float]) -> tuple[float, float]:
        x, y = self._affine(ll)
        wsum = dx = dy = 0.0
        for (lat, lon), (rx, ry) in self.residuals:
            d2 = (lat - ll[0]) ** 2 + ((lon - ll[1]) * math.cos(math.radians(ll[0]))) ** 2
            if d2 < 1e-12:
                return x + rx, y + ry
            w = 1.0 / d2 ** (IDW_POWER / 2.0)
            wsum += w
            dx += w * rx
            dy += w * ry
        return x + dx / wsum, y + dy / wsum


# -- the hex sides a river can follow -----------------------------------------------------------------

Corner = tuple[int, int]  # (round(2x), round(y / (sqrt(3)/2))): exact for flat-top corners of size 1


def _corner_key(x: float, y: float) -> Corner:
    return round(2.0 * x), round(y / _HALF_ROW)


def _corner_xy(c: Corner) -> tuple[float, float]:
    return c[0] / 2.0, c[1] * _HALF_ROW


class Sides:
    """The honeycomb of hex corners and sides over the board: each side lies between two cells."""

    def __init__(self) -> None:
        self.next: dict[Corner, set[Corner]] = {}
        self.cells: dict[tuple[Corner, Corner], tuple[tuple[int, int], tuple[int, int]]] = {}
        for q in GRID:
            for r in GRID:
                cx, cy = hexgrid.pixel(LAYOUT, q, r)
                pts = [_corner_key(cx + math.cos(math.radians(60 * k)), cy + math.sin(math.radians(60 * k)))
                       for k in range(6)]
                for k in range(6):
                    a, b = pts[k], pts[(k + 1) % 6]
                    self.next.setdefault(a, set()).add(b)
                    self.next.setdefault(b, set()).add(a)
                    # the cell across this side: its centre mirrors ours in the side's midpoint
                    (ax, ay), (bx, by) = _corner_xy(a), _corner_xy(b)
                    mx, my = 2 * (ax + bx) / 2 - cx, 2 * (ay + by) / 2 - cy
                    other = min(hexgrid.neighbours(LAYOUT, q, r),
                                key=lambda n: (hexgrid.pixel(LAYOUT, *n)[0] - mx) ** 2 + (hexgrid.pixel(LAYOUT, *n)[1] - my) ** 2)
                    self.cells[(min(a, b), max(a, b))] = tuple(sorted([(q, r), other]))  # type: ignore[assignment]
        self.corners = sorted(self.next)

    def nearest(self, p: tuple[float, float]) -> Corner:
        return min(self.corners, key=lambda c: ((_corner_xy(c)[0] - p[0]) ** 2 + (_corner_xy(c)[1] - p[1]) ** 2, c))

    def route(self, start: Corner, goal: Corner, p: tuple[float, float], q: tuple[float, float]) -> list[Corner]:
        """Shortest corner path from ``start`` to ``goal``, each side weighted by its length plus
        how far its midpoint strays from the segment ``p``–``q``. Ties go by corner order."""
        dist = {start: 0.0}
        prev: dict[Corner, Corner] = {}
        heap = [(0.0, start)]
        while heap:
            d, u = heapq.heappop(heap)
            if u == goal:
                break
            if d > dist[u]:
                continue
            for v in sorted(self.next[u]):
                (ux, uy), (vx, vy) = _corner_xy(u), _corner_xy(v)
                stray = _segment_distance(((ux + vx) / 2, (uy + vy) / 2), p, q)
                nd = d + 1.0 + STRAIGHTNESS * stray * stray
                if nd < dist.get(v, math.inf) - 1e-9:
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        path = [goal]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return path[::-1]


def _segment_distance(m: tuple[float, float], p: tuple[float, float], q: tuple[float, float]) -> float:
    vx, vy = q[0] - p[0], q[1] - p[1]
    ll = vx * vx + vy * vy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((m[0] - p[0]) * vx + (m[1] - p[1]) * vy) / ll))
    return math.hypot(m[0] - p[0] - t * vx, m[1] - p[1] - t * vy)


def river_edges(course: list[tuple[float, float]], sides: Sides, land: dict[tuple[int, int], dict[str, Any]],
                major_of: dict[tuple[int, int], str]) -> list[list[list[int]]]:
    """The land milepost pairs a river's course separates, in order downstream, each once."""
    corners = [sides.nearest(p) for p in course]
    walk = [corners[0]]
    for i in range(1, len(course)):
        walk += sides.route(walk[-1], corners[i], course[i - 1], course[i])[1:]
    edges: list[list[list[int]]] = []
    seen = set()
    for a, b in zip(walk, walk[1:], strict=False):
        c1, c2 = sides.cells[(min(a, b), max(a, b))]
        if c1 not in land or c2 not in land or (c1, c2) in seen:
            continue
        if major_of.get(c1) is not None and major_of.get(c1) == major_of.get(c2):
            continue
        seen.add((c1, c2))
        edges.append([[0, *c1], [0, *c2]])
    return edges


# -- the map -------------------------------------------------------------------------------------------

def make_map(reference: dict[str, Any], goods: dict[str, Any], rivers: dict[str, Any]) -> dict[str, Any]:
    data = map_from_grid_asset(reference, name=MAP_NAME)
    sourced: dict[str, list[str]] = {}
    for good in goods["goods"]:
        for cid in good["sources"]:
            sourced.setdefault(cid, []).append(good["id"])
    for city in data["cities"]:
        city["goods"] = sourced.get(city["id"], [])

    land = {(n["at"][1], n["at"][2]): n for n in data["nodes"] if n["terrain"] != "water"}
    sizes = {c["id"]: c["size"] for c in data["cities"]}
    major_of = {pos: n["city"] for pos, n in land.items() if n.get("city") and sizes[n["city"]] == "major"}
    centres: dict[str, list[tuple[float, float]]] = {}
    for (q, r), n in land.items():
        if n.get("city"):
            centres.setdefault(n["city"], []).append(hexgrid.pixel(LAYOUT, q, r))
    anchors = []
    for cid, ll in rivers["anchors"].items():
        pts = centres[cid]
        anchors.append(((ll[0], ll[1]), (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))))
    if set(rivers["anchors"]) != set(centres):
        raise ValueError(f"anchors must name every city: missing {sorted(set(centres) - set(rivers['anchors']))}")
    place = Placement(anchors)
    sides = Sides()
    data["crossings"] = []
    for river in rivers["rivers"]:
        course = [place((p[0], p[1])) for p in river["course"]]
        edges = river_edges(course, sides, land, major_of)
        if edges:
            data["crossings"].append({"kind": "river", "name": river["name"], "edges": edges})

    data["about"] = ("Made by games/engines/resourceful_rails/scripts/make_map.py from the Resourceful Rails "
                     "team's Pacific Northwest board (MIT licence, (c) 2021 Resourceful-Rails-Team, "
                     "github.com/Resourceful-Rails-Team/resourceful-rails-game); goods from data/goods.json, "
                     "rivers from data/sources/rivers.json.")
    RailCore(load_map(data), rules=RULES)  # validates the format, the majors and every crossing pair
    return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=REFERENCE_MAP)
    args = parser.parse_args(argv)
    data = make_map(read_json(args.reference), read_json(DATA / "goods.json"), read_json(SOURCES / "rivers.json"))
    write_json(DATA / "map.json", data)
    n = sum(len(c["edges"]) for c in data["crossings"])
    print(f"wrote {DATA / 'map.json'}: {len(data['nodes'])} mileposts, {len(data['cities'])} cities, "
          f"{len(data['crossings'])} rivers crossing {n} milepost pairs")


if __name__ == "__main__":
    main()
