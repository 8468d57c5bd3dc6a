"""The Wood and Steel board as an in-memory graph.

A board is plain data (see ``board.json`` and the README for the format). ``Board``
indexes it once: city indices, neighbours, all-pairs hop distances (routes between
cities, what contract values count) and segment distances (sum of route lengths,
what track costs), regions, sections and commodity producers.

Boards are cached by a fingerprint of their JSON, so engines can rebuild the graph
from ``state["board"]`` cheaply on every command.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..base import RulesError

DEFAULT_BOARD_PATH = Path(__file__).with_name("board.json")
INF = 10**9
DIRECTIONS = ("N", "E", "S", "W")


def route_id(a: str, b: str) -> str:
    """The canonical name of the route between cities ``a`` and ``b``: "A-B", sorted."""
    return f"{a}-{b}" if a <= b else f"{b}-{a}"


@lru_cache(maxsize=1)
def _default_board_text() -> str:
    return DEFAULT_BOARD_PATH.read_text(encoding="utf-8")


def default_board() -> dict[str, Any]:
    """A fresh copy of the default board data."""
    return json.loads(_default_board_text())


def board_fingerprint(data: dict[str, Any]) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _bad(message: str) -> RulesError:
    return RulesError("invalid-board", message)


def validate_board(data: Any) -> dict[str, Any]:
    """Check a board given as plain data; return a normalised deep copy.

    Raises RulesError("invalid-board") when it is unusable.
    """
    if not isinstance(data, dict):
        raise _bad("The board must be an object.")
    try:
        data = json.loads(json.dumps(data))
    except (TypeError, ValueError):
        raise _bad("The board must be plain JSON data.") from None
    for key in ("sections", "regions", "cities", "routes", "starting_routes"):
        if not isinstance(data.get(key), list) or not data[key]:
            raise _bad(f"The board needs a non-empty list {key!r}.")
    sections = []
    for s in data["sections"]:
        if not isinstance(s, dict) or not isinstance(s.get("code"), str):
            raise _bad("Each section needs a code.")
        sections.append(s["code"])
        s.setdefault("label", s["code"])
    if len(set(sections)) != len(sections):
        raise _bad("Section codes must be unique.")
    regions = {}
    for r in data["regions"]:
        if not isinstance(r, dict) or not isinstance(r.get("code"), str) or r.get("section") not in sections:
            raise _bad("Each region needs a code and one of the board's sections.")
        if r["code"] in regions:
            raise _bad(f"Region {r['code']!r} is listed twice.")
        r.setdefault("label", r["code"])
        regions[r["code"]] = r
    names = set()
    commodities = set(data.get("commodities") or [])
    for c in data["cities"]:
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"]:
            raise _bad("Each city needs a name.")
        if "-" in c["name"]:
            raise _bad(f"City name {c['name']!r} may not contain '-' (route names use it).")
        if c["name"] in names:
            raise _bad(f"City {c['name']!r} is listed twice.")
        names.add(c["name"])
        if c.get("region") not in regions:
            raise _bad(f"City {c['name']!r} has an unknown region.")
        if not isinstance(c.get("commodities", []), list) or not all(
            isinstance(k, str) for k in c.get("commodities", [])
        ):
            raise _bad(f"City {c['name']!r} has a bad commodity list.")
        c.setdefault("commodities", [])
        commodities.update(c["commodities"])
        for flag in ("large", "west_coast", "east_coast", "near_west_coast", "near_east_coast"):
            c[flag] = bool(c.get(flag, False))
        for num in ("lat", "lon", "x", "y"):
            if not isinstance(c.get(num, 0), (int, float)) or isinstance(c.get(num, 0), bool):
                raise _bad(f"City {c['name']!r} has a bad {num}.")
            c.setdefault(num, 0)
        c.setdefault("label", c["name"])
        c.setdefault("code", c["name"][:3].lower())
    seen = set()
    for r in data["routes"]:
        if not isinstance(r, dict) or r.get("a") not in names or r.get("b") not in names or r["a"] == r["b"]:
            raise _bad("Each route must join two different cities of the board.")
        length = r.get("length")
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= 9:
            raise _bad(f"Route {r['a']}-{r['b']} needs a length from 1 to 9.")
        r["mountainous"] = bool(r.get("mountainous", False))
        rid = route_id(r["a"], r["b"])
        if rid in seen:
            raise _bad(f"Route {rid} is listed twice.")
        seen.add(rid)
    for pair in data["starting_routes"]:
        if not isinstance(pair, list) or len(pair) != 2 or route_id(*pair) not in seen:
            raise _bad("Each starting route must be a pair of cities joined by a route.")
    data["commodities"] = sorted(commodities)
    avoid = data.get("avoid_cities", [])
    if not isinstance(avoid, list) or not all(isinstance(c, str) and c in names for c in avoid):
        raise _bad("avoid_cities must list cities of the board.")
    matrix = data.get("tie_matrix")
    if matrix is not None:
        if not isinstance(matrix, dict) or set(matrix) != set(regions):
            raise _bad("tie_matrix needs a row for every region.")
        for row in matrix.values():
            if not isinstance(row, dict) or set(row) != set(regions):
                raise _bad("tie_matrix needs a value for every pair of regions.")
    data.setdefault("name", "Custom board")
    data.setdefault("format", "junction/wood-and-steel-board@1")
    return data


def bearing_direction(lat1: float, lon1: float, lat2: float, lon2: float) -> str:
    """Compass direction (N/E/S/W) of the initial great-circle bearing from 1 to 2."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    deg = (math.degrees(math.atan2(y, x)) + 360.0) % 360.0
    if deg > 315 or deg <= 45:
        return "N"
    if deg <= 135:
        return "E"
    if deg <= 225:
        return "S"
    return "W"


class Board:
    """Indexed, read-only view of a board's data."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.names: list[str] = [c["name"] for c in data["cities"]]
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self.cities: dict[str, dict[str, Any]] = {c["name"]: c for c in data["cities"]}
        self.section_order: list[str] = [s["code"] for s in data["sections"]]
        self.section_labels = {s["code"]: s.get("label", s["code"]) for s in data["sections"]}
        self.regions: dict[str, dict[str, Any]] = {r["code"]: r for r in data["regions"]}
        self.region_section = {code: r["section"] for code, r in self.regions.items()}
        self.city_region = {c["name"]: c["region"] for c in data["cities"]}
        self.city_section = {n: self.region_section[r] for n, r in self.city_region.items()}
        self.region_cities: dict[str, list[str]] = {code: [] for code in self.regions}
        for c in data["cities"]:
            self.region_cities[c["region"]].append(c["name"])
        self.tie_matrix = data.get("tie_matrix")
        # routes
        self.routes: dict[str, dict[str, Any]] = {}
        n = len(self.names)
        self.adj: list[list[int]] = [[] for _ in range(n)]
        self.neighbours: dict[str, list[str]] = {name: [] for name in self.names}
        self.city_routes: dict[str, list[str]] = {name: [] for name in self.names}
        for r in data["routes"]:
            rid = route_id(r["a"], r["b"])
            a, b = sorted((r["a"], r["b"]))
            self.routes[rid] = {"id": rid, "a": a, "b": b, "length": r["length"], "mountainous": r["mountainous"]}
            ia, ib = self.index[a], self.index[b]
            self.adj[ia].append(ib)
            self.adj[ib].append(ia)
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)
            self.city_routes[a].append(rid)
            self.city_routes[b].append(rid)
        for name in self.names:
            self.neighbours[name].sort()
            self.city_routes[name].sort()
        self.route_ids: list[str] = sorted(self.routes)
        # commodities
        self.commodities: list[str] = list(data["commodities"])
        self.producers: dict[str, list[str]] = {k: [] for k in self.commodities}
        for c in data["cities"]:
            for k in c["commodities"]:
                self.producers.setdefault(k, []).append(c["name"])
        self.producers = {k: cs for k, cs in self.producers.items() if cs}
        self.commodities = sorted(self.producers)
        self.commodity_regions = {
            k: sorted({self.city_region[c] for c in cs}) for k, cs in self.producers.items()
        }
        # distances
        self.hops: list[list[int]] = [self._bfs(i) for i in range(n)]
        self.segs: list[list[int]] = [self._dijkstra(i) for i in range(n)]
        # hops from each city to the nearest producer of each commodity
        self.nearest: dict[str, dict[str, int]] = {}
        for k, cs in self.producers.items():
            idx = [self.index[c] for c in cs]
            self.nearest[k] = {name: min(self.hops[self.index[name]][j] for j in idx) for name in self.names}
        self.starting_routes: list[str] = [route_id(*p) for p in data["starting_routes"]]
        self.starting_cities: list[str] = sorted({c for rid in self.starting_routes for c in self.route_cities(rid)})
        self.avoid_cities: list[str] = sorted(set(data.get("avoid_cities") or ()))  # independents never start there
        self._dir_cache: dict[tuple[str, str], str] = {}
        # bitmask helpers for the hot loops (independent growth, the workload)
        self.route_mask: dict[str, int] = {
            rid: (1 << self.index[r["a"]]) | (1 << self.index[r["b"]]) for rid, r in self.routes.items()
        }
        self.closed_nbr: list[int] = []
        for i in range(n):
            m = 1 << i
            for j in self.adj[i]:
                m |= 1 << j
            self.closed_nbr.append(m)
        self.routes_at: list[list[str]] = [self.city_routes[name] for name in self.names]
        self.memo: dict = {}

    # -- graph -------------------------------------------------------------
    def _bfs(self, start: int) -> list[int]:
        dist = [INF] * len(self.names)
        dist[start] = 0
        queue = deque([start])
        while queue:
            u = queue.popleft()
            du = dist[u] + 1
            for v in self.adj[u]:
                if dist[v] > du:
                    dist[v] = du
                    queue.append(v)
        return dist

    def _dijkstra(self, start: int) -> list[int]:
        dist = [INF] * len(self.names)
        dist[start] = 0
        heap = [(0, start)]
        lengths = {}
        for r in self.routes.values():
            ia, ib = self.index[r["a"]], self.index[r["b"]]
            lengths[(ia, ib)] = lengths[(ib, ia)] = r["length"]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v in self.adj[u]:
                nd = d + lengths[(u, v)]
                if nd < dist[v]:
                    dist[v] = nd
                    heapq.heappush(heap, (nd, v))
        return dist

    def hop(self, a: str, b: str) -> int:
        return self.hops[self.index[a]][self.index[b]]

    def seg(self, a: str, b: str) -> int:
        return self.segs[self.index[a]][self.index[b]]

    def hop_to_set(self, a: str, cities) -> int:
        row = self.hops[self.index[a]]
        return min((row[self.index[c]] for c in cities), default=INF)

    def within(self, cities, distance: int, *, include_start: bool = False, route_ok=None) -> list[str]:
        """Cities within ``distance`` hops of any of ``cities`` (BFS, optional route filter)."""
        start = set(cities)
        if route_ok is None:
            found = {
                name
                for name in self.names
                if any(self.hops[self.index[name]][self.index[c]] <= distance for c in start)
            }
        else:
            dist = {c: 0 for c in start}
            queue = deque(start)
            while queue:
                u = queue.popleft()
                if dist[u] == distance:
                    continue
                for rid in self.city_routes[u]:
                    if not route_ok(self.routes[rid]):
                        continue
                    v = self.other_end(rid, u)
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        queue.append(v)
            found = set(dist)
        if not include_start:
            found -= start
        return sorted(found)

    def route_cities(self, rid: str) -> tuple[str, str]:
        r = self.routes[rid]
        return r["a"], r["b"]

    def other_end(self, rid: str, city: str) -> str:
        r = self.routes[rid]
        return r["b"] if r["a"] == city else r["a"]

    def parse_route(self, name: Any) -> str | None:
        """Accept "A-B" in either order; return the canonical id or None."""
        if not isinstance(name, str):
            return None
        if name in self.routes:
            return name
        for i, ch in enumerate(name):
            if ch == "-":
                rid = route_id(name[:i].strip(), name[i + 1 :].strip())
                if rid in self.routes:
                    return rid
        return None

    def direction(self, a: str, b: str) -> str:
        key = (a, b)
        d = self._dir_cache.get(key)
        if d is None:
            ca, cb = self.cities[a], self.cities[b]
            d = bearing_direction(ca["lat"], ca["lon"], cb["lat"], cb["lon"])
            self._dir_cache[key] = d
        return d

    # -- sections and regions ---------------------------------------------
    def section_distance(self, a_section: str, b_section: str) -> int:
        return abs(self.section_order.index(a_section) - self.section_order.index(b_section))

    def is_west(self, city: str) -> bool:
        return self.section_order.index(self.city_section[city]) == 0

    def section_kind(self, city: str) -> str:
        """"east", "central" or "west" for debt service: the last section is Eastern,
        the first Western and anything between Central."""
        i = self.section_order.index(self.city_section[city])
        if i == len(self.section_order) - 1:
            return "east"
        if i == 0:
            return "west"
        return "central"

    def base_value(self, city: str) -> int:
        c = self.cities[city]
        return 2 * (1 + (1 if c["commodities"] else 0) + (1 if c["large"] else 0) + 3 * (1 if c["west_coast"] else 0))

    def monopoly_sizes(self) -> dict[str, int]:
        """Commodities produced in 4, 5 or 6 cities (monopoly-eligible) -> producer count."""
        return {k: len(cs) for k, cs in self.producers.items() if 4 <= len(cs) <= 6}


_CACHE: dict[str, Board] = {}


def get_board(data: dict[str, Any], key: str | None = None) -> Board:
    """The indexed Board for ``data`` (cached by fingerprint)."""
    key = key or board_fingerprint(data)
    board = _CACHE.get(key)
    if board is None:
        if len(_CACHE) > 16:
            _CACHE.clear()
        board = Board(data)
        _CACHE[key] = board
    return board
