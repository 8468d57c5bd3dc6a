"""The board's ``avoid_cities`` (a game master's admin field): independents never start there."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel.board import default_board


def indie_cities(state):
    board = ENGINE.board(state)
    return {c for r in state["railroads"] for c in board.route_cities(r["routes"][0]["route"])}


def setup(board, seed, **options):
    return ENGINE.setup(players=["A", "B", "C"], options={"board": board, **options}, seed=seed)


def test_independents_never_start_in_an_avoided_city():
    plain = default_board()
    usual = {}
    for seed in range(12):
        for c in indie_cities(setup(plain, seed)):
            usual[c] = usual.get(c, 0) + 1
    avoid = sorted(usual, key=lambda c: (-usual[c], c))[:6]  # the cities independents start in most
    board = dict(plain, avoid_cities=avoid)
    for seed in range(12):
        state = setup(board, seed)
        assert len(state["railroads"]) == len(setup(plain, seed)["railroads"])  # as many, elsewhere
        assert indie_cities(state).isdisjoint(avoid)
        # games started before issue 18 (avoid_cities_rule='ignore') set up as they did
        old = setup(board, seed, avoid_cities_rule="ignore")
        assert old["railroads"] == setup(plain, seed)["railroads"]


def test_a_board_without_avoid_cities_sets_up_as_before():
    for seed in range(5):
        assert setup(default_board(), seed)["railroads"] == setup(default_board(), seed, avoid_cities_rule="ignore")["railroads"]


@pytest.mark.parametrize("avoid", [["Atlantis"], "Boston", [5], {"Boston": 1}])
def test_avoid_cities_must_be_cities_of_the_board(avoid):
    with pytest.raises(RulesError) as err:
        ENGINE.normalize_options({"board": dict(default_board(), avoid_cities=avoid)})
    assert err.value.code == "invalid-board"


def test_the_hidden_option_takes_only_its_two_values():
    assert ENGINE.normalize_options({})["avoid_cities_rule"] == "honour"
    with pytest.raises(RulesError) as err:
        ENGINE.normalize_options({"avoid_cities_rule": "sometimes"})
    assert err.value.code == "invalid-option"
