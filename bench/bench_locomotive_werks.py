"""Benchmark the Locomotive Werks engine on one core.

    .venv/bin/python bench/bench_locomotive_werks.py [--seconds 3]

Prints bot-vs-bot games per second (all-random and all-greedy tables) and the
replay speed: actions per second when the recorded fixture games are replayed
from their seeds with setup() + apply(), as the platform does.
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

from games.engines.locomotive_werks import ENGINE  # noqa: E402

RECORDED = ROOT / "tests" / "games" / "engines" / "locomotive_werks" / "recorded"
NAMES = ["Ada", "Brunel", "Cugnot", "Dorothy", "Ericsson"]


def bot_games(bot: str, seconds: float) -> tuple[int, int, int, float]:
    """Play whole games with every seat on ``bot``; return games, actions, rounds, elapsed."""
    games = actions = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        players = 3 + games % 3
        state = ENGINE.setup(players=NAMES[:players], options={}, seed=games)
        chooser = random.Random(games)
        while not state["finished"]:
            seat = state["order"][state["turn"]]
            command = ENGINE.bot_command(state, seat=seat, bot=bot, rng=chooser)
            ENGINE.apply(state, seat=seat, command=command)
            actions += 1
        rounds += state["round"]
        games += 1
    return games, actions, rounds, time.perf_counter() - start


def replay(seconds: float) -> tuple[int, int, float]:
    fixtures = [json.loads(p.read_text()) for p in sorted(RECORDED.glob("game_*.json"))]
    if not fixtures:
        raise SystemExit(f"no fixtures in {RECORDED}; run record_games.py first")
    logs = [[(c["seat"], c["command"]) for c in g["commands"]] for g in fixtures]
    passes = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for game, log in zip(fixtures, logs, strict=True):
            state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
            for seat, command in log:
                ENGINE.apply(state, seat=seat, command=command)
            assert [p["coins"] for p in state["players"]] == game["final_coins"]
            actions += len(log)
        passes += 1
    return passes, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()

    print(f"Locomotive Werks engine benchmark ({args.seconds:g} s per measurement, one core)")
    for bot in ENGINE.bots:
        games, actions, rounds, elapsed = bot_games(bot, args.seconds)
        print(
            f"  {bot:>6} bots : {games / elapsed:8.1f} games/s  "
            f"({games} games, {rounds / games:.1f} rounds and {actions / games:.0f} actions per game, "
            f"{actions / elapsed:,.0f} actions/s including bot thinking)"
        )
    passes, actions, elapsed = replay(args.seconds)
    print(
        f"  replay      : {actions / elapsed:8,.0f} actions/s  "
        f"({passes} passes over the recorded games, {actions} actions, setup included)"
    )


if __name__ == "__main__":
    main()
