"""The courtesy right to a tunnel entrance (published): nobody may take the last free ways into the Deepway
gates while a player without a section into any gate is still entitled to one."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

from .helpers import MAP, apply, build, give_foreman, lay, neighbours, normal_turn, plain_place, refused

GATE = "0,42,9"  # North Gate (surface)


def _last_way_state():
    """3 players; every way into every gate taken by seats 1 and 2 but one into the North Gate (seat 1 holds 2
    there, seat 2 holds 3); seat 0 holds none."""
    state = normal_turn(3)
    for seat, kind in ((0, "human"), (1, "dwarf"), (2, "elf")):
        give_foreman(state, seat, kind)
    ways = sorted(data.gate_ways())
    here = [k for k in ways if MAP.index[GATE] in MAP.edge_nodes[k]]
    last = here[-1]
    for i, key in enumerate(k for k in ways if k not in here):
        state["rail"]["track"][key] = 1 + i % 2
    for i, key in enumerate(here[:-1]):
        state["rail"]["track"][key] = 1 if i < 2 else 2
    a, b = (MAP.key(x) for x in MAP.edge_nodes[last])
    outside = a if b == GATE else b
    return state, outside, last


@pytest.mark.parametrize(("seat", "code"), [(1, "courtesy"), (0, None)])
def test_the_last_free_way_into_a_gate_is_kept_for_a_player_without_one(seat, code):
    state, outside, _last = _last_way_state()
    other = next(n for n in neighbours(outside) if n != GATE and plain_place(n)
                 and MAP.edge_key(MAP.index[n], MAP.index[outside]) not in data.gate_ways())
    lay(state, seat, other, outside)
    state["active"] = seat
    state["turn_index"] = state["order"].index(seat)
    if code:
        assert refused(state, seat, build(outside, GATE)) == code
    else:
        apply(state, seat, build(outside, GATE))
        assert state["rail"]["track"][MAP.edge_key(MAP.index[outside], MAP.index[GATE])] == 0


def test_nothing_is_kept_once_everyone_holds_a_gate_section():
    state, outside, _last = _last_way_state()
    key = next(k for k, o in state["rail"]["track"].items() if o == 2)
    state["rail"]["track"][key] = 0  # seat 0 now holds a way into a gate: nobody is entitled
    other = next(n for n in neighbours(outside) if n != GATE and plain_place(n)
                 and MAP.edge_key(MAP.index[n], MAP.index[outside]) not in data.gate_ways())
    lay(state, 1, other, outside)
    state["active"] = 1
    state["turn_index"] = state["order"].index(1)
    apply(state, 1, build(outside, GATE))
