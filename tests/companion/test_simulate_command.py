"""``manage.py simulate_wood_and_steel``: files, their contents, determinism, arguments."""

from __future__ import annotations

import csv
import json
import statistics
import xml.etree.ElementTree as ET
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from companion.management.commands.simulate_wood_and_steel import led_from_round
from companion.models import Board, City, Route
from companion.selectors import board_default

pytestmark = pytest.mark.django_db

GAMES = 5
ROUNDS = 20


def run(out: Path, *extra: str, games: int = GAMES, rounds: int = ROUNDS, seed: int = 1, svg: int = 2, workers: int = 1) -> str:
    stdout = StringIO()
    call_command(
        "simulate_wood_and_steel",
        "--players", "3", "--rounds", str(rounds), "--games", str(games), "--seed", str(seed),
        "--svg-samples", str(svg), "--workers", str(workers), "--out", str(out), *extra,
        stdout=stdout,
    )
    return stdout.getvalue()


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def sim(tmp_path_factory, django_db_setup, django_db_blocker):
    """One small run shared by the read-only tests."""
    out = tmp_path_factory.mktemp("sim")
    with django_db_blocker.unblock():
        stdout = run(out)
    return out, stdout


def test_one_row_per_game_with_the_documented_columns(sim):
    out, _ = sim
    games = rows(out / "games.csv")
    assert len(games) == GAMES
    assert [g["game"] for g in games] == ["1", "2", "3", "4", "5"]
    assert len({g["seed"] for g in games}) == GAMES
    for col in ("seed", "end_round", "end_reason", "winners", "winning_ties", "led_from_round", "start_order", "contracts", "fulfilled"):
        assert col in games[0]
    for col in ("ties", "end_bonus", "money", "deliveries", "network", "desirability", "start_route"):
        assert [f"{col}_seat{i}" in games[0] for i in range(3)] == [True] * 3
        assert f"{col}_seat3" not in games[0]
    # since issue 18 (a route a segment) every game of seed 1 reaches the target in 20 rounds
    assert "target" in {g["end_reason"] for g in games} <= {"target", "round-limit"}
    for g in games:
        assert g["finished"] == "1"
        end = int(g["end_round"])
        assert 1 <= end <= ROUNDS
        if g["end_reason"] == "round-limit":
            assert end == ROUNDS
        ties = [int(g[f"ties_seat{i}"]) for i in range(3)]
        winners = [int(w) for w in g["winners"].split(";")]
        assert int(g["winning_ties"]) == max(ties)
        assert all(ties[w] == max(ties) for w in winners)
        assert sorted(int(s) for s in g["start_order"].split(";")) == [0, 1, 2]
        assert len({g[f"start_route_seat{i}"] for i in range(3)}) == 3
        assert int(g["fulfilled"]) == sum(int(g[f"deliveries_seat{i}"]) for i in range(3))


def test_contracts_and_independents_tables_match_the_games(sim):
    out, _ = sim
    games = {g["game"]: g for g in rows(out / "games.csv")}
    contracts = rows(out / "contracts.csv")
    assert set(contracts[0]) >= {"game", "seed", "contract", "type", "commodity", "destination", "value", "ties", "status", "holder"}
    per_game = Counter(c["game"] for c in contracts)
    for key, g in games.items():
        assert per_game[key] == int(g["contracts"])
        assert sum(1 for c in contracts if c["game"] == key and c["status"] == "fulfilled") == int(g["fulfilled"])
    for c in contracts:
        assert c["seed"] == games[c["game"]]["seed"]
        assert c["type"] in ("private", "market")
        assert int(c["value"]) % 3000 == 0 and int(c["value"]) >= 3000
        assert 1 <= int(c["ties"]) <= 3
        if c["type"] == "market":
            assert int(c["value"]) >= 9000  # the rules' market minimum
    indies = rows(out / "indies.csv")
    assert set(indies[0]) == {"game", "seed", "round", "independents", "routes", "largest", "sizes", "grew"}
    for key, g in games.items():
        mine = [r for r in indies if r["game"] == key]
        # one row per completed round: a target reached mid-round leaves the last one out
        full = int(g["end_round"]) - (1 if g["end_reason"] == "target" else 0)
        assert [int(r["round"]) for r in mine] == list(range(1, full + 1))
        for r in mine:
            sizes = [int(x) for x in r["sizes"].split(";")] if r["sizes"] else []
            assert (len(sizes), sum(sizes), max(sizes, default=0)) == (int(r["independents"]), int(r["routes"]), int(r["largest"]))
        # 9-12 railroads in total: 6-9 independents at the start; they only go away by merging
        counts = [int(r["independents"]) for r in mine]
        assert counts[0] <= 9 and counts == sorted(counts, reverse=True)
        assert counts[-1] + int(g["railroads_acquired"]) >= 6
        assert all(int(b["routes"]) >= int(a["routes"]) or int(b["independents"]) < int(a["independents"]) for a, b in zip(mine, mine[1:], strict=False))


def test_summary_json_agrees_with_the_csv_files(sim):
    out, _ = sim
    s = json.loads((out / "summary.json").read_text())
    games = rows(out / "games.csv")
    contracts = rows(out / "contracts.csv")
    indies = rows(out / "indies.csv")
    assert s["parameters"]["players"] == 3 and s["parameters"]["rounds"] == ROUNDS and s["parameters"]["seed"] == 1
    assert s["parameters"]["board"]["slug"] == board_default().slug
    assert s["games"] == s["finished"] == len(games)
    ends = [int(g["end_round"]) for g in games]
    assert len(set(ends)) > 1
    assert s["end_round"]["mean"] == pytest.approx(statistics.fmean(ends), abs=1e-3)
    assert (s["end_round"]["min"], s["end_round"]["max"]) == (min(ends), max(ends))
    assert s["end_reasons"] == dict(sorted(Counter(g["end_reason"] for g in games).items()))
    counts = [0, 0, 0]
    for g in games:
        for w in g["winners"].split(";"):
            counts[int(w)] += 1
    assert s["wins"]["count_by_seat"] == counts
    assert sum(s["wins"]["share_by_seat"]) == pytest.approx(1, abs=1e-3)
    assert sum(s["wins"]["share_by_start_position"]) == pytest.approx(1, abs=1e-3)
    assert s["contracts"]["count"] == len(contracts)
    assert s["contracts"]["value"]["histogram"] == {str(k): v for k, v in sorted(Counter(int(c["value"]) for c in contracts).items())}
    assert s["contracts"]["value"]["mean"] == pytest.approx(statistics.fmean(int(c["value"]) for c in contracts), abs=1e-3)
    assert s["contracts"]["ties_histogram"] == {str(k): v for k, v in sorted(Counter(int(c["ties"]) for c in contracts).items())}
    assert sum(t["count"] for t in s["contracts"]["by_type"].values()) == len(contracts)
    per_round = Counter(int(r["round"]) for r in indies)
    assert [r["games"] for r in s["independents"]["per_round"]] == [per_round[i] for i in range(1, max(per_round) + 1)]
    first = [int(r["independents"]) for r in indies if r["round"] == "1"]
    assert s["independents"]["per_round"][0]["mean_independents"] == pytest.approx(statistics.fmean(first), abs=1e-3)


def test_svg_maps_of_the_first_games_draw_every_city(sim):
    out, _ = sim
    maps = sorted((out / "svg").glob("*.svg"))
    assert [p.name for p in maps] == ["game-0001.svg", "game-0002.svg"]
    cities = City.objects.filter(board=board_default()).count()
    for p in maps:
        root = ET.parse(p).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
        assert len(circles) == cities
        assert {c.find("{http://www.w3.org/2000/svg}title").text for c in circles} == set(City.objects.values_list("name", flat=True))
        assert len(root.findall(".//{http://www.w3.org/2000/svg}line")) > Route.objects.count()  # the board plus the railroads
    assert maps[0].read_text() != maps[1].read_text()


def test_the_printed_summary(sim):
    _, stdout = sim
    assert f"{GAMES} games, 3 players, planner bots, up to {ROUNDS} rounds, seed 1" in stdout
    for text in ("planner bots", "games/s", "ended: target", "end round: mean", "steps (commands): mean", "win share by seat: seat 0", "ties per player by source: delivery", "contract values: $", "games with: ", "wrote 13 files"):
        assert text in stdout


def test_same_seed_same_files_any_worker_count_and_another_seed_differs(tmp_path):
    run(tmp_path / "a", games=3, rounds=5)
    run(tmp_path / "b", games=3, rounds=5, workers=2)
    run(tmp_path / "c", games=3, rounds=5, seed=2)
    a, b, c = files(tmp_path / "a"), files(tmp_path / "b"), files(tmp_path / "c")
    assert a == b
    assert set(a) == set(c)
    assert all(a[name] != c[name] for name in a if not name.startswith("chart-"))  # 3 short games may draw alike
    assert not {g["seed"] for g in rows(tmp_path / "a" / "games.csv")} & {g["seed"] for g in rows(tmp_path / "c" / "games.csv")}


def test_svg_samples_are_capped_and_old_maps_are_replaced(tmp_path):
    run(tmp_path, games=2, rounds=3, svg=5)
    assert sorted(p.name for p in (tmp_path / "svg").iterdir()) == ["game-0001.svg", "game-0002.svg"]
    out = run(tmp_path, games=2, rounds=3, svg=0)
    assert list((tmp_path / "svg").iterdir()) == []
    assert "wrote 11 files" in out
    games = rows(tmp_path / "games.csv")
    assert {g["end_reason"] for g in games} == {"round-limit"} and {g["end_round"] for g in games} == {"3"}


def test_the_board_is_read_from_the_database(tmp_path):
    run(tmp_path / "before", games=1, rounds=3, svg=1)
    board = board_default()
    City.objects.filter(board=board, name="Seattle").update(label="Emerald City", x=5, y=7)
    run(tmp_path / "after", games=1, rounds=3, svg=1)
    by_slug = tmp_path / "slug"
    run(by_slug, "--board", board.slug, games=1, rounds=3, svg=1)
    before = (tmp_path / "before" / "svg" / "game-0001.svg").read_text()
    after = (tmp_path / "after" / "svg" / "game-0001.svg").read_text()
    assert "Emerald City" not in before and "Emerald City" in after
    seattle = [c for c in ET.fromstring(after).iter("{http://www.w3.org/2000/svg}circle") if c.find("{http://www.w3.org/2000/svg}title").text == "Seattle"]
    assert (float(seattle[0].get("cx")), float(seattle[0].get("cy"))) == (5.0, 7.0)  # board image is 1110 x 696, drawn 1:1
    key = lambda d: json.loads((d / "summary.json").read_text())["parameters"]["board"]["key"]  # noqa: E731
    assert key(tmp_path / "before") != key(tmp_path / "after") == key(by_slug)
    assert files(tmp_path / "after") == files(by_slug)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "0"], r"--players must be between 1 and 6 \(got 0\)"),
        (["--players", "7"], r"--players must be between 1 and 6 \(got 7\)"),
        (["--players", "three"], r"--players: 'three' is not a count, a range like 1-6 or a list like 1,3,6"),
        (["--players", "4-2"], r"--players: the range '4-2' is empty"),
        (["--players", "1-7"], r"--players must be between 1 and 6 \(got 7\)"),
        (["--rounds", "-1"], r"--rounds must be between 0 \(no limit\) and 500"),
        (["--rounds", "501"], r"--rounds must be between 0 \(no limit\) and 500"),
        (["--max-steps", "0"], r"--max-steps must be at least 1"),
        (["--bot", "genius"], r"argument --bot: invalid choice: 'genius'"),
        (["--games", "0"], r"--games must be at least 1 \(got 0\)"),
        (["--svg-samples", "-1"], r"--svg-samples must be 0 or more"),
        (["--workers", "0"], r"--workers must be at least 1"),
        (["--board", "atlantis"], r"No board with slug 'atlantis' \(boards: north-america; or 'default'\)"),
    ],
)
def test_bad_arguments_are_explained(tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate_wood_and_steel", "--games", "1", "--out", str(tmp_path / "out"), *args, stdout=StringIO())
    assert not (tmp_path / "out").exists()


def test_out_must_be_a_directory_and_a_default_board_must_exist(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(CommandError, match="exists and is not a directory"):
        call_command("simulate_wood_and_steel", "--games", "1", "--out", str(tmp_path / "file"), stdout=StringIO())
    Board.objects.update(is_default=False)
    with pytest.raises(CommandError, match="No default Wood and Steel board"):
        call_command("simulate_wood_and_steel", "--games", "1", "--out", str(tmp_path / "out"), stdout=StringIO())


def test_led_from_round_is_the_start_of_the_winners_last_lead():
    summary = {"winners": [1], "ties_by_round": [[1, 0], [1, 2], [3, 2], [3, 4], [4, 5], [5, 5]]}
    assert led_from_round(summary) == 4  # ahead from round 4, level (still leading) in round 6
    assert led_from_round({"winners": [0], "ties_by_round": [[2, 1], [3, 4]]}) is None  # won after the last full round
    assert led_from_round({"winners": [0], "ties_by_round": []}) is None


# -- charts, player counts, bots, no round limit --------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def bars(path: Path) -> dict[str, dict[str, float]]:
    """series -> category -> value of a chart's bars."""
    out: dict[str, dict[str, float]] = {}
    for r in ET.parse(path).getroot().iter(f"{SVG}rect"):
        if r.get("class") == "bar":
            out.setdefault(r.get("data-series"), {})[r.get("data-category")] = float(r.get("data-value"))
    return out


def test_the_charts_are_written_next_to_the_csv_and_draw_its_numbers(sim):
    out, _ = sim
    games = rows(out / "games.csv")
    contracts = rows(out / "contracts.csv")
    s = json.loads((out / "summary.json").read_text())
    assert sorted(p.name for p in out.glob("chart-*.svg")) == [
        "chart-contract-values.svg", "chart-features.svg", "chart-game-length.svg", "chart-independent-growth.svg",
        "chart-ties-by-source.svg", "chart-win-share.svg", "chart-winning-ties.svg",
    ]
    ends = Counter(int(g["end_round"]) for g in games)
    assert bars(out / "chart-game-length.svg") == {"games": {str(r): float(ends.get(r, 0)) for r in range(min(ends), max(ends) + 1)}}
    won = Counter(int(g["winning_ties"]) for g in games)
    assert bars(out / "chart-winning-ties.svg") == {"games": {str(t): float(won.get(t, 0)) for t in range(min(won), max(won) + 1)}}
    values = Counter((c["type"], int(c["value"])) for c in contracts)
    drawn = bars(out / "chart-contract-values.svg")
    assert set(drawn) == {c["type"] for c in contracts}
    for kind, by_value in drawn.items():
        assert {int(v[1:-1]) * 1000: n for v, n in by_value.items() if n} == {v: n for (k, v), n in values.items() if k == kind}
    share = bars(out / "chart-win-share.svg")
    assert list(share["by seat"].values()) == s["wins"]["share_by_seat"]
    assert list(share["by place in round 1's turn order"].values()) == s["wins"]["share_by_start_position"]
    wins = Counter(int(w) for g in games for w in g["winners"].split(";"))
    if all(len(g["winners"].split(";")) == 1 for g in games):
        assert [round(x * GAMES) for x in share["by seat"].values()] == [wins[i] for i in range(3)]
    ref = ET.parse(out / "chart-win-share.svg").getroot().find(f".//{SVG}g[@class='reference']/{SVG}line")
    assert float(ref.get("data-value")) == pytest.approx(1 / 3)
    # every tie comes from a source: the sources' means add up to the mean ties in games.csv
    by_source = bars(out / "chart-ties-by-source.svg")["every player"]
    assert by_source["delivery"] > 0
    assert sum(by_source.values()) == pytest.approx(statistics.fmean(int(g[f"ties_seat{i}"]) for g in games for i in range(3)), abs=0.01)
    growth = bars(out / "chart-independent-growth.svg")
    assert list(growth["routes (mean)"]) == [str(r["round"]) for r in s["independents"]["per_round"]]
    assert list(growth["routes (mean)"].values()) == [r["mean_routes"] for r in s["independents"]["per_round"]]
    features = bars(out / "chart-features.svg")["share of games"]
    assert features["fulfill-contract"] == 1.0 and features == {k: n / GAMES for k, n in s["features"]["games_with"].items()}


def test_uncapped_games_for_every_player_count_all_end_by_the_rules(tmp_path):
    """The CI sample of the 1,000-game runs in the engine README: every game ends."""
    stdout = run(tmp_path, "--players", "1-6", games=3, rounds=0, svg=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"players-{n}" for n in range(1, 7)]
    for n in range(1, 7):
        games = rows(tmp_path / f"players-{n}" / "games.csv")
        assert [g["end_reason"] for g in games] == ["target"] * 3
        assert all(g["finished"] == "1" for g in games)
        assert all(max(int(g[f"ties_seat{i}"]) for i in range(n)) >= 30 for g in games)
        s = json.loads((tmp_path / f"players-{n}" / "summary.json").read_text())
        assert s["parameters"]["players"] == n and s["parameters"]["rounds"] == 0 and s["parameters"]["bot"] == "planner"
        assert s["end_reasons"] == {"target": 3}
        assert f"Wood and Steel: 3 games, {n} players, planner bots, no round limit" in stdout
    table = stdout[stdout.index("players  games  ended by the rules"):].splitlines()[1:]
    assert [line.split()[:4] for line in table] == [[str(n), "3", "3", "(100.0%)"] for n in range(1, 7)]


def test_the_simple_bot_and_the_step_cap(tmp_path):
    run(tmp_path, "--bot", "simple", "--max-steps", "40", games=2, rounds=0, svg=0)
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["parameters"]["bot"] == "simple" and s["parameters"]["max_steps"] == 40
    games = rows(tmp_path / "games.csv")
    assert {g["end_reason"] for g in games} == {"unfinished"} and {g["finished"] for g in games} == {"0"}
    assert {g["steps"] for g in games} == {"40"}
