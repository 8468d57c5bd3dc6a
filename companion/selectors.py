"""Reads for the companion: the board in the engine's own data format."""

from __future__ import annotations

from typing import Any

from games.errors import ServiceError

from .models import Board

BOARD_FORMAT = "junction/wood-and-steel-board@1"


def board_default() -> Board:
    board = Board.objects.filter(is_default=True).first()
    if board is None:
        raise ServiceError("no-default-board", "No default Wood and Steel board is loaded; run the migrations.", status=503)
    return board


def board_data(board: Board) -> dict[str, Any]:
    """The board as the rules engine reads it (games/engines/wood_and_steel/board.json format)."""
    cities = list(board.cities.prefetch_related("commodities").order_by("name"))
    by_id = {c.id: c.name for c in cities}
    return {
        "format": BOARD_FORMAT,
        "name": board.name,
        "image": {"width": board.image_width, "height": board.image_height},
        "sections": board.sections,
        "regions": board.regions,
        "tie_matrix": board.tie_matrix,
        "commodities": sorted(board.commodities.values_list("name", flat=True)),
        "cities": [
            {
                "name": c.name, "code": c.code, "state": c.state, "country": c.country, "region": c.region,
                "label": c.label or c.name, "lat": c.latitude, "lon": c.longitude, "x": c.x, "y": c.y,
                "large": c.large, "west_coast": c.west_coast, "east_coast": c.east_coast,
                "near_west_coast": c.near_west_coast, "near_east_coast": c.near_east_coast,
                "commodities": sorted(m.name for m in c.commodities.all()),
            }
            for c in cities
        ],
        "routes": [
            {"a": by_id[r.city_a_id], "b": by_id[r.city_b_id], "length": r.length, "mountainous": r.mountainous}
            for r in board.routes.order_by("id")
        ],
        "starting_routes": board.starting_routes,
        **({"avoid_cities": board.avoid_cities} if board.avoid_cities else {}),
    }
