"""Independent railroads: initial placement, names and growth at the end of a round.

The functions here work on light structures (lists of route ids, sets of cities) so
the rules engine and the fast designers' workload in ``simulate.py`` share them.
"""

from __future__ import annotations

from ..rng import Rng
from .board import INF, Board

# Percentage points of extra occupancy drawn each round, by current occupancy (rounded
# to the nearest 5, clamped to 5..45). Same numbers as the designers' app.
GROWTH_TABLE: dict[int, list[tuple[int, int]]] = {
    5: [(2, 10), (4, 20), (6, 30), (8, 40)],
    10: [(0, 5), (2, 45), (4, 35), (6, 10), (8, 5)],
    15: [(0, 5), (2, 55), (4, 30), (6, 10)],
    20: [(0, 10), (2, 60), (4, 25), (6, 5)],
    25: [(0, 10), (2, 70), (4, 20)],
    30: [(0, 35), (2, 50), (4, 15)],
    35: [(0, 50), (2, 40), (4, 10)],
    40: [(0, 70), (2, 30)],
    45: [(0, 95), (2, 5)],
}
CAP_SMALL, CAP_LARGE, CAP_LARGE_PCT = 6, 7, 15
MAX_ATTEMPTS = 100


def round_half_up(numerator: int, denominator: int) -> int:
    """round(numerator / denominator) with halves rounded up, in exact integer arithmetic."""
    return (2 * numerator + denominator) // (2 * denominator)


def indie_count(rng: Rng, players: int, total_min: int, total_max: int) -> int:
    """Number of independents so that players + independents is a random total in range."""
    total = rng.randint(total_min, total_max)
    return max(0, total - players)


def eligible_start_routes(board: Board, min_distance: int) -> list[str]:
    """Routes whose both cities are at least ``min_distance`` hops from every possible
    starting city."""
    key = ("eligible", min_distance)
    if key in board.memo:
        return board.memo[key]
    starts = board.starting_cities
    out = []
    for rid in board.route_ids:
        a, b = board.route_cities(rid)
        if board.hop_to_set(a, starts) >= min_distance and board.hop_to_set(b, starts) >= min_distance:
            out.append(rid)
    board.memo[key] = out
    return out


def place_independents(board: Board, rng: Rng, count: int, min_distance: int = 2, avoid=()) -> list[str]:
    """Pick ``count`` one-route railroads filling the most spacious parts of the map.

    Greedy farthest-point placement: each new railroad takes the eligible route whose
    nearer city is farthest (in hops) from every possible starting city and every railroad
    placed so far; ties are broken at random. Railroads never share a city and never start
    in a city of ``avoid`` (the board's ``avoid_cities``). May return fewer than ``count``
    routes on a crowded board.
    """
    eligible = eligible_start_routes(board, min_distance)
    if avoid:
        avoid = set(avoid)
        eligible = [rid for rid in eligible if avoid.isdisjoint(board.route_cities(rid))]
    occupied = list(board.starting_cities)
    used: set[str] = set()
    chosen: list[str] = []
    # distance of every city to the nearest occupied city, updated incrementally
    key = ("near-starts",)
    if key not in board.memo:
        board.memo[key] = {c: board.hop_to_set(c, occupied) for c in board.names}
    near = dict(board.memo[key])
    for _ in range(count):
        best, best_space = [], -1
        for rid in eligible:
            a, b = board.route_cities(rid)
            if a in used or b in used:
                continue
            space = min(near[a], near[b])
            if space > best_space:
                best, best_space = [rid], space
            elif space == best_space:
                best.append(rid)
        if not best:
            break
        rid = best[rng.below(len(best))]
        chosen.append(rid)
        for c in board.route_cities(rid):
            used.add(c)
            row = board.hops[board.index[c]]
            for other in board.names:
                d = row[board.index[other]]
                if d < near[other]:
                    near[other] = d
    return chosen


def grow_independents(
    board: Board,
    rng: Rng,
    companies: list[list[str]],
    blocked_cities: set[str],
    blocked_mask: int = 0,
) -> list[tuple[int, str]]:
    """Grow the independents at the end of a round (mutates ``companies``).

    ``companies`` is a list of route-id lists (one per live independent); ``blocked_cities``
    are the players' cities. Returns the (company index, route id) pairs added.

    1. Routes touching a player city or a neighbour of one are unavailable.
    2. Occupancy = indie routes / available routes (percent, halves up); draw extra points
       from GROWTH_TABLE; the new target is (occupancy + extra)% of the available routes
       (when it equals today's count, a coin flip adds one).
    3. Each company may grow while below a cap of 6 (85 %) or 7 (15 %), drawn every round.
    4. A company grows by a random available route touching one of its cities whose other
       end is not in, or next to, another company's city.
    """
    if not companies:
        return []
    index = board.index
    closed = board.closed_nbr
    route_mask = board.route_mask
    near_players = _closed(closed, blocked_mask)
    for c in blocked_cities:
        near_players |= closed[index[c]]
    avail = [rid for rid in board.route_ids if not route_mask[rid] & near_players]
    if not avail:
        return []
    avail_set = set(avail)
    total = sum(len(r) for r in companies)
    occ = round_half_up(100 * total, len(avail))
    lookup = min(45, max(5, round_half_up(occ, 5) * 5))
    table = GROWTH_TABLE[lookup]
    extra = table[rng.weighted_index([w for _, w in table])][0]
    if extra == 0:
        return []
    target = round_half_up((occ + extra) * len(avail), 100)
    if target <= total:
        if target == total and rng.below(2) == 0:
            target = total + 1
        else:
            return []
    to_add = target - total
    caps = [CAP_LARGE if rng.below(100) < CAP_LARGE_PCT else CAP_SMALL for _ in companies]
    own_masks = []
    near_masks = []
    for routes in companies:
        m = 0
        for rid in routes:
            m |= route_mask[rid]
        own_masks.append(m)
        near_masks.append(_closed(closed, m))
    added: list[tuple[int, str]] = []
    stuck: set[int] = set()  # companies with nothing to grow into (that only gets worse)
    for _ in range(MAX_ATTEMPTS):
        if len(added) >= to_add:
            break
        growable = [i for i, routes in enumerate(companies) if len(routes) < caps[i] and i not in stuck]
        if not growable:
            break
        i = growable[rng.below(len(growable))]
        near_others = 0
        for j, m in enumerate(near_masks):
            if j != i:
                near_others |= m
        candidates = []
        seen = set(companies[i])
        m = own_masks[i]
        while m:
            low = m & -m
            m ^= low
            for rid in board.routes_at[low.bit_length() - 1]:
                if rid in avail_set and rid not in seen and not route_mask[rid] & near_others:
                    seen.add(rid)
                    candidates.append(rid)
        if not candidates:
            stuck.add(i)
            continue
        rid = candidates[rng.below(len(candidates))]
        companies[i].append(rid)
        own_masks[i] |= route_mask[rid]
        near_masks[i] = _closed(closed, own_masks[i])
        added.append((i, rid))
    return added


def _closed(closed: list[int], mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= closed[low.bit_length() - 1]
    return out


def _cities(board: Board, routes: list[str]) -> set[str]:
    out: set[str] = set()
    for rid in routes:
        out.update(board.route_cities(rid))
    return out


def railroad_segments(board: Board, routes: list[str]) -> int:
    return sum(board.routes[r]["length"] for r in routes)


def min_hops_between(board: Board, a: set[str], b: set[str]) -> int:
    return min((board.hop(x, y) for x in a for y in b), default=INF)


# -- names -----------------------------------------------------------------

STATE_NAMES = {
    "AL": "Alabama", "AZ": "Arizona", "CA": "California", "CO": "Colorado", "FL": "Florida",
    "GA": "Georgia", "IA": "Iowa", "ID": "Idaho", "IL": "Illinois", "LA": "Louisiana",
    "MA": "Massachusetts", "ME": "Maine", "MI": "Michigan", "MN": "Minnesota", "MO": "Missouri",
    "MT": "Montana", "NC": "Carolina", "ND": "Dakota", "NE": "Nebraska", "NM": "New Mexico",
    "NY": "New York", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "SC": "Carolina", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VA": "Virginia",
    "WA": "Washington", "WI": "Wisconsin", "AB": "Alberta", "BC": "British Columbia",
    "MB": "Manitoba", "ON": "Ontario", "QC": "Quebec", "SK": "Saskatchewan",
}
NAME_TRADES = ["Coal", "Lumber", "Grain", "Mineral", "Cattle", "Iron", "Cotton", "Valley", "Central", "Midland", "Southern", "Northern", "Western", "Eastern"]
NAME_FEATURES = ["River", "Lake", "Prairie", "Summit", "Pine", "Canyon", "Harbor", "Ridge", "Bluff", "Meadow", "Timber", "Falls"]
NAME_GRAND = ["Pioneer", "Liberty", "Frontier", "Union", "Continental", "Empire", "Pacific", "Atlantic", "Heritage", "Enterprise", "Star", "Eagle"]
NAME_SUFFIXES = [("Railway", 10), ("Railroad", 10), ("Line", 5), ("Rail Road", 1), ("Transportation Company", 1)]


def railroad_name(board: Board, rng: Rng, rid: str, taken: set[str]) -> str:
    """A period-sounding name, unique among ``taken`` (a number is added if needed)."""
    a, _b = board.route_cities(rid)
    state = STATE_NAMES.get(board.cities[a].get("state", ""))
    suffix = NAME_SUFFIXES[rng.weighted_index([w for _, w in NAME_SUFFIXES])][0]
    style = rng.below(10)
    if state and style < 4:
        base = f"{state} {NAME_TRADES[rng.below(len(NAME_TRADES))]}"
    elif style < 8:
        f1 = NAME_FEATURES[rng.below(len(NAME_FEATURES))]
        f2 = NAME_FEATURES[rng.below(len(NAME_FEATURES))]
        base = f"{f1} & {f2}" if f1 != f2 else f"{a} {f1}"
    else:
        base = ("The " if rng.below(2) else "") + NAME_GRAND[rng.below(len(NAME_GRAND))]
    name = f"{base} {suffix}"
    n = 2
    while name in taken:
        name = f"{base} {suffix} No. {n}"
        n += 1
    return name
