"""Runerail's world as shipped in games/engines/runerail/data/ (map.json, loads.json) and the
script that makes it (scripts/make_world.py from data/sources/)."""

from __future__ import annotations

import json
from collections import Counter, deque
from pathlib import Path

import pytest

from games.engines.rail_core import RailCore, hexgrid, load_map
from games.engines.runerail.scripts import _common, make_world

DATA = _common.DATA
README = (_common.PACKAGE / "README.md").read_text(encoding="utf-8")

# The skeleton the README fixes.
REGIONS = {"frostmarch", "greyhold", "amber-plains", "thornwood", "saltmere", "ashen-reach", "sunward-sands",
           "verdant-tangle", "lantern-isles", "deepways"}
SEAS = {"western-sea", "inland-sea"}
MAJORS = {"highcairn": "frostmarch", "stonecrown": "greyhold", "goldmeadow": "amber-plains",
          "thornhollow": "thornwood", "saltharbor": "saltmere", "emberforge": "ashen-reach",
          "sandspire": "sunward-sands", "mossgate": "verdant-tangle"}
LOAD_IDS = {"ale", "amber", "beeswax", "bog-iron", "copper", "cave-truffles", "emberstone", "glowmoss", "gemstones",
            "hops", "ironwood", "lamp-oil", "marble", "moonsilver", "pearls", "runestones", "salt", "saltfish",
            "spices", "starfruit", "timber", "wool", "wyvern-eggs", "frost-lilies", "sandglass", "silk"}
SURFACE_TERRAINS = {"plain", "desert", "forest", "mountain", "jungle", "alpine", "volcano"}
# Place names of the published relative's board: none may appear in this world.
DENYLIST = ["wikkedde", "ozu-zarkh", "ozu zarkh", "bluefeld", "octomare", "uloggh", "nordkassel", "glyth gamel",
            "kaarlsberg", "northern wastes", "iron dragon"]


def read(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def map_data():
    return read("map.json")


@pytest.fixture(scope="module")
def loads():
    return read("loads.json")


@pytest.fixture(scope="module")
def core(map_data):
    return RailCore(load_map(map_data), rules=make_world.RULES)


def surface(map_data) -> dict[tuple[int, int], dict]:
    return {(n["at"][1], n["at"][2]): n for n in map_data["nodes"] if n["at"][0] == 0}


def neighbours(q: int, r: int):
    return hexgrid.neighbours("odd-r", q, r)


def test_the_skeleton_is_the_readmes():
    for ident in REGIONS | SEAS | set(MAJORS) | LOAD_IDS:
        assert f"`{ident}`" in README, ident


# -- the map ---------------------------------------------------------------------------------------

def test_map_loads_in_the_core_with_the_games_costs(core, map_data):
    m = core.map
    assert map_data["format"] == "junction/rail-map@1" and m.layout == "odd-r"
    assert [layer["id"] for layer in map_data["layers"]] == [0, 1]
    assert map_data["layers"][1]["name"] == "The Deepways"
    assert "original" in map_data["about"]


def test_counts(map_data, core):
    m = core.map
    land = [n for n in m.nodes if n.layer == 0]
    deep = [n for n in m.nodes if n.layer == 1]
    assert 2000 <= len(land) <= 2400
    assert 200 <= len(deep) <= 400
    assert 45 <= len(m.cities) <= 55
    sizes = Counter(c.size for c in m.cities.values())
    assert sizes["major"] == 8 and sizes["small"] > sizes["medium"] > 0
    assert sum(n.port for n in m.nodes) >= 8


def test_the_eight_majors_are_seven_land_mileposts_in_their_regions(core):
    m = core.map
    assert set(m.majors) == set(MAJORS)
    for cid, region in MAJORS.items():
        city = m.cities[cid]
        assert len(city.nodes) == 7 and city.centre is not None
        for i in city.nodes:
            assert m.nodes[i].layer == 0 and m.nodes[i].terrain in SURFACE_TERRAINS
            assert m.nodes[i].region == region


def test_majors_are_well_apart(core):
    m = core.map
    centres = [m.cities[c].centre for c in sorted(MAJORS)]
    for i, a in enumerate(centres):
        for b in centres[i + 1:]:
            assert m.hex_distance(a, b) >= 8, (m.key(a), m.key(b))


def test_small_and_medium_cities_are_single_mileposts_two_steps_apart(core):
    m = core.map
    city_cells = {(n.q, n.r): n.city for n in m.nodes if n.layer == 0 and n.city}
    for (q, r), cid in city_cells.items():
        for nb in neighbours(q, r):
            assert city_cells.get(nb) in (None, cid), f"{cid} touches {city_cells.get(nb)}"
    for city in m.cities.values():
        assert len(city.nodes) == (7 if city.size == "major" else 1)


def test_every_node_has_a_region_of_its_layer_and_a_terrain(core):
    for n in core.map.nodes:
        if n.layer == 0:
            assert n.region in REGIONS - {"deepways"}, n.key
            assert n.terrain in SURFACE_TERRAINS, n.key
        else:
            assert n.layer == 1 and n.region == "deepways" and n.terrain == "underground", n.key


def test_every_region_is_on_the_map_and_cities_are_in_their_region(core, map_data):
    m = core.map
    assert {n.region for n in m.nodes} == REGIONS
    assert {r["id"] for r in map_data["regions"]} == REGIONS | SEAS
    for city in m.cities.values():
        assert {m.nodes[i].region for i in city.nodes} == {city.data["region"]}
    per_region = Counter(city.data["region"] for city in m.cities.values())
    assert all(per_region[r] >= 4 for r in REGIONS - {"deepways"}), per_region


def test_terrain_follows_the_regions(core):
    by_region: dict[str, Counter] = {}
    for n in core.map.nodes:
        by_region.setdefault(n.region, Counter())[n.terrain] += 1
    assert set(by_region["frostmarch"]) >= {"alpine", "mountain", "forest"}
    assert by_region["greyhold"]["mountain"] > 0.3 * sum(by_region["greyhold"].values())
    assert by_region["amber-plains"].most_common(1)[0][0] == "plain"
    assert by_region["thornwood"].most_common(1)[0][0] == "forest"
    assert by_region["saltmere"].most_common(1)[0][0] == "plain"
    assert by_region["ashen-reach"]["volcano"] >= 3
    assert by_region["sunward-sands"].most_common(1)[0][0] == "desert"
    assert by_region["verdant-tangle"].most_common(1)[0][0] == "jungle"
    assert all(n.terrain not in ("alpine", "volcano") for n in core.map.nodes if n.city)


def test_ports_are_on_the_coast_including_saltharbor_and_lanterhaven(map_data, core):
    m = core.map
    sea = {(p[1], p[2]) for p in map_data["sea"]}
    ports = [n for n in m.nodes if n.port]
    assert {n.city for n in ports} >= {"saltharbor", "lanterhaven"}
    for n in ports:
        assert n.layer == 0 and any(nb in sea for nb in neighbours(n.q, n.r)), n.key
    assert any(n.region == "lantern-isles" for n in ports)


def test_every_milepost_is_reached_over_land_or_by_sea_from_a_port(map_data):
    land = surface(map_data)
    ports = {c for c, n in land.items() if n.get("port")}
    start = next(iter(sorted(ports)))
    seen = {start} | ports  # the sea joins every port (tested below)
    todo = deque(seen)
    while todo:
        q, r = todo.popleft()
        for nb in neighbours(q, r):
            if nb in land and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == set(land), f"{len(set(land) - seen)} mileposts cut off"


def test_the_continent_is_one_piece_by_land(map_data):
    land = {c for c, n in surface(map_data).items() if n["region"] != "lantern-isles"}
    start = min(land)
    seen, todo = {start}, deque([start])
    while todo:
        for nb in neighbours(*todo.popleft()):
            if nb in land and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == land


def test_the_sea_is_one_body_beside_every_port_and_never_land(map_data):
    land = surface(map_data)
    sea = {(p[1], p[2]) for p in map_data["sea"]}
    assert all(p[0] == 0 for p in map_data["sea"])
    assert not sea & set(land)
    w, h = map_data["board"]["width"], map_data["board"]["height"]
    assert sea | set(land) == {(q, r) for q in range(w) for r in range(h)}, "every cell is land or sea"
    start = min(sea)
    seen, todo = {start}, deque([start])
    while todo:
        for nb in neighbours(*todo.popleft()):
            if nb in sea and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == sea
    regions = map_data["sea_regions"]
    assert set(regions) == SEAS
    west, inland = ({(p[1], p[2]) for p in regions[k]} for k in ("western-sea", "inland-sea"))
    assert west | inland == sea and not west & inland and len(inland) >= 80


def test_rivers_and_inlets_are_land_pairs_of_hex_neighbours(map_data, core):
    m = core.map
    kinds = Counter(g["kind"] for g in map_data["crossings"])
    assert set(kinds) == {"river", "inlet"} and 8 <= kinds["river"] <= 12 and kinds["inlet"] >= 3
    names = [g["name"] for g in map_data["crossings"]]
    assert len(set(names)) == len(names)
    seen = set()
    for group in map_data["crossings"]:
        assert len(group["edges"]) >= 2, group["name"]
        for a, b in group["edges"]:
            assert a[0] == b[0] == 0
            assert hexgrid.distance("odd-r", a[1:], b[1:]) == 1
            i, j = m.find(a), m.find(b)
            assert not m.is_internal(i, j), f"{group['name']} inside a major city"
            key = m.edge_key(i, j)
            assert key not in seen, f"{key} is crossed twice"
            seen.add(key)


def test_rivers_are_continuous_runs_of_hex_sides(map_data):
    def corners(q, r):
        cx, cy = 2 * q + (r & 1), 3 * r
        return {(cx + 1, cy - 1), (cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1), (cx, cy - 2)}

    for group in map_data["crossings"]:
        sides = [frozenset(corners(*a[1:]) & corners(*b[1:])) for a, b in group["edges"]]
        assert all(len(s) == 2 for s in sides)
        # the sides form connected runs, broken only where the line passes sea or a major city
        pieces = 0
        left = set(sides)
        while left:
            pieces += 1
            todo = [left.pop()]
            while todo:
                s = todo.pop()
                for t in [t for t in left if t & s]:
                    left.remove(t)
                    todo.append(t)
        assert pieces <= 3, f"{group['name']} is broken into {pieces} pieces"


def test_a_river_costs_two_more_and_an_inlet_three(map_data, core):
    rail = core.new_state(players=[0, 1])
    for group in map_data["crossings"]:
        a, b = group["edges"][0]
        plain = core.section_cost(rail, 0, a, b)
        node = core.map.nodes[core.map.find(b)]
        base = make_world.RULES["city_cost"][core.map.cities[node.city].size] if node.city else \
            make_world.RULES["terrain_cost"][node.terrain]
        assert plain == base + (2 if group["kind"] == "river" else 3)


def test_links_ley_line_prism_bridge_and_four_gates(map_data, core):
    m = core.map
    groups = {g["name"]: g for g in map_data["links"]}
    assert Counter(g["kind"] for g in map_data["links"]) == {"magic": 1, "bridge": 1, "entrance": 4}
    ley = next(g for g in map_data["links"] if g["kind"] == "magic")
    pairs = {(m.nodes[m.find(a)].city, m.nodes[m.find(b)].city) for a, b in ley["edges"]}
    assert pairs == {("thornhollow", "emberforge")} and len(ley["edges"]) == 49 and ley["enabled"]
    bridge = next(g for g in map_data["links"] if g["kind"] == "bridge")
    pairs = {(m.nodes[m.find(a)].city, m.nodes[m.find(b)].city) for a, b in bridge["edges"]}
    # Two major cities across the Narrows: once open, the bridge joins them for the win as the Ley Line does
    # (the notes' example: a bridge event can complete a player's network and end the game).
    assert pairs == {("sandspire", "mossgate")} and len(bridge["edges"]) == 49 and bridge["enabled"] is False
    assert {m.cities[c].size for pair in pairs for c in pair} == {"major"}
    gates = [g for g in map_data["links"] if g["kind"] == "entrance"]
    assert sorted(g["name"] for g in gates) == ["East Gate", "North Gate", "South Gate", "West Gate"]
    for g in gates:
        ((a, b),) = g["edges"]
        top, low = m.nodes[m.find(a)], m.nodes[m.find(b)]
        assert top.layer == 0 and low.layer == 1 and top.city is None and g["enabled"]
        assert (top.q, top.r) == (low.q, low.r) and top.name == low.name == g["name"]
    assert set(groups) >= {"The Ley Line", "The Prism Bridge"}
    # the gates lie north, east, south and west of the realm's middle
    at = {g["name"].split()[0]: m.nodes[m.find(g["edges"][0][0])] for g in gates}
    assert at["North"].r < at["South"].r and at["West"].q < at["East"].q
    assert at["North"].r == min(n.r for n in at.values()) and at["East"].q == max(n.q for n in at.values())


def test_the_deepways_are_one_cave_system(core):
    m = core.map
    deep = {i for i, n in enumerate(m.nodes) if n.layer == 1}
    start = min(deep)
    seen, todo = {start}, [start]
    while todo:
        for nb in m.adjacency[todo.pop()]:
            if nb.link is None and nb.node in deep and nb.node not in seen:
                seen.add(nb.node)
                todo.append(nb.node)
    assert seen == deep


def test_gates_join_the_networks(core):
    """A train can go down one gate and up another: the surface and the Deepways are one graph."""
    m = core.map
    seen, todo = {0}, [0]
    while todo:
        for nb in m.adjacency[todo.pop()]:
            if (nb.link is None or nb.link.kind == "entrance") and nb.node not in seen:
                seen.add(nb.node)
                todo.append(nb.node)
    continent = {i for i, n in enumerate(m.nodes) if n.region != "lantern-isles"}
    assert continent <= seen


# -- the loads -------------------------------------------------------------------------------------

def test_the_26_loads_each_sourced_with_100_chips(loads, core):
    m = core.map
    assert {ld["id"] for ld in loads["loads"]} == LOAD_IDS and len(loads["loads"]) == 26
    assert sum(ld["chips"] for ld in loads["loads"]) == 100
    assert all(3 <= ld["chips"] <= 5 for ld in loads["loads"])
    assert len({ld["name"] for ld in loads["loads"]}) == 26
    for ld in loads["loads"]:
        assert 1 <= len(ld["sources"]) <= 4, ld["id"]
        for cid in ld["sources"]:
            assert ld["id"] in m.cities[cid].data["loads"]
    assert sum(2 <= len(ld["sources"]) <= 3 for ld in loads["loads"]) >= 18, "most loads come from 2 or 3 cities"


def test_city_loads_are_known_and_at_most_three(loads, core):
    sources = {ld["id"]: set(ld["sources"]) for ld in loads["loads"]}
    for city in core.map.cities.values():
        assert len(city.data["loads"]) <= 3
        for lid in city.data["loads"]:
            assert city.id in sources[lid]


# -- originality and reproducibility ------------------------------------------------------------------

def test_no_published_place_names():
    text = "\n".join(p.read_text(encoding="utf-8").lower()
                     for p in [DATA / "map.json", DATA / "loads.json", *sorted(_common.SOURCES.glob("*.json"))])
    for name in DENYLIST:
        assert name not in text, name


def _text(value) -> str:
    return _common.dumps(value) + "\n"


def test_make_world_reproduces_the_data():
    made, loads = make_world.make_world(_common.read_json(_common.SOURCES / "world.json"),
                                        _common.read_json(_common.SOURCES / "loads.json"))
    assert _text(made) == (DATA / "map.json").read_text(encoding="utf-8")
    assert _text(loads) == (DATA / "loads.json").read_text(encoding="utf-8")


def test_the_script_writes_what_it_returns(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(make_world, "DATA", tmp_path)
    make_world.main([])
    first = (tmp_path / "map.json").read_bytes()
    make_world.main([])  # twice: identical bytes
    assert (tmp_path / "map.json").read_bytes() == first == (DATA / "map.json").read_bytes()
    assert (tmp_path / "loads.json").read_bytes() == (DATA / "loads.json").read_bytes()
