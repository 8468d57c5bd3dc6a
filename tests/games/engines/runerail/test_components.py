"""Runerail's cards as shipped in games/engines/runerail/data/ (components, events, the demand
deck) and the scripts that make them: properties, not numbers."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from games.engines.runerail.scripts import make_components

DATA = make_components.DATA

# The ids and names of the README's world skeleton.
REGIONS = {"frostmarch", "greyhold", "amber-plains", "thornwood", "saltmere", "ashen-reach", "sunward-sands",
           "verdant-tangle", "lantern-isles", "deepways", "western-sea", "inland-sea"}
MAJORS = {"highcairn", "stonecrown", "goldmeadow", "thornhollow", "saltharbor", "emberforge", "sandspire", "mossgate"}
LOADS = {"ale", "amber", "beeswax", "bog-iron", "copper", "cave-truffles", "emberstone", "glowmoss", "gemstones",
         "hops", "ironwood", "lamp-oil", "marble", "moonsilver", "pearls", "runestones", "salt", "saltfish", "spices",
         "starfruit", "timber", "wool", "wyvern-eggs", "frost-lilies", "sandglass", "silk"}

# Every effect kind the server notes list, in the notes' order, by this game's kind id.
NOTES_EFFECT_KINDS = [
    "no-build",           # Can't build track (in an area, certain players)
    "track-destroyed",    # Track destroyed
    "halt",               # Trains halted (in an area)
    "half-rate",          # Trains move half rate (in an area)
    "lose-turn",          # Players lose a turn
    "lose-load",          # Players lose a load
    "no-loading",         # No pickups or deliveries at cities
    "open-bridge",        # Rainbow bridge enabled
    "suspend-magic",      # Wizard strike (magical connections are disabled)
    "no-upgrade",         # Trains can't be upgraded
    "ships-to-port",      # All ships go to the nearest port
    "no-boarding",        # No boarding or disembarking from ships
    "no-foreman-change",  # No exchanging foremen
    "war-tax",            # War tax
]

# The published game's own names (locos, event titles, places): none may appear in our data.
DENYLIST = ["Teapot", "Sardar", "Salamander", "Fire Drake", "White Dragon", "Black Dragon", "Red Dragon",
            "Iron Dragon", "Rainbow Bridge", "Wizards' Strike", "Wizards Strike", "Vampire", "Sand Storm",
            "Sandstorm", "Siren Song", "Sea Serpent", "Evil Prince", "Winged Demons", "Runaway Dragon",
            "Free Dragons", "Storms at Sea", "Elven Activists", "Rogue Magic", "Volcanoes Erupt",
            "Wikkedde", "Ozu-Zarkh", "Bluefeld", "Octomare", "Uloggh", "Nordkassel", "Wee Folk", "Catman"]
# Published titles whose words our texts may use, but no title or name may be.
DENY_TITLES = ["Floods", "War Tax", "Flood"]


def read(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def comps():
    return read("components.json")


@pytest.fixture(scope="module")
def events():
    return read("events.json")


@pytest.fixture(scope="module")
def world():
    """The world map, once its author has written it."""
    path = DATA / "map.json"
    if not path.exists():
        pytest.skip("data/map.json is not there yet")
    return json.loads(path.read_text(encoding="utf-8"))


# -- foremen -------------------------------------------------------------------------------------

def test_thirteen_foremen_with_the_published_counts_per_kind(comps):
    cards = comps["foremen"]
    assert len(cards) == 13
    assert Counter(c["kind"] for c in cards) == {"catfolk": 2, "dwarf": 3, "elf": 3, "human": 2, "orc": 1,
                                                  "troll": 1, "halfling": 1}
    assert len({c["id"] for c in cards}) == 13
    assert len({c["name"] for c in cards}) == 13
    for c in cards:
        assert c["name"] and c["text"] and c["kind_name"] and c["rule"]


def test_foreman_abilities_are_machine_readable(comps):
    by_kind = {c["kind"]: c["ability"] for c in comps["foremen"]}
    assert by_kind["catfolk"] == {"terrain_cost": {"jungle": 1}}
    assert by_kind["dwarf"] == {"terrain_cost": {"mountain": 1}}
    assert by_kind["elf"] == {"terrain_cost": {"forest": 1}}
    assert by_kind["human"] == {"crossing_cost": {"river": 0, "inlet": 1}}
    assert by_kind["orc"]["bribes"] == "receives" and by_kind["orc"]["move_bribe"] is False
    troll = by_kind["troll"]
    assert troll["build_only_layer"] == 1 and troll["layer_cost"] == 2 and troll["build_bribe"] is False
    assert by_kind["halfling"] == {"ship_draws": 3, "boarding_fee": 0}
    for c in comps["foremen"]:  # every kind of one card has one ability
        assert c["ability"] == by_kind[c["kind"]]
    assert comps["hiring"]["draw"] == 1 and comps["hiring"]["choose"] == 5


# -- locos, ships, war tax -----------------------------------------------------------------------

def test_locos_levels_speeds_capacities_and_counts(comps):
    table = {(x["level"], x["loads"], x["speed"]): x["count"] for x in comps["locos"]}
    assert table == {(1, 2, 10): 6, (2, 3, 10): 3, (2, 2, 12): 3, (3, 3, 12): 3, (3, 2, 14): 3,
                     (4, 3, 14): 3, (4, 2, 16): 3, (5, 3, 16): 6}
    assert len({x["id"] for x in comps["locos"]}) == len({x["name"] for x in comps["locos"]}) == 8
    start = next(x for x in comps["locos"] if x["id"] == comps["start_loco"])
    assert start["level"] == 1
    assert comps["upgrade"]["cost_per_level"] == 10


def test_thirteen_ships_within_the_published_ranges(comps):
    ships = comps["ships"]
    assert len(ships) == 13 and len({s["id"] for s in ships}) == 13 and len({s["name"] for s in ships}) == 13
    assert all(8 <= s["speed"] <= 13 and 1 <= s["boarding_cost"] <= 5 for s in ships)
    assert {s["speed"] for s in ships} == set(range(8, 14))
    assert {s["boarding_cost"] for s in ships} == set(range(1, 6))
    # monotone: a faster ship never costs less to board
    by_speed = sorted(ships, key=lambda s: (s["speed"], s["boarding_cost"]))
    assert [s["boarding_cost"] for s in by_speed] == sorted(s["boarding_cost"] for s in ships)


def war_tax(table, money):
    return next(r["pay"] for r in table if r["from"] <= money and (r["to"] is None or money <= r["to"]))


@pytest.mark.parametrize(("money", "pay"), [(0, 0), (49, 0), (50, 10), (99, 10), (100, 15), (149, 15),
                                            (150, 20), (199, 20), (200, 30), (1000, 30)])
def test_war_tax_table(comps, money, pay):
    assert war_tax(comps["war_tax"], money) == pay


# -- events --------------------------------------------------------------------------------------

def test_events_cover_every_effect_kind_of_the_notes(events):
    assert list(events["kinds"]) == NOTES_EFFECT_KINDS  # a closed list: exactly these
    cards = events["events"]
    assert 18 <= len(cards) <= 24
    assert {e["kind"] for e in cards} == set(NOTES_EFFECT_KINDS)
    assert len({e["id"] for e in cards}) == len(cards)
    assert len({e["title"] for e in cards}) == len(cards)
    for e in cards:
        assert e["duration"] in events["durations"]
        assert e["title"] and e["text"].endswith(".") and e["text"].count(". ") == 0, e["id"]


def areas_of(area):
    yield area
    for sub in area.get("any", []):
        yield from areas_of(sub)


def test_event_parameters_are_well_formed(events):
    for e in events["events"]:
        p = e["params"]
        if e["kind"] in {"no-build", "track-destroyed", "halt", "half-rate", "lose-load", "no-loading"}:
            assert "area" in p, e["id"]
        if e["kind"] in {"no-build", "lose-turn"}:
            assert p["players"] in events["players"], e["id"]
        if e["kind"] == "track-destroyed":
            assert p["rebuild_turns"] == 3 and e["duration"] == "once"
        if e["kind"] == "lose-load":
            assert p["chooser"] == "owner" and p["loads"] >= 1 and e["duration"] == "once"
        if e["kind"] == "open-bridge":
            assert p == {"link_kind": "bridge"} and e["duration"] == "game"
        if e["kind"] == "suspend-magic":
            assert p == {"link_kind": "magic"} and e["duration"] == "next-turn-end"
        if e["kind"] in {"war-tax", "ships-to-port"}:
            assert e["duration"] == "once"
        for area in areas_of(p.get("area", {})):
            kinds = set(area) - {"of"}
            assert len(kinds) <= 1 and kinds <= set(events["areas"]), (e["id"], area)


def test_event_areas_name_the_readme_regions_and_cities(events):
    for e in events["events"]:
        for area in areas_of(e["params"].get("area", {})):
            if "region" in area:
                assert area["region"] in REGIONS, e["id"]
            if "of" in area:
                assert area["of"] in MAJORS and 1 <= area["within"] <= 6, e["id"]
            if "cities" in area:
                assert set(area["cities"]) <= MAJORS, e["id"]


def test_event_areas_name_what_the_map_has(events, world):
    regions = {n.get("region") for n in world["nodes"]} | {r for r in REGIONS if r.endswith("-sea")}
    cities = {c["id"] for c in world["cities"]}
    rivers = {c["name"] for c in world.get("crossings", []) if c["kind"] == "river"}
    terrains = {n["terrain"] for n in world["nodes"]}
    for e in events["events"]:
        for area in areas_of(e["params"].get("area", {})):
            assert area.get("region", "frostmarch") in regions, e["id"]
            assert area.get("of", "highcairn") in cities, e["id"]
            assert set(area.get("cities", [])) <= cities, e["id"]
            if "river" in area:
                assert area["river"] in rivers, e["id"]
            if "crossing" in area:
                assert any(c["kind"] == area["crossing"] for c in world.get("crossings", [])), e["id"]
            if "terrain" in area:
                assert area["terrain"] in terrains, e["id"]
    kinds = {link["kind"] for link in world.get("links", [])}
    for e in events["events"]:
        if "link_kind" in e["params"]:
            assert e["params"]["link_kind"] in kinds


# -- originality ---------------------------------------------------------------------------------

def our_files():
    return sorted(p for p in DATA.glob("*.json") if p.name in {"components.json", "events.json", "demands.json"})


@pytest.mark.parametrize("path", our_files(), ids=lambda p: p.name)
def test_no_published_name_appears(path):
    text = path.read_text(encoding="utf-8").lower()
    for name in DENYLIST:
        assert name.lower() not in text, f"{path.name} uses the published {name!r}"
    titles = []
    data = json.loads(text)
    for key in ("foremen", "locos", "ships", "events"):
        titles += [x.get("title") or x.get("name") for x in data.get(key, [])]
    for title in filter(None, titles):
        for name in DENY_TITLES:
            assert not re.search(rf"\b{name.lower()}\b", title), f"{path.name}: {title!r}"


# -- the scripts are deterministic ---------------------------------------------------------------

def test_make_components_rerun_writes_identical_bytes():
    comps = make_components.dumps(make_components.make_components()) + "\n"
    events = make_components.dumps(make_components.make_events()) + "\n"
    assert comps == (DATA / "components.json").read_text(encoding="utf-8")
    assert events == (DATA / "events.json").read_text(encoding="utf-8")
