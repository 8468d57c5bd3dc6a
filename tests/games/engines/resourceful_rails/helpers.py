"""Helpers for the Resourceful Rails rules tests: games at chosen points, commands through
``Engine.apply``, real mileposts of the shipped map found by terrain and city, and positions set
in the state directly where reaching them by commands would take many turns.

Prices here are the spec's, written out again (``TERRAIN_COST``, ``CITY_COST``, ``RIVER``) and read
against the raw ``map.json``, not asked of the engine or the rail core, so a test that compares
them with what the engine charged can fail.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from games.engines.resourceful_rails import ENGINE, data
from tests.support.rules_table import RulesTable

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]

TERRAIN_COST = {"clear": 1, "mountain": 2}
CITY_COST = {"small": 3, "medium": 3, "major": 5}
RIVER = 2

MAP = data.core().map
SLC, LOGAN, DENVER = "salt-lake-city-ut", "logan-ut", "denver-co"


# -- games and commands --------------------------------------------------------------------------------


TABLE = RulesTable(ENGINE, tuple(NAMES))
new_game, seated_game, apply, refused, end_turn = (TABLE.new_game, TABLE.seated_game, TABLE.apply, TABLE.refused,
                                                   TABLE.end_turn)


def to_play(state: dict[str, Any]) -> dict[str, Any]:
    """Everyone ends their build-round turns at once; the state is at the first normal turn."""
    while state["phase"] == "build":
        end_turn(state)
    return state


def normal_turn(players: int = 2, *, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A seated game at seat 0's first normal turn, no track built (tests lay what they need)."""
    state = to_play(seated_game(players, seed=seed, **options))
    assert state["active"] == 0 and state["phase"] == "play" and state["round"] == 1
    return state


def build(*keys: str) -> dict[str, Any]:
    return {"cmd": "build", "path": path(*keys)}


def move(*keys: str) -> dict[str, Any]:
    return {"cmd": "move", "path": path(*keys)}


# -- the map, read from map.json ----------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _raw() -> tuple[dict[str, dict[str, Any]], dict[str, str], dict[frozenset[str], int]]:
    raw = data.map_data()
    nodes = {"{},{},{}".format(*n["at"]): n for n in raw["nodes"]}
    sizes = {c["id"]: c["size"] for c in raw["cities"]}
    rivers: dict[frozenset[str], int] = {}
    for group in raw["crossings"]:
        assert group["kind"] == "river"
        for a, b in group["edges"]:
            pair = frozenset(("{},{},{}".format(*a), "{},{},{}".format(*b)))
            rivers[pair] = rivers.get(pair, 0) + 1
    return nodes, sizes, rivers


def key(ref: Any) -> str:
    return MAP.key(MAP.find(ref))


def addr(k: str) -> list[int]:
    return MAP.address(MAP.find(k))


def path(*keys: str) -> list[list[int]]:
    return [addr(k) for k in keys]


def terrain(k: str) -> str:
    return _raw()[0][k]["terrain"]


def city(k: str) -> str | None:
    return _raw()[0][k].get("city")


def size(k: str) -> str | None:
    c = city(k)
    return _raw()[1][c] if c is not None else None


def rivers(a: str, b: str) -> int:
    return _raw()[2].get(frozenset((a, b)), 0)


def price(a: str, b: str) -> int:
    """The spec's price of a new section from ``a`` to ``b``: the milepost built to, + $2 per river."""
    s = size(b)
    return (CITY_COST[s] if s else TERRAIN_COST[terrain(b)]) + RIVER * rivers(a, b)


def kind(k: str) -> str:
    """``clear``, ``mountain``, or the size of the city the milepost belongs to."""
    return size(k) or terrain(k)


def neighbours(k: str) -> list[str]:
    return sorted(MAP.key(nb.node) for nb in MAP.adjacency[MAP.find(k)])


def nodes_of(cid: str) -> list[str]:
    return [MAP.key(i) for i in MAP.cities[cid].nodes]


def node(cid: str, i: int = 0) -> str:
    return nodes_of(cid)[i]


def plain(k: str) -> bool:
    return city(k) is None


def all_keys() -> list[str]:
    return [n.key for n in MAP.nodes]


def ways_into(cid: str) -> list[tuple[str, str]]:
    """Every (outside, inside) pair of neighbours with one end in the city."""
    inside = set(nodes_of(cid))
    return sorted((o, i) for i in inside for o in neighbours(i) if o not in inside)


def pair_to(target_kind: str, *, river: int = 0, skip: int = 0) -> tuple[str, str]:
    """A plain clear milepost ``a`` and a neighbour ``b`` of ``target_kind`` (clear, mountain, small,
    medium, major) with ``river`` rivers between them; ``a`` has another plain neighbour (a feeder)."""
    found = 0
    for a in all_keys():
        if not plain(a) or terrain(a) != "clear":
            continue
        for b in neighbours(a):
            if kind(b) == target_kind and rivers(a, b) == river and feeder(a, {b}) is not None:
                if found == skip:
                    return a, b
                found += 1
    raise LookupError(f"no clear milepost beside {target_kind} with {river} rivers")


def feeder(a: str, avoid: Any) -> str | None:
    """A plain neighbour of ``a`` (not in ``avoid``, no river between): where own track into ``a`` comes from."""
    for c in neighbours(a):
        if plain(c) and c not in avoid and rivers(c, a) == 0:
            return c
    return None


def major_exit(cid: str, to: str = "clear", *, skip: int = 0) -> tuple[str, str]:
    """A milepost of major city ``cid`` and a plain neighbour outside it of terrain ``to``, no river."""
    found = 0
    for m in nodes_of(cid):
        for x in neighbours(m):
            if plain(x) and terrain(x) == to and rivers(m, x) == 0:
                if found == skip:
                    return m, x
                found += 1
    raise LookupError(f"no {to} milepost beside {cid}")


def clear_walk(start: str, steps: int, *, avoid: Any = ()) -> list[str]:
    """A simple path of ``steps`` steps from ``start``, every step onto a plain clear milepost with no
    river (each costs exactly $1), avoiding ``avoid`` and the neighbours of small and medium cities (no
    cap or courtesy question). Depth first, neighbours in key order: the same path every run."""
    banned = set(avoid)
    for cid, c in MAP.cities.items():
        if c.size != "major":
            for n in nodes_of(cid):
                banned.update(neighbours(n))
    banned.discard(start)

    def ok(prev: str, x: str, seen: list[str]) -> bool:
        return x not in seen and x not in banned and plain(x) and terrain(x) == "clear" and rivers(prev, x) == 0

    trail = [start]

    def dfs() -> bool:
        if len(trail) == steps + 1:
            return True
        for x in neighbours(trail[-1]):
            if ok(trail[-1], x, trail):
                trail.append(x)
                if dfs():
                    return True
                trail.pop()
        return False

    if not dfs():
        raise LookupError(f"no clear walk of {steps} from {start}")
    return trail


def city_with_ways(city_size: str, count: int) -> str:
    """A city of ``city_size`` with exactly ``count`` ways in, every one from a plain milepost."""
    for cid, c in MAP.cities.items():
        if c.size != city_size:
            continue
        ways = ways_into(cid)
        if len(ways) == count and all(plain(o) for o, _ in ways):
            return cid
    raise LookupError(f"no {city_size} city with {count} ways in")


# -- positions set in the state ---------------------------------------------------------------------


def own(state: dict[str, Any], seat: int, a: str, b: str) -> None:
    """Give ``seat`` the section a–b (the test's setting, not a build: nothing is paid)."""
    state["rail"]["track"][MAP.edge_key(MAP.find(a), MAP.find(b))] = seat


def owner(state: dict[str, Any], a: str, b: str) -> int | None:
    return state["rail"]["track"].get(MAP.edge_key(MAP.find(a), MAP.find(b)))


def lay(state: dict[str, Any], seat: int, *points: str) -> list[str]:
    """Give ``seat`` the cheapest track through ``points`` (mileposts, in order; free: the test's
    setting), one build from each point to the next (a build path visits each milepost once, so a network
    through several cities is several builds). Returns the mileposts laid through; the turn's counters are
    left as they were."""
    core = data.core()
    turn = copy.deepcopy(state["rail"]["turn"])
    out: list[str] = []
    for a, b in zip(points, points[1:], strict=False):
        core.start_turn(state["rail"], seat)
        plan = core.plan_build_through(state["rail"], seat, [a, b])
        assert plan is not None, f"no track from {a} to {b}"
        core.apply_build(state["rail"], seat, plan)
        out.extend(plan.path[1:] if out else plan.path)
    state["rail"]["turn"] = turn
    return out


def put_train(state: dict[str, Any], seat: int, at: str, came_from: str | None = None) -> None:
    state["players"][seat]["at"] = at
    state["players"][seat]["came_from"] = came_from


def load(state: dict[str, Any], seat: int, *goods: str) -> None:
    """Put loads on ``seat``'s train, taken from the supply (goods stay conserved)."""
    for g in goods:
        assert state["supply"][g] > 0
        state["supply"][g] -= 1
        state["players"][seat]["loads"].append(g)


def give_cards(state: dict[str, Any], seat: int, *cards: int) -> None:
    """Swap ``cards`` into ``seat``'s hand from wherever they are (deck, discards, another hand), the
    hand's first cards going where they came from: every card stays exactly once in the game."""
    hand = state["players"][seat]["hand"]
    for i, card in enumerate(cards):
        if card in hand:
            continue
        out = hand[i]
        for pile in [state["deck"], state["discards"], *(p["hand"] for p in state["players"] if p["seat"] != seat)]:
            if card in pile:
                pile[pile.index(card)] = out
                break
        else:
            raise AssertionError(f"card {card} is nowhere")
        hand[i] = card


def demand(card: int, index: int) -> dict[str, Any]:
    return data.cards()[card]["demands"][index]


def find_demand(city_id: str, good: str) -> tuple[int, int]:
    """The first card (by id) with a demand for ``good`` at ``city_id``: (card, demand index)."""
    for cid in sorted(data.cards()):
        for i, d in enumerate(data.cards()[cid]["demands"]):
            if d["city"] == city_id and d["good"] == good:
                return cid, i
    raise LookupError(f"no card wants {good} at {city_id}")


def cash(state: dict[str, Any]) -> list[int]:
    return [p["cash"] for p in state["players"]]
