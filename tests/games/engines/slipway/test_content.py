"""Slipway's data files (games/engines/slipway/data/) as the README's schema and CONTENT.md describe
them: keys, types and allowed values, unique ids, references that resolve, the promised counts, and
the script that makes them writing the same bytes again."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engines.slipway.scripts import make_content

DATA = make_content.DATA
FILES = ["ships.json", "canals.json", "goods.json", "wheels.json", "employees.json", "contracts.json", "setup.json"]

EQUIPMENT = {"smokestack", "sail", "crane", "cannon"}
CREW = {"captain", "stoker", "marine", "merchant"}
ITEMS = EQUIPMENT | CREW
SAFETY = {"lantern", "lifeboat", "lifebuoy"}
FEATURES = {"riband", "navy", "trade"} | SAFETY
SIDES = ["N", "E", "S", "W"]
MEASURES = {"ships_with", "items", "ships_min_length", "ships_min_speed", "fleet", "canals_used",
            "safety_items", "lengths", "ships_sail_and_smokestack", "best_riband", "officers"}
MEASURES_WITH_ARG = {"ships_with", "items", "ships_min_length", "ships_min_speed"}
ACTIONS = ["build", "canal", "commodity", "equipment", "crew", "employee", "exchange", "subsidy"]

# The counts CONTENT.md promises.
SHIP_COUNTS = {("bow", 1): 12, ("bow", 2): 12, ("middle", 1): 28, ("middle", 2): 28, ("stern", 1): 12,
               ("stern", 2): 12}
CANAL_SHAPES = {2: 18, 3: 8, 4: 4}  # mouths: straights and bends, tees, crosses
CANAL_FEATURES = {"riband": 6, "navy": 5, "trade": 5, "lantern": 4, "lifeboat": 4, "lifebuoy": 4}
FAMILIES = {"trader": 8, "builder": 6, "engineer": 4, "recruiter": 4, "mover": 4, "speed": 4}
N_COMMODITIES, N_PRICE_SPACES, N_CONTRACTS = 20, 8, 18
TURNS_PER_PLAYER = {2: 17, 3: 17, 4: 18}


def read(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return {name: read(name) for name in FILES}


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def unique_ids(tiles: list[dict[str, Any]]) -> bool:
    ids = [t["id"] for t in tiles]
    return all(isinstance(i, str) and i for i in ids) and len(ids) == len(set(ids))


# -- the script ----------------------------------------------------------------------------------


def test_the_script_writes_the_same_bytes():
    texts = make_content.build()
    assert sorted(texts) == sorted(FILES)
    for name, text in texts.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, f"{name} differs: rerun make_content"
    assert make_content.build() == texts


# -- ships ---------------------------------------------------------------------------------------


def tile_value(tile: dict[str, Any]) -> float:
    """What a ship tile offers: a unit per cabin and mount, half a unit per safety item."""
    return tile["cabins"] + tile["stoker_cabins"] + sum(tile["mounts"].values()) + 0.5 * len(tile["safety"])


def test_ship_tiles_match_the_schema(data):
    tiles = data["ships.json"]["tiles"]
    assert list(data["ships.json"]) == ["tiles"] and unique_ids(tiles)
    for t in tiles:
        assert set(t) == {"id", "part", "deck", "cost", "cabins", "stoker_cabins", "mounts", "safety"}
        assert t["part"] in {"bow", "middle", "stern"} and t["deck"] in {1, 2} and t["cost"] in {0, 1, 2}
        assert is_int(t["cabins"]) and is_int(t["stoker_cabins"]) and t["cabins"] >= 0 and t["stoker_cabins"] >= 0
        assert set(t["mounts"]) == {"rig", "crane", "cannon"}
        assert all(is_int(n) and n >= 0 for n in t["mounts"].values())
        assert set(t["safety"]) <= SAFETY and len(t["safety"]) <= 2 and len(set(t["safety"])) == len(t["safety"])


def test_ship_counts_per_part_and_deck(data):
    tiles = data["ships.json"]["tiles"]
    assert Counter((t["part"], t["deck"]) for t in tiles) == SHIP_COUNTS
    assert len(tiles) == 104


def test_ship_costs_track_what_a_tile_offers(data):
    """Within each part and deck a dearer tile offers more on average, and deck 2 is the richer deck."""
    tiles = data["ships.json"]["tiles"]

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs)

    for part in ("bow", "middle", "stern"):
        for deck in (1, 2):
            costs = sorted({t["cost"] for t in tiles if (t["part"], t["deck"]) == (part, deck)})
            # deck 1 (dealt first) costs 0-1, deck 2 the spec's whole 0-2
            assert costs == ([0, 1] if deck == 1 else [0, 1, 2]), (part, deck, costs)
            by_cost = [mean([tile_value(t) for t in tiles if (t["part"], t["deck"], t["cost"]) == (part, deck, c)])
                       for c in costs]
            assert by_cost == sorted(set(by_cost)), (part, deck, by_cost)
        deck_means = [mean([tile_value(t) for t in tiles if (t["part"], t["deck"]) == (part, d)]) for d in (1, 2)]
        assert deck_means[0] < deck_means[1]


def test_middles_carry_most_cabins_and_every_safety_kind_is_common(data):
    tiles = data["ships.json"]["tiles"]
    cabins = Counter()
    for t in tiles:
        cabins[t["part"]] += t["cabins"]
    assert cabins["middle"] > cabins["bow"] + cabins["stern"]
    assert sum(t["stoker_cabins"] for t in tiles if t["part"] == "bow") == 0
    safety = Counter(s for t in tiles for s in t["safety"])
    assert set(safety) == SAFETY and min(safety.values()) >= 10


# -- canals --------------------------------------------------------------------------------------


def check_canal(tile: dict[str, Any]) -> None:
    assert set(tile) == {"id", "name", "cost", "mouths", "centre", "spots"}
    assert isinstance(tile["name"], str) and tile["name"]
    assert tile["cost"] in {0, 1, 2} and isinstance(tile["centre"], bool)
    mouths = tile["mouths"]
    assert 2 <= len(mouths) <= 4 and len(set(mouths)) == len(mouths) and set(mouths) <= set(SIDES)
    assert set(tile["spots"]) == set(mouths) | ({"C"} if tile["centre"] else set())
    assert all(f is None or f in FEATURES for f in tile["spots"].values())


def test_canal_tiles_match_the_schema(data):
    canals = data["canals.json"]
    assert set(canals) == {"start", "tiles"}
    for tile in [canals["start"], *canals["tiles"]]:
        check_canal(tile)
    assert unique_ids([canals["start"], *canals["tiles"]])
    names = [t["name"] for t in [canals["start"], *canals["tiles"]]]
    assert len(names) == len(set(names))


def test_the_start_tile_is_a_plain_straight(data):
    start = data["canals.json"]["start"]
    assert sorted(start["mouths"]) == ["N", "S"] and start["centre"] is False and start["cost"] == 0
    assert all(f is None for f in start["spots"].values())


def test_canal_shapes_features_and_costs(data):
    tiles = data["canals.json"]["tiles"]
    assert len(tiles) == 30
    assert Counter(len(t["mouths"]) for t in tiles) == CANAL_SHAPES
    straights = [t for t in tiles if len(t["mouths"]) == 2 and SIDES.index(t["mouths"][0]) % 2
                 == SIDES.index(t["mouths"][1]) % 2]
    assert len(straights) == 8
    assert Counter(f for t in tiles for f in t["spots"].values() if f) == CANAL_FEATURES
    for t in tiles:
        features = sum(1 for f in t["spots"].values() if f)
        assert t["cost"] == max(0, min(3, int(t["centre"]) + features) - 1)
    assert any(t["centre"] for t in tiles) and not all(t["centre"] for t in tiles)


# -- goods ---------------------------------------------------------------------------------------


def test_goods_match_the_schema_and_cover_every_item(data):
    goods = data["goods.json"]
    assert set(goods) == {"kinds", "tiles", "price_ring"}
    kinds = goods["kinds"]
    assert len(kinds) == 4 and unique_ids(kinds)
    reach = Counter()
    for k in kinds:
        assert set(k) == {"id", "name", "trades"} and isinstance(k["name"], str)
        assert len(k["trades"]) == 2 and len(set(k["trades"])) == 2 and set(k["trades"]) <= ITEMS
        reach.update(k["trades"])
    assert set(reach) == ITEMS and max(reach.values()) <= 2


def test_commodity_tiles(data):
    goods = data["goods.json"]
    kinds = {k["id"] for k in goods["kinds"]}
    tiles = goods["tiles"]
    assert len(tiles) == N_COMMODITIES and unique_ids(tiles)
    for t in tiles:
        assert set(t) == {"id", "cost", "goods"}
        assert 1 <= len(t["goods"]) <= 3 and set(t["goods"]) <= kinds
        assert t["cost"] in {1, 2, 3, 4} and t["cost"] >= len(t["goods"])
    units = Counter(g for t in tiles for g in t["goods"])
    assert set(units) == kinds and len(set(units.values())) == 1


def test_the_price_ring(data):
    ring = data["goods.json"]["price_ring"]
    kinds = {k["id"] for k in data["goods.json"]["kinds"]}
    assert len(ring) == N_PRICE_SPACES
    for space in ring:
        assert set(space) == kinds and all(is_int(p) and 2 <= p <= 5 for p in space.values())
    for kind in kinds:
        prices = [space[kind] for space in ring]
        assert min(prices) == 2 and max(prices) == 5
    best = [max(ring, key=lambda s, k=k: s[k]) for k in sorted(kinds)]
    assert len({id(s) for s in best}) == len(kinds)  # each kind peaks at its own space


# -- wheels --------------------------------------------------------------------------------------


def test_wheels(data):
    wheels = data["wheels.json"]
    assert set(wheels) == {"equipment_ring", "crew_ring", "employee_stops", "employee_per_stop"}
    eq, crew = Counter(wheels["equipment_ring"]), Counter(wheels["crew_ring"])
    assert len(wheels["equipment_ring"]) == 8 and set(eq) == EQUIPMENT
    assert len(wheels["crew_ring"]) == 8 and set(crew) == CREW
    assert min(eq["smokestack"], eq["sail"]) > max(eq["crane"], eq["cannon"])
    assert min(crew["stoker"], crew["captain"]) > max(crew["marine"], crew["merchant"])
    assert wheels["employee_stops"] == 6 and wheels["employee_per_stop"] == 3


# -- employees -----------------------------------------------------------------------------------

EFFECT_KEYS = {"trader": {"type", "good", "level", "price", "points"}, "builder": {"type", "capacity"},
               "engineer": {"type", "item"}, "recruiter": {"type", "item"}, "mover": {"type", "wheel", "steps"},
               "speed": {"type", "amount", "needs"}}


def check_effect(effect: dict[str, Any], kinds: set[str]) -> None:
    kind = effect["type"]
    assert set(effect) == EFFECT_KEYS[kind]
    if kind == "trader":
        assert effect["good"] in kinds and effect["level"] in {1, 2} and effect["price"] == 1
        assert is_int(effect["points"]) and effect["points"] >= 0
    elif kind == "builder":
        assert effect["capacity"] in {"rig", "crane", "cannon", "cabin", "stoker_cabin"}
    elif kind == "engineer":
        assert effect["item"] in EQUIPMENT
    elif kind == "recruiter":
        assert effect["item"] in CREW
    elif kind == "mover":
        assert effect["wheel"] in {"equipment", "crew", "employee"} and effect["steps"] in {1, 2}
    else:
        assert effect["amount"] == 1 and effect["needs"] in {None, "smokestack", "sail", "long"}


def test_employees_match_the_schema(data):
    tiles = data["employees.json"]["tiles"]
    kinds = {k["id"] for k in data["goods.json"]["kinds"]}
    assert unique_ids(tiles) and len({t["name"] for t in tiles}) == len(tiles)
    for t in tiles:
        assert set(t) == {"id", "name", "family", "cost", "effect"} and t["cost"] in {0, 1, 2}
        assert t["family"] == t["effect"]["type"]
        check_effect(t["effect"], kinds)


def test_employee_families_and_coverage(data):
    tiles = data["employees.json"]["tiles"]
    effects = [t["effect"] for t in tiles]
    assert Counter(t["family"] for t in tiles) == FAMILIES
    assert {e["capacity"] for e in effects if e["type"] == "builder"} == {"rig", "crane", "cannon", "cabin",
                                                                            "stoker_cabin"}
    assert {e["item"] for e in effects if e["type"] == "engineer"} == EQUIPMENT
    assert {e["item"] for e in effects if e["type"] == "recruiter"} == CREW
    assert {e["wheel"] for e in effects if e["type"] == "mover"} == {"equipment", "crew", "employee"}


def test_every_level_two_trader_has_its_level_one_and_pays_more_points(data):
    traders = [t["effect"] for t in data["employees.json"]["tiles"] if t["family"] == "trader"]
    by = {(e["good"], e["level"]): e for e in traders}
    assert len(by) == len(traders) == 8
    kinds = {k["id"] for k in data["goods.json"]["kinds"]}
    assert {g for g, _ in by} == kinds
    for (good, level), e in by.items():
        if level == 2:
            assert (good, 1) in by and e["points"] > by[(good, 1)]["points"]


# -- contracts -----------------------------------------------------------------------------------


def test_contracts(data):
    tiles = data["contracts.json"]["tiles"]
    assert len(tiles) == N_CONTRACTS and unique_ids(tiles) and len({t["name"] for t in tiles}) == len(tiles)
    for t in tiles:
        assert set(t) == {"id", "name", "measure", "arg", "table"} and t["measure"] in MEASURES
        arg = t["arg"]
        if t["measure"] == "ships_with":
            assert arg in ITEMS | SAFETY
        elif t["measure"] == "items":
            assert arg in ITEMS
        elif t["measure"] == "ships_min_length":
            assert is_int(arg) and 3 <= arg <= 7
        elif t["measure"] == "ships_min_speed":
            assert is_int(arg) and arg >= 2
        else:
            assert arg is None
        table = t["table"]
        assert 2 <= len(table) <= 4
        assert all(len(row) == 2 and is_int(row[0]) and is_int(row[1]) for row in table)
        assert [r[0] for r in table] == sorted({r[0] for r in table}) and table[0][0] >= 1
        assert [r[1] for r in table] == sorted({r[1] for r in table})
        assert 2 <= table[0][1] and table[-1][1] <= 20
    assert len({t["measure"] for t in tiles}) == len(MEASURES)


# -- setup ---------------------------------------------------------------------------------------


def turns_per_player(players: int, setup: dict[str, Any]) -> int:
    """Turns each player takes before the final action: a turn advances the timer unless the player
    still has a cube to place; the end comes on the removal from the empty queue, and the round is
    finished."""
    cubes, spaces = setup["cubes"][str(players)], setup["timer_spaces"]
    advances_to_end = spaces * (setup["countdown"][str(players)] + 1)
    turn = advances = 0
    while advances < advances_to_end:
        turn += 1
        if turn > players * cubes:
            advances += 1
    while turn % players:
        turn += 1
    return turn // players


def test_setup(data):
    setup = data["setup.json"]
    assert set(setup) == {"actions", "start_money", "start_items", "timer_spaces", "countdown", "cubes",
                          "contracts_dealt", "contracts_kept", "discards", "yard_slots", "ship_max",
                          "ship_market_rows", "canal_market", "goods_market", "bonus_cost", "subsidy"}
    assert setup["actions"] == ACTIONS
    assert 8 <= setup["start_money"] <= 12 and setup["start_items"] == ["captain"] * 3
    assert setup["cubes"] == {"2": 2, "3": 1, "4": 1}
    assert (setup["contracts_dealt"], setup["contracts_kept"]) == (4, 2)
    assert (setup["yard_slots"], setup["ship_max"], setup["ship_market_rows"]) == (8, 7, 3)
    assert (setup["canal_market"], setup["goods_market"], setup["bonus_cost"], setup["subsidy"]) == (4, 4, 6, 2)
    for players in ("2", "3", "4"):
        removals = setup["discards"][players]
        assert len(removals) == setup["contracts_dealt"] - setup["contracts_kept"]
        assert removals == sorted(set(removals)) and 1 <= removals[0] and removals[-1] <= setup["countdown"][players]


def test_the_countdown_gives_the_promised_turns(data):
    setup = data["setup.json"]
    assert {p: turns_per_player(p, setup) for p in (2, 3, 4)} == TURNS_PER_PLAYER
    assert all(15 <= n <= 18 for n in TURNS_PER_PLAYER.values())


def test_the_ship_supplies_outlast_a_typical_four_player_game(data):
    """Tiles bought before a part's supply is empty (all but the market row): enough for four players
    launching four ships of 4–5 pieces each and leaving one unfinished (CONTENT.md, "Ship tiles")."""
    rows = data["setup.json"]["ship_market_rows"]
    parts = Counter(t["part"] for t in data["ships.json"]["tiles"])
    buyable = {part: n - rows for part, n in parts.items()}
    assert buyable["bow"] >= 4 * 5 and buyable["stern"] >= 4 * 5
    assert buyable["middle"] >= 4 * (4 * 2.5 + 2)
    assert buyable["bow"] < 4 * 6  # six ships each would empty it: the stack end stays a real trigger


def test_content_md_contract_table_is_the_data(data):
    """CONTENT.md's contract table says what contracts.json holds (the tables were retuned once; the note
    must follow any retuning)."""
    import re

    note = (DATA.parent / "CONTENT.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2, 3) for m in re.finditer(r"^\| (.+?) \| (\w+(?: \(\w+\))?) \| (.+?) \|$", note, re.M)}
    for tile in data["contracts.json"]["tiles"]:
        arg = f" ({tile['arg']})" if tile.get("arg") is not None else ""
        table = ", ".join(f"{a}→{b}" for a, b in tile["table"])
        assert rows.get(tile["name"]) == (tile["measure"] + arg, table), tile["name"]
