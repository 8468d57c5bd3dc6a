"""The rail games' simulator: whole bot games through a title's real rules, and what came of them.

Each rail title's ``simulate.py`` makes one :class:`Simulator` for its engine (its money's name, the
per-player facts its summaries add) and exposes its ``play_game``, ``simulate``, ``report`` and ``main``;
``python -m games.engines.<title>.simulate`` runs ``main``:

    [--games 20] [--bots planner,random] [--seed 1] [--max-steps N] [--option name=value ...] [--json]

Every seat plays the bot named for it (``--bots planner,random`` is a two-player game; ``--bots
planner*4`` four planners). Game ``i`` is played with seed ``seed + i``; the bots' random choices come
from ``random.Random(seed + i)``, so any game is replayed by its seed. A game stops when the rules end
it or after ``--max-steps`` commands (``unfinished``). Prints, per bot, how often it won (a shared win
counts for each winner), and the games' rounds, money and deliveries; ``--json`` prints every game's
summary instead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base import Engine, RulesError

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
Summary = dict[str, Any]


@dataclass
class Simulator:
    """Bot games of one rail title. ``money``: the players' money field ("cash", "gold"), also the
    summaries' key; ``money_text``: how the report writes an amount; ``facts``: the title's own
    per-player summary fields (``{"trains": [...]}``) from the final state; ``core``: the title's rail
    core (for the major cities each player joined), or ``core_for(state)`` where a game's board is an option."""

    engine: Engine
    name: str
    money: str
    money_text: Callable[[float], str]
    core: Callable[[], Any]
    facts: Callable[[dict[str, Any]], dict[str, list[Any]]] = lambda state: {}
    core_for: Callable[[dict[str, Any]], Any] | None = None
    max_steps: int = 40_000
    example_option: str = "turn_order=seated"
    # extra command-line flags: (flag, option name, help) for an int option that 0 leaves unset
    int_flags: tuple[tuple[str, str, str], ...] = ()
    defaults: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.defaults = {o.name: o.default for o in self.engine.options}

    def play_game(self, bots: list[str], *, seed: int, options: dict[str, Any] | None = None,
                  max_steps: int | None = None, log: list[dict[str, Any]] | None = None,
                  timings: list[float] | None = None) -> tuple[Summary, dict[str, Any]]:
        """Play one game, ``bots[seat]`` in each seat. Returns (summary, final state); raises RuntimeError
        if a bot sends a command the engine refuses. ``log`` collects ``{"seat", "command"}`` per step;
        ``timings`` each bot call's seconds."""
        engine = self.engine
        limit = self.max_steps if max_steps is None else max_steps
        state = engine.setup(players=NAMES[: len(bots)], options=dict(options or {}), seed=seed)
        chooser = random.Random(seed)
        deliveries = [0] * len(bots)
        payouts = [0] * len(bots)
        steps = 0
        clock = time.perf_counter
        while not state["finished"] and steps < limit:
            seat = engine.active_seats(state)[0]
            t0 = clock()
            command = engine.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
            if timings is not None:
                timings.append(clock() - t0)
            try:
                events = engine.apply(state, seat=seat, command=command)
            except RulesError as exc:
                raise RuntimeError(f"seed {seed}: bot {bots[seat]!r} (seat {seat}) sent a refused command "
                                   f"{command!r}: {exc.code}: {exc}") from exc
            if log is not None:
                log.append({"seat": seat, "command": command})
            steps += 1
            for e in events:
                if e["type"] == "delivered":
                    deliveries[e.get("seat", seat)] += 1
                    payouts[e.get("seat", seat)] += e["payout"]
        core = self.core_for(state) if self.core_for is not None else self.core()
        players = state["players"]
        summary = {
            "seed": seed,
            "bots": list(bots),
            "options": {k: v for k, v in state["options"].items() if v != self.defaults.get(k)},
            "finished": state["finished"],
            "end_reason": state["end_reason"] if state["finished"] else "unfinished",
            "winners": list(state["winners"]),
            "rounds": state["round"],
            "steps": steps,
            self.money: [p[self.money] for p in players],
            "majors": [len(core.majors_connected(state["rail"], p["seat"])) for p in players],
            "sections": [sum(1 for o in state["rail"]["track"].values() if o == p["seat"]) for p in players],
            **self.facts(state),
            "deliveries": deliveries,
            "payouts": payouts,
        }
        return summary, state

    def simulate(self, bots: list[str], *, games: int = 20, seed: int = 1, options: dict[str, Any] | None = None,
                 max_steps: int | None = None) -> list[Summary]:
        """Summaries of ``games`` games with seeds ``seed``, ``seed + 1``, ..."""
        return [self.play_game(bots, seed=seed + i, options=options, max_steps=max_steps)[0] for i in range(games)]

    def report(self, summaries: list[Summary]) -> dict[str, Any]:
        """Win rates per bot name and the games' figures (rounds: of the finished games)."""
        money = self.money
        by_bot: dict[str, dict[str, float]] = {}
        for s in summaries:
            for seat, bot in enumerate(s["bots"]):
                row = by_bot.setdefault(bot, {"seats": 0, "wins": 0, money: 0, "deliveries": 0})
                row["seats"] += 1
                row["wins"] += seat in s["winners"]
                row[money] += s[money][seat]
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
                      f"mean_{money}": round(r[money] / r["seats"], 1),
                      "mean_deliveries": round(r["deliveries"] / r["seats"], 1)}
                for bot, r in sorted(by_bot.items())
            },
        }

    def main(self, argv: list[str] | None = None) -> int:
        engine = self.engine
        parser = argparse.ArgumentParser(description=f"{self.name} simulator: whole bot games through the real "
                                                     "rules, and what came of them.")
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--bots", default="planner,random",
                            help="the bot of each seat, comma-separated; 'planner*3' repeats (default planner,random)")
        parser.add_argument("--seed", type=int, default=1)
        for flag, _option_name, text in self.int_flags:
            parser.add_argument(flag, type=int, default=0, help=text)
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                            help=f"a game option, e.g. {self.example_option} (repeatable)")
        parser.add_argument("--max-steps", type=int, default=self.max_steps)
        parser.add_argument("--json", action="store_true", help="print every game's summary as JSON lines")
        args = parser.parse_args(argv)
        bots = _bots(args.bots)
        unknown = sorted(set(bots) - set(engine.bots))
        if unknown:
            parser.error(f"unknown bot(s) {', '.join(unknown)}; {self.name} has {', '.join(engine.bots)}")
        if not engine.min_players <= len(bots) <= engine.max_players:
            parser.error(f"{len(bots)} seats; {self.name} takes {engine.min_players} to {engine.max_players}")
        options = dict(_option(o) for o in args.option)
        for flag, option_name, _text in self.int_flags:
            value = getattr(args, flag.lstrip("-").replace("-", "_"))
            if value:
                options[option_name] = value
        try:
            engine.normalize_options(options)
        except RulesError as exc:
            parser.error(str(exc))
        start = time.perf_counter()
        summaries = []
        for i in range(args.games):
            summary, _state = self.play_game(bots, seed=args.seed + i, options=options, max_steps=args.max_steps)
            summaries.append(summary)
            if args.json:
                print(json.dumps(summary, sort_keys=True), flush=True)
        elapsed = time.perf_counter() - start
        if args.json:
            return 0
        rep = self.report(summaries)
        print(f"{self.name}: {rep['games']} games of {', '.join(bots)}"
              f"{' with ' + json.dumps(options, sort_keys=True) if options else ''} in {elapsed:.1f} s")
        unfinished = rep["unfinished"]
        print(f"  ended: {', '.join(f'{k} {v}' for k, v in sorted(rep['end_reasons'].items()))}"
              f"{' (unfinished seeds: ' + ', '.join(map(str, unfinished)) + ')' if unfinished else ''}")
        r = rep["rounds"]
        if r:
            print(f"  rounds of the finished games: median {r['median']}, mean {r['mean']}, min {r['min']}, max {r['max']}")
        for bot, row in rep["bots"].items():
            print(f"  {bot:>8}: {row['wins']} wins over {row['seats']} seats ({100 * row['win_rate_per_seat']:.0f} %), "
                  f"mean {self.money} {self.money_text(row[f'mean_{self.money}'])}, "
                  f"{row['mean_deliveries']} deliveries per seat")
        return 0


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
