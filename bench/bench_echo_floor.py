"""Benchmark: the WebSocket servers' own floor, Daphne vs Node, with no application at all.

A bare echo on each (bench/echo/asgi_echo.py under Daphne, bench/echo/server.js on Node's
``ws``), the same Node client sending a command-sized frame and waiting for it back, frames a
few milliseconds apart as in the latency bench, rounds alternating. What it shows: how much of
Junction's move latency (bench_latency_vs_boardgameio.py) is Daphne's frame handling in and out
rather than the write path.

    .venv/bin/python bench/bench_echo_floor.py [--frames 500] [--gap-ms 5] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, PYTHON, ROOT, Proc, ensure_boardgameio, free_port, processes, summary  # noqa: E402

ECHO = ROOT / "bench" / "echo"


def start(name: str, argv: list[str], port: int, env: dict[str, str]) -> Proc:
    import socket
    import time

    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"echo-{name}-{port}.log"
    proc = subprocess.Popen(argv, cwd=ECHO, env={**os.environ, **env}, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return Proc(name, proc, port, log)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{name} did not come up")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500, help="round trips per round")
    parser.add_argument("--gap-ms", type=float, default=5, help="pause between round trips")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds per server")
    args = parser.parse_args()
    modules = ensure_boardgameio()  # its node_modules carry `ws`
    if modules is None:
        print("SKIPPED: node and npm are needed")
        return 0
    node_env = {"NODE_PATH": str(modules)}
    lat: dict[str, list[float]] = {"daphne": [], "node ws": []}
    with processes() as started:
        daphne_port, node_port = free_port(), free_port()
        started.append(start("daphne", [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(daphne_port),
                                        "asgi_echo:application"], daphne_port, {"PYTHONPATH": str(ECHO)}))
        started.append(start("node", ["node", "server.js", str(node_port)], node_port, node_env))
        for _ in range(args.rounds):
            for name, url in (("node ws", f"ws://127.0.0.1:{node_port}"), ("daphne", f"ws://127.0.0.1:{daphne_port}/")):
                out = subprocess.run(["node", str(ECHO / "client.js"), url, str(args.frames), str(args.gap_ms)],
                                     env={**os.environ, **node_env}, capture_output=True, text=True, timeout=600)
                if out.returncode:
                    raise RuntimeError(f"client failed: {out.stderr[-2000:]}")
                lat[name] += json.loads(out.stdout.strip().splitlines()[-1])["lat"]
    print(f"bare WebSocket echo, {args.rounds} rounds x {args.frames} round trips ({args.gap_ms} ms apart), same Node client")
    print(f"{'':10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    figures = {name: summary(values) for name, values in lat.items()}
    for name, s in figures.items():
        print(f"{name:10}{s['p50']:9.3f}{s['p99']:9.3f}{s['max']:9.3f}")
    d, n = figures["daphne"], figures["node ws"]
    print(f"Daphne - Node: p50 {d['p50'] - n['p50']:+.3f} ms  p99 {d['p99'] - n['p99']:+.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
