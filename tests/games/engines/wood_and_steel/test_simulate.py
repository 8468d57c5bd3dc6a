"""The simulator core and the designers' workload."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel.simulate import designers_workload, play_game, render_svg, simulate


def test_simulated_games_run_through_the_rules_and_summarise():
    summaries = simulate(ENGINE, players=3, rounds=12, games=3, seed=5)
    assert len(summaries) == 3
    for s in summaries:
        json.dumps(s)
        assert s["finished"] and s["winners"]
        assert s["end_round"] <= 12
        assert len(s["indie_sizes"]) == s["end_round"] or s["ties"][s["winners"][0]] >= 30
        assert sum(s["deliveries"]) > 0
        assert all(c["value"] % 3_000 == 0 and 1 <= c["ties"] <= 3 for c in s["contracts"])
        assert all(len(row) == 3 for row in s["ties_by_round"])
        best = max(s["ties"])
        assert all(s["ties"][w] == best for w in s["winners"])


def test_svg_map_of_a_sample_game():
    _summary, state = play_game(ENGINE, players=3, rounds=5, seed=2)
    for latlong in (False, True):
        svg = render_svg(state, use_latlong=latlong)
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")
        circles = [e for e in root.iter() if e.tag.endswith("circle")]
        assert len(circles) == 56
        assert "Seattle" in svg and "#d62728" in svg  # player 1's colour is drawn


def test_designers_workload_grows_players_and_indies():
    a = designers_workload(9)
    assert a == designers_workload(9)
    assert len(a["indie_sizes"]) == 20
    assert len(a["network_sizes"]) == 3
    # every player is at least at the round-20 threshold (20 x 0.4 + 2 = 10 cities) unless boxed in
    assert sum(a["network_sizes"]) >= 20
    sizes = [designers_workload(s)["indie_sizes"][0] for s in range(10)]
    assert all(1 <= len(row) <= 9 for row in sizes)  # 9-12 railroads minus 3 players, less any bought
    assert all(size >= 1 for row in sizes for size in row)
