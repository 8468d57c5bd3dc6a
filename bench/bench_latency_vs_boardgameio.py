"""Benchmark: move latency and back-to-back moves/s, Junction vs boardgame.io, side by side.

The same trivial two-player race on each (Junction: the test suite's ``toy`` engine;
boardgame.io: bench/bgio/game.js), driven by the same Node client (bench/bgio/drive.js)
in the same run, alternating rounds. Junction runs on PostgreSQL + Redis and commits every
move before broadcasting it; boardgame.io keeps its state in memory.

    .venv/bin/python bench/bench_latency_vs_boardgameio.py [--moves 200] [--pingpong 300] [--rounds 2]

boardgame.io (its current npm release, koa-compose held at 4.1.0) is npm-installed into the
git-ignored bench/out/node on first use.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DEFAULT_PG,
    DEFAULT_REDIS,
    ROOT,
    ensure_boardgameio,
    flush_redis,
    prepare_database,
    processes,
    services_reachable,
    start_bgio,
    start_daphne,
    summary,
    toy_game,
)

DRIVER = ROOT / "bench" / "bgio" / "drive.js"


def drive(modules: Path, args: list[str]) -> dict:
    out = subprocess.run(
        ["node", str(DRIVER), *args], env={**os.environ, "NODE_PATH": str(modules)},
        capture_output=True, text=True, timeout=600,
    )
    if out.returncode:
        raise RuntimeError(f"driver failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="spaced moves per round for latency")
    parser.add_argument("--gap-ms", type=float, default=5, help="pause between latency moves")
    parser.add_argument("--pingpong", type=int, default=300, help="back-to-back moves per round")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds per system")
    parser.add_argument("--http-moves", type=int, default=200, help="moves per round sent as HTTP requests")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    args = parser.parse_args()
    if max(args.moves + args.pingpong, args.http_moves) > 990:
        parser.error("--moves + --pingpong and --http-moves must stay under 990 (one toy game per round, target ≤ 1000)")

    why = services_reachable(args.database_url, args.redis_url)
    if why:
        print(f"SKIPPED: Junction runs on PostgreSQL + Redis here: {why}")
        return 0
    modules = ensure_boardgameio()
    if modules is None:
        print("SKIPPED: node and npm are needed for the boardgame.io side")
        return 0
    bgio_version = json.loads((modules / "boardgame.io" / "package.json").read_text())["version"]
    prepare_database(args.database_url)
    flush_redis(args.redis_url)

    results = {"junction": {"lat": [], "moves": 0, "seconds": 0.0, "errors": []},
               "boardgame.io": {"lat": [], "moves": 0, "seconds": 0.0, "errors": []}}
    http = {"junction": {"lat": [], "rtt": [], "errors": []}, "boardgame.io": {"lat": [], "rtt": [], "errors": []}}
    with processes() as started:
        daphne = start_daphne({"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url})
        started.append(daphne)
        bgio = start_bgio(modules)
        started.append(bgio)
        common = [str(args.moves), str(args.gap_ms), str(args.pingpong)]
        for _ in range(args.rounds):
            for name in ("boardgame.io", "junction"):
                if name == "junction":
                    code, tokens = toy_game(f"http://127.0.0.1:{daphne.port}")
                    out = drive(modules, ["junction", f"ws://127.0.0.1:{daphne.port}", code, *tokens, *common])
                else:
                    out = drive(modules, ["bgio", f"http://127.0.0.1:{bgio.port}", *common])
                r = results[name]
                r["lat"] += out["lat"]
                r["moves"] += out["pingpong_moves"]
                r["seconds"] += out["pingpong_seconds"]
                r["errors"] += out["errors"]
            if args.http_moves:
                code, tokens = toy_game(f"http://127.0.0.1:{daphne.port}")
                outs = {
                    "junction": drive(modules, ["junction-http", f"http://127.0.0.1:{daphne.port}", f"ws://127.0.0.1:{daphne.port}",
                                                code, *tokens, str(args.http_moves), str(args.gap_ms)]),
                    "boardgame.io": drive(modules, ["bgio-http", f"http://127.0.0.1:{bgio.port}", str(args.http_moves),
                                                    str(args.gap_ms)]),
                }
                for name, out in outs.items():
                    for key in ("lat", "rtt", "errors"):
                        http[name][key] += out[key]

    print(f"Junction (PostgreSQL + Redis, commit before broadcast) vs boardgame.io {bgio_version} (in memory)")
    print(f"{args.rounds} rounds x {args.moves} spaced moves (gap {args.gap_ms} ms) + {args.pingpong} back-to-back moves")
    print(f"{'':14}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'moves/s':>10}")
    figures = {}
    for name, r in results.items():
        s = summary(r["lat"])
        rate = r["moves"] / r["seconds"] if r["seconds"] else float("nan")
        figures[name] = (s, rate)
        print(f"{name:14}{s['p50']:9.2f}{s['p99']:9.2f}{s['max']:9.2f}{rate:10.0f}")
        if r["errors"]:
            print(f"  {name}: {len(r['errors'])} error answers, first: {r['errors'][0]}")
    (j, jr), (b, br) = figures["junction"], figures["boardgame.io"]
    print(f"ratio Junction/boardgame.io: p50 {j['p50'] / b['p50']:.2f}  p99 {j['p99'] / b['p99']:.2f}  "
          f"moves/s {jr / br:.2f}  (latency < 1 and moves/s > 1 favour Junction)")
    if args.http_moves:
        jl, jt, bt = summary(http["junction"]["lat"]), summary(http["junction"]["rtt"]), summary(http["boardgame.io"]["rtt"])
        print(f"\nMoves over HTTP, {args.rounds} rounds x {args.http_moves} (keep-alive; gap {args.gap_ms} ms):")
        print(f"{'':44}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        print(f"{'Junction POST commands -> other seat socket':44}{jl['p50']:9.2f}{jl['p99']:9.2f}{jl['max']:9.2f}")
        print(f"{'Junction POST commands -> its HTTP answer':44}{jt['p50']:9.2f}{jt['p99']:9.2f}{jt['max']:9.2f}")
        print(f"{'boardgame.io lobby POST update -> answer':44}{bt['p50']:9.2f}{bt['p99']:9.2f}{bt['max']:9.2f}")
        print("  (boardgame.io has no HTTP move endpoint: its moves go over its socket. Its lobby's HTTP write is\n"
              "   the nearest comparison: the cost of one HTTP request on that server, with nothing committed.)")
        for name, r in http.items():
            if r["errors"]:
                print(f"  {name}: {len(r['errors'])} error answers over HTTP, first: {r['errors'][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
