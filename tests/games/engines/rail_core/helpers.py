"""Small hand-made maps for the rail core's tests, drawn as text.

Each string is one row ``r`` (top row 0); the character at column ``q`` is the milepost at
``[layer, q, r]``: ``.`` clear, ``^`` mountain, ``~`` water (a water milepost), ``#`` rock, space: no milepost,
a lowercase letter: a small city of that id, an uppercase letter: a medium city, a digit: one of
the seven mileposts of the major city ``"M<digit>"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.engines.rail_core import FORMAT, RailCore, hexgrid, load_map

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


def random_map(rng, *, width: int = 5, height: int = 4, major: bool = True, river_pairs: int = 2) -> dict[str, Any]:
    """A small random odd-r map: clear, mountain, water and holes, a small and a medium city,
    optionally the major city M1 centred at (2,1), and a few river crossings."""
    rows = []
    for _r in range(height):
        row = ""
        for _q in range(width):
            roll = rng.random()
            row += "." if roll < 0.55 else "^" if roll < 0.8 else "~" if roll < 0.92 else " "
        rows.append(row)
    grid = [list(row) for row in rows]
    if major:
        for q, r in [(2, 1), (3, 1), (3, 0), (2, 0), (1, 1), (2, 2), (3, 2)]:  # centre (2,1), odd row
            grid[r][q] = "1"
    free = [(q, r) for r in range(height) for q in range(width) if grid[r][q] in ".^"]
    rng.shuffle(free)
    for ch, (q, r) in zip("aB", free, strict=False):
        grid[r][q] = ch
    rows = ["".join(row) for row in grid]
    data = grid_map(rows)
    land = {tuple(n["at"]) for n in data["nodes"]}
    pairs = []
    for layer, q, r in sorted(land):
        for nq, nr in hexgrid.neighbours("odd-r", q, r):
            if (layer, nq, nr) in land and (layer, q, r) < (layer, nq, nr):
                pairs.append([[layer, q, r], [layer, nq, nr]])
    if pairs and river_pairs:
        data["crossings"] = [{"kind": "river", "name": "R", "edges": rng.sample(pairs, min(river_pairs, len(pairs)))}]
    return data


def random_track(rng, core: RailCore, rail: dict[str, Any], players, count: int) -> None:
    """Give random players random sections (test setup, not builds): hex pairs that can hold track."""
    candidates = []
    for u, entries in enumerate(core.out):
        for v, key, kind, sc, _base, _link in entries:
            if u < v and kind == 0 and sc is not None:
                candidates.append(key)
    for key in rng.sample(candidates, min(count, len(candidates))):
        rail["track"][key] = rng.choice(list(players))
