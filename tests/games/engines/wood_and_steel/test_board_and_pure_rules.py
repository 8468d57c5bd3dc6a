"""Board facts and the rules as pure functions, with exact numbers."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.rng import Rng
from games.engines.wood_and_steel import contracts as C
from games.engines.wood_and_steel import railroads as R
from games.engines.wood_and_steel import rules as RU
from games.engines.wood_and_steel import scoring as S
from games.engines.wood_and_steel.board import Board, default_board, validate_board


@pytest.fixture(scope="module")
def board():
    return Board(validate_board(default_board()))


def test_default_board_matches_reference_counts(board):
    assert len(board.names) == 56
    assert len(board.routes) == 104
    assert len(board.commodities) == 25
    assert "Boise-Spokane" in board.routes
    assert board.parse_route("Phoenix-Los Angeles") is None  # the leftover route is not on the board
    assert board.parse_route("Philadelphia-New York") == "New York-Philadelphia"
    assert len(board.starting_routes) == 6
    assert len(board.starting_cities) == 11


def test_hop_and_segment_distances(board):
    assert board.hop("Atlanta", "Chicago") == 2  # via Cincinnati
    assert board.seg("Atlanta", "Chicago") == 6  # 3 + 3
    assert board.hop("Boston", "Boston") == 0
    assert board.neighbours["Seattle"] == ["Portland OR", "Spokane", "Vancouver"]


def test_machinery_to_atlanta_is_6000(board):
    assert C.contract_value(board, "machinery", "Atlanta") == 6_000
    assert C.contract_value(board, "coal", "Atlanta") == 0
    assert C.contract_value(board, "imports", "Boston") == 3_000  # New York is one hop away
    assert C.contract_value(board, "tobacco", "Seattle") > 20_000


def test_contract_value_is_3000_per_hop(board):
    for k in board.commodities:
        for c in ("Atlanta", "Seattle", "Denver"):
            hops = min(board.hop(c, p) for p in board.producers[k])
            assert C.contract_value(board, k, c) == 3_000 * hops


def test_ties_by_section_and_by_region_matrix(board):
    assert C.contract_ties(board, "machinery", "Atlanta") == 1  # Boston etc. are Eastern too
    assert C.contract_ties(board, "oil", "Atlanta") == 2  # oil only in the Central section
    assert C.contract_ties(board, "tobacco", "Seattle") == 3  # tobacco only in the East
    assert C.contract_ties(board, "tobacco", "Seattle", "region-matrix") == 4  # NW row, SE column
    assert C.contract_ties(board, "oil", "Atlanta", "region-matrix") == 2


def test_monopoly_commodities_derived_from_map(board):
    sizes = board.monopoly_sizes()
    assert {k for k, n in sizes.items() if n == 4} == {"cattle", "copper", "iron ore", "lead", "textiles"}
    assert {k for k, n in sizes.items() if n == 5} == {"grain", "imports"}
    assert {k for k, n in sizes.items() if n == 6} == {"coal", "machinery", "wood"}
    assert [S.MONOPOLY_TIES[n] for n in (4, 5, 6)] == [2, 3, 4]
    assert [S.MONOPOLY_CHANCE[n] for n in (4, 5, 6)] == [40, 50, 60]


def test_city_values_and_hub_weighting(board):
    stats = {"deliveries_to": {}, "deliveries_of": {}}
    assert C.city_value(board, "Seattle", stats, set()) == 12
    assert C.city_value(board, "Portland OR", stats, set()) == 10
    assert C.city_value(board, "Atlanta", stats, set()) == 6
    assert C.city_value(board, "Washington", stats, set()) == 2
    assert C.city_value(board, "Raleigh", stats, set()) == 4
    # hub: plus the plain value of each neighbour that is not itself a hub
    assert board.neighbours["Raleigh"] == ["Atlanta", "Charleston", "Norfolk", "Washington"]
    assert C.city_value(board, "Raleigh", stats, {"Raleigh"}) == 4 + 6 + 4 + 4 + 2
    nbrs = board.neighbours["Raleigh"]
    assert C.city_value(board, "Raleigh", stats, {"Raleigh"}) == 4 + sum(C.city_value(board, n, stats, set()) for n in nbrs)
    assert C.city_value(board, "Raleigh", stats, {"Raleigh", "Norfolk"}) == 4 + sum(
        C.city_value(board, n, stats, set()) for n in nbrs if n != "Norfolk"
    )
    stats = {"deliveries_to": {"Raleigh": 2}, "deliveries_of": {"tobacco": 3, "textiles": 1}}
    assert C.city_value(board, "Raleigh", stats, set()) == 4 + 4 + 3 + 1


def test_track_cost_table():
    table = {1: (2, 4, 3, 6), 2: (3, 6, 4, 8), 3: (4, 8, 5, 10), 4: (5, 10, 6, 12), 5: (6, 12, 7, 14)}
    for n, (plain, mountain, parallel, both) in table.items():
        assert RU.track_cost(n) == plain * 1000
        assert RU.track_cost(n, mountainous=True) == mountain * 1000
        assert RU.track_cost(n, parallel=True) == parallel * 1000
        assert RU.track_cost(n, mountainous=True, parallel=True) == both * 1000
    assert RU.track_cost(2, hub_discount=1000) == 1000


def test_trade_in_values():
    assert RU.trade_in_value("john-bull") == 0
    assert RU.trade_in_value("american") == 2_000
    assert RU.trade_in_value("mogul") == 3_000
    assert RU.trade_in_value("camelback") == 6_000
    assert RU.trade_in_value("challenger") == 16_000


def test_debt_service_by_region():
    # $20,000 borrowed -> $4,000 per service
    assert RU.debt_service(20_000, "east", False, False) == (0, False, False)
    assert RU.debt_service(20_000, "central", False, False) == (4_000, True, False)
    assert RU.debt_service(20_000, "central", True, False) == (0, True, False)
    assert RU.debt_service(20_000, "west", True, False) == (4_000, True, True)
    assert RU.debt_service(20_000, "east", True, True) == (4_000, True, True)
    assert RU.debt_service(7_000, "west", False, False) == (1_000, False, True)
    assert RU.debt_service(0, "west", False, True) == (0, False, True)


def test_delivery_income():
    assert RU.delivery_income(9_000, hops=3, upgraded_stations=False, heavy_engine=False) == 9_000
    assert RU.delivery_income(9_000, hops=3, upgraded_stations=True, heavy_engine=True) == 9_000 + 3_000 + 3_000


def test_breadth_and_depth_bonuses():
    assert [S.breadth_bonus(n) for n in (0, 1, 8, 9, 12, 13, 15)] == [0, 1, 8, 10, 16, 19, 25]
    assert [S.depth_bonus(n) for n in (0, 1, 2, 5)] == [0, 0, 2, 5]
    assert S.depth_bonus(2, "literal") == 3


def test_the_breadth_line_counts_its_commodities_in_words():
    """The final scoring's lines, as a phone shows them: one commodity is not "commodities" (issue 34)."""
    def breadth(deliveries):
        player = {"tie_log": [], "deliveries": deliveries, "end_bonus": []}
        return next(x["detail"] for x in S.tie_breakdown(player) if x["source"] == "breadth")

    assert breadth({"coal": 1}) == "1 different commodity delivered"
    assert breadth({"coal": 2, "grain": 1, "wine": 0}) == "2 different commodities delivered"


def test_a_delivery_line_names_the_contract_in_words_not_by_its_number():
    """"+1 coal to Denver (private contract)", not "(contract 7)": the id means nothing at the table."""
    from games.engines.wood_and_steel import ENGINE

    from .helpers import started_game

    state = started_game(3, check_network=False)
    seat = state["current_seat"]
    p = state["players"][seat]
    c = ENGINE._new_contract(state, ctype="private", commodity="coal", destination="Denver", holder=seat, status="held", reason="test")
    ENGINE._contract(state, p["private"])["status"] = "discarded"
    p["private"], p["offers"], p["turn_actions"], p["money"] = c["id"], [], [], 50_000
    ENGINE.apply(state, seat=seat, command={"cmd": "fulfill-contract", "contract": c["id"]})
    line = next(x for x in S.tie_breakdown(p) if x["source"] == "delivery")
    assert line["detail"] == "coal to Denver (private contract)" and line["contract"] == c["id"]


def test_round_half_up_matches_javascript():
    assert R.round_half_up(5, 2) == 3  # 2.5 -> 3 (Python's round gives 2)
    assert R.round_half_up(25, 10) == 3
    assert R.round_half_up(24, 10) == 2


def test_desirability_and_ranking_resolution(board):
    d = {rid: RU.desirability(board, rid) for rid in board.starting_routes}
    assert all(v > 0 for v in d.values())
    assert d["New York-Philadelphia"] > d["Montreal-Quebec City"]
    # everyone wants New York-Philadelphia: one gets it, nobody gets an unranked route
    wants = [["New York-Philadelphia", "Boston-Portland ME", "Norfolk-Raleigh"]] * 3
    got = RU.resolve_rankings(board, Rng(1), wants)
    assert sorted(got) == sorted(wants[0])
    # Philadelphia-Washington shares a city with New York-Philadelphia: never both
    wants = [["New York-Philadelphia", "Boston-Portland ME", "Norfolk-Raleigh"], ["Philadelphia-Washington", "Charleston-Savannah", "Norfolk-Raleigh"]]
    for seed in range(10):
        got = RU.resolve_rankings(board, Rng(seed), wants)
        assert not ({"New York-Philadelphia", "Philadelphia-Washington"} <= set(got))
        assert got[0] in wants[0] and got[1] in wants[1]
    # the worst-off player is as well off as possible: both get their first choice here
    wants = [["Boston-Portland ME", "Norfolk-Raleigh", "Charleston-Savannah"], ["Norfolk-Raleigh", "Boston-Portland ME", "Charleston-Savannah"]]
    assert RU.resolve_rankings(board, Rng(3), wants) == ["Boston-Portland ME", "Norfolk-Raleigh"]


def test_independent_placement_is_spread_and_far_from_starts(board):
    for seed in range(20):
        routes = R.place_independents(board, Rng(seed), 9)
        assert len(routes) == 9
        cities = [c for rid in routes for c in board.route_cities(rid)]
        assert len(cities) == len(set(cities))  # no shared city
        for c in cities:
            assert board.hop_to_set(c, board.starting_cities) >= 2


def test_independent_growth_respects_players_and_each_other(board):
    for seed in range(30):
        rng = Rng(seed)
        companies = [[r] for r in R.place_independents(board, rng, 8)]
        players = {"Boston", "Portland ME", "Chicago", "Milwaukee", "Denver"}
        for _ in range(20):
            R.grow_independents(board, rng, companies, players)
        near_players = set(players) | {n for c in players for n in board.neighbours[c]}
        sets = []
        for routes in companies:
            assert len(routes) <= 7
            cs = {c for r in routes for c in board.route_cities(r)}
            sets.append(cs)
            for r in routes[1:]:  # grown routes never touch a player city or its neighbours
                assert not (set(board.route_cities(r)) & near_players)
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                assert not (sets[i] & sets[j])


def test_validate_board_rejects_bad_data():
    with pytest.raises(RulesError):
        validate_board({"cities": []})
    data = default_board()
    data["routes"].append({"a": "Atlanta", "b": "Nowhere", "length": 1})
    with pytest.raises(RulesError):
        validate_board(data)
    data = default_board()
    data["routes"][0]["length"] = 0
    with pytest.raises(RulesError):
        validate_board(data)
