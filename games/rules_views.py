"""How to play: one rules page per title (``/rules/<kind>/``, templates/rules/<kind>.html) and
an index (``/rules/``). The words are the project's own; the numbers, the options and the
pictures come from the engines' data, so a page cannot drift from the rules it describes:
the options section is the engine's ``options`` (label, help, every choice), and each title's
template has one entry per command of the engine (``data-command``; tests/games/test_rules_pages.py
checks them against ``Engine.command_specs()``)."""

from __future__ import annotations

import math
from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template

from .clocks import expiries_keep
from .engines.base import Option, RulesError
from .engines.registry import all_engines, get_engine

# The shapes and fills static/js/railmap.js draws a map's marks with (its SHAPES, OTHER_SHAPES,
# OTHER_FILLS and static/css/railmap.css): the legends draw the same marks.
MARK_SIZE = 10  # railmap.js SIZE
OTHER_SHAPES = ("square", "diamond", "plus", "bar", "pentagon", "star")
OTHER_FILLS = ("#3f7a34", "#2f6f8f", "#8a6a1d", "#6b4a8a", "#8a3b3b", "#406060")
CLEAR_FILL = "#6b655c"  # .rm-clear
MOUNTAIN_FILL = "#7d5a3c"  # .rm-mountain
# Locomotive Werks' colours as its page draws them (junction.css --green, --red, --yellow, --blue).
LW_FILLS = {"green": "#2e8b57", "red": "#c0392b", "yellow": "#e0b400", "blue": "#2467b0"}


def _option_json(option: Option) -> dict[str, Any]:
    data = option.to_json()
    if option.type == "choice":
        data["choice_rows"] = [
            {"value": value, "label": label, "default": value == option.default}
            for value, label in zip(option.choices, data["choice_labels"], strict=True)
        ]
    return data


def _fmt(v: float) -> str:
    return f"{round(v * 100) / 100:g}"


def _polygon(points: list[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{_fmt(x)} {_fmt(y)}" for x, y in points) + "Z"


def _regular(x: float, y: float, r: float, n: int, turn: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(turn + 2 * math.pi * i / n), y + r * math.sin(turn + 2 * math.pi * i / n)) for i in range(n)]


def _circle(x: float, y: float, r: float) -> str:
    return f"M{_fmt(x - r)} {_fmt(y)}a{_fmt(r)} {_fmt(r)} 0 1 0 {_fmt(2 * r)} 0a{_fmt(r)} {_fmt(r)} 0 1 0 {_fmt(-2 * r)} 0Z"


def mark_path(shape: str, x: float = 10, y: float = 10) -> str:
    """The SVG path railmap.js draws for a terrain mark of ``shape`` centred at (x, y)."""
    s = MARK_SIZE
    if shape == "dot":
        return _circle(x, y, 0.17 * s)
    if shape == "mountain":
        return _polygon([(x, y - 0.42 * s), (x + 0.4 * s, y + 0.26 * s), (x - 0.4 * s, y + 0.26 * s)])
    if shape == "square":
        h = 0.24 * s
        return _polygon([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)])
    if shape == "diamond":
        return _polygon(_regular(x, y, 0.34 * s, 4, -math.pi / 2))
    if shape == "plus":
        a, b = 0.1 * s, 0.32 * s
        return _polygon([(x - a, y - b), (x + a, y - b), (x + a, y - a), (x + b, y - a), (x + b, y + a), (x + a, y + a),
                         (x + a, y + b), (x - a, y + b), (x - a, y + a), (x - b, y + a), (x - b, y - a), (x - a, y - a)])
    if shape == "bar":
        w, h = 0.36 * s, 0.12 * s
        return _polygon([(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)])
    if shape == "pentagon":
        return _polygon(_regular(x, y, 0.3 * s, 5, -math.pi / 2))
    if shape == "star":
        outer = _regular(x, y, 0.38 * s, 5, -math.pi / 2)
        inner = _regular(x, y, 0.16 * s, 5, -math.pi / 2 + math.pi / 5)
        return _polygon([p for pair in zip(outer, inner, strict=True) for p in pair])
    raise ValueError(shape)


def terrain_marks(map_data: dict[str, Any], layer: int, costs: dict[str, Any]) -> list[dict[str, Any]]:
    """The terrain marks of one layer of a rail map as its page draws them: railmap.js marks every
    milepost but a small or medium city's, one shape per terrain (clear a dot, mountain a triangle,
    the others a shape and fill each in order of first use), with the terrain's build cost."""
    sizes = {c["id"]: c.get("size") for c in map_data["cities"]}
    order: list[str] = []
    for node in map_data["nodes"]:
        if node["at"][0] != layer or (node.get("city") and sizes.get(node["city"]) != "major"):
            continue
        terrain = node.get("terrain") or ""
        if terrain not in order:
            order.append(terrain)
    marks, other = [], 0
    for terrain in order:
        if terrain == "clear":
            shape, fill = "dot", CLEAR_FILL
        elif terrain == "mountain":
            shape, fill = "mountain", MOUNTAIN_FILL
        else:
            shape, fill = OTHER_SHAPES[other % len(OTHER_SHAPES)], OTHER_FILLS[other % len(OTHER_FILLS)]
            other += 1
        marks.append({"terrain": terrain, "shape": shape, "fill": fill, "d": mark_path(shape), "cost": costs.get(terrain)})
    return marks


def _locomotive_werks() -> dict[str, Any]:
    from .engines.locomotive_werks import data

    spaces = [{"space": s.space, "color": s.color, "fill": LW_FILLS[s.color], "type": data.COLOR_NAMES[s.color],
               "generation": s.generation, "cost": s.cost, "production": s.production,
               "published": s.published_production, "income": s.income, "boxes": s.customer_base, "cards": s.cards}
              for s in data.SPACES]
    return {"spaces": spaces, "total_cards": data.TOTAL_CARDS, "physical_dice": data.PHYSICAL_DICE}


def _resourceful_rails() -> dict[str, Any]:
    from .engines.resourceful_rails import data

    rules = data.RULES
    return {"rules": rules, "d": data, "marks": terrain_marks(data.map_data(data.DEFAULT_MAP), 0, rules["terrain_cost"]),
            "town": _circle(10, 10, 5), "medium": _polygon([(3.8, 3.8), (16.2, 3.8), (16.2, 16.2), (3.8, 16.2)]),
            "major": _polygon(_regular(10, 10, 8.5, 6, math.pi / 6))}


def _runerail() -> dict[str, Any]:
    from .engines.runerail import data

    rules = data.RULES
    world = data.map_data()
    return {"rules": rules, "d": data,
            "surface": terrain_marks(world, 0, rules["terrain_cost"]),
            "deep": terrain_marks(world, data.DEEP_LAYER, rules["terrain_cost"]),
            "town": _circle(10, 10, 5), "medium": _polygon([(3.8, 3.8), (16.2, 3.8), (16.2, 16.2), (3.8, 16.2)]),
            "major": _polygon(_regular(10, 10, 8.5, 6, math.pi / 6))}


def _slipway() -> dict[str, Any]:
    from .engines.slipway import data

    content = {name: data.raw(name) for name in ("setup", "wheels", "ships")}
    setup = content["setup"]
    tiles = content["ships"]["tiles"]
    # A three-tile ship drawn from the data: the first bow, middle and stern tiles with a cabin or mount.
    ship = []
    for part in ("bow", "middle", "stern"):
        tile = next((t for t in tiles if t["part"] == part and (t["cabins"] or any(t["mounts"].values()))),
                    next(t for t in tiles if t["part"] == part))
        ship.append(tile)

    def costs(pieces: dict[str, Any]) -> dict[str, int]:  # the cheapest and the dearest, from the data
        values = [p["cost"] for p in pieces.values()]
        return {"low": min(values), "high": max(values)}

    return {"setup": setup, "wheels": content["wheels"], "ship": ship,
            "costs": {"ships": costs(data.ships()), "canals": costs(data.canals()), "employees": costs(data.employees())}}


def _wood_and_steel() -> dict[str, Any]:
    from .engines.wood_and_steel import rules

    return {"engines": [{"slug": s, "name": n, "distance": d, "cost": c} for s, n, d, c in rules.ENGINES],
            "upgrades": [{"slug": s, "name": s.replace("-", " ").capitalize(), "cost": c} for s, c in rules.UPGRADES.items()],
            "start_money": rules.START_MONEY, "track_per_turn": rules.TRACK_PER_TURN}


PICTURES = {
    "locomotive-werks": _locomotive_werks,
    "resourceful-rails": _resourceful_rails,
    "runerail": _runerail,
    "slipway": _slipway,
    "wood-and-steel": _wood_and_steel,
}


def rules_index(request):
    kinds = [e.describe() for e in all_engines()]
    return render(request, "rules/index.html", {"kinds": kinds})


def rules_page(request, kind: str):
    try:
        engine = get_engine(kind)
    except RulesError:
        raise Http404("No rules page for that game") from None
    context = {
        "engine": engine.describe(),
        "commands": [spec.to_json() for spec in engine.command_specs()],
        "options": [_option_json(o) for o in engine.options],
        "data": PICTURES[kind]() if kind in PICTURES else {},
        "expiries_keep": expiries_keep(),  # the clocks section: turns in a row before the bot keeps a seat
    }
    # A kind without a page of its own (a game master's or a test's engine) gets its commands' help.
    template = select_template([f"rules/{kind}.html", "rules/generic.html"])
    return render(request, template.template.name, context)
