"""The Resourceful Rails content: map (with rivers), goods and demand deck, as shipped in
games/engines/resourceful_rails/data/, and the scripts that make them."""

from __future__ import annotations

import heapq
import json
from collections import Counter
from pathlib import Path

import pytest

from games.engines.rail_core import RailCore, hexgrid, load_map
from games.engines.resourceful_rails import data
from games.engines.resourceful_rails.scripts import _common, make_demands, make_goods, make_map

DATA = Path(make_map.__file__).resolve().parents[1] / "data"
REFERENCE = _common.REFERENCE_MAP


def read(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def map_data():
    return read("map.json")


@pytest.fixture(scope="module")
def core(map_data):
    return RailCore(load_map(map_data), rules=make_map.RULES)


@pytest.fixture(scope="module")
def goods():
    return read("goods.json")


@pytest.fixture(scope="module")
def deck():
    return read("demands.json")


# -- the map ---------------------------------------------------------------------------------------

def test_map_loads_in_the_core_and_has_the_reference_board(core):
    m = core.map
    assert m.layout == "odd-q-up"
    assert len(m.nodes) == 1720
    assert len(m.cities) == 48
    assert sorted(m.majors) == ["casper-wy", "denver-co", "missoula-mt", "portland-or", "redding-ca",
                                "salt-lake-city-ut", "seattle-wa"]
    assert Counter(c.size for c in m.cities.values()) == {"small": 30, "medium": 11, "major": 7}
    assert Counter(n.terrain for n in m.nodes) == {"clear": 851 + 90, "mountain": 779}


def test_every_river_edge_joins_two_adjacent_land_mileposts(map_data, core):
    m = core.map
    assert map_data["crossings"], "the map has rivers"
    for river in map_data["crossings"]:
        assert river["kind"] == "river" and river["name"]
        keys = set()
        for a, b in river["edges"]:
            i, j = m.find(a), m.find(b)  # both are mileposts of the map
            assert m.nodes[i].terrain != "water" and m.nodes[j].terrain != "water"
            assert a[0] == b[0] == 0
            assert hexgrid.distance("odd-q-up", a[1:], b[1:]) == 1
            assert m.between(i, j) is not None
            assert not m.is_internal(i, j), "no river inside a major city, where nobody builds"
            keys.add(m.edge_key(i, j))
        assert len(keys) == len(river["edges"]), f"{river['name']} lists a pair twice"


# Cities each river passes in reality: the river must run beside them on the board
# (a crossing with an end within one milepost of the city).
RIVER_TOWNS = {
    "Columbia": ["colville-wa", "kennewick-wa", "portland-or"],
    "Snake": ["idaho-falls-id", "twin-falls-id", "payette-id"],
    "Willamette": ["eugene-or", "portland-or"],
    "Deschutes": ["bend-or"],
    "Rogue": ["medford-or"],
    "Sacramento": ["redding-ca"],
    "Humboldt": ["elko-nv", "winnemucca-nv"],
    "Spokane": ["spokane-wa"],
    "Salmon": ["salmon-id"],
    "Clark Fork": ["missoula-mt"],
    "Missouri": ["great-falls-mt", "helena-mt"],
    "Yellowstone": ["billings-mt", "miles-city-mt", "glendive-mt"],
    "North Platte": ["casper-wy"],
    "Green": ["rock-springs-wy"],
    "Colorado": ["grand-junction-co"],
    "South Platte": ["denver-co"],
}


# ...and stays away from cities it does not reach (Reno is on the Truckee, not the Humboldt).
RIVER_NOT_TOWNS = {
    "Humboldt": ["reno-nv"],
    "Rogue": ["redding-ca", "eugene-or"],
    "Sacramento": ["medford-or", "reno-nv"],
    "Deschutes": ["portland-or", "eugene-or"],
    "Colorado": ["denver-co"],
    "Spokane": ["kalispell-mt"],
}


@pytest.mark.parametrize("river", sorted(RIVER_TOWNS))
def test_rivers_follow_their_real_courses_past_their_cities(map_data, core, river):
    m = core.map
    (group,) = [g for g in map_data["crossings"] if g["name"] == river]
    ends = {m.find(x) for pair in group["edges"] for x in pair}
    for cid in RIVER_TOWNS[river]:
        near = min(m.hex_distance(u, e) for u in m.cities[cid].nodes for e in ends)
        assert near <= 1, f"the {river} runs {near} mileposts from {cid}"
    for cid in RIVER_NOT_TOWNS.get(river, []):
        near = min(m.hex_distance(u, e) for u in m.cities[cid].nodes for e in ends)
        assert near >= 3, f"the {river} passes {cid}"


def test_crossing_a_river_costs_two_more(map_data, core):
    m = core.map
    rail = core.new_state(players=[0])
    checked = 0
    for g in map_data["crossings"]:
        for a, b in g["edges"]:
            i, j = m.find(a), m.find(b)
            node = m.nodes[j]
            base = {"small": 3, "medium": 3, "major": 5}[m.cities[node.city].size] if node.city else \
                {"clear": 1, "mountain": 2}[node.terrain]
            crossings = len(m.crossings[m.edge_key(i, j)])
            assert core.section_cost(rail, 0, a, b) == base + 2 * crossings
            checked += 1
    assert checked == sum(len(g["edges"]) for g in map_data["crossings"]) > 300


# -- goods -------------------------------------------------------------------------------------------

def test_thirty_goods_each_sourced_by_a_city_of_the_map(goods, core):
    m = core.map
    ids = [g["id"] for g in goods["goods"]]
    assert len(ids) == len(set(ids)) == 30
    names = {g["name"] for g in goods["goods"]}
    assert {"Cement", "Propane", "Silver", "Seafood", "Wheat"} <= names
    for g in goods["goods"]:
        assert g["sources"], f"{g['id']} has no source"
        for cid in g["sources"]:
            assert g["id"] in m.cities[cid].data["goods"]
    # the map's city goods are exactly the goods file's sources, at most 3 a city
    for cid, city in m.cities.items():
        listed = city.data["goods"]
        assert len(listed) <= 3 and len(set(listed)) == len(listed)
        assert sorted(listed) == sorted(g["id"] for g in goods["goods"] if cid in g["sources"])


# -- the demand deck -----------------------------------------------------------------------------

def test_deck_has_at_least_120_cards_of_three_demands(deck, goods, core):
    assert len(deck["cards"]) >= 120
    good_ids = {g["id"] for g in goods["goods"]}
    assert len({c["id"] for c in deck["cards"]}) == len(deck["cards"])
    for card in deck["cards"]:
        demands = card["demands"]
        assert len(demands) == 3
        assert len({d["good"] for d in demands}) == 3 and len({d["city"] for d in demands}) == 3
        for d in demands:
            assert d["good"] in good_ids and d["city"] in core.map.cities
            assert isinstance(d["payout"], int) and d["payout"] > 0
    dealt = Counter(d["good"] for c in deck["cards"] for d in c["demands"])
    assert set(dealt) == good_ids, "every good is in demand somewhere"
    assert max(dealt.values()) - min(dealt.values()) <= 1


def test_no_demand_to_a_city_that_sources_the_good(deck, core):
    for card in deck["cards"]:
        for d in card["demands"]:
            assert d["good"] not in core.map.cities[d["city"]].data["goods"], (card["id"], d)


def _distances_from(core, sources):
    """Least build cost from the source cities to every milepost: the core's section prices, free inside a major."""
    m = core.map
    rail = core.new_state(players=[0])
    best = {u: 0 for cid in sources for u in m.cities[cid].nodes}
    heap = [(0, u) for u in sorted(best)]
    while heap:
        d, u = heapq.heappop(heap)
        if d != best[u]:
            continue
        for nb in m.adjacency[u]:
            step = 0 if m.is_internal(u, nb.node) else core.section_cost(rail, 0, m.key(u), m.key(nb.node))
            if step is not None and d + step < best.get(nb.node, 10**9):
                best[nb.node] = d + step
                heapq.heappush(heap, (d + step, nb.node))
    return best


def test_demand_distances_are_the_least_build_cost_from_the_nearest_source(deck, goods, core):
    m = core.map
    sources = {g["id"]: g["sources"] for g in goods["goods"]}
    cache = {}
    for card in deck["cards"]:
        for d in card["demands"]:
            if d["good"] not in cache:
                cache[d["good"]] = _distances_from(core, sources[d["good"]])
            dist = min(cache[d["good"]][u] for u in m.cities[d["city"]].nodes)
            assert d["distance"] == dist >= deck["payout"]["min_distance"]


def test_payout_never_falls_as_the_distance_grows(deck):
    by_good = {}
    for card in deck["cards"]:
        for d in card["demands"]:
            by_good.setdefault(d["good"], []).append((d["distance"], d["payout"]))
    for good, pairs in by_good.items():
        pairs.sort()
        for (d1, p1), (d2, p2) in zip(pairs, pairs[1:], strict=False):
            assert p1 == p2 if d1 == d2 else p1 <= p2, (good, (d1, p1), (d2, p2))
        assert pairs[-1][1] > pairs[0][1], f"{good}: the farthest demand pays more than the nearest"
    pays = [p for pairs in by_good.values() for _, p in pairs]
    assert min(pays) >= 10 and max(pays) <= 60


def test_payout_formula():
    assert make_demands.payout(0) == make_demands.BASE
    assert [make_demands.payout(d) for d in (10, 11, 15)] == [15, 16, 19]  # 8 + 0.7 d, half up: 18.5 -> 19
    assert all(make_demands.payout(d) <= make_demands.payout(d + 1) for d in range(200))


# -- the scripts reproduce the shipped files ------------------------------------------------------------

needs_reference = pytest.mark.skipif(not REFERENCE.exists(), reason=f"reference map not at {REFERENCE}")


def _text(value) -> str:
    return _common.dumps(value) + "\n"


@needs_reference
def test_make_goods_reproduces_goods_json():
    made = make_goods.make_goods(_common.read_json(REFERENCE), _common.read_json(_common.SOURCES / "goods.json"))
    assert _text(made) == (DATA / "goods.json").read_text(encoding="utf-8")


@needs_reference
def test_make_map_reproduces_map_json():
    made = make_map.make_map(_common.read_json(REFERENCE), read("goods.json"),
                             _common.read_json(_common.SOURCES / "rivers.json"))
    assert _text(made) == (DATA / "map.json").read_text(encoding="utf-8")


def test_make_demands_reproduces_demands_json():
    made = make_demands.make_demands(read("map.json"), read("goods.json"))
    assert _text(made) == (DATA / "demands.json").read_text(encoding="utf-8")


def test_scripts_write_what_they_return(tmp_path, monkeypatch):
    monkeypatch.setattr(make_demands, "DATA", tmp_path)
    (tmp_path / "map.json").write_text((DATA / "map.json").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "goods.json").write_text((DATA / "goods.json").read_text(encoding="utf-8"), encoding="utf-8")
    make_demands.main([])
    make_demands.main([])  # twice: identical bytes
    assert (tmp_path / "demands.json").read_bytes() == (DATA / "demands.json").read_bytes()


# -- the second board, Juniper Basin (scripts/make_juniper_basin.py) ------------------------------------------


def test_juniper_basin_files_are_what_its_script_writes():
    from games.engines.rail_core.authoring import dumps
    from games.engines.resourceful_rails.scripts import make_demands as md
    from games.engines.resourceful_rails.scripts import make_juniper_basin as jb

    map_data = jb.make_map()
    goods = jb.make_goods(map_data, json.loads((data.DATA / "goods.json").read_text(encoding="utf-8")))
    demands = md.make_demands(map_data, goods)
    demands["about"] = demands["about"].replace("data/map.json and data/goods.json",
                                                f"data/maps/{jb.MAP_ID}/map.json and goods.json")
    for name, value in (("map.json", map_data), ("goods.json", goods), ("demands.json", demands)):
        assert (jb.OUT / name).read_text(encoding="utf-8") == dumps(value) + "\n", name


# (board) -> the rules the engine needs of any board: 7 majors of 7 mileposts, every city reachable from every
# major city by building, 0-3 goods a city, each good sourced somewhere, every demand to a city of the board
@pytest.mark.parametrize("board", sorted(data.MAPS))
def test_every_board_is_playable(board):
    core = data.core(board)
    m = core.map
    majors = [c for c in m.cities.values() if c.size == "major"]
    assert len(majors) == 7 and all(len(c.nodes) == 7 for c in majors)
    assert all(len(goods) <= 3 for goods in data.city_goods(board).values())
    assert len(data.goods(board)) == 30 and all(g["sources"] for g in data.goods(board).values())
    assert all(set(g["sources"]) <= set(m.cities) for g in data.goods(board).values())
    cards = data.cards(board)
    assert len(cards) >= 120
    assert all(d["city"] in m.cities and d["good"] in data.goods(board) for c in cards.values() for d in c["demands"])
    for major in majors:  # an empty board: every city can be reached by building from this major city
        costs = core.build_costs(core.new_state([0]), 0, start=m.key(major.nodes[0]))
        reached = {m.nodes[m.find(k)].city for k in costs}
        assert reached >= set(m.cities), (major.id, sorted(set(m.cities) - reached))
