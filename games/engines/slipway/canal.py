"""A player's canal system and the cruise of Slipway (README.md, "Rent a canal" and "The cruise").

A system (plain JSON in the state)::

    {"tiles": [{"x", "y", "tile": canal tile id, "rotation": 0..3}],
     "token": None | {"x", "y", "spot", "entered"}}

The grid: x grows East, y grows South, so North is y - 1. ``rotation`` turns the tile that many quarter
turns clockwise (N to E to S to W). A *spot* is a world side letter (the spot just inside that mouth) or
``"C"`` (the centre); a position is ``(x, y, spot)`` (a list ``[x, y, spot]`` in commands and paths).
``defs`` maps a canal tile id to its definition in ``data/canals.json`` (the start tile included).

Moving forward, having entered a tile through the mouth ``entered``: from the entry mouth to the centre
when the tile has one, else to any other mouth; from the centre to any mouth but the entry; from an exit
mouth to the facing mouth of the next tile. Leaving a tile removes it, so no path comes back to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SIDES = ("N", "E", "S", "W")
CENTRE = "C"
SPOTS = (*SIDES, CENTRE)
ROTATIONS = (0, 1, 2, 3)

_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
_SIDE_NAME = {"N": "north", "E": "east", "S": "south", "W": "west"}

Cell = tuple[int, int]
Pos = tuple[int, int, str]
Move = tuple[Pos, str]
System = dict[str, Any]
Defs = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class _Placed:
    """A tile of a system as the cruise sees it: world mouths and world spot features."""

    tile: str
    mouths: frozenset[str]
    centre: bool
    spots: Mapping[str, str | None]


def _turn(side: str, rotation: int) -> str:
    return SIDES[(SIDES.index(side) + rotation) % 4]


def rotated(defn: Mapping[str, Any], rotation: int) -> tuple[frozenset[str], dict[str, str | None]]:
    """The tile's world mouths and its spot features by world spot name, turned ``rotation`` quarter turns."""
    mouths = frozenset(_turn(m, rotation) for m in defn["mouths"])
    spots: dict[str, str | None] = {}
    for name, feature in (defn.get("spots") or {}).items():
        spots[CENTRE if name == CENTRE else _turn(name, rotation)] = feature
    for mouth in mouths:
        spots.setdefault(mouth, None)
    if defn.get("centre"):
        spots.setdefault(CENTRE, None)
    return mouths, spots


def _index(system: System, defs: Defs) -> dict[Cell, _Placed]:
    """The system's tiles by cell, rotated once for a whole search."""
    index = {}
    for t in system.get("tiles") or []:
        mouths, spots = rotated(defs[t["tile"]], t.get("rotation", 0))
        index[(t["x"], t["y"])] = _Placed(t["tile"], mouths, bool(defs[t["tile"]].get("centre")), spots)
    return index


def _neighbour(x: int, y: int, side: str) -> Cell:
    dx, dy = _STEP[side]
    return x + dx, y + dy


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- renting a canal ------------------------------------------------------------------------------------

def placement_problem(system: System, defs: Defs, tile_id: str, x: int, y: int,
                      rotation: int) -> tuple[str, str] | None:
    """None when ``tile_id`` may go at (x, y) turned ``rotation``, else (code, message)."""
    if tile_id not in defs:
        return "unknown-tile", f"There is no canal tile {tile_id!r}."
    if not (_is_int(x) and _is_int(y)):
        return "bad-cell", f"({x!r}, {y!r}) is not a grid cell."
    if not _is_int(rotation) or rotation not in ROTATIONS:
        return "bad-rotation", f"A rotation is 0 to 3 quarter turns clockwise, not {rotation!r}."
    return _problem(_index(system, defs), defs, tile_id, x, y, rotation)


def _problem(index: Mapping[Cell, _Placed], defs: Defs, tile_id: str, x: int, y: int,
             rotation: int) -> tuple[str, str] | None:
    """placement_problem on a system already indexed (a search indexes it once)."""
    if (x, y) in index:
        return "cell-taken", f"The cell ({x}, {y}) already holds one of your canal tiles."
    if not index:
        return None
    mouths, _ = rotated(defs[tile_id], rotation)
    touching = [(side, index[_neighbour(x, y, side)]) for side in SIDES if _neighbour(x, y, side) in index]
    if not touching:
        return "not-adjacent", f"The cell ({x}, {y}) is not next to a tile of your canal system."
    meets = False
    for side, other in touching:
        mine = side in mouths
        theirs = _OPPOSITE[side] in other.mouths
        if mine != theirs:
            ox, oy = _neighbour(x, y, side)
            return "sides-mismatch", (f"The {_SIDE_NAME[side]} side of the tile would put "
                                      f"{'a mouth' if mine else 'a bank'} against "
                                      f"{'the mouth' if theirs else 'the bank'} of the tile at ({ox}, {oy}).")
        meets = meets or mine
    if not meets:
        return "no-connection", "No mouth of the tile would meet a mouth of your canal system."
    return None


def placements(system: System, defs: Defs, tile_id: str) -> list[tuple[int, int, int]]:
    """Every legal (x, y, rotation) for ``tile_id``, sorted; an empty system offers (0, 0) (any cell is legal
    there, and which one does not matter)."""
    index = _index(system, defs)
    return [(x, y, r) for x, y in _free_cells(index) for r in ROTATIONS
            if _problem(index, defs, tile_id, x, y, r) is None]


def can_place(system: System, defs: Defs, tile_id: str) -> bool:
    """Whether ``tile_id`` has a legal placement (placements(), stopping at the first)."""
    index = _index(system, defs)
    return any(_problem(index, defs, tile_id, x, y, r) is None for x, y in _free_cells(index) for r in ROTATIONS)


def _free_cells(index: Mapping[Cell, _Placed]) -> list[Cell]:
    """The empty cells next to the system, sorted ((0, 0) for an empty one)."""
    if not index:
        return [(0, 0)]
    return sorted({_neighbour(x, y, side) for x, y in index for side in SIDES} - index.keys())


# -- the cruise -----------------------------------------------------------------------------------------

def _moves(index: Mapping[Cell, _Placed], gone: frozenset[Cell], pos: Pos, entered: str) -> list[Move]:
    """The forward moves from ``pos`` (its tile entered through ``entered``), skipping tiles left."""
    x, y, spot = pos
    here = index.get((x, y))
    if here is None or (x, y) in gone:
        return []
    others = [((x, y, m), entered) for m in SIDES if m in here.mouths and m != entered]
    if spot == entered:
        return [((x, y, CENTRE), entered)] if here.centre else others
    if spot == CENTRE:
        return others
    if spot not in here.mouths:
        return []
    cell = _neighbour(x, y, spot)
    facing = _OPPOSITE[spot]
    there = index.get(cell)
    if there is None or cell in gone or facing not in there.mouths:
        return []
    return [((cell[0], cell[1], facing), facing)]


def next_positions(system: System, defs: Defs, pos: Sequence[Any], entered: str) -> list[Move]:
    """Forward moves ((x, y, spot), new entered) from ``pos``, its tile entered through ``entered``."""
    x, y, spot = pos
    return _moves(_index(system, defs), frozenset(), (x, y, spot), entered)


def _walks(index: Mapping[Cell, _Placed], pos: Pos, entered: str, length: int,
           gone: frozenset[Cell] = frozenset()) -> Iterator[list[Pos]]:
    """Every forward path of exactly ``length`` steps from ``pos``, lazily (so a search can stop early)."""
    if length == 0:
        yield []
        return
    for step, step_entered in _moves(index, gone, pos, entered):
        left = gone | {(pos[0], pos[1])} if step[:2] != pos[:2] else gone
        for rest in _walks(index, step, step_entered, length - 1, left):
            yield [step, *rest]


def _start_pos(index: Mapping[Cell, _Placed], start: Any) -> Pos | None:
    """``start`` as a position when it is a mouth spot of a tile of the system, else None."""
    if not isinstance(start, (list, tuple)) or len(start) != 3:
        return None
    x, y, spot = start
    if not (_is_int(x) and _is_int(y)) or spot not in SIDES:
        return None
    here = index.get((x, y))
    return (x, y, spot) if here is not None and spot in here.mouths else None


def _origins(system: System, index: Mapping[Cell, _Placed], start: Any) -> list[tuple[Pos, str, list | None]]:
    """Where cruises may begin: (position, entered, the start to name in the command or None)."""
    token = system.get("token")
    if token is not None:
        if start is not None:
            return []
        return [((token["x"], token["y"], token["spot"]), token["entered"], None)]
    if start is not None:
        pos = _start_pos(index, start)
        return [] if pos is None else [(pos, pos[2], list(pos))]
    return [((x, y, m), m, [x, y, m]) for x, y in sorted(index) for m in SIDES if m in index[(x, y)].mouths]


def paths(system: System, defs: Defs, length: int, start: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """Every forward path of exactly ``length`` (>= 1) steps: ``[{"start", "path": [[x, y, spot], ...]}]``.

    From the token when the system has one (``start`` None in the result); else, the first cruise, from
    every mouth spot of every tile (or only from ``start``), each as if entered through that mouth."""
    if length < 1:
        return []
    index = _index(system, defs)
    return [{"start": named, "path": [list(p) for p in path]}
            for pos, entered, named in _origins(system, index, start)
            for path in _walks(index, pos, entered, length)]


def has_path(system: System, defs: Defs, length: int) -> bool:
    """Whether a ship of speed ``length`` can cruise (stops at the first path found)."""
    if length < 1:
        return False
    index = _index(system, defs)
    return any(next(_walks(index, pos, entered, length), None) is not None
               for pos, entered, _ in _origins(system, index, None))


def _describe(pos: Pos) -> str:
    x, y, spot = pos
    where = "the centre" if spot == CENTRE else f"the {_SIDE_NAME[spot]} mouth"
    return f"{where} of the tile at ({x}, {y})"


def _position(raw: Any) -> Pos | None:
    if not isinstance(raw, (list, tuple)) or len(raw) != 3:
        return None
    x, y, spot = raw
    if not (_is_int(x) and _is_int(y)) or spot not in SPOTS:
        return None
    return x, y, spot


def _refuse(message: str) -> dict[str, Any]:
    return {"ok": False, "message": message}


def walk(system: System, defs: Defs, path: Sequence[Any], start: Sequence[Any] | None = None) -> dict[str, Any]:
    """Check a cruise's path and say what it does, without changing the system.

    Returns ``{"ok": False, "message"}`` or ``{"ok": True, "spots": [feature of each spot entered],
    "removed": [ids of the tiles left, in order], "left": [[x, y] of those tiles], "token": {...}}``."""
    index = _index(system, defs)
    token = system.get("token")
    if token is None:
        if start is None:
            return _refuse("The first cruise names its start: a mouth spot of one of your canal tiles.")
        begin = _start_pos(index, start)
        if begin is None:
            return _refuse(f"The start {start!r} is not a mouth spot of one of your canal tiles.")
        pos, entered = begin, begin[2]
    else:
        pos, entered = (token["x"], token["y"], token["spot"]), token["entered"]
        if start is not None:
            return _refuse(f"Only the first cruise chooses its start; this one goes on from {_describe(pos)}.")
    if not path:
        return _refuse("A cruise moves at least one spot.")
    spots: list[str | None] = []
    removed: list[str] = []
    left: list[list[int]] = []
    gone: frozenset[Cell] = frozenset()
    for number, raw in enumerate(path, 1):
        step = _position(raw)
        if step is None:
            return _refuse(f"Step {number} is not a position [x, y, spot]: {raw!r}.")
        moves = _moves(index, gone, pos, entered)
        move = next((m for m in moves if m[0] == step), None)
        if move is None:
            reachable = " or ".join(_describe(m[0]) for m in moves) or "nowhere"
            return _refuse(f"Step {number} cannot go to {_describe(step)}: from {_describe(pos)} "
                           f"the canal leads to {reachable}.")
        if step[:2] != pos[:2]:
            removed.append(index[(pos[0], pos[1])].tile)
            left.append([pos[0], pos[1]])
            gone = gone | {(pos[0], pos[1])}
        spots.append(index[(step[0], step[1])].spots.get(step[2]))
        pos, entered = move
    return {"ok": True, "spots": spots, "removed": removed, "left": left,
            "token": {"x": pos[0], "y": pos[1], "spot": pos[2], "entered": entered}}


def apply_walk(system: System, result: Mapping[str, Any]) -> None:
    """Make a checked walk happen: the tiles left go (the caller puts their ids on the used stack) and the
    token moves to the path's end."""
    if not result.get("ok"):
        raise ValueError("cannot apply a refused walk")
    if "left" in result:
        cells = {(x, y) for x, y in result["left"]}
        system["tiles"] = [t for t in system["tiles"] if (t["x"], t["y"]) not in cells]
    else:
        ids = set(result["removed"])
        system["tiles"] = [t for t in system["tiles"] if t["tile"] not in ids]
    system["token"] = dict(result["token"])
