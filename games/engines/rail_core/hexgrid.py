"""Hex geometry for the two milepost layouts the rail games use.

A milepost sits at offset coordinates ``(q, r)`` on one layer. Two layouts:

``"odd-q-up"``
    Flat-top hexes in columns. ``q`` is the column (growing east), ``r`` the row
    counted *upward* (growing north); odd columns sit half a hex further north.
    Neighbours, in the order N, NE, SE, S, SW, NW::

        even q: (0,+1) (+1, 0) (+1,-1) (0,-1) (-1,-1) (-1, 0)
        odd q:  (0,+1) (+1,+1) (+1, 0) (0,-1) (-1, 0) (-1,+1)

``"odd-r"``
    Pointy-top hexes in rows, Red Blob Games' "odd-r": ``q`` is the column
    (growing east), ``r`` the row counted *downward*; odd rows are shoved half a
    hex east. Neighbours, in the order E, NE, NW, W, SW, SE::

        even r: (+1, 0) ( 0,-1) (-1,-1) (-1, 0) (-1,+1) ( 0,+1)
        odd r:  (+1, 0) (+1,-1) ( 0,-1) (-1, 0) ( 0,+1) (+1,+1)

Both convert to axial coordinates whose six directions are the same set, so one
distance formula serves both. Pixel positions are for drawing: ``y`` grows
downward (screen coordinates) in both layouts, so an ``odd-q-up`` map has north
at the top.
"""

from __future__ import annotations

import math

LAYOUTS = ("odd-q-up", "odd-r")

# Axial direction vectors, in each layout's documented neighbour order.
_AXIAL_DIRECTIONS = {
    # N, NE, SE, S, SW, NW (axial r grows northward with the offset row)
    "odd-q-up": ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)),
    # E, NE, NW, W, SW, SE (axial r grows southward with the offset row)
    "odd-r": ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
}
DIRECTION_NAMES = {
    "odd-q-up": ("N", "NE", "SE", "S", "SW", "NW"),
    "odd-r": ("E", "NE", "NW", "W", "SW", "SE"),
}
SQRT3 = math.sqrt(3.0)


def check_layout(layout: str) -> None:
    if layout not in _AXIAL_DIRECTIONS:
        raise ValueError(f"unknown hex layout {layout!r}; expected one of {', '.join(LAYOUTS)}")


def to_axial(layout: str, q: int, r: int) -> tuple[int, int]:
    """Offset ``(q, r)`` → axial ``(aq, ar)``."""
    if layout == "odd-q-up":
        return q, r - (q >> 1)
    if layout == "odd-r":
        return q - (r >> 1), r
    check_layout(layout)
    raise AssertionError  # pragma: no cover


def from_axial(layout: str, aq: int, ar: int) -> tuple[int, int]:
    """Axial ``(aq, ar)`` → offset ``(q, r)``."""
    if layout == "odd-q-up":
        return aq, ar + (aq >> 1)
    if layout == "odd-r":
        return aq + (ar >> 1), ar
    check_layout(layout)
    raise AssertionError  # pragma: no cover


def neighbours(layout: str, q: int, r: int) -> tuple[tuple[int, int], ...]:
    """The six offset positions around ``(q, r)``, in the layout's direction order."""
    aq, ar = to_axial(layout, q, r)
    return tuple(from_axial(layout, aq + dq, ar + dr) for dq, dr in _AXIAL_DIRECTIONS[layout])


def direction(layout: str, a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The name of the direction from ``a`` to its neighbour ``b`` (None if not adjacent)."""
    for name, pos in zip(DIRECTION_NAMES[layout], neighbours(layout, *a), strict=True):
        if pos == tuple(b):
            return name
    return None


def distance(layout: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex steps between offset positions ``a`` and ``b`` on one layer."""
    aq, ar = to_axial(layout, a[0], a[1])
    bq, br = to_axial(layout, b[0], b[1])
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def pixel(layout: str, q: int, r: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of the hex at ``(q, r)`` for hexes of ``size`` (centre to corner); y grows downward."""
    if layout == "odd-q-up":
        return 1.5 * size * q, -SQRT3 * size * (r + 0.5 * (q & 1))
    if layout == "odd-r":
        return SQRT3 * size * (q + 0.5 * (r & 1)), 1.5 * size * r
    check_layout(layout)
    raise AssertionError  # pragma: no cover


def corners(layout: str, x: float, y: float, size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corners of the hex centred at pixel ``(x, y)`` (flat-top or pointy-top by layout)."""
    check_layout(layout)
    offset = 0.0 if layout == "odd-q-up" else 30.0
    out = []
    for i in range(6):
        angle = math.radians(60.0 * i - offset)
        out.append((x + size * math.cos(angle), y + size * math.sin(angle)))
    return tuple(out)
