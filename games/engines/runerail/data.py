"""Runerail's content and fixed numbers: the world map, the loads, the cards, the components.

The data files are generated (see README.md); this module only reads them,
once per process, and builds the one :class:`RailCore` every game of this kind shares.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from ..rail_core import RailCore, load_map

DATA = Path(__file__).resolve().parent / "data"

# The published build costs (the reference, "Build costs"): the milepost built *to* (its city's cost,
# else its terrain's) plus 2 per river and 3 per ocean inlet crossed; sea points are not mileposts.
# The Deepway gates (2) are not a terrain: :data:`GATE_COST`, priced by the engine's section_cost hook.
RULES: dict[str, Any] = {
    "terrain_cost": {"plain": 1, "desert": 1, "forest": 2, "mountain": 2, "jungle": 3, "alpine": 5,
                     "volcano": 5, "underground": 5},
    "city_cost": {"small": 3, "medium": 3, "major": 5},
    "crossing_cost": {"river": 2, "inlet": 3},
    # Public passages nobody builds: the Ley Line (one milepost from any milepost of Thornhollow to any
    # of Emberforge, joins them for the win), the Prism Bridge (closed until its event), the gates
    # (1 movement point between the layers).
    "link_kinds": {"magic": {"track": False, "moves": 1, "connects": True},
                   "bridge": {"track": False, "moves": 1, "connects": True},
                   "entrance": {"track": False, "moves": 1, "connects": True}},
    "city_caps": {"small": 2, "medium": 3},
    "max_own_sections": 3,
    "major_starts_per_turn": 2,
    "toll": 4,
    "courtesy": True,
    "reverse_at_ports": True,
}

GATE_COST = 2  # building to a Deepway gate milepost (published: an Underground entrance costs 2)
PORT_COST = 2  # building to a port milepost outside a major city (published; option port_price "city": its city's 3)
PORT_CAP = 2  # players who may build into a port outside a major city (published), medium ports too
GATE_MAX_OWN = 3  # one player's sections into one Deepway gate milepost (published: tunnel entrances)
BUILD_LIMIT = 20  # what a turn may spend on hiring, building and upgrading together
START_GOLD = 60
HAND = 3
BUILD_ROUNDS = 3  # initial build turns: in order, reversed, in order
DEEP_LAYER = 1  # the Deepways
BRIBE = 1  # the Deepways' movement bribe and build bribe, each once a turn
WIN_MAJORS = 7  # of the 8 major cities, joined by one network
WIN_GOLD = 250

LEY_LINE = "The Ley Line"
PRISM_BRIDGE = "The Prism Bridge"

# Players' colours: the Okabe–Ito palette (the waiting room's, games/services.py PALETTE), the first
# six in seat order unless the game carries the seats' own (seat_colors.py).
COLORS: dict[str, str] = {
    "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
    "vermilion": "#D55E00", "purple": "#CC79A7", "black": "#000000",
}


def _read(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def map_data() -> dict[str, Any]:
    return _read("map.json")


@functools.lru_cache(maxsize=1)
def core() -> RailCore:
    """The rail core for the world and its rules (shared: it holds no game state)."""
    return RailCore(load_map(map_data()), RULES)


@functools.lru_cache(maxsize=1)
def loads() -> dict[str, dict[str, Any]]:
    """The loads by id: ``{"id", "name", "chips", "sources": [city ids]}``."""
    return {x["id"]: x for x in _read("loads.json")["loads"]}


@functools.lru_cache(maxsize=1)
def city_loads() -> dict[str, tuple[str, ...]]:
    """Each city's loads (ids), as the map lists them."""
    return {c["id"]: tuple(c.get("loads", ())) for c in map_data()["cities"]}


@functools.lru_cache(maxsize=1)
def _demands() -> dict[str, Any]:
    return _read("demands.json")


@functools.lru_cache(maxsize=1)
def demand_cards() -> dict[str, dict[str, Any]]:
    """Demand cards by id: ``{"id", "demands": [{"city", "load", "payout", "distance"}] * 3}``."""
    return {c["id"]: c for c in _demands()["cards"]}


@functools.lru_cache(maxsize=1)
def events() -> dict[str, dict[str, Any]]:
    """Event cards by id: ``{"id", "title", "text", "kind", "params", "duration"}``."""
    return {e["id"]: e for e in _read("events.json")["events"]}


def deck() -> list[str]:
    """Every card of the demand deck (demand ids and event ids), in the data's order."""
    return list(_demands()["deck"])


@functools.lru_cache(maxsize=1)
def components() -> dict[str, Any]:
    return _read("components.json")


@functools.lru_cache(maxsize=1)
def foremen() -> dict[str, dict[str, Any]]:
    """The 13 foreman cards by id: ``{"id", "kind", "kind_name", "name", "text", "rule", "ability"}``."""
    return {f["id"]: f for f in components()["foremen"]}


@functools.lru_cache(maxsize=1)
def locos() -> dict[str, dict[str, Any]]:
    """Loco types by id: ``{"id", "name", "level", "loads", "speed", "count", "text"}``."""
    return {x["id"]: x for x in components()["locos"]}


def start_loco() -> str:
    return components()["start_loco"]


def hiring() -> dict[str, Any]:
    return components()["hiring"]


def upgrade_rules() -> dict[str, Any]:
    return components()["upgrade"]


def war_tax(gold: int) -> int:
    """What the war tax takes from a player holding ``gold``."""
    for row in components()["war_tax"]:
        if gold >= row["from"] and (row["to"] is None or gold <= row["to"]):
            return row["pay"]
    return 0


@functools.lru_cache(maxsize=1)
def gate_nodes() -> frozenset[int]:
    """Milepost indices of the Deepway gates (both layers; the map marks them with ``gate``)."""
    return frozenset(i for i, node in enumerate(map_data()["nodes"]) if node.get("gate"))


@functools.lru_cache(maxsize=1)
def gate_ways() -> frozenset[str]:
    """Edge keys of the hex pairs into the Deepway gate mileposts that a section may be built on (both layers)."""
    m = core().map
    gates = gate_nodes()
    out = set()
    for g in gates:
        for nb in m.adjacency[g]:
            if nb.link is None and m.nodes[nb.node].terrain in RULES["terrain_cost"]:
                out.add(nb.key)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def medium_ports() -> dict[str, frozenset[int]]:
    """Port cities outside the majors that the size cap (medium 3) would let in more than
    :data:`PORT_CAP` players: city id -> its mileposts."""
    m = core().map
    return {cid: frozenset(c.nodes) for cid, c in m.cities.items()
            if c.size != "major" and c.data.get("port") and RULES["city_caps"].get(c.size, 0) > PORT_CAP}


@functools.lru_cache(maxsize=1)
def content() -> dict[str, Any]:
    """What a page needs to draw and name things; ``version`` changes whenever any of it does."""
    body = {
        "map": map_data(),
        "loads": list(loads().values()),
        "foremen": list(foremen().values()),
        "locos": list(locos().values()),
        "events": list(events().values()),
        "colors": dict(COLORS),
        "ships": list(ships().values()),
        # Each event card's area resolved (event_area): milepost keys, milepost pairs (edge keys) and
        # sea point keys, so a page draws an area without knowing how areas are read.
        "areas": {card: _area_keys(event_area(card)) for card in events() if events()[card]["params"].get("area")},
        # What building to a milepost costs, for the play page's map legend.
        "build_costs": {"terrain": dict(RULES["terrain_cost"]), "city": dict(RULES["city_cost"]),
                        "crossing": dict(RULES["crossing_cost"])},
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return {"version": hashlib.sha256(text.encode()).hexdigest()[:16], **body}


def _area_keys(area: Area) -> dict[str, list[str]]:
    m = core().map
    return {"nodes": sorted(m.key(i) for i in area.nodes), "pairs": sorted(area.pairs), "sea": sorted(area.sea)}


# -- event areas ---------------------------------------------------------------------------------------


class Area:
    """What an event's ``params.area`` covers: ``nodes`` (milepost indices), ``pairs`` (edge keys of
    milepost pairs: the crossings of a river area) and ``sea`` (sea point keys ``"0,q,r"``).

    A milepost is *in* the area when it is one of ``nodes`` or an end of one of ``pairs``; a section
    (an edge key) is *touched* when an end is in ``nodes`` or it is one of ``pairs``."""

    __slots__ = ("nodes", "pairs", "sea", "pair_ends")

    def __init__(self, nodes: frozenset[int], pairs: frozenset[str], sea: frozenset[str]) -> None:
        self.nodes, self.pairs, self.sea = nodes, pairs, sea
        edge_nodes = core().map.edge_nodes
        self.pair_ends = frozenset(end for key in pairs for end in edge_nodes[key])

    def has(self, node: int) -> bool:
        return node in self.nodes or node in self.pair_ends

    def touches(self, key: str) -> bool:
        if key in self.pairs:
            return True
        a, b = core().map.edge_nodes[key]
        return a in self.nodes or b in self.nodes

    def __or__(self, other: Area) -> Area:
        return Area(self.nodes | other.nodes, self.pairs | other.pairs, self.sea | other.sea)


EMPTY: frozenset[Any] = frozenset()


def _sea_key(at: list[int]) -> str:
    return ",".join(str(x) for x in at)


def area_of(spec: dict[str, Any]) -> Area:
    """The :class:`Area` of an area spec (``events.json`` ``areas``); RulesError-free: the data tests
    keep every spec valid, an unknown form raises ValueError."""
    m = core().map
    if "region" in spec:
        region = spec["region"]
        sea = frozenset(_sea_key(p) for p in map_data().get("sea_regions", {}).get(region, ()))
        return Area(frozenset(n.index for n in m.nodes if n.region == region), EMPTY, sea)
    if "within" in spec:
        city = m.cities[spec["of"]]
        centre = city.centre if city.centre is not None else city.nodes[0]
        n = spec["within"]
        return Area(frozenset(i for i in range(len(m.nodes)) if (d := m.hex_distance(centre, i)) is not None
                              and d <= n), EMPTY, EMPTY)
    if "terrain" in spec:
        return Area(frozenset(n.index for n in m.nodes if n.terrain == spec["terrain"]), EMPTY, EMPTY)
    if "river" in spec:
        return Area(EMPTY, frozenset(k for k, xs in m.crossings.items()
                                     if any(kind == "river" and name == spec["river"] for kind, name in xs)), EMPTY)
    if "crossing" in spec:
        return Area(EMPTY, frozenset(k for k, xs in m.crossings.items()
                                     if any(kind == spec["crossing"] for kind, _ in xs)), EMPTY)
    if "cities" in spec:
        return Area(frozenset(i for c in spec["cities"] for i in m.cities[c].nodes), EMPTY, EMPTY)
    if "any" in spec:
        out = Area(EMPTY, EMPTY, EMPTY)
        for part in spec["any"]:
            out = out | area_of(part)
        return out
    if spec.get("everywhere"):
        sea = frozenset(_sea_key(p) for p in map_data().get("sea", ()))
        return Area(frozenset(range(len(m.nodes))), EMPTY, sea)
    raise ValueError(f"unknown area {spec!r}")


@functools.cache
def event_area(card: str) -> Area:
    """The area of event card ``card`` (cached per card; an empty area when the card names none)."""
    spec = events()[card]["params"].get("area")
    return area_of(spec) if spec else Area(EMPTY, EMPTY, EMPTY)


# -- ships and the sea ------------------------------------------------------------------------------------

SHIP_MAX_BOARDING = 5  # the dearest boarding: a player must hold it to draw a ship card (they pay the drawn one's)


@functools.lru_cache(maxsize=1)
def ships() -> dict[str, dict[str, Any]]:
    """The 13 ship cards by id: ``{"id", "name", "speed", "boarding_cost", "text"}``."""
    return {s["id"]: s for s in components()["ships"]}


@functools.lru_cache(maxsize=1)
def minor_port_nodes() -> frozenset[int]:
    """Milepost indices of the ports outside the major cities (a major's port milepost is a major milepost)."""
    m = core().map
    return frozenset(n.index for n in m.nodes if n.port and (n.city is None or m.cities[n.city].size != "major"))


@functools.lru_cache(maxsize=1)
def port_keys() -> frozenset[str]:
    """Milepost keys of the ports (the map's ``port`` nodes)."""
    m = core().map
    return frozenset(n.key for n in m.nodes if n.port)


@functools.lru_cache(maxsize=1)
def sea_graph() -> dict[str, tuple[str, ...]]:
    """The sea as a graph: each sea point key (``"0,q,r"``) and each port milepost key -> its neighbours
    (sea points beside it; ports beside a sea point). A ship sails sea point to sea point and lands at a port."""
    from ..rail_core import hexgrid

    m = core().map
    sea = {_sea_key(p) for p in map_data()["sea"]}
    ports = port_keys()
    graph: dict[str, list[str]] = {k: [] for k in sorted(sea | ports)}
    for key in sorted(sea | ports):
        layer, q, r = (int(x) for x in key.split(","))
        for nq, nr in hexgrid.neighbours(m.layout, q, r):
            other = f"{layer},{nq},{nr}"
            if other in sea and other != key:
                graph[key].append(other)
                if key in ports:
                    graph[other].append(key)
    return {k: tuple(dict.fromkeys(v)) for k, v in graph.items()}
