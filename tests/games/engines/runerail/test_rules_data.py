"""Runerail's rules table and constants (games/engines/runerail/data.py) against the published numbers."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

PUBLISHED_TERRAIN = {"plain": 1, "desert": 1, "forest": 2, "mountain": 2, "jungle": 3, "alpine": 5,
                     "volcano": 5, "underground": 5}


@pytest.mark.parametrize(("terrain", "cost"), sorted(PUBLISHED_TERRAIN.items()))
def test_terrain_costs(terrain, cost):
    assert data.core().rules["terrain_cost"][terrain] == cost


@pytest.mark.parametrize(("key", "value"), [
    ("city_cost", {"small": 3, "medium": 3, "major": 5}),
    ("crossing_cost", {"river": 2, "inlet": 3}),
    ("city_caps", {"small": 2, "medium": 3}),
    ("max_own_sections", 3),
    ("major_starts_per_turn", 2),
    ("toll", 4),
    ("courtesy", True),
    ("reverse_at_ports", True),
])
def test_rules_table(key, value):
    assert data.core().rules[key] == value


def test_links_are_public_passages_that_connect():
    kinds = data.core().rules["link_kinds"]
    assert set(kinds) == {"magic", "bridge", "entrance"}
    for spec in kinds.values():
        assert spec == {"track": False, "cost": 0, "moves": 1, "connects": True}


def test_constants():
    assert (data.START_GOLD, data.BUILD_LIMIT, data.WIN_MAJORS, data.WIN_GOLD, data.GATE_COST, data.PORT_CAP) == (
        60, 20, 7, 250, 2, 2)
    assert data.upgrade_rules()["cost_per_level"] == 10
    assert len(data.core().map.majors) == 8


def test_gates_and_medium_ports_read_from_the_map():
    m = data.core().map
    assert sorted(m.key(i) for i in data.gate_nodes()) == sorted(
        f"{layer},{q},{r}" for layer in (0, 1) for q, r in ((42, 9), (24, 23), (57, 24), (34, 42)))
    assert sorted(data.medium_ports()) == ["amberquay", "brinewick", "dunehaven", "icehollow", "lanterhaven"]


@pytest.mark.parametrize(("gold", "tax"), [(0, 0), (49, 0), (50, 10), (99, 10), (100, 15), (149, 15),
                                           (150, 20), (199, 20), (200, 30), (900, 30)])
def test_war_tax_table(gold, tax):
    assert data.war_tax(gold) == tax


def test_the_deck_holds_demands_and_events():
    deck = data.deck()
    assert len(deck) == 140
    assert sum(c in data.events() for c in deck) == 20
    assert sum(c in data.demand_cards() for c in deck) == 120


def test_the_pages_content_holds_every_ship_and_every_event_area_in_keys_of_the_map():
    """content() (GET /api/kinds/runerail/content): the ships as components.json has them, and each event
    card's area as the milepost keys, milepost pairs and sea points the rules read, all on the map sent."""
    import json

    content = data.content()
    raw = json.loads((data.DATA / "components.json").read_text(encoding="utf-8"))
    assert sorted(s["id"] for s in content["ships"]) == sorted(s["id"] for s in raw["ships"])
    assert all(s == next(r for r in raw["ships"] if r["id"] == s["id"]) | s for s in content["ships"])
    nodes = {",".join(map(str, n["at"])) for n in content["map"]["nodes"]}
    sea = {",".join(map(str, at)) for at in content["map"]["sea"]}
    with_area = {card for card, spec in data.events().items() if spec["params"].get("area")}
    assert set(content["areas"]) == with_area and with_area
    m = data.core().map
    for card in with_area:
        area, sent = data.event_area(card), content["areas"][card]
        assert set(sent["nodes"]) <= nodes and set(sent["sea"]) <= sea, card
        assert all(set(pair.split("|")) <= nodes for pair in sent["pairs"]), card
        assert {m.index[k] for k in sent["nodes"]} == set(area.nodes) and set(sent["pairs"]) == set(area.pairs), card
        assert set(sent["sea"]) == set(area.sea), card
        assert sent["nodes"] or sent["pairs"] or sent["sea"], card
