"""Helpers for the Runerail rules tests: games at chosen points, commands through ``Engine.apply``,
real mileposts of the shipped world found by terrain, crossing and city, and positions set in the
state directly where reaching them by commands would take many turns (track, foremen, gold).

Prices here are the published ones, written out again (``TERRAIN_COST``, ``CITY_COST``,
``CROSSING``) and read against the raw map, not asked of the engine or the rail core, so a test that
compares them with what the engine charged can fail.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from games.engines.runerail import data
from games.engines.runerail.rules import Runerail
from tests.support.rules_table import RulesTable

ENGINE = Runerail()
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]

TERRAIN_COST = {"plain": 1, "desert": 1, "forest": 2, "mountain": 2, "jungle": 3, "alpine": 5, "volcano": 5,
                "underground": 5}
CITY_COST = {"small": 3, "medium": 3, "major": 5}
CROSSING = {"river": 2, "inlet": 3}
GATE = 2

MAP = data.core().map
MAJORS = ("highcairn", "stonecrown", "goldmeadow", "thornhollow", "saltharbor", "emberforge", "sandspire",
          "mossgate")


# -- games and commands --------------------------------------------------------------------------------


TABLE = RulesTable(ENGINE, tuple(NAMES))
new_game, seated_game, apply, refused, end_turn = (TABLE.new_game, TABLE.seated_game, TABLE.apply, TABLE.refused,
                                                   TABLE.end_turn)


def draft_first(state: dict[str, Any]) -> dict[str, Any]:
    """Every player keeps the first foreman dealt to them; the state is at the first build turn."""
    while state["phase"] == "draft":
        seat = state["active"]
        apply(state, seat, {"cmd": "keep-foreman", "foreman": state["draft"]["dealt"][str(seat)][0]})
    return state


def to_play(state: dict[str, Any]) -> dict[str, Any]:
    draft_first(state)
    while state["phase"] == "build":
        end_turn(state)
    return state


def build_turn(players: int = 2, *, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A seated game at seat 0's first build turn."""
    state = draft_first(seated_game(players, seed=seed, **options))
    assert state["active"] == 0 and state["phase"] == "build"
    return state


def normal_turn(players: int = 2, *, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A seated game at seat 0's first normal turn, no track built."""
    state = to_play(seated_game(players, seed=seed, **options))
    assert state["active"] == 0 and state["phase"] == "play" and state["round"] == 1
    return state


def foreman_of(kind: str, nth: int = 0) -> str:
    return [f for f, spec in sorted(data.foremen().items()) if spec["kind"] == kind][nth]


def give_foreman(state: dict[str, Any], seat: int, kind: str | None) -> None:
    """Hand ``seat`` a foreman of ``kind`` (a card nobody else holds), out of the decks."""
    held = {p["foreman"] for p in state["players"] if p["seat"] != seat}
    old = state["players"][seat]["foreman"]
    if kind is None:
        state["players"][seat]["foreman"] = None
        return
    card = next(f for f, spec in sorted(data.foremen().items()) if spec["kind"] == kind and f not in held)
    for pile in (state["foreman_deck"], state["foreman_discards"]):
        if card in pile:
            pile.remove(card)
            if old:
                pile.append(old)
    state["players"][seat]["foreman"] = card


def build(*keys: str) -> dict[str, Any]:
    return {"cmd": "build", "path": path(*keys)}


def move(*keys: str) -> dict[str, Any]:
    return {"cmd": "move", "path": path(*keys)}


def path(*keys: str) -> list[list[int]]:
    return [[int(x) for x in k.split(",")] for k in keys]


def address(key: str) -> list[int]:
    return [int(x) for x in key.split(",")]


# -- the world -------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _raw_nodes() -> dict[str, dict[str, Any]]:
    return {",".join(map(str, n["at"])): n for n in data.map_data()["nodes"]}


def raw_node(key: str) -> dict[str, Any]:
    return _raw_nodes()[key]


def neighbours(key: str, *, links: bool = False) -> list[str]:
    i = MAP.index[key]
    return [MAP.key(nb.node) for nb in MAP.adjacency[i] if links or nb.link is None]


def crossings(a: str, b: str) -> list[str]:
    return [kind for kind, _ in MAP.crossings.get(MAP.edge_key(MAP.index[a], MAP.index[b]), ())]


def find_pairs(test: Callable[[str, str], bool]) -> list[tuple[str, str]]:
    """Every hex pair (a, b) of the map, in map order, for which ``test(a, b)``."""
    out = []
    for node in MAP.nodes:
        for b in neighbours(node.key):
            if test(node.key, b):
                out.append((node.key, b))
    return out


def plain_place(key: str) -> bool:
    """Not a city, not a gate."""
    node = raw_node(key)
    return "city" not in node and "gate" not in node


def pair_from_major(terrain: str, nth: int = 0) -> tuple[str, str]:
    """A major-city milepost and a neighbour of ``terrain`` (no city, no gate), no crossing between them
    (the ``nth`` such pair with a new neighbour, in map order)."""
    pairs = find_pairs(lambda a, b: MAP.nodes[MAP.index[a]].city in MAJORS and plain_place(b)
                       and raw_node(b)["terrain"] == terrain and not crossings(a, b))
    seen: dict[str, tuple[str, str]] = {}
    for a, b in pairs:
        seen.setdefault(b, (a, b))
    return list(seen.values())[nth]


def pair_away(terrain: str, nth: int = 0) -> tuple[str, str]:
    """Two neighbouring mileposts away from cities and gates, no crossing between them, the second of
    ``terrain`` (the ``nth`` such pair, far apart from the others: no milepost shared)."""
    used: set[str] = set()
    found = []
    for a, b in find_pairs(lambda a, b: plain_place(a) and plain_place(b) and raw_node(b)["terrain"] == terrain
                           and not crossings(a, b) and a.startswith("0,")):
        near = {a, b, *neighbours(a), *neighbours(b)}
        if near & used:
            continue
        used |= near | {x for n in near for x in neighbours(n)}
        found.append((a, b))
        if len(found) > nth:
            return found[nth]
    raise LookupError(terrain)


def lay(state: dict[str, Any], seat: int, *keys: str) -> None:
    """Give ``seat`` track along ``keys`` (set in the state directly)."""
    for a, b in zip(keys, keys[1:], strict=False):
        state["rail"]["track"][MAP.edge_key(MAP.index[a], MAP.index[b])] = seat


def foothold(state: dict[str, Any], seat: int, at: str, *, avoid: tuple[str, ...] = ()) -> str:
    """Give ``seat`` one section ending at ``at`` (from a plain neighbour not in ``avoid``), so building may
    start there; returns the other end."""
    other = next(n for n in neighbours(at) if n not in avoid and plain_place(n) and not crossings(at, n))
    lay(state, seat, other, at)
    return other


def gold(state: dict[str, Any]) -> list[int]:
    return [p["gold"] for p in state["players"]]


def line(n: int, *, start: str | None = None, layer: int = 0) -> list[str]:
    """``n`` mileposts in a straight row along one hex row (east or west), away from cities and gates
    (but ``start``, if given), with no crossing between them."""
    starts = [start] if start else [node.key for node in MAP.nodes if node.layer == layer]
    for first in starts:
        lay_, q, r = (int(x) for x in first.split(","))
        for step in (1, -1):
            keys = [f"{lay_},{q + i * step},{r}" for i in range(n)]
            if not all(k in MAP.index for k in keys):
                continue
            if not all(plain_place(k) for k in keys[1:]) or (start is None and not plain_place(keys[0])):
                continue
            if any(crossings(a, b) for a, b in zip(keys, keys[1:], strict=False)):
                continue
            return keys
    raise LookupError("no line")


def put_train(state: dict[str, Any], seat: int, at: str, came_from: str | None = None) -> None:
    state["players"][seat]["at"] = at
    state["players"][seat]["came_from"] = came_from


# -- events ----------------------------------------------------------------------------------------------


def trigger(state: dict[str, Any], seat: int, card: str) -> list[dict[str, Any]]:
    """Event ``card`` drawn by ``seat`` now (as a draw would: the engine's own trigger)."""
    if card in state["deck"]:
        state["deck"].remove(card)
    elif card in state["discards"]:
        state["discards"].remove(card)
    return ENGINE._trigger(state, seat, card)


def in_area(card: str, key: str) -> bool:
    return data.event_area(card).has(MAP.index[key])


def line_into(card: str, outside: int, n: int) -> list[str]:
    """``n`` mileposts in a straight surface row (no cities, gates or crossings but possibly the first) whose
    first ``outside`` are outside ``card``'s area and the next one inside it."""
    for node in MAP.nodes:
        if node.layer != 0 or not plain_place(node.key):
            continue
        for step in (1, -1):
            keys = [f"0,{node.q + i * step},{node.r}" for i in range(n)]
            if not all(k in MAP.index and plain_place(k) for k in keys):
                continue
            if any(crossings(a, b) for a, b in zip(keys, keys[1:], strict=False)):
                continue
            inside = [in_area(card, k) for k in keys]
            if not any(inside[:outside]) and inside[outside]:
                return keys
    raise LookupError(card)
