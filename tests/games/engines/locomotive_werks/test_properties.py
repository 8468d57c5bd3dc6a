"""Property tests: random legal play keeps the invariants; refused commands change nothing;
the same seed and commands always give the same game."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE
from games.engines.locomotive_werks.data import PHYSICAL_DICE, SPACES, TOTAL_CARDS

from .helpers import NAMES, snapshot

OPTIONS = st.fixed_dictionaries(
    {
        "production_costs": st.sampled_from(["fixed", "published"]),
        "starting_coins": st.sampled_from(["twelve", "by-player-count"]),
        "end_threshold": st.sampled_from([40, 120, 300]),
        "obsolescence": st.sampled_from(["owned-cards", "board-cards"]),
        "dice_pool": st.sampled_from(["unlimited", "twenty"]),
        "shift_rule": st.sampled_from(["higher-cost", "same-colour"]),
        "winner_ties": st.sampled_from(["shared", "later-in-turn-order"]),
    }
)
GAMES = dict(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 5),
    options=OPTIONS,
    play_seed=st.integers(0, 2**32),
    steps=st.integers(1, 600),
)
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COIN_FLOWS = {"developed": "cost", "units-bought": "cost", "units-shifted": "cost", "tax": "tax"}


def random_play(state, play_seed, steps):
    """Yield (seat, legal command) for up to ``steps`` moves; pass a third of the time so
    games move on."""
    chooser = random.Random(play_seed)
    for _ in range(steps):
        if state["finished"]:
            return
        seat = ENGINE.active_seats(state)[0]
        legal = ENGINE.legal_commands(state, seat=seat)
        assert legal and legal[-1] == {"cmd": "pass"}
        yield seat, (legal[-1] if chooser.random() < 1 / 3 else chooser.choice(legal))


def apply_flows(events, coins):
    for e in events:
        if e["type"] == "sale":
            coins[e["seat"]] += e["income"]
        elif e["type"] in COIN_FLOWS:
            coins[e["seat"]] -= e[COIN_FLOWS[e["type"]]]


def check_invariants(state, expected_coins):
    assert json.loads(json.dumps(state)) == state  # str keys, lists, no tuples
    players = state["players"]
    assert [p["coins"] for p in players] == expected_coins
    assert all(p["coins"] >= 0 for p in players)
    assert sorted(state["order"]) == list(range(len(players)))
    held = [0] * len(SPACES)
    for p in players:
        spaces = [c["space"] for c in p["cards"]]
        assert spaces == sorted(set(spaces))  # nothing owned twice
        assert len(p["developed"]) == len(set(p["developed"]))
        assert set(spaces) <= set(p["developed"])
        assert all(c["units"] >= 0 for c in p["cards"])
        for s in spaces:
            held[s - 1] += 1
    dice = 0
    for s, sp in zip(SPACES, state["spaces"], strict=True):
        assert sp["cards_left"] + held[s.space - 1] + state["removed_cards"][s.space - 1] == s.cards
        orders, base = sp["existing_orders"], sp["customer_base"]
        assert len(orders) + len(base) <= s.customer_base
        assert all(1 <= d <= 6 for d in orders + base)
        if sp["initial_order"] is not None:
            assert 1 <= sp["initial_order"] <= 6 and not orders and not base
        if sp["obsolete"]:
            assert not orders and not base and sp["initial_order"] is None
        dice += len(orders) + len(base) + (sp["initial_order"] is not None)
    assert (
        sum(held) + sum(s["cards_left"] for s in state["spaces"]) + sum(state["removed_cards"]) == TOTAL_CARDS
    )
    if state["options"]["dice_pool"] == "twenty":
        assert dice <= PHYSICAL_DICE
    if state["finished"]:
        assert state["phase"] == "finished" and state["winners"]
        best = max(p["coins"] for p in players)
        assert best >= state["options"]["end_threshold"]
        assert all(players[w]["coins"] == best for w in state["winners"])
    else:
        assert state["phase"] in ("development", "capacity")
        assert 0 <= state["turn"] < len(players)


@FAST
@given(**GAMES)
def test_random_legal_play_keeps_invariants(seed, players, options, play_seed, steps):
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    coins = [p["coins"] for p in state["players"]]
    check_invariants(state, coins)
    for seat, command in random_play(state, play_seed, steps):
        events = ENGINE.apply(state, seat=seat, command=command)
        assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events)
        apply_flows(events, coins)
        check_invariants(state, coins)


FIELD_VALUES = st.one_of(
    st.integers(-3, 20),
    st.just(999),
    st.just(1000),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.floats(0, 5),
)
SPACE = st.integers(1, 14)
WELL_FORMED = st.one_of(
    st.builds(lambda s: {"cmd": "develop", "space": s}, SPACE),
    st.builds(lambda s, n: {"cmd": "buy-units", "space": s, "count": n}, SPACE, st.integers(1, 12)),
    st.builds(
        lambda a, b, n: {"cmd": "shift-units", "from": a, "to": b, "count": n},
        SPACE,
        SPACE,
        st.integers(1, 8),
    ),
    st.just({"cmd": "pass"}),
)
ANY_COMMAND = st.one_of(
    WELL_FORMED,
    st.fixed_dictionaries(
        {"cmd": st.sampled_from(["develop", "buy-units", "shift-units", "pass", "sell", ""])},
        optional={"space": FIELD_VALUES, "count": FIELD_VALUES, "from": FIELD_VALUES, "to": FIELD_VALUES},
    ),
    st.dictionaries(st.text(max_size=5), FIELD_VALUES, max_size=3),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=5),
)


PROBE = st.tuples(
    st.integers(0, 300),  # at which step
    st.one_of(st.just("active"), st.integers(-1, 5)),  # as which seat
    st.one_of(ANY_COMMAND, st.tuples(st.just("raise-count"), st.integers(0, 30), st.integers(1, 40))),
)


def probe_command(state, seat, command):
    """Resolve a probe; "raise-count" takes a legal command and asks for more units."""
    if not (isinstance(command, tuple) and command[0] == "raise-count"):
        return command
    _, index, extra = command
    counted = [c for c in ENGINE.legal_commands(state, seat=seat) if "count" in c]
    if not counted:
        return {"cmd": "pass"}
    chosen = dict(counted[index % len(counted)])
    chosen["count"] += extra
    return chosen


@FAST
@given(**GAMES, probes=st.lists(PROBE, max_size=40))
def test_refused_commands_leave_the_state_unchanged(seed, players, options, play_seed, steps, probes):
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    probes_at = {}
    for step, seat, command in probes:
        probes_at.setdefault(step, []).append((seat, command))
    for step, (active, planned) in enumerate(random_play(state, play_seed, steps)):
        for seat, command in probes_at.get(step, []):
            seat = active if seat == "active" else seat
            command = probe_command(state, seat, command)
            legal = ENGINE.legal_commands(state, seat=seat) if 0 <= seat < players else []
            before = snapshot(state)
            try:
                ENGINE.apply(state, seat=seat, command=command)
            except RulesError as err:
                assert command not in legal
                assert err.code
                assert state == before
            else:
                break  # the probe was a legal move: the planned move may no longer be legal
        else:
            ENGINE.apply(state, seat=active, command=planned)


@FAST
@given(**GAMES)
def test_same_seed_and_commands_give_the_same_game(seed, players, options, play_seed, steps):
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    log, events = [], []
    for seat, command in random_play(state, play_seed, steps):
        log.append((seat, command))
        events.append(ENGINE.apply(state, seat=seat, command=command))
    again = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    again_events = [ENGINE.apply(again, seat=seat, command=command) for seat, command in log]
    assert again == state
    assert again_events == events


@settings(max_examples=15, deadline=None)
@given(**GAMES)
def test_every_listed_legal_command_is_accepted(seed, players, options, play_seed, steps):
    state = ENGINE.setup(players=NAMES[:players], options=options, seed=seed)
    for seat, command in random_play(state, play_seed, min(steps, 150)):
        for legal in ENGINE.legal_commands(state, seat=seat):
            ENGINE.apply(snapshot(state), seat=seat, command=legal)
        ENGINE.apply(state, seat=seat, command=command)
