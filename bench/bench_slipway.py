"""Benchmark the Slipway engine and its bots on one core.

    .venv/bin/python bench/bench_slipway.py [--seconds 5] [--lineups "random*4;shipwright*4"] [--replay-games 4]

Prints:

- bot games per second for each lineup (default: four random bots, two and four shipwrights), seeds 0, 1, ...
  for about ``--seconds`` each, at least one game, with the commands per game, and games per CPU second
  (the process's own time: what a shared machine's load does not change much);
- a bot move's time (``bot_command``), p50 / p99 / max, per bot, from those games (the shipwright
  values every candidate on a copy of the state: its choose and bonus decisions are the slow ones, shown
  apart);
- replay: actions per second when bot games' command logs (the recorded games of
  ``tests/games/engines/slipway/recorded/``; without them ``--replay-games`` shipwright games of 2 to 4
  players, played here first) are replayed from their seeds with ``setup()`` + ``apply()``, as the
  platform replays a game (no views, no legal commands), against the aim of 20,000 actions/s; and the
  time per command kind, so a shortfall names the slow command.
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

from bench.common import percentile, replay_recorded, replay_report  # noqa: E402
from games.engines.slipway import ENGINE  # noqa: E402
from games.engines.slipway.simulate import NAMES, lineup, play_game  # noqa: E402

RECORDED = ROOT / "tests" / "games" / "engines" / "slipway" / "recorded"
REPLAY_AIM = 20_000  # actions per second (the issue)
DEFAULT_LINEUPS = "random*4;shipwright*2;shipwright*4"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"p50 {ms(percentile(values, 50))}, p99 {ms(percentile(values, 99))}, max {ms(max(values))}"


def bot_games(bots: list[str], seconds: float) -> dict:
    """Whole games of ``bots``, seeds 0, 1, ... until ``seconds`` have passed (at least one); each bot call
    timed, by bot and by the stage it answered."""
    games = actions = 0
    per_move: dict[str, list[float]] = {}
    clock = time.perf_counter
    start = clock()
    cpu = time.process_time()
    while clock() - start < seconds or games == 0:
        state = ENGINE.setup(players=NAMES[: len(bots)], options={}, seed=games)
        chooser = random.Random(games)
        while not state["finished"]:
            seat = ENGINE.active_seats(state)[0]
            stage = state["turn"]["stage"]
            t0 = clock()
            command = ENGINE.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
            spent = clock() - t0
            per_move.setdefault(bots[seat], []).append(spent)
            kind = "choose" if stage == "choose" else "bonus" if command["cmd"] == "bonus" else None
            if kind:
                per_move.setdefault(f"{bots[seat]} {kind}", []).append(spent)
            ENGINE.apply(state, seat=seat, command=command)
            actions += 1
        games += 1
    return {"games": games, "actions": actions, "elapsed": clock() - start, "cpu": time.process_time() - cpu,
            "per_move": per_move}


def recorded_games(count: int) -> list[dict]:
    """The recorded games (``tests/games/engines/slipway/recorded/``, made by its ``record_games.py``) when
    there are any, else ``count`` shipwright games (2, 3, 4 players in turn) played here, in the format
    ``replay_recorded`` reads: seed, players, options, commands and every player's final money."""
    recorded = [json.loads(p.read_text()) for p in sorted(RECORDED.glob("game_*.json"))]
    if recorded:
        return recorded
    games = []
    for i in range(count):
        players = 2 + i % 3
        log: list[dict] = []
        _summary, state = play_game(["shipwright"] * players, seed=100 + i, log=log)
        games.append({"seed": 100 + i, "players": NAMES[:players], "options": {}, "commands": log,
                      "final_money": [p["money"] for p in state["players"]]})
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per bot-game lineup and for the replay")
    parser.add_argument("--lineups", default=DEFAULT_LINEUPS,
                        help="bot lineups separated by ';', each comma-separated, 'shipwright*4' repeats")
    parser.add_argument("--replay-games", type=int, default=4, help="shipwright games recorded for the replay")
    args = parser.parse_args()
    print("Slipway benchmark (one core)")
    moves: dict[str, list[float]] = {}
    for text in args.lineups.split(";"):
        bots = lineup(text)
        r = bot_games(bots, args.seconds)
        for bot, times in r["per_move"].items():
            moves.setdefault(bot, []).extend(times)
        print(f"  {','.join(bots):>43} : {r['games'] / r['elapsed']:8.3f} games/s ({r['games']} games, "
              f"{r['actions'] / r['games']:.0f} commands per game, {r['actions'] / r['elapsed']:,.0f} commands/s "
              f"with the bots' thinking; {r['games'] / r['cpu']:.3f} games per CPU second: on a shared machine "
              "the wall clock counts the others' work too)")
    for bot, times in sorted(moves.items()):
        mean = sum(times) / len(times)
        print(f"  {bot + ' move':>24}: {spread(times)}, mean {ms(mean)} ({len(times)} moves)")

    games = recorded_games(args.replay_games)
    source = "recorded games" if RECORDED.exists() and any(RECORDED.glob("game_*.json")) else "shipwright games"
    r = replay_recorded(ENGINE, games, args.seconds, "money")
    print("\n".join(replay_report(r, what=f"{source} of 2-4 players", aim=REPLAY_AIM)))


if __name__ == "__main__":
    main()
