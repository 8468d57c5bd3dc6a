"""Connectivity: a player's networks joined through major cities and open connecting links,
the major cities they join (the win check's count), the cities their track reaches."""

from __future__ import annotations

from .helpers import core_of, k
from .test_build import own

TWO_MAJORS = [
    "...........",
    ".11....22..",
    ".111...222.",
    ".11....22..",
    "...........",
]
MAGIC = [{"kind": "magic", "name": "magic link", "edges": [[[0, 2, 2], [0, 8, 2]]]}]


def test_track_between_two_majors_joins_them():
    core = core_of(TWO_MAJORS + [".a........."])
    rail = core.new_state([0, 1])
    core.start_turn(rail, 0)
    assert core.components(rail, 0) == [] and core.majors_connected(rail, 0) == []
    core.build(rail, 0, [k(3, 2), k(4, 2), k(5, 2), k(6, 2), k(7, 2)])
    assert core.majors_connected(rail, 0) == ["M1", "M2"]
    assert core.connected(rail, 0, k(1, 1), k(9, 2))  # across both cities' free mileposts
    assert not core.connected(rail, 1, k(1, 1), k(9, 2))
    assert core.cities_reached(rail, 0) == ["M1", "M2"]
    core.start_turn(rail, 1)
    core.build(rail, 1, [k(1, 3), k(1, 4), k(1, 5)])
    core.build(rail, 1, [k(8, 3), k(8, 4)])
    comps = core.components(rail, 1)
    assert len(comps) == 2 and k(1, 5) in comps[0] and k(8, 4) in comps[1]
    assert core.majors_connected(rail, 1) == ["M1"]  # the best network: ties go to the first
    assert core.cities_reached(rail, 1) == ["M1", "M2", "a"]


def test_an_open_magic_link_joins_its_cities_for_the_win_and_a_closed_one_does_not():
    core = core_of(TWO_MAJORS, links=MAGIC, rules={"link_kinds": {"magic": {"moves": 1}}})
    rail = core.new_state([0])
    core.start_turn(rail, 0)
    core.build(rail, 0, [k(1, 3), k(1, 4)])
    assert core.majors_connected(rail, 0) == ["M1", "M2"]
    rail["links"]["magic link"] = False
    assert core.majors_connected(rail, 0) == ["M1"]
    rail["links"]["magic link"] = True
    move = core.check_move(rail, 0, [k(1, 4), k(1, 3), k(2, 2), k(8, 2), k(9, 2)])
    assert move.moves == 4 and move.fees == []


def test_a_link_that_does_not_connect_carries_trains_but_not_networks():
    core = core_of(TWO_MAJORS, links=[{"kind": "ferry", "name": "ferry", "edges": [[[0, 1, 4], [0, 10, 4]]]}],
                   rules={"link_kinds": {"ferry": {"moves": 3, "connects": False}}})
    rail = core.new_state([0])
    own(rail, 0, (k(1, 3), k(1, 4)))
    assert core.majors_connected(rail, 0) == ["M1"]
    assert not core.can_start_at(rail, 0, core.map.find(k(10, 4)))
    assert core.check_move(rail, 0, [k(1, 4), k(10, 4)]).moves == 3
