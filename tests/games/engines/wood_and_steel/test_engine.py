"""The engine through its public contract: setup, apply, view, legality, undo support."""

from __future__ import annotations

import json

import pytest

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE, turn_key
from games.engines.wood_and_steel.board import default_board

from .helpers import ROUTES, clone, new_game, snapshot, started_game


def give_track(state, seat, *routes):
    board = ENGINE.board(state)
    p = state["players"][seat]
    for rid in routes:
        rid = board.parse_route(rid)
        p["track"][rid] = board.routes[rid]["length"]
        p["track_paid"][rid] = 0
    ENGINE._recompute_network(state, p)


def give_contract(state, seat, commodity, destination, ctype="private"):
    c = ENGINE._new_contract(state, ctype=ctype, commodity=commodity, destination=destination, holder=seat, status="held", reason="test")
    p = state["players"][seat]
    if ctype == "private":
        if p["private"] is not None:
            ENGINE._contract(state, p["private"])["status"] = "discarded"
        p["private"] = c["id"]
    else:
        p["market"] = c["id"]
    return c


def walk_keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert isinstance(k, str)
            yield k
            yield from walk_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk_keys(v)
    else:
        assert obj is None or isinstance(obj, (str, int, float, bool)), type(obj)


def test_registry_loads_the_engine():
    from games.engines.registry import get_engine, load_builtin_engines

    load_builtin_engines()
    eng = get_engine("wood-and-steel")
    assert eng.title == "Wood and Steel" and eng.min_players == 1 and eng.max_players == 6


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_setup_is_plain_json_with_nine_to_twelve_railroads(players):
    state = new_game(players, seed=players)
    list(walk_keys(state))
    assert json.loads(json.dumps(state)) == state
    total = players + len(state["railroads"])
    assert 9 <= total <= 12
    board = ENGINE.board(state)
    cities = [c for r in state["railroads"] for c in board.route_cities(r["routes"][0]["route"])]
    assert len(cities) == len(set(cities))
    names = [r["name"] for r in state["railroads"]]
    assert len(names) == len(set(names))


def test_views_never_carry_board_or_rng_and_hide_secrets():
    state = started_game(3)
    for seat in (None, 0, 1, 2):
        v = ENGINE.view(state, seat=seat)
        keys = set(walk_keys(v))
        assert "rng" not in keys and "board" not in keys and "cities" in keys
        json.dumps(v)
        for field in ("phase", "round", "current_seat", "players", "contracts", "offers", "railroads"):
            assert field in v
        for c in v["contracts"]:
            assert {"id", "type", "commodity", "destination", "holder", "status", "value", "ties"} <= set(c)
            if c["type"] == "private" and c["status"] == "held":
                assert c["hidden"] == (seat != c["holder"])
                assert (c["destination"] is None) == (seat != c["holder"])
        assert all("active_cities" in p and "ties" in p for p in v["players"])
    spectator = ENGINE.view(state, seat=None)
    assert spectator["offers"] == []
    assert all(c["hidden"] for c in spectator["contracts"] if c["type"] == "private")


def test_offers_are_visible_only_to_their_seat():
    state = started_game(3)
    seat = state["current_seat"]
    give_track(state, seat, "Boston-New York", "Boston-Syracuse")
    c = give_contract(state, seat, "machinery", "New York")
    ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    mine = ENGINE.view(state, seat=seat)["offers"]
    assert len(mine) == 2
    other = (seat + 1) % 3
    assert ENGINE.view(state, seat=other)["offers"] == []
    ids = {o["id"] for o in mine}
    assert not ids & {c["id"] for c in ENGINE.view(state, seat=other)["contracts"]}


def test_ranking_is_private_until_settled_and_order_is_least_desirable_first():
    state = new_game(3)
    ENGINE.apply(state, seat=0, command={"cmd": "rank-starting-routes", "choices": ROUTES[:3]})
    assert ENGINE.view(state, seat=1)["players"][0]["choices"] is None
    assert ENGINE.view(state, seat=0)["players"][0]["choices"] == ROUTES[:3]
    assert ENGINE.active_seats(state) == [1, 2]
    ENGINE.apply(state, seat=1, command={"cmd": "rank-starting-routes", "choices": ROUTES[:3]})
    events = ENGINE.apply(state, seat=2, command={"cmd": "rank-starting-routes", "choices": ["Quebec City-Montreal", ROUTES[4], ROUTES[5]]})
    assert any(e["type"] == "starting-routes" and e["random"] for e in events)
    assert state["phase"] == "engines"
    got = [p["start_route"] for p in state["players"]]
    assert len(set(got)) == 3
    d = [state["players"][s]["desirability"] for s in state["order"]]
    assert d == sorted(d)
    for p in state["players"]:
        assert p["private"] is not None
        c = ENGINE._contract(state, p["private"])
        board = ENGINE.board(state)
        assert board.hop_to_set(c["destination"], board.route_cities(p["start_route"])) <= 2
        assert c["commodity"] not in board.cities[c["destination"]]["commodities"]


@pytest.mark.parametrize(
    "seat,command,code",
    [
        (0, {"cmd": "rank-starting-routes", "choices": ROUTES[:2]}, "bad-choices"),
        (0, {"cmd": "rank-starting-routes", "choices": [ROUTES[0]] * 3}, "bad-choices"),
        (0, {"cmd": "rank-starting-routes", "choices": ["Atlanta-Birmingham", ROUTES[1], ROUTES[2]]}, "bad-choices"),
        (7, {"cmd": "rank-starting-routes", "choices": ROUTES[:3]}, "not-a-player"),
        (None, {"cmd": "rank-starting-routes", "choices": ROUTES[:3]}, "not-a-player"),
        (0, {"cmd": "end-turn"}, "wrong-phase"),
        (0, {"cmd": "fly"}, "unknown-command"),
        (0, {"cmd": "place-engine", "city": "Boston"}, "wrong-phase"),
    ],
)
def test_rejected_setup_commands_leave_state_unchanged(seat, command, code):
    state = new_game(3)
    before = snapshot(state)
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command=command)
    assert err.value.code == code
    assert snapshot(state) == before


def test_rejected_play_commands_leave_state_unchanged():
    state = started_game(3)
    seat = state["current_seat"]
    other = (seat + 1) % 3
    bad = [
        (other, {"cmd": "end-turn"}, "not-your-turn"),
        (seat, {"cmd": "build-track", "route": "Seattle-Vancouver"}, "not-connected"),
        (seat, {"cmd": "build-track", "route": "Nowhere-Atlantis"}, "bad-route"),
        (seat, {"cmd": "buy-engine", "engine": "mogul"}, "bad-engine"),
        (seat, {"cmd": "buy-engine", "engine": "american"}, "bad-trade-in"),
        (seat, {"cmd": "fulfill-contract", "contract": 999}, "no-such-contract"),
        (seat, {"cmd": "fulfill-contract", "contract": "1"}, "no-such-contract"),
        (seat, {"cmd": "borrow", "amount": 3000}, "bad-amount"),
        (seat, {"cmd": "borrow", "amount": True}, "bad-amount"),
        (seat, {"cmd": "repay-debt", "amount": 5000}, "debt-floor"),
        (seat, {"cmd": "claim-market-contract", "contract": 1}, "no-such-contract"),
        (seat, {"cmd": "acquire-railroad", "railroad": 1}, "not-connected"),
        (seat, {"cmd": "buy-upgrade", "upgrade": "hub", "city": "Seattle"}, "bad-city"),
        (seat, {"cmd": "buy-upgrade", "upgrade": "service-yard"}, "not-available"),
        (seat, {"cmd": "buy-upgrade", "upgrade": "regional-office", "region": "NW"}, "not-eligible"),
        (seat, {"cmd": "choose-offer", "offer": 1}, "no-such-offer"),
        (seat, {"cmd": "sell-track", "route": "Boston-Portland ME"}, "not-bankrupt"),
        (seat, {"cmd": "bid", "amount": 5000}, "wrong-phase"),
    ]
    for s, command, code in bad:
        before = snapshot(state)
        with pytest.raises(RulesError) as err:
            ENGINE.apply(state, seat=s, command=command)
        assert err.value.code == code, (command, err.value.code)
        assert snapshot(state) == before


def test_build_track_costs_and_limits():
    state = started_game(3, picks=[[ROUTES[1], ROUTES[0], ROUTES[2]], [ROUTES[4], ROUTES[0], ROUTES[2]], [ROUTES[5], ROUTES[0], ROUTES[2]]])
    seat = next(p["seat"] for p in state["players"] if p["start_route"] == "Boston-Portland ME")
    while state["current_seat"] != seat:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    p = state["players"][seat]
    p["money"] = 20_000
    # Boston-Syracuse: length 2, plain -> $3,000; one segment (a route) of the two a turn
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Syracuse-Boston"})
    assert ev[0]["cost"] == 3_000 and p["money"] == 17_000 and ev[0]["segments"] == 1 and ev[0]["complete"]
    assert "Syracuse" in p["network"] and "Syracuse" not in p["active_cities"]  # reached, not delivered to
    assert ev[-1] == {"type": "cities-connected", "seat": seat, "cities": ["Syracuse"]}
    # Portland ME-Quebec City: length 2, mountainous -> the table's $6,000, whole, this turn
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Portland ME-Quebec City", "segments": 1})
    assert ev[0]["cost"] == 6_000 and ev[0]["complete"] and "Quebec City" in p["network"]
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Syracuse-Toronto"})
    assert err.value.code == "too-many-segments"
    assert not [c for c in ENGINE.legal_commands(state, seat=seat) if c["cmd"] == "build-track"]


def test_build_track_costs_and_limits_before_issue_18():
    """Games started before issue 18 (segment_unit 'length') keep the old reading."""
    state = started_game(3, picks=[[ROUTES[1], ROUTES[0], ROUTES[2]], [ROUTES[4], ROUTES[0], ROUTES[2]], [ROUTES[5], ROUTES[0], ROUTES[2]]], segment_unit="length")
    seat = next(p["seat"] for p in state["players"] if p["start_route"] == "Boston-Portland ME")
    while state["current_seat"] != seat:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    p = state["players"][seat]
    # Boston-Syracuse: length 2, plain -> $3,000 for both segments
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Syracuse-Boston"})
    assert ev[0]["cost"] == 3_000 and p["money"] == 7_000
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Syracuse-Toronto"})
    assert err.value.code == "too-many-segments"
    ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"})
    while state["current_seat"] != seat:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    # Portland ME-Quebec City is mountainous: 1 of 2 segments = 2 x $2,000
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Portland ME-Quebec City", "segments": 1})
    assert ev[0]["cost"] == 4_000 and not ev[0]["complete"]
    assert "Quebec City" not in p["network"]


def test_starting_routes_never_share_a_city():
    state = started_game(2, picks=[[ROUTES[2], ROUTES[0], ROUTES[1]], [ROUTES[3], ROUTES[0], ROUTES[1]]])
    # New York-Philadelphia and Philadelphia-Washington share a city: nobody gets both
    assert {p["start_route"] for p in state["players"]} != {ROUTES[2], ROUTES[3]}


def test_parallel_track_costs_more_and_routes_fill_up():
    state = started_game(3, picks=[[ROUTES[1], ROUTES[0], ROUTES[4]], [ROUTES[2], ROUTES[0], ROUTES[4]], [ROUTES[5], ROUTES[0], ROUTES[4]]])
    boston = next(p["seat"] for p in state["players"] if p["start_route"] == "Boston-Portland ME")
    newyork = next(p["seat"] for p in state["players"] if p["start_route"] == "New York-Philadelphia")
    third = 3 - boston - newyork
    costs = {}
    while len(costs) < 2:
        seat = state["current_seat"]
        if seat in (boston, newyork) and seat not in costs:
            ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Boston-New York"})
            costs[seat] = ev[0]["cost"]
        ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"})
    first, second = sorted(costs, key=lambda s: state["order"].index(s))
    assert costs[first] == 3_000 and costs[second] == 4_000  # length 2, then parallel
    state["players"][third]["network"].append("Boston")
    while state["current_seat"] != third:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=third, command={"cmd": "build-track", "route": "Boston-New York"})
    assert err.value.code == "route-full"


def test_fulfil_private_contract_pays_ties_and_offers_two_distinct_new_ones():
    state = started_game(3)
    seat = state["current_seat"]
    p = state["players"][seat]
    give_track(state, seat, "Boston-New York", "Atlanta-Raleigh", "Norfolk-Raleigh", "Norfolk-Washington", "New York-Philadelphia", "Philadelphia-Washington")
    c = give_contract(state, seat, "machinery", "Atlanta")
    assert c["value"] == 6_000 and c["ties"] == 1
    money = p["money"]
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert p["money"] == money + 6_000
    assert ENGINE.view(state, seat=seat)["players"][seat]["ties"] == 1 + 1  # delivery + breadth
    assert p["active_cities"][-1] == "Atlanta"
    offers = [ENGINE._contract(state, i) for i in p["offers"]]
    assert len(offers) == 2 and any(e.get("random") for e in ev)
    keys = [(o["commodity"], o["destination"]) for o in offers]
    assert len(set(keys)) == 2
    with pytest.raises(RulesError):
        ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"})
    ENGINE.apply(state, seat=seat, command={"cmd": "choose-offer", "offer": offers[1]["id"]})
    assert p["private"] == offers[1]["id"] and ENGINE._contract(state, offers[0]["id"])["status"] == "declined"


def _to_seat(state, seat):
    while state["current_seat"] != seat:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})


def _spy_private_contract(monkeypatch):
    from games.engines.wood_and_steel import contracts as C

    calls = []
    real = C.private_contract

    def spy(board, rng, **kw):
        calls.append(kw)
        return real(board, rng, **kw)

    monkeypatch.setattr(C, "private_contract", spy)
    return calls


def test_active_cities_are_starting_cities_plus_deliveries_latest_last(monkeypatch):
    calls = _spy_private_contract(monkeypatch)
    picks = [[ROUTES[5], ROUTES[0], ROUTES[1]], [ROUTES[1], ROUTES[0], ROUTES[2]]]
    state = started_game(2, picks=picks, check_network=False)
    seat = next(p["seat"] for p in state["players"] if p["start_route"] == "Charleston-Savannah")
    p = state["players"][seat]
    # engine placed in Charleston: it is the current city until the first delivery
    assert p["engine_city"] == "Charleston" and p["active_cities"] == ["Savannah", "Charleston"]
    view = ENGINE.view(state, seat=None)["players"][seat]
    assert view["active_cities"] == ["Savannah", "Charleston"] and view["current_city"] == "Charleston"
    _to_seat(state, seat)
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Savannah-Atlanta"})
    assert ev[-1] == {"type": "cities-connected", "seat": seat, "cities": ["Atlanta"]}
    # Atlanta joins the network, not the active cities, and does not become the current city
    assert p["network"] == ["Atlanta", "Charleston", "Savannah"]
    assert p["active_cities"] == ["Savannah", "Charleston"]
    ENGINE.apply(state, seat=seat, command={"cmd": "discard-private-contract"})
    assert calls[-1]["current"] == "Charleston"
    assert calls[-1]["area"] == ["Atlanta", "Charleston", "Savannah"]  # drawn around network + active cities
    ENGINE.apply(state, seat=seat, command={"cmd": "choose-offer", "offer": p["offers"][0]})
    # deliveries append the destination; a repeat moves it to the end
    for dest, expected in (
        ("Atlanta", ["Savannah", "Charleston", "Atlanta"]),
        ("Savannah", ["Charleston", "Atlanta", "Savannah"]),
    ):
        p["turn_actions"] = []
        c = give_contract(state, seat, "machinery", dest)
        ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
        assert p["active_cities"] == expected
        assert calls[-1]["current"] == dest
        view = ENGINE.view(state, seat=seat)["players"][seat]
        assert view["active_cities"] == expected and view["current_city"] == dest
        ENGINE.apply(state, seat=seat, command={"cmd": "choose-offer", "offer": p["offers"][0]})
    # a merger or a hub adds network cities, never active ones
    p["money"] = 100_000
    p["turn_actions"] = []
    ENGINE.apply(state, seat=seat, command={"cmd": "buy-upgrade", "upgrade": "hub", "city": "Atlanta"})
    assert p["active_cities"] == ["Charleston", "Atlanta", "Savannah"]


def test_player_area_option_draws_around_active_cities_only(monkeypatch):
    calls = _spy_private_contract(monkeypatch)
    picks = [[ROUTES[5], ROUTES[0], ROUTES[1]], [ROUTES[1], ROUTES[0], ROUTES[2]]]
    state = started_game(2, picks=picks, player_area="active-cities")
    seat = next(p["seat"] for p in state["players"] if p["start_route"] == "Charleston-Savannah")
    _to_seat(state, seat)
    ENGINE.apply(state, seat=seat, command={"cmd": "build-track", "route": "Savannah-Atlanta"})
    ENGINE.apply(state, seat=seat, command={"cmd": "discard-private-contract"})
    assert calls[-1]["area"] == ["Charleston", "Savannah"] and calls[-1]["current"] == "Charleston"


def test_borrow_any_multiple_of_5000_up_to_max_borrow():
    state = started_game(2)
    seat = state["current_seat"]
    p = state["players"][seat]
    amounts = [c["amount"] for c in ENGINE.legal_commands(state, seat=seat) if c["cmd"] == "borrow"]
    assert amounts == list(range(5_000, 100_001, 5_000))
    for bad in (0, 7_500, 105_000, -5_000, True, "5000"):
        with pytest.raises(RulesError) as err:
            ENGINE.apply(clone(state), seat=seat, command={"cmd": "borrow", "amount": bad})
        assert err.value.code == "bad-amount"
    ENGINE.apply(state, seat=seat, command={"cmd": "borrow", "amount": 100_000})
    assert p["debt"] == 100_000 and p["money"] == 110_000
    assert not any(c["cmd"] == "borrow" for c in ENGINE.legal_commands(state, seat=seat))  # once per turn
    ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"})
    _to_seat(state, seat)
    ENGINE.apply(state, seat=seat, command={"cmd": "borrow", "amount": 100_000})  # no limit on total debt
    assert p["debt"] == 200_000
    small = started_game(2, max_borrow=20_000)
    s = small["current_seat"]
    assert [c["amount"] for c in ENGINE.legal_commands(small, seat=s) if c["cmd"] == "borrow"] == [5_000, 10_000, 15_000, 20_000]
    with pytest.raises(RulesError):
        ENGINE.apply(small, seat=s, command={"cmd": "borrow", "amount": 25_000})
    with pytest.raises(RulesError) as err:
        ENGINE.normalize_options({"max_borrow": 12_000})
    assert err.value.code == "invalid-option"


def test_random_bot_counts_all_borrow_amounts_as_one_choice():
    import random

    state = started_game(2)
    seat = state["current_seat"]
    legal = ENGINE.legal_commands(state, seat=seat)
    kinds = len([c for c in legal if c["cmd"] != "borrow"]) + 1
    rng = random.Random(1)
    picks = [ENGINE.bot_command(state, seat=seat, bot="random", rng=rng) for _ in range(kinds * 200)]
    assert all(c in legal for c in picks)
    borrows = sum(c["cmd"] == "borrow" for c in picks)
    assert 100 <= borrows <= 300  # about 1 in `kinds`, not 20 in `kinds + 19`


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, [3, 3, 3, 3, 3]),  # the default tableau: market_size contracts, kept full by claims
        ({"market_size": 5}, [5, 5, 5, 5, 5]),
        ({"market_tableau": "fixed", "market_max": 4}, [3, 3, 3, 3, 3]),  # market_max is for 'grows'
        ({"market_tableau": "grows"}, [3, 4, 5, 6, 7]),  # the literal text: one more per delivery
        ({"market_tableau": "grows", "market_max": 4}, [3, 4, 4, 4, 4]),
        (None, [3, 4, 5, 6, 7]),  # a game started before issue 18 (no market_tableau): as it was
    ],
)
def test_the_market_size_after_claims_and_deliveries(options, expected):
    defaults = ENGINE.normalize_options({})
    assert (defaults["market_tableau"], defaults["market_size"], defaults["market_max"]) == ("fixed", 3, 0)
    state = started_game(3, check_network=False, **(options or {}))
    if options is None:
        del state["options"]["market_tableau"]
    seat = state["current_seat"]
    p = state["players"][seat]
    p["money"] = 50_000
    p["engines"] = ["american"]
    ENGINE.apply(state, seat=seat, command={"cmd": "buy-engine", "engine": "mogul", "trade_in": "american"})

    def open_count():
        return sum(1 for c in state["contracts"] if c["status"] == "market")

    counts = [open_count()]
    for _ in range(4):
        c = next(c for c in state["contracts"] if c["status"] == "market")
        ENGINE.apply(state, seat=seat, command={"cmd": "claim-market-contract", "contract": c["id"]})
        assert open_count() == counts[-1]  # a claim always deals a replacement
        ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
        counts.append(open_count())
    assert counts == expected


def test_a_fixed_tableau_refills_on_a_delivery_when_a_draw_left_it_short():
    state = started_game(3, check_network=False)
    seat = state["current_seat"]
    p = state["players"][seat]
    p["money"] = 50_000
    p["engines"] = ["american"]
    ENGINE.apply(state, seat=seat, command={"cmd": "buy-engine", "engine": "mogul", "trade_in": "american"})
    market = [c for c in state["contracts"] if c["status"] == "market"]
    ENGINE.apply(state, seat=seat, command={"cmd": "claim-market-contract", "contract": market[0]["id"]})
    market[1]["status"] = "discarded"  # as if a replacement draw had found nothing
    ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": market[0]["id"]})
    assert sum(1 for c in state["contracts"] if c["status"] == "market") == 3


def test_hub_and_regional_office_add_offers():
    state = started_game(3)
    seat = state["current_seat"]
    p = state["players"][seat]
    p["hub"] = p["network"][0]
    p["regional_offices"] = ["NE"]
    give_track(state, seat, "Boston-New York", "Boston-Portland ME")
    c = give_contract(state, seat, "machinery", "New York")
    ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    offers = [ENGINE._contract(state, i) for i in p["offers"]]
    assert len(offers) == 4
    board = ENGINE.board(state)
    ne = {k for city in board.region_cities["NE"] for k in board.cities[city]["commodities"]}
    assert offers[0]["commodity"] in ne and offers[0]["reason"] == "regional-office:NE"


def test_debt_service_and_bankruptcy_with_auction():
    state = started_game(3)
    seat = state["current_seat"]
    p = state["players"][seat]
    give_track(state, seat, "Boston-New York", "Boston-Syracuse", "Cleveland-Syracuse", "Cincinnati-Cleveland", "Cleveland-Pittsburgh")
    ENGINE.apply(state, seat=seat, command={"cmd": "borrow", "amount": 20_000})
    assert ENGINE.view(state, seat=seat)["players"][seat]["debt_service"] == {"east": 0, "central": 4_000, "west": 4_000}
    c = give_contract(state, seat, "steel", "Cincinnati")  # Pittsburgh is one hop: $3,000, Central
    money = p["money"]
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert ev[0]["debt_service"] == 4_000 and p["money"] == money + 3_000 - 4_000
    ENGINE.apply(state, seat=seat, command={"cmd": "choose-offer", "offer": p["offers"][0]})
    # a huge debt and no cash: the next Western delivery bankrupts the player
    p["debt"] = 200_000
    p["money"] = 0
    p["tie_log"].append({"source": "test", "ties": 3, "detail": "", "round": 1})
    give_track(state, seat, "Chicago-Cleveland", "Chicago-Des Moines", "Des Moines-Omaha", "Denver-Omaha")
    p["turn_actions"] = []
    c = give_contract(state, seat, "grain", "Denver")  # Omaha is one hop, Western section
    ties_before = ENGINE._ties(state, p)
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    bk = next(e for e in ev if e["type"] == "bankruptcy")
    assert bk["shortfall"] == 40_000 - 3_000 and bk["owed"] == 42_000 and bk["ties_lost"] == 5
    assert ENGINE._ties(state, p) == ties_before - 5  # no delivery ties, no breadth for the bankrupt delivery
    assert p["deliveries"] == {"steel": 1}
    assert p["bankrupt_owed"] == 42_000
    assert all(cmd["cmd"] == "sell-track" for cmd in ENGINE.legal_commands(state, seat=seat))
    with pytest.raises(RulesError):
        ENGINE.apply(state, seat=seat, command={"cmd": "end-turn"})
    while state["phase"] == "play" and p["bankrupt_owed"] > 0:
        ENGINE.apply(state, seat=seat, command=ENGINE.legal_commands(state, seat=seat)[0])
    assert state["phase"] == "auction"
    bidder = ENGINE.active_seats(state)[0]
    assert bidder != seat
    lot = state["auction"]["lots"][0]
    state["players"][bidder]["money"] = 100_000
    ENGINE.apply(state, seat=bidder, command={"cmd": "bid", "amount": lot["price"]})
    assert state["players"][bidder]["money"] == 100_000  # paid only when the lot closes
    while state["phase"] == "auction":
        s = ENGINE.active_seats(state)[0]
        ENGINE.apply(state, seat=s, command={"cmd": "pass-bid"})
    assert state["players"][bidder]["money"] == 100_000 - lot["price"]
    assert lot["route"] in state["players"][bidder]["track"]
    assert state["phase"] == "play" and state["current_seat"] == seat


def test_market_opens_with_mogul_and_never_below_minimum():
    for minimum in (9_000, 6_000):
        state = started_game(3, min_market_value=minimum)
        seat = state["current_seat"]
        p = state["players"][seat]
        p["money"] = 50_000
        p["engines"] = ["american"]
        ev = ENGINE.apply(state, seat=seat, command={"cmd": "buy-engine", "engine": "mogul", "trade_in": "american"})
        assert ev[0]["cost"] == 7_000 - 2_000
        market = [c for c in state["contracts"] if c["status"] == "market"]
        assert len(market) == 3 and all(c["value"] >= minimum for c in market)
        c = market[0]
        board = ENGINE.board(state)
        give_track(state, seat, *[board.city_routes[x][0] for x in board.producers[c["commodity"]][:1]])
        p["network"] = sorted(set(p["network"]) | set(board.producers[c["commodity"]]))
        ENGINE.apply(state, seat=seat, command={"cmd": "claim-market-contract", "contract": c["id"]})
        market = [c for c in state["contracts"] if c["status"] == "market"]
        assert len(market) == 3 and all(x["value"] >= minimum for x in market)
        with pytest.raises(RulesError) as err:
            ENGINE.apply(state, seat=seat, command={"cmd": "claim-market-contract", "contract": market[0]["id"]})
        assert err.value.code in ("already-holding", "action-used", "not-connected", "no-actions-left")


def test_engine_ladder_and_two_engine_limit():
    state = started_game(1)
    p = state["players"][0]
    p["money"] = 100_000
    with pytest.raises(RulesError):
        ENGINE.apply(state, seat=0, command={"cmd": "buy-engine", "engine": "american", "trade_in": None})
    ENGINE.apply(state, seat=0, command={"cmd": "buy-engine", "engine": "american", "trade_in": "john-bull"})
    assert p["engines"] == ["american"] and p["money"] == 95_000
    ENGINE.apply(state, seat=0, command={"cmd": "end-turn"})
    ENGINE.apply(state, seat=0, command={"cmd": "buy-engine", "engine": "mogul", "trade_in": None})
    assert sorted(p["engines"]) == ["american", "mogul"] and p["money"] == 88_000
    ENGINE.apply(state, seat=0, command={"cmd": "end-turn"})
    with pytest.raises(RulesError) as err:
        ENGINE.apply(state, seat=0, command={"cmd": "buy-engine", "engine": "consolidation", "trade_in": None})
    assert err.value.code == "bad-trade-in"
    ENGINE.apply(state, seat=0, command={"cmd": "buy-engine", "engine": "consolidation", "trade_in": "american"})
    assert p["money"] == 88_000 - 10_000 + 2_000 and state["service_yard_available"]


def test_acquire_railroad_price_and_western_section():
    state = started_game(3)
    seat = state["current_seat"]
    p = state["players"][seat]
    board = ENGINE.board(state)
    rr = state["railroads"][0]
    rid = rr["routes"][0]["route"]
    a, _b = board.route_cities(rid)
    # connect the player to the railroad's city
    p["network"].append(a)
    segs = len(rr["routes"])  # a segment is a route, whatever its length
    p["money"] = 50_000
    west = any(board.is_west(c) for c in p["network"])
    price = (4_000 if west else 3_000) * segs
    assert ENGINE.view(state, seat=None)["railroads"][0]["price"] == price
    ENGINE.apply(state, seat=seat, command={"cmd": "acquire-railroad", "railroad": rr["id"]})
    assert p["money"] == 50_000 - price and rr["acquired_by"] == seat
    assert set(board.route_cities(rid)) <= set(p["network"])
    # once a player reaches the Western section, the price is $4,000 per segment
    other = state["railroads"][1]
    q = state["players"][(seat + 1) % 3]
    q["network"].append("Denver")
    view = ENGINE.view(state, seat=None)
    assert view["western_broken"]
    assert view["railroads"][1]["price"] == 4_000 * len(other["routes"])
    assert view["railroads"][1]["segments"] == len(other["routes"])


def test_turns_rounds_go_first_growth_and_turn_key():
    state = started_game(3)
    order = list(state["order"])
    keys = [json.dumps(turn_key(state))]
    second = order[1]
    ENGINE.apply(state, seat=order[0], command={"cmd": "end-turn"})
    keys.append(json.dumps(turn_key(state)))
    ENGINE.apply(state, seat=second, command={"cmd": "go-first"})
    assert json.dumps(turn_key(state)) == keys[-1]  # same turn, same key
    with pytest.raises(RulesError):
        ENGINE.apply(state, seat=second, command={"cmd": "end-round"})
    ENGINE.apply(state, seat=second, command={"cmd": "end-turn"})
    ev = ENGINE.apply(state, seat=order[2], command={"cmd": "end-round"})
    keys.append(json.dumps(turn_key(state)))
    assert len(set(keys)) == 3
    assert state["round"] == 2
    assert state["order"][0] == second and state["current_seat"] == second
    grew = [e for e in ev if e["type"] == "railroad-grew"]
    assert all(e["random"] for e in grew)
    assert any(e["type"] in ("railroad-grew", "railroads-unchanged") for e in ev)
    view = ENGINE.view(state, seat=None)
    assert [g["route"] for g in view["growth"]["added"]] == [e["route"] for e in grew]
    grown = [r for rv in view["railroads"] for r in rv["grew_last_round"]]
    assert sorted(grown) == sorted(e["route"] for e in grew)


def test_game_ends_at_target_with_explained_final_scoring():
    state = started_game(2)
    seat = state["current_seat"]
    p = state["players"][seat]
    p["tie_log"].append({"source": "test", "ties": 28, "detail": "earlier play", "round": 1})
    give_track(state, seat, "Boston-New York", "Boston-Syracuse")
    c = give_contract(state, seat, "machinery", "New York")
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    assert ev[-1]["type"] == "game-over" and ENGINE.is_finished(state)
    assert ENGINE.active_seats(state) == [] and ENGINE.legal_commands(state, seat=seat) == []
    final = ENGINE.view(state, seat=None)["final"]
    assert final["winners"] == [seat]
    for s in final["scores"]:
        assert s["ties"] == sum(line["ties"] for line in s["breakdown"])
        assert all(line["detail"] for line in s["breakdown"] if line["source"] != "test")
    top = final["scores"][0]
    assert top["ties"] == 28 + 1 + 1  # delivery + breadth


def test_end_of_round_timing_option():
    state = started_game(2, end_timing="end-of-round")
    seat = state["current_seat"]
    p = state["players"][seat]
    p["tie_log"].append({"source": "test", "ties": 40, "detail": "x", "round": 1})
    ev = ENGINE.apply(state, seat=seat, command={"cmd": "pass-action"})
    assert ev[-1]["type"] == "final-round" and not state["finished"]
    while not state["finished"]:
        ENGINE.apply(state, seat=state["current_seat"], command={"cmd": "end-turn"})
    assert state["final"]["round"] == 1


def test_connection_bonus_and_monopoly():
    state = started_game(2)
    seat = state["current_seat"]
    p = state["players"][seat]
    board = ENGINE.board(state)
    coast = state["connection_bonuses"][0]
    assert coast["name"] == "East Coast to West Coast" and coast["ties"] >= 3
    path = ["New York", "Philadelphia", "Pittsburgh", "Cincinnati", "Saint Louis", "Kansas City", "Denver", "Salt Lake City", "San Francisco"]
    give_track(state, seat, *[f"{a}-{b}" for a, b in zip(path, path[1:], strict=False)])
    ENGINE.apply(state, seat=seat, command={"cmd": "claim-connection-bonus", "bonus": 1})
    assert coast["claimed_by"] == [seat]
    with pytest.raises(RulesError):
        ENGINE.apply(state, seat=seat, command={"cmd": "claim-connection-bonus", "bonus": 1})
    # copper: Boise, Calgary, Flagstaff, Phoenix -> 4 producers -> 2 ties
    p["network"] = sorted(set(p["network"]) | set(board.producers["copper"]))
    p["money"] = 50_000
    before = ENGINE._ties(state, p)
    ENGINE.apply(state, seat=seat, command={"cmd": "buy-upgrade", "upgrade": "commodities-exchange", "commodity": "copper"})
    assert ENGINE._ties(state, p) == before + 2 and state["monopolies"] == {"copper": seat}


def test_hub_city_is_more_likely_in_private_offers():
    from games.engines.rng import Rng
    from games.engines.wood_and_steel import contracts as C

    board = ENGINE.board(new_game(1))
    stats = {"deliveries_to": {}, "deliveries_of": {}}
    active = ["Boston", "Portland ME", "New York"]
    counts = {}
    for hub in (None, "New York"):
        rng = Rng(5)
        n = 0
        for _ in range(600):
            _k, dest = C.private_contract(board, rng, area=active, exclude=set(), stats=stats, hubs={hub} if hub else set(), own_hub=hub)
            n += dest == "New York"
        counts[hub] = n
    assert counts[None] == 0  # an active city is never a destination...
    assert counts["New York"] > 60  # ...unless it is the player's hub


def test_monopoly_raises_the_commodity_chance():
    from games.engines.rng import Rng
    from games.engines.wood_and_steel import contracts as C

    board = ENGINE.board(new_game(1))
    stats = {"deliveries_to": {}, "deliveries_of": {}}
    active = ["Chicago", "Milwaukee", "Detroit"]
    share = {}
    for mono in ([], ["machinery"]):
        rng = Rng(11)
        hits = total = 0
        for _ in range(600):
            k, dest = C.private_contract(board, rng, area=active, exclude=set(), stats=stats, hubs=set(), monopolies=mono, last_destination="Detroit", monopoly_chance={"machinery": 60})
            if "machinery" not in board.cities[dest]["commodities"]:
                total += 1
                hits += k == "machinery"
        share[bool(mono)] = hits / total
    assert share[True] > 0.5 > share[False]


def test_same_seed_and_commands_give_the_same_game():
    from games.engines.wood_and_steel.simulate import play_game

    s1, st1 = play_game(ENGINE, players=3, rounds=6, seed=42)
    s2, st2 = play_game(ENGINE, players=3, rounds=6, seed=42)
    assert snapshot(st1) == snapshot(st2) and s1 == s2
    _s3, st3 = play_game(ENGINE, players=3, rounds=6, seed=43)
    assert snapshot(st1) != snapshot(st3)


def test_custom_board_passed_as_options():
    data = default_board()
    data["cities"] = [c for c in data["cities"] if c["region"] in ("NE", "SE", "NC")]
    names = {c["name"] for c in data["cities"]}
    data["routes"] = [r for r in data["routes"] if r["a"] in names and r["b"] in names]
    data["starting_routes"] = [["Boston", "Portland ME"], ["Norfolk", "Raleigh"]]
    opts = ENGINE.normalize_options({"board": data, "railroads_min": 3, "railroads_max": 4})
    state = ENGINE.setup(players=["A", "B"], options=opts, seed=3)
    board = ENGINE.board(state)
    assert len(board.names) == len(names) and len(board.starting_routes) == 2
    assert "board" not in state["options"]
    assert 3 <= 2 + len(state["railroads"]) <= 4
    ENGINE.apply(state, seat=0, command={"cmd": "rank-starting-routes", "choices": ["Boston-Portland ME", "Norfolk-Raleigh"]})
    with pytest.raises(RulesError):
        ENGINE.normalize_options({"board": {"cities": "nope"}})
    with pytest.raises(RulesError):
        ENGINE.normalize_options({"nonsense": 1})


def test_clone_independence():
    state = started_game(2)
    twin = clone(state)
    ENGINE.apply(twin, seat=twin["current_seat"], command={"cmd": "end-turn"})
    assert state["turn"] != twin["turn"]
