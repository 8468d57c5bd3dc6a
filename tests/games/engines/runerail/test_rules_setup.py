"""Runerail setup: gold, loco, cards (events dealt at setup replaced), the turn order, the foreman draft,
the snake of 3 initial build rounds, the view's secrets and the command specs."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.rng import Rng, seed_state
from games.engines.runerail import data
from games.engines.runerail.commands import VIEW_FIELDS

from .helpers import ENGINE, apply, draft_first, end_turn, new_game, refused, seated_game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_numbers(players):
    state = seated_game(players)
    assert [p["gold"] for p in state["players"]] == [60] * players
    assert {p["loco"] for p in state["players"]} == {"kettle-crawler"}
    assert state["locos"]["kettle-crawler"] == 6 - players
    for p in state["players"]:
        assert len(p["hand"]) == 3 and all(c in data.demand_cards() for c in p["hand"])
        assert p["foreman"] is None and p["at"] is None and p["loads"] == []
    # every card is somewhere; what was discarded at setup are the event cards dealt
    cards = [c for p in state["players"] for c in p["hand"]] + state["deck"] + state["discards"]
    assert sorted(cards) == sorted(data.deck())
    assert all(c in data.events() for c in state["discards"])
    assert state["supply"] == {x: spec["chips"] for x, spec in data.loads().items()}
    assert sum(state["supply"].values()) == 100
    assert state["phase"] == "draft" and state["effects"] == []


def test_events_dealt_at_setup_are_discarded_and_replaced():
    # find a seed whose deal meets an event card, and check it was set aside, not kept
    for seed in range(60):
        state = seated_game(6, seed=seed)
        if state["discards"]:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed dealt an event")
    rng = Rng(seed_state(seed))
    deck = data.deck()
    rng.shuffle(deck)
    dealt = []
    for _ in range(6 * 3 + len(state["discards"])):
        dealt.append(deck.pop())
    assert [c for c in dealt if c in data.events()] == state["discards"]
    assert [c for c in dealt if c not in data.events()] == [c for s in state["order"]
                                                           for c in state["players"][s]["hand"]]


def test_turn_order_random_is_a_seeded_shuffle_and_seated_keeps_seats():
    assert seated_game(4)["order"] == [0, 1, 2, 3]
    orders = {tuple(new_game(4, seed=s)["order"]) for s in range(12)}
    assert len(orders) > 3
    state = new_game(4, seed=5)
    rng = Rng(seed_state(5))
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    assert state["order"] == order


@pytest.mark.parametrize(("players", "each", "left"), [(2, 6, 1), (3, 4, 1), (4, 3, 1), (5, 2, 3), (6, 2, 1)])
def test_the_whole_foreman_deck_is_dealt_evenly(players, each, left):
    state = seated_game(players)
    draft = state["draft"]
    assert draft["deal"] == 1 and draft["queue"] == list(range(players))
    assert [len(draft["dealt"][str(s)]) for s in range(players)] == [each] * players
    assert len(draft["undrafted"]) == left
    assert sorted(draft["undrafted"] + [c for v in draft["dealt"].values() for c in v]) == sorted(data.foremen())


def test_draft_view_shows_only_your_own_deal():
    state = seated_game(3)
    mine = ENGINE.view(state, seat=0)
    other = ENGINE.view(state, seat=1)
    spectator = ENGINE.view(state, seat=None)
    assert mine["draft"]["yours"] == state["draft"]["dealt"]["0"]
    assert other["draft"]["yours"] == state["draft"]["dealt"]["1"]
    assert spectator["draft"]["yours"] is None
    assert mine["draft"]["dealt_counts"] == {"0": 4, "1": 4, "2": 4}
    text = repr(other)
    for card in state["draft"]["dealt"]["0"]:
        assert card not in text
    for key in ("rng", "deck", "hand"):
        assert key not in other
    assert other["players"][0]["hand"] is None and mine["players"][0]["hand"] is not None
    assert set(f.name for f in VIEW_FIELDS) <= set(mine)


def test_draft_keep_pass_and_redeal():
    state = seated_game(3, seed=4)
    dealt0 = list(state["draft"]["dealt"]["0"])
    assert refused(state, 0, {"cmd": "keep-foreman", "foreman": state["draft"]["dealt"]["1"][0]}) == "not-offered"
    assert refused(state, 0, {"cmd": "end-turn"}) == "choose-foreman"
    assert refused(state, 1, {"cmd": "keep-foreman", "foreman": None}) == "not-your-turn"
    apply(state, 0, {"cmd": "keep-foreman", "foreman": dealt0[1]})
    apply(state, 1, {"cmd": "keep-foreman", "foreman": None})
    apply(state, 2, {"cmd": "keep-foreman", "foreman": None})
    # re-dealt to the two still without a foreman: 12 cards, 6 each
    draft = state["draft"]
    assert draft["deal"] == 2 and draft["queue"] == [1, 2] and state["active"] == 1
    assert [len(draft["dealt"]["1"]), len(draft["dealt"]["2"])] == [6, 6] and draft["undrafted"] == []
    assert dealt0[1] not in draft["dealt"]["1"] + draft["dealt"]["2"]
    assert refused(state, 1, {"cmd": "keep-foreman", "foreman": None}) == "must-keep"
    apply(state, 1, {"cmd": "keep-foreman", "foreman": draft["dealt"]["1"][0]})
    apply(state, 2, {"cmd": "keep-foreman", "foreman": state["draft"]["dealt"]["2"][5]})
    assert state["phase"] == "build" and state["draft"] is None and state["active"] == 0
    held = [p["foreman"] for p in state["players"]]
    assert None not in held and len(set(held)) == 3
    assert sorted(held + state["foreman_deck"]) == sorted(data.foremen()) and state["foreman_discards"] == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_three_build_rounds_snake(players):
    state = draft_first(new_game(players, seed=players))
    order = state["order"]
    seen = []
    while state["phase"] == "build":
        seen.append((state["active"], ENGINE.build_round(state)))
        assert state["stage"] == "build"
        end_turn(state)
    expected = [(s, 1) for s in order] + [(s, 2) for s in reversed(order)] + [(s, 3) for s in order]
    assert seen == expected
    assert state["phase"] == "play" and state["active"] == order[0] and state["round"] == 1


def test_build_rounds_only_build():
    state = draft_first(seated_game(2))
    assert refused(state, 0, {"cmd": "place-train", "at": [0, 32, 8]}) == "build-rounds-only-build"
    assert refused(state, 0, {"cmd": "discard-hand"}) == "build-rounds-only-build"


def test_bad_player_counts_and_options():
    with pytest.raises(RulesError):
        ENGINE.setup(players=["a"], options={}, seed=1)
    with pytest.raises(RulesError):
        ENGINE.setup(players=["a"] * 7, options={}, seed=1)
    with pytest.raises(RulesError):
        ENGINE.normalize_options({"prism_bridge": "sometimes"})
    assert ENGINE.normalize_options({}) == {"turn_order": "random", "prism_bridge": "game", "win_check": "at-once",
                                            "win_tie": "most-gold", "port_price": "published", "round_limit": 0}
    for name, bad in (("win_check", "never"), ("win_tie", "coin-toss"), ("port_price", 2), ("round_limit", -1),
                      ("round_limit", 501)):
        with pytest.raises(RulesError):
            ENGINE.normalize_options({name: bad})


def test_setup_is_deterministic():
    assert new_game(4, seed=9) == new_game(4, seed=9)
    assert new_game(4, seed=9) != new_game(4, seed=10)
