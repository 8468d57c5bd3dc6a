"""The rail map: its JSON schema, validation with clear errors, and an indexed graph.

A map is plain data (format ``junction/rail-map@1``, see the README)::

    {"format": "junction/rail-map@1", "name": "...", "layout": "odd-q-up" | "odd-r",
     "layers": [{"id": 0, "name": "surface"}],
     "cities": [{"id": "seattle", "name": "Seattle", "size": "small"|"medium"|"major", ...}],
     "nodes": [{"at": [layer, q, r], "terrain": "clear", "city"?: id, "region"?: str,
                "port"?: bool, "name"?: str, ...}],
     "crossings": [{"kind": "river", "name": "Snake", "edges": [[[l,q,r], [l,q,r]], ...]}],
     "links": [{"kind": "magic", "name": "...", "edges": [[a, b], ...], "enabled"?: bool}]}

Every listed node is a milepost; a position with no node is not part of the map (sea,
off-board). Hex adjacency joins mileposts of one layer; ``crossings`` are named sets of
hex-adjacent pairs that something crosses (a river, an inlet); ``links`` are extra pairs
that are not hex neighbours (tunnel entrances between layers, magical connections, a
bridge an event opens). What a terrain, a crossing or a link costs and allows is the
rules' business (:mod:`.rules`), not the map's. Cities and nodes may carry extra keys
(a game's goods, ports' data); they are kept as given.

A milepost is named by its key ``"layer,q,r"`` (a string, as in the track state) or its
address ``[layer, q, r]``; both are accepted wherever a milepost is expected.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from ..base import RulesError
from . import hexgrid

FORMAT = "junction/rail-map@1"
CITY_SIZES = ("small", "medium", "major")
MAJOR_CITY_MILEPOSTS = 7


class Milepost(NamedTuple):
    index: int
    key: str
    layer: int
    q: int
    r: int
    terrain: str
    city: str | None
    region: str | None
    port: bool
    name: str | None


class City(NamedTuple):
    id: str
    name: str
    size: str
    nodes: tuple[int, ...]
    centre: int | None  # a major city's centre milepost
    data: dict[str, Any]  # the city object as given (goods and other game data)


class Link(NamedTuple):
    kind: str
    name: str
    enabled: bool  # as the map starts; the state may override it by name


class Neighbour(NamedTuple):
    node: int  # index of the milepost at the other end
    key: str  # the pair's edge key
    link: Link | None  # None for hex neighbours


def map_error(message: str) -> RulesError:
    return RulesError("invalid-map", message)


def node_key(layer: int, q: int, r: int) -> str:
    return f"{layer},{q},{r}"


def pair_key(a: tuple[int, int, int], b: tuple[int, int, int]) -> str:
    """The edge key of the milepost pair at addresses ``a`` and ``b`` (order-free)."""
    if tuple(b) < tuple(a):
        a, b = b, a
    return f"{node_key(*a)}|{node_key(*b)}"


def parse_address(value: Any) -> tuple[int, int, int] | None:
    """``[l, q, r]``, ``(l, q, r)`` or ``"l,q,r"`` → ``(l, q, r)``; None if it is neither."""
    if isinstance(value, str):
        parts = value.split(",")
        if len(parts) != 3:
            return None
        try:
            return int(parts[0]), int(parts[1]), int(parts[2])
        except ValueError:
            return None
    if isinstance(value, (list, tuple)) and len(value) == 3:
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return value[0], value[1], value[2]
    return None


def map_fingerprint(data: dict[str, Any]) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _where_node(i: int, node: Any) -> str:
    at = node.get("at") if isinstance(node, dict) else None
    return f"nodes[{i}]" + (f" (at {at})" if at is not None else "")


def _edge_list(group: dict[str, Any], where: str, positions: dict, *, hex_pairs: bool, layout: str) -> list:
    edges = group.get("edges")
    if not isinstance(edges, list) or not edges:
        raise map_error(f"{where} needs a non-empty list 'edges' of milepost pairs.")
    out = []
    for j, pair in enumerate(edges):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise map_error(f"{where}.edges[{j}] must be a pair [[layer, q, r], [layer, q, r]].")
        a, b = parse_address(pair[0]), parse_address(pair[1])
        if a is None or b is None:
            raise map_error(f"{where}.edges[{j}] must be a pair [[layer, q, r], [layer, q, r]].")
        for end in (a, b):
            if end not in positions:
                raise map_error(f"{where}.edges[{j}]: {list(end)} is not a milepost of the map.")
        if a == b:
            raise map_error(f"{where}.edges[{j}] joins {list(a)} to itself.")
        adjacent = a[0] == b[0] and (b[1], b[2]) in hexgrid.neighbours(layout, a[1], a[2])
        if hex_pairs and not adjacent:
            raise map_error(f"{where}.edges[{j}]: {list(a)} and {list(b)} are not hex neighbours on one layer.")
        if not hex_pairs and adjacent:
            raise map_error(
                f"{where}.edges[{j}]: {list(a)} and {list(b)} are already hex neighbours; "
                "a link joins mileposts that are not (use a crossing for something on a hex pair)."
            )
        out.append((a, b))
    return out


def validate_map(data: Any) -> dict[str, Any]:
    """Check a rail map given as plain data; return a normalised deep copy.

    Raises ``RulesError("invalid-map", message)`` naming the first problem found.
    """
    if not isinstance(data, dict):
        raise map_error("The map must be a JSON object.")
    try:
        data = json.loads(json.dumps(data))
    except (TypeError, ValueError):
        raise map_error("The map must be plain JSON data.") from None
    if data.get("format") != FORMAT:
        raise map_error(f"The map's 'format' must be {FORMAT!r}.")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise map_error("The map needs a 'name'.")
    layout = data.get("layout")
    if layout not in hexgrid.LAYOUTS:
        raise map_error(f"The map's 'layout' must be one of {', '.join(hexgrid.LAYOUTS)}.")

    layers = data.get("layers")
    if not isinstance(layers, list) or not layers:
        raise map_error("The map needs a non-empty list 'layers'.")
    layer_ids = set()
    for i, layer in enumerate(layers):
        if not isinstance(layer, dict) or not isinstance(layer.get("id"), int) or isinstance(layer.get("id"), bool):
            raise map_error(f"layers[{i}] needs an integer 'id'.")
        if layer["id"] in layer_ids:
            raise map_error(f"layers[{i}]: layer id {layer['id']} is used twice.")
        layer_ids.add(layer["id"])
        layer.setdefault("name", f"layer {layer['id']}")
        if not isinstance(layer["name"], str):
            raise map_error(f"layers[{i}]: 'name' must be a string.")

    cities = data.setdefault("cities", [])
    if not isinstance(cities, list):
        raise map_error("'cities' must be a list.")
    city_size = {}
    for i, city in enumerate(cities):
        if not isinstance(city, dict) or not isinstance(city.get("id"), str) or not city["id"]:
            raise map_error(f"cities[{i}] needs a non-empty string 'id'.")
        if city["id"] in city_size:
            raise map_error(f"cities[{i}]: city id {city['id']!r} is used twice.")
        if city.get("size") not in CITY_SIZES:
            raise map_error(f"City {city['id']!r}: 'size' must be one of {', '.join(CITY_SIZES)}.")
        city.setdefault("name", city["id"])
        if not isinstance(city["name"], str):
            raise map_error(f"City {city['id']!r}: 'name' must be a string.")
        city_size[city["id"]] = city["size"]

    nodes = data.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise map_error("The map needs a non-empty list 'nodes'.")
    positions: dict[tuple[int, int, int], int] = {}
    city_nodes: dict[str, list[tuple[int, int, int]]] = {cid: [] for cid in city_size}
    for i, node in enumerate(nodes):
        where = _where_node(i, node)
        if not isinstance(node, dict):
            raise map_error(f"{where} must be an object.")
        at = parse_address(node.get("at"))
        if at is None or not isinstance(node.get("at"), list):
            raise map_error(f"{where} needs 'at': [layer, q, r] (three integers).")
        if at[0] not in layer_ids:
            raise map_error(f"{where}: layer {at[0]} is not in 'layers'.")
        if at in positions:
            raise map_error(f"{where}: milepost {list(at)} is listed twice.")
        positions[at] = i
        if not isinstance(node.get("terrain"), str) or not node["terrain"]:
            raise map_error(f"{where} needs a 'terrain' name.")
        city = node.get("city")
        if city is not None:
            if city not in city_size:
                raise map_error(f"{where}: unknown city {city!r}.")
            city_nodes[city].append(at)
        for key in ("region", "name"):
            if node.get(key) is not None and not isinstance(node[key], str):
                raise map_error(f"{where}: {key!r} must be a string.")
        if "port" in node and not isinstance(node["port"], bool):
            raise map_error(f"{where}: 'port' must be true or false.")

    for cid, at_list in city_nodes.items():
        size = city_size[cid]
        if not at_list:
            raise map_error(f"City {cid!r} has no milepost (no node names it).")
        if size != "major" and len(at_list) != 1:
            raise map_error(f"City {cid!r} is {size}: it must be exactly one milepost, not {len(at_list)}.")
        if size == "major":
            if len(at_list) != MAJOR_CITY_MILEPOSTS:
                raise map_error(
                    f"Major city {cid!r} must have {MAJOR_CITY_MILEPOSTS} mileposts (a centre and its six "
                    f"neighbours), not {len(at_list)}."
                )
            if _major_centre(layout, at_list) is None:
                raise map_error(f"Major city {cid!r}: its 7 mileposts must be one centre and its six neighbours.")

    for name in ("crossings", "links"):
        groups = data.setdefault(name, [])
        if not isinstance(groups, list):
            raise map_error(f"'{name}' must be a list.")
        linked: dict[str, str] = {}
        for i, group in enumerate(groups):
            where = f"{name}[{i}]"
            if not isinstance(group, dict):
                raise map_error(f"{where} must be an object.")
            if not isinstance(group.get("kind"), str) or not group["kind"]:
                raise map_error(f"{where} needs a 'kind' (e.g. {'river' if name == 'crossings' else 'magic'}).")
            group.setdefault("name", group["kind"])
            if not isinstance(group["name"], str):
                raise map_error(f"{where}: 'name' must be a string.")
            if name == "links":
                group.setdefault("enabled", True)
                if not isinstance(group["enabled"], bool):
                    raise map_error(f"{where}: 'enabled' must be true or false.")
            pairs = _edge_list(group, where, positions, hex_pairs=(name == "crossings"), layout=layout)
            in_group: set[str] = set()
            for a, b in pairs:
                key = pair_key(a, b)
                if key in in_group:
                    raise map_error(f"{where}: the pair {key} is listed twice.")
                in_group.add(key)
                if name == "links":
                    if key in linked:
                        raise map_error(f"{where}: the pair {key} is already linked by {linked[key]}.")
                    linked[key] = where
            group["edges"] = [[list(a), list(b)] for a, b in pairs]
    return data


def _major_centre(layout: str, at_list: list[tuple[int, int, int]]) -> tuple[int, int, int] | None:
    members = set(at_list)
    layers = {a[0] for a in at_list}
    if len(layers) != 1:
        return None
    for layer, q, r in at_list:
        ring = {(layer, nq, nr) for nq, nr in hexgrid.neighbours(layout, q, r)}
        if ring | {(layer, q, r)} == members:
            return layer, q, r
    return None


class RailMap:
    """A validated map, indexed for fast queries. Read-only; share one per map."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.name: str = data["name"]
        self.layout: str = data["layout"]
        self.layers: list[dict[str, Any]] = data["layers"]
        self.fingerprint = map_fingerprint(data)
        self.nodes: list[Milepost] = []
        self.index: dict[str, int] = {}
        addresses: dict[tuple[int, int, int], int] = {}
        for i, node in enumerate(data["nodes"]):
            layer, q, r = node["at"]
            key = node_key(layer, q, r)
            self.nodes.append(
                Milepost(i, key, layer, q, r, node["terrain"], node.get("city"), node.get("region"),
                         bool(node.get("port", False)), node.get("name"))
            )
            self.index[key] = i
            addresses[(layer, q, r)] = i
        self._addresses = addresses

        members: dict[str, list[int]] = {c["id"]: [] for c in data["cities"]}
        for node in self.nodes:
            if node.city is not None:
                members[node.city].append(node.index)
        self.cities: dict[str, City] = {}
        for c in data["cities"]:
            nodes = tuple(members[c["id"]])
            centre = None
            if c["size"] == "major":
                at = _major_centre(self.layout, [(self.nodes[i].layer, self.nodes[i].q, self.nodes[i].r) for i in nodes])
                centre = addresses[at] if at else None
            self.cities[c["id"]] = City(c["id"], c["name"], c["size"], nodes, centre, c)
        self.major_of: list[str | None] = [
            n.city if n.city is not None and self.cities[n.city].size == "major" else None for n in self.nodes
        ]
        self.majors: tuple[str, ...] = tuple(cid for cid, c in self.cities.items() if c.size == "major")

        # Hex neighbours, then links; a pair is one or the other, never both (validated).
        adjacency: list[list[Neighbour]] = [[] for _ in self.nodes]
        self.edge_nodes: dict[str, tuple[int, int]] = {}
        for node in self.nodes:
            for nq, nr in hexgrid.neighbours(self.layout, node.q, node.r):
                j = addresses.get((node.layer, nq, nr))
                if j is not None:
                    key = pair_key((node.layer, node.q, node.r), (node.layer, nq, nr))
                    adjacency[node.index].append(Neighbour(j, key, None))
                    self.edge_nodes[key] = (min(node.index, j), max(node.index, j))
        self.link_groups: list[Link] = []
        for group in data["links"]:
            link = Link(group["kind"], group["name"], group["enabled"])
            self.link_groups.append(link)
            for a, b in group["edges"]:
                i, j = addresses[tuple(a)], addresses[tuple(b)]
                key = pair_key(tuple(a), tuple(b))
                adjacency[i].append(Neighbour(j, key, link))
                adjacency[j].append(Neighbour(i, key, link))
                self.edge_nodes[key] = (min(i, j), max(i, j))
        self.adjacency: list[tuple[Neighbour, ...]] = [tuple(a) for a in adjacency]
        self._between: list[dict[int, Neighbour]] = [{nb.node: nb for nb in a} for a in adjacency]

        self.crossings: dict[str, tuple[tuple[str, str], ...]] = {}
        for group in data["crossings"]:
            for a, b in group["edges"]:
                key = pair_key(tuple(a), tuple(b))
                self.crossings[key] = self.crossings.get(key, ()) + ((group["kind"], group["name"]),)

    # -- lookups -----------------------------------------------------------------------------------

    def find(self, ref: Any) -> int:
        """The index of a milepost given as ``"l,q,r"``, ``[l, q, r]`` or ``(l, q, r)``."""
        # The usual forms first, looked up as they are: a milepost's key, or a list of three ints.
        if type(ref) is str:
            i = self.index.get(ref)
            if i is not None:
                return i
        elif type(ref) is list and len(ref) == 3 and type(ref[0]) is type(ref[1]) is type(ref[2]) is int:
            i = self._addresses.get((ref[0], ref[1], ref[2]))
            if i is not None:
                return i
        at = parse_address(ref)
        i = self._addresses.get(at) if at is not None else None
        if i is None:
            raise RulesError("not-a-milepost", f"{ref!r} is not a milepost of the map.")
        return i

    def key(self, i: int) -> str:
        return self.nodes[i].key

    def address(self, i: int) -> list[int]:
        n = self.nodes[i]
        return [n.layer, n.q, n.r]

    def between(self, a: int, b: int) -> Neighbour | None:
        """How ``a`` and ``b`` are joined (hex neighbours or a link), or None."""
        return self._between[a].get(b)

    def edge_key(self, a: int, b: int) -> str:
        nb = self._between[a].get(b)
        if nb is None:
            raise RulesError("not-adjacent", f"{self.key(a)} and {self.key(b)} are not neighbouring mileposts.")
        return nb.key

    def is_internal(self, a: int, b: int) -> bool:
        """True for a pair inside one major city (public track, never built)."""
        m = self.major_of[a]
        return m is not None and m == self.major_of[b]

    def hex_distance(self, a: int, b: int) -> int | None:
        """Hex steps between two mileposts of one layer (None across layers)."""
        na, nb = self.nodes[a], self.nodes[b]
        if na.layer != nb.layer:
            return None
        return hexgrid.distance(self.layout, (na.q, na.r), (nb.q, nb.r))

    # -- drawing -----------------------------------------------------------------------------------

    def pixel(self, i: int, size: float = 1.0) -> tuple[float, float]:
        n = self.nodes[i]
        return hexgrid.pixel(self.layout, n.q, n.r, size)

    def positions(self, size: float = 1.0, layer: int | None = None) -> dict[str, Any]:
        """Pixel centres of a layer's mileposts (all layers if None), shifted so the drawing's
        top-left hex touches (0, 0): ``{"width", "height", "size", "points": {key: [x, y]}}``."""
        chosen = [n for n in self.nodes if layer is None or n.layer == layer]
        raw = {n.key: hexgrid.pixel(self.layout, n.q, n.r, size) for n in chosen}
        if not raw:
            return {"width": 0.0, "height": 0.0, "size": size, "points": {}}
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        x0, y0 = min(xs) - size, min(ys) - size
        points = {k: [round(x - x0, 3), round(y - y0, 3)] for k, (x, y) in raw.items()}
        return {"width": round(max(xs) - x0 + size, 3), "height": round(max(ys) - y0 + size, 3),
                "size": size, "points": points}


def load_map(data: Any) -> RailMap:
    """Validate ``data`` and index it."""
    return RailMap(validate_map(data))
