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
