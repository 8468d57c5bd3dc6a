"""Make every file of Slipway's ``data/``: ships, canals, goods, wheels, employees, contracts and setup.

    .venv/bin/python -m games.engines.slipway.scripts.make_content

All of it is this project's own content for the yards of the Merrow estuary, 1870 (README.md, "The
world"): the tiles, names and numbers are designed here; only the mechanics of the spec are borrowed.
The tables below are the source and the script adds nothing random, so a rerun writes the same bytes.
``CONTENT.md`` explains each family's purpose and counts; ``tests/games/engines/slipway/test_content.py``
holds the files to the README's schema and to the counts the note promises.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from games.engines.rail_core.authoring import dumps, write_json

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
# One line per tile / ring space / setup key, compact below: the files diff line by line.
FLAT_BELOW = 2

EQUIPMENT = ["smokestack", "sail", "crane", "cannon"]
CREW = ["captain", "stoker", "marine", "merchant"]
ITEMS = EQUIPMENT + CREW
SAFETY = ["lantern", "lifeboat", "lifebuoy"]

# -- ships ---------------------------------------------------------------------------------------


class Hull(NamedTuple):
    """A ship-tile design and how many copies of it the supply holds."""

    count: int
    cost: int
    cabins: int = 0
    stoker: int = 0
    rig: int = 0
    crane: int = 0
    cannon: int = 0
    safety: tuple[str, ...] = ()


# Bows: the forward cabins, the bow gun and the foredeck derrick; lanterns and lifebuoys hang here.
# Sterns: the engine room (stoker cabins), the funnel or mizzen (rig) and the davits (lifeboats).
# Middles: most of the cabins and mounts of a ship. Deck 1 is the plainer, cheaper deck dealt first.
HULLS: dict[tuple[str, int], list[Hull]] = {
    ("bow", 1): [
        Hull(2, 0, cabins=1), Hull(1, 0, rig=1), Hull(1, 0, safety=("lantern",)),
        Hull(2, 0, cabins=1, cannon=1), Hull(1, 0, cabins=1, crane=1), Hull(1, 0, cabins=2),
        Hull(1, 0, cabins=1, rig=1), Hull(1, 0, cannon=1, safety=("lantern",)),
        Hull(1, 0, crane=1, safety=("lifebuoy",)), Hull(1, 1, cabins=2, cannon=1),
    ],
    ("bow", 2): [
        Hull(1, 0, cabins=1, safety=("lantern",)), Hull(1, 0, cannon=1),
        Hull(1, 1, cabins=2, safety=("lantern",)), Hull(1, 1, cabins=1, cannon=1, safety=("lantern",)),
        Hull(1, 1, cabins=1, crane=1, safety=("lifebuoy",)), Hull(1, 1, cabins=2, rig=1), Hull(1, 1, cannon=2),
        Hull(1, 2, cabins=2, cannon=1, safety=("lantern",)), Hull(1, 2, cabins=1, crane=1, cannon=1),
        Hull(1, 2, cabins=3, safety=("lifebuoy",)), Hull(1, 2, cabins=1, rig=1, crane=1, safety=("lantern",)),
        Hull(1, 2, cabins=1, cannon=2, safety=("lifebuoy",)),
    ],
    ("middle", 1): [
        Hull(3, 0, cabins=1), Hull(2, 0, rig=1), Hull(2, 0, stoker=1), Hull(1, 0, crane=1), Hull(1, 0, cannon=1),
        Hull(1, 0, safety=("lifebuoy",)), Hull(1, 0, safety=("lifeboat",)),
        Hull(2, 0, cabins=2), Hull(2, 0, cabins=1, rig=1), Hull(2, 0, stoker=1, rig=1),
        Hull(2, 0, cabins=1, crane=1), Hull(2, 0, cabins=1, cannon=1), Hull(1, 0, rig=1, crane=1),
        Hull(1, 0, cabins=1, stoker=1), Hull(1, 0, rig=1, safety=("lifeboat",)),
        Hull(1, 0, cabins=1, safety=("lantern",)),
        Hull(1, 1, cabins=2, rig=1), Hull(1, 1, cabins=1, stoker=1, rig=1), Hull(1, 1, cabins=2, crane=1),
    ],
    ("middle", 2): [
        Hull(1, 0, cabins=1, rig=1), Hull(1, 0, cabins=1, safety=("lifebuoy",)),
        Hull(1, 0, stoker=1, safety=("lantern",)),
        Hull(2, 1, cabins=2, rig=1), Hull(2, 1, cabins=1, stoker=1, rig=1), Hull(1, 1, cabins=2, crane=1),
        Hull(1, 1, cabins=2, cannon=1), Hull(1, 1, cabins=1, crane=1, safety=("lifeboat",)),
        Hull(1, 1, cabins=1, cannon=1, safety=("lantern",)), Hull(1, 1, rig=2), Hull(1, 1, crane=1, cannon=1),
        Hull(1, 1, cabins=3), Hull(1, 1, stoker=2),
        Hull(1, 2, cabins=2, rig=1, crane=1), Hull(1, 2, cabins=2, rig=1, cannon=1),
        Hull(1, 2, cabins=1, stoker=1, rig=2), Hull(1, 2, cabins=3, safety=("lifeboat",)),
        Hull(1, 2, cabins=2, crane=2), Hull(1, 2, cabins=2, cannon=2),
        Hull(1, 2, stoker=1, rig=1, crane=1, safety=("lifebuoy",)), Hull(1, 2, cabins=2, stoker=1, rig=1),
        Hull(1, 2, cabins=1, rig=1, cannon=1, safety=("lantern",)), Hull(1, 2, cabins=3, rig=1),
        Hull(1, 2, rig=2, crane=1, safety=("lifeboat",)), Hull(1, 2, cabins=2, safety=("lantern", "lifeboat")),
        Hull(1, 2, cabins=1, crane=1, cannon=1, safety=("lifebuoy",)),
    ],
    ("stern", 1): [
        Hull(2, 0, stoker=1), Hull(1, 0, rig=1), Hull(1, 0, safety=("lifeboat",)),
        Hull(2, 0, stoker=1, rig=1), Hull(1, 0, stoker=1, cabins=1), Hull(1, 0, rig=1, cabins=1),
        Hull(1, 0, rig=1, safety=("lifeboat",)), Hull(1, 0, stoker=1, safety=("lifebuoy",)), Hull(1, 0, rig=2),
        Hull(1, 1, stoker=1, rig=1, cabins=1),
    ],
    ("stern", 2): [
        Hull(1, 0, stoker=1, safety=("lifeboat",)), Hull(1, 0, rig=1, safety=("lifebuoy",)),
        Hull(1, 1, stoker=2), Hull(1, 1, stoker=1, rig=1, safety=("lifeboat",)),
        Hull(1, 1, stoker=1, rig=1, cabins=1), Hull(1, 1, rig=1, crane=1), Hull(1, 1, stoker=1, cannon=1),
        Hull(1, 2, stoker=2, rig=1), Hull(1, 2, stoker=1, rig=1, cabins=1, safety=("lifeboat",)),
        Hull(1, 2, rig=2, cabins=1, safety=("lifebuoy",)), Hull(1, 2, stoker=1, rig=1, crane=1),
        Hull(1, 2, stoker=1, cabins=2, safety=("lifeboat",)),
    ],
}
# Tiles per (part, deck): the counts CONTENT.md promises (104 in all).
HULL_COUNTS = {("bow", 1): 12, ("bow", 2): 12, ("middle", 1): 28, ("middle", 2): 28, ("stern", 1): 12, ("stern", 2): 12}
PART_PREFIX = {"bow": "B", "middle": "M", "stern": "S"}


def ships() -> dict[str, Any]:
    """Every ship tile, numbered per part (deck 1 first): ``B01``…, ``M01``…, ``S01``…."""
    tiles: list[dict[str, Any]] = []
    for part in ("bow", "middle", "stern"):
        number = 0
        for deck in (1, 2):
            designs = HULLS[(part, deck)]
            if sum(h.count for h in designs) != HULL_COUNTS[(part, deck)]:
                raise ValueError(f"{part} deck {deck}: the table does not hold {HULL_COUNTS[(part, deck)]} tiles")
            for hull in designs:
                for _ in range(hull.count):
                    number += 1
                    tiles.append({"id": f"{PART_PREFIX[part]}{number:02d}", "part": part, "deck": deck,
                                  "cost": hull.cost, "cabins": hull.cabins, "stoker_cabins": hull.stoker,
                                  "mounts": {"rig": hull.rig, "crane": hull.crane, "cannon": hull.cannon},
                                  "safety": list(hull.safety)})
    return {"tiles": tiles}


# -- canals --------------------------------------------------------------------------------------

SHAPES = {"straight": ["N", "S"], "bend": ["N", "E"], "tee": ["N", "E", "S"], "cross": ["N", "E", "S", "W"]}


class Reach(NamedTuple):
    """A canal tile design: its reach's name, shape, centre spot and the features on its spots."""

    name: str
    shape: str
    centre: bool
    features: dict[str, str]


START = Reach("Yard Basin", "straight", False, {})
REACHES: list[Reach] = [
    Reach("Ebb Cut", "straight", False, {}),
    Reach("Towpath Reach", "straight", False, {}),
    Reach("Old Fort Reach", "straight", False, {"N": "navy"}),
    Reach("Ferry Stairs", "straight", False, {"S": "lifebuoy"}),
    Reach("Long Reach", "straight", True, {}),
    Reach("The Measured Mile", "straight", True, {"C": "riband"}),
    Reach("Exchange Quay", "straight", True, {"N": "trade", "C": "lantern"}),
    Reach("Racing Reach", "straight", True, {"C": "riband", "S": "lifeboat"}),
    Reach("Saltings Bend", "bend", False, {}),
    Reach("Heron Bend", "bend", False, {}),
    Reach("Beacon Cut", "bend", False, {"N": "lantern"}),
    Reach("Coal Staithes", "bend", False, {"E": "trade"}),
    Reach("Pilot's Cut", "bend", False, {"N": "navy", "E": "lifeboat"}),
    Reach("Tidemill Bend", "bend", True, {}),
    Reach("Gull Point", "bend", True, {"C": "riband"}),
    Reach("Humane Society Steps", "bend", True, {"C": "lifebuoy"}),
    Reach("Powder Hulk Reach", "bend", True, {"E": "navy"}),
    Reach("Merchants' Turn", "bend", True, {"N": "trade", "C": "riband"}),
    Reach("Chain Ferry Junction", "tee", False, {}),
    Reach("Lifeboat Slip", "tee", False, {"E": "lifeboat"}),
    Reach("Ropewalk Junction", "tee", True, {}),
    Reach("Naval Basin", "tee", True, {"C": "navy"}),
    Reach("Lightship Pool", "tee", True, {"S": "lantern"}),
    Reach("Customs Pool", "tee", True, {"C": "trade"}),
    Reach("Swing Bridge Pool", "tee", True, {"N": "lifebuoy", "E": "riband"}),
    Reach("Gun Wharf", "tee", True, {"S": "navy"}),
    Reach("Four Winds Cross", "cross", False, {}),
    Reach("Dock Gates", "cross", False, {"N": "trade", "S": "lifeboat"}),
    Reach("Merrow Cross", "cross", True, {"C": "riband"}),
    Reach("Lamp Stairs Cross", "cross", True, {"C": "lantern", "E": "lifebuoy"}),
]


def canal_cost(reach: Reach) -> int:
    """The rent: 1 for a centre spot (a 3-step crossing) and 1 per feature, less 1 (a tile's first step of
    value is free: canals are what every ship needs), at most 2."""
    return max(0, min(3, int(reach.centre) + len(reach.features)) - 1)


def canal_tile(tile_id: str, reach: Reach) -> dict[str, Any]:
    """One canal tile in the README's schema, its mouths in the unrotated orientation."""
    mouths = SHAPES[reach.shape]
    keys = mouths + (["C"] if reach.centre else [])
    unknown = set(reach.features) - set(keys)
    if unknown:
        raise ValueError(f"{reach.name}: features on spots it lacks: {sorted(unknown)}")
    return {"id": tile_id, "name": reach.name, "cost": canal_cost(reach), "mouths": list(mouths),
            "centre": reach.centre, "spots": {k: reach.features.get(k) for k in keys}}


def canals() -> dict[str, Any]:
    """The starting tile and the 30 market tiles ``C01``…``C30``."""
    return {"start": canal_tile("start", START),
            "tiles": [canal_tile(f"C{n:02d}", reach) for n, reach in enumerate(REACHES, start=1)]}


# -- goods ---------------------------------------------------------------------------------------

# Each kind's exchange table: the eight items, each reachable from exactly one kind.
KINDS = [
    {"id": "coal", "name": "Coal", "trades": ["smokestack", "stoker"]},
    {"id": "iron", "name": "Pig iron", "trades": ["crane", "cannon"]},
    {"id": "cotton", "name": "Cotton", "trades": ["sail", "merchant"]},
    {"id": "rum", "name": "Rum", "trades": ["captain", "marine"]},
]
# One kind's price through the ring; kind k reads it shifted by 2k spaces, so every space's four
# prices add up to 13 and each kind peaks at its own time.
PRICE_TIDE = [2, 3, 4, 5, 4, 3, 3, 2]


def commodity_tiles() -> list[list[str]]:
    """The goods of the 20 tiles: per kind k (in KINDS order) a single, a pair, a pair with the next
    kind, a triple with two of k and one of the next, and a triple of three kinds in a row. Every kind
    thus appears 11 times."""
    ids = [k["id"] for k in KINDS]
    out: list[list[str]] = []
    for shape in ("single", "pair", "mixed_pair", "two_one", "three"):
        for i, k in enumerate(ids):
            nxt, nxt2 = ids[(i + 1) % 4], ids[(i + 2) % 4]
            out.append({"single": [k], "pair": [k, k], "mixed_pair": [k, nxt], "two_one": [k, k, nxt],
                        "three": [k, nxt, nxt2]}[shape])
    return out


def commodity_cost(goods: list[str]) -> int:
    """1 per good, +1 for three different kinds (three items at one exchange, none sold)."""
    return len(goods) + (1 if len(set(goods)) == 3 else 0)


def goods() -> dict[str, Any]:
    ids = [k["id"] for k in KINDS]
    tiles = [{"id": f"G{n:02d}", "cost": commodity_cost(g), "goods": g}
             for n, g in enumerate(commodity_tiles(), start=1)]
    ring = [{k: PRICE_TIDE[(space + 2 * i) % len(PRICE_TIDE)] for i, k in enumerate(ids)}
            for space in range(len(PRICE_TIDE))]
    return {"kinds": KINDS, "tiles": tiles, "price_ring": ring}


# -- wheels --------------------------------------------------------------------------------------

# The first (free) step from space 0 lands on a smokestack / a captain; each common item is at most
# three steps from any space, the rare ones (crane, cannon, marine, merchant) once per ring.
EQUIPMENT_RING = ["sail", "smokestack", "crane", "sail", "smokestack", "cannon", "sail", "smokestack"]
CREW_RING = ["stoker", "captain", "marine", "stoker", "captain", "merchant", "stoker", "captain"]


def wheels() -> dict[str, Any]:
    return {"equipment_ring": EQUIPMENT_RING, "crew_ring": CREW_RING, "employee_stops": 6, "employee_per_stop": 3}


# -- employees -----------------------------------------------------------------------------------

TRADER_NAMES = {
    "coal": ("Coal Factor", "Collier Owner"),
    "iron": ("Iron Merchant", "Ironmaster"),
    "cotton": ("Cotton Broker", "Cotton Exchange Member"),
    "rum": ("Rum Dealer", "Bonded Warehouse Keeper"),
}
# (name, cost, effect) of every employee but the traders, family by family.
STAFF: list[tuple[str, str, int, dict[str, Any]]] = [
    ("builder", "Master Rigger", 0, {"type": "builder", "capacity": "rig"}),
    ("builder", "Derrick Fitter", 2, {"type": "builder", "capacity": "crane"}),
    ("builder", "Gun-Deck Wright", 0, {"type": "builder", "capacity": "cannon"}),
    ("builder", "Cabin Joiner", 0, {"type": "builder", "capacity": "cabin"}),
    ("builder", "Boiler-Room Plater", 0, {"type": "builder", "capacity": "stoker_cabin"}),
    ("builder", "Berth Carpenter", 0, {"type": "builder", "capacity": "cabin"}),
    ("engineer", "Funnel Smith", 1, {"type": "engineer", "item": "smokestack"}),
    ("engineer", "Sailmaker", 0, {"type": "engineer", "item": "sail"}),
    ("engineer", "Hydraulic Engineer", 2, {"type": "engineer", "item": "crane"}),
    ("engineer", "Gunfounder", 2, {"type": "engineer", "item": "cannon"}),
    ("recruiter", "Master Mariners' Clerk", 1, {"type": "recruiter", "item": "captain"}),
    ("recruiter", "Stokehold Foreman", 1, {"type": "recruiter", "item": "stoker"}),
    ("recruiter", "Recruiting Sergeant", 0, {"type": "recruiter", "item": "marine"}),
    ("recruiter", "Shipping Agent", 0, {"type": "recruiter", "item": "merchant"}),
    ("mover", "Foundry Runner", 0, {"type": "mover", "wheel": "equipment", "steps": 2}),
    ("mover", "Waterfront Crimp", 0, {"type": "mover", "wheel": "crew", "steps": 2}),
    ("mover", "Yard Timekeeper", 0, {"type": "mover", "wheel": "employee", "steps": 2}),
    ("mover", "Office Boy", 0, {"type": "mover", "wheel": "employee", "steps": 1}),
    ("speed", "Screw Propeller Patentee", 2, {"type": "speed", "amount": 1, "needs": None}),
    ("speed", "Forced-Draught Engineer", 1, {"type": "speed", "amount": 1, "needs": "smokestack"}),
    ("speed", "Clipper Master", 0, {"type": "speed", "amount": 1, "needs": "sail"}),
    ("speed", "Naval Architect", 0, {"type": "speed", "amount": 1, "needs": "long"}),
]
TRADER_COST = {1: 0, 2: 1}
TRADER_POINTS = {1: 1, 2: 5}


def employees() -> dict[str, Any]:
    """Traders first (each good's level 1 then level 2), then the rest: ``E01``…``E30``."""
    rows: list[tuple[str, str, int, dict[str, Any]]] = []
    for kind in KINDS:
        for level in (1, 2):
            rows.append(("trader", TRADER_NAMES[kind["id"]][level - 1], TRADER_COST[level],
                         {"type": "trader", "good": kind["id"], "level": level, "price": 1,
                          "points": TRADER_POINTS[level]}))
    rows.extend(STAFF)
    return {"tiles": [{"id": f"E{n:02d}", "name": name, "family": family, "cost": cost, "effect": effect}
                      for n, (family, name, cost, effect) in enumerate(rows, start=1)]}


# -- contracts -----------------------------------------------------------------------------------

# (name, measure, arg, table): the rows are (at least, points), the highest reached scores. The points are
# about 1.6x those of the first balance round (issue 30's second): two kept contracts now weigh about as much
# as a player's two best ships, so no one ship carries a player's game (one ship over 40 % of a player's
# points fell from 25 % to about 8 % of 4-player games); Coastal Squadron (the small-ships line's contract)
# rose 1.2x only, the mail packet and auxiliary steam rows more (they scored half the average kept); the
# Board of Trade Certificate and the Blue Riband Wager kept their top rows (10, 9: the first scored 1.6x
# the average at 1.6x, the second is the riband line's, a strong one) and raised their first rows.
# Third round: the contracts that count ships (safety-ship and stoker-ship 5/9/14, Coastal Squadron) and officers
# (4/7/11/15: a 3-piece ship with a spare captain scored as much there as a whole cruise) weigh less against those
# that reward what a ship carries, how fast and how long it is (items, speed, length, safety items, lengths), and
# every table about 1.2x (tops up to 19): points that do not ride on one ship (one ship over 40 % of a player's
# points fell from 7-9 % to about 3-5 % of player-games).
CONTRACTS: list[tuple[str, str, Any, list[list[int]]]] = [
    ("Admiralty Gunboat Order", "items", "cannon", [[1, 5], [2, 8], [3, 13], [5, 18]]),
    ("Royal Marines Transport", "items", "marine", [[1, 4], [2, 7], [3, 11], [5, 16]]),
    ("Harbour Board Cranes", "items", "crane", [[1, 5], [2, 8], [3, 13], [5, 18]]),
    ("Merrow Exchange Charter", "items", "merchant", [[1, 4], [2, 7], [3, 11], [5, 16]]),
    ("Post Office Mail Packet", "ships_min_speed", 5, [[1, 9], [2, 15], [3, 19]]),
    ("Western Ocean Packet Line", "ships_min_length", 4, [[1, 6], [2, 11], [3, 15], [4, 19]]),
    ("Emigrant Service", "ships_with", "lifeboat", [[1, 5], [2, 9], [3, 14]]),
    ("Trinity Lights Tender", "ships_with", "lantern", [[1, 5], [2, 9], [3, 14]]),
    ("Humane Society Award", "ships_with", "lifebuoy", [[1, 5], [2, 9], [3, 14]]),
    ("Board of Trade Certificate", "safety_items", None, [[2, 6], [4, 11], [6, 14]]),
    ("Estuary Survey", "canals_used", None, [[2, 6], [4, 12], [6, 19]]),
    ("Coastal Squadron", "fleet", None, [[3, 3], [4, 6], [5, 9], [6, 13]]),
    ("Yard Pattern Book", "lengths", None, [[2, 7], [3, 13], [4, 19]]),
    ("Auxiliary Steam Commission", "ships_sail_and_smokestack", None, [[1, 9], [2, 15], [3, 19]]),
    ("Blue Riband Wager", "best_riband", None, [[1, 6], [3, 8], [5, 11]]),
    ("Naval Staff College", "officers", None, [[1, 4], [2, 7], [3, 11], [5, 15]]),
    ("Colliers' Guild Tender", "ships_with", "stoker", [[1, 5], [2, 9], [3, 14]]),
    ("Channel Fleet Refit", "ships_min_speed", 4, [[1, 7], [2, 13], [3, 18]]),
]


def contracts() -> dict[str, Any]:
    return {"tiles": [{"id": f"K{n:02d}", "name": name, "measure": measure, "arg": arg, "table": table}
                      for n, (name, measure, arg, table) in enumerate(CONTRACTS, start=1)]}


# -- setup ---------------------------------------------------------------------------------------


def setup() -> dict[str, Any]:
    """Countdown 4/7/10 gives 17/17/18 turns per player for 2/3/4 players (CONTENT.md shows the count; four players
    got a tenth cube in issue 30's third round: they launched the fewest ships, so one ship carried a player's game
    most often); the discards fall about 40% and 75% of the way through. Three captains to start: every ship needs one."""
    return {"actions": ["build", "canal", "commodity", "equipment", "crew", "employee", "exchange", "subsidy"],
            "start_money": 10, "start_items": ["captain", "captain", "captain"], "timer_spaces": 6,
            "countdown": {"2": 4, "3": 7, "4": 10}, "cubes": {"2": 2, "3": 1, "4": 1},
            "contracts_dealt": 4, "contracts_kept": 2, "discards": {"2": [2, 3], "3": [3, 5], "4": [4, 8]},
            "yard_slots": 8, "ship_max": 7, "ship_market_rows": 3, "canal_market": 4, "goods_market": 4,
            "bonus_cost": 6, "subsidy": 2}


# -- writing -------------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "ships.json": ships, "canals.json": canals, "goods.json": goods, "wheels.json": wheels,
    "employees.json": employees, "contracts.json": contracts, "setup.json": setup,
}


def contents() -> dict[str, Any]:
    """Every data file's value, by file name."""
    return {name: make() for name, make in BUILDERS.items()}


def build() -> dict[str, str]:
    """Every data file's text, by file name: exactly what ``main`` writes (the tests compare)."""
    return {name: dumps(value, 0, FLAT_BELOW) + "\n" for name, value in contents().items()}


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, value in contents().items():
        write_json(DATA / name, value, FLAT_BELOW)
        print(f"wrote {DATA / name}")


if __name__ == "__main__":
    main()
