"""Shared helpers for the Wood and Steel engine tests."""

from __future__ import annotations

import copy
import json

from games.engines.wood_and_steel import ENGINE

ROUTES = ["Montreal-Quebec City", "Boston-Portland ME", "New York-Philadelphia", "Philadelphia-Washington", "Norfolk-Raleigh", "Charleston-Savannah"]


def new_game(players=3, seed=7, **options):
    return ENGINE.setup(players=[f"P{i}" for i in range(players)], options=ENGINE.normalize_options(options), seed=seed)


def started_game(players=3, seed=7, picks=None, **options):
    """A game past ranking and engine placement. ``picks`` = one ranked triple per seat."""
    state = new_game(players, seed, **options)
    picks = picks or [[ROUTES[(i + k) % 6] for k in (0, 2, 4)] for i in range(players)]
    for seat in range(players):
        ENGINE.apply(state, seat=seat, command={"cmd": "rank-starting-routes", "choices": picks[seat]})
    for seat in range(players):
        city = ENGINE.view(state, seat=seat)["players"][seat]["start_route"].split("-")[0]
        ENGINE.apply(state, seat=seat, command={"cmd": "place-engine", "city": city})
    assert state["phase"] == "play"
    return state


def snapshot(state):
    return json.dumps(state, sort_keys=True)


def clone(state):
    return copy.deepcopy(state)
