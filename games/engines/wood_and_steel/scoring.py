"""Railroad ties: pure scoring rules and the per-player breakdown."""

from __future__ import annotations

from typing import Any

from ..rng import Rng
from .board import Board
from .railroads import round_half_up

# Monopoly table (the rules' table, not the text's "1 or 2 ties"), keyed by producer count.
MONOPOLY_TIES = {4: 2, 5: 3, 6: 4}
MONOPOLY_CHANCE = {4: 40, 5: 50, 6: 60}
BANKRUPTCY_TIES = 5
CHALLENGER_TIES = 2


def breadth_bonus(distinct: int) -> int:
    """First 8 different commodities 1 tie each, the next 4 two each, the rest three each."""
    return min(distinct, 8) + 2 * min(max(distinct - 8, 0), 4) + 3 * max(distinct - 12, 0)


def depth_bonus(most: int, rule: str = "times") -> int:
    """Bonus for repeat deliveries of the most delivered commodity (``most`` deliveries).

    ``times`` (default): nothing for a single delivery, otherwise one plus the deliveries
    beyond the first, i.e. ``most``. ``literal``: one plus ``most`` once it is at least 2.
    """
    if most < 2:
        return 0
    return most if rule == "times" else most + 1


# Connection bonuses: the rules say only that the ties are "based on the length of track
# required". Track is counted in segments, and a segment is a route (issue 18): one tie per
# 2 routes of the shortest connection (at least 1), between cities 4-8 routes apart. The
# old reading (games started before issue 18): one tie per 6 units of route length, 10-20
# units apart. Both give coast to coast 3 ties on the default board.
CONNECTION_SCALE = {"route": (2, 4, 8), "length": (6, 10, 20)}  # unit: (per tie, nearest, farthest)


def connection_ties(segments: int, unit: str = "length") -> int:
    """Ties for a connection bonus of ``segments`` segments (routes, or units of length with
    ``unit='length'``): one per 2 routes (6 units of length), rounded half up, at least 1."""
    return max(1, round_half_up(segments, CONNECTION_SCALE[unit][0]))


def generate_connection_bonuses(board: Board, rng: Rng, count: int, unit: str = "length") -> list[dict[str, Any]]:
    """The coast-to-coast bonus (when the board marks coasts) plus random city pairs in
    different sections, far from being trivially connected: 4-8 routes apart (``unit='route'``,
    the rules' segments) or 10-20 units of route length (games started before issue 18).
    A bonus's ``segments`` is the length of the shortest connection in that unit."""
    dist = board.hop if unit == "route" else board.seg
    _per, near, far = CONNECTION_SCALE[unit]
    bonuses: list[dict[str, Any]] = []
    east = [c for c in board.names if board.cities[c]["east_coast"]]
    west = [c for c in board.names if board.cities[c]["west_coast"]]
    if count <= 0:
        return bonuses
    if east and west:
        segs = min(dist(a, b) for a in east for b in west)
        bonuses.append(
            {"id": 1, "name": "East Coast to West Coast", "a": east, "b": west, "segments": segs, "ties": connection_ties(segs, unit), "claimed_by": []}
        )
    pairs = []
    for i, a in enumerate(board.names):
        for b in board.names[i + 1 :]:
            if board.city_section[a] != board.city_section[b] and near <= dist(a, b) <= far:
                pairs.append((a, b))
    used: set[str] = set()
    while len(bonuses) < count and pairs:
        a, b = pairs.pop(rng.below(len(pairs)))
        if a in used or b in used:
            continue
        used.update((a, b))
        segs = dist(a, b)
        bonuses.append(
            {"id": len(bonuses) + 1, "name": f"{a} to {b}", "a": [a], "b": [b], "segments": segs, "ties": connection_ties(segs, unit), "claimed_by": []}
        )
    return bonuses


def regional_dominance(board: Board, players: list[dict[str, Any]], railroads: list[dict[str, Any]], ties: int) -> dict[int, list[dict[str, Any]]]:
    """End-of-game regional dominance: a player with a Regional Office for a region who is
    connected to at least half its cities (rounded up) and to more of them than any other
    player or independent railroad. Returns seat -> tie entries."""
    out: dict[int, list[dict[str, Any]]] = {}
    for region, cities in board.region_cities.items():
        city_set = set(cities)
        counts = {p["seat"]: len(city_set & set(p["network"])) for p in players}
        indie_counts = []
        for r in railroads:
            if r["acquired_by"] is None:
                cs = set()
                for rr in r["routes"]:
                    cs.update(board.route_cities(rr["route"]))
                indie_counts.append(len(cs & city_set))
        for p in players:
            if region not in p["regional_offices"]:
                continue
            mine = counts[p["seat"]]
            rivals = [c for s, c in counts.items() if s != p["seat"]] + indie_counts
            if 2 * mine >= len(cities) and all(mine > c for c in rivals):
                out.setdefault(p["seat"], []).append(
                    {"source": "regional-dominance", "ties": ties, "detail": f"Regional dominance in {board.regions[region]['label']} ({mine} of {len(cities)} cities)"}
                )
    return out


def tie_breakdown(player: dict[str, Any], depth_rule: str = "times") -> list[dict[str, Any]]:
    """Every tie a player holds, line by line (the final scoring screen uses this)."""
    lines = [dict(e) for e in player["tie_log"]]
    delivered = {k: n for k, n in player["deliveries"].items() if n > 0}
    if delivered:
        b = breadth_bonus(len(delivered))
        lines.append({"source": "breadth", "ties": b, "detail": f"{len(delivered)} different commodit{'y' if len(delivered) == 1 else 'ies'} delivered"})
        most_k = max(sorted(delivered), key=lambda k: delivered[k])
        d = depth_bonus(delivered[most_k], depth_rule)
        if d:
            lines.append({"source": "depth", "ties": d, "detail": f"{most_k} delivered {delivered[most_k]} times"})
    lines.extend(dict(e) for e in player.get("end_bonus", []))
    return lines


def total_ties(player: dict[str, Any], depth_rule: str = "times") -> int:
    return sum(line["ties"] for line in tie_breakdown(player, depth_rule))
