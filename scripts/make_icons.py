"""Draw the installable companion's icons from one description of the mark.

Writes beside the other images in static/img/ (the outputs are committed; run this again after
changing ICON):

    icon.svg               the mark, any size (manifest icon and the source of truth to look at)
    icon-192.png           rounded square, transparent corners (manifest, purpose "any")
    icon-512.png           the same at 512 px
    icon-maskable-512.png  full-bleed square, the mark inside the central safe circle (purpose
                           "maskable": launchers cut it to their own shape)
    icon-180.png           full-bleed square for iOS's home screen (apple-touch-icon)

The mark is static/img/favicon.svg's: two tracks meeting at a junction. Shapes are given in a
64 x 64 box; PNGs are drawn here with signed distances (anti-aliased edges) and written with
zlib alone, so no imaging library is needed. Same input, same bytes.

    python scripts/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "img"

BOX = 64.0
ICON = {
    "background": "#1f4e5f",
    "radius": 14.0,  # the rounded square's corners (the "any" icons; maskable ones are full bleed)
    "layers": [
        # Rails: a straight line and a branch curving in from the left.
        {"stroke": "#f4efe3", "width": 4.0, "paths": [
            [("M", 38, 8), ("L", 38, 56)],
            [("M", 48, 8), ("L", 48, 56)],
            [("M", 10, 56), ("C", 10, 38, 22, 30, 38, 26)],
            [("M", 20, 56), ("C", 20, 44, 28, 38, 38, 36)],
        ]},
        # Ties.
        {"stroke": "#e0a43a", "width": 3.0, "paths": [
            [("M", 35, 14), ("L", 51, 14)],
            [("M", 35, 24), ("L", 51, 24)],
            [("M", 35, 44), ("L", 51, 44)],
            [("M", 14, 46), ("L", 24, 49)],
        ]},
        # The switch lamp.
        {"fill": "#e0a43a", "circles": [(43, 34, 5)]},
    ],
}

# (file, size in px, full bleed?, the mark's scale about the centre)
PNGS = [
    ("icon-192.png", 192, False, 1.0),
    ("icon-512.png", 512, False, 1.0),
    # Maskable: everything that matters within the circle of radius 0.4 x size about the centre
    # (the mark's farthest point, a rail's end, is 0.37 x size out at this scale).
    ("icon-maskable-512.png", 512, True, 0.7),
    ("icon-180.png", 180, True, 0.9),
]


# ---- SVG -----------------------------------------------------------------------------------


def _num(v: float) -> str:
    return f"{v:g}"


def path_d(path) -> str:
    parts = []
    for op, *coords in path:
        parts.append(op + " ".join(_num(c) for c in coords))
    return " ".join(parts)


def svg_text(icon: dict) -> str:
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Junction">',
        "  <title>Junction</title>",
        "  <!-- Drawn by scripts/make_icons.py: edit ICON there and run it again. -->",
        f'  <rect width="64" height="64" rx="{_num(icon["radius"])}" fill="{icon["background"]}"/>',
    ]
    for layer in icon["layers"]:
        if "stroke" in layer:
            lines.append(f'  <g fill="none" stroke="{layer["stroke"]}" stroke-width="{_num(layer["width"])}" stroke-linecap="round">')
            lines += [f'    <path d="{path_d(p)}"/>' for p in layer["paths"]]
            lines.append("  </g>")
        for cx, cy, r in layer.get("circles", []):
            lines.append(f'  <circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="{layer["fill"]}"/>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


# ---- raster --------------------------------------------------------------------------------


def rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def flatten(path, steps: int = 32) -> list[tuple[float, float]]:
    """A path of M, L and C commands as a polyline (cubic curves cut into ``steps`` pieces)."""
    points: list[tuple[float, float]] = []
    for op, *c in path:
        if op in ("M", "L"):
            points.append((c[0], c[1]))
        elif op == "C":
            x0, y0 = points[-1]
            for i in range(1, steps + 1):
                t = i / steps
                u = 1 - t
                a, b, cc, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                points.append((a * x0 + b * c[0] + cc * c[2] + d * c[4], a * y0 + b * c[1] + cc * c[3] + d * c[5]))
        else:
            raise ValueError(f"unknown path command {op}")
    return points


class Canvas:
    """RGBA, premultiplied, floats; shapes are covered by distance (one pixel of soft edge)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]

    def paint(self, coverage: dict[int, float], colour: str) -> None:
        r, g, b = rgb(colour)
        for i, a in coverage.items():
            if a <= 0:
                continue
            p = self.px[i]
            keep = 1 - a
            p[0] = r * a + p[0] * keep
            p[1] = g * a + p[1] * keep
            p[2] = b * a + p[2] * keep
            p[3] = a + p[3] * keep

    def png(self) -> bytes:
        rows = bytearray()
        n = self.size
        for y in range(n):
            rows.append(0)  # filter: none
            for x in range(n):
                r, g, b, a = self.px[y * n + x]
                if a > 0:
                    r, g, b = r / a, g / a, b / a
                rows += bytes(round(max(0.0, min(1.0, v)) * 255) for v in (r, g, b, a))

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", n, n, 8, 6, 0, 0, 0)  # 8-bit RGBA
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def _cover(sd: float) -> float:
    """Coverage of a pixel whose centre is ``sd`` pixels outside a shape's edge (negative: inside)."""
    return max(0.0, min(1.0, 0.5 - sd))


def cover_shape(coverage: dict[int, float], size: int, box: tuple[float, float, float, float], pad: float, sd_at) -> None:
    """Union into ``coverage`` (pixel index -> 0..1) a shape given by its signed distance
    ``sd_at(x, y)``, looking only at the pixels of ``box`` (x0, y0, x1, y1) widened by ``pad``."""
    x0, y0, x1, y1 = box
    for y in range(max(0, int(min(y0, y1) - pad)), min(size, int(max(y0, y1) + pad) + 2)):
        for x in range(max(0, int(min(x0, x1) - pad)), min(size, int(max(x0, x1) + pad) + 2)):
            c = _cover(sd_at(x + 0.5, y + 0.5))
            i = y * size + x
            if c > coverage.get(i, 0.0):
                coverage[i] = c


def draw(icon: dict, size: int, full_bleed: bool, scale: float) -> Canvas:
    canvas = Canvas(size)
    k = size / BOX

    def to_px(u: float, v: float) -> tuple[float, float]:
        return ((u - BOX / 2) * scale + BOX / 2) * k, ((v - BOX / 2) * scale + BOX / 2) * k

    # The background: a rounded square, or the whole square for full-bleed icons.
    background: dict[int, float] = {}
    half = size / 2
    radius = 0.0 if full_bleed else icon["radius"] * k
    for y in range(size):
        for x in range(size):
            qx = abs(x + 0.5 - half) - (half - radius)
            qy = abs(y + 0.5 - half) - (half - radius)
            sd = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - radius
            background[y * size + x] = _cover(sd)
    canvas.paint(background, icon["background"])

    for layer in icon["layers"]:
        coverage: dict[int, float] = {}
        if "stroke" in layer:
            w = layer["width"] * k * scale / 2
            for path in layer["paths"]:
                pts = [to_px(*p) for p in flatten(path)]
                for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
                    dx, dy = bx - ax, by - ay
                    length2 = dx * dx + dy * dy or 1e-12

                    def capsule(px, py, ax=ax, ay=ay, dx=dx, dy=dy, length2=length2, w=w):
                        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                        return math.hypot(px - ax - t * dx, py - ay - t * dy) - w

                    cover_shape(coverage, size, (ax, ay, bx, by), w + 1, capsule)
        for cx, cy, r in layer.get("circles", []):
            pcx, pcy = to_px(cx, cy)
            pr = r * k * scale
            cover_shape(coverage, size, (pcx - pr, pcy - pr, pcx + pr, pcy + pr), 1, lambda px, py, pcx=pcx, pcy=pcy, pr=pr: math.hypot(px - pcx, py - pcy) - pr)
        canvas.paint(coverage, layer.get("stroke") or layer["fill"])
    return canvas


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg_text(ICON))
    print("wrote", OUT / "icon.svg")
    for name, size, full_bleed, scale in PNGS:
        (OUT / name).write_bytes(draw(ICON, size, full_bleed, scale).png())
        print("wrote", OUT / name)


if __name__ == "__main__":
    main()
