"""Resourceful Rails rules, table-driven: setup (cash, cards, options), turn order, the build
rounds' snake with 2 and 3 rounds, what a build-round turn allows, colours, and the extra
starting cards' discard. Everything through ``Engine.apply`` on the shipped map."""

import pytest

from games.engines.base import RulesError
from games.engines.resourceful_rails import ENGINE, data

from .helpers import (
    LOGAN,
    NAMES,
    apply,
    build,
    end_turn,
    major_exit,
    new_game,
    node,
    normal_turn,
    put_train,
    refused,
    seated_game,
    to_play,
)

ALL_CARDS = 144
GOODS = 30


# -- setup ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_gives_50_dollars_3_cards_and_a_modest_train(players):
    state = new_game(players, seed=7)
    assert [p["cash"] for p in state["players"]] == [50] * players
    assert [len(p["hand"]) for p in state["players"]] == [3] * players
    dealt = [c for p in state["players"] for c in p["hand"]]
    assert len(set(dealt)) == 3 * players
    assert len(state["deck"]) == ALL_CARDS - 3 * players
    assert sorted(dealt + state["deck"]) == list(range(1, ALL_CARDS + 1))
    assert state["discards"] == []
    assert [p["train"] for p in state["players"]] == ["modest"] * players
    assert [p["at"] for p in state["players"]] == [None] * players
    assert [p["must_discard"] for p in state["players"]] == [0] * players
    assert len(state["supply"]) == GOODS and set(state["supply"].values()) == {3}
    assert state["rail"]["track"] == {}
    assert (state["phase"], state["stage"], state["round"]) == ("build", "build", 0)
    assert state["active"] == state["order"][0]
    assert [p["color"] for p in state["players"]] == ["orange", "sky", "green", "yellow", "blue", "vermilion"][:players]
    view = ENGINE.view(state, seat=state["active"])
    assert view["build_round"] == 1 and view["turn"]["build_left"] == 20


@pytest.mark.parametrize("players", [0, 1, 7])
def test_setup_takes_2_to_6_players(players):
    with pytest.raises(RulesError) as err:
        ENGINE.setup(players=(NAMES * 2)[:players], options={}, seed=1)
    assert err.value.code == "bad-player-count"


def test_extra_build_turn_gives_60_dollars_and_three_build_rounds():
    state = seated_game(3, extra_build_turn=True)
    assert [p["cash"] for p in state["players"]] == [60, 60, 60]
    assert len(state["schedule"]) == 9
    assert ENGINE.view(state, seat=0)["turn"]["build_left"] == 20  # still $20 a turn


def test_extra_starting_cards_deal_five():
    state = new_game(4, extra_starting_cards=True)
    assert [len(p["hand"]) for p in state["players"]] == [5] * 4
    assert [p["must_discard"] for p in state["players"]] == [2] * 4
    assert len(state["deck"]) == ALL_CARDS - 20


@pytest.mark.parametrize("goods_supply", [1, 2, 9])
def test_goods_supply_option_sets_every_good(goods_supply):
    state = new_game(2, goods_supply=goods_supply)
    assert set(state["supply"].values()) == {goods_supply} and len(state["supply"]) == GOODS


# -- turn order -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seated_order_is_the_seats_order(players):
    for seed in range(5):
        assert seated_game(players, seed=seed)["order"] == list(range(players))


def test_random_order_is_a_seeded_shuffle():
    orders = [tuple(new_game(5, seed=seed)["order"]) for seed in range(12)]
    assert all(sorted(o) == [0, 1, 2, 3, 4] for o in orders)
    assert len(set(orders)) > 3  # the shuffle depends on the seed
    assert any(o != (0, 1, 2, 3, 4) for o in orders)
    assert [tuple(new_game(5, seed=seed)["order"]) for seed in range(12)] == orders  # and only on it
    assert new_game(5, seed=3)["active"] == orders[3][0]


# -- the snake --------------------------------------------------------------------------------------------

SNAKES = [
    (2, False, [0, 1, 1, 0]),
    (3, False, [0, 1, 2, 2, 1, 0]),
    (4, False, [0, 1, 2, 3, 3, 2, 1, 0]),
    (5, False, [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]),
    (6, False, [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0]),
    (2, True, [0, 1, 1, 0, 0, 1]),
    (3, True, [0, 1, 2, 2, 1, 0, 0, 1, 2]),
    (4, True, [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]),
    (5, True, [0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4]),
    (6, True, [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5]),
]


@pytest.mark.parametrize("players, extra, expected", SNAKES,
                         ids=[f"{p}p-{'3' if e else '2'}rounds" for p, e, _ in SNAKES])
def test_build_rounds_snake_then_normal_rounds_in_order(players, extra, expected):
    state = seated_game(players, extra_build_turn=extra)
    seen, rounds = [], []
    while state["phase"] == "build":
        seen.append(state["active"])
        rounds.append(ENGINE.view(state, seat=None)["build_round"])
        end_turn(state)
    assert seen == expected
    assert rounds == [i // players + 1 for i in range(len(expected))]
    normal = []
    for _ in range(2 * players):
        normal.append((state["round"], state["active"]))
        assert state["phase"] == "play" and state["stage"] == "move"
        end_turn(state)
    assert normal == [(1 + i // players, i % players) for i in range(2 * players)]


def test_snake_follows_a_random_order():
    state = new_game(4, seed=3)
    order = state["order"]
    assert order != [0, 1, 2, 3]
    seen = []
    while state["phase"] == "build":
        seen.append(state["active"])
        end_turn(state)
    assert seen == order + order[::-1]
    assert state["active"] == order[0]


def test_the_last_build_turn_passes_to_the_first_normal_turn():
    state = seated_game(2)
    events = []
    while state["phase"] == "build":
        events = end_turn(state)
    assert [e["type"] for e in events] == ["turn-ended", "build-rounds-over", "turn-started"]
    assert events[-1] == {"type": "turn-started", "seat": 0, "phase": "play", "build_round": 0, "round": 1}


# -- what a build-round turn allows ------------------------------------------------------------------------

ONLY_BUILD = [
    {"cmd": "place-train", "at": [0, 39, 21]},
    {"cmd": "move", "path": [[0, 37, 18], [0, 38, 18]]},
    {"cmd": "pick-up", "good": "cattle"},
    {"cmd": "drop", "good": "cattle"},
    {"cmd": "deliver", "card": 80, "demand": 1},
    {"cmd": "discard-hand"},
]


@pytest.mark.parametrize("command", ONLY_BUILD, ids=lambda c: c["cmd"])
def test_build_rounds_refuse_everything_but_building(command):
    state = seated_game(2)
    put_train(state, 0, node(LOGAN))  # even a train on a city may not act in the build rounds
    state["players"][0]["loads"] = ["cattle"]
    state["supply"]["cattle"] -= 1
    assert refused(state, 0, command) == "build-rounds-only-build"


def test_build_rounds_allow_build_colour_and_end_turn():
    state = seated_game(2)
    m, x = major_exit("seattle-wa")
    apply(state, 0, build(m, x))
    apply(state, 0, {"cmd": "choose-color", "color": "purple"})
    assert state["players"][0]["cash"] == 49
    end_turn(state)
    assert state["players"][0]["color"] == "purple"
    assert state["phase"] == "build" and state["active"] == 1  # seat 1 builds twice in a row


# (build_round_upgrade, the upgrade's code in a build round or None: done, what legal_commands offers)
BUILD_ROUND_UPGRADE = [
    (None, "build-rounds-only-build", {"build", "end-turn"}),  # the default: the spec's "can only build"
    (False, "build-rounds-only-build", {"build", "end-turn"}),
    (True, None, {"build", "upgrade", "end-turn"}),
]


@pytest.mark.parametrize("allowed, code, kinds", BUILD_ROUND_UPGRADE)
def test_build_rounds_upgrade_only_with_the_option(allowed, code, kinds):
    options = {} if allowed is None else {"build_round_upgrade": allowed}
    state = seated_game(3, **options)
    assert {c["cmd"] for c in ENGINE.legal_commands(state, seat=0)} == kinds
    assert ENGINE.legal_commands(state, seat=1) == []
    upgrade = [e for e in ENGINE.listing(state, seat=0) if e["command"]["cmd"] == "upgrade"]
    assert [e["reason"] is None for e in upgrade] == [code is None] * 2
    if code:
        assert refused(state, 0, {"cmd": "upgrade", "train": "heavy"}) == code
        assert (state["players"][0]["cash"], state["players"][0]["train"]) == (50, "modest")
    else:
        apply(state, 0, {"cmd": "upgrade", "train": "heavy"})
        assert (state["players"][0]["cash"], state["players"][0]["train"]) == (30, "heavy")
    # normal turns allow upgrades either way
    state = normal_turn(2, **options)
    apply(state, 0, {"cmd": "upgrade", "train": "fast"})
    assert state["players"][0]["train"] == "fast"


def test_extra_starting_card_rule_refuses_discarding_in_the_build_rounds():
    state = seated_game(2, extra_starting_cards=True)
    hand = state["players"][0]["hand"]
    assert refused(state, 0, {"cmd": "discard-cards", "cards": hand[:2]}) == "nothing-to-discard"


# -- colours -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("color, code", [
    ("purple", None),
    ("black", None),
    ("orange", None),  # one's own colour: nothing changes
    ("sky", "color-taken"),
    ("green", "color-taken"),
])
def test_choose_a_free_colour_in_the_build_rounds(color, code):
    state = seated_game(3)
    if code:
        assert refused(state, 0, {"cmd": "choose-color", "color": color}) == code
        assert state["players"][0]["color"] == "orange"
    else:
        assert apply(state, 0, {"cmd": "choose-color", "color": color}) == [
            {"type": "color-chosen", "seat": 0, "color": color}]
        assert [p["color"] for p in state["players"]] == [color, "sky", "green"]
        assert state["active"] == 0 and state["turn"]["spent"] == 0  # it takes no part of the turn


def test_a_colour_given_up_is_free_again():
    state = seated_game(2)
    apply(state, 0, {"cmd": "choose-color", "color": "purple"})
    end_turn(state)
    apply(state, 1, {"cmd": "choose-color", "color": "orange"})
    assert [p["color"] for p in state["players"]] == ["purple", "orange"]
    assert refused(state, 1, {"cmd": "choose-color", "color": "purple"}) == "color-taken"


def test_colours_are_fixed_once_the_build_rounds_end():
    state = normal_turn(2)
    assert refused(state, 0, {"cmd": "choose-color", "color": "purple"}) == "too-late"


def test_an_unknown_colour_is_refused_by_shape():
    state = seated_game(2)
    assert refused(state, 0, {"cmd": "choose-color", "color": "pink"}) == "invalid-command"


# -- extra starting cards: discard 2 first -------------------------------------------------------------------

BEFORE_DISCARD = [
    {"cmd": "end-turn"},
    {"cmd": "discard-hand"},
    {"cmd": "place-train", "at": [0, 37, 18]},
    {"cmd": "upgrade", "train": "fast"},
    {"cmd": "build", "path": [[0, 37, 18], [0, 36, 18]]},
    {"cmd": "pick-up", "good": "gold"},
]


@pytest.mark.parametrize("command", BEFORE_DISCARD, ids=lambda c: c["cmd"])
def test_first_normal_turn_starts_with_the_discard(command):
    state = normal_turn(2, extra_starting_cards=True)
    assert state["stage"] == "discard"
    put_train(state, 0, node("salt-lake-city-ut"))
    assert refused(state, 0, command) == "discard-first"


@pytest.mark.parametrize("count, code", [(1, "discard-count"), (3, "discard-count"), (5, "discard-count")])
def test_discard_exactly_two(count, code):
    state = normal_turn(2, extra_starting_cards=True)
    hand = state["players"][0]["hand"]
    assert refused(state, 0, {"cmd": "discard-cards", "cards": hand[:count]}) == code


def test_discard_only_own_cards():
    state = normal_turn(2, extra_starting_cards=True)
    hand = state["players"][0]["hand"]
    other = state["players"][1]["hand"][0]
    assert refused(state, 0, {"cmd": "discard-cards", "cards": [hand[0], other]}) == "not-in-hand"


def test_discarding_two_leaves_three():
    state = normal_turn(2, extra_starting_cards=True)
    hand = list(state["players"][0]["hand"])
    events = apply(state, 0, {"cmd": "discard-cards", "cards": [hand[1], hand[3]]})
    assert events == [{"type": "cards-discarded", "seat": 0, "count": 2},
                      {"type": "discard-started", "seat": 1, "count": 2}]
    assert state["players"][0]["hand"] == [hand[0], hand[2], hand[4]]
    assert state["discards"] == [hand[1], hand[3]]
    assert state["players"][0]["must_discard"] == 0
    assert len(state["deck"]) == ALL_CARDS - 10  # nothing drawn


# The notes: "Allow 5 during the build turns only". (players, turn order) -> the seats that discard, in
# order, when the build rounds end, before the first normal turn (of the first seat in turn order).
DISCARD_WHEN_BUILDING_ENDS = [
    (2, [0, 1]),
    (3, [0, 1, 2]),
    (3, [2, 0, 1]),
    (5, [4, 2, 0, 3, 1]),
]


@pytest.mark.parametrize("players, order", DISCARD_WHEN_BUILDING_ENDS)
def test_everyone_discards_down_to_three_when_the_build_rounds_end(players, order):
    state = new_game(players, extra_starting_cards=True)
    state["order"] = list(order)
    state["schedule"] = order + order[::-1]
    state["active"] = order[0]
    while state["phase"] == "build":
        assert [len(p["hand"]) for p in state["players"]] == [5] * players
        events = end_turn(state)
    assert events[-2:] == [{"type": "build-rounds-over"}, {"type": "discard-started", "seat": order[0], "count": 2}]
    for i, seat in enumerate(order):
        assert (state["phase"], state["stage"], state["active"], state["round"]) == ("play", "discard", seat, 1)
        assert ENGINE.active_seats(state) == [seat]
        others = [s for s in order if s != seat]
        assert all(ENGINE.legal_commands(state, seat=s) == [] for s in others)
        assert refused(state, seat, {"cmd": "end-turn"}) == "discard-first"
        events = apply(state, seat, {"cmd": "discard-cards", "cards": state["players"][seat]["hand"][-2:]})
        assert events[0] == {"type": "cards-discarded", "seat": seat, "count": 2}
        if i + 1 < len(order):
            assert events[1:] == [{"type": "discard-started", "seat": order[i + 1], "count": 2}]
        else:  # everyone holds 3: the first normal turn begins
            assert events[1:] == [{"type": "turn-started", "seat": order[0], "phase": "play", "build_round": 0,
                                   "round": 1}]
    assert [len(p["hand"]) for p in state["players"]] == [3] * players
    assert (state["active"], state["stage"]) == (order[0], "move")
    assert refused(state, order[0], {"cmd": "discard-cards", "cards": state["players"][order[0]]["hand"][:2]}) \
        == "nothing-to-discard"
    # nobody discards again at their own first turn
    for seat in order:
        assert (state["active"], state["stage"]) == (seat, "move")
        end_turn(state)


def test_extra_starting_cards_with_three_build_rounds():
    state = to_play(seated_game(3, extra_starting_cards=True, extra_build_turn=True))
    assert [len(p["hand"]) for p in state["players"]] == [5, 5, 5]
    assert (state["active"], state["stage"]) == (0, "discard")
    assert ENGINE.legal_commands(state, seat=0) == [
        {"cmd": "discard-cards", "cards": state["players"][0]["hand"][:2]}]


def test_view_shows_cash_cards_and_the_snake_round():
    state = seated_game(3)
    view = ENGINE.view(state, seat=1)
    assert [p["hand_size"] for p in view["players"]] == [3, 3, 3]
    assert view["players"][1]["hand"] == [data.cards()[c] for c in state["players"][1]["hand"]]
    assert view["players"][0]["hand"] is None and view["players"][2]["hand"] is None
    assert (view["phase"], view["build_round"], view["active_seat"], view["order"]) == ("build", 1, 0, [0, 1, 2])
