import json

import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE
from games.engines.registry import get_engine, load_builtin_engines
from games.engines.rng import Rng, seed_state

from .helpers import NAMES, new_game


def only_json_types(value):
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_types(v) for k, v in value.items())
    if isinstance(value, list):
        return all(only_json_types(v) for v in value)
    return value is None or isinstance(value, (bool, int, str))


def test_registry_finds_the_engine():
    load_builtin_engines()
    engine = get_engine("locomotive-werks")
    assert engine.title == "Locomotive Werks"
    assert (engine.min_players, engine.max_players) == (3, 5)
    assert engine.describe()["bots"] == ["random", "greedy"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_initial_state(players):
    state = new_game(players, seed=99)
    assert [p["coins"] for p in state["players"]] == [12] * players
    assert [p["name"] for p in state["players"]] == NAMES[:players]
    assert sorted(state["order"]) == list(range(players))
    assert (state["round"], state["phase"], state["turn"]) == (1, "development", 0)
    assert [sp["cards_left"] for sp in state["spaces"]] == [4, 3, 2, 1, 4, 3, 2, 4, 2, 3, 4, 3, 4, 4]
    assert only_json_types(state)
    assert json.loads(json.dumps(state)) == state


def test_first_spaces_get_their_dice_from_the_seeded_rng():
    state = new_game(3, seed=2024)
    rng = Rng(seed_state(2024))
    expected = [rng.randint(1, 6) for _ in range(4)]
    order = [0, 1, 2]
    rng.shuffle(order)
    first, second = state["spaces"][0], state["spaces"][1]
    assert first["existing_orders"] == expected[:3]
    assert first["customer_base"] == [] and first["initial_order"] is None
    assert second["initial_order"] == expected[3] and second["existing_orders"] == []
    assert state["order"] == order
    for sp in state["spaces"][2:]:
        assert sp["initial_order"] is None and sp["existing_orders"] == [] and sp["customer_base"] == []
    assert state["rng"] == rng.state


def test_turn_order_is_shuffled():
    orders = {tuple(new_game(4, seed=s)["order"]) for s in range(40)}
    assert len(orders) > 10


@pytest.mark.parametrize(("players", "coins"), [(3, 12), (4, 12), (5, 14)])
def test_starting_coins_by_player_count(players, coins):
    state = new_game(players, starting_coins="by-player-count")
    assert [p["coins"] for p in state["players"]] == [coins] * players


@pytest.mark.parametrize("players", [[], ["a", "b"], ["a"] * 6, ["a", "b", 3]])
def test_wrong_players(players):
    with pytest.raises(RulesError) as err:
        ENGINE.setup(players=players, options={}, seed=1)
    assert err.value.code == "invalid-players"


@pytest.mark.parametrize(
    "options",
    [
        {"production_costs": "cheap"},
        {"end_threshold": 0},
        {"end_threshold": "300"},
        {"end_threshold": True},
        {"obsolescence": "never"},
        {"dice_pool": 20},
        {"shift_rule": None},
        {"winner_ties": "coin-flip"},
        {"starting_coins": 12},
        {"no_such_option": 1},
    ],
)
def test_bad_options(options):
    with pytest.raises(RulesError) as err:
        ENGINE.normalize_options(options)
    assert err.value.code == "invalid-option"


def test_option_defaults():
    assert ENGINE.normalize_options({}) == {
        "production_costs": "fixed",
        "starting_coins": "twelve",
        "end_threshold": 300,
        "obsolescence": "owned-cards",
        "retired_types": "refused",
        "dice_pool": "unlimited",
        "shift_rule": "higher-cost",
        "winner_ties": "shared",
    }


@pytest.mark.parametrize("seed", ["1", 1.5, None, True])
def test_seed_must_be_an_int(seed):
    with pytest.raises(RulesError) as err:
        ENGINE.setup(players=NAMES[:3], options={}, seed=seed)
    assert err.value.code == "invalid-seed"


def test_describe_lists_the_options():
    described = ENGINE.describe()
    assert described["kind"] == "locomotive-werks"
    assert [o["name"] for o in described["options"]] == [
        "production_costs",
        "starting_coins",
        "end_threshold",
        "obsolescence",
        "retired_types",
        "dice_pool",
        "shift_rule",
        "winner_ties",
    ]
    json.dumps(described)
