"""Runerail's ending (README, "The ending"): how the winner won in one sentence, and every seat with its
major cities joined and its gold, the winners first, the rest by how near they came."""

from __future__ import annotations

import pytest

from games.engines.runerail import data

from .helpers import ENGINE, end_turn, give_foreman, normal_turn
from .test_rules_cards import SEVEN, WITH_MOSSGATE, WITH_SANDSPIRE, _connect, _deliver


def parts(row):
    return {p["label"]: p["value"] for p in row["parts"]}


def test_the_winner_first_then_the_others_by_major_cities_then_gold():
    state = normal_turn(3)
    give_foreman(state, 0, "dwarf")
    _connect(state, 0, SEVEN)
    _connect(state, 2, SEVEN[:1])  # Thornhollow to Saltharbor, and Emberforge by the Ley Line: 3
    for seat, gold in enumerate([262, 500, 40]):
        state["players"][seat]["gold"] = gold
    end_turn(state)
    assert state["winners"] == [0]

    result = ENGINE.result(state)
    assert result["columns"] == ["Major cities", "Gold"]
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(0, 1), (2, 2), (1, 2)]
    assert [parts(r) for r in result["ranking"]] == [
        {"Major cities": 7, "Gold": 262}, {"Major cities": 3, "Gold": 40}, {"Major cities": 0, "Gold": 500}]
    assert all(r["score"] is None for r in result["ranking"])
    assert result["how"] == ("Ann joined 7 major cities with one network of track and had 262 gold "
                             "(the goal: 7 of the 8 major cities and 250 gold).")
    assert {r["seat"]: r["place"] for r in result["ranking"]} == dict(enumerate(ENGINE.standings(state)))


@pytest.mark.parametrize(("win_tie", "golds", "how"), [
    ("most-gold", (260, 300), "Bo joined 7 major cities with one network of track and had 300 gold (the goal: 7 of "
                              "the 8 major cities and 250 gold); Ann reached it at the same moment with less gold."),
    ("most-gold", (280, 280), "Ann (7 major cities, 280 gold) and Bo (7 major cities, 280 gold) reached the goal "
                              "(7 of the 8 major cities and 250 gold) at the same moment with the same gold and share "
                              "the win."),
    ("shared", (260, 300), "Ann (7 major cities, 260 gold) and Bo (7 major cities, 300 gold) reached the goal "
                           "(7 of the 8 major cities and 250 gold) at the same moment and share the win."),
])
def test_two_players_reaching_the_goal_at_once(win_tie, golds, how):
    state = normal_turn(3, win_tie=win_tie)
    end_turn(state)
    end_turn(state)  # seat 2 draws the bridge that completes both networks
    _connect(state, 0, WITH_SANDSPIRE)
    _connect(state, 1, WITH_MOSSGATE)
    state["players"][0]["gold"], state["players"][1]["gold"] = golds
    _deliver(state, seat=2, events=("prism-dawn",))
    assert state["finished"]
    result = ENGINE.result(state)
    assert result["how"] == how
    assert [r["place"] for r in result["ranking"]] == [1] * len(state["winners"]) + [2] * (3 - len(state["winners"]))
    assert [r["seat"] for r in result["ranking"]][: len(state["winners"])] == sorted(
        state["winners"], key=lambda s: -state["players"][s]["gold"])
    assert data.WIN_MAJORS == 7 and data.WIN_GOLD == 250
