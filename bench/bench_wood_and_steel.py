"""Benchmark: the Wood and Steel designers' simulator workload.

3 players, 20 rounds; each round every player's network grows by a random city within
2 hops when it has fewer than round x 0.4 + 2 cities (else with a 25 % chance); reaching
a city of an independent railroad buys the whole railroad; the independents grow at the
end of every round with the real growth rules. Prints games per second (the designers'
JavaScript does about 250 games/s on the reference machine).

    .venv/bin/python bench/bench_wood_and_steel.py [--games N] [--seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.wood_and_steel.simulate import Workload, designers_workload, play_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games in the timed run")
    parser.add_argument("--seconds", type=float, default=10.0, help="stop early after this long")
    parser.add_argument("--full-rules", type=int, default=20, help="also time N games through the full rules engine (0: skip)")
    args = parser.parse_args()

    workload = Workload()
    designers_workload(0, workload=workload)  # warm caches
    start = time.perf_counter()
    played = 0
    bought = 0
    while played < args.games and time.perf_counter() - start < args.seconds:
        bought += designers_workload(played + 1, workload=workload)["bought"]
        played += 1
    elapsed = time.perf_counter() - start
    print(f"designers' workload: {played} games in {elapsed:.2f} s = {played / elapsed:.0f} games/s "
          f"(3 players, 20 rounds; {bought / played:.2f} independents bought per game)")

    if args.full_rules:
        from games.engines.wood_and_steel import ENGINE

        start = time.perf_counter()
        for i in range(args.full_rules):
            play_game(ENGINE, players=3, rounds=20, seed=i + 1)
        elapsed = time.perf_counter() - start
        print(f"full rules, simple bots: {args.full_rules} games in {elapsed:.2f} s = {args.full_rules / elapsed:.1f} games/s")


if __name__ == "__main__":
    main()
