"""Canal systems: rotating tiles, renting (each refusal), and the cruise's paths, removals and token
(README.md, "Rent a canal" and "The cruise"), on small hand-made tiles."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.slipway import canal

DEFS = {
    "straight": {"id": "straight", "cost": 0, "mouths": ["N", "S"], "centre": False,
                 "spots": {"N": None, "S": "navy"}},
    "basin": {"id": "basin", "cost": 1, "mouths": ["N", "S"], "centre": True,
              "spots": {"N": "lantern", "S": None, "C": "riband"}},
    "bend": {"id": "bend", "cost": 1, "mouths": ["N", "E"], "centre": False,
             "spots": {"N": "trade", "E": None}},
    "tee": {"id": "tee", "cost": 2, "mouths": ["E", "S", "W"], "centre": True,
            "spots": {"E": None, "S": "lifeboat", "W": None, "C": None}},
    "cross": {"id": "cross", "cost": 3, "mouths": ["N", "E", "S", "W"], "centre": True,
              "spots": {"N": None, "E": None, "S": None, "W": None, "C": "lifebuoy"}},
}
# more tiles of the same shapes, with their own ids (a system never holds one tile twice)
DEFS.update({name: dict(DEFS[shape], id=name) for name, shape in [
    ("straight-b", "straight"), ("straight-c", "straight"), ("b1", "bend"), ("b2", "bend"), ("b3", "bend"),
    ("b4", "bend")]})


def tile(x, y, tile_id, rotation=0):
    return {"x": x, "y": y, "tile": tile_id, "rotation": rotation}


def system(*tiles, token=None):
    return {"tiles": list(tiles), "token": token}


def only_paths(found):
    return [entry["path"] for entry in found]


# -- rotation ----------------------------------------------------------------------------------------------

def test_rotation_turns_mouths_and_spots_clockwise():
    assert canal.rotated(DEFS["bend"], 0) == (frozenset("NE"), {"N": "trade", "E": None})
    assert canal.rotated(DEFS["bend"], 1) == (frozenset("ES"), {"E": "trade", "S": None})
    assert canal.rotated(DEFS["bend"], 3) == (frozenset("WN"), {"W": "trade", "N": None})
    mouths, spots = canal.rotated(DEFS["tee"], 2)
    assert mouths == frozenset("WNE")
    assert spots == {"W": None, "N": "lifeboat", "E": None, "C": None}
    assert canal.rotated(DEFS["basin"], 1)[1] == {"E": "lantern", "W": None, "C": "riband"}


# -- renting -----------------------------------------------------------------------------------------------

START = system(tile(0, 0, "straight"))     # mouths N and S


@pytest.mark.parametrize("tile_id, x, y, rotation, code, words", [
    ("straight", 0, 0, 0, "cell-taken", "(0, 0)"),
    ("straight", 3, 0, 0, "not-adjacent", "(3, 0)"),
    ("straight", 1, 1, 0, "not-adjacent", "(1, 1)"),          # diagonal only
    ("bend", 1, 0, 2, "sides-mismatch", "west"),               # its west mouth against the start's east bank
    ("bend", 0, 1, 1, "sides-mismatch", "north"),              # its north bank against the start's south mouth
    ("straight", 1, 0, 0, "no-connection", "mouth"),           # bank against bank only
    ("straight", 0, 1, 4, "bad-rotation", "0 to 3"),
    ("nothing", 0, 1, 0, "unknown-tile", "nothing"),
])
def test_rent_refusals(tile_id, x, y, rotation, code, words):
    refused = canal.placement_problem(START, DEFS, tile_id, x, y, rotation)
    assert refused is not None
    assert refused[0] == code
    assert words in refused[1]


def test_rent_legal():
    assert canal.placement_problem(START, DEFS, "straight", 0, 1, 0) is None
    assert canal.placement_problem(START, DEFS, "bend", 0, 1, 0) is None    # N meets the start's S mouth
    assert canal.placement_problem(START, DEFS, "tee", 0, -1, 1) is None   # turned to S, W, N: S meets N


def test_rent_must_match_every_neighbour():
    """A tile between two: matching one neighbour is not enough."""
    two = system(tile(0, 0, "straight"), tile(1, 1, "straight-b", 1))   # (1, 1) runs E-W
    assert canal.placement_problem(two, DEFS, "straight", 0, 1, 0)[0] == "sides-mismatch"  # E bank vs W mouth
    assert canal.placement_problem(two, DEFS, "bend", 0, 1, 0) is None                    # N and E mouths


def test_empty_system_takes_a_tile_anywhere():
    assert canal.placement_problem(system(), DEFS, "bend", 7, -3, 2) is None
    assert canal.placements(system(), DEFS, "bend") == [(0, 0, r) for r in range(4)]


def test_placements_lists_every_legal_rotation():
    assert canal.placements(START, DEFS, "straight") == [(0, -1, 0), (0, -1, 2), (0, 1, 0), (0, 1, 2)]
    # all mouths: only north or south of the start, where a mouth meets a mouth and no bank is faced
    assert canal.placements(START, DEFS, "cross") == [(0, -1, r) for r in range(4)] + [(0, 1, r) for r in range(4)]
    for x, y, r in canal.placements(START, DEFS, "tee"):
        assert canal.placement_problem(START, DEFS, "tee", x, y, r) is None


# -- moving ------------------------------------------------------------------------------------------------

def test_next_positions():
    basin = system(tile(0, 0, "basin"), tile(0, 1, "straight"))
    assert canal.next_positions(basin, DEFS, (0, 0, "N"), "N") == [((0, 0, "C"), "N")]
    assert canal.next_positions(basin, DEFS, (0, 0, "C"), "N") == [((0, 0, "S"), "N")]
    assert canal.next_positions(basin, DEFS, (0, 0, "S"), "N") == [((0, 1, "N"), "N")]
    assert canal.next_positions(basin, DEFS, (0, 1, "N"), "N") == [((0, 1, "S"), "N")]
    assert canal.next_positions(basin, DEFS, (0, 1, "S"), "N") == []            # nothing beyond
    assert canal.next_positions(basin, DEFS, (0, 0, "N"), "S") == []            # exit north: nothing there
    tee = system(tile(0, 0, "tee"))
    assert canal.next_positions(tee, DEFS, (0, 0, "C"), "W") == [((0, 0, "E"), "W"), ((0, 0, "S"), "W")]


def test_paths_on_a_lone_straight():
    one = system(tile(0, 0, "straight"))
    assert canal.paths(one, DEFS, 1) == [{"start": [0, 0, "N"], "path": [[0, 0, "S"]]},
                                         {"start": [0, 0, "S"], "path": [[0, 0, "N"]]}]
    assert canal.paths(one, DEFS, 2) == []          # a dead end too short
    assert canal.has_path(one, DEFS, 1) and not canal.has_path(one, DEFS, 2)
    assert canal.paths(one, DEFS, 0) == [] and not canal.has_path(one, DEFS, 0)


def test_paths_through_a_centre():
    one = system(tile(0, 0, "basin", 1))            # E-W with a centre
    assert only_paths(canal.paths(one, DEFS, 2, start=[0, 0, "W"])) == [[[0, 0, "C"], [0, 0, "E"]]]
    assert canal.paths(one, DEFS, 3) == []


def test_paths_across_tiles_and_a_bend():
    sys_ = system(tile(0, 0, "bend"), tile(1, 0, "straight", 1))    # N-E bend, then E-W straight
    assert canal.paths(sys_, DEFS, 3) == [
        {"start": [0, 0, "N"], "path": [[0, 0, "E"], [1, 0, "W"], [1, 0, "E"]]},
        {"start": [1, 0, "E"], "path": [[1, 0, "W"], [0, 0, "E"], [0, 0, "N"]]}]
    assert only_paths(canal.paths(sys_, DEFS, 3, start=[1, 0, "E"])) == [[[1, 0, "W"], [0, 0, "E"], [0, 0, "N"]]]
    assert canal.paths(sys_, DEFS, 3, start=[0, 0, "S"]) == []      # not a mouth
    assert canal.paths(sys_, DEFS, 3, start=[5, 5, "N"]) == []      # no tile


def test_a_tee_gives_two_choices():
    sys_ = system(tile(0, 0, "tee"), tile(1, 0, "straight", 1), tile(0, 1, "straight-b"),
                  token={"x": 0, "y": 0, "spot": "W", "entered": "W"})
    assert only_paths(canal.paths(sys_, DEFS, 3)) == [
        [[0, 0, "C"], [0, 0, "E"], [1, 0, "W"]],
        [[0, 0, "C"], [0, 0, "S"], [0, 1, "N"]],
    ]
    assert all(entry["start"] is None for entry in canal.paths(sys_, DEFS, 3))


def _square():
    """Four bends in a ring around a 2 x 2 block."""
    return system(tile(0, 0, "b1", 1), tile(1, 0, "b2", 2),
                  tile(1, 1, "b3", 3), tile(0, 1, "b4", 0))


def test_a_path_never_comes_back_to_a_tile_it_left():
    ring = _square()
    found = canal.paths(ring, DEFS, 7)
    assert len(found) == 8                           # from each mouth, once round to the start tile, which is gone
    assert canal.paths(ring, DEFS, 8) == []
    assert canal.has_path(ring, DEFS, 7) and not canal.has_path(ring, DEFS, 8)


def test_token_continues():
    sys_ = system(tile(0, 0, "straight"), tile(0, 1, "straight-b"),
                  token={"x": 0, "y": 0, "spot": "S", "entered": "N"})
    assert canal.paths(sys_, DEFS, 2) == [{"start": None, "path": [[0, 1, "N"], [0, 1, "S"]]}]
    assert canal.paths(sys_, DEFS, 3) == []
    assert canal.paths(sys_, DEFS, 2, start=[0, 0, "N"]) == []      # only the first cruise names a start


# -- walking -----------------------------------------------------------------------------------------------

def test_walk_reports_spots_removals_and_token_without_changing_the_system():
    sys_ = system(tile(0, 0, "basin"), tile(0, 1, "straight"), tile(0, 2, "bend", 3))   # bend N-W at (0, 2)
    before = copy.deepcopy(sys_)
    path = [[0, 0, "C"], [0, 0, "S"], [0, 1, "N"], [0, 1, "S"], [0, 2, "N"], [0, 2, "W"]]
    result = canal.walk(sys_, DEFS, path, start=[0, 0, "N"])
    assert sys_ == before
    assert result == {"ok": True, "spots": ["riband", None, None, "navy", None, "trade"],
                      "removed": ["basin", "straight"], "left": [[0, 0], [0, 1]],
                      "token": {"x": 0, "y": 2, "spot": "W", "entered": "N"}}
    canal.apply_walk(sys_, result)
    assert sys_ == {"tiles": [tile(0, 2, "bend", 3)], "token": {"x": 0, "y": 2, "spot": "W", "entered": "N"}}


def test_walk_then_continue_from_the_token():
    sys_ = system(tile(0, 0, "straight"), tile(0, 1, "straight-b"),
                  tile(0, 2, "straight-c"))
    first = canal.walk(sys_, DEFS, [[0, 0, "S"]], start=[0, 0, "N"])
    canal.apply_walk(sys_, first)
    assert len(sys_["tiles"]) == 3                  # the tile was not left yet: the token stands on its exit
    second = canal.walk(sys_, DEFS, [[0, 1, "N"], [0, 1, "S"], [0, 2, "N"]])
    assert second["ok"] and second["removed"] == ["straight", "straight-b"]
    canal.apply_walk(sys_, second)
    assert [(t["x"], t["y"]) for t in sys_["tiles"]] == [(0, 2)]
    assert sys_["token"] == {"x": 0, "y": 2, "spot": "N", "entered": "N"}


@pytest.mark.parametrize("path, start, words", [
    ([[0, 0, "S"], [0, 1, "S"]], [0, 0, "N"], "Step 2 cannot go to the south mouth of the tile at (0, 1)"),
    ([[0, 0, "N"]], [0, 0, "N"], "Step 1"),                       # back where it came in
    ([[0, 0, "S"], "x"], [0, 0, "N"], "Step 2 is not a position"),
    ([[0, 0, "S"]], None, "first cruise names its start"),
    ([[0, 0, "S"]], [0, 0, "E"], "not a mouth spot"),
    ([], [0, 0, "N"], "at least one"),
])
def test_walk_refusals(path, start, words):
    sys_ = system(tile(0, 0, "straight"), tile(0, 1, "straight-b"))
    result = canal.walk(sys_, DEFS, path, start=start)
    assert result["ok"] is False
    assert words in result["message"]
    with pytest.raises(ValueError):
        canal.apply_walk(sys_, result)


def test_walk_refuses_a_start_once_the_token_is_down():
    sys_ = system(tile(0, 0, "straight"), token={"x": 0, "y": 0, "spot": "N", "entered": "N"})
    result = canal.walk(sys_, DEFS, [[0, 0, "S"]], start=[0, 0, "N"])
    assert result["ok"] is False and "Only the first cruise" in result["message"]
    assert canal.walk(sys_, DEFS, [[0, 0, "S"]])["ok"] is True


def test_walk_refuses_coming_back_to_a_left_tile():
    ring = _square()
    path = canal.paths(ring, DEFS, 7, start=[0, 0, "S"])[0]["path"]
    assert path[-1] == [0, 1, "N"]
    result = canal.walk(ring, DEFS, path + [[0, 0, "S"]], start=[0, 0, "S"])
    assert result["ok"] is False and "Step 8" in result["message"]


# -- every listed path walks -------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(1, 7), length=st.integers(1, 6))
def test_listed_paths_walk(seed, size, length):
    """On random rented systems: every path :func:`canal.paths` lists is one :func:`canal.walk` accepts, it
    never enters a cell it left, and :func:`canal.has_path` agrees with the listing."""
    rng = random.Random(seed)
    defs = dict(DEFS, r0=dict(DEFS["cross"], id="r0"))
    sys_ = system({"x": 0, "y": 0, "tile": "r0", "rotation": 0})
    for i in range(1, size):
        name = f"r{i}"
        defs[name] = dict(DEFS[rng.choice(["straight", "basin", "bend", "tee", "cross"])], id=name)
        spots = canal.placements(sys_, defs, name)
        if spots:
            x, y, r = rng.choice(spots)
            sys_["tiles"].append({"x": x, "y": y, "tile": name, "rotation": r})
    found = canal.paths(sys_, defs, length)
    assert canal.has_path(sys_, defs, length) is bool(found)
    for entry in found:
        result = canal.walk(sys_, defs, entry["path"], start=entry["start"])
        assert result["ok"], result
        cells = [tuple(entry["start"][:2])] + [tuple(p[:2]) for p in entry["path"]]
        visits = [c for i, c in enumerate(cells) if i == 0 or cells[i - 1] != c]
        assert len(visits) == len(set(visits))                  # no tile entered twice
        assert [tuple(c) for c in result["left"]] == visits[:-1]
        assert result["token"]["spot"] == entry["path"][-1][2]
