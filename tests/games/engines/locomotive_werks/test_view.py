import json

from games.engines.locomotive_werks import ENGINE

from .helpers import blank_game, give_card, new_game, set_dice, snapshot


def keys_anywhere(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_anywhere(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_anywhere(v)


def test_view_hides_only_the_rng():
    state = new_game(4, seed=5)
    for seat in (None, 0, 3):
        view = ENGINE.view(state, seat=seat)
        assert "rng" not in set(keys_anywhere(view))
        assert str(state["rng"]) not in json.dumps(view)
        assert view["you"] == seat


def test_view_contents():
    state = blank_game(coins=20)
    state["order"] = [1, 2, 0]
    set_dice(state, 1, existing=[2, 5], customer=[1])
    set_dice(state, 2, initial=4)
    give_card(state, 2, 1, units=3)
    view = ENGINE.view(state, seat=1)
    assert view["phase"] == "development" and view["round"] == 1
    assert view["turn_order"] == [1, 2, 0] and view["active_seat"] == 1
    assert view["players"][2] == {
        "seat": 2,
        "name": "Cugnot",
        "coins": 20,
        "turn_position": 1,
        "developed": [1],
        "cards": [{"space": 1, "units": 3, "production": 2, "income": 1}],
    }
    assert view["spaces"][0] == {
        "space": 1,
        "name": "first generation green",
        "color": "green",
        "locomotive": "passenger",
        "generation": 1,
        "cost": 4,
        "production": 2,
        "income": 1,
        "boxes": 3,
        "cards_left": 3,
        "cards_removed": 0,
        "initial_order": None,
        "initial_order_pending": False,
        "existing_orders": [2, 5],
        "customer_base": [1],
        "obsolete": False,
        "developable": True,
    }
    assert view["spaces"][1]["initial_order"] == 4 and view["spaces"][1]["developable"] is True
    assert view["spaces"][2]["developable"] is False
    assert view["finished"] is False and view["winners"] == [] and view["last_round"] is None
    assert view["options"]["end_threshold"] == 300


def test_view_shows_option_costs():
    state = blank_game(production_costs="published")
    assert [s["production"] for s in ENGINE.view(state, seat=None)["spaces"]][:3] == [2, 4, 6]


def test_view_is_a_copy():
    state = blank_game()
    set_dice(state, 1, existing=[2])
    give_card(state, 0, 1)
    before = snapshot(state)
    view = ENGINE.view(state, seat=0)
    view["spaces"][0]["existing_orders"].append(6)
    view["players"][0]["cards"].clear()
    view["turn_order"].reverse()
    assert state == before
    json.dumps(view)
