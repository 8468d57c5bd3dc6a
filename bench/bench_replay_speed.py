"""Benchmark: replay and rules speed per engine (pure Python, no database, no network).

For every registered engine (the built-in titles plus the test suite's toy), bots play
whole games from seeded setups and the logs are recorded. Then, timed separately:

- replay: setup + apply every logged command (what games/replay.py and the admin do), in
  actions per second;
- the per-move cost the write path pays on top of apply: the JSON round trip of the
  state (load + save), every seat's view and legal commands (the broadcast).

    .venv/bin/python bench/bench_replay_speed.py [--games 5] [--max-actions 3000] [--players 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.base import RulesError  # noqa: E402
from games.engines.registry import all_engines, load_builtin_engines, register  # noqa: E402


def record_game(engine, players: int, seed: int, max_actions: int) -> tuple[list[str], dict, list[tuple[int, dict]]]:
    names = [f"p{i}" for i in range(players)]
    options = engine.normalize_options({"target": 1000} if engine.kind == "toy" else {})
    state = engine.setup(players=names, options=copy.deepcopy(options), seed=seed)
    rng = random.Random(seed)
    bot = engine.bots[-1] if engine.bots else "random"
    log: list[tuple[int, dict]] = []
    while len(log) < max_actions and not engine.is_finished(state):
        active = engine.active_seats(state)
        if not active:
            break
        seat = active[0]
        try:
            command = engine.bot_command(state, seat=seat, bot=bot, rng=rng)
            engine.apply(state, seat=seat, command=copy.deepcopy(command))
        except RulesError:
            break
        log.append((seat, command))
    return names, options, log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="recorded games per engine")
    parser.add_argument("--max-actions", type=int, default=3000, help="cap per recorded game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="timed replays of each log (best kept)")
    args = parser.parse_args()

    load_builtin_engines()
    from tests.support.toy_engine import ENGINE as TOY

    register(TOY)
    print(f"{'engine':20}{'games':>6}{'actions':>9}{'replay act/s':>14}{'apply us':>10}"
          f"{'json us':>9}{'views+legal us':>16}{'state KiB':>11}")
    for engine in all_engines():
        players = max(engine.min_players, min(args.players, engine.max_players))
        if engine.kind == "toy":
            players = 2
        recorded = []
        for g in range(args.games):
            names, options, log = record_game(engine, players, seed=1000 + g, max_actions=args.max_actions)
            recorded.append((names, options, log, 1000 + g))
        total = sum(len(log) for *_, log, _ in recorded)
        if not total:
            print(f"{engine.kind:20} no bot moves recorded")
            continue
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            for names, options, log, seed in recorded:
                state = engine.setup(players=names, options=copy.deepcopy(options), seed=seed)
                for seat, command in log:
                    engine.apply(state, seat=seat, command=command)
            best = min(best, time.perf_counter() - start)
        # The write path per move, beyond apply: state JSON in and out, every seat's view.
        names, options, log, seed = max(recorded, key=lambda r: len(r[2]))
        state = engine.setup(players=names, options=copy.deepcopy(options), seed=seed)
        for seat, command in log[: len(log) // 2]:
            engine.apply(state, seat=seat, command=command)
        blob = json.dumps(state)
        reps = 200
        start = time.perf_counter()
        for _ in range(reps):
            json.dumps(json.loads(blob))
        json_us = (time.perf_counter() - start) / reps * 1e6
        start = time.perf_counter()
        for _ in range(reps):
            for seat in [*range(len(names)), None]:
                json.dumps(engine.view(state, seat=seat))
                if seat is not None:
                    engine.legal_commands(state, seat=seat)
        views_us = (time.perf_counter() - start) / reps * 1e6
        print(f"{engine.kind:20}{len(recorded):6}{total:9}{total / best:14,.0f}{best / total * 1e6:10.1f}"
              f"{json_us:9.0f}{views_us:16.0f}{len(blob) / 1024:11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
