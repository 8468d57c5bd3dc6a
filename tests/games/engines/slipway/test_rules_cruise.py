"""Slipway's launch (README, "Outfitting" and "The cruise"): each capacity and the builders' extra room,
speed from the spec's chart and the speed employees, a cruise's score, the first and later cruises on a
real canal system, failures (no captain, a canal too short), what a cruise consumes and frees."""

from __future__ import annotations

import pytest

from games.engines.slipway import data

from .scenes import (
    ARMED,
    ENGINE,
    PLAIN,
    RIGGED,
    acting,
    cruise,
    game,
    give_employees,
    of_type,
    player,
    refuse,
    seat,
    send,
    set_canals,
    set_stock,
    ship_in_yard,
)

# The room of the scenes' ships, from ships.json's rows (B01 M01 S01; B03 M04 S11; B07 M41 S19).
ROOM = {
    PLAIN: {"cabin": 2, "stoker_cabin": 1, "rig": 0, "crane": 0, "cannon": 0},
    RIGGED: {"cabin": 0, "stoker_cabin": 0, "rig": 4, "crane": 0, "cannon": 0},
    ARMED: {"cabin": 1, "stoker_cabin": 1, "rig": 0, "crane": 2, "cannon": 2},
}


@pytest.mark.parametrize("ship", list(ROOM))
def test_the_scenes_ships_have_the_room_written_here(ship):
    tiles = [data.raw("ships")["tiles"][[t["id"] for t in data.raw("ships")["tiles"]].index(i)] for i in ship]
    room = {"cabin": sum(t["cabins"] for t in tiles), "stoker_cabin": sum(t["stoker_cabins"] for t in tiles)}
    room.update({m: sum(t["mounts"][m] for t in tiles) for m in ("rig", "crane", "cannon")})
    assert room == ROOM[ship]


def _launch_scene(ship=PLAIN, employees=(), **stock):
    state = acting(game(2))
    ship_in_yard(state, 0, ship)
    give_employees(state, 0, *employees)
    set_stock(state, 0, **stock)
    return state


def outfit(*items, slot=0):
    return {"cmd": "outfit", "slot": slot, "items": list(items)}


# -- outfitting --------------------------------------------------------------------------------------------


OUTFITS = [
    # (ship, employees, items, refusal or None)
    (PLAIN, (), ["captain"], None),  # the first captain needs no cabin
    (PLAIN, (), ["captain"] * 3, None),  # two officers, two cabins
    (PLAIN, (), ["captain"] * 4, "no-room"),
    (PLAIN, (), ["marine", "merchant"], None),
    (PLAIN, (), ["captain", "marine", "merchant"], None),
    (PLAIN, (), ["captain", "captain", "marine", "merchant"], "no-room"),
    (PLAIN, (), ["marine", "marine", "merchant"], "no-room"),
    (PLAIN, ("E12",), ["marine", "marine", "merchant"], None),  # the cabin joiner's cabin
    (PLAIN, (), ["stoker"], None),
    (PLAIN, (), ["stoker", "stoker"], "no-room"),
    (PLAIN, ("E13",), ["stoker", "stoker"], None),  # the boiler-room plater's stoker cabin
    (PLAIN, (), ["sail"], "no-room"),
    (PLAIN, ("E09",), ["smokestack"], None),  # the master rigger's mount
    (PLAIN, ("E09",), ["sail", "smokestack"], "no-room"),
    (PLAIN, (), ["crane"], "no-room"),
    (PLAIN, (), ["cannon"], "no-room"),
    (RIGGED, (), ["sail", "sail", "smokestack", "smokestack"], None),
    (RIGGED, (), ["sail", "sail", "sail", "smokestack", "smokestack"], "no-room"),
    (RIGGED, (), ["marine"], "no-room"),
    (RIGGED, (), ["captain"], None),
    (ARMED, (), ["crane", "crane", "cannon", "cannon"], None),
    (ARMED, (), ["crane", "crane", "crane"], "no-room"),
    (ARMED, ("E10",), ["crane", "crane", "crane"], None),
    (ARMED, (), ["cannon", "cannon", "cannon"], "no-room"),
    (ARMED, ("E11",), ["cannon", "cannon", "cannon"], None),
    (ARMED, ("E10",), ["cannon", "cannon", "cannon"], "no-room"),
]


@pytest.mark.parametrize(("ship", "employees", "items", "code"), OUTFITS)
def test_outfit_capacity(ship, employees, items, code):
    state = _launch_scene(ship, employees, **{i: items.count(i) for i in set(items)})
    if code is None:
        events = send(state, outfit(*items))
        assert of_type(events, "outfitted") == [{"type": "outfitted", "seat": 0, "slot": 0, "items": items}]
        assert sorted(player(state)["outfits"]["0"]) == sorted(items)
        assert all(n == 0 for n in player(state)["items"].values())  # taken from the stock
    else:
        assert refuse(state, outfit(*items)) == code


def test_outfitting_adds_to_what_is_on_board():
    state = _launch_scene(captain=3, marine=1)
    send(state, outfit("captain", "marine"))
    send(state, outfit("captain"))
    assert refuse(state, outfit("captain")) == "no-room"  # 2 cabins: a marine and an officer
    assert player(state)["outfits"]["0"] == ["captain", "marine", "captain"]


@pytest.mark.parametrize(("stock", "items"), [({}, ["captain"]), ({"captain": 1}, ["captain", "captain"]),
                                              ({"stoker": 1}, ["marine"])])
def test_outfit_needs_the_items_in_stock(stock, items):
    state = _launch_scene(**stock)
    assert refuse(state, outfit(*items)) == "not-in-stock"


def test_outfit_names_a_completed_ships_bow():
    state = _launch_scene(captain=1)
    assert refuse(state, outfit("captain", slot=1)) == "no-ship"


# -- speed (the spec's chart) and the cruise's score -------------------------------------------------------


SPEEDS = [
    # (items, employees, pieces, speed)
    ([], (), 3, 1),
    (["sail"], (), 3, 2),
    (["sail", "sail"], (), 3, 3),
    (["stoker"], (), 3, 2),
    (["smokestack"], (), 3, 1),  # a smokestack without a stoker: half a step, rounded down
    (["smokestack", "smokestack"], (), 3, 2),
    (["smokestack"] * 3, (), 3, 2),
    (["stoker", "stoker", "sail"], (), 3, 4),
    (["stoker", "smokestack"], (), 3, 4),  # a steamer
    (["stoker", "stoker", "smokestack"], (), 3, 5),
    (["stoker", "smokestack", "smokestack"], (), 3, 5),
    (["stoker", "smokestack", "sail"], (), 3, 5),
    (["stoker", "stoker", "smokestack", "smokestack", "sail", "sail"], (), 3, 8),
    (["captain", "marine", "crane", "cannon"], (), 3, 1),
    ([], ("E27",), 3, 2),  # speed always
    (["smokestack"], ("E28",), 3, 2),  # with a smokestack
    (["sail"], ("E28",), 3, 2),
    (["sail"], ("E29",), 3, 3),  # with a sail
    (["stoker"], ("E29",), 3, 2),
    ([], ("E30",), 4, 1),  # 5 or more pieces
    ([], ("E30",), 5, 2),
    (["stoker", "smokestack", "sail"], ("E27", "E28", "E29", "E30"), 5, 9),
]


@pytest.mark.parametrize(("items", "employees", "pieces", "speed"), SPEEDS)
def test_speed_from_the_chart(items, employees, pieces, speed):
    state = game(2)
    give_employees(state, 0, *employees)
    tiles = ["B01", *["M01", "M02", "M03"][: pieces - 2], "S01"]
    assert ENGINE.speed(player(state, 0), tiles, items) == speed


def test_the_view_shows_a_completed_ships_speed():
    state = _launch_scene(RIGGED, captain=1, sail=2)
    send(state, outfit("captain", "sail", "sail"))
    ship = ENGINE.view(state, seat=1)["players"][0]["completed"][0]
    assert ship["speed"] == 3 and ship["slot"] == 0 and ship["room"] == ROOM[RIGGED]


SAFE = ("B04", "M25", "S04")  # two lanterns and a lifeboat
SCORES = [
    # (tiles, items, speed, spots entered, the score's parts: crew, equipment, officials, riband)
    (PLAIN, ["captain"], 1, [None], (1, 0, 0, 0)),
    (PLAIN, ["captain", "captain", "marine", "merchant", "stoker", "stoker"], 2, [None, None], (4, 0, 0, 0)),
    (ARMED, ["captain", "crane", "cannon", "cannon"], 1, [None], (1, 6, 0, 0)),
    (ARMED, ["captain", "marine", "marine", "cannon", "crane"], 2, ["navy", None], (3, 4, 3, 0)),
    (ARMED, ["captain", "merchant", "crane", "crane", "cannon"], 2, ["trade", "trade"], (2, 6, 6, 0)),
    (SAFE, ["captain"], 3, ["lantern", "lifeboat", "lifebuoy"], (1, 0, 3, 0)),
    (PLAIN, ["captain"], 4, ["riband", None, None, None], (1, 0, 0, 1)),
    (PLAIN, ["captain"], 4, ["riband", None, "riband", None], (1, 0, 0, 3)),  # the last riband entered
    (PLAIN, ["captain", "marine"], 5, [None, "navy", None, None, "riband"], (2, 0, 1, 5)),
]


@pytest.mark.parametrize(("tiles", "items", "speed", "spots", "parts"), SCORES)
def test_cruise_score(tiles, items, speed, spots, parts):
    state = game(2)
    score = ENGINE.score_cruise(player(state, 0), list(tiles), items, speed, spots)
    crew, equipment, officials, riband = parts
    assert score == {"crew": crew, "equipment": equipment, "speed": speed, "officials": officials,
                     "riband": riband, "total": crew + equipment + speed + officials + riband}


# -- the cruise on a canal system --------------------------------------------------------------------------

# The start tile (a straight N-S, no centre) at (0, 0); the Measured Mile (N-S, a riband centre) south of it;
# Ebb Cut (a plain straight) south of that.
CANALS = [(0, 0, "start", 0), (0, 1, "C06", 0), (0, 2, "C01", 0)]


def _cruise_scene(items, ship=PLAIN, token=None, tiles=CANALS):
    state = _launch_scene(ship)
    set_canals(state, 0, list(tiles), token)
    player(state)["outfits"]["0"] = list(items)  # set directly: these tests are about the canal
    return state


def test_the_first_cruise_starts_at_a_chosen_mouth_and_scores():
    state = _cruise_scene(["captain", "sail", "sail"])  # speed 3
    events = send(state, cruise(0, [(0, 0, "S"), (0, 1, "N"), (0, 1, "C")], start=(0, 0, "N")))
    done = of_type(events, "cruised")[0]
    assert done["speed"] == 3 and done["spots"] == [None, None, "riband"]
    assert done["score"] == {"crew": 1, "equipment": 0, "speed": 3, "officials": 0, "riband": 3, "total": 7}
    p = state["players"][0]
    assert p["used_canals"] == ["start"]  # the tile left
    assert [t["tile"] for t in p["canal"]["tiles"]] == ["C06", "C01"]
    assert p["canal"]["token"] == {"x": 0, "y": 1, "spot": "C", "entered": "N"}
    assert p["fleet"] == [{"tiles": list(PLAIN), "items": ["captain", "sail", "sail"], "speed": 3,
                           "score": done["score"], "canals": 1}]
    assert p["yard"] == [None] * 8 and p["outfits"] == {}  # the slots are free again


def test_later_cruises_go_on_from_the_token():
    token = {"x": 0, "y": 1, "spot": "C", "entered": "N"}
    state = _cruise_scene(["captain", "sail"], token=token, tiles=CANALS[1:])  # speed 2
    assert refuse(state, cruise(0, [(0, 1, "S"), (0, 2, "N")], start=(0, 1, "N"))) == "no-start"
    send(state, cruise(0, [(0, 1, "S"), (0, 2, "N")]))
    p = state["players"][0]
    assert p["used_canals"] == ["C06"] and p["canal"]["token"] == {"x": 0, "y": 2, "spot": "N", "entered": "N"}


@pytest.mark.parametrize(("command", "code"), [
    (cruise(0, [(0, 0, "S")]), "start-needed"),
    (cruise(0, [(0, 0, "S")], start=(0, 0, "N")), "wrong-length"),  # speed 2
    (cruise(0, [(0, 0, "S"), (0, 1, "N"), (0, 1, "C")], start=(0, 0, "N")), "wrong-length"),
    (cruise(0, [(0, 0, "S"), (0, 0, "N")], start=(0, 0, "N")), "bad-path"),  # back the way it came
    (cruise(0, [(0, 0, "S"), (0, 1, "C")], start=(0, 0, "N")), "bad-path"),  # skips a spot
    (cruise(0, [(0, 1, "C"), (0, 1, "S")], start=(0, 1, "W")), "bad-path"),  # not a mouth of that tile
    (cruise(3, [(0, 0, "S"), (0, 1, "N")], start=(0, 0, "N")), "no-ship"),
])
def test_cruise_refusals(command, code):
    state = _cruise_scene(["captain", "sail"])
    assert refuse(state, command) == code


def test_a_ship_cruises_only_after_the_action():
    state = _cruise_scene(["captain", "sail"])
    state["turn"]["main_done"] = False
    assert refuse(state, cruise(0, [(0, 0, "S"), (0, 1, "N")], start=(0, 0, "N"))) == "act-first"


@pytest.mark.parametrize(("items", "tiles", "reason"), [
    (["sail", "sail"], CANALS, "no-captain"),
    (["captain", "stoker", "smokestack", "sail", "sail", "sail"], CANALS, "canal-too-short"),  # speed 7 > 6 spots
    (["captain", "sail"], [(0, 0, "start", 0)], "canal-too-short"),
])
def test_a_ship_that_cannot_cruise_is_lost_with_what_it_carried(items, tiles, reason):
    state = _cruise_scene(items, tiles=tiles)
    assert refuse(state, cruise(0, [(0, 0, "S")], start=(0, 0, "N"))) == "cruise-fails"
    assert refuse(state, {"cmd": "cruise", "slot": 0, "path": [], "start": {"x": 0, "y": 0, "spot": "N"}}) \
        == "cruise-fails"
    events = send(state, {"cmd": "cruise", "slot": 0, "path": []})
    lost = of_type(events, "ship-lost")[0]
    assert lost["reason"] == reason
    p = state["players"][0]
    assert p["lost"] == [{"tiles": list(PLAIN), "items": items, "speed": lost["speed"], "reason": reason}]
    assert state["scrapped"] == list(PLAIN) and p["fleet"] == []
    assert p["yard"] == [None] * 8 and p["outfits"] == {}
    assert [t["tile"] for t in p["canal"]["tiles"]] == [t for _, _, t, _ in tiles]  # the canals untouched
    assert seat(state) == 1  # the last ship gone: the turn ended


def test_two_ships_launch_in_the_order_chosen():
    state = _cruise_scene(["captain", "sail"])
    ship_in_yard(state, 0, ("B02", "M02", "S02"), at=4)
    player(state)["outfits"]["4"] = ["captain"]
    send(state, cruise(4, [(0, 0, "S")], start=(0, 0, "N")))
    assert seat(state) == 0 and state["turn"]["stage"] == "launch" and state["turn"]["cruised"] == 1
    assert refuse(state, {"cmd": "end-turn"}) == "ships-to-launch"
    send(state, cruise(0, [(0, 1, "N"), (0, 1, "C")]))
    assert seat(state) == 1 and [s["speed"] for s in state["players"][0]["fleet"]] == [1, 2]
