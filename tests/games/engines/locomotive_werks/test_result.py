"""Locomotive Werks' ending (README, "The ending"): every seat ranked by coins, the last round's sales
and tax as the parts, the turn order when it breaks ties, and how the winner won in one sentence."""

from games.engines.locomotive_werks import ENGINE

from .test_standings import finished


def test_ranked_by_coins_with_the_last_rounds_sales_and_tax():
    state = finished("game_101.json")
    result = ENGINE.result(state)
    coins = [p["coins"] for p in state["players"]]
    assert [row["score"] for row in result["ranking"]] == sorted(coins, reverse=True)
    assert [row["seat"] for row in result["ranking"] if row["place"] == 1] == state["winners"]
    assert result["columns"] == ["Last round's sales", "Tax"]
    taxes = {e["seat"]: e for e in state["last_round"]["events"] if e["type"] == "tax"}
    for row in result["ranking"]:
        parts = {p["label"]: p["value"] for p in row["parts"]}
        assert parts["Tax"] == -taxes[row["seat"]]["tax"]
        assert taxes[row["seat"]]["coins"] == row["score"]
        assert parts["Last round's sales"] == sum(
            e["income"] for e in state["last_round"]["events"] if e["type"] == "sale" and e["seat"] == row["seat"])
    winner = state["players"][state["winners"][0]]
    assert result["how"].startswith(f"{winner['name']} won with the most coins, {winner['coins']:,}: the game ends when ")
    assert f"at least {state['options']['end_threshold']:,} coins" in result["how"]


def test_a_shared_win_names_both():
    state = finished("game_102.json")
    result = ENGINE.result(state)
    names = [state["players"][s]["name"] for s in state["winners"]]
    assert [row["place"] for row in result["ranking"]] == [1, 1, 3, 4]
    assert result["how"].startswith(" and ".join(names) + " share the win with ")


def test_later_in_turn_order_shows_the_turn_order_that_broke_the_tie():
    state = finished("game_102.json")
    state["options"]["winner_ties"] = "later-in-turn-order"
    later = max(state["winners"], key=state["order"].index)
    state["winners"] = [later]
    result = ENGINE.result(state)
    assert result["columns"][-1] == "Turn order"
    first, second = result["ranking"][:2]
    assert first["seat"] == later and first["score"] == second["score"]
    order = {row["seat"]: row["parts"][-1]["value"] for row in result["ranking"]}
    assert order[first["seat"]] > order[second["seat"]]
    assert "by being later in the last turn order" in result["how"]
