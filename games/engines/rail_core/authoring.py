"""What the rail titles' data scripts share (``<title>/scripts/``): the stable JSON writer of their data
files, the empty-board build distances between cities, and the dealing of demand cards.

The scripts run once, by hand, to make a title's data files; the engines only read those files. Same
input, same bytes: every function here is deterministic (randomness only from the ``random.Random``
passed in).
"""

from __future__ import annotations

import heapq
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .mapdata import RailMap

# For each milepost (index), its (neighbour, cost of building to it) pairs.
SectionCosts = list[list[tuple[int, int]]]


def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dumps(value: Any, level: int = 0, flat_below: int = 2) -> str:
    """JSON with one line per item of the top ``flat_below`` levels and compact lines below them,
    so a data file diffs line by line. Same input, same bytes."""
    if level >= flat_below or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, level + 1, flat_below)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + dumps(v, level + 1, flat_below) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def write_json(path: Path, value: Any, flat_below: int = 2) -> str:
    text = dumps(value, 0, flat_below) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def build_distances(m: RailMap, costs: SectionCosts, sources: list[str]) -> dict[str, int]:
    """Each city's least build cost from the nearest of ``sources`` (city ids) over ``costs`` (Dijkstra
    from every milepost of the sources at once); cities it cannot reach are left out."""
    dist = {u: 0 for cid in sources for u in m.cities[cid].nodes}
    heap = sorted((0, u) for u in dist)
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, c in costs[u]:
            if d + c < dist.get(v, 1 << 30):
                dist[v] = d + c
                heapq.heappush(heap, (d + c, v))
    return {cid: min(dist[u] for u in city.nodes if u in dist)
            for cid, city in m.cities.items() if any(u in dist for u in city.nodes)}


def deal_demands(eligible: dict[str, dict[str, int]], *, rng: random.Random, cards: int, per_card: int, item: str,
                 pick: Callable[[list[str]], str], payout: Callable[[int], int]) -> list[list[dict[str, Any]]]:
    """The demands of ``cards`` cards, ``per_card`` each: different items and different cities on a card.

    ``eligible``: item → {city: distance} of the cities that may demand it. Items come from a shuffled
    bag holding each item once (refilled when empty; an item already on the card goes to the bag's
    bottom for a later card); ``pick(cities)`` chooses the city among the eligible ones not yet on the
    card (sorted). Each demand is ``{"city", item: id, "payout": payout(distance), "distance"}``."""
    bag: list[str] = []
    out = []
    for _ in range(cards):
        demands: list[dict[str, Any]] = []
        while len(demands) < per_card:
            if not bag:
                bag = sorted(eligible)
                rng.shuffle(bag)
            iid = bag.pop()
            if any(d[item] == iid for d in demands):
                bag.insert(0, iid)  # deal it to a later card
                continue
            used = {d["city"] for d in demands}
            cid = pick([c for c in sorted(eligible[iid]) if c not in used])
            d = eligible[iid][cid]
            demands.append({"city": cid, item: iid, "payout": payout(d), "distance": d})
        out.append(demands)
    return out
