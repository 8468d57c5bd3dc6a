"""Convert a square-grid map asset (a flat list of typed cells) into a rail map.

The input is the shape of the reference map the Resourceful Rails issue points to
(``resourceful-rails-map.json``: a 64×64 flat-top grid, odd columns shifted north):
``{"node_types": [...], "nodes": [{"type", "x", "y", "rivers", "city_id"}], "cities":
[{"name", "goods": [[good index, flag]]}], "goods": [...]}``. Cells not listed are water.

The output is a ``junction/rail-map@1`` map in the ``odd-q-up`` layout with ``q = x`` and
``r = y`` on layer 0. City cells get the terrain ``clear`` (a city's cost replaces its
terrain's); a city keeps its goods as names. The asset's river flags are refused when set:
rivers are added as named crossings instead.
"""

from __future__ import annotations

import re
from typing import Any

from .mapdata import FORMAT, map_error

_TERRAIN = {"Clear": "clear", "Mountain": "mountain", "Water": "water"}
_CITY = {"SmallCity": "small", "MediumCity": "medium", "MajorCity": "major"}


def city_slug(name: str) -> str:
    """A city's id from its name: ``"Salt Lake City, UT"`` → ``"salt-lake-city-ut"``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def map_from_grid_asset(asset: dict[str, Any], *, name: str) -> dict[str, Any]:
    """The rail map (plain data, not yet validated) of a grid asset."""
    try:
        types = list(asset["node_types"])
        cells = asset["nodes"]
        cities = asset["cities"]
        goods = asset.get("goods", [])
    except (KeyError, TypeError):
        raise map_error("A grid asset needs 'node_types', 'nodes' and 'cities'.") from None
    if asset.get("river_segments"):
        raise map_error("The asset has river segments; add rivers as named crossings instead.")
    used: dict[int, str] = {}
    nodes = []
    for i, cell in enumerate(cells):
        try:
            kind = types[cell["type"]]
            x, y = cell["x"], cell["y"]
        except (KeyError, IndexError, TypeError):
            raise map_error(f"Asset cell {i} needs a known 'type', 'x' and 'y'.") from None
        if set(str(cell.get("rivers", "0"))) - {"0"}:
            raise map_error(f"Asset cell {i} at ({x}, {y}) has river flags; add rivers as named crossings instead.")
        node: dict[str, Any] = {"at": [0, x, y]}
        if kind in _TERRAIN:
            node["terrain"] = _TERRAIN[kind]
        elif kind in _CITY:
            city_id = cell.get("city_id")
            if not isinstance(city_id, int) or not 0 <= city_id < len(cities):
                raise map_error(f"Asset cell {i} at ({x}, {y}) is a city with no valid 'city_id'.")
            if used.setdefault(city_id, _CITY[kind]) != _CITY[kind]:
                raise map_error(f"Asset city {city_id} has cells of two sizes.")
            node["terrain"] = "clear"
            node["city"] = city_id
        else:
            raise map_error(f"Asset cell {i}: unknown cell type {kind!r}.")
        nodes.append(node)

    ids: dict[int, str] = {}
    out_cities = []
    for index in sorted(used):
        city = cities[index]
        cid = city_slug(city["name"])
        if cid in ids.values():
            raise map_error(f"Two asset cities would both be named {cid!r}.")
        ids[index] = cid
        out_cities.append({
            "id": cid,
            "name": city["name"],
            "size": used[index],
            "goods": [goods[g] for g, _flag in city.get("goods", [])],
        })
    for node in nodes:
        if "city" in node:
            node["city"] = ids[node["city"]]
    return {"format": FORMAT, "name": name, "layout": "odd-q-up", "layers": [{"id": 0, "name": "surface"}],
            "cities": out_cities, "nodes": nodes, "crossings": [], "links": []}
