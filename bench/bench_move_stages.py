"""Benchmark: where one WebSocket move's time goes, stage by stage, client to client.

The latency bench's workload (toy game, two seats, the same Node driver, moves a few ms apart,
PostgreSQL + Redis) against a Daphne that stamps each stage of a move
(bench/stages/traced_daphne.py); the driver stamps its send and the other seat's receive on the
same clock (CLOCK_MONOTONIC). Prints each stage's p50/p90/p99 (the stages add up to the other
seat's latency) and, for the slowest 2 % of moves, which stages made them slow.

    .venv/bin/python bench/bench_move_stages.py [--moves 800] [--gap-ms 5]

The stamps cost a few microseconds per stage; compare runs of this bench with each other, and
end-to-end figures with bench_latency_vs_boardgameio.py.
"""

from __future__ import annotations

import argparse
import bisect
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_latency_vs_boardgameio import drive  # noqa: E402
from common import (  # noqa: E402
    DEFAULT_PG,
    DEFAULT_REDIS,
    PYTHON,
    ROOT,
    ensure_boardgameio,
    flush_redis,
    percentile,
    prepare_database,
    processes,
    services_reachable,
    start_daphne,
    toy_game,
)

TRACED = ROOT / "bench" / "stages" / "traced_daphne.py"
# (label, from, to): "client-sent" / "client-received" are the driver's stamps, "<stage>0/1" the
# first such stamp inside the move, "other-written" the first write to the other seat's socket
# once the broadcast started.
STAGES = [
    ("client sends -> Daphne reads the frame", "client-sent", "read"),
    ("frame read -> parsed (autobahn)", "read", "parsed0"),
    ("parsed -> consumer's receive", "parsed0", "receive0"),
    ("receive -> save starts (validate, recall, apply)", "receive0", "save0"),
    ("save: statement parameters", "save0", "statement0"),
    ("save: compare-and-set + append, committed", "statement0", "statement1"),
    ("save end -> broadcast starts (views, JSON)", "statement1", "broadcast0"),
    ("broadcast -> other seat's frame written", "broadcast0", "other-written"),
    ("written -> other seat's client has it", "other-written", "client-received"),
]


def moves_by_stage(events: list[tuple[int, str, int]], stamps: list[list[str]]) -> list[dict[str, float]]:
    """Per move, each stage's milliseconds (moves whose stamps are incomplete are skipped)."""
    times = [t for t, _, _ in events]
    moves = []
    for sent, received in stamps:
        sent, received = int(sent), int(received)
        inside = events[bisect.bisect_left(times, sent):bisect.bisect_right(times, received)]
        first: dict[str, tuple[int, int]] = {"client-sent": (sent, 0), "client-received": (received, 0)}
        for t, stage, fd in inside:
            first.setdefault(stage, (t, fd))
        if not {"read", "parsed0", "receive0", "save0", "statement0", "statement1", "broadcast0"} <= first.keys():
            continue  # e.g. a move that went to the database thread
        mover_fd = first["read"][1]
        written = [t for t, stage, fd in inside if stage == "write" and fd != mover_fd and t > first["broadcast0"][0]]
        if not written:
            continue
        first["other-written"] = (written[0], 0)
        move = {label: (first[b][0] - first[a][0]) / 1e6 for label, a, b in STAGES}
        move["the other seat has the move"] = (received - sent) / 1e6
        moves.append(move)
    return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=800, help="moves, one after another (at most 990)")
    parser.add_argument("--gap-ms", type=float, default=5, help="pause between moves")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    args = parser.parse_args()
    why = services_reachable(args.database_url, args.redis_url)
    if why:
        print(f"SKIPPED: the traced Daphne runs on PostgreSQL + Redis here: {why}")
        return 0
    modules = ensure_boardgameio()  # its node_modules carry `ws` for the driver
    if modules is None:
        print("SKIPPED: node and npm are needed for the driver")
        return 0
    prepare_database(args.database_url)
    flush_redis(args.redis_url)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stages.txt"
        with processes() as started:
            daphne = start_daphne({"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url, "STAGES_OUT": str(out)},
                                  launcher=[PYTHON, str(TRACED)])
            started.append(daphne)
            base = f"ws://127.0.0.1:{daphne.port}"
            code, tokens = toy_game(f"http://127.0.0.1:{daphne.port}")
            drive(modules, ["junction", base, code, *tokens, "50", str(args.gap_ms), "0"])  # warm up
            code, tokens = toy_game(f"http://127.0.0.1:{daphne.port}")
            result = drive(modules, ["junction", base, code, *tokens, str(args.moves), str(args.gap_ms), "0"])
        events = sorted((int(t), stage, int(fd)) for stage, t, fd in (line.split() for line in out.read_text().splitlines()))
    moves = moves_by_stage(events, result["stamps"])
    print(f"one Daphne (stamped), PostgreSQL + Redis, toy game, {args.moves} moves {args.gap_ms} ms apart; "
          f"{len(moves)} moves with every stamp")
    print(f"{'stage (ms)':52}{'p50':>8}{'p90':>8}{'p99':>8}")
    for label in moves[0]:
        values = [m[label] for m in moves]
        print(f"{label:52}{percentile(values, 50):8.3f}{percentile(values, 90):8.3f}{percentile(values, 99):8.3f}")
    moves.sort(key=lambda m: m["the other seat has the move"])
    tail, middle = moves[-max(1, len(moves) // 50):], moves[len(moves) // 2 - 20: len(moves) // 2 + 20]
    print(f"\nthe slowest 2 % of moves ({len(tail)}) against the middle 40, mean ms per stage")
    print(f"{'stage':52}{'slowest':>8}{'middle':>8}{'more':>8}")
    for label in moves[0]:
        slow, mid = (sum(m[label] for m in ms) / len(ms) for ms in (tail, middle))
        print(f"{label:52}{slow:8.3f}{mid:8.3f}{slow - mid:+8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
