"""Event areas: what each form of ``params.area`` covers on the shipped world, counted on the raw map."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

from .helpers import MAP

RAW = data.map_data()


def _raw_nodes(pred):
    return {i for i, n in enumerate(RAW["nodes"]) if pred(n)}


@pytest.mark.parametrize(("card", "nodes", "pairs", "sea"), [
    ("guildhall-quarrel", 200, 0, 0),   # region greyhold
    ("surveyors-oath", 61, 0, 0),       # within 4 of goldmeadow: a full hex of radius 4 (1+6+12+18+24)
    ("thaw-torrents", 0, 42, 0),        # three rivers' crossings
    ("scouring-gale", 327, 0, 0),       # terrain desert
    ("cinder-waking", 6, 0, 0),         # terrain volcano
    ("deepways-collapse", 303, 0, 0),   # region deepways (layer 1)
    ("whiteout", 324, 0, 0),
    ("monsoon-mire", 254, 0, 0),
    ("hatchling-flight", 61, 0, 0),
    ("ashland-raiders", 259, 0, 0),
    ("wreckers-lights", 0, 0, 1199),    # a sea region: sea points only
    ("mossgate-quarantine", 19, 0, 0),  # within 2: 1+6+12
    ("dockers-walkout", 126, 0, 0),
    ("crown-levy", 0, 0, 0),            # no area
])
def test_event_area_sizes(card, nodes, pairs, sea):
    area = data.event_area(card)
    assert (len(area.nodes), len(area.pairs), len(area.sea)) == (nodes, pairs, sea)
    assert data.event_area(card) is area  # cached per card


def test_region_and_terrain_areas_match_the_raw_map():
    assert data.area_of({"region": "greyhold"}).nodes == _raw_nodes(lambda n: n.get("region") == "greyhold")
    assert data.area_of({"terrain": "desert"}).nodes == _raw_nodes(lambda n: n["terrain"] == "desert")
    assert data.area_of({"region": "inland-sea"}).sea == {",".join(map(str, p))
                                                         for p in RAW["sea_regions"]["inland-sea"]}


@pytest.mark.parametrize(("city", "n"), [("goldmeadow", 4), ("mossgate", 2), ("highcairn", 4), ("highcairn", 0)])
def test_within_counts_hex_steps_from_a_major_city_centre(city, n):
    area = data.area_of({"within": n, "of": city})
    centre = MAP.cities[city].centre
    assert centre in area.nodes
    for i in area.nodes:
        assert MAP.hex_distance(centre, i) <= n
        assert MAP.nodes[i].layer == MAP.nodes[centre].layer
    outside = [i for i in range(len(MAP.nodes)) if i not in area.nodes and MAP.hex_distance(centre, i) is not None]
    assert all(MAP.hex_distance(centre, i) > n for i in outside)
    if n == 0:
        assert area.nodes == {centre}


def test_within_a_small_city_counts_from_its_milepost():
    city = next(c for c in MAP.cities.values() if c.size == "small")
    [node] = city.nodes
    area = data.area_of({"within": 1, "of": city.id})
    assert node in area.nodes and all(MAP.hex_distance(node, i) <= 1 for i in area.nodes)


def test_river_area_is_its_crossing_pairs_and_their_ends():
    area = data.area_of({"river": "Briarbeck"})
    raw = [g for g in RAW["crossings"] if g["kind"] == "river" and g["name"] == "Briarbeck"]
    keys = {MAP.edge_key(MAP.find(a), MAP.find(b)) for g in raw for a, b in g["edges"]}
    assert area.pairs == keys and not area.nodes
    some = next(iter(keys))
    a, b = MAP.edge_nodes[some]
    assert area.touches(some) and area.has(a) and area.has(b)
    assert len(data.area_of({"crossing": "river"}).pairs) >= len(keys)


def test_cities_any_and_everywhere():
    two = data.area_of({"cities": ["goldmeadow", "mossgate"]})
    assert two.nodes == set(MAP.cities["goldmeadow"].nodes) | set(MAP.cities["mossgate"].nodes)
    assert len(two.nodes) == 14  # two majors of 7 mileposts
    union = data.area_of({"any": [{"terrain": "volcano"}, {"region": "greyhold"}]})
    assert union.nodes == data.area_of({"terrain": "volcano"}).nodes | data.area_of({"region": "greyhold"}).nodes
    everywhere = data.area_of({"everywhere": True})
    assert len(everywhere.nodes) == len(RAW["nodes"]) and len(everywhere.sea) == len(RAW["sea"])
    with pytest.raises(ValueError):
        data.area_of({"nowhere": 1})
