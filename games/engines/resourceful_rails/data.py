"""Resourceful Rails' content and fixed numbers: the map, the goods, the demand deck, the trains.

The data files are generated (see README.md, "Data"); this module only reads them, once per
process, and builds the one :class:`RailCore` every game of this kind shares.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from ..rail_core import RailCore, load_map

DATA = Path(__file__).resolve().parent / "data"

# The spec's build costs: the milepost built *to* (clear 1, mountain 2, small or medium city 3,
# major city 5, water never) plus $2 for each river crossed.
RULES: dict[str, Any] = {
    "terrain_cost": {"clear": 1, "mountain": 2, "water": None},
    "city_cost": {"small": 3, "medium": 3, "major": 5},
    "crossing_cost": {"river": 2},
    "city_caps": {"small": 2, "medium": 3},
    "max_own_sections": 3,
    "major_starts_per_turn": 2,
    "toll": 4,
    "courtesy": True,
}

BUILD_LIMIT = 20  # what a player may spend in one turn's build phase
UPGRADE_COST = 20  # an upgrade takes the whole phase
WIN_MAJORS = 6  # of the 7 major cities, joined by one network
WIN_CASH = 250
START_CASH = 50
START_CASH_EXTRA_BUILD = 60  # the optional rule "extra build turn"
HAND = 3
HAND_EXTRA = 5  # the optional rule "extra starting cards": 5 in hand until the first turn, then 3

# The four trains: movement (plain and with the fast-trains rule), goods carried, upgrades.
TRAINS: dict[str, dict[str, Any]] = {
    "modest": {"name": "Modest", "speed": 9, "fast_speed": 12, "capacity": 2, "upgrades": ("fast", "heavy")},
    "fast": {"name": "Fast", "speed": 12, "fast_speed": 16, "capacity": 2, "upgrades": ("advanced",)},
    "heavy": {"name": "Heavy", "speed": 9, "fast_speed": 12, "capacity": 3, "upgrades": ("advanced",)},
    "advanced": {"name": "Advanced", "speed": 12, "fast_speed": 16, "capacity": 3, "upgrades": ()},
}

# Players' colours: the Okabe–Ito palette (distinguishable with the common colour-vision
# deficiencies), by name; the first six in seat order unless a player chooses another.
COLORS: dict[str, str] = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermilion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
}
# What pages call them.
COLOR_NAMES: dict[str, str] = {
    "orange": "Orange", "sky": "Sky blue", "green": "Bluish green", "yellow": "Yellow", "blue": "Blue",
    "vermilion": "Vermilion", "purple": "Reddish purple", "black": "Black",
}


# The boards a game may be played on (the option ``map``): each a folder with map.json, goods.json and
# demands.json. The default board's files sit in data/ itself; the others in data/maps/<id>/.
DEFAULT_MAP = "pacific-northwest"
MAPS: dict[str, Path] = {
    DEFAULT_MAP: DATA,
    "juniper-basin": DATA / "maps" / "juniper-basin",
}


def _read(map_id: str, name: str) -> dict[str, Any]:
    if map_id not in MAPS:
        raise KeyError(map_id)
    return json.loads((MAPS[map_id] / name).read_text(encoding="utf-8"))


@functools.cache
def map_data(map_id: str = DEFAULT_MAP) -> dict[str, Any]:
    return _read(map_id, "map.json")


@functools.cache
def goods(map_id: str = DEFAULT_MAP) -> dict[str, dict[str, Any]]:
    """The goods by id: ``{"id", "name", "sources": [city ids]}``."""
    return {g["id"]: g for g in _read(map_id, "goods.json")["goods"]}


@functools.cache
def cards(map_id: str = DEFAULT_MAP) -> dict[int, dict[str, Any]]:
    """The demand deck by card id: ``{"id", "demands": [{"city", "good", "payout", "distance"}] * 3}``."""
    return {c["id"]: c for c in _read(map_id, "demands.json")["cards"]}


@functools.cache
def core(map_id: str = DEFAULT_MAP) -> RailCore:
    """The rail core for this map and these rules (shared: it holds no game state)."""
    return RailCore(load_map(map_data(map_id)), RULES)


@functools.cache
def city_goods(map_id: str = DEFAULT_MAP) -> dict[str, tuple[str, ...]]:
    """Each city's goods (ids), as the map lists them."""
    return {c["id"]: tuple(c.get("goods", ())) for c in map_data(map_id)["cities"]}


@functools.cache
def content(map_id: str = DEFAULT_MAP) -> dict[str, Any]:
    """What a page needs to draw and name things: the map, the goods' names, the trains, the colours.

    ``version`` changes whenever any of it does (pages and caches key on it); ``map_id`` names the board."""
    body = {
        "map": map_data(map_id),
        "goods": [{"id": g["id"], "name": g["name"], "sources": list(g["sources"])} for g in goods(map_id).values()],
        "trains": {k: {**v, "upgrades": list(v["upgrades"])} for k, v in TRAINS.items()},
        "colors": dict(COLORS),
        "color_names": dict(COLOR_NAMES),
        # What building to a milepost costs, for the play page's map legend (null: no track there).
        "build_costs": {"terrain": dict(RULES["terrain_cost"]), "city": dict(RULES["city_cost"]),
                        "crossing": dict(RULES["crossing_cost"])},
    }
    if map_id != DEFAULT_MAP:  # the default board's content (and its version) stay as they were
        body["map_id"] = map_id
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return {"version": hashlib.sha256(text.encode()).hexdigest()[:16], **body}
