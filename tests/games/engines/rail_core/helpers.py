"""Small hand-made maps for the rail core's tests, drawn as text.

Each string is one row ``r`` (top row 0); the character at column ``q`` is the milepost at
``[layer, q, r]``: ``.`` clear, ``^`` mountain, ``~`` water (a water milepost), ``#`` rock, space: no milepost,
a lowercase letter: a small city of that id, an uppercase letter: a medium city, a digit: one of
the seven mileposts of the major city ``"M<digit>"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.engines.rail_core import FORMAT, RailCore, load_map

TERRAIN = {"^": "mountain", "~": "water", "#": "rock"}
REFERENCE_MAP = Path(__file__).resolve().parents[4].parent / "shared" / "reference" / "resourceful-rails-map.json"


def grid_map(rows: list[str], *, layout: str = "odd-r", crossings: list | None = None, links: list | None = None,
             layer: int = 0, extra_layers: list[list[str]] | None = None, ports: tuple = ()) -> dict[str, Any]:
    nodes, cities = [], {}
    layers = [(layer, rows)] + [(layer + 1 + i, more) for i, more in enumerate(extra_layers or [])]
    for lay, grid in layers:
        for r, row in enumerate(grid):
            for q, ch in enumerate(row):
                if ch == " ":
                    continue
                node: dict[str, Any] = {"at": [lay, q, r], "terrain": TERRAIN.get(ch, "clear")}
                if ch.isalpha():
                    size = "small" if ch.islower() else "medium"
                    cities[ch] = {"id": ch, "name": f"City {ch}", "size": size}
                    node["city"] = ch
                elif ch.isdigit():
                    cid = f"M{ch}"
                    cities[cid] = {"id": cid, "name": f"Major {ch}", "size": "major"}
                    node["city"] = cid
                if (lay, q, r) in ports:
                    node["port"] = True
                nodes.append(node)
    return {"format": FORMAT, "name": "test", "layout": layout,
            "layers": [{"id": lay, "name": f"layer {lay}"} for lay, _ in layers],
            "cities": list(cities.values()), "nodes": nodes, "crossings": crossings or [], "links": links or []}


def core_of(rows: list[str], rules: dict | None = None, **kwargs: Any) -> RailCore:
    return RailCore(load_map(grid_map(rows, **kwargs)), rules)


def k(q: int, r: int, layer: int = 0) -> str:
    """The key of the milepost at column q, row r."""
    return f"{layer},{q},{r}"
