"""Runerail area events: no building, halted trains, half rate, no loading, lost turns, lost loads (a pending
decision) and destroyed track with its rebuild rights, each with its duration."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.runerail import data

from .helpers import (
    ENGINE,
    MAP,
    apply,
    build,
    end_turn,
    find_pairs,
    lay,
    line_into,
    move,
    normal_turn,
    plain_place,
    put_train,
    raw_node,
    refused,
    trigger,
)


def _pair_into(card):
    """A plain pair (a outside the area, b inside), no crossing, surface, both plain places."""
    area = data.event_area(card)
    return next((a, b) for a, b in find_pairs(
        lambda a, b: a.startswith("0,") and plain_place(a) and plain_place(b) and not area.has(MAP.index[a])
        and area.has(MAP.index[b]) and not MAP.crossings.get(MAP.edge_key(MAP.index[a], MAP.index[b]))
        and raw_node(b)["terrain"] in ("plain", "forest", "mountain", "desert")))


def _foothold(state, seat, a, b):
    """Track of ``seat`` ending at ``a`` from a plain neighbour that is not ``b``."""
    from .helpers import neighbours
    other = next(n for n in neighbours(a) if n != b and plain_place(n)
                 and not MAP.crossings.get(MAP.edge_key(MAP.index[a], MAP.index[n])))
    lay(state, seat, other, a)


@pytest.mark.parametrize(("card", "drawer", "builder", "code"), [
    ("guildhall-quarrel", 0, 0, "no-build"),   # players: all
    ("guildhall-quarrel", 1, 0, "no-build"),
    ("surveyors-oath", 0, 0, None),            # players: others — the drawer may build
    ("surveyors-oath", 1, 0, "no-build"),
])
def test_no_build_refuses_sections_into_the_area_for_the_players_named(card, drawer, builder, code):
    state = normal_turn()
    a, b = _pair_into(card)
    _foothold(state, builder, a, b)
    trigger(state, drawer, card)
    if code:
        assert refused(state, builder, build(a, b)) == code
        assert build(a, b) not in ENGINE.legal_commands(state, seat=builder)
    else:
        apply(state, builder, build(a, b))
        assert state["rail"]["track"][MAP.edge_key(MAP.index[a], MAP.index[b])] == builder


def test_no_build_ends_with_the_drawers_next_turn():
    state = normal_turn()
    a, b = _pair_into("guildhall-quarrel")
    _foothold(state, 0, a, b)
    trigger(state, 0, "guildhall-quarrel")
    end_turn(state)
    end_turn(state)  # seat 1
    assert refused(state, 0, build(a, b)) == "no-build"  # the drawer's next turn: still in force
    end_turn(state)
    end_turn(state)
    assert state["effects"] == [] and "guildhall-quarrel" in state["discards"]
    apply(state, 0, build(a, b))


def test_halt_stops_trains_in_the_area_only():
    state = normal_turn()
    keys = [MAP.key(i) for i in sorted(data.event_area("deepways-collapse").nodes)]
    a = next(k for k in keys if plain_place(k))
    b = next(MAP.key(nb.node) for nb in MAP.adjacency[MAP.index[a]] if nb.link is None and plain_place(MAP.key(nb.node)))
    lay(state, 0, a, b)
    put_train(state, 0, a)
    trigger(state, 0, "deepways-collapse")
    assert refused(state, 0, move(a, b)) == "halted"
    assert ENGINE.legal_commands(state, seat=0) and all(c["cmd"] != "move" for c in ENGINE.legal_commands(state, seat=0))
    outside = line_into("whiteout", 0, 2)  # on the surface
    lay(state, 0, *outside)
    put_train(state, 0, outside[0])
    apply(state, 0, move(*outside))  # a train outside moves


@pytest.mark.parametrize(("loco", "speed", "half"), [
    ("kettle-crawler", 10, 5), ("swiftwick", 12, 6), ("gale-runner", 14, 7), ("starling-comet", 16, 8),
])
def test_half_rate_halves_a_train_in_the_area(loco, speed, half):
    state = normal_turn()
    keys = line_into("whiteout", 0, half + 2)
    lay(state, 0, *keys)
    state["players"][0]["loco"] = loco
    put_train(state, 0, keys[0])
    assert ENGINE.moves_left(state, 0) == speed
    events = trigger(state, 0, "whiteout")
    assert events[-1] == {"type": "half-rate", "seat": 0, "moves_left": half}
    view = ENGINE.view(state, seat=0)
    assert view["turn"]["moves_left"] == half and view["turn"]["half_rate"] is True
    assert refused(state, 0, move(*keys[:half + 2])) == "too-far"
    apply(state, 0, move(*keys[:half + 1]))
    assert ENGINE.moves_left(state, 0) == 0


@pytest.mark.parametrize(("outside", "more", "ok"), [
    (3, 4, True),    # 3 used, 7 left at the area: ceil(7/2) = 4 more
    (3, 5, False),
    (4, 3, True),    # 6 left: 3 more
    (4, 4, False),
    (1, 5, True),    # 9 left: 5 more
    (1, 6, False),
])
def test_half_rate_entering_mid_move_halves_what_is_left_rounded_up(outside, more, ok):
    state = normal_turn()
    keys = line_into("whiteout", outside, outside + more + 1)
    lay(state, 0, *keys)
    put_train(state, 0, keys[0])
    trigger(state, 1, "whiteout")  # seat 0's train is outside: nothing halved yet
    assert ENGINE.moves_left(state, 0) == 10
    cmd = move(*keys)
    if ok:
        events = apply(state, 0, cmd)
        assert [e["type"] for e in events] == ["moved", "half-rate", "moved"]
        assert [e["moves"] for e in events if e["type"] == "moved"] == [outside, more]
        assert ENGINE.moves_left(state, 0) == (10 - outside + 1) // 2 - more
    else:
        assert refused(state, 0, cmd) == "too-far"


def test_half_rate_plan_counts_the_halving():
    state = normal_turn()
    keys = line_into("whiteout", 3, 9)
    lay(state, 0, *keys)
    put_train(state, 0, keys[0])
    trigger(state, 1, "whiteout")
    plan = ENGINE.plan(state, seat=0, request={"plan": "move", "to": keys[7]})
    assert plan["moves"] == 7 and plan["command"] == move(*keys[:8])
    with pytest.raises(RulesError) as err:
        ENGINE.plan(state, seat=0, request={"plan": "move", "to": keys[8]})
    assert err.value.code == "no-path"


def _city_in(card):
    """The first city (by id) with a milepost in the card's area that has a demand on some card, and a milepost."""
    area = data.event_area(card)
    for cid in sorted(MAP.cities):
        node = MAP.cities[cid].nodes[0]
        if area.has(node):
            return cid, MAP.key(node)
    raise LookupError(card)


@pytest.mark.parametrize(("card", "city", "loads"), [
    ("mossgate-quarantine", "mossgate", ()),
    ("dockers-walkout", None, None),
])
def test_no_loading_refuses_pick_up_and_delivery_in_the_area(card, city, loads):
    state = normal_turn()
    if city is None:
        area = data.event_area(card)
        city = next(c for c in sorted(MAP.cities) if data.city_loads()[c] and area.has(MAP.cities[c].nodes[0]))
    key = MAP.key(MAP.cities[city].nodes[0])
    put_train(state, 0, key)
    trigger(state, 0, card)
    for load in data.city_loads()[city]:
        assert refused(state, 0, {"cmd": "pick-up", "load": load}) == "no-loading"
        listed = [e for e in ENGINE.listing(state, seat=0) if e["command"] == {"cmd": "pick-up", "load": load}]
        assert listed and listed[0]["reason"]
    demand_card, index = next((c, i) for c, spec in sorted(data.demand_cards().items())
                              for i, d in enumerate(spec["demands"]) if d["city"] == city)
    demand = data.demand_cards()[demand_card]["demands"][index]
    state["players"][0]["hand"][0] = demand_card
    state["players"][0]["loads"] = [demand["load"]]
    command = {"cmd": "deliver", "card": demand_card, "demand": index}
    assert refused(state, 0, command) == "no-loading"
    state["effects"] = []
    apply(state, 0, command)


def test_lose_turn_skips_the_next_turn_of_the_trains_in_the_area():
    state = normal_turn(3)
    near = MAP.key(MAP.cities["highcairn"].centre)
    far = MAP.key(MAP.cities["sandspire"].nodes[0])
    put_train(state, 0, far)
    put_train(state, 1, near)
    put_train(state, 2, near)
    events = trigger(state, 0, "hatchling-flight")
    assert events[-1] == {"type": "turns-lost", "card": "hatchling-flight", "seats": [1, 2]}
    assert state["effects"][-1]["status"] == "done"
    assert [p["lost_turns"] for p in ENGINE.view(state, seat=None)["players"]] == [0, 1, 1]
    turns = [p["turns"] for p in state["players"]]
    events = end_turn(state)
    assert [e["type"] for e in events] == ["turn-ended", "turn-lost", "turn-lost", "turn-started"]
    assert state["active"] == 0 and state["round"] == 2
    assert [p["turns"] for p in state["players"]] == [turns[0] + 1, turns[1] + 1, turns[2] + 1]
    assert [p["lost_turns"] for p in state["players"]] == [0, 0, 0]
    end_turn(state)
    assert state["active"] == 1  # lost once only


def _loaded(state, seat, key, loads):
    put_train(state, seat, key)
    state["players"][seat]["loads"] = list(loads)


def test_lose_load_is_a_pending_decision_answered_in_seat_order():
    state = normal_turn(3)
    area = data.event_area("ashland-raiders")
    key = MAP.key(next(i for i in sorted(area.nodes) if MAP.nodes[i].city))
    _loaded(state, 0, key, ["ale", "wool"])
    _loaded(state, 1, MAP.key(MAP.cities["highcairn"].centre), ["ale"])  # outside
    _loaded(state, 2, key, ["wool", "salt"])
    supply = dict(state["supply"])
    trigger(state, 0, "ashland-raiders")
    assert state["pending"] == {"kind": "lose-load", "then": None, "queue": [
        {"seat": 0, "card": "ashland-raiders", "loads": 1}, {"seat": 2, "card": "ashland-raiders", "loads": 1}]}
    assert ENGINE.active_seats(state) == [0]
    assert ENGINE.legal_commands(state, seat=0) == [{"cmd": "choose-load-to-lose", "load": "ale"},
                                                    {"cmd": "choose-load-to-lose", "load": "wool"}]
    assert ENGINE.legal_commands(state, seat=2) == []
    assert ENGINE.view(state, seat=0)["pending"]["yours"] == {"ask": "choose-load-to-lose",
                                                              "card": "ashland-raiders", "loads": 1,
                                                              "choices": ["ale", "wool"]}
    assert ENGINE.view(state, seat=2)["pending"]["yours"] is None
    assert refused(state, 0, {"cmd": "end-turn"}) == "decision-pending"
    assert refused(state, 2, {"cmd": "choose-load-to-lose", "load": "wool"}) == "decision-pending"
    assert refused(state, 0, {"cmd": "choose-load-to-lose", "load": "salt"}) == "no-such-load"
    apply(state, 0, {"cmd": "choose-load-to-lose", "load": "wool"})
    assert ENGINE.active_seats(state) == [2]
    assert ENGINE.view(state, seat=2)["pending"]["yours"]["choices"] == ["salt", "wool"]
    apply(state, 2, {"cmd": "choose-load-to-lose", "load": "wool"})
    assert state["pending"] is None and ENGINE.active_seats(state) == [0] and state["stage"] == "move"
    assert [p["loads"] for p in state["players"]] == [["ale"], ["ale"], ["salt"]]
    assert state["supply"]["wool"] == supply["wool"] + 2
    assert refused(state, 0, {"cmd": "choose-load-to-lose", "load": "ale"}) == "nothing-to-choose"


def test_lose_load_drawn_by_a_hand_discard_ends_the_turn_after_the_answers():
    state = normal_turn(2)
    key = MAP.key(next(i for i in sorted(data.event_area("ashland-raiders").nodes) if MAP.nodes[i].city))
    _loaded(state, 1, key, ["ale", "wool"])
    state["deck"].remove("ashland-raiders")
    state["deck"].append("ashland-raiders")
    apply(state, 0, {"cmd": "discard-hand"})
    assert state["pending"]["then"] == "end-turn" and state["active"] == 0
    assert ENGINE.active_seats(state) == [1]
    events = apply(state, 1, {"cmd": "choose-load-to-lose", "load": "ale"})
    types = [e["type"] for e in events]
    assert types[0] == "load-lost" and types.index("card-drawn") < types.index("turn-ended")
    assert len(state["players"][0]["hand"]) == 3  # the draw went on after the answer, then the turn ended
    assert state["active"] == 1 and state["pending"] is None


def _raiders_city():
    return MAP.key(next(i for i in sorted(data.event_area("ashland-raiders").nodes) if MAP.nodes[i].city))


@pytest.mark.parametrize(("loads", "asked", "left"), [
    (["ale"], False, []),                    # the only load: no choice, it is taken
    (["ale", "ale"], False, ["ale"]),        # loads all alike: no choice either
    (["ale", "wool"], True, ["ale", "wool"]),  # a real choice: the owner is asked (published)
])
def test_a_lost_load_with_no_choice_is_taken_without_asking(loads, asked, left):
    state = normal_turn(2)
    _loaded(state, 1, _raiders_city(), loads)
    supply = dict(state["supply"])
    events = trigger(state, 0, "ashland-raiders")
    assert (state["pending"] is not None) is asked
    assert state["players"][1]["loads"] == left
    assert ENGINE.active_seats(state) == ([1] if asked else [0])
    lost = [e for e in events if e["type"] == "load-lost"]
    assert lost == ([] if asked else [{"type": "load-lost", "seat": 1, "load": "ale", "card": "ashland-raiders",
                                        "chosen": False}])
    assert state["supply"]["ale"] == supply["ale"] + (0 if asked else 1)


@pytest.mark.parametrize(("seat", "command"), [
    (0, {"cmd": "end-turn"}),                              # the player on turn
    (0, {"cmd": "choose-load-to-lose", "load": "ale"}),
    (2, {"cmd": "end-turn"}),                              # a third player
    (2, {"cmd": "choose-load-to-lose", "load": "salt"}),
])
def test_while_a_decision_is_pending_others_are_told_whose_it_is(seat, command):
    state = normal_turn(3)
    _loaded(state, 0, MAP.key(MAP.cities["highcairn"].centre), ["ale"])
    _loaded(state, 1, _raiders_city(), ["ale", "wool"])
    _loaded(state, 2, MAP.key(MAP.cities["highcairn"].centre), ["salt"])
    trigger(state, 0, "ashland-raiders")
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command=command)
    assert err.value.code == "decision-pending"
    assert "Bo (player 1)" in err.value.message


def _stack(state, *cards):
    """Put ``cards`` on top of the deck, drawn in the order given."""
    for c in cards:
        (state["deck"] if c in state["deck"] else state["discards"]).remove(c)
    state["deck"].extend(reversed(cards))


@pytest.mark.parametrize("how", ["deliver", "discard-hand"])
def test_the_draw_waits_for_the_decision_then_goes_on(how):
    state = normal_turn(2)
    _loaded(state, 1, _raiders_city(), ["ale", "wool"])
    player = state["players"][0]
    if how == "deliver":
        card = player["hand"][0]
        demand = data.demand_cards()[card]["demands"][0]
        put_train(state, 0, MAP.key(MAP.cities[demand["city"]].nodes[0]))
        player["loads"] = [demand["load"]]
        state["supply"][demand["load"]] -= 1
        command, hand_before = {"cmd": "deliver", "card": card, "demand": 0}, 2
    else:
        command, hand_before = {"cmd": "discard-hand"}, 0
    _stack(state, "ashland-raiders", "sea-fog")
    events = apply(state, 0, command)
    assert events[-1] == {"type": "loads-to-lose", "card": "ashland-raiders", "seats": [1]}
    assert len(player["hand"]) == hand_before  # nothing more drawn yet
    assert [e["card"] for e in state["effects"]] == ["ashland-raiders"] and state["deck"][-1] == "sea-fog"
    events = apply(state, 1, {"cmd": "choose-load-to-lose", "load": "wool"})
    types = [e["type"] for e in events]
    assert types[:2] == ["load-lost", "event-drawn"] and events[1]["card"] == "sea-fog"
    assert len(player["hand"]) == 3 and state["pending"] is None
    if how == "deliver":
        assert state["active"] == 0 and "turn-ended" not in types
    else:
        assert state["active"] == 1 and "turn-ended" in types


def test_lose_load_asks_nobody_without_loads_or_outside():
    state = normal_turn(2)
    key = MAP.key(next(i for i in sorted(data.event_area("ashland-raiders").nodes) if MAP.nodes[i].city))
    _loaded(state, 0, key, [])
    events = trigger(state, 0, "ashland-raiders")
    assert events[-1]["seats"] == [] and state["pending"] is None
    trigger(state, 0, "wreckers-lights")  # the Western Sea: no train is at sea
    assert state["pending"] is None


@pytest.mark.parametrize("card", ["scouring-gale", "thaw-torrents", "cinder-waking"])
def test_track_destroyed_erases_the_sections_in_the_area_and_keeps_rebuild_rights(card):
    state = normal_turn()
    area = data.event_area(card)
    touching = [(a, b) for a, b in find_pairs(lambda a, b: a.startswith("0,")
                                              and area.touches(MAP.edge_key(MAP.index[a], MAP.index[b])))][:3]
    safe = line_into("whiteout", 0, 2)  # the Frostmarch: no desert, volcano or snowmelt river crossing there
    for i, (a, b) in enumerate(touching):
        lay(state, i % 2, a, b)
    lay(state, 1, *safe)
    safe_key = MAP.edge_key(MAP.index[safe[0]], MAP.index[safe[1]])
    assert not area.touches(safe_key)
    keys = {MAP.edge_key(MAP.index[a], MAP.index[b]): i % 2 for i, (a, b) in enumerate(touching)}
    events = trigger(state, 0, card)
    assert events[-1] == {"type": "track-destroyed", "card": card, "sections": dict(sorted(keys.items()))}
    assert state["rail"]["track"] == {safe_key: 1}
    assert state["rail"]["reserved"] == keys
    assert ENGINE.view(state, seat=1)["rebuild_rights"] == keys
    effect = state["effects"][-1]
    assert effect["status"] == "done" and effect["sections"] == dict(sorted(keys.items()))


def test_rebuild_rights_only_the_owner_at_the_normal_cost_for_3_turns_after_the_discard():
    state = normal_turn()
    a, b = _pair_into("scouring-gale")
    assert raw_node(b)["terrain"] == "desert"
    lay(state, 1, a, b)
    _foothold(state, 0, a, b)
    key = MAP.edge_key(MAP.index[a], MAP.index[b])
    trigger(state, 0, "scouring-gale")
    assert state["rail"]["reserved"] == {key: 1}
    assert refused(state, 0, build(a, b)) == "track-reserved"
    end_turn(state)  # seat 0's turn
    end_turn(state)  # seat 1
    end_turn(state)  # seat 0's next turn: the card is discarded, the rights run 3 more of its turns
    effect = state["effects"][-1]
    assert effect["status"] == "rebuild" and "scouring-gale" in state["discards"]
    assert effect["ends"] == {"seat": 0, "turn": state["players"][0]["turns"] + 3}
    for _ in range(2):
        end_turn(state)
        end_turn(state)
    assert state["rail"]["reserved"] == {key: 1}  # two of the drawer's turns after the discard
    end_turn(state)  # seat 1
    assert state["active"] == 0
    end_turn(state)  # the drawer's third turn after the discard: the rights are over
    assert state["rail"]["reserved"] == {} and all(e["card"] != "scouring-gale" for e in state["effects"])


def _outside_foothold(state, seat, a, b, area):
    """Track of ``seat`` ending at ``a``, from a plain neighbour (not ``b``) by a section the area does not touch."""
    from .helpers import neighbours
    for n in neighbours(a):
        key = MAP.edge_key(MAP.index[a], MAP.index[n])
        if n != b and plain_place(n) and not MAP.crossings.get(key) and not area.touches(key) \
                and key not in state["rail"]["track"]:
            lay(state, seat, n, a)
            return
    raise LookupError(a)


def _two_pairs(card):
    """Two buildable pairs (a, b) the card's area touches, far apart, with ``a`` a plain place outside its nodes."""
    from .helpers import neighbours
    area = data.event_area(card)
    found, used = [], set()
    for a, b in find_pairs(lambda a, b: a.startswith("0,") and plain_place(a) and plain_place(b)
                           and area.touches(MAP.edge_key(MAP.index[a], MAP.index[b])) and not area.nodes & {MAP.index[a]}
                           and raw_node(b)["terrain"] in ("plain", "forest", "mountain", "desert")):
        if {a, b} & used:
            continue
        used |= {a, b, *neighbours(a), *neighbours(b)}
        found.append((a, b))
        if len(found) == 2:
            return found
    raise LookupError(card)


@pytest.mark.parametrize(("card", "when", "builder", "which", "code"), [
    ("thaw-torrents", "in-force", 0, "destroyed", "track-destroyed"),  # the owner may not rebuild at once
    ("thaw-torrents", "in-force", 1, "fresh", "track-destroyed"),      # nor may anyone bridge the river anew
    ("thaw-torrents", "in-force", 1, "destroyed", "track-reserved"),
    ("thaw-torrents", "after", 0, "destroyed", None),                  # then the owner's right to rebuild
    ("thaw-torrents", "after", 1, "destroyed", "track-reserved"),
    ("thaw-torrents", "after", 1, "fresh", None),
    ("scouring-gale", "in-force", 0, "destroyed", "track-destroyed"),
    ("scouring-gale", "in-force", 1, "fresh", "track-destroyed"),
    ("scouring-gale", "after", 0, "destroyed", None),
])
def test_building_where_track_was_destroyed_waits_for_the_event_to_end(card, when, builder, which, code):
    state = normal_turn()
    area = data.event_area(card)
    (a, b), (fa, fb) = _two_pairs(card)
    lay(state, 0, a, b)
    _outside_foothold(state, 0, a, b, area)
    _outside_foothold(state, 1, a, b, area)
    _outside_foothold(state, 1, fa, fb, area)
    trigger(state, 0, card)
    assert MAP.edge_key(MAP.index[a], MAP.index[b]) not in state["rail"]["track"]
    if when == "after":
        for _ in range(3):  # seat 0's turn, seat 1's, seat 0's next: the card is discarded
            end_turn(state)
        assert state["effects"][-1]["status"] == "rebuild"
    if state["active"] != builder:
        end_turn(state)
    target = build(a, b) if which == "destroyed" else build(fa, fb)
    if code:
        assert refused(state, builder, target) == code
        assert target not in ENGINE.legal_commands(state, seat=builder)
    else:
        gold = state["players"][builder]["gold"]
        events = apply(state, builder, target)
        assert state["players"][builder]["gold"] == gold - events[-1]["cost"]  # the normal price


def test_the_owner_rebuilds_at_the_normal_cost_once_the_event_ends():
    state = normal_turn()
    a, b = _pair_into("scouring-gale")
    _outside_foothold(state, 0, a, b, data.event_area("scouring-gale"))
    lay(state, 0, a, b)
    trigger(state, 0, "scouring-gale")
    assert refused(state, 0, build(a, b)) == "track-destroyed"
    for _ in range(4):
        end_turn(state)
    gold = state["players"][0]["gold"]
    events = apply(state, 0, build(a, b))
    assert events[-1]["cost"] == 1 and state["players"][0]["gold"] == gold - 1
    assert state["rail"]["reserved"] == {}
