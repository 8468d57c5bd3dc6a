"""Runerail's cards as shipped in games/engines/runerail/data/ (components, events, the demand
deck) and the scripts that make them: properties, not numbers."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from games.engines.rail_core import RailCore, load_map
from games.engines.runerail.scripts import _common, make_components

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
def deck():
    if not (DATA / "demands.json").exists():
        pytest.skip("data/demands.json is not there yet (it needs the world map)")
    return read("demands.json")


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
        titles += [x.get("title") or x.get("name") for x in data.get(key, []) if isinstance(x, dict)]
    for title in filter(None, titles):
        for name in DENY_TITLES:
            assert not re.search(rf"\b{name.lower()}\b", title), f"{path.name}: {title!r}"


# -- the scripts are deterministic ---------------------------------------------------------------

def test_make_components_rerun_writes_identical_bytes():
    comps = _common.dumps(make_components.make_components()) + "\n"
    events = _common.dumps(make_components.make_events()) + "\n"
    assert comps == (DATA / "components.json").read_text(encoding="utf-8")
    assert events == (DATA / "events.json").read_text(encoding="utf-8")


def test_make_demands_rerun_writes_identical_bytes(deck, world):
    from games.engines.runerail.scripts import make_demands

    data = make_demands.make_demands(world, read("loads.json"), read("events.json"))
    assert _common.dumps(data) + "\n" == (DATA / "demands.json").read_text(encoding="utf-8")


# -- the demand deck -------------------------------------------------------------------------------

def demands(deck):
    return [d for card in deck["cards"] for d in card["demands"]]


def test_at_least_120_cards_of_three_demands(deck, world):
    cities = {c["id"] for c in world["cities"]}
    assert len(deck["cards"]) >= 120
    assert len({c["id"] for c in deck["cards"]}) == len(deck["cards"])
    for card in deck["cards"]:
        assert len(card["demands"]) == 3
        assert len({d["load"] for d in card["demands"]}) == 3, card["id"]
        assert len({d["city"] for d in card["demands"]}) == 3, card["id"]
        for d in card["demands"]:
            assert d["city"] in cities and d["load"] in LOADS
            assert isinstance(d["payout"], int) and d["payout"] > 0


def test_every_load_is_demanded_and_no_city_demands_what_it_makes(deck):
    sources = {x["id"]: set(x["sources"]) for x in read("loads.json")["loads"]}
    assert set(sources) == LOADS
    assert {d["load"] for d in demands(deck)} == LOADS
    for d in demands(deck):
        assert d["city"] not in sources[d["load"]], d


def test_payout_follows_the_formula_and_never_falls_with_distance(deck):
    p = deck["payout"]
    for d in demands(deck):
        assert d["distance"] >= p["min_distance"]
        assert d["payout"] == (10 * p["base"] + round(10 * p["per_cost"]) * d["distance"] + 5) // 10
    by_load: dict[str, list[tuple[int, int]]] = {}
    for d in demands(deck):
        by_load.setdefault(d["load"], []).append((d["distance"], d["payout"]))
    for load, pairs in by_load.items():
        pairs.sort()
        assert [pay for _, pay in pairs] == sorted(pay for _, pay in pairs), load
        for (d1, p1), (d2, p2) in zip(pairs, pairs[1:], strict=False):
            assert d1 < d2 or p1 == p2, load  # the same distance pays the same
    pays = [d["payout"] for d in demands(deck)]
    assert min(pays) >= 8 and max(pays) <= 80


def test_distance_is_the_cheapest_join_from_the_nearest_source(deck, world):
    """Each recorded distance is the script's least cost from the load's nearest source; it is
    no more than a real build the rail core plans on an empty board from a major-city source
    (where there is one and no sea lies between)."""
    from games.engines.runerail.scripts import make_demands

    core = RailCore(load_map(world), rules=make_demands.RULES)
    m = core.map
    sea = make_demands.voyages(m, world)
    costs = [land + sea[u] for u, land in enumerate(make_demands.section_costs(core))]
    sources = {x["id"]: x["sources"] for x in read("loads.json")["loads"]}
    each = {lid: {cid: make_demands.build_distances(m, costs, [cid]) for cid in cities} for lid, cities in sources.items()}
    rail = core.new_state(players=[0])
    gates = make_demands.GateCost(make_demands.gate_nodes(m))
    checked = 0
    for d in demands(deck):
        per_source = [each[d["load"]][s].get(d["city"]) for s in sources[d["load"]]]
        assert d["distance"] == min(x for x in per_source if x is not None)
        for s in sources[d["load"]]:
            if m.cities[s].size != "major" or checked >= 40:
                continue
            plan = core.plan_build(rail, 0, m.key(m.cities[d["city"]].nodes[0]), start=m.key(m.cities[s].centre),
                                   hooks=gates)
            if plan is not None:
                assert d["distance"] <= plan.cost, d
                checked += 1
    assert checked > 0


def test_the_lantern_isles_and_every_major_get_demands(deck, world):
    region = {c["id"]: c["region"] for c in world["cities"]}
    cities = {d["city"] for d in demands(deck)}
    assert any(region[c] == "lantern-isles" for c in cities)
    assert MAJORS <= cities


def test_the_deck_is_the_demand_cards_and_the_events(deck, events):
    ids = [c["id"] for c in deck["cards"]]
    event_ids = [e["id"] for e in events["events"]]
    assert deck["events"] == event_ids
    assert sorted(deck["deck"]) == sorted(ids + event_ids)
    assert len(set(deck["deck"])) == len(deck["deck"])
    assert not set(ids) & set(event_ids)
