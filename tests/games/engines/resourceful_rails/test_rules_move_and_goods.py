"""Resourceful Rails trains and goods, table-driven, on the shipped map through ``Engine.apply``:
placing the train, moving (own track and major cities free, tolls, movement per train and option,
moves sharing the turn's movement, reversing only at a city, also across turns), picking up,
capacity, the goods supply, dropping, delivering with the replacement draw and the reshuffle, and
discarding the hand.

Track is given in the state (``helpers.lay``/``own``); the train moves by commands.
Seat 0's line runs from Salt Lake City to Denver (20 steps); seat 1's spur runs from Salt Lake City
(0,38,20) to Logan (0,39,21), which produces cattle and medical supplies."""

import copy

import pytest

from games.engines.resourceful_rails import ENGINE, data

from .helpers import (
    DENVER,
    LOGAN,
    MAP,
    SLC,
    addr,
    apply,
    cash,
    end_turn,
    find_demand,
    give_cards,
    lay,
    load,
    move,
    neighbours,
    node,
    nodes_of,
    normal_turn,
    own,
    plain,
    put_train,
    refused,
)

SPUR = ["0,38,20", "0,38,21", "0,39,21"]  # Salt Lake City -> Logan
CATTLE_TO_SLC = (80, 1)  # card 80, demand 1: cattle to Salt Lake City, $12


def with_line(players=2, **options):
    """Seat 0's first normal turn, with seat 0's line Salt Lake City -> Denver; returns (state, line)."""
    state = normal_turn(players, **options)
    line = lay(state, 0, node(SLC), node(DENVER))
    assert len(line) == 21 and line[:2] == ["0,37,18", "0,38,18"] and line[-1] == node(DENVER)
    assert all(plain(k) for k in line[2:-1])
    return state, line


def with_spur(players=2, seat=1, **options):
    """Seat 0's first normal turn, ``seat`` owning the spur Salt Lake City -> Logan."""
    state = normal_turn(players, **options)
    assert lay(state, seat, node(SLC), node(LOGAN))[2:] == SPUR
    return state


def moved(state, seat, command):
    events = apply(state, seat, command)
    assert len(events) == 1 and events[0]["type"] == "moved"
    return events[0]


def turn_around(state, seat=0):
    """End turns until ``seat``'s next turn."""
    end_turn(state)
    while state["active"] != seat:
        end_turn(state)


# -- placing the train ---------------------------------------------------------------------------------------

PLACES = [
    ("0,38,18", False, None),  # the Salt Lake City milepost the line leaves from
    ("0,38,19", False, None),  # another of its seven
    ("0,57,15", False, None),  # Denver, at the line's end
    ("0,39,21", False, "no-track-there"),  # Logan: no track of seat 0's
    ("0,44,15", False, "not-a-city"),  # a milepost on the line
    ("0,39,21", True, None),  # place_anywhere: any city
    ("0,44,15", True, "not-a-city"),
]


@pytest.mark.parametrize("at, anywhere, code", PLACES)
def test_place_the_train_on_a_city_the_track_reaches(at, anywhere, code):
    state, _line = with_line(place_anywhere=anywhere)
    command = {"cmd": "place-train", "at": addr(at)}
    if code:
        assert refused(state, 0, command) == code
    else:
        assert apply(state, 0, command) == [
            {"type": "train-placed", "seat": 0, "at": at, "city": MAP.nodes[MAP.find(at)].city}]
        assert (state["players"][0]["at"], state["players"][0]["came_from"]) == (at, None)
        assert refused(state, 0, command) == "train-placed"


def test_no_track_no_place_unless_anywhere():
    state = normal_turn()
    assert refused(state, 0, {"cmd": "place-train", "at": addr(node(SLC))}) == "no-track-there"
    assert [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "place-train"] == []
    state = normal_turn(place_anywhere=True)
    places = [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "place-train"]
    assert len(places) == 48  # one per city


# (seat 0's sections leaving Salt Lake City: (its milepost, the one outside), place_anywhere) -> the mileposts
# the place-train control offers for Salt Lake City: where the track is, never a milepost of the seven it
# does not reach (the train would spend moves inside the city to get to its track)
PLACE_OFFERS = [
    ([("0,38,18", "0,38,17")], False, ["0,38,18"]),
    ([("0,39,19", "0,40,19")], False, ["0,39,19"]),
    ([("0,37,19", "0,36,20"), ("0,39,19", "0,40,19")], False, ["0,37,19", "0,39,19"]),
    ([("0,39,19", "0,40,19")], True, ["0,39,19"]),
    ([], True, ["0,37,18"]),  # no track there (place_anywhere): the city's first milepost
]


@pytest.mark.parametrize("sections, anywhere, offered", PLACE_OFFERS)
def test_place_train_is_offered_where_the_track_reaches_the_city(sections, anywhere, offered):
    state = normal_turn(place_anywhere=anywhere)
    for a, b in sections:
        own(state, 0, a, b)
    places = [MAP.key(MAP.find(c["at"])) for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "place-train"]
    listed = [MAP.key(MAP.find(e["command"]["at"])) for e in ENGINE.listing(state, seat=0)
              if e["command"]["cmd"] == "place-train"]
    assert places == listed
    assert [k for k in places if MAP.nodes[MAP.find(k)].city == SLC] == offered
    if not anywhere:
        assert {MAP.nodes[MAP.find(k)].city for k in places} == {SLC}
    for k in offered:
        assert apply(copy.deepcopy(state), 0, {"cmd": "place-train", "at": addr(k)})[0]["at"] == k


def test_build_to_a_city_first_and_place_the_train_next_turn():
    state = normal_turn()
    assert refused(state, 0, {"cmd": "place-train", "at": addr(node(LOGAN))}) == "no-track-there"
    event = apply(state, 0, {"cmd": "build", "path": [addr(k) for k in SPUR]})[0]
    assert (event["sections"], event["cost"]) == (2, 4)  # clear $1, then Logan $3
    assert refused(state, 0, {"cmd": "place-train", "at": addr(node(LOGAN))}) == "phase-over"
    turn_around(state)
    apply(state, 0, {"cmd": "place-train", "at": addr(node(LOGAN))})
    assert (state["players"][0]["at"], cash(state)) == (node(LOGAN), [46, 50])


def test_the_train_moves_in_the_turn_it_is_placed():
    state, line = with_line()
    assert refused(state, 0, move(*line[1:4])) == "no-train"
    apply(state, 0, {"cmd": "place-train", "at": addr(line[1])})
    assert refused(state, 0, move(*line[2:4])) == "bad-path"  # a move starts where the train stands
    assert moved(state, 0, move(*line[1:4]))["moves"] == 2
    assert state["players"][0]["at"] == line[3]


# -- moving --------------------------------------------------------------------------------------------------


def test_own_track_and_major_cities_are_free():
    state, line = with_line()
    put_train(state, 0, line[0])
    event = moved(state, 0, move(*line[:8]))
    assert event == {"type": "moved", "seat": 0, "path": line[:8], "moves": 7, "tolls": []}
    assert cash(state) == [50, 50]
    assert (state["players"][0]["at"], state["players"][0]["came_from"]) == (line[7], line[6])


def test_inside_a_major_city_every_milepost_counts_and_no_track_is_needed():
    state = normal_turn()
    assert state["rail"]["track"] == {}
    put_train(state, 0, "0,37,18")
    event = moved(state, 0, move("0,37,18", "0,38,19", "0,38,20"))  # across the centre
    assert (event["moves"], event["tolls"], cash(state)) == (2, [], [50, 50])
    assert ENGINE.view(state, seat=0)["turn"]["moves_left"] == 7
    assert refused(state, 0, move("0,38,20", "0,38,21")) == "no-track"


SPEEDS = [
    (False, "modest", 9), (False, "fast", 12), (False, "heavy", 9), (False, "advanced", 12),
    (True, "modest", 12), (True, "fast", 16), (True, "heavy", 12), (True, "advanced", 16),
]


@pytest.mark.parametrize("fast_trains, train, speed", SPEEDS)
def test_movement_per_train(fast_trains, train, speed):
    state, line = with_line(fast_trains=fast_trains)
    state["players"][0]["train"] = train
    put_train(state, 0, line[0])
    assert ENGINE.view(state, seat=0)["players"][0]["speed"] == speed
    assert refused(state, 0, move(*line[:speed + 2])) == "too-far"
    assert moved(state, 0, move(*line[:speed + 1]))["moves"] == speed
    assert ENGINE.view(state, seat=0)["turn"]["moves_left"] == 0
    assert refused(state, 0, move(*line[speed:speed + 2])) == "too-far"
    assert not [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "move"]


def test_several_moves_share_the_movement():
    state, line = with_line()
    put_train(state, 0, line[0])
    moved(state, 0, move(*line[:5]))
    assert ENGINE.view(state, seat=0)["turn"]["moves_left"] == 5
    assert refused(state, 0, move(*line[4:11])) == "too-far"
    moved(state, 0, move(*line[4:10]))
    view = ENGINE.view(state, seat=0)["turn"]
    assert (view["moves_used"], view["moves_left"]) == (9, 0)
    assert refused(state, 0, move(*line[9:11])) == "too-far"
    # the next turn has the whole movement again
    turn_around(state)
    assert moved(state, 0, move(*line[9:18]))["moves"] == 8


def test_off_track_is_refused():
    state, line = with_line()
    put_train(state, 0, line[5])
    off = next(x for x in neighbours(line[5]) if x not in line)
    assert refused(state, 0, move(line[5], off)) == "no-track"
    assert refused(state, 0, {"cmd": "move", "path": [addr(line[5]), addr(line[7])]}) == "not-adjacent"


# -- tolls ---------------------------------------------------------------------------------------------------


def test_opponent_track_costs_4_once_a_turn():
    state = with_spur()
    put_train(state, 0, SPUR[0])
    assert moved(state, 0, move(*SPUR)) == {"type": "moved", "seat": 0, "path": SPUR, "moves": 2,
                                            "tolls": [{"payee": 1, "amount": 4}]}
    assert cash(state) == [46, 54]
    assert ENGINE.view(state, seat=0)["turn"]["tolls_paid"] == [1]
    # back the way it came (a reversal at Logan, a city): paid already this turn
    assert moved(state, 0, move(SPUR[2], SPUR[1]))["tolls"] == []
    assert cash(state) == [46, 54]
    # the next turn pays again
    turn_around(state)
    assert moved(state, 0, move(SPUR[1], SPUR[0]))["tolls"] == [{"payee": 1, "amount": 4}]
    assert cash(state) == [42, 58]


@pytest.mark.parametrize("money, code", [(3, "cannot-pay"), (4, None)])
def test_a_toll_is_paid_before_use(money, code):
    state = with_spur()
    state["players"][0]["cash"] = money
    put_train(state, 0, SPUR[0])
    if code:
        assert refused(state, 0, move(*SPUR)) == code
        assert state["players"][0]["at"] == SPUR[0]
    else:
        moved(state, 0, move(*SPUR))
        assert cash(state) == [0, 54]


def three_owners():
    """3 players: seat 1 owns the spur to Logan, seat 2 two sections on from Logan; returns (state, path)."""
    state = with_spur(3)
    x = "0,38,22"
    y = next(k for k in neighbours(x) if plain(k) and k not in SPUR and k != node(LOGAN))
    own(state, 2, node(LOGAN), x)
    own(state, 2, x, y)
    return state, [*SPUR, x, y]


def test_each_opponent_used_is_paid():
    state, path = three_owners()
    put_train(state, 0, path[0])
    event = moved(state, 0, move(*path))
    assert (event["moves"], event["tolls"]) == (4, [{"payee": 1, "amount": 4}, {"payee": 2, "amount": 4}])
    assert cash(state) == [42, 54, 54]


def test_a_move_is_refused_when_a_later_toll_cannot_be_paid():
    state, path = three_owners()
    state["players"][0]["cash"] = 7
    put_train(state, 0, path[0])
    assert refused(state, 0, move(*path)) == "cannot-pay"
    moved(state, 0, move(*path[:3]))  # the first opponent's toll alone
    assert cash(state) == [3, 54, 50]
    assert refused(state, 0, move(*path[2:])) == "cannot-pay"


# -- reversing -----------------------------------------------------------------------------------------------


def test_no_reversing_between_cities():
    state, line = with_line()
    put_train(state, 0, line[1])
    moved(state, 0, move(*line[1:6]))
    assert refused(state, 0, move(line[5], line[4])) == "no-reverse"
    moved(state, 0, move(line[5], line[6]))


def test_no_reversing_within_one_move_between_cities():
    state, line = with_line()
    put_train(state, 0, line[1])
    assert refused(state, 0, move(line[1], line[2], line[3], line[2])) == "no-reverse"


@pytest.mark.parametrize("path", [
    ["0,38,20", "0,38,21", "0,39,21", "0,38,21"],  # at Logan (a small city)
    ["0,38,21", "0,38,20", "0,38,19", "0,38,20"],  # at Salt Lake City's centre
    ["0,38,21", "0,38,20", "0,38,21"],  # at the major city's edge
])
def test_reversing_at_a_city(path):
    state = with_spur(seat=0)
    put_train(state, 0, path[0])
    assert moved(state, 0, move(*path))["moves"] == len(path) - 1
    assert (state["players"][0]["at"], state["players"][0]["came_from"]) == (path[-1], path[-2])


def test_no_reversing_across_turns_between_cities():
    state, line = with_line()
    put_train(state, 0, line[1])
    moved(state, 0, move(*line[1:6]))
    turn_around(state)
    assert ENGINE.view(state, seat=1)["players"][0]["came_from"] == line[4]
    assert refused(state, 0, move(line[5], line[4])) == "no-reverse"
    moved(state, 0, move(*line[5:8]))


def test_reversing_across_turns_at_a_city():
    state = with_spur(seat=0)
    put_train(state, 0, SPUR[0])
    moved(state, 0, move(*SPUR))
    turn_around(state)
    assert moved(state, 0, move(SPUR[2], SPUR[1]))["moves"] == 1


# -- goods ---------------------------------------------------------------------------------------------------

PICKUPS = [
    ("cattle", None),
    ("medical-supplies", None),
    ("gold", "not-here"),  # Salt Lake City's, not Logan's
    ("wine", "not-here"),
    ("unobtainium", "unknown-good"),
]


@pytest.mark.parametrize("good, code", PICKUPS)
def test_pick_up_only_what_the_city_produces(good, code):
    state = normal_turn()
    put_train(state, 0, node(LOGAN))
    assert data.city_goods()[LOGAN] == ("cattle", "medical-supplies")
    command = {"cmd": "pick-up", "good": good}
    if code:
        assert refused(state, 0, command) == code
    else:
        assert apply(state, 0, command) == [{"type": "picked-up", "seat": 0, "good": good, "city": LOGAN}]
        assert (state["players"][0]["loads"], state["supply"][good]) == ([good], 2)


@pytest.mark.parametrize("at", [None, "0,38,21"])
def test_pick_up_only_at_a_city(at):
    state = normal_turn()
    put_train(state, 0, at)
    assert refused(state, 0, {"cmd": "pick-up", "good": "cattle"}) == "not-at-a-city"


@pytest.mark.parametrize("train, capacity", [("modest", 2), ("fast", 2), ("heavy", 3), ("advanced", 3)])
def test_capacity_per_train(train, capacity):
    state = normal_turn()
    state["players"][0]["train"] = train
    put_train(state, 0, node(LOGAN))
    goods = ["cattle", "medical-supplies", "cattle", "medical-supplies"]
    for good in goods[:capacity]:
        apply(state, 0, {"cmd": "pick-up", "good": good})
    assert refused(state, 0, {"cmd": "pick-up", "good": goods[capacity]}) == "train-full"
    assert state["players"][0]["loads"] == goods[:capacity]
    assert ENGINE.view(state, seat=1)["players"][0]["capacity"] == capacity


@pytest.mark.parametrize("supply", [1, 2, 3])
def test_goods_supply_runs_out(supply):
    state = normal_turn(goods_supply=supply)
    state["players"][1]["train"] = "heavy"
    load(state, 1, *["cattle"] * (supply - 1))  # seat 1's train, elsewhere, carries all the cattle but one
    put_train(state, 0, node(LOGAN))
    apply(state, 0, {"cmd": "pick-up", "good": "cattle"})
    assert state["supply"]["cattle"] == 0
    assert refused(state, 0, {"cmd": "pick-up", "good": "cattle"}) == "none-left"
    apply(state, 0, {"cmd": "pick-up", "good": "medical-supplies"})
    assert state["supply"]["medical-supplies"] == supply - 1


def test_drop_returns_the_load_to_the_supply():
    state = normal_turn()
    put_train(state, 0, node(SLC))
    load(state, 0, "cattle", "wine")
    assert state["supply"]["cattle"] == 2
    assert refused(state, 0, {"cmd": "drop", "good": "beef"}) == "no-such-load"
    assert apply(state, 0, {"cmd": "drop", "good": "cattle"}) == [
        {"type": "dropped", "seat": 0, "good": "cattle", "city": SLC}]
    assert (state["players"][0]["loads"], state["supply"]["cattle"], cash(state)) == (["wine"], 3, [50, 50])


@pytest.mark.parametrize("at", [None, "0,38,21"])
def test_drop_only_at_a_city(at):
    state = normal_turn()
    put_train(state, 0, at)
    load(state, 0, "cattle")
    assert refused(state, 0, {"cmd": "drop", "good": "cattle"}) == ("no-train" if at is None else "not-at-a-city")


# -- delivering ---------------------------------------------------------------------------------------------


def at_slc_with_cattle():
    state = normal_turn()
    card, index = CATTLE_TO_SLC
    assert find_demand(SLC, "cattle") == CATTLE_TO_SLC
    give_cards(state, 0, card)
    put_train(state, 0, node(SLC, 4))
    load(state, 0, "cattle")
    return state


def test_deliver_pays_discards_the_card_and_draws_another():
    state = at_slc_with_cattle()
    hand = list(state["players"][0]["hand"])
    deck = list(state["deck"])
    events = apply(state, 0, {"cmd": "deliver", "card": 80, "demand": 1})
    assert events == [
        {"type": "delivered", "seat": 0, "card": 80, "demand": 1, "good": "cattle", "city": SLC, "payout": 12},
        {"type": "card-drawn", "seat": 0},
    ]
    assert cash(state) == [62, 50]
    assert state["players"][0]["hand"] == [c for c in hand if c != 80] + [deck[-1]]
    assert state["deck"] == deck[:-1]
    assert state["discards"] == [80]
    assert (state["players"][0]["loads"], state["supply"]["cattle"]) == ([], 3)
    assert state["draws"] == 1
    # one delivery per card: the card is gone
    load(state, 0, "cattle")
    assert refused(state, 0, {"cmd": "deliver", "card": 80, "demand": 1}) == "not-in-hand"


def test_a_whole_delivery_by_commands():
    state = normal_turn()
    give_cards(state, 0, 80)
    line = lay(state, 0, node(SLC), node(LOGAN))
    assert line[2:] == SPUR
    apply(state, 0, {"cmd": "place-train", "at": addr(node(LOGAN))})
    apply(state, 0, {"cmd": "pick-up", "good": "cattle"})
    moved(state, 0, move(*reversed(SPUR)))
    apply(state, 0, {"cmd": "deliver", "card": 80, "demand": 1})
    assert cash(state) == [62, 50] and len(state["players"][0]["hand"]) == 3


DELIVERIES = [
    ("wrong-city", "wrong-city"),
    ("no-load", "no-such-load"),
    ("other-card", "not-in-hand"),
    ("wrong-demand", "wrong-city"),
]


@pytest.mark.parametrize("case, code", DELIVERIES)
def test_deliver_refused(case, code):
    state = at_slc_with_cattle()
    command = {"cmd": "deliver", "card": 80, "demand": 1}
    if case == "wrong-city":
        put_train(state, 0, node(LOGAN))
    elif case == "no-load":
        state["players"][0]["loads"] = []
        state["supply"]["cattle"] += 1
    elif case == "other-card":
        command["card"] = state["players"][1]["hand"][0]
    else:
        command["demand"] = 0  # integrated circuits to Logan
    assert refused(state, 0, command) == code


def test_the_discards_are_reshuffled_when_the_deck_runs_out():
    state = at_slc_with_cattle()
    state["discards"], state["deck"] = state["deck"], []
    others = set(state["discards"])
    hand = [c for c in state["players"][0]["hand"] if c != 80]
    apply(state, 0, {"cmd": "deliver", "card": 80, "demand": 1})
    drawn = state["players"][0]["hand"][-1]
    assert state["players"][0]["hand"][:2] == hand
    assert drawn in others | {80}
    assert state["discards"] == []
    assert sorted(state["deck"] + [drawn]) == sorted(others | {80})
    every = state["deck"] + state["discards"] + [c for p in state["players"] for c in p["hand"]]
    assert sorted(every) == list(range(1, 145))


# -- discarding the hand ---------------------------------------------------------------------------------------


def test_discard_hand_replaces_the_turn():
    state = normal_turn()
    hand = list(state["players"][0]["hand"])
    deck = list(state["deck"])
    events = apply(state, 0, {"cmd": "discard-hand"})
    assert [e["type"] for e in events] == ["hand-discarded", "turn-ended", "turn-started"]
    assert events[0] == {"type": "hand-discarded", "seat": 0, "count": 3}
    assert state["players"][0]["hand"] == [deck[-1], deck[-2], deck[-3]]
    assert state["discards"] == hand
    assert state["deck"] == deck[:-3]
    assert (state["active"], state["draws"], cash(state)) == (1, 1, [50, 50])


@pytest.mark.parametrize("first", ["place-train", "pick-up", "move", "build"])
def test_discard_hand_only_before_acting(first):
    state = with_spur(seat=0)
    put_train(state, 0, node(LOGAN))
    if first == "place-train":
        put_train(state, 0, None)
        apply(state, 0, {"cmd": "place-train", "at": addr(node(LOGAN))})
    elif first == "pick-up":
        apply(state, 0, {"cmd": "pick-up", "good": "cattle"})
    elif first == "move":
        moved(state, 0, move(SPUR[2], SPUR[1]))
    else:
        apply(state, 0, {"cmd": "build", "path": [addr(nodes_of(DENVER)[0]), addr("0,56,16")]})
    assert refused(state, 0, {"cmd": "discard-hand"}) == ("phase-over" if first == "build" else "already-acted")
    assert not [c for c in ENGINE.legal_commands(state, seat=0) if c["cmd"] == "discard-hand"]
