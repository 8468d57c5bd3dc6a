"""Slipway's ending (README, "The ending"): every seat in place order with its points by part (cruises,
contracts, traders: they add up to the score), the ties on points broken by money or shared, and how the
winner won in one sentence, in words a player reads (names, not seats)."""

from __future__ import annotations

import pytest

from .scenes import ENGINE, give_employees, player
from .test_rules_end import FLEET, _scored, _stack_runs_out, end_turn


def test_every_seat_in_place_order_with_its_points_by_part():
    state = _scored([0, 0, 0], fleets={0: FLEET[:1], 2: FLEET}, contracts={2: ["K10", "K15"]},
                    employees={0: ("E01", "E02"), 1: ("E03",)})
    result = ENGINE.result(state)
    assert result["columns"] == ["Cruises", "Contracts", "Traders"]
    assert [r["seat"] for r in result["ranking"]] == [2, 0, 1]
    assert [r["place"] for r in result["ranking"]] == [1, 2, 3]
    scores = {s["seat"]: s for s in state["scores"]}
    for row in result["ranking"]:
        assert [p["label"] for p in row["parts"]] == result["columns"]
        values = [p["value"] for p in row["parts"]]
        s = scores[row["seat"]]
        assert values == [s["cruises"], s["contracts"], s["traders"]]
        assert row["score"] == sum(values) == s["total"]
    assert result["ranking"][0]["parts"][0]["value"] == 25 and result["ranking"][0]["ships"] == 3


def test_how_names_the_end_the_winner_and_the_points_by_part():
    state = _scored([0, 0, 0], fleets={1: FLEET}, contracts={1: ["K10", "K15"]}, employees={1: ("E01",)})
    how = ENGINE.result(state)["how"]
    score = state["scores"][1]  # the contracts' points from their tables (content that balance retunes)
    contracts, traders = score["contracts"], score["traders"]
    assert contracts > 0 and traders > 0 and score["total"] == 25 + contracts + traders
    assert how == (f"The queue ran out of cubes. Bo won with {score['total']} points (25 points from the cruises of 3 ships, "
                   f"{contracts} from contracts and {traders} from traders).")


def test_a_winner_without_traders_or_ships_is_still_said_in_good_grammar():
    state = _scored([0, 5, 0], fleets={0: FLEET[:1]})
    how = ENGINE.result(state)["how"]
    assert how == "The queue ran out of cubes. Ann won with 10 points (10 points from the cruises of 1 ship and 0 from contracts)."


@pytest.mark.parametrize(("money", "winner"), [([3, 7, 5], "Bo"), ([9, 7, 5], "Ann")])
def test_a_tie_on_points_is_broken_by_money_and_says_so(money, winner):
    state = _scored(money)
    result = ENGINE.result(state)
    assert [r["place"] for r in result["ranking"]] == [1, 2, 3]
    assert result["how"].startswith(f"The queue ran out of cubes. {winner} won with 0 points")
    top = max(money)
    rest = sorted(money, reverse=True)[1:]
    assert f"a tie on points, broken by money ({top} coins to " in result["how"]
    assert all(f"'s {m}" in result["how"] for m in rest)


def test_a_tie_on_points_and_money_is_a_shared_first_place():
    state = _scored([3, 7, 7])
    result = ENGINE.result(state)
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(1, 1), (2, 1), (0, 3)]
    assert result["how"] == "The queue ran out of cubes. Bo and Cy share first place with 0 points and 7 coins each."


def test_a_stack_that_ran_out_is_named():
    state = _stack_runs_out("immediate")
    end_turn(state)
    assert state["finished"]
    part = state["end"]["part"]
    assert ENGINE.result(state)["how"].startswith(f"The {part} stack ran out. ")


def test_the_result_is_the_standings_and_changes_no_state():
    state = _scored([1, 2, 3], fleets={0: FLEET}, employees={2: ("E01",)})
    give_employees(state, 1)
    before = repr(state)
    result = ENGINE.result(state)
    assert repr(state) == before
    places = ENGINE.standings(state)
    assert {r["seat"]: r["place"] for r in result["ranking"]} == dict(enumerate(places))
    assert player(state, 0)["name"] in result["how"]
