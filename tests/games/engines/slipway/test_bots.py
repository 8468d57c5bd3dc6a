"""Slipway's bots and simulator: both bots send only commands the engine accepts and finish games at 2, 3
and 4 players; the shipwright outfits a completed ship for the canals it has (a steamer when they are long
enough, never a ship too fast for them) and beats the random bot; the simulator's summary has its fields.

Win shares over many games are the simulator's business (BALANCE.md); these tests play a few games only."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.slipway import ENGINE, bots, simulate

from .scenes import acting, game, give_employees, player, set_canals, set_stock, ship_in_yard

STEAMER = ("B07", "M16", "S19")  # a stoker cabin and a rig mount among them (ships.json)


def play(bot_names: list[str], seed: int) -> tuple[dict, list[dict]]:
    """A whole game; every command checked: the random bot's are listed, the shipwright's listed or (its own
    builds of several tiles, outfits of several items) accepted by the engine."""
    state = ENGINE.setup(players=simulate.NAMES[: len(bot_names)], options={}, seed=seed)
    rng = random.Random(seed)
    sent = []
    while not ENGINE.is_finished(state):
        seat = ENGINE.active_seats(state)[0]
        legal = ENGINE.legal_commands(state, seat=seat)
        command = ENGINE.bot_command(state, seat=seat, bot=bot_names[seat], rng=rng)
        if bot_names[seat] == "random" or command["cmd"] not in ("build", "outfit"):
            assert command in legal, (seed, bot_names[seat], command)
        ENGINE.apply(state, seat=seat, command=command)  # raises if refused
        sent.append({"seat": seat, "command": command})
        assert len(sent) < 2000, "a game that never ends"
    return state, sent


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_finish_games_with_listed_commands(players):
    state, sent = play(["random"] * players, seed=players)
    assert state["finished"] and state["scores"] is not None
    assert len(sent) > 50


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipwright_finishes_games_against_random_bots(players):
    state, sent = play(["shipwright"] + ["random"] * (players - 1), seed=10 + players)
    assert state["finished"]
    me = state["players"][0]
    assert me["fleet"] and not me["lost"]
    assert any(c["command"]["cmd"] == "cruise" for c in sent if c["seat"] == 0)


def test_the_shipwright_beats_the_random_bot_in_nine_games_of_ten():
    wins = 0
    for seed in range(1, 11):
        bot_names = ["shipwright", "random"] if seed % 2 else ["random", "shipwright"]
        state, _ = play(bot_names, seed=seed)
        me = bot_names.index("shipwright")
        wins += state["winners"] == [me]
        assert not state["players"][me]["lost"], f"seed {seed}: the shipwright lost a ship"
    assert wins >= 9, wins


def launch(state: dict) -> list[dict]:
    """The shipwright's commands until its turn ends (its actions done: outfit and cruise)."""
    seat = state["turn"]["seat"]
    sent = []
    while state["turn"] is not None and state["turn"]["seat"] == seat and len(sent) < 10:
        command = ENGINE.bot_command(state, seat=seat, bot="shipwright", rng=random.Random(0))
        sent.append(command)
        ENGINE.apply(state, seat=seat, command=command)
    return sent


def test_a_steamer_is_fitted_out_and_cruises_when_the_canals_are_long_enough():
    state = acting(game(2))
    ship_in_yard(state, 0, STEAMER)
    set_stock(state, 0, captain=1, stoker=1, smokestack=1, crane=1)
    set_canals(state, 0, [(0, 0, "start", 0), (0, 1, "C05", 0)])  # 4 forward steps from the start's north
    state["players"][0]["money"] = 0  # no bonus action
    sent = launch(state)
    assert [c["cmd"] for c in sent] == ["outfit", "cruise"]
    ship = player(state, 0)["fleet"][-1]
    assert sorted(ship["items"]) == ["captain", "crane", "smokestack", "stoker"]
    assert ship["speed"] == 4 and len(sent[1]["path"]) == 4
    assert not player(state, 0)["lost"]


def test_a_ship_is_never_made_faster_than_its_canals_allow():
    state = acting(game(2))
    ship_in_yard(state, 0, STEAMER)
    set_stock(state, 0, captain=1, stoker=2, smokestack=1)
    set_canals(state, 0, [(0, 0, "start", 0)])  # the start tile alone: one forward step
    state["players"][0]["money"] = 0
    launch(state)
    me = player(state, 0)
    assert not me["lost"] and len(me["fleet"]) == 1
    assert me["fleet"][0]["speed"] == 1
    assert me["items"]["stoker"] == 2 and me["items"]["smokestack"] == 1  # kept for a later ship


def test_plan_outfit_counts_speed_employees_and_refuses_a_ship_without_a_captain():
    state = game(2)
    me = player(state, 0)
    give_employees(state, 0, "E27")  # +1 speed always
    stock = {"captain": 1, "stoker": 1, "smokestack": 1, "sail": 0, "crane": 0, "cannon": 0, "marine": 0,
             "merchant": 0}
    add, score = bots.plan_outfit(ENGINE, me, list(STEAMER), [], stock, length=5)
    assert sorted(add) == ["captain", "smokestack", "stoker"] and score == 1 + 5
    add, score = bots.plan_outfit(ENGINE, me, list(STEAMER), [], stock, length=4)
    assert ENGINE.speed(me, list(STEAMER), add) <= 4
    assert bots.plan_outfit(ENGINE, me, list(STEAMER), [], {**stock, "captain": 0}, length=5) == ([], -1)


def test_multi_tile_builds_are_accepted_and_each_completes_a_ship_or_holds_one_open():
    state = acting(game(2), "build", done=False)
    ship_in_yard(state, 0, ("B01",), at=4)  # a bow waiting for its middles and stern
    builds = bots.multi_builds(ENGINE, state, 0)
    assert builds and all(2 <= len(b["tiles"]) <= 3 for b in builds)
    assert any(b["tiles"][0]["slot"] == 5 for b in builds)  # one finishes the waiting bow's ship
    held = 0
    for b in builds:
        after = json.loads(json.dumps(state))
        ENGINE.apply(after, seat=0, command=b)  # accepted
        slots = {t["slot"] for t in b["tiles"]}
        if any(slots <= set(range(first, last + 1)) for first, last in ENGINE.completed(player(after, 0))):
            continue
        # a ship held open: one more middle would complete it
        held += 1
        row = ENGINE.cells(player(after, 0))
        gaps = [s for s in range(len(row)) if row[s] is None]
        assert any(ENGINE.completed({**player(after, 0), "yard": [*player(after, 0)["yard"][:g], "M01",
                                                                  *player(after, 0)["yard"][g + 1:]]})
                   for g in gaps), b
    assert held, "no build holds a ship open for its crew and engines"


def test_the_target_ship_is_a_steamer_when_the_means_are_in_hand():
    state = game(2)
    me = player(state, 0)
    stock = {"captain": 1, "stoker": 1, "smokestack": 1, "sail": 0, "crane": 0, "cannon": 0, "marine": 0,
             "merchant": 0}
    value, plan = bots.plan_ship(ENGINE, me, list(STEAMER[:1] + STEAMER[2:]), {"bow": 0, "stern": 0, "middle": 1},
                                 stock, length=4, left=6)
    assert plan["speed"] == 4 and plan["actions"] < 1
    slow_value, slow = bots.plan_ship(ENGINE, me, list(STEAMER[:1] + STEAMER[2:]), {"bow": 0, "stern": 0, "middle": 1},
                                      stock, length=1, left=0.5)
    assert slow["speed"] == 1 and slow_value < value  # no time to rent canals: the plain ship


def test_the_simulator_summary_has_its_fields():
    summaries = simulate.simulate(["random", "random"], games=2, seed=5)
    assert [s["seed"] for s in summaries] == [5, 6]
    assert summaries == simulate.simulate(["random", "random"], games=2, seed=5)  # deterministic by seed
    rep = simulate.report(summaries, elapsed=1.0)
    assert rep["games"] == 2
    assert set(rep["end_reasons"]) <= {"queue", "stack"} and sum(rep["end_reasons"].values()) == 2
    assert set(rep["bots"]) == {"random"} and rep["bots"]["random"]["seats"] == 4
    assert len(rep["win_share_by_seat"]) == 2 and len(rep["win_share_by_position"]) == 2
    for key in ("scores", "spread", "turns", "commands"):
        assert set(rep[key]) == {"mean", "min", "max"}
    assert rep["spread"]["min"] >= 0
    assert {"launched_per_player", "lost_per_player", "ship_speeds", "points_by_source", "games_per_second", "components"} <= set(rep)
    assert simulate.lineup("shipwright,random", 4) == ["shipwright", "random", "random", "random"]
    assert simulate.lineup("shipwright*2,random") == ["shipwright", "shipwright", "random"]


# -- the single-focus bots (the balance report's tournament) ------------------------------------------------

# Each focus bot against the shipwright in one 2-player game: only accepted commands, a finished game, a ship
# launched; and the leaning it is named for shows in what it did (read from the final state).
@pytest.mark.parametrize(("bot", "seed", "leaning"), [
    ("steam", 21, lambda p: any({"stoker", "smokestack"} & set(s["items"]) for s in p["fleet"])),
    ("sails", 22, lambda p: all("smokestack" not in s["items"] and "stoker" not in s["items"] for s in p["fleet"])),
    # at least half its ships 4+ long (a leaning: a cheap 3-piece ship still sails when the yard offers it)
    ("big-ships", 23, lambda p: 2 * sum(len(s["tiles"]) >= 4 for s in p["fleet"]) >= len(p["fleet"])),
    ("small-ships", 24, lambda p: all(len(s["tiles"]) <= 4 for s in p["fleet"])),
    ("contracts", 25, lambda p: True),
    ("traders", 26, lambda p: any(e in {"E01", "E02", "E03", "E04", "E05", "E06", "E07", "E08"}
                                  for e in p["employees"])),
    ("riband", 27, lambda p: True),
])
def test_each_single_focus_bot_plays_a_whole_game_its_way(bot, seed, leaning):
    state, sent = play([bot, "shipwright"], seed=seed)
    me = state["players"][0]
    assert state["finished"] and me["fleet"], (bot, [s["items"] for s in me["fleet"]])
    assert leaning(me), (bot, [(s["tiles"], s["items"]) for s in me["fleet"]], me["employees"])


def test_the_focus_bots_are_the_engines_bots():
    assert set(bots.FOCUS_BOTS) | {"random", "shipwright"} == set(ENGINE.bots) == set(bots.BOTS)


@pytest.mark.parametrize(("kind", "entrants", "games", "tables"), [
    ("mixed", ["a", "b", "c", "d", "e"], 10, 5),  # C(5, 4) tables, each twice
    ("pairs", ["a", "b", "c"], 6, 3),  # C(3, 2) pairs, each twice, seats swapped
])
def test_tournament_tables_come_round_evenly(kind, entrants, games, tables):
    jobs = simulate.tournament_jobs(kind, entrants, games, seed=100)
    assert [seed for _, seed, _ in jobs] == list(range(100, 100 + games))
    seen = {}
    for table, _, _ in jobs:
        assert len(set(table)) == len(table) == (4 if kind == "mixed" else 2)
        seen.setdefault(tuple(sorted(table)), []).append(tuple(table))
    assert len(seen) == tables and all(len(v) == games // tables for v in seen.values())
    if kind == "pairs":
        assert all(v[0] == v[1][::-1] for v in seen.values())  # the second pass swaps the seats


def test_tournament_report_counts_fair_shares_and_pair_shares():
    def s(bots_, winners):
        return {"bots": bots_, "winners": winners}
    mixed = simulate.tournament_report("mixed", [s(["a", "b", "c", "d"], [0]), s(["b", "a", "c", "d"], [0, 1])])
    assert mixed["bots"]["a"] == {"seats": 2, "wins": 2, "win_share": 1.0, "vs_fair": 4.0}
    assert mixed["bots"]["b"]["vs_fair"] == 2.0 and mixed["bots"]["c"]["wins"] == 0
    pairs = simulate.tournament_report("pairs", [s(["a", "b"], [0]), s(["b", "a"], [0]), s(["b", "a"], [1])])
    assert pairs["pairs"] == [{"bots": ["a", "b"], "games": 3, "wins": [2, 1], "share": 0.667}]


def test_the_report_gives_the_one_ship_share_and_each_components_rate():
    summaries = simulate.simulate(["shipwright", "random"], games=1, seed=3)
    rep = simulate.report(summaries)
    s = summaries[0]
    assert len(s["contracts_dealt"]) == 2 and all(len(d) == 4 for d in s["contracts_dealt"])
    assert rep["one_ship_over_40"] == sum(x > 0.4 for x in s["best_ship_share"]) / 2
    comp = rep["components"]
    assert sum(r["dealt"] for r in comp["contracts"].values()) == 8
    assert set(comp["employees"]) == set(bots.data.employees())
    kept = [c for seat in s["contracts_kept"] for c in seat]
    assert all(comp["contracts"][c]["kept_share"] > 0 for c in kept)
