"""Resourceful Rails: the win (6 of the 7 major cities joined by one network and $250, checked at
the end of the player's own turn), both win timings, the round limit, and what is refused once the
game is over or when it is not your turn. Track is given in the state (``helpers.lay``)."""

import pytest

from games.engines.resourceful_rails import ENGINE

from .helpers import (
    SLC,
    apply,
    cash,
    end_turn,
    give_cards,
    lay,
    load,
    node,
    normal_turn,
    put_train,
    refused,
)

SIX = ["seattle-wa", "portland-or", "redding-ca", SLC, "missoula-mt", "casper-wy"]


def join(state, seat, cities):
    lay(state, seat, *(node(c) for c in cities))


def majors(state, seat):
    return ENGINE.view(state, seat=None)["players"][seat]["majors"]


NETWORKS = {
    "six": [SIX],
    "seven": [[*SIX, "denver-co"]],
    "five": [SIX[:5]],
    "six-in-two-networks": [SIX[:3], SIX[3:]],
}

WINS = [
    ("six", 250, True),
    ("six", 249, False),
    ("six", 1000, True),
    ("seven", 250, True),
    ("five", 1000, False),
    ("six-in-two-networks", 1000, False),
]


@pytest.mark.parametrize("network, money, wins", WINS)
def test_six_majors_and_250_dollars_win_at_the_end_of_the_turn(network, money, wins):
    state = normal_turn(3)
    for cities in NETWORKS[network]:
        join(state, 0, cities)
    expected = {"six": 6, "seven": 7, "five": 5, "six-in-two-networks": 3}[network]
    assert len(majors(state, 0)) == expected
    state["players"][0]["cash"] = money
    assert not state["finished"]  # nothing is checked before the turn ends
    events = end_turn(state)
    if wins:
        assert [e["type"] for e in events] == ["turn-ended", "qualified", "game-over"]
        assert events[-1] == {"type": "game-over", "winners": [0], "reason": "won"}
        assert (state["finished"], state["winners"], state["end_reason"]) == (True, [0], "won")
        assert ENGINE.is_finished(state) and ENGINE.active_seats(state) == []
        view = ENGINE.view(state, seat=1)
        assert (view["phase"], view["active_seat"], view["winners"]) == ("finished", None, [0])
    else:
        assert [e["type"] for e in events] == ["turn-ended", "turn-started"]
        assert (state["finished"], state["active"], state["qualified"]) == (False, 1, [])


def test_reaching_250_in_the_turn_wins_only_when_the_turn_ends():
    state = normal_turn(2)
    join(state, 0, SIX)
    give_cards(state, 0, 80)  # cattle to Salt Lake City, $12
    put_train(state, 0, node(SLC))
    load(state, 0, "cattle")
    state["players"][0]["cash"] = 238
    apply(state, 0, {"cmd": "deliver", "card": 80, "demand": 1})
    assert cash(state) == [250, 50]
    assert not state["finished"] and state["qualified"] == [] and state["active"] == 0
    end_turn(state)
    assert state["winners"] == [0]


def test_qualifying_in_someone_elses_turn_counts_only_at_the_end_of_ones_own():
    state = normal_turn(2)
    join(state, 1, SIX)
    state["players"][1]["cash"] = 300
    end_turn(state)  # seat 0's turn ends: seat 1 is not checked
    assert not state["finished"] and state["active"] == 1
    end_turn(state)
    assert state["winners"] == [1]


def test_at_once_the_first_qualifier_wins_before_the_round_ends():
    state = normal_turn(3)
    join(state, 0, SIX)
    join(state, 1, SIX)
    state["players"][0]["cash"] = 250
    state["players"][1]["cash"] = 400  # richer, but plays later
    end_turn(state)
    assert (state["winners"], state["round"]) == ([0], 1)


# -- finish-round ----------------------------------------------------------------------------------------------

FINISH_ROUND = [
    # (cash of seats 0, 1, 2; which seats have six majors joined; winners)
    ([260, 50, 50], [0], [0]),
    ([260, 300, 50], [0, 1], [1]),
    ([300, 300, 50], [0, 1], [0, 1]),
    ([300, 50, 300], [0, 2], [0, 2]),
    ([50, 50, 250], [2], [2]),
    ([260, 400, 50], [0], [0]),  # the richest did not qualify
]


@pytest.mark.parametrize("money, joined, winners", FINISH_ROUND)
def test_finish_round_plays_the_round_out_and_the_richest_qualifier_wins(money, joined, winners):
    state = normal_turn(3, win_timing="finish-round")
    for seat in joined:
        join(state, seat, SIX)
    for seat, amount in enumerate(money):
        state["players"][seat]["cash"] = amount
    for seat in range(3):
        assert not state["finished"] and state["active"] == seat  # every seat still plays the round
        events = end_turn(state)
        assert ("qualified" in [e["type"] for e in events]) == (seat in joined)
    assert state["qualified"] == joined
    assert (state["finished"], state["winners"], state["end_reason"], state["round"]) == (True, winners, "won", 1)


def test_finish_round_nobody_qualified_goes_on():
    state = normal_turn(3, win_timing="finish-round")
    join(state, 0, SIX)
    state["players"][0]["cash"] = 249
    for _ in range(3):
        end_turn(state)
    assert (state["finished"], state["round"], state["active"]) == (False, 2, 0)


# -- the round limit --------------------------------------------------------------------------------------------

LIMITS = [
    (1, [10, 30, 20], 3, [1]),
    (1, [30, 30, 20], 3, [0, 1]),
    (2, [10, 30, 40], 6, [2]),
]


@pytest.mark.parametrize("limit, money, turns, winners", LIMITS)
def test_round_limit_ends_the_game_with_the_richest(limit, money, turns, winners):
    state = normal_turn(3, round_limit=limit)
    for seat, amount in enumerate(money):
        state["players"][seat]["cash"] = amount
    for _ in range(turns - 1):
        end_turn(state)
        assert not state["finished"]
    events = end_turn(state)
    assert events[-1] == {"type": "game-over", "winners": winners, "reason": "round-limit"}
    assert (state["finished"], state["winners"], state["end_reason"], state["round"]) == (
        True, winners, "round-limit", limit)


def test_a_qualifier_beats_the_round_limit():
    state = normal_turn(2, round_limit=1, win_timing="finish-round")
    join(state, 0, SIX)
    state["players"][0]["cash"] = 250
    state["players"][1]["cash"] = 400
    end_turn(state)
    end_turn(state)
    assert (state["winners"], state["end_reason"]) == ([0], "won")


# -- after the game and out of turn ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    {"cmd": "end-turn"},
    {"cmd": "discard-hand"},
    {"cmd": "upgrade", "train": "fast"},
    {"cmd": "build", "path": [[0, 37, 18], [0, 36, 18]]},
])
@pytest.mark.parametrize("seat", [0, 1])
def test_commands_after_the_game_are_refused(command, seat):
    state = normal_turn(2, round_limit=1)
    end_turn(state)
    end_turn(state)
    assert state["finished"]
    assert refused(state, seat, command) == "game-over"
    assert ENGINE.legal_commands(state, seat=seat) == []
    assert ENGINE.listing(state, seat=seat) == []


@pytest.mark.parametrize("seat", [1, 2, None])
def test_not_your_turn(seat):
    state = normal_turn(3)
    assert refused(state, seat, {"cmd": "end-turn"}) == "not-your-turn"
    assert refused(state, seat, {"cmd": "choose-color", "color": "purple"}) == "not-your-turn"
    if seat is not None:
        assert ENGINE.legal_commands(state, seat=seat) == []
