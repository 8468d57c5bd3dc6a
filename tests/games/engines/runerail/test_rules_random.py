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
