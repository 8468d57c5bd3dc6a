"""Runerail cards: delivering (payout, the card discarded, a replacement drawn, events drawn on the way),
the events applied so far and their expiry, discarding the hand, and the win."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

from .helpers import (
    ENGINE,
    MAP,
    apply,
    end_turn,
    give_foreman,
    gold,
    normal_turn,
    put_train,
    refused,
)

WAR_TAX = [(0, 49, 0), (50, 99, 10), (100, 149, 15), (150, 199, 20), (200, 10**9, 30)]


def _ready_to_deliver(state, seat=0):
    """Seat's first card's first demand can be delivered now: the train at its city with its load."""
    card = state["players"][seat]["hand"][0]
    demand = data.demand_cards()[card]["demands"][0]
    city = MAP.cities[demand["city"]]
    put_train(state, seat, MAP.key(city.nodes[0]))
    state["players"][seat]["loads"] = [demand["load"]]
    state["supply"][demand["load"]] -= 1
    return card, demand


def _stack(state, *events):
    """Put event cards on top of the deck (drawn first, in the order given)."""
    for e in events:
        state["deck"].remove(e) if e in state["deck"] else state["discards"].remove(e)
    state["deck"].extend(reversed(events))


def _deliver(state, seat=0, events=()):
    card, demand = _ready_to_deliver(state, seat)
    _stack(state, *events)
    next_demand = next(c for c in reversed(state["deck"]) if c in data.demand_cards())
    result = apply(state, seat, {"cmd": "deliver", "card": card, "demand": 0})
    return card, demand, next_demand, result


def test_delivery_pays_discards_and_draws():
    state = normal_turn()
    supply = dict(state["supply"])
    card, demand, nxt, events = _deliver(state)
    player = state["players"][0]
    assert player["gold"] == 60 + demand["payout"]
    assert card not in player["hand"] and len(player["hand"]) == 3 and player["hand"][-1] == nxt
    assert state["discards"][-1] == card and player["loads"] == []
    assert state["supply"][demand["load"]] == supply[demand["load"]]  # the chip loaded is back
    assert [e["type"] for e in events] == ["delivered", "card-drawn"]
    assert refused(state, 0, {"cmd": "deliver", "card": card, "demand": 0}) == "not-in-hand"


def test_delivery_refusals():
    state = normal_turn()
    card, demand = _ready_to_deliver(state)
    assert refused(state, 0, {"cmd": "deliver", "card": card, "demand": 1}) in ("wrong-city", "no-such-load")
    state["players"][0]["loads"] = []
    assert refused(state, 0, {"cmd": "deliver", "card": card, "demand": 0}) == "no-such-load"


def test_events_drawn_take_effect_and_the_player_draws_again():
    state = normal_turn()
    _card, _demand, nxt, events = _deliver(state, events=("whiteout", "prism-dawn"))
    assert state["players"][0]["hand"][-1] == nxt
    assert [e["type"] for e in events] == ["delivered", "event-drawn", "event-drawn", "card-drawn"]
    turns = state["players"][0]["turns"]
    assert state["effects"] == [
        {"card": "whiteout", "kind": "half-rate", "params": {"area": {"region": "frostmarch"}},
         "duration": "next-turn-end", "drawn_by": 0, "status": "active", "ends": {"seat": 0, "turn": turns + 1}},
        {"card": "prism-dawn", "kind": "open-bridge", "params": {"link_kind": "bridge"}, "duration": "game",
         "drawn_by": 0, "status": "active", "ends": None},
    ]
    assert ENGINE.view(state, seat=1)["links"][data.PRISM_BRIDGE] is True


def _turns(state, n):
    for _ in range(n):
        end_turn(state)


def test_effects_last_until_the_end_of_the_drawers_next_turn():
    state = normal_turn()
    _deliver(state, events=("ley-ebb", "foundry-fires-out", "guild-ledger-sealed", "whiteout"))
    assert ENGINE.view(state, seat=0)["links"][data.LEY_LINE] is False
    _turns(state, 1)  # the drawer's turn ends
    assert len(state["effects"]) == 4
    assert refused(state, 1, {"cmd": "upgrade", "loco": "swiftwick"}) == "no-upgrade"
    assert refused(state, 1, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"}) == "no-foreman-change"
    _turns(state, 1)  # seat 1's turn
    assert len(state["effects"]) == 4 and state["rail"]["links"][data.LEY_LINE] is False
    events = end_turn(state)  # the drawer's next turn ends
    assert state["effects"] == []
    assert [e["card"] for e in events if e["type"] == "event-over"] == [
        "ley-ebb", "foundry-fires-out", "guild-ledger-sealed", "whiteout"]
    assert state["discards"][-4:] == ["ley-ebb", "foundry-fires-out", "guild-ledger-sealed", "whiteout"]
    assert ENGINE.view(state, seat=0)["links"][data.LEY_LINE] is True
    apply(state, 1, {"cmd": "upgrade", "loco": "swiftwick"})


def test_the_bridge_stays_open_for_the_game():
    state = normal_turn()
    _deliver(state, events=("prism-dawn",))
    _turns(state, 6)
    assert state["rail"]["links"][data.PRISM_BRIDGE] is True and state["effects"][0]["card"] == "prism-dawn"
    _deliver(state, events=("ley-ebb",))
    assert state["rail"]["links"][data.PRISM_BRIDGE] is True


def test_the_tournament_bridge_closes_at_the_next_strike():
    state = normal_turn(prism_bridge="until-strike")
    _deliver(state, events=("prism-dawn",))
    _turns(state, 2)
    _deliver(state, events=("ley-ebb",))
    assert state["rail"]["links"][data.PRISM_BRIDGE] is False
    assert [e["card"] for e in state["effects"]] == ["ley-ebb"] and "prism-dawn" in state["discards"]


@pytest.mark.parametrize("golds", [[10, 49, 50], [99, 100, 149], [150, 199, 200], [0, 400, 75]])
def test_war_tax(golds):
    state = normal_turn(3)
    card, demand = _ready_to_deliver(state)
    for seat, g in enumerate(golds):
        state["players"][seat]["gold"] = g
    _stack(state, "crown-levy")
    apply(state, 0, {"cmd": "deliver", "card": card, "demand": 0})
    held = [golds[0] + demand["payout"], golds[1], golds[2]]
    tax = [next(pay for lo, hi, pay in WAR_TAX if lo <= g <= hi) for g in held]
    assert gold(state) == [g - t for g, t in zip(held, tax, strict=True)]
    assert state["effects"][0]["status"] == "done"


def test_discarding_the_hand_replaces_the_turn():
    state = normal_turn()
    hand = list(state["players"][0]["hand"])
    _stack(state, "sea-fog")
    events = apply(state, 0, {"cmd": "discard-hand"})
    assert state["active"] == 1
    assert state["discards"][-3:] == hand
    assert len(state["players"][0]["hand"]) == 3 and not set(hand) & set(state["players"][0]["hand"])
    assert state["effects"][0]["card"] == "sea-fog" and state["effects"][0]["status"] == "active"
    assert "event-drawn" in [e["type"] for e in events]
    put_train(state, 1, MAP.key(MAP.cities["highcairn"].nodes[0]))
    apply(state, 1, {"cmd": "pick-up", "load": data.city_loads()["highcairn"][0]})
    assert refused(state, 1, {"cmd": "discard-hand"}) == "already-acted"


# -- the win ----------------------------------------------------------------------------------------------


def _connect(state, seat, pairs):
    core = data.core()
    for a, b in pairs:
        plan = core.plan_build(state["rail"], seat, MAP.key(MAP.cities[b].centre), start=MAP.key(MAP.cities[a].centre))
        core.apply_build(state["rail"], seat, plan)
    core.start_turn(state["rail"], state["active"])


SEVEN = [("thornhollow", "saltharbor"), ("saltharbor", "goldmeadow"), ("goldmeadow", "stonecrown"),
         ("emberforge", "mossgate"), ("mossgate", "sandspire")]


@pytest.mark.parametrize(("pairs", "gold_held", "ley", "wins"), [
    (SEVEN, 250, True, True),
    (SEVEN, 249, True, False),
    (SEVEN[:4], 400, True, False),  # 6 majors
    (SEVEN, 250, False, False),  # the Ley Line suspended: 5
])
def test_the_win(pairs, gold_held, ley, wins):
    state = normal_turn()
    give_foreman(state, 0, "dwarf")
    _connect(state, 0, pairs)
    if not ley:
        state["rail"]["links"][data.LEY_LINE] = False
    majors = data.core().majors_connected(state["rail"], 0)
    assert len(majors) == {True: 7, False: 5}[ley] if pairs == SEVEN else len(majors) == 6
    state["players"][0]["gold"] = gold_held
    events = end_turn(state)
    assert state["finished"] is wins
    if wins:
        assert state["winners"] == [0] and events[-1] == {"type": "game-over", "winners": [0], "reason": "won"}
        assert ENGINE.active_seats(state) == [] and ENGINE.legal_commands(state, seat=0) == []


@pytest.mark.parametrize(("win_check", "at_their_turns_end"), [
    ("at-once", [0]),       # the notes: checked for every player as soon as it may change
    ("own-turn-end", []),   # the option: only for the player ending their own turn
])
def test_when_the_win_is_checked(win_check, at_their_turns_end):
    state = normal_turn(win_check=win_check)
    end_turn(state)
    _connect(state, 0, SEVEN)
    state["players"][0]["gold"] = 300
    end_turn(state)  # seat 1's turn
    assert state["winners"] == at_their_turns_end and state["finished"] is bool(at_their_turns_end)
    if not at_their_turns_end:
        assert state["active"] == 0
        end_turn(state)
        assert state["winners"] == [0]


# Six majors with Sandspire and without Mossgate (the Ley Line joins Thornhollow and Emberforge): the Prism
# Bridge, Sandspire to Mossgate, makes seven. And six with Mossgate and without Sandspire.
WITH_SANDSPIRE = [("thornhollow", "saltharbor"), ("saltharbor", "goldmeadow"), ("goldmeadow", "stonecrown"),
                  ("goldmeadow", "sandspire")]
WITH_MOSSGATE = [("mossgate", "emberforge"), ("emberforge", "stonecrown"), ("stonecrown", "highcairn"),
                 ("stonecrown", "goldmeadow")]


@pytest.mark.parametrize(("win_check", "at_the_draw"), [("at-once", [0]), ("own-turn-end", [])])
def test_a_bridge_drawn_by_another_player_completes_a_network_and_wins(win_check, at_the_draw):
    """The notes: an event card "could end the game and make another player win, for example if Rainbow
    Bridge comes up"."""
    state = normal_turn(win_check=win_check)
    end_turn(state)  # seat 1 is on turn and will draw the bridge
    _connect(state, 0, WITH_SANDSPIRE)
    majors = data.core().majors_connected(state["rail"], 0)
    assert len(majors) == 6 and "sandspire" in majors and "mossgate" not in majors
    state["players"][0]["gold"] = 260
    _card, _demand, _nxt, events = _deliver(state, seat=1, events=("prism-dawn",))
    assert len(data.core().majors_connected(state["rail"], 0)) == 7
    assert state["winners"] == at_the_draw and state["finished"] is bool(at_the_draw)
    if at_the_draw:
        assert [e["type"] for e in events] == ["delivered", "event-drawn", "game-over"]
        assert len(state["players"][1]["hand"]) == 2  # the draw stops with the game
        assert ENGINE.standings(state) == [1, 2]
    else:
        end_turn(state)  # seat 1's turn ends: not seat 0's win yet
        assert not state["finished"] and state["active"] == 0
        end_turn(state)
        assert state["winners"] == [0]


@pytest.mark.parametrize(("win_check", "at_the_delivery"), [("at-once", True), ("own-turn-end", False)])
def test_a_win_reached_by_a_delivery_mid_turn(win_check, at_the_delivery):
    state = normal_turn(win_check=win_check)
    _connect(state, 0, SEVEN)
    state["players"][0]["gold"] = 249
    _card, _demand, _nxt, events = _deliver(state)
    assert state["finished"] is at_the_delivery
    if at_the_delivery:
        assert [e["type"] for e in events] == ["delivered", "game-over"] and state["winners"] == [0]
        assert len(state["players"][0]["hand"]) == 2  # won before the card is replaced
        assert refused(state, 0, {"cmd": "end-turn"}) == "game-over"
    else:
        assert len(state["players"][0]["hand"]) == 3
        end_turn(state)
        assert state["winners"] == [0]


@pytest.mark.parametrize(("win_tie", "golds", "winners"), [
    ("most-gold", (260, 300), [1]),
    ("most-gold", (300, 260), [0]),
    ("most-gold", (280, 280), [0, 1]),
    ("shared", (260, 300), [0, 1]),
])
def test_two_players_meeting_the_goal_by_one_event(win_tie, golds, winners):
    state = normal_turn(3, win_tie=win_tie)
    end_turn(state)
    end_turn(state)  # seat 2 draws the bridge
    _connect(state, 0, WITH_SANDSPIRE)
    _connect(state, 1, WITH_MOSSGATE)
    assert [len(data.core().majors_connected(state["rail"], s)) for s in (0, 1)] == [6, 6]
    state["players"][0]["gold"], state["players"][1]["gold"] = golds
    _deliver(state, seat=2, events=("prism-dawn",))
    assert state["finished"] and state["winners"] == winners


def test_the_view_names_the_round_in_which_an_effect_ends():
    """The view's ``ends.round``: the normal round whose turn of the drawer removes the effect (a lost turn
    counts as a turn); the game-long bridge has no end."""
    state = normal_turn(3)
    _deliver(state, events=("whiteout", "prism-dawn"))
    drawn_in = state["round"]
    whiteout, bridge = ENGINE.view(state, seat=2)["effects"]
    assert bridge["ends"] is None
    assert whiteout["ends"]["seat"] == 0 and whiteout["ends"]["round"] == drawn_in + 1
    state["players"][0]["lost_turns"] = 1  # the drawer's next turn is lost: it still ends the effect
    while True:
        events = end_turn(state)
        if any(e["type"] == "event-over" and e["card"] == "whiteout" for e in events):
            break
    assert state["round"] == whiteout["ends"]["round"] + (1 if state["order"][-1] == 0 else 0)
    assert any(e["type"] == "turn-lost" and e["seat"] == 0 for e in events)
    view = ENGINE.view(state, seat=None)
    assert view["build_rounds"] == data.BUILD_ROUNDS == 3
