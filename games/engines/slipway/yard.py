"""The shipyard row of Slipway: completed ships and whether a placement is legal (README.md, "Build ships").

A row is a sequence of ``None`` (an empty slot) or a tile's part, ``"bow"``, ``"middle"`` or ``"stern"``,
left to right. A completed ship is a bow, 1 to ``ship_max`` - 2 middles and a stern in consecutive slots.

Feasibility. The README makes the notes' ambiguity exact: every tile gets a *window* (the span of the ship
it will leave with) whose own tiles have the right part for their slot, and "window A covers a tile of
window B" (so B must leave before A) has no cycle. That is the same as a peeling process, which is what
:func:`feasible` runs:

* a span of 3 to ``ship_max`` slots is *completable* when it holds at least one tile and each tile in it
  has the part of its place in the span (bow first, stern last, middles between): its empty slots can be
  filled and the ship leaves with those tiles;
* removing tiles never makes a feasible row infeasible (the windows of the remaining tiles still work,
  with fewer "leaves before" pairs), and removing tiles never makes a completable span uncompletable;
* so a row is feasible exactly when peeling completable spans, in any order, empties it: in a feasible
  row the first window of a topological order holds only its own tiles, hence is completable; and a row
  that peels empty is feasible (the spans peeled, in order, are the windows).

The set of tiles peeling cannot remove is therefore unique: those are the tiles named in a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

BOW = "bow"
MIDDLE = "middle"
STERN = "stern"
PARTS = (BOW, MIDDLE, STERN)
SHIP_MIN = 3
SHIP_MAX = 7

Cells = tuple[str | None, ...]
Ship = tuple[int, int]

_VERB = {BOW: "begin", MIDDLE: "be part of", STERN: "end"}


def _row(cells: Sequence[str | None]) -> Cells:
    """The row as a hashable tuple (for the cache); an unknown part is a caller's bug, not a player's."""
    row = tuple(cells)
    for part in row:
        if part is not None and part not in PARTS:
            raise ValueError(f"not a ship part: {part!r}")
    return row


def _part_at(first: int, last: int, slot: int) -> str:
    """The part a ship spanning ``first``..``last`` has in ``slot``."""
    if slot == first:
        return BOW
    if slot == last:
        return STERN
    return MIDDLE


def _spans(n: int, ship_max: int) -> list[Ship]:
    """Every span a ship could occupy in a row of ``n`` slots, shortest first."""
    return [(first, first + length - 1)
            for length in range(SHIP_MIN, ship_max + 1)
            for first in range(n - length + 1)]


def completed_ships(cells: Sequence[str | None], ship_max: int = SHIP_MAX) -> list[Ship]:
    """(first slot, last slot) of each completed ship, left to right."""
    row = _row(cells)
    ships = []
    for first, part in enumerate(row):
        if part != BOW:
            continue
        last = first + 1
        while last < len(row) and row[last] == MIDDLE:
            last += 1
        if last < len(row) and row[last] == STERN and SHIP_MIN <= last - first + 1 <= ship_max:
            ships.append((first, last))
    return ships


def ship_at(cells: Sequence[str | None], slot: int, ship_max: int = SHIP_MAX) -> Ship | None:
    """The completed ship whose bow is in ``slot`` (ships are named by their bow's slot in commands)."""
    return next((ship for ship in completed_ships(cells, ship_max) if ship[0] == slot), None)


def _completable(row: list[str | None], first: int, last: int) -> bool:
    """Whether the span holds a tile and every tile in it fits the span's ship."""
    holds = False
    for slot in range(first, last + 1):
        part = row[slot]
        if part is None:
            continue
        if part != _part_at(first, last, slot):
            return False
        holds = True
    return holds


@lru_cache(maxsize=8192)
def _stuck(row: Cells, ship_max: int) -> tuple[int, ...]:
    """The slots whose tiles could never leave in a ship: what peeling completable spans leaves behind.

    Cached because the legal-command listing asks about every candidate placement of every request."""
    left = list(row)
    spans = _spans(len(left), ship_max)
    peeled = True
    while peeled:
        peeled = False
        for first, last in spans:
            if _completable(left, first, last):
                left[first:last + 1] = [None] * (last - first + 1)
                peeled = True
    return tuple(slot for slot, part in enumerate(left) if part is not None)


def feasible(cells: Sequence[str | None], ship_max: int = SHIP_MAX) -> bool:
    """Whether every tile in the row can still become part of a completed ship (ships leaving free slots)."""
    return not _stuck(_row(cells), ship_max)


def _never_message(row: Cells, slot: int, ship_max: int) -> str:
    """Why the tile in ``slot`` can never leave, in player words."""
    part = row[slot]
    assert part is not None
    alone = tuple(part if s == slot else None for s in range(len(row)))
    if _stuck(alone, ship_max):
        why = (f"the row has no room for a ship there (a ship is {SHIP_MIN} to {ship_max} slots, "
               "bow on the left, stern on the right)")
    else:
        why = "the tiles around it are in the way of every ship it could belong to"
    return f"A {part} in slot {slot + 1} could never {_VERB[part]} a ship: {why}."


def placement_problem(cells: Sequence[str | None], placements: Iterable[tuple[int, str]],
                      ship_max: int = SHIP_MAX) -> tuple[str, str] | None:
    """None when placing ``placements`` ((slot, part) pairs) in the row is legal, else (code, message)."""
    row = list(_row(cells))
    placed: list[int] = []
    for slot, part in placements:
        if part not in PARTS:
            raise ValueError(f"not a ship part: {part!r}")
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(row):
            return "bad-slot", f"There is no slot {slot!r} in the yard (its slots are 0 to {len(row) - 1} in commands, 1 to {len(row)} on the page)."
        if slot in placed:
            return "slot-taken", f"Slot {slot + 1} is named twice."
        if row[slot] is not None:
            return "slot-taken", f"Slot {slot + 1} already holds a {row[slot]}."
        row[slot] = part
        placed.append(slot)
    after = tuple(row)
    stuck = _stuck(after, ship_max)
    if not stuck:
        return None
    slot = next((s for s in placed if s in stuck), stuck[0])
    return "no-ship-possible", _never_message(after, slot, ship_max)


def one_short(cells: Sequence[str | None], ship_max: int = SHIP_MAX) -> list[tuple[int, str]]:
    """The (slot, part) placements that complete a ship with one tile (the final build), in slot order.

    No feasibility filter is needed: the completed ship can leave at once and what remains is a subset of
    the row's tiles, so in a feasible row (every row play reaches) each of these placements is legal."""
    row = _row(cells)
    found = []
    for slot, here in enumerate(row):
        if here is not None:
            continue
        for part in PARTS:
            after = row[:slot] + (part,) + row[slot + 1:]
            if any(first <= slot <= last for first, last in completed_ships(after, ship_max)):
                found.append((slot, part))
    return found
