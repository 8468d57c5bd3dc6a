"""The map schema: loading, validation with clear errors, the reference map, drawing positions."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import RulesError
from games.engines.rail_core import RailCore, load_map, map_from_grid_asset, normalize_rules, validate_map
from games.engines.rail_core.grid_asset import city_slug

from .helpers import REFERENCE_MAP, grid_map

MAJOR = [
    "......",
    ".11...",
    ".111a.",
    ".11...",
]


def good() -> dict:
    return grid_map(MAJOR, crossings=[{"kind": "river", "name": "Blue", "edges": [[[0, 4, 2], [0, 5, 2]]]}])


def test_a_good_map_loads_with_its_cities_and_neighbours():
    m = load_map(good())
    assert len(m.nodes) == 24
    assert set(m.cities) == {"M1", "a"}
    major = m.cities["M1"]
    assert len(major.nodes) == 7 and m.key(major.centre) == "0,2,2"
    assert m.find([0, 2, 2]) == m.find("0,2,2") == m.find((0, 2, 2)) == major.centre
    assert m.is_internal(m.find("0,1,1"), m.find("0,2,1"))
    assert not m.is_internal(m.find("0,3,2"), m.find("0,4,2"))
    assert m.crossings["0,4,2|0,5,2"] == (("river", "Blue"),)
    assert sorted(m.key(nb.node) for nb in m.adjacency[m.find("0,0,0")]) == ["0,0,1", "0,1,0"]
    assert m.hex_distance(m.find("0,0,0"), m.find("0,5,3")) == 7


def test_not_a_milepost_is_a_rules_error():
    m = load_map(good())
    for ref in ("0,9,9", [0, 9, 9], "x", [0, 1], None, [0, True, 1]):
        with pytest.raises(RulesError) as err:
            m.find(ref)
        assert err.value.code == "not-a-milepost"


def _set(path, value):
    def change(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return change


BAD = [
    ("not an object", lambda d: None, "must be a JSON object"),
    ("format", _set(["format"], "other"), "'format' must be"),
    ("layout", _set(["layout"], "pointy"), "'layout' must be one of odd-q-up, odd-r"),
    ("no layers", _set(["layers"], []), "non-empty list 'layers'"),
    ("node layer", _set(["nodes", 0, "at"], [5, 0, 0]), "layer 5 is not in 'layers'"),
    ("node address", _set(["nodes", 0, "at"], [0, 0]), "nodes[0] (at [0, 0]) needs 'at': [layer, q, r]"),
    ("duplicate", _set(["nodes", 1, "at"], [0, 0, 0]), "milepost [0, 0, 0] is listed twice"),
    ("terrain", _set(["nodes", 0, "terrain"], ""), "needs a 'terrain' name"),
    ("unknown city", _set(["nodes", 0, "city"], "zz"), "unknown city 'zz'"),
    ("city size", _set(["cities", 0, "size"], "huge"), "'size' must be one of small, medium, major"),
    ("port", _set(["nodes", 0, "port"], "yes"), "'port' must be true or false"),
    ("small city of two mileposts", _set(["nodes", 0, "city"], "a"), "City 'a' is small: it must be exactly one milepost, not 2"),
    ("major city of six", _set(["nodes", 7, "city"], None), "must have 7 mileposts"),
    ("major city not a hexagon", lambda d: (d["nodes"][7].pop("city"), d["nodes"][0].update(city="M1")),
     "one centre and its six neighbours"),
    ("crossing not adjacent", _set(["crossings", 0, "edges"], [[[0, 0, 0], [0, 5, 3]]]), "are not hex neighbours"),
    ("crossing off the map", _set(["crossings", 0, "edges"], [[[0, 0, 0], [0, 0, 9]]]), "[0, 0, 9] is not a milepost"),
    ("crossing kind", _set(["crossings", 0, "kind"], ""), "needs a 'kind'"),
    ("crossing pair twice", _set(["crossings", 0, "edges"], [[[0, 4, 2], [0, 5, 2]], [[0, 5, 2], [0, 4, 2]]]),
     "is listed twice"),
    ("link between neighbours", lambda d: d["links"].append({"kind": "magic", "edges": [[[0, 0, 0], [0, 1, 0]]]}),
     "already hex neighbours"),
    ("link to itself", lambda d: d["links"].append({"kind": "magic", "edges": [[[0, 0, 0], [0, 0, 0]]]}),
     "joins [0, 0, 0] to itself"),
    ("link enabled", lambda d: d["links"].append({"kind": "magic", "edges": [[[0, 0, 0], [0, 5, 3]]], "enabled": 1}),
     "'enabled' must be true or false"),
    ("city without milepost", lambda d: d["cities"].append({"id": "ghost", "size": "small"}), "'ghost' has no milepost"),
]


@pytest.mark.parametrize("name,change,message", BAD, ids=[b[0] for b in BAD])
def test_bad_maps_are_refused_with_a_clear_message(name, change, message):
    data = good()
    result = change(data)
    if name == "not an object":
        data = result
    with pytest.raises(RulesError) as err:
        validate_map(data)
    assert err.value.code == "invalid-map"
    assert message in err.value.message


def test_validation_does_not_touch_the_input_and_keeps_extra_keys():
    data = good()
    data["cities"][0]["goods"] = ["tea"]
    before = copy.deepcopy(data)
    out = validate_map(data)
    assert data == before
    assert out["cities"][0]["goods"] == ["tea"]
    assert out["links"] == [] and out["crossings"][0]["name"] == "Blue"


def test_map_and_rules_must_agree():
    data = good()
    data["nodes"][0]["terrain"] = "lava"
    with pytest.raises(RulesError, match="terrain 'lava' has no cost"):
        RailCore(load_map(data))
    data = good()
    data["crossings"][0]["kind"] = "canyon"
    with pytest.raises(RulesError, match="kind 'canyon' has no cost"):
        RailCore(load_map(data))
    data = good()
    data["links"].append({"kind": "tunnel", "edges": [[[0, 0, 0], [0, 5, 3]]]})
    with pytest.raises(RulesError, match="kind 'tunnel' is not in the rules' link_kinds"):
        RailCore(load_map(data))


@pytest.mark.parametrize("rules,message", [
    ({"toll": -1}, "'toll' must be a whole number"),
    ({"terrain_cost": {"clear": 1.5}}, "terrain_cost['clear'] must be a whole number"),
    ({"city_cost": {"small": 3}}, "city_cost needs a cost for 'medium'"),
    ({"city_caps": {"major": 4}}, "major cities are never capped"),
    ({"link_kinds": {"magic": {"speed": 2}}}, "may only set track, cost, moves, connects"),
    ({"link_kinds": {"magic": {"track": "no"}}}, "track must be true or false"),
    ({"tolls": 4}, "unknown key 'tolls'"),
    ({"courtesy": 1}, "'courtesy' must be true or false"),
])
def test_bad_rules_are_refused(rules, message):
    with pytest.raises(RulesError) as err:
        normalize_rules(rules)
    assert err.value.code == "invalid-rules"
    assert message in err.value.message


def test_positions_for_drawing_start_at_the_margin():
    m = load_map(good())
    drawn = m.positions(size=10)
    xs = [p[0] for p in drawn["points"].values()]
    ys = [p[1] for p in drawn["points"].values()]
    assert min(xs) == 10 and min(ys) == 10
    assert max(xs) <= drawn["width"] - 10 + 1e-6 and max(ys) <= drawn["height"] - 10 + 1e-6
    assert len(drawn["points"]) == 24


@pytest.fixture(scope="module")
def reference_asset():
    if not REFERENCE_MAP.exists():
        pytest.skip(f"the reference map is not at {REFERENCE_MAP}")
    return json.loads(REFERENCE_MAP.read_text(encoding="utf-8"))


def test_the_reference_map_loads_with_its_published_counts(reference_asset):
    m = load_map(map_from_grid_asset(reference_asset, name="Pacific Northwest"))
    assert m.layout == "odd-q-up"
    assert len(m.nodes) == 1720
    terrains = [n.terrain for n in m.nodes if n.city is None]
    assert terrains.count("clear") == 851 and terrains.count("mountain") == 779
    sizes = [c.size for c in m.cities.values()]
    assert len(sizes) == 48 and sizes.count("major") == 7 and sizes.count("medium") == 11 and sizes.count("small") == 30
    assert sorted(m.cities[c].name for c in m.majors) == [
        "Casper, WY", "Denver, CO", "Missoula, MT", "Portland, OR", "Redding, CA", "Salt Lake City, UT", "Seattle, WA"]
    assert all(len(m.cities[c].nodes) == 7 for c in m.majors)
    assert m.cities["seattle-wa"].data["goods"] == ["Seafood"]
    # hex neighbours are the reference grid's own: x*64+y cells, odd columns shifted north
    seattle = m.cities["seattle-wa"]
    assert m.key(seattle.centre) == "0,10,42"
    assert {m.key(nb.node) for nb in m.adjacency[seattle.centre]} == {
        "0,10,43", "0,11,42", "0,11,41", "0,10,41", "0,9,41", "0,9,42"}
    core = RailCore(m)
    assert len(core.places) == 48


def test_grid_asset_problems_are_clear(reference_asset):
    asset = copy.deepcopy(reference_asset)
    asset["nodes"][0]["rivers"] = "010000000000"
    with pytest.raises(RulesError, match="river flags"):
        map_from_grid_asset(asset, name="x")
    with pytest.raises(RulesError, match="needs 'node_types', 'nodes' and 'cities'"):
        map_from_grid_asset({}, name="x")
    assert city_slug("Salt Lake City, UT") == "salt-lake-city-ut"
