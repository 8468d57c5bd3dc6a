"""Draw ``data/map.json`` as an SVG preview of both layers (for curating the map; not shipped).

    python -m games.engines.runerail.scripts.draw_world [--out var/runerail-world.svg] [--size 10]

The surface on top (terrain, sea, region borders, rivers, inlets, cities, ports, gates, the Ley
Line and the Prism Bridge), the Deepways below it at the same scale over a faint outline of the
land. ``var/`` is git-ignored. To look at it as a picture::

    chromium --headless --no-sandbox --disable-gpu --screenshot=/tmp/world.png \\
        --window-size=1200,1800 file://$PWD/var/runerail-world.svg
"""

from __future__ import annotations

import argparse
import math
from html import escape
from pathlib import Path
from typing import Any

from games.engines.rail_core import hexgrid

from ._common import DATA, REPO, read_json

LAYOUT = "odd-r"
SQRT3 = math.sqrt(3.0)
COLOURS = {
    "plain": "#d6e6a4", "desert": "#efd99c", "forest": "#6fa860", "mountain": "#a8907a", "jungle": "#3e8a55",
    "alpine": "#f4f7fa", "volcano": "#c0513a", "underground": "#7a6656",
}
SEA, INLAND_SEA, RIVER, INLET = "#a9cfe9", "#93c2e3", "#2f6fb5", "#5b9bd6"


def _corners(q: int, r: int) -> list[tuple[int, int]]:
    cx, cy = 2 * q + (r & 1), 3 * r
    return [(cx + 1, cy - 1), (cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1), (cx, cy - 2)]


class Canvas:
    def __init__(self, size: float, dx: float, dy: float) -> None:
        self.size, self.dx, self.dy = size, dx, dy

    def centre(self, q: int, r: int) -> tuple[float, float]:
        x, y = hexgrid.pixel(LAYOUT, q, r, self.size)
        return x + self.dx, y + self.dy

    def corner(self, k: tuple[int, int]) -> tuple[float, float]:
        return k[0] * SQRT3 / 2 * self.size + self.dx, k[1] / 2 * self.size + self.dy

    def hex(self, q: int, r: int, fill: str, extra: str = "") -> str:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (self.corner(k) for k in _corners(q, r)))
        return f'<polygon points="{pts}" fill="{fill}"{extra}/>'

    def side(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
        k1, k2 = sorted(set(_corners(*a)) & set(_corners(*b)))
        return self.corner(k1), self.corner(k2)


def _line(p1: tuple[float, float], p2: tuple[float, float], colour: str, width: float, extra: str = "") -> str:
    return (f'<line x1="{p1[0]:.1f}" y1="{p1[1]:.1f}" x2="{p2[0]:.1f}" y2="{p2[1]:.1f}" stroke="{colour}" '
            f'stroke-width="{width}" stroke-linecap="round"{extra}/>')


def _text(x: float, y: float, s: str, size: float, weight: str = "normal", anchor: str = "middle",
          colour: str = "#222") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="Georgia, serif" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{colour}" stroke="#fff" stroke-width="2.5" paint-order="stroke">{escape(s)}</text>')


def draw(data: dict[str, Any], size: float = 10.0) -> str:
    w, h = data["board"]["width"], data["board"]["height"]
    pw, ph = (w + 1) * SQRT3 * size, (h * 1.5 + 1) * size
    top = Canvas(size, size, size + 24)
    deep = Canvas(size, size, ph + 2 * size + 60)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw + 2 * size:.0f}" height="{2 * ph + 100:.0f}" '
           f'viewBox="0 0 {pw + 2 * size:.0f} {2 * ph + 100:.0f}">', '<rect width="100%" height="100%" fill="#fbf8f0"/>',
           _text(12, 18, f"{data['name']} — the surface", 16, "bold", "start")]
    nodes = {tuple(n["at"]): n for n in data["nodes"]}
    inland = {tuple(p) for p in data.get("sea_regions", {}).get("inland-sea", [])}
    for p in data["sea"]:
        out.append(top.hex(p[1], p[2], INLAND_SEA if tuple(p) in inland else SEA))
    for (layer, q, r), n in nodes.items():
        if layer == 0:
            out.append(top.hex(q, r, COLOURS[n["terrain"]], ' stroke="#00000014" stroke-width="0.5"'))
    # region borders
    for (layer, q, r), n in nodes.items():
        if layer != 0:
            continue
        for nq, nr in hexgrid.neighbours(LAYOUT, q, r):
            m = nodes.get((0, nq, nr))
            if m is not None and (q, r) < (nq, nr) and m["region"] != n["region"]:
                out.append(_line(*top.side((q, r), (nq, nr)), "#5a4030", 1.1, ' stroke-dasharray="2,2"'))
    for group in data["crossings"]:
        colour, width = (RIVER, 2.2) if group["kind"] == "river" else (INLET, 4.0)
        for a, b in group["edges"]:
            out.append(_line(*top.side(tuple(a[1:]), tuple(b[1:])), colour, width))
    # cities
    cities = {c["id"]: c for c in data["cities"]}
    members: dict[str, list[tuple[int, int]]] = {}
    for (_layer, q, r), n in nodes.items():
        if n.get("city"):
            members.setdefault(n["city"], []).append((q, r))
    labels = []
    for cid, cells in members.items():
        c = cities[cid]
        xs = [top.centre(*x) for x in cells]
        cx, cy = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
        if c["size"] == "major":
            for x in cells:
                out.append(top.hex(*x, "#d9473c", ' fill-opacity="0.55" stroke="#8a1f17" stroke-width="0.8"'))
            labels.append(_text(cx, cy - 2.2 * size, c["name"], 12, "bold"))
        elif c["size"] == "medium":
            out.append(f'<rect x="{cx - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="#fff" stroke="#8a1f17" stroke-width="1.6"/>')
            labels.append(_text(cx, cy - 6.5, c["name"], 10, "bold"))
        else:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.4" fill="#fff" stroke="#8a1f17" stroke-width="1.4"/>')
            labels.append(_text(cx, cy - 6, c["name"], 9))
    for (layer, q, r), n in nodes.items():
        if layer == 0 and n.get("port"):
            x, y = top.centre(q, r)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.75:.1f}" fill="none" stroke="#0b3d91" stroke-width="1.6" stroke-dasharray="2,1.5"/>')
    # links
    for group in data["links"]:
        a, b = group["edges"][0]
        if group["kind"] == "entrance":
            for canvas, at in ((top, a), (deep, b)):
                x, y = canvas.centre(at[1], at[2])
                s = size * 0.7
                out.append(f'<polygon points="{x},{y - s} {x + s},{y} {x},{y + s} {x - s},{y}" fill="#222" stroke="#fff" stroke-width="1"/>')
                labels.append(_text(x, y + 2.2 * size, group["name"], 9, "bold", colour="#111"))
            continue
        ends = []
        for side in (0, 1):
            pts = {tuple(e[side]) for e in group["edges"]}
            xs = [top.centre(p[1], p[2]) for p in pts]
            ends.append((sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)))
        colour = "#7b3fb0" if group["kind"] == "magic" else "#e08a00"
        dash = "6,4" if group.get("enabled", True) else "3,5"
        out.append(_line(ends[0], ends[1], colour, 2.4, f' stroke-dasharray="{dash}" opacity="0.85"'))
        mx, my = (ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2
        state = "" if group.get("enabled", True) else " (closed)"
        labels.append(_text(mx, my - 4, group["name"] + state, 10, "bold", colour=colour))
    # river and inlet names at their middle edge
    for group in data["crossings"]:
        a, b = group["edges"][len(group["edges"]) // 2]
        (x1, y1), (x2, y2) = top.side(tuple(a[1:]), tuple(b[1:]))
        labels.append(_text((x1 + x2) / 2, (y1 + y2) / 2 + 12, group["name"], 8, "normal", colour="#1d4f8a"))
    # the Deepways
    out.append(_text(12, ph + 2 * size + 46, "The Deepways (layer 1), under the land's outline", 16, "bold", "start"))
    for (layer, q, r) in nodes:
        if layer == 0:
            out.append(deep.hex(q, r, "#ece6da"))
    for (layer, q, r), n in nodes.items():
        if layer == 1:
            out.append(deep.hex(q, r, COLOURS[n["terrain"]], ' stroke="#00000030" stroke-width="0.5"'))
    out.extend(labels)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "var" / "runerail-world.svg")
    parser.add_argument("--size", type=float, default=10.0)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(draw(read_json(DATA / "map.json"), args.size), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
