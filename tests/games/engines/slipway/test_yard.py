"""The shipyard row: completed ships, the feasibility of placements (README.md, "Build ships") and the final
build's one-tile completions.

The property test compares :func:`yard.feasible` with an explicit search over yard states (place any part
in an empty slot, or take away a completed ship, until every original tile is gone): it is what shows the
README's characterisation, and the peeling that implements it, say the same as the game's process."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.slipway import yard

_LETTER = {"B": yard.BOW, "M": yard.MIDDLE, "S": yard.STERN, ".": None}


def row(text: str) -> tuple[str | None, ...]:
    """``"BMS....."`` as a row: B bow, M middle, S stern, . empty."""
    return tuple(_LETTER[c] for c in text)


# -- completed ships ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ship_max, ships", [
    ("BMS.....", 7, [(0, 2)]),
    ("BMSBMMS.", 7, [(0, 2), (3, 6)]),
    ("BS......", 7, []),                      # a ship has at least one middle
    ("B.S.....", 7, []),                      # no gap
    ("BMMMMMMS", 7, []),                      # 8 long
    ("BMMMMMMS", 8, [(0, 7)]),
    ("..BMMMMS", 5, []),
    (".BMMMS..", 5, [(1, 5)]),
    ("SMB.BMS.", 7, [(4, 6)]),
])
def test_completed_ships(text, ship_max, ships):
    assert yard.completed_ships(row(text), ship_max) == ships


def test_ship_at_names_a_ship_by_its_bow():
    cells = row("BMSBMMS.")
    assert yard.ship_at(cells, 3) == (3, 6)
    assert yard.ship_at(cells, 0) == (0, 2)
    assert yard.ship_at(cells, 4) is None
    assert yard.ship_at(row("BM......"), 0) is None


# -- feasibility --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ok", [
    ("........", True),
    ("BMBMS...", True),    # the README's case: the ship in 2..4 leaves first, then 0..1 go on into its slots
    ("S.......", False),   # a stern needs a bow and a middle to its left
    ("..S.....", True),
    (".......B", False),
    ("......B.", False),
    ("M.......", False),
    (".......M", False),
    ("BS......", False),   # the bow's ship would need the stern's slot for a middle; the stern has no bow
    ("B......S", True),    # two ships, not one 8 long
    ("BMMMMMM.", False),   # only a ship 8 long could hold them all
    ("BMMMMM..", True),
    ("BMBMBMBM", False),   # a full row with no ship: nothing can ever leave
    ("BMSBMMMS", True),    # full, but both are ships
    ("BMSBMSBS", False),   # after the ships leave, a bow and a stern side by side
    (".BMBS...", False),   # a cycle: the middle waits for the bow in 3, which waits for the stern in 4, ...
    ("BMS.BMS.", True),
    ("..BMSMS.", True),    # 2..4 leaves, then the middle and stern in 5..6 end a ship begun in 3 or 4
    ("S.BMS...", False),
    ("...MS.MS", True),
])
def test_feasible(text, ok):
    assert yard.feasible(row(text)) is ok


def test_feasible_uses_ship_max():
    assert yard.feasible(row("BMMM....")) is True
    assert yard.feasible(row("BMMM....") , ship_max=4) is False
    assert yard.feasible(row("B......S"), ship_max=3) is True


def test_unknown_part_is_a_bug():
    with pytest.raises(ValueError):
        yard.feasible(("hull",) + (None,) * 7)


# -- placement refusals ------------------------------------------------------------------------------------

def test_legal_placement():
    assert yard.placement_problem(row("..BMS..."), [(0, yard.BOW), (1, yard.MIDDLE)]) is None
    assert yard.placement_problem(row("........"), [(0, yard.BOW), (1, yard.MIDDLE), (2, yard.STERN)]) is None


@pytest.mark.parametrize("placements", [[(2, yard.BOW)], [(0, yard.BOW), (0, yard.MIDDLE)]])
def test_slot_taken(placements):
    code, message = yard.placement_problem(row("..B....."), placements)
    assert code == "slot-taken"
    assert "Slot" in message


@pytest.mark.parametrize("slot", [-1, 8, "3", None, True])
def test_bad_slot(slot):
    code, _ = yard.placement_problem(row("........"), [(slot, yard.BOW)])
    assert code == "bad-slot"


def test_lone_stern_in_slot_0():
    code, message = yard.placement_problem(row("........"), [(0, yard.STERN)])
    assert code == "no-ship-possible"
    assert message.startswith("A stern in slot 1 could never end a ship")


def test_refusal_names_the_placed_tile():
    """The bow in 6 was fine; the stern put beside it strands both, and the message names the stern, whose
    own slot would be fine in an empty row (so the reason is its neighbours)."""
    code, message = yard.placement_problem(row("......B."), [(7, yard.STERN)])
    assert code == "no-ship-possible"
    assert message.startswith("A stern in slot 8 could never end a ship: the tiles around it")
    code, message = yard.placement_problem(row("........"), [(7, yard.BOW)])
    assert message.startswith("A bow in slot 8 could never begin a ship: the row has no room")
    code, message = yard.placement_problem(row("........"), [(0, yard.MIDDLE)])
    assert message.startswith("A middle in slot 1 could never be part of a ship")


def test_filling_the_row_without_a_ship_is_refused():
    code, _ = yard.placement_problem(row("BMBMB..."), [(5, yard.MIDDLE), (6, yard.BOW), (7, yard.MIDDLE)])
    assert code == "no-ship-possible"


def test_too_long_a_ship_is_refused():
    code, _ = yard.placement_problem(row("BMMMMM.."), [(6, yard.MIDDLE)])
    assert code == "no-ship-possible"
    assert yard.placement_problem(row("BMMMMM.."), [(6, yard.STERN)]) is None  # 7 long: the longest ship
    code, _ = yard.placement_problem(row("BMMMMM.."), [(6, yard.STERN)], ship_max=6)
    assert code == "no-ship-possible"


# -- the final build ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("BM......", [(2, yard.STERN)]),
    (".MS.....", [(0, yard.BOW)]),
    ("BM.S....", [(2, yard.MIDDLE), (2, yard.STERN)]),   # a stern in 2: the ship 0..2 leaves, 3 goes on
    ("B.S.BM.S", [(1, yard.MIDDLE), (6, yard.MIDDLE), (6, yard.STERN)]),
    ("........", []),
    ("BMMMMMM.", []),                                       # a stern in 7 would make a ship 8 long
    ("BMMMMM..", [(6, yard.STERN)]),
])
def test_one_short(text, expected):
    assert yard.one_short(row(text)) == expected


# -- the characterisation against an explicit search -------------------------------------------------------

def _brute_ships(state, ship_max):
    """Every span holding a completed ship, checked slot by slot (no use of the module under test)."""
    n = len(state)
    for first in range(n):
        for last in range(first + 2, min(n, first + ship_max)):
            want = ["bow"] + ["middle"] * (last - first - 1) + ["stern"]
            if all(state[s] is not None and state[s][0] == want[s - first] for s in range(first, last + 1)):
                yield first, last


def brute_feasible(cells, ship_max):
    """Search the yard's states: a cell is None or (part, original?); the goal is no original tile left."""
    start = tuple(None if p is None else (p, True) for p in cells)
    seen = {start}
    stack = [start]
    while stack:
        state = stack.pop()
        if not any(c is not None and c[1] for c in state):
            return True
        successors = []
        for slot, cell in enumerate(state):
            if cell is None:
                successors += [state[:slot] + ((part, False),) + state[slot + 1:] for part in yard.PARTS]
        for first, last in _brute_ships(state, ship_max):
            successors.append(state[:first] + (None,) * (last - first + 1) + state[last + 1:])
        for nxt in successors:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


_CELL = st.sampled_from([None, None, yard.BOW, yard.MIDDLE, yard.STERN])


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(_CELL, min_size=5, max_size=6), ship_max=st.sampled_from([4, 5]))
def test_feasible_matches_explicit_search(cells, ship_max):
    assert yard.feasible(cells, ship_max) is brute_feasible(cells, ship_max)


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(_CELL, min_size=8, max_size=8))
def test_placement_problem_agrees_with_feasible(cells):
    """Placing the tiles of a row one by one into an empty row: refused exactly when the result is infeasible;
    a refusal names a tile that is in the row."""
    placements = [(slot, part) for slot, part in enumerate(cells) if part is not None]
    problem = yard.placement_problem((None,) * 8, placements)
    assert (problem is None) is yard.feasible(cells)
    if problem is not None:
        code, message = problem
        assert code == "no-ship-possible"
        part, slot = message.split()[1], int(message.split()[4]) - 1  # the message counts slots from 1
        assert cells[slot] == part


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(_CELL, min_size=8, max_size=8))
def test_one_short_placements_are_legal_in_a_feasible_row(cells):
    if yard.feasible(cells):
        for slot, part in yard.one_short(cells):
            assert yard.placement_problem(cells, [(slot, part)]) is None
