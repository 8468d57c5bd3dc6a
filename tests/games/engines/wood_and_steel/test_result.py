"""Wood and Steel's ending (README, "The ending"): every seat ranked by ties, its ties by source and
money minus debt (which breaks a tie on ties), and one sentence saying how the winner won."""

from games.engines.wood_and_steel import ENGINE

from .helpers import started_game


def finish(ties_by_seat, net_worth_by_seat, **options):
    state = started_game(len(ties_by_seat), **options)
    for seat, lines in enumerate(ties_by_seat):
        player = state["players"][seat]
        for source, ties in lines:
            player["tie_log"].append({"source": source, "ties": ties, "detail": source, "round": 1})
        player["money"], player["debt"] = net_worth_by_seat[seat], 0
    ENGINE._finish(state)
    return state


def test_every_seat_ranked_with_ties_by_source_adding_up_and_net_worth_last():
    state = finish([[("delivery", 20), ("connection", 3)], [("delivery", 31)], [("delivery", 4), ("monopoly", 2)]],
                   [10_000, 2_000, 50_000])
    result = ENGINE.result(state)
    assert [row["seat"] for row in result["ranking"]] == [1, 0, 2]
    assert [row["place"] for row in result["ranking"]] == [1, 2, 3]
    assert result["columns"] == ["Deliveries", "Connections", "Monopolies", "Money minus debt"]
    for row in result["ranking"]:
        labels = [p["label"] for p in row["parts"]]
        assert labels == result["columns"]
        assert row["score"] == sum(p["value"] for p in row["parts"][:-1])
        assert row["parts"][-1]["value"] == state["players"][row["seat"]]["money"]
    first = result["ranking"][0]["parts"]
    assert {p["label"]: p["value"] for p in first}["Deliveries"] == 31
    assert result["how"] == "P1 won with the most ties, 31 ties (reaching 30 ties ends the game)."


def test_a_tie_on_ties_is_won_on_money_minus_debt_and_says_so():
    state = finish([[("delivery", 12)], [("delivery", 12)]], [3_000, 8_000], max_rounds=1)
    result = ENGINE.result(state)
    assert [(row["seat"], row["place"]) for row in result["ranking"]] == [(1, 1), (0, 2)]
    assert result["how"].startswith("P1 won with 12 ties, level with P0, on money minus debt ($8,000 against P0 $3,000")


def test_equal_on_both_share_first_place_and_the_sentence_names_both():
    state = finish([[("delivery", 30)], [("delivery", 30)], [("breadth", 5)]], [1_000, 1_000, 0])
    result = ENGINE.result(state)
    assert [row["place"] for row in result["ranking"]] == [1, 1, 3]
    assert result["how"] == "P0 and P1 share the win with 30 ties and $1,000 money minus debt each (reaching 30 ties ends the game)."


def test_a_source_the_sheet_does_not_name_still_counts_as_other():
    state = finish([[("gm-edit", 7)], [("delivery", 1)]], [0, 0])
    result = ENGINE.result(state)
    top = result["ranking"][0]
    assert top["seat"] == 0 and {p["label"]: p["value"] for p in top["parts"]}["Other"] == 7
