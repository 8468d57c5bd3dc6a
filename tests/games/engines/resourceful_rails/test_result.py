"""Resourceful Rails' ending (README, "The ending"): how the winner won in one sentence, and every seat
with its major cities joined and its cash, the winners first, the rest by how near they came."""

import pytest

from games.engines.resourceful_rails import ENGINE

from .helpers import SLC, end_turn, lay, node, normal_turn

SIX = ["seattle-wa", "portland-or", "redding-ca", SLC, "missoula-mt", "casper-wy"]


def join(state, seat, cities):
    lay(state, seat, *(node(c) for c in cities))


def parts(row):
    return {p["label"]: p["value"] for p in row["parts"]}


def test_the_winner_first_then_the_others_by_major_cities_then_cash():
    state = normal_turn(4)
    join(state, 0, SIX + ["denver-co"])
    join(state, 2, SIX[:2])
    join(state, 3, SIX[:4])
    for seat, money in enumerate([262, 500, 90, 40]):
        state["players"][seat]["cash"] = money
    end_turn(state)
    assert state["winners"] == [0]

    result = ENGINE.result(state)
    assert result["columns"] == ["Major cities", "Cash"]
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(0, 1), (3, 2), (2, 2), (1, 2)]
    assert [parts(r) for r in result["ranking"]] == [
        {"Major cities": 7, "Cash": 262}, {"Major cities": 4, "Cash": 40},
        {"Major cities": 2, "Cash": 90}, {"Major cities": 0, "Cash": 500}]
    assert all(r["score"] is None for r in result["ranking"])
    assert result["how"] == ("Ann joined 7 major cities with one network of track and had $262 at the end of a turn "
                             "(the goal: 6 major cities and $250).")
    # the places are the standings' (the platform's), seat by seat
    assert {r["seat"]: r["place"] for r in result["ranking"]} == dict(enumerate(ENGINE.standings(state)))


def test_finish_round_names_the_richest_of_those_who_reached_the_goal():
    state = normal_turn(3, win_timing="finish-round")
    join(state, 0, SIX)
    join(state, 1, SIX)
    for seat, money in enumerate([260, 300, 50]):
        state["players"][seat]["cash"] = money
    for _ in range(3):
        end_turn(state)
    result = ENGINE.result(state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (0, 2), (2, 2)]
    assert result["how"] == ("Bo joined 6 major cities with one network of track and had $300 at the end of the round: "
                             "the most cash of the 2 players who reached the goal (6 major cities and $250).")


def test_a_shared_win_names_both():
    state = normal_turn(3, win_timing="finish-round")
    join(state, 0, SIX)
    join(state, 2, SIX + ["denver-co"])
    for seat, money in enumerate([300, 50, 300]):
        state["players"][seat]["cash"] = money
    for _ in range(3):
        end_turn(state)
    result = ENGINE.result(state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(2, 1), (0, 1), (1, 2)]
    assert result["how"] == ("Ann (6 major cities, $300) and Cy (7 major cities, $300) reached the goal "
                             "(6 major cities and $250) with the same cash and share the win.")


@pytest.mark.parametrize(("limit", "money", "turns", "how"), [
    (1, [10, 1030, 20], 3, "Nobody reached the goal in the 1 round the game was limited to: Bo had the most cash, $1,030."),
    (2, [30, 30, 20], 6, "Nobody reached the goal in the 2 rounds the game was limited to: Ann and Bo shared the most "
                         "cash, $30 each."),
])
def test_the_round_limit_says_so_and_who_was_richest(limit, money, turns, how):
    state = normal_turn(3, round_limit=limit)
    for seat, amount in enumerate(money):
        state["players"][seat]["cash"] = amount
    for _ in range(turns):
        end_turn(state)
    assert state["end_reason"] == "round-limit"
    result = ENGINE.result(state)
    assert result["how"] == how
    assert [parts(r)["Cash"] for r in result["ranking"]] == sorted(money, reverse=True)


def test_after_the_round_limit_the_others_are_listed_by_cash_before_major_cities():
    state = normal_turn(3, round_limit=1)
    join(state, 2, SIX[:3])  # Cy joined major cities but holds the least cash: the most cash won
    for seat, money in enumerate([50, 90, 20]):
        state["players"][seat]["cash"] = money
    for _ in range(3):
        end_turn(state)
    result = ENGINE.result(state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (0, 2), (2, 2)]
    assert parts(result["ranking"][2])["Major cities"] > 0
