"""Resourceful Rails simulator: whole bot games through the real rules, and what came of them.

    .venv/bin/python -m games.engines.resourceful_rails.simulate [--games 20] [--bots planner,random]
        [--seed 1] [--round-limit 0] [--option fast_trains=true ...] [--json]

Every seat plays the bot named for it (``--bots planner,random`` is a two-player game; ``--bots
planner*4`` four planners). Game ``i`` is played with seed ``seed + i``; the bots' random choices come
from ``random.Random(seed + i)``, so any game is replayed by its seed. A game stops when the rules end
it (a win, or the round limit: most cash wins) or after ``--max-steps`` commands (``unfinished``).

Prints, per bot, how often it won (a shared win counts for each winner), and the games' rounds, cash
and deliveries; ``--json`` prints every game's summary instead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from ..base import RulesError
from . import ENGINE

MAX_STEPS = 40_000
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def play_game(bots: list[str], *, seed: int, options: dict[str, Any] | None = None, max_steps: int = MAX_STEPS,
              log: list[dict[str, Any]] | None = None, timings: list[float] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one game, ``bots[seat]`` in each seat. Returns (summary, final state). ``log`` collects
    ``{"seat", "command"}`` per step; ``timings`` each bot call's seconds."""
    state = ENGINE.setup(players=NAMES[: len(bots)], options=dict(options or {}), seed=seed)
    chooser = random.Random(seed)
    deliveries = [0] * len(bots)
    payouts = [0] * len(bots)
    steps = 0
    clock = time.perf_counter
    while not state["finished"] and steps < max_steps:
        seat = ENGINE.active_seats(state)[0]
        t0 = clock()
        command = ENGINE.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
        if timings is not None:
            timings.append(clock() - t0)
        try:
            events = ENGINE.apply(state, seat=seat, command=command)
        except RulesError as exc:
            raise RuntimeError(f"seed {seed}: bot {bots[seat]!r} (seat {seat}) sent a refused command "
                               f"{command!r}: {exc.code}: {exc}") from exc
        if log is not None:
            log.append({"seat": seat, "command": command})
        steps += 1
        for e in events:
            if e["type"] == "delivered":
                deliveries[seat] += 1
                payouts[seat] += e["payout"]
    core = ENGINE_CORE()
    summary = {
        "seed": seed,
        "bots": list(bots),
        "options": {k: v for k, v in state["options"].items() if v != _DEFAULTS[k]},
        "finished": state["finished"],
        "end_reason": state["end_reason"] if state["finished"] else "unfinished",
        "winners": list(state["winners"]),
        "rounds": state["round"],
        "steps": steps,
        "cash": [p["cash"] for p in state["players"]],
        "majors": [len(core.majors_connected(state["rail"], p["seat"])) for p in state["players"]],
        "sections": [sum(1 for o in state["rail"]["track"].values() if o == p["seat"]) for p in state["players"]],
        "trains": [p["train"] for p in state["players"]],
        "deliveries": deliveries,
        "payouts": payouts,
    }
    return summary, state


def ENGINE_CORE() -> Any:  # noqa: N802 - the shared rail core of the title
    from . import data

    return data.core()


_DEFAULTS = {o.name: o.default for o in ENGINE.options}


def simulate(bots: list[str], *, games: int = 20, seed: int = 1, options: dict[str, Any] | None = None,
             max_steps: int = MAX_STEPS) -> list[dict[str, Any]]:
    """Summaries of ``games`` games with seeds ``seed``, ``seed + 1``, ..."""
    return [play_game(bots, seed=seed + i, options=options, max_steps=max_steps)[0] for i in range(games)]


def report(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rates per bot name and the games' figures."""
    by_bot: dict[str, dict[str, float]] = {}
    for s in summaries:
        for seat, bot in enumerate(s["bots"]):
            row = by_bot.setdefault(bot, {"seats": 0, "wins": 0, "cash": 0, "deliveries": 0})
            row["seats"] += 1
            row["wins"] += seat in s["winners"]
            row["cash"] += s["cash"][seat]
            row["deliveries"] += s["deliveries"][seat]
    rounds = [s["rounds"] for s in summaries]
    reasons: dict[str, int] = {}
    for s in summaries:
        reasons[s["end_reason"]] = reasons.get(s["end_reason"], 0) + 1
    return {
        "games": len(summaries),
        "end_reasons": reasons,
        "rounds": {"median": statistics.median(rounds), "min": min(rounds), "max": max(rounds),
                   "mean": round(statistics.fmean(rounds), 1)} if rounds else {},
        "bots": {
            bot: {"seats": int(r["seats"]), "wins": int(r["wins"]),
                  "win_rate_per_seat": round(r["wins"] / r["seats"], 3),
                  "mean_cash": round(r["cash"] / r["seats"], 1),
                  "mean_deliveries": round(r["deliveries"] / r["seats"], 1)}
            for bot, r in sorted(by_bot.items())
        },
    }


def _bots(text: str) -> list[str]:
    out: list[str] = []
    for part in text.split(","):
        name, _, count = part.strip().partition("*")
        out.extend([name] * (int(count) if count else 1))
    return out


def _option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="planner,random",
                        help="the bot of each seat, comma-separated; 'planner*3' repeats (default planner,random)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round-limit", type=int, default=0, help="end after this many rounds (0: play to a win)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. fast_trains=true (repeatable)")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS)
    parser.add_argument("--json", action="store_true", help="print every game's summary as JSON lines")
    args = parser.parse_args(argv)
    bots = _bots(args.bots)
    unknown = sorted(set(bots) - set(ENGINE.bots))
    if unknown:
        parser.error(f"unknown bot(s) {', '.join(unknown)}; this title has {', '.join(ENGINE.bots)}")
    if not ENGINE.min_players <= len(bots) <= ENGINE.max_players:
        parser.error(f"{len(bots)} seats; Resourceful Rails takes {ENGINE.min_players} to {ENGINE.max_players}")
    options = dict(_option(o) for o in args.option)
    if args.round_limit:
        options["round_limit"] = args.round_limit
    try:
        ENGINE.normalize_options(options)
    except RulesError as exc:
        parser.error(str(exc))
    start = time.perf_counter()
    summaries = []
    for i in range(args.games):
        summary, _state = play_game(bots, seed=args.seed + i, options=options, max_steps=args.max_steps)
        summaries.append(summary)
        if args.json:
            print(json.dumps(summary, sort_keys=True))
    elapsed = time.perf_counter() - start
    if args.json:
        return 0
    rep = report(summaries)
    print(f"Resourceful Rails: {rep['games']} games of {', '.join(bots)}"
          f"{' with ' + json.dumps(options, sort_keys=True) if options else ''} in {elapsed:.1f} s")
    print(f"  ended: {', '.join(f'{k} {v}' for k, v in sorted(rep['end_reasons'].items()))}")
    r = rep["rounds"]
    print(f"  rounds: median {r['median']}, mean {r['mean']}, min {r['min']}, max {r['max']}")
    for bot, row in rep["bots"].items():
        print(f"  {bot:>8}: {row['wins']} wins over {row['seats']} seats ({100 * row['win_rate_per_seat']:.0f} %), "
              f"mean cash ${row['mean_cash']}, {row['mean_deliveries']} deliveries per seat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
