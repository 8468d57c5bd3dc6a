"""Wood and Steel's standings (README, "Standings"): the final scoring's order, most ties then money minus debt."""

from games.engines.wood_and_steel import ENGINE

from .helpers import started_game


def test_a_finished_game_places_by_ties_then_net_worth():
    state = started_game(3)
    for seat, ties in ((0, 20), (1, 3), (2, 20)):
        state["players"][seat]["tie_log"].append({"source": "test", "ties": ties, "detail": "x", "round": 1})
    state["players"][2]["money"] += 50_000
    ENGINE._finish(state)
    assert ENGINE.is_finished(state)
    scores = {s["seat"]: (s["ties"], s["net_worth"]) for s in state["final"]["scores"]}
    standings = ENGINE.standings(state)
    assert [s for s, place in enumerate(standings) if place == 1] == state["final"]["winners"]
    for a in range(3):
        for b in range(3):
            if scores[a] > scores[b]:
                assert standings[a] < standings[b]


def test_equal_ties_and_net_worth_share_a_place():
    state = {"finished": True, "players": [{"seat": s} for s in range(4)], "final": {"scores": [
        {"seat": 2, "ties": 31, "net_worth": 5_000},
        {"seat": 0, "ties": 31, "net_worth": 5_000},
        {"seat": 3, "ties": 31, "net_worth": -2_000},
        {"seat": 1, "ties": 12, "net_worth": 90_000},
    ]}}
    assert ENGINE.standings(state) == [1, 4, 1, 3]
