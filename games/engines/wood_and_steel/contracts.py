"""Contract generation and contract values (pure functions over a Board).

Every random choice goes through the game's ``Rng``. Candidate (destination,
commodity) pairs are built explicitly, so a draw never loops and never returns a
pair that duplicates an open contract.
"""

from __future__ import annotations

from typing import Any

from ..rng import Rng
from .board import INF, Board

CONTRACT_UNIT = 3000  # dollars per hop from the nearest producer
DIRECTION_WEIGHTS = {"N": 3, "S": 3, "E": 7, "W": 7}
NEAR_EAST_WEIGHTS = {"N": 3, "S": 3, "E": 3, "W": 11}
NEAR_WEST_WEIGHTS = {"N": 3, "S": 3, "E": 11, "W": 3}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def contract_key(commodity: str, destination: str) -> str:
    return f"{commodity}|{destination}"


def contract_value(board: Board, commodity: str, destination: str) -> int:
    """$3,000 per hop from the destination to the nearest city producing the commodity."""
    hops = board.nearest[commodity][destination]
    return 0 if hops >= INF else CONTRACT_UNIT * hops


def contract_ties(board: Board, commodity: str, destination: str, rule: str = "section") -> int:
    """Railroad ties for delivering ``commodity`` to ``destination``.

    ``section`` (the rules): 1 if a producer is in the destination's section, 2 if the
    nearest producing section is adjacent, 3 otherwise. ``region-matrix`` (the designers'
    app): the minimum over the commodity's regions of the 1-4 region matrix.
    """
    producers = board.producers[commodity]
    if rule == "region-matrix" and board.tie_matrix:
        row = board.tie_matrix[board.city_region[destination]]
        return min(row[r] for r in board.commodity_regions[commodity])
    dest_section = board.city_section[destination]
    gap = min(board.section_distance(dest_section, board.city_section[p]) for p in producers)
    return min(3, 1 + gap)


def city_value(board: Board, city: str, stats: dict[str, Any], hubs: set[str]) -> int:
    """Destination weight.

    plain value = 2 x (1 + has commodities + large + 3 x west coast)
                  + 2 x deliveries made to the city
                  + 1 x deliveries of any commodity the city produces.
    A hub city adds the plain value of every neighbour that is not itself a hub.
    """
    value = _plain_value(board, city, stats)
    if city in hubs:
        value += sum(_plain_value(board, n, stats) for n in board.neighbours[city] if n not in hubs)
    return value


def _plain_value(board: Board, city: str, stats: dict[str, Any]) -> int:
    dest = stats.get("deliveries_to", {})
    by_commodity = stats.get("deliveries_of", {})
    value = board.base_value(city) + 2 * dest.get(city, 0)
    for k in board.cities[city]["commodities"]:
        value += by_commodity.get(k, 0)
    return value


def _weighted(rng: Rng, items: list[Any], weights: list[int]) -> Any:
    return items[rng.weighted_index(weights)]


def _bucket(board: Board, origins: list[str], candidates: list[str]) -> dict[str, list[str]]:
    buckets: dict[str, list[str]] = {d: [] for d in DIRECTION_WEIGHTS}
    for c in candidates:
        dirs = set()
        for o in origins:
            if o != c:
                dirs.add(board.direction(o, c))
        if not dirs:  # the origin itself (a hub that is also the current city)
            dirs = set(DIRECTION_WEIGHTS)
        for d in dirs:
            buckets[d].append(c)
    for d in ("N", "E"):  # fill an empty bucket from its opposite and vice versa
        o = OPPOSITE[d]
        if not buckets[d] and buckets[o]:
            buckets[d] = list(buckets[o])
        elif not buckets[o] and buckets[d]:
            buckets[o] = list(buckets[d])
    return buckets


def _choose_direction(rng: Rng, buckets: dict[str, list[str]], weights: dict[str, int]) -> list[str]:
    dirs = [d for d in ("N", "E", "S", "W") if buckets[d]]
    if not dirs:
        return []
    return buckets[_weighted(rng, dirs, [weights[d] for d in dirs])]


def starting_contract(
    board: Board, rng: Rng, cities: list[str], exclude: set[str], stats: dict[str, Any], hubs: set[str]
) -> tuple[str, str] | None:
    """The first private contract for a player starting on ``cities`` (two cities).

    Candidates are the cities within two non-mountainous hops; direction from either
    start city (N 3 : S 3 : E 7 : W 7, or 50/50 when one axis is empty); commodity from the
    start cities, minus any produced by every candidate of that direction; destination
    weighted by city value among candidates not producing it.
    """
    candidates = board.within(cities, 2, route_ok=lambda r: not r["mountainous"])
    if not candidates:
        candidates = board.within(cities, 2)
    pool = sorted({k for c in cities for k in board.cities[c]["commodities"]})
    if not pool:
        pool = sorted({k for c in board.within(cities, 1, include_start=True) for k in board.cities[c]["commodities"]})
    buckets = _bucket(board, cities, candidates)
    has_ns = bool(buckets["N"] or buckets["S"])
    has_ew = bool(buckets["E"] or buckets["W"])
    weights = dict(DIRECTION_WEIGHTS)
    if not has_ns:
        weights = {"N": 0, "S": 0, "E": 1, "W": 1}
    elif not has_ew:
        weights = {"N": 1, "S": 1, "E": 0, "W": 0}
    options_by_dir = {}
    for d in ("N", "E", "S", "W"):
        group = buckets[d]
        if not group or not weights[d]:
            continue
        commodities = [k for k in pool if not all(k in board.cities[c]["commodities"] for c in group)]
        pairs = [
            (k, c)
            for k in commodities
            for c in group
            if k not in board.cities[c]["commodities"] and contract_key(k, c) not in exclude
        ]
        if pairs:
            options_by_dir[d] = (commodities, group)
    if options_by_dir:
        dirs = list(options_by_dir)
        d = _weighted(rng, dirs, [weights[x] for x in dirs])
        commodities, group = options_by_dir[d]
        while True:
            k = commodities[rng.below(len(commodities))]
            dests = [c for c in group if k not in board.cities[c]["commodities"] and contract_key(k, c) not in exclude]
            if dests:
                return k, _weighted(rng, dests, [city_value(board, c, stats, hubs) for c in dests])
    return fallback_pair(board, rng, cities, exclude, stats, hubs, pool=pool)


def private_contract(
    board: Board,
    rng: Rng,
    *,
    area: list[str],
    current: str | None = None,
    exclude: set[str],
    stats: dict[str, Any],
    hubs: set[str],
    own_hub: str | None = None,
    region: str | None = None,
    fulfilled_count: int = 0,
    monopolies: list[str] = (),
    last_destination: str | None = None,
    monopoly_chance: dict[str, int] | None = None,
) -> tuple[str, str] | None:
    """One private contract for a player whose cities are ``area`` (the engine passes the
    network plus the active cities, or the active cities only: option ``player_area``).

    * candidates: cities within 2 hops of any area city, not in the area (plus the player's
      own hub city, which is more likely because of its hub value);
    * direction from ``current`` (the player's current city: the last active city, i.e. the
      latest delivery, else the engine's starting city; default: the last of ``area``):
      N 3, S 3, E 7, W 7, or E 3/W 11 near the East Coast, E 11/W 3 near the West Coast; an
      empty bucket borrows its opposite;
    * destination weighted by city value; commodity uniform over those available at the area
      cities and their neighbours (or, for a regional-office offer, any commodity produced in
      that region), never produced at the destination;
    * after 3 fulfilled contracts, commodities under 2 hops away are dropped unless fewer than
      2 would remain (a soft floor);
    * a monopoly the player holds takes 40/50/60 % of the draw when the last delivery was within
      one hop of a producer of it.
    """
    active = area
    current = current or area[-1]
    candidates = set(board.within(active, 2))
    if own_hub:
        candidates.add(own_hub)
    if not candidates:
        candidates = set(board.names) - set(active)
    candidates = sorted(candidates)
    if region is not None:
        pool = sorted({k for c in board.region_cities[region] for k in board.cities[c]["commodities"]})
    else:
        pool = sorted({k for c in board.within(active, 1, include_start=True) for k in board.cities[c]["commodities"]})
    if not pool:
        pool = list(board.commodities)
    cur = board.cities[current]
    weights = NEAR_EAST_WEIGHTS if cur["near_east_coast"] else NEAR_WEST_WEIGHTS if cur["near_west_coast"] else DIRECTION_WEIGHTS

    def valid(k: str, c: str) -> bool:
        return k not in board.cities[c]["commodities"] and contract_key(k, c) not in exclude and board.nearest[k][c] < INF

    def pool_for(c: str) -> list[str]:
        ks = [k for k in pool if valid(k, c)]
        if fulfilled_count >= 3:
            far = [k for k in ks if board.nearest[k][c] >= 2]
            if len(far) >= 2:
                ks = far
        return ks

    usable = [c for c in candidates if pool_for(c)]
    if not usable:
        return fallback_pair(board, rng, active, exclude, stats, hubs, pool=pool)
    buckets = _bucket(board, [current], usable)
    group = _choose_direction(rng, buckets, weights)
    dest = _weighted(rng, group, [city_value(board, c, stats, hubs) for c in group])
    ks = pool_for(dest)
    chances = monopoly_chance or {}
    if last_destination is not None:
        for k in monopolies:
            if k in ks and board.nearest[k][last_destination] <= 1 and len(ks) > 1:
                pct = chances.get(k, 0)
                if pct and rng.below(100) < pct:
                    return k, dest
                ks = [x for x in ks if x != k]  # "within the remaining odds"
                break
    return ks[rng.below(len(ks))], dest


def market_contract(
    board: Board,
    rng: Rng,
    *,
    area: set[str],
    exclude: set[str],
    stats: dict[str, Any],
    hubs: set[str],
    min_value: int,
) -> tuple[str, str] | None:
    """A market contract: destination within 2 hops of any player's city (``area``: the
    union of every player's area, never one of them), weighted by value; commodity
    available at or next to an area city, not
    produced at the destination, worth at least ``min_value``. Falls back to the whole
    board (still above the minimum) when the neighbourhood has nothing that qualifies."""
    active = area
    min_hops = -(-min_value // CONTRACT_UNIT)
    pool = sorted({k for c in board.within(active, 1, include_start=True) for k in board.cities[c]["commodities"]})

    def pairs_for(c: str, ks: list[str]) -> list[str]:
        return [
            k
            for k in ks
            if k not in board.cities[c]["commodities"]
            and min_hops <= board.nearest[k][c] < INF
            and contract_key(k, c) not in exclude
        ]

    for dests, ks in ((board.within(active, 2), pool), (sorted(set(board.names) - active), board.commodities)):
        options = [(c, pairs_for(c, ks)) for c in dests]
        options = [(c, p) for c, p in options if p]
        if options:
            i = rng.weighted_index([city_value(board, c, stats, hubs) for c, _ in options])
            dest, ks2 = options[i]
            return ks2[rng.below(len(ks2))], dest
    return None


def fallback_pair(
    board: Board, rng: Rng, near: list[str], exclude: set[str], stats: dict[str, Any], hubs: set[str], pool=None
) -> tuple[str, str] | None:
    """Any non-duplicate pair, preferring destinations near ``near`` and commodities in ``pool``."""
    near_set = set(near)
    for dests, ks in (
        (board.within(near, 3), pool or board.commodities),
        (sorted(set(board.names) - near_set), board.commodities),
        (board.names, board.commodities),
    ):
        options = []
        for c in dests:
            valid = [
                k
                for k in ks
                if k not in board.cities[c]["commodities"] and contract_key(k, c) not in exclude and board.nearest[k][c] < INF
            ]
            if valid:
                options.append((c, valid))
        if options:
            i = rng.weighted_index([city_value(board, c, stats, hubs) for c, _ in options])
            dest, valid = options[i]
            return valid[rng.below(len(valid))], dest
    return None
