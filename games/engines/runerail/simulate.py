"""Runerail simulator: whole bot games through the real rules, and what came of them.

    .venv/bin/python -m games.engines.runerail.simulate [--games 20] [--bots planner,random]
        [--seed 1] [--max-steps 20000] [--option turn_order=seated ...] [--json]

Every seat plays the bot named for it (``--bots planner,random`` is a two-player game; ``--bots
planner*4`` four planners). Game ``i`` is played with seed ``seed + i``; the bots' random choices come
from ``random.Random(seed + i)``, so any game is replayed by its seed. A game stops when the rules end
it (a win: 7 of the 8 majors and 250 gold) or after ``--max-steps`` commands (``unfinished``; Runerail
has no round limit).

Prints, per bot, how often it won, and the games' rounds, gold and deliveries; ``--json`` prints every
game's summary instead.
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
from . import data
from .bots import BOTS, choose
from .rules import Runerail

ENGINE = Runerail()
MAX_STEPS = 20_000
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def bot_command(state: dict[str, Any], *, seat: int, bot: str, rng: random.Random) -> dict[str, Any]:
    """The engine's ``bot_command`` once it has one for these bots, else the bots' ``choose`` directly."""
    if "bot_command" in type(ENGINE).__dict__:
        return ENGINE.bot_command(state, seat=seat, bot=bot, rng=rng)
    return choose(ENGINE, state, seat=seat, bot=bot, rng=rng)


def play_game(bots: list[str], *, seed: int, options: dict[str, Any] | None = None, max_steps: int = MAX_STEPS,
              log: list[dict[str, Any]] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one game, ``bots[seat]`` in each seat. Returns (summary, final state); raises RuntimeError
    if a bot sends a command the engine refuses. ``log`` collects ``{"seat", "command"}`` per step."""
    state = ENGINE.setup(players=NAMES[: len(bots)], options=dict(options or {}), seed=seed)
    chooser = random.Random(seed)
    deliveries = [0] * len(bots)
    payouts = [0] * len(bots)
    steps = 0
    while not state["finished"] and steps < max_steps:
        seat = ENGINE.active_seats(state)[0]
        command = bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
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
                deliveries[e["seat"]] += 1
                payouts[e["seat"]] += e["payout"]
    core = data.core()
    summary = {
        "seed": seed,
        "bots": list(bots),
        "finished": state["finished"],
        "end_reason": state["end_reason"] if state["finished"] else "unfinished",
        "winners": list(state["winners"]),
        "rounds": state["round"],
        "steps": steps,
        "gold": [p["gold"] for p in state["players"]],
        "majors": [len(core.majors_connected(state["rail"], p["seat"])) for p in state["players"]],
        "sections": [sum(1 for o in state["rail"]["track"].values() if o == p["seat"]) for p in state["players"]],
        "locos": [p["loco"] for p in state["players"]],
        "foremen": [p["foreman"] for p in state["players"]],
        "deliveries": deliveries,
        "payouts": payouts,
    }
    return summary, state


def simulate(bots: list[str], *, games: int = 20, seed: int = 1, options: dict[str, Any] | None = None,
             max_steps: int = MAX_STEPS) -> list[dict[str, Any]]:
    """Summaries of ``games`` games with seeds ``seed``, ``seed + 1``, ..."""
    return [play_game(bots, seed=seed + i, options=options, max_steps=max_steps)[0] for i in range(games)]


def report(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rates per bot name and the games' figures."""
    by_bot: dict[str, dict[str, float]] = {}
    for s in summaries:
        for seat, bot in enumerate(s["bots"]):
            row = by_bot.setdefault(bot, {"seats": 0, "wins": 0, "gold": 0, "deliveries": 0})
            row["seats"] += 1
            row["wins"] += seat in s["winners"]
            row["gold"] += s["gold"][seat]
            row["deliveries"] += s["deliveries"][seat]
    rounds = [s["rounds"] for s in summaries if s["finished"]]
    reasons: dict[str, int] = {}
    for s in summaries:
        reasons[s["end_reason"]] = reasons.get(s["end_reason"], 0) + 1
    return {
        "games": len(summaries),
        "end_reasons": reasons,
        "unfinished": [s["seed"] for s in summaries if not s["finished"]],
        "rounds": {"median": statistics.median(rounds), "min": min(rounds), "max": max(rounds),
                   "mean": round(statistics.fmean(rounds), 1)} if rounds else {},
        "bots": {
            bot: {"seats": int(r["seats"]), "wins": int(r["wins"]),
                  "win_rate_per_seat": round(r["wins"] / r["seats"], 3),
                  "mean_gold": round(r["gold"] / r["seats"], 1),
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="planner,random",
                        help="the bot of each seat, comma-separated; 'planner*3' repeats (default planner,random)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. turn_order=seated (repeatable)")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS)
    parser.add_argument("--json", action="store_true", help="print every game's summary as JSON lines")
    args = parser.parse_args(argv)
    bots = _bots(args.bots)
    unknown = sorted(set(bots) - set(BOTS))
    if unknown:
        parser.error(f"unknown bot(s) {', '.join(unknown)}; Runerail has {', '.join(BOTS)}")
    if not ENGINE.min_players <= len(bots) <= ENGINE.max_players:
        parser.error(f"{len(bots)} seats; Runerail takes {ENGINE.min_players} to {ENGINE.max_players}")
    options = dict(_option(o) for o in args.option)
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
            print(json.dumps(summary, sort_keys=True), flush=True)
    elapsed = time.perf_counter() - start
    if args.json:
        return 0
    rep = report(summaries)
    print(f"Runerail: {rep['games']} games of {', '.join(bots)}"
          f"{' with ' + json.dumps(options, sort_keys=True) if options else ''} in {elapsed:.1f} s")
    print(f"  ended: {', '.join(f'{k} {v}' for k, v in sorted(rep['end_reasons'].items()))}"
          f"{' (unfinished seeds: ' + ', '.join(map(str, rep['unfinished'])) + ')' if rep['unfinished'] else ''}")
    r = rep["rounds"]
    if r:
        print(f"  rounds of the finished games: median {r['median']}, mean {r['mean']}, min {r['min']}, max {r['max']}")
    for bot, row in rep["bots"].items():
        print(f"  {bot:>8}: {row['wins']} wins over {row['seats']} seats ({100 * row['win_rate_per_seat']:.0f} %), "
              f"mean gold {row['mean_gold']}, {row['mean_deliveries']} deliveries per seat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
