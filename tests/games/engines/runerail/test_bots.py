"""The Runerail bots: what the planner does in chosen positions, that neither bot ever sends a command
the engine refuses over whole games, that the planner wins (and beats the random bot), and that a
game is replayed by its seed.

Win rates and round counts over many games are the simulator's business (``simulate.py``; the
README's "Bots" section); these tests play a few games only."""

from __future__ import annotations

import copy
import random

import pytest

from games.engines.runerail import bots, data
from games.engines.runerail.simulate import play_game

from .helpers import ENGINE, MAP, NAMES, draft_first, normal_turn, put_train, seated_game


def planner(state, seat=0):
    return ENGINE.bot_command(state, seat=seat, bot="planner", rng=random.Random(0))


def city_key(city, i=0):
    return MAP.key(MAP.cities[city].nodes[i])


def some_demand():
    """A demand card, one of its demands whose load has a source other than its city, and that source."""
    for card_id, card in sorted(data.demand_cards().items()):
        for i, d in enumerate(card["demands"]):
            sources = [c for c in bots.board().sources[d["load"]] if c != d["city"]]
            if sources and bots.board().pair("goldmeadow", d["city"])[0] < bots.INF \
                    and bots.board().pair("goldmeadow", sources[0])[0] < bots.INF:  # on the mainland
                return card_id, i, d, sources[0]
    raise LookupError


# -- chosen positions -------------------------------------------------------------------------------


def test_the_draft_keeps_a_dealt_foreman_and_never_the_troll_while_another_is_dealt():
    state = seated_game(3, seed=2)
    while state["phase"] == "draft":
        seat = ENGINE.active_seats(state)[0]
        dealt = list(state["draft"]["dealt"][str(seat)])
        command = planner(state, seat)
        assert command["cmd"] == "keep-foreman" and command["foreman"] in dealt
        if len(dealt) > 1:
            assert data.foremen()[command["foreman"]]["kind"] != "troll"
        ENGINE.apply(state, seat=seat, command=command)
    assert all(p["foreman"] for p in state["players"])


def test_delivers_a_load_a_card_wants_here():
    state = normal_turn()
    card, i, demand, _source = some_demand()
    state["players"][0].update(hand=[card], loads=[demand["load"]])
    put_train(state, 0, city_key(demand["city"]))
    assert planner(state) == {"cmd": "deliver", "card": card, "demand": i}


def test_drops_a_load_no_card_wants():
    state = normal_turn()
    card, _i, demand, _source = some_demand()
    wanted = {d["load"] for d in data.demand_cards()[card]["demands"]}
    here = data.city_loads()[demand["city"]]
    unwanted = next(x for x in sorted(data.loads()) if x not in wanted and x not in here)
    state["players"][0].update(hand=[card], loads=[unwanted], gold=500)  # a hand worth playing
    put_train(state, 0, city_key(demand["city"]))
    assert planner(state) == {"cmd": "drop", "load": unwanted}


def test_answers_a_lost_load_with_its_least_valuable_load():
    state = normal_turn()
    card, _i, demand, _source = some_demand()
    wanted = {d["load"] for d in data.demand_cards()[card]["demands"]}
    unwanted = next(x for x in sorted(data.loads()) if x not in wanted)
    state["players"][0].update(hand=[card], loads=[demand["load"], unwanted])
    planner_ = bots._Planner(ENGINE, state, 0)
    state["pending"] = {"kind": "lose-load", "queue": [{"seat": 0, "card": "x", "loads": 1}], "then": None}
    legal = [{"cmd": "choose-load-to-lose", "load": x} for x in sorted({demand["load"], unwanted})]
    planner_.engine = type("E", (), {"legal_commands": lambda self, s, seat: legal})()
    assert planner_.decide() == {"cmd": "choose-load-to-lose", "load": unwanted}


def test_first_build_turn_builds_within_the_budget_from_a_major_city():
    state = draft_first(seated_game(2, seed=5))
    seat = state["active"]
    command = planner(state, seat)
    assert command["cmd"] == "build"
    assert MAP.major_of[MAP.find(command["path"][0])] is not None
    spent = 0
    while state["active"] == seat and state["phase"] == "build":
        events = ENGINE.apply(state, seat=seat, command=planner(state, seat))
        spent += sum(e["cost"] for e in events if e["type"] == "built")
    assert 0 < spent <= 20


def test_a_qualified_player_ends_the_turn_and_wins():
    state = normal_turn()
    m = MAP
    majors = list(m.majors)
    # seat 0 joins 7 majors with track laid along the rail core's plan (set directly) and holds 260 gold
    core = data.core()
    keys = [city_key(c) for c in majors[:7]]
    for a, b in zip(keys, keys[1:], strict=False):  # one build a leg: a build path visits each milepost once
        plan = core.plan_build_through(state["rail"], 0, [a, b])
        assert plan is not None
        core.apply_build(state["rail"], 0, plan)
        core.start_turn(state["rail"], 0)
    state["players"][0]["gold"] = 260
    put_train(state, 0, city_key(majors[0]))
    if len(core.majors_connected(state["rail"], 0)) < 7:
        pytest.skip("the laid path does not join 7 majors on this map")
    assert planner(state) == {"cmd": "end-turn"}
    ENGINE.apply(state, seat=0, command={"cmd": "end-turn"})
    assert state["finished"] and state["winners"] == [0]


@pytest.mark.parametrize("bad", [
    {"cmd": "build", "path": [[0, 1, 1], [0, 40, 40]]},
    {"cmd": "move", "path": [[0, 1, 1], [0, 1, 2]]},
    {"cmd": "pick-up", "load": "ale"},
    {"cmd": "deliver", "card": "d001", "demand": 2},
    {"cmd": "upgrade", "loco": "runeforged-colossus"},
])
def test_a_plan_the_engine_would_refuse_becomes_end_turn(monkeypatch, bad):
    state = normal_turn()
    put_train(state, 0, city_key("goldmeadow"))
    monkeypatch.setattr(bots._Planner, "_command", lambda self: bad)
    assert planner(state) == {"cmd": "end-turn"}


def test_the_planner_is_deterministic_and_changes_nothing():
    state = ENGINE.setup(players=NAMES[:3], options={}, seed=3)
    for _ in range(60):
        if state["finished"]:
            break
        seat = ENGINE.active_seats(state)[0]
        before = copy.deepcopy(state)
        command = ENGINE.bot_command(state, seat=seat, bot="planner", rng=random.Random(1))
        assert state == before
        assert ENGINE.bot_command(state, seat=seat, bot="planner", rng=random.Random(99)) == command
        ENGINE.apply(state, seat=seat, command=command)


def test_random_bot_plays_legal_commands():
    state = ENGINE.setup(players=NAMES[:2], options={}, seed=4)
    rng = random.Random(4)
    for _ in range(150):
        if state["finished"]:
            break
        seat = ENGINE.active_seats(state)[0]
        command = ENGINE.bot_command(state, seat=seat, bot="random", rng=rng)
        assert command in ENGINE.legal_commands(state, seat=seat)
        ENGINE.apply(state, seat=seat, command=command)


# -- whole games (play_game raises on any refused command) ----------------------------------------------


@pytest.mark.parametrize("seed", [1, 3])
def test_planner_beats_the_random_bot(seed):
    summary, state = play_game(["random", "planner"], seed=seed, max_steps=3000)
    assert state["finished"] and summary["end_reason"] == "won"
    assert summary["winners"] == [1]
    assert summary["deliveries"][1] > 0


def test_three_seats_two_planners_and_a_random_bot_end_with_a_planner_winning():
    summary, state = play_game(["planner", "random", "planner"], seed=32, max_steps=4000)
    assert state["finished"] and summary["end_reason"] == "won"
    assert summary["winners"] in ([0], [2])


def test_the_same_seed_plays_the_same_game():
    first, second = [], []
    a, state_a = play_game(["planner", "random", "random", "planner"], seed=7, max_steps=250, log=first)
    b, state_b = play_game(["planner", "random", "random", "planner"], seed=7, max_steps=250, log=second)
    assert first == second and a == b and state_a == state_b
    assert {e["command"]["cmd"] for e in first} >= {"keep-foreman", "build"}
