"""Standings (Engine.standings, for ratings): the places helpers every title uses, the base's default, and the
platform tests' toy engine."""

import pytest

from games.engines.base import Engine, places, places_from_winners
from tests.support.toy_engine import ENGINE as TOY


@pytest.mark.parametrize(("keys", "expected"), [
    ([5, 9, 5], [2, 1, 2]),
    ([3, 2, 1], [1, 2, 3]),
    ([7, 7, 7], [1, 1, 1]),
    ([(10, 1), (10, 2), (4, 9), (10, 1)], [2, 1, 4, 2]),  # tuples: the second element breaks ties
])
def test_places_are_competition_places_larger_first(keys, expected):
    assert places(keys) == expected


def test_places_from_winners():
    assert places_from_winners([1], 3) == [2, 1, 2]
    assert places_from_winners([0, 2], 3) == [1, 2, 1]
    assert places_from_winners([], 2) == [1, 1]


def test_an_engine_without_standings_says_so():
    with pytest.raises(NotImplementedError):
        Engine().standings({})


def test_toy_winner_first_the_others_share_second():
    state = TOY.setup(players=["A", "B", "C"], options={"target": 3}, seed=1)
    TOY.apply(state, seat=0, command={"cmd": "add", "n": 1})
    TOY.apply(state, seat=1, command={"cmd": "add", "n": 2})
    assert TOY.is_finished(state)
    assert TOY.standings(state) == [2, 1, 2]
