"""Runerail's option ``round_limit`` (README, "Choices made here"): 0, the published rule, plays to the goal;
N ends the game after N normal rounds, the most gold winning (equal gold shares the win), and the ending says
so and ranks everyone by gold (rail_core/ending.py, shared with Resourceful Rails)."""

from __future__ import annotations

import pytest

from .helpers import ENGINE, end_turn, give_foreman, normal_turn
from .test_rules_cards import SEVEN, _connect


def parts(row):
    return {p["label"]: p["value"] for p in row["parts"]}


def test_the_option_defaults_to_no_limit_and_is_offered_like_resourceful_rails():
    option = next(o for o in ENGINE.options if o.name == "round_limit")
    assert (option.type, option.default, option.min, option.max) == ("int", 0, 0, 500)
    assert ENGINE.normalize_options({})["round_limit"] == 0
    state = normal_turn(3)
    for _ in range(3 * 6):  # six whole rounds and nobody near the goal: the game goes on
        end_turn(state)
    assert (state["finished"], state["round"], state["end_reason"]) == (False, 7, None)


@pytest.mark.parametrize(("limit", "golds", "winners"), [
    (1, [10, 70, 20], [1]),
    (1, [70, 70, 20], [0, 1]),
    (2, [10, 30, 40], [2]),
])
def test_the_last_allowed_round_ends_the_game_with_the_most_gold(limit, golds, winners):
    state = normal_turn(3, round_limit=limit)
    for seat, gold in enumerate(golds):
        state["players"][seat]["gold"] = gold
    for _ in range(3 * limit - 1):
        end_turn(state)
        assert not state["finished"]
    events = end_turn(state)
    assert events[-1] == {"type": "game-over", "winners": winners, "reason": "round-limit"}
    assert (state["finished"], state["winners"], state["end_reason"], state["round"]) == (True, winners, "round-limit", limit)
    assert ENGINE.legal_commands(state, seat=0) == []


def test_the_goal_reached_before_the_limit_still_wins():
    state = normal_turn(2, round_limit=1)
    give_foreman(state, 0, "dwarf")
    _connect(state, 0, SEVEN)
    state["players"][0]["gold"], state["players"][1]["gold"] = 262, 400
    end_turn(state)
    assert (state["winners"], state["end_reason"]) == ([0], "won")


@pytest.mark.parametrize(("golds", "how"), [
    ([10, 1030, 20], "Nobody reached the goal in the 1 round the game was limited to: Bo had the most gold, 1,030 gold."),
    ([30, 30, 20], "Nobody reached the goal in the 1 round the game was limited to: Ann and Bo shared the most gold, "
                   "30 gold each."),
])
def test_the_ending_says_the_limit_was_reached_and_who_had_the_most_gold(golds, how):
    state = normal_turn(3, round_limit=1)
    for seat, gold in enumerate(golds):
        state["players"][seat]["gold"] = gold
    for _ in range(3):
        end_turn(state)
    result = ENGINE.result(state)
    assert result["how"] == how
    assert {r["seat"]: r["place"] for r in result["ranking"]} == dict(enumerate(ENGINE.standings(state)))


def test_after_the_limit_the_others_are_listed_by_gold_before_major_cities():
    state = normal_turn(3, round_limit=1)
    give_foreman(state, 2, "dwarf")
    _connect(state, 2, SEVEN[:1])  # Cy joined 3 major cities but holds the least gold
    for seat, gold in enumerate([50, 90, 20]):
        state["players"][seat]["gold"] = gold
    for _ in range(3):
        end_turn(state)
    result = ENGINE.result(state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (0, 2), (2, 2)]
    assert [parts(r)["Major cities"] for r in result["ranking"]][2] == 3
