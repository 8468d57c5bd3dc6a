"""Benchmark the Runerail engine, its planner and its bots on one core, on the two-layer map of Vell.

    .venv/bin/python bench/bench_runerail.py [--seconds 5] [--samples 200] [--lineups "planner,planner;..."]

Prints:

- the plan calls a page makes (``ENGINE.plan``), p50 / p99 / max wall and CPU per call, on mid-game
  positions taken from the recorded games (``tests/games/engines/runerail/recorded/``): a build tapped
  from the network to a surface milepost, a build into the Deepways (to a Deepways milepost), a build
  through the Deepways and out (a Deepways milepost, then a surface milepost), a move to a milepost the
  train reaches this turn (two or more mileposts away), and a voyage (a sail plan to a port or sea
  point; the train put on a port and a ship boarded with the real ``board-ship`` command);
- the planner's decisions: per command (``bot_command``) and per whole turn (every command of one of
  its turns, summed), p50 / p99 / max, from the bot games below (the planner's first calls in a
  process also fill its per-city caches, included);
- bot games per second for each lineup (default: planner vs planner, planner vs random, and four
  planners), seeds 0, 1, ... for about ``--seconds`` each, at least one game; Runerail has no round
  limit, so every game is played to its win;
- replay: actions per second when the recorded games are replayed from their seeds with ``setup()`` +
  ``apply()``, as the platform replays a game (views and legal commands are not part of a replay),
  with and without the setups counted, against the aim of 20,000 actions/s; and the time per command
  kind.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentile, replay_recorded, replay_report  # noqa: E402
from games.engines.base import RulesError  # noqa: E402
from games.engines.rail_core.simulate import NAMES  # noqa: E402
from games.engines.runerail import ENGINE, data  # noqa: E402

RECORDED = ROOT / "tests" / "games" / "engines" / "runerail" / "recorded"
REPLAY_AIM = 20_000  # actions per second (the issue)
DEFAULT_LINEUPS = "planner,planner;planner,random;planner*4"


def fixtures() -> list[dict]:
    games = [json.loads(p.read_text()) for p in sorted(RECORDED.glob("game_*.json"))]
    if not games:
        raise SystemExit(f"no fixtures in {RECORDED}; run tests/games/engines/runerail/record_games.py")
    return games


def lineup(text: str) -> list[str]:
    out: list[str] = []
    for part in text.split(","):
        name, _, count = part.strip().partition("*")
        out.extend([name] * (int(count) if count else 1))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def spread(values: list[float]) -> str:
    return f"p50 {ms(percentile(values, 50))}, p99 {ms(percentile(values, 99))}, max {ms(max(values))}"


# -- positions ------------------------------------------------------------------------------------------


def positions(games: list[dict], rng: random.Random, count: int) -> list[tuple[dict, int]]:
    """Mid-game positions from the recorded games: the start of a planner's turn in phase play (a network and
    gold, as a player's), the train on the map, from the middle half of each game, four a game picked at random.
    (state, seat) pairs, at most ``count``."""

    def usable(state: dict, bots: list[str]) -> bool:
        if state["finished"] or state["phase"] != "play" or state.get("pending") or state["hire"] is not None:
            return False
        if bots[state["active"]] != "planner":
            return False
        player = state["players"][state["active"]]
        return (state["stage"] == "move" and not state["turn"]["acted"] and player["at"] is not None
                and not player.get("ship") and not state.get("ship_offer"))

    found: list[tuple[dict, int]] = []
    for game in games:
        steps = game["commands"]
        lo, hi = len(steps) // 4, 3 * len(steps) // 4
        state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
        usable_at = []
        for i, step in enumerate(steps[:hi]):
            ENGINE.apply(state, seat=step["seat"], command=step["command"])
            if i >= lo and usable(state, game["bots"]):
                usable_at.append(i)
        picked = set(rng.sample(usable_at, min(len(usable_at), 4)))
        state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
        for i, step in enumerate(steps[: max(picked, default=-1) + 1]):
            ENGINE.apply(state, seat=step["seat"], command=step["command"])
            if i in picked:
                found.append((copy.deepcopy(state), state["active"]))
    rng.shuffle(found)
    return found[:count]


def timed(fn) -> tuple[float, float, bool]:
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        fn()
        ok = True
    except RulesError:
        ok = False
    return time.perf_counter() - wall, time.thread_time() - cpu, ok


def plan_calls(games: list[dict], samples: int, rng: random.Random) -> dict[str, list[tuple[float, float, bool]]]:
    core = data.core()
    m = core.map
    surface = [i for i, n in enumerate(m.nodes) if n.layer == 0]
    deep = [i for i, n in enumerate(m.nodes) if n.layer == data.DEEP_LAYER]
    spots = positions(games, rng, samples)
    ports = sorted(data.port_keys())
    sea = sorted(k for k in data.sea_graph() if k not in data.port_keys())
    calls: dict[str, list] = {"build, network to a surface milepost": [], "build into the Deepways": [],
                              "build through the Deepways and out": [], "move to a milepost in reach": [],
                              "sail to a port or sea point": []}
    for n in range(samples):
        state, seat = spots[n % len(spots)]
        player = state["players"][seat]
        left = ENGINE.moves_left(state, seat)
        reach = core.move_distances(state["rail"], seat, player["at"], came_from=player["came_from"],
                                    hooks=ENGINE.hooks(state))
        reachable = sorted(k for k, d in reach.items() if 2 <= d <= left) or sorted(reach)
        requests = {
            "build, network to a surface milepost": {"plan": "build", "points": [None, m.address(rng.choice(surface))]},
            "build into the Deepways": {"plan": "build", "points": [None, m.address(rng.choice(deep))]},
            "build through the Deepways and out": {"plan": "build", "points": [
                None, m.address(rng.choice(deep)), m.address(rng.choice(surface))]},
            "move to a milepost in reach": {"plan": "move", "to": m.address(m.find(rng.choice(reachable)))},
        }
        for label, request in requests.items():
            calls[label].append(timed(lambda s=state, q=seat, r=request: ENGINE.plan(s, seat=q, request=r)))
    # Voyages: the train put on a port (the state edited: the bench's own position), a ship boarded with the
    # real command, then plans to ports and sea points.
    for n in range(samples):
        state, seat = copy.deepcopy(spots[n % len(spots)])
        player = state["players"][seat]
        player["at"], player["came_from"] = rng.choice(ports), None
        player["gold"] = max(player["gold"], data.SHIP_MAX_BOARDING)
        state["effects"] = [e for e in state["effects"] if e["kind"] != "no-boarding"]
        try:
            ENGINE.apply(state, seat=seat, command={"cmd": "board-ship"})
        except RulesError:
            continue
        if state.get("ship_offer"):
            ENGINE.apply(state, seat=seat, command={"cmd": "choose-ship", "ship": state["ship_offer"]["ships"][0]})
        to = [int(x) for x in rng.choice(ports + sea).split(",")]
        calls["sail to a port or sea point"].append(
            timed(lambda s=state, q=seat, t=to: ENGINE.plan(s, seat=q, request={"plan": "sail", "to": t})))
    return calls


# -- bot games ------------------------------------------------------------------------------------------


def bot_games(bots: list[str], seconds: float) -> dict:
    """Whole games of ``bots``, seeds 0, 1, ... until ``seconds`` have passed (at least one)."""
    games = actions = rounds = 0
    per_command: list[float] = []
    per_turn: list[float] = []
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds or games == 0:
        state = ENGINE.setup(players=NAMES[: len(bots)], options={}, seed=games)
        chooser = random.Random(games)
        turn_key, turn_time = None, 0.0
        while not state["finished"]:
            seat = ENGINE.active_seats(state)[0]
            key = (seat, state["turn_no"], state["phase"])
            if key != turn_key:
                if turn_key is not None and bots[turn_key[0]] == "planner":
                    per_turn.append(turn_time)
                turn_key, turn_time = key, 0.0
            t0 = clock()
            command = ENGINE.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
            spent = clock() - t0
            turn_time += spent
            if bots[seat] == "planner":
                per_command.append(spent)
            ENGINE.apply(state, seat=seat, command=command)
            actions += 1
        rounds += state["round"]
        games += 1
    elapsed = clock() - start
    return {"games": games, "actions": actions, "rounds": rounds, "elapsed": elapsed, "per_command": per_command,
            "per_turn": per_turn}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per bot-game lineup and for the replay")
    parser.add_argument("--samples", type=int, default=200, help="plan calls timed per kind")
    parser.add_argument("--lineups", default=DEFAULT_LINEUPS,
                        help="bot lineups separated by ';', each comma-separated, 'planner*4' repeats")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions and targets picked")
    args = parser.parse_args()
    games = fixtures()
    rng = random.Random(args.seed)
    m = data.core().map
    layers = sum(1 for n in m.nodes if n.layer == 0), sum(1 for n in m.nodes if n.layer == data.DEEP_LAYER)
    print(f"Runerail benchmark (one core; the map of Vell: {layers[0]} surface and {layers[1]} Deepways mileposts, "
          f"{len(data.sea_graph())} sea points and ports; {len(games)} recorded games)")

    print(f"  plan calls ({args.samples} a kind, mid-game positions of the recorded games), wall | CPU:")
    for label, rows in plan_calls(games, args.samples, rng).items():
        walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
        found = sum(r[2] for r in rows)
        print(f"    {label:<37}: {spread(walls)} | CPU p50 {ms(percentile(cpus, 50))}, "
              f"p99 {ms(percentile(cpus, 99))} ({len(rows)} calls, {found} found a way)")

    all_command: list[float] = []
    all_turn: list[float] = []
    for text in args.lineups.split(";"):
        bots = lineup(text)
        r = bot_games(bots, args.seconds)
        all_command += r["per_command"]
        all_turn += r["per_turn"]
        print(f"  {','.join(bots):>31} : {r['games'] / r['elapsed']:7.3f} games/s ({r['games']} games played to a win, "
              f"{r['rounds'] / r['games']:.1f} rounds and {r['actions'] / r['games']:.0f} commands per game, "
              f"{r['actions'] / r['elapsed']:,.0f} commands/s with the bots' thinking)")
    if all_command:
        print(f"  planner per command: {spread(all_command)} ({len(all_command)} commands)")
        print(f"  planner per turn   : {spread(all_turn)} ({len(all_turn)} turns: every command of one turn)")

    r = replay_recorded(ENGINE, games, args.seconds, "gold")
    print("\n".join(replay_report(r, what="recorded games", aim=REPLAY_AIM)))


if __name__ == "__main__":
    main()
