"""Random play: every command legal_commands lists is accepted, nothing else is raised, every view is JSON
without other seats' secrets, and the command log replays to the same state."""

from __future__ import annotations

import copy
import json
import random

import pytest

from .helpers import ENGINE, MAJORS, MAP, NAMES


def _pick(legal, rnd):
    places = [c for c in legal if c["cmd"] == "place-train" and MAP.nodes[MAP.find(c["at"])].city in MAJORS]
    if places:
        return rnd.choice(places)
    ships = [c for c in legal if c["cmd"] in ("sail", "board-ship", "choose-ship")]
    if ships and rnd.random() < 0.6:
        return rnd.choice(ships)
    builds = [c for c in legal if c["cmd"] == "build"]
    moves = [c for c in legal if c["cmd"] == "move"]
    others = [c for c in legal if c["cmd"] not in ("build", "move", "end-turn")]
    r = rnd.random()
    if builds and r < 0.45:
        return rnd.choice(builds)
    if moves and r < 0.8:
        return rnd.choice(moves)
    if others and r < 0.9:
        return rnd.choice(others)
    return rnd.choice(legal)


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 5)])
def test_random_legal_play_is_accepted_and_replays(seed, players):
    state = ENGINE.setup(players=NAMES[:players], options={}, seed=seed)
    start = copy.deepcopy(state)
    rnd = random.Random(seed)
    log = []
    kinds = set()
    for _ in range(300):
        if ENGINE.is_finished(state):
            break
        [seat] = ENGINE.active_seats(state)
        legal = ENGINE.legal_commands(state, seat=seat)
        assert legal, state["phase"]
        for other in range(players):
            if other != seat:
                assert ENGINE.legal_commands(state, seat=other) == []
        command = _pick(legal, rnd)
        ENGINE.apply(state, seat=seat, command=copy.deepcopy(command))  # a refusal fails the test
        log.append((seat, command))
        kinds.add(command["cmd"])
        view = ENGINE.view(state, seat=(seat + 1) % players)
        json.dumps(view)
        assert all(p["hand"] is None for p in view["players"] if p["seat"] != (seat + 1) % players)
        assert "rng" not in view and "deck" not in view
    assert {"keep-foreman", "build", "end-turn", "move"} <= kinds
    replay = start
    for seat, command in log:
        ENGINE.apply(replay, seat=seat, command=command)
    assert replay == state


def _rigged(players, seed):
    """A game at its first normal turn with trains near Highcairn and loaded at a port of the Ashen Reach, desert
    track down, and the area events on top of the deck: the first hand discard draws them all."""
    from games.engines.runerail import data

    from .helpers import lay, line_into, to_play

    state = to_play(ENGINE.setup(players=NAMES[:players], options={}, seed=seed))
    ash = next(k for k in sorted(data.port_keys()) if data.event_area("ashland-raiders").has(MAP.index[k]))
    high = MAP.key(MAP.cities["highcairn"].centre)
    for p in state["players"]:
        p["at"] = high if p["seat"] % 2 else ash
        p["loads"] = [] if p["seat"] % 2 else ["ale", "salt"]  # two kinds: the Raiders ask which goes
        for load in p["loads"]:
            state["supply"][load] -= 1
    desert = line_into("scouring-gale", 0, 3)
    lay(state, state["order"][-1], *desert)
    cards = ["hatchling-flight", "ashland-raiders", "whiteout", "scouring-gale", "deepways-collapse",
             "guildhall-quarrel", "mossgate-quarantine", "dockers-walkout"]
    for card in cards:
        (state["deck"] if card in state["deck"] else state["discards"]).remove(card)
    state["deck"].extend(reversed(cards))
    return state


@pytest.mark.parametrize(("seed", "players"), [(4, 2), (5, 3), (6, 4)])
def test_random_play_through_area_events_pending_decisions_and_lost_turns(seed, players):
    state = _rigged(players, seed)
    start = copy.deepcopy(state)
    rnd = random.Random(seed)
    log = []
    kinds, events = set(), set()
    first = True
    for _ in range(250):
        if ENGINE.is_finished(state):
            break
        [seat] = ENGINE.active_seats(state)
        legal = ENGINE.legal_commands(state, seat=seat)
        assert legal, (state["phase"], state.get("pending"))
        for other in range(players):
            if other != seat:
                assert ENGINE.legal_commands(state, seat=other) == []
        command = {"cmd": "discard-hand"} if first else _pick(legal, rnd)
        first = False
        assert command in legal
        out = ENGINE.apply(state, seat=seat, command=copy.deepcopy(command))
        log.append((seat, command))
        kinds.add(command["cmd"])
        events |= {e["type"] for e in out}
        for viewer in [None, *range(players)]:
            view = ENGINE.view(state, seat=viewer)
            json.dumps(view)
            if view["pending"]:
                assert (view["pending"]["yours"] is not None) == (viewer == view["pending"]["seat"])
    assert {"choose-load-to-lose", "board-ship", "sail"} <= kinds
    assert {"turn-lost", "track-destroyed", "load-lost", "event-over"} <= events
    replay = start
    for seat, command in log:
        ENGINE.apply(replay, seat=seat, command=command)
    assert replay == state
