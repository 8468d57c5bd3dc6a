"""Benchmark the Resourceful Rails engine and its bots on one core.

    .venv/bin/python bench/bench_resourceful_rails.py [--seconds 5] [--players 2]

Prints, each measured for about ``--seconds``:

- bot games per second: whole planner games (every seat the planner, no round limit: a game ends
  when someone has 6 major cities joined and $250), and random-bot games (the random bot never
  reaches the goal, so its games carry a round limit, ``--random-rounds``);
- each bot's time per command, p50 / p99 / max (wall clock around ``bot_command``; the planner's
  first calls in a process also fill its per-city caches, included);
- replay: actions per second when the recorded fixture games
  (``tests/games/engines/resourceful_rails/recorded/``) are replayed from their seeds with
  ``setup()`` + ``apply()``, as the platform replays a game (views and legal commands are not part
  of a replay), with and without the setups counted; and the time per command kind.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentile, replay_recorded  # noqa: E402
from games.engines.resourceful_rails import ENGINE  # noqa: E402
from games.engines.resourceful_rails.simulate import NAMES  # noqa: E402

RECORDED = ROOT / "tests" / "games" / "engines" / "resourceful_rails" / "recorded"


def bot_games(bot: str, players: int, seconds: float, options: dict) -> dict:
    """Whole games with every seat on ``bot``, seeds 0, 1, ... until ``seconds`` have passed."""
    games = actions = rounds = 0
    per_command: list[float] = []
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds or games == 0:
        state = ENGINE.setup(players=NAMES[:players], options=dict(options), seed=games)
        chooser = random.Random(games)
        while not state["finished"]:
            seat = state["active"]
            t0 = clock()
            command = ENGINE.bot_command(state, seat=seat, bot=bot, rng=chooser)
            per_command.append(clock() - t0)
            ENGINE.apply(state, seat=seat, command=command)
            actions += 1
        rounds += state["round"]
        games += 1
    elapsed = clock() - start
    return {"games": games, "actions": actions, "rounds": rounds, "elapsed": elapsed, "per_command": per_command}


def replay(seconds: float) -> dict:
    fixtures = [json.loads(p.read_text()) for p in sorted(RECORDED.glob("game_*.json"))]
    if not fixtures:
        raise SystemExit(f"no fixtures in {RECORDED}; run tests/games/engines/resourceful_rails/record_games.py")
    return replay_recorded(ENGINE, fixtures, seconds, "cash")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--players", type=int, default=2, help="seats in the bot games")
    parser.add_argument("--random-rounds", type=int, default=10, help="round limit of the random-bot games")
    args = parser.parse_args()

    print(f"Resourceful Rails benchmark ({args.seconds:g} s per measurement, one core, {args.players} players)")
    for bot, options in (("planner", {}), ("random", {"round_limit": args.random_rounds})):
        r = bot_games(bot, args.players, args.seconds, options)
        limit = f", round limit {options['round_limit']}" if options else ", played to a win"
        t = r["per_command"]
        print(f"  {bot:>7} games : {r['games'] / r['elapsed']:7.2f} games/s ({r['games']} games{limit}, "
              f"{r['rounds'] / r['games']:.1f} rounds and {r['actions'] / r['games']:.0f} commands per game, "
              f"{r['actions'] / r['elapsed']:,.0f} commands/s with the bot's thinking)")
        print(f"  {bot:>7} per command: p50 {ms(percentile(t, 50))}, p99 {ms(percentile(t, 99))}, "
              f"max {ms(max(t))} ({len(t)} commands)")
    r = replay(args.seconds)
    apply_time = r["elapsed"] - r["setup"]
    print(f"  replay         : {r['actions'] / r['elapsed']:,.0f} actions/s with the setups, "
          f"{r['actions'] / apply_time:,.0f} actions/s in apply alone ({r['passes']} passes over "
          f"{r['games']} recorded games, {r['actions']} actions; setup {ms(r['setup'] / (r['passes'] * r['games']))} "
          f"a game)")
    for kind, times in sorted(r["by_kind"].items(), key=lambda kv: -sum(kv[1])):
        print(f"    {kind:>13}: {len(times):5d} commands, mean {sum(times) / len(times) * 1e6:7.1f} µs, "
              f"p99 {percentile(times, 99) * 1e6:7.1f} µs, {100 * sum(times) / sum(map(sum, r['by_kind'].values())):4.1f} % "
              f"of apply time")


if __name__ == "__main__":
    main()
