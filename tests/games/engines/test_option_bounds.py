"""Options that can never end a game are refused: every kind's options are bounded to values
at which bots' games end (each engine's README, 'Option bounds', says how the bounds were
found). A bot game at random option values within the bounds must end; a value past a bound
is refused naming the option, and a game stored under the older bound still sets up."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.registry import get_engine, load_builtin_engines
from games.engines.wood_and_steel.simulate import play_game

load_builtin_engines()
LW = get_engine("locomotive-werks")
WS = get_engine("wood-and-steel")


def option_values(engine, skip=()):
    """A strategy for a dict of every option of ``engine`` at a value within its bounds."""
    parts = {}
    for o in engine.options:
        if o.name in skip:
            continue
        if o.type == "bool":
            parts[o.name] = st.booleans()
        elif o.type == "choice":
            parts[o.name] = st.sampled_from(o.choices)
        else:
            parts[o.name] = st.integers(min_value=o.min, max_value=o.max)
    return st.fixed_dictionaries(parts)


def lw_game_ends(players: int, options: dict, seed: int, max_steps: int = 5_000) -> bool:
    state = LW.setup(players=[f"p{i}" for i in range(players)], options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if LW.is_finished(state):
            return True
        seat = LW.active_seats(state)[0]
        LW.apply(state, seat=seat, command=LW.bot_command(state, seat=seat, bot="greedy", rng=rng))
    return LW.is_finished(state)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=option_values(LW), players=st.integers(3, 5), seed=st.integers(1, 10**6))
def test_locomotive_werks_bot_games_end_at_any_options_within_the_bounds(options, players, seed):
    assert lw_game_ends(players, options, seed)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=option_values(WS, skip=("max_rounds", "max_borrow", "railroads_min", "railroads_max")),
    target=st.integers(40, 75),
    players=st.integers(1, 3),
    seed=st.integers(1, 10**6),
)
def test_wood_and_steel_bot_games_end_at_any_options_within_the_bounds(options, target, players, seed):
    # max_rounds stays 0 (no limit: the target alone ends the game); the railroads' range and
    # max_borrow have rules between values (min <= max, multiples of $5,000): their defaults.
    options = {**options, "target_ties": target, "max_rounds": 0}
    summary, state = play_game(WS, players=players, rounds=0, seed=seed, options=options, bot="planner", max_steps=8_000)
    assert WS.is_finished(state), summary.get("end_reason")


@pytest.mark.parametrize(
    ("engine", "name", "value"),
    [(LW, "end_threshold", 1_001), (LW, "end_threshold", 2_000), (WS, "target_ties", 76)],
)
def test_a_value_past_the_bound_is_refused_naming_the_option(engine, name, value):
    with pytest.raises(RulesError) as err:
        engine.normalize_options({name: value})
    assert err.value.code == "invalid-option"
    assert repr(name) in err.value.message


def test_a_game_created_under_the_older_bound_still_sets_up():
    # Games created before the bound keep replaying (their stored options go through setup).
    state = LW.setup(players=["a", "b", "c"], options={"end_threshold": 2_000}, seed=1)
    assert state["options"]["end_threshold"] == 2_000
    state = WS.setup(players=["a", "b"], options={"target_ties": 200}, seed=1)
    assert state["options"]["target_ties"] == 200
    with pytest.raises(RulesError):
        LW.setup(players=["a", "b", "c"], options={"end_threshold": 100_001}, seed=1)


def test_every_int_option_of_every_kind_is_bounded():
    from games.engines.registry import all_engines

    for engine in all_engines():
        for o in engine.options:
            if o.type == "int":
                assert o.min is not None and o.max is not None, (engine.kind, o.name)
