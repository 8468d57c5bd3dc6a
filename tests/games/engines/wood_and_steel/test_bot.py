"""The planner bot (bot.py): it sends only legal commands, ends uncapped games by the
rules for 1-6 players, uses every part of the game, borrows before a delivery it cannot
pay for, sells track and bids at auctions, and is the kind's live bot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel import bot as B
from games.engines.wood_and_steel.rules import BID_STEP, route_cost

from .helpers import snapshot, started_game

AMOUNT_COMMANDS = ("bid", "borrow", "repay-debt")


def assert_legal(state, seat, cmd):
    """``cmd`` is one of the legal commands, or a bid above a listed minimum in $1,000 steps."""
    legal = ENGINE.legal_commands(state, seat=seat)
    if cmd in legal:
        return
    assert cmd["cmd"] == "bid", (cmd, legal)
    same = [c for c in legal if c["cmd"] == "bid" and {k: v for k, v in c.items() if k != "amount"} == {k: v for k, v in cmd.items() if k != "amount"}]
    assert same, (cmd, legal)
    assert cmd["amount"] >= same[0]["amount"] and (cmd["amount"] - same[0]["amount"]) % BID_STEP == 0
    assert cmd["amount"] <= state["players"][seat]["money"]


def play(players, seed, *, max_steps=3_000):
    """One uncapped planner game, every command checked against legal_commands."""
    state = ENGINE.setup(players=[f"P{i}" for i in range(players)], options=ENGINE.normalize_options({}), seed=seed)
    rng = random.Random(seed)
    used: Counter = Counter()
    steps = 0
    while not state["finished"] and steps < max_steps:
        seat = ENGINE.active_seats(state)[0]
        cmd = B.planner_policy(ENGINE, state, seat, rng)
        assert_legal(state, seat, cmd)
        for e in ENGINE.apply(state, seat=seat, command=cmd):
            used[e["type"]] += 1
        used[cmd["cmd"] if cmd["cmd"] != "buy-upgrade" else cmd["upgrade"]] += 1
        steps += 1
    return state, used


@pytest.fixture(scope="module")
def games():
    return {(n, seed): play(n, seed) for n in range(1, 7) for seed in (11, 12, 13)}


def test_every_uncapped_game_ends_by_the_rules_with_legal_commands(games):
    for (n, _seed), (state, _used) in games.items():
        assert state["finished"], n
        assert max(ENGINE._ties(state, p) for p in state["players"]) >= state["options"]["target_ties"]
        assert state["final"]["winners"]


def test_the_planner_plays_every_part_of_the_game(games):
    used: Counter = Counter()
    for _state, u in games.values():
        used.update({k: 1 for k in u})
    for part in (
        "borrow", "repay-debt", "go-first", "acquire-railroad", "claim-market-contract", "discard-private-contract",
        "upgraded-stations", "employment-office", "hub", "regional-office", "commodities-exchange", "monopoly",
        "engine-bought", "market-opened", "connection-bonus", "build-track", "fulfill-contract", "choose-offer",
    ):
        assert used[part] > 0, part


def test_same_seed_same_game_whatever_the_global_random_state():
    random.seed(1)
    a, _ = play(3, 5)
    random.seed(2)
    b, _ = play(3, 5)
    assert snapshot(a) == snapshot(b)
    c, _ = play(3, 6)
    assert snapshot(a) != snapshot(c)


def test_the_kind_lists_the_planner_and_plays_it_live():
    assert ENGINE.describe()["bots"] == ["random", "simple", "planner"]
    state = started_game(3)
    seat = state["current_seat"]
    cmd = ENGINE.bot_command(state, seat=seat, bot="planner", rng=random.Random(1))
    assert cmd in ENGINE.legal_commands(state, seat=seat)
    with pytest.raises(RulesError) as e:
        ENGINE.bot_command(state, seat=(seat + 1) % 3, bot="planner", rng=random.Random(1))
    assert e.value.code == "not-your-turn"


def test_it_chooses_only_among_the_legal_commands(monkeypatch):
    """Rules that list other commands: it never invents one."""
    state = started_game(3)
    seat = state["current_seat"]
    monkeypatch.setattr(ENGINE, "legal_commands", lambda st, seat: [{"cmd": "end-turn"}])
    assert B.planner_policy(ENGINE, state, seat, random.Random(1)) == {"cmd": "end-turn"}
    monkeypatch.setattr(ENGINE, "legal_commands", lambda st, seat: [{"cmd": "something-new", "x": 1}])
    assert B.planner_policy(ENGINE, state, seat, random.Random(1)) == {"cmd": "something-new", "x": 1}


def _held_contract(state, seat, commodity, destination):
    p = state["players"][seat]
    c = ENGINE._new_contract(state, ctype="private", commodity=commodity, destination=destination, holder=seat, status="held", reason="test")
    if p["private"] is not None:
        ENGINE._contract(state, p["private"])["status"] = "discarded"
    p["private"] = c["id"]
    p["offers"] = []
    return c


def test_it_borrows_before_a_delivery_it_cannot_pay_for():
    state = started_game(3, check_network=False)
    seat = state["current_seat"]
    p = state["players"][seat]
    c = _held_contract(state, seat, "grain", "Denver")
    p["debt"], p["money"], p["western_started"] = 100_000, 0, True  # $20,000 service on every delivery
    net = c["value"] - 20_000
    assert net < 0
    cmd = B.planner_policy(ENGINE, state, seat, random.Random(3))
    assert cmd["cmd"] == "borrow"
    # enough for the service on the debt after borrowing too
    assert cmd["amount"] + net - cmd["amount"] // 5 >= 0
    ENGINE.apply(state, seat=seat, command=cmd)
    cmd = B.planner_policy(ENGINE, state, seat, random.Random(3))
    assert cmd == {"cmd": "fulfill-contract", "contract": c["id"]}
    events = ENGINE.apply(state, seat=seat, command=cmd)
    assert not any(e["type"] == "bankruptcy" for e in events)
    assert p["money"] >= 0


class Bold(random.Random):
    """An rng whose every draw is 0: each chance the bot takes comes true."""

    def random(self):
        return 0.0


class Careful(random.Random):
    """An rng whose every draw is 0.99: the bot takes no chance."""

    def random(self):
        return 0.99


def _grow(state, seat, routes):
    """Give ``seat`` ``routes`` more whole routes next to its network, paid at the table's price."""
    board = ENGINE.board(state)
    p = state["players"][seat]
    taken = {rid for q in state["players"] for rid in q["track"]} | {x["route"] for r in state["railroads"] for x in r["routes"]}
    for _ in range(routes):
        rid = next(r for c in sorted(p["network"]) for r in board.city_routes[c] if r not in taken)
        route = board.routes[rid]
        p["track"][rid] = route["length"]
        p["track_paid"][rid] = route_cost(route["length"], mountainous=route["mountainous"])
        taken.add(rid)
        ENGINE._recompute_network(state, p)


def test_short_of_the_service_it_may_take_the_bankruptcy_then_sells_and_a_neighbour_bids():
    state = started_game(3, check_network=False)
    board = ENGINE.board(state)
    seller = state["current_seat"]
    p = state["players"][seller]
    _grow(state, seller, 6)
    commodity, destination = next((k, d) for k in board.commodities for d in board.names if board.nearest[k][d] == 1)
    c = _held_contract(state, seller, commodity, destination)
    p["debt"], p["money"], p["western_started"] = 30_000, 0, True  # $6,000 service on a $3,000 delivery
    assert c["value"] == 3_000
    # careful, it borrows first; taking its chance, it delivers into bankruptcy
    assert B.planner_policy(ENGINE, state, seller, Careful(1))["cmd"] == "borrow"
    cmd = B.planner_policy(ENGINE, state, seller, Bold(1))
    assert cmd == {"cmd": "fulfill-contract", "contract": c["id"]}
    events = ENGINE.apply(state, seat=seller, command=cmd)
    assert any(e["type"] == "bankruptcy" for e in events)
    assert p["bankrupt_owed"] == 3_000 + 5_000
    buyer, broke = [s for s in range(3) if s != seller]
    state["players"][buyer]["money"] = 60_000
    state["players"][buyer]["network"] = sorted(set(state["players"][buyer]["network"]) | set(p["network"]))  # next to every lot
    state["players"][broke]["money"] = 0
    rng = random.Random(4)
    sold: Counter = Counter()
    bids: Counter = Counter()
    sales = 0
    for _ in range(200):
        if p["bankrupt_owed"] <= 0 and state["phase"] != "auction":
            break
        seat = ENGINE.active_seats(state)[0]
        cmd = B.planner_policy(ENGINE, state, seat, rng)
        assert_legal(state, seat, cmd)
        sales += cmd["cmd"] == "sell-track"
        bids[seat] += cmd["cmd"] == "bid"
        for e in ENGINE.apply(state, seat=seat, command=cmd):
            if e["type"] == "lot-sold":
                sold[e["seat"]] += 1
    assert state["phase"] == "play" and p["bankrupt_owed"] == 0
    assert sales >= 1 and p["start_route"] in p["track"]  # it kept its starting route
    assert bids[buyer] > 0 and sold[buyer] > 0 and bids[broke] == 0


def test_one_delivery_a_turn_per_engine_though_the_app_takes_more():
    state = started_game(3, check_network=False)  # every held contract can be delivered
    seat = state["current_seat"]
    p = state["players"][seat]
    assert p["engines"] == ["john-bull"]
    rng = random.Random(2)
    cmd = B.planner_policy(ENGINE, state, seat, rng)
    assert cmd["cmd"] == "fulfill-contract"
    ENGINE.apply(state, seat=seat, command=cmd)
    ENGINE.apply(state, seat=seat, command=B.planner_policy(ENGINE, state, seat, rng))  # choose an offer
    assert p["private"] is not None and not p["offers"]
    assert any(c["cmd"] == "fulfill-contract" for c in ENGINE.legal_commands(state, seat=seat))
    assert B.planner_policy(ENGINE, state, seat, random.Random(2))["cmd"] != "fulfill-contract"
    p["engines"].append("american")  # a second train runs this turn
    assert B.planner_policy(ENGINE, state, seat, random.Random(2)) == {"cmd": "fulfill-contract", "contract": p["private"]}
