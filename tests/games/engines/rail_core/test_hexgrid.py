"""Hex geometry for both layouts: neighbour tables, distance, pixel positions."""

from __future__ import annotations

import math
from collections import deque

import pytest

from games.engines.rail_core import hexgrid

# The reference map's own description of its flat-top grid (x = q, y = r, north = +y):
# "N(0,+1) S(0,-1); even x: NE(+1,0) NW(-1,0) SE(+1,-1) SW(-1,-1); odd x: NE(+1,+1) NW(-1,+1) SE(+1,0) SW(-1,0)"
ODD_Q_UP = {
    0: {"N": (0, 1), "NE": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "NW": (-1, 0)},
    1: {"N": (0, 1), "NE": (1, 1), "SE": (1, 0), "S": (0, -1), "SW": (-1, 0), "NW": (-1, 1)},
}
# Red Blob Games' odd-r offsets (rows counted downward, odd rows shoved right).
ODD_R = {
    0: {"E": (1, 0), "NE": (0, -1), "NW": (-1, -1), "W": (-1, 0), "SW": (-1, 1), "SE": (0, 1)},
    1: {"E": (1, 0), "NE": (1, -1), "NW": (0, -1), "W": (-1, 0), "SW": (0, 1), "SE": (1, 1)},
}


@pytest.mark.parametrize("q,r", [(0, 0), (1, 0), (4, 7), (5, 7), (10, 3), (-3, 2), (-2, -5)])
def test_odd_q_up_neighbours_match_the_reference_table(q, r):
    table = ODD_Q_UP[q & 1]
    got = hexgrid.neighbours("odd-q-up", q, r)
    assert got == tuple((q + dq, r + dr) for dq, dr in (table[d] for d in hexgrid.DIRECTION_NAMES["odd-q-up"]))
    for name, (dq, dr) in table.items():
        assert hexgrid.direction("odd-q-up", (q, r), (q + dq, r + dr)) == name


@pytest.mark.parametrize("q,r", [(0, 0), (0, 1), (4, 7), (5, 6), (-3, 3), (-2, -5)])
def test_odd_r_neighbours_match_red_blob(q, r):
    table = ODD_R[r & 1]
    got = hexgrid.neighbours("odd-r", q, r)
    assert got == tuple((q + dq, r + dr) for dq, dr in (table[d] for d in hexgrid.DIRECTION_NAMES["odd-r"]))


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_neighbourhood_is_symmetric_and_axial_round_trips(layout):
    for q in range(-4, 5):
        for r in range(-4, 5):
            assert hexgrid.from_axial(layout, *hexgrid.to_axial(layout, q, r)) == (q, r)
            for n in hexgrid.neighbours(layout, q, r):
                assert (q, r) in hexgrid.neighbours(layout, *n)
            assert len(set(hexgrid.neighbours(layout, q, r))) == 6


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_distance_equals_breadth_first_steps(layout):
    origin = (1, 2)
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        p = queue.popleft()
        if seen[p] >= 7:
            continue
        for n in hexgrid.neighbours(layout, *p):
            if n not in seen:
                seen[n] = seen[p] + 1
                queue.append(n)
    assert len(seen) == 1 + 3 * 7 * 8  # a hexagon of radius 7
    for p, steps in seen.items():
        assert hexgrid.distance(layout, origin, p) == steps
        assert hexgrid.distance(layout, p, origin) == steps


@pytest.mark.parametrize("layout", hexgrid.LAYOUTS)
def test_pixel_centres_of_neighbours_are_one_hex_width_apart(layout):
    size = 10.0
    for q, r in [(0, 0), (3, 4), (4, 3)]:
        x, y = hexgrid.pixel(layout, q, r, size)
        for n in hexgrid.neighbours(layout, q, r):
            nx, ny = hexgrid.pixel(layout, *n, size)
            assert math.isclose(math.hypot(nx - x, ny - y), math.sqrt(3) * size)
        corners = hexgrid.corners(layout, x, y, size)
        assert len(corners) == 6
        assert all(math.isclose(math.hypot(cx - x, cy - y), size) for cx, cy in corners)


def test_odd_q_up_draws_north_at_the_top_and_odd_r_rows_downward():
    _, y_south = hexgrid.pixel("odd-q-up", 2, 0)
    _, y_north = hexgrid.pixel("odd-q-up", 2, 1)
    assert y_north < y_south  # screen y grows downward
    _, y_row0 = hexgrid.pixel("odd-r", 2, 0)
    _, y_row1 = hexgrid.pixel("odd-r", 2, 1)
    assert y_row1 > y_row0


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="unknown hex layout"):
        hexgrid.neighbours("pointy", 0, 0)
