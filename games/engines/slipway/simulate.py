"""Slipway's simulator: whole bot games through the real rules, and what came of them.

    .venv/bin/python -m games.engines.slipway.simulate [--games 20] [--players 2|3|4]
        [--bots shipwright,random] [--seed 1] [--option name=value ...] [--components] [--quiet] [--json]

``--bots`` names the bot of each seat, comma-separated (``shipwright*2,random`` repeats); when it names
fewer seats than ``--players``, its last bot fills the rest (``--players 4 --bots shipwright,random`` is
one shipwright and three random bots). Game ``i`` is played with seed ``seed + i`` and the bots' random
choices come from ``random.Random(seed + i)``, so every game is replayed by its seed. The engine deals
the turn order at random, so a seat is not a turn position: the report gives the win share by both.

Prints a line per game (``--quiet``: none) and a summary: win share by bot, by seat and by turn
position (a shared win counts for each winner), scores (mean, min, max; the spread winner minus last),
game length in turns and commands, end reasons (``queue``: the countdown ran out; ``stack``: a ship
part's supply did), ships launched and lost per player, and bot games per second; ``--components``
adds each contract's and employee's figures. ``--json`` prints
every game's summary as a JSON line instead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from ..base import RulesError
from . import ENGINE, data

NAMES = ["Ann", "Bo", "Cy", "Di"]
MAX_STEPS = 5_000  # far above any real game (150–500 commands): a bot stuck in a loop is reported, not run forever
Summary = dict[str, Any]


def lineup(text: str, players: int | None = None) -> list[str]:
    """The bot of each seat from ``"shipwright*2,random"``; the last one fills up to ``players`` seats."""
    bots: list[str] = []
    for part in text.split(","):
        name, _, count = part.strip().partition("*")
        bots.extend([name] * (int(count) if count else 1))
    if players is not None:
        bots = bots[:players] + [bots[-1]] * max(0, players - len(bots))
    return bots


def play_game(bots: list[str], *, seed: int, options: dict[str, Any] | None = None,
              log: list[dict[str, Any]] | None = None, timings: list[float] | None = None) -> tuple[Summary, dict]:
    """One game, ``bots[seat]`` in each seat. Returns (summary, final state); raises RuntimeError when a
    bot sends a command the engine refuses. ``log`` collects ``{"seat", "command"}`` per command;
    ``timings`` each bot call's seconds."""
    state = ENGINE.setup(players=NAMES[: len(bots)], options=dict(options or {}), seed=seed)
    dealt = [sorted(p["contracts"]) for p in state["players"]]
    chooser = random.Random(seed)
    steps = 0
    clock = time.perf_counter
    while not state["finished"] and steps < MAX_STEPS:
        seat = ENGINE.active_seats(state)[0]
        t0 = clock()
        command = ENGINE.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
        if timings is not None:
            timings.append(clock() - t0)
        try:
            ENGINE.apply(state, seat=seat, command=command)
        except RulesError as exc:
            raise RuntimeError(f"seed {seed}: bot {bots[seat]!r} (seat {seat}) sent a refused command "
                               f"{command!r}: {exc.code}: {exc}") from exc
        if log is not None:
            log.append({"seat": seat, "command": command})
        steps += 1
    players = state["players"]
    scores = state["scores"] or ENGINE.scores(state)
    summary = {
        "seed": seed,
        "bots": list(bots),
        "options": {k: v for k, v in state["options"].items() if v != _defaults().get(k)},
        "finished": state["finished"],
        "end_reason": state["end"]["reason"] if state["finished"] and state["end"] else
        ("unfinished" if not state["finished"] else "none"),
        "order": list(state["order"]),
        "winners": list(state["winners"]),
        "scores": [s["total"] for s in scores],
        "cruise_points": [s["cruises"] for s in scores],
        "contract_points": [s["contracts"] for s in scores],
        "trader_points": [s["traders"] for s in scores],
        "money": [p["money"] for p in players],
        "turns": state["turn_no"],
        "commands": steps,
        "launched": [len(p["fleet"]) for p in players],
        "lost": [len(p["lost"]) for p in players],
        "speeds": [[s["speed"] for s in p["fleet"]] for p in players],
        "contracts_dealt": dealt,
        "contracts_kept": [dict(sorted(s["contract_points"].items())) for s in scores],
        # each seat's best ship's share of its total (what says whether one ship carries a player's game)
        "best_ship_share": [round(max((f["score"]["total"] for f in p["fleet"]), default=0) / s["total"], 3)
                            if s["total"] > 0 else 0.0 for p, s in zip(players, scores, strict=True)],
        "employees": [list(p["employees"]) for p in players],
    }
    return summary, state


def _defaults() -> dict[str, Any]:
    return {o.name: o.default for o in ENGINE.options}


def simulate(bots: list[str], *, games: int = 20, seed: int = 1, options: dict[str, Any] | None = None) -> list[Summary]:
    """Summaries of ``games`` games with seeds ``seed``, ``seed + 1``, ..."""
    return [play_game(bots, seed=seed + i, options=options)[0] for i in range(games)]


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {"mean": round(statistics.fmean(values), 1), "min": min(values), "max": max(values)}


def _speeds(speeds: list[int]) -> dict[str, float]:
    """The launched ships' speeds: mean, and the share of steamers (speed 4 or more)."""
    if not speeds:
        return {}
    return {"mean": round(statistics.fmean(speeds), 2), "steamers": round(sum(v >= 4 for v in speeds) / len(speeds), 3)}


def report(summaries: list[Summary], elapsed: float | None = None) -> dict[str, Any]:
    """What the games say: win shares, scores, length, end reasons, ships (see the module's docstring)."""
    n_games = len(summaries)
    by_bot: dict[str, dict[str, float]] = {}
    seats = max((len(s["bots"]) for s in summaries), default=0)
    seat_wins = [0] * seats
    position_wins = [0] * seats
    reasons: dict[str, int] = {}
    for s in summaries:
        reasons[s["end_reason"]] = reasons.get(s["end_reason"], 0) + 1
        for seat, bot in enumerate(s["bots"]):
            row = by_bot.setdefault(bot, {"seats": 0, "wins": 0, "score": 0, "launched": 0, "lost": 0})
            won = seat in s["winners"]
            row["seats"] += 1
            row["wins"] += won
            row["score"] += s["scores"][seat]
            row["launched"] += s["launched"][seat]
            row["lost"] += s["lost"][seat]
            seat_wins[seat] += won
            position_wins[s["order"].index(seat)] += won
    scores = [x for s in summaries for x in s["scores"]]
    spreads = [max(s["scores"]) - min(s["scores"]) for s in summaries]
    players = sum(len(s["bots"]) for s in summaries)
    out: dict[str, Any] = {
        "games": n_games,
        "end_reasons": dict(sorted(reasons.items())),
        "bots": {
            bot: {"seats": int(r["seats"]), "wins": int(r["wins"]), "win_share": round(r["wins"] / r["seats"], 3),
                  "mean_score": round(r["score"] / r["seats"], 1), "launched": round(r["launched"] / r["seats"], 2),
                  "lost": round(r["lost"] / r["seats"], 2)}
            for bot, r in sorted(by_bot.items())
        },
        "win_share_by_seat": [round(w / n_games, 3) for w in seat_wins] if n_games else [],
        "win_share_by_position": [round(w / n_games, 3) for w in position_wins] if n_games else [],
        "scores": _spread(scores),
        "spread": _spread(spreads),
        "turns": _spread([s["turns"] for s in summaries]),
        "commands": _spread([s["commands"] for s in summaries]),
        "launched_per_player": round(sum(map(sum, (s["launched"] for s in summaries))) / players, 2) if players else 0,
        "lost_per_player": round(sum(map(sum, (s["lost"] for s in summaries))) / players, 2) if players else 0,
        "points_by_source": {key: round(sum(map(sum, (s[f"{key}_points"] for s in summaries))) / players, 2)
                             if players else 0 for key in ("cruise", "contract", "trader")},
        "ship_speeds": _speeds([v for s in summaries for seat in s["speeds"] for v in seat]),
        "launched_spread": _spread([x for s in summaries for x in s["launched"]]),
        "one_ship_over_40": round(sum(x > 0.4 for s in summaries for x in s["best_ship_share"]) / players, 3)
        if players else 0,
    }
    out["components"] = components(summaries)
    if elapsed is not None:
        out["games_per_second"] = round(n_games / elapsed, 2) if elapsed > 0 else None
    return out


def components(summaries: list[Summary]) -> dict[str, Any]:
    """Per contract: how often dealt and kept (``kept_share``: of the player-games it was dealt in), its mean
    points when kept, that mean against the mean of every kept contract (``vs_average``), and its holders' win
    share; per employee: the times hired, the share of games in which someone hired it (``games_share``) and
    its holders' win share (what says whether a component is dead or dominates)."""
    contracts: dict[str, list[float]] = {c: [0, 0, 0, 0] for c in data.contracts()}
    employees: dict[str, list[float]] = {e: [0, 0, 0] for e in data.employees()}
    for s in summaries:
        hired_here: set[str] = set()
        for seat, kept in enumerate(s["contracts_kept"]):
            won = 1.0 if seat in s["winners"] else 0.0
            for c in s.get("contracts_dealt", [[]] * len(s["bots"]))[seat]:
                contracts[c][3] += 1
            for c, pts in kept.items():
                row = contracts[c]
                row[0] += 1
                row[1] += pts
                row[2] += won
            for e in s["employees"][seat]:
                row = employees[e]
                row[0] += 1
                row[1] += won
                hired_here.add(e)
        for e in hired_here:
            employees[e][2] += 1
    kept_all = sum(r[0] for r in contracts.values())
    average = sum(r[1] for r in contracts.values()) / kept_all if kept_all else 0.0
    n_games = len(summaries)
    return {
        "contracts": {c: {"dealt": int(d), "kept": int(n), "kept_share": round(n / d, 3) if d else 0.0,
                          "mean_points": round(p / n, 2) if n else 0.0,
                          "vs_average": round(p / n / average, 2) if n and average else 0.0,
                          "win_share": round(w / n, 3) if n else 0.0}
                      for c, (n, p, w, d) in sorted(contracts.items())},
        "contract_average": round(average, 2),
        "employees": {e: {"hired": int(n), "games_share": round(g / n_games, 3) if n_games else 0.0,
                          "win_share": round(w / n, 3) if n else 0.0}
                      for e, (n, w, g) in sorted(employees.items())},
    }


def game_line(s: Summary) -> str:
    seats = " ".join(f"{bot}={score}{'*' if seat in s['winners'] else ''}"
                     f"({s['launched'][seat]}/{s['lost'][seat]})" for seat, (bot, score)
                     in enumerate(zip(s["bots"], s["scores"], strict=True)))
    return (f"  seed {s['seed']:>4}: {seats}  end {s['end_reason']}, {s['turns']} turns, "
            f"{s['commands']} commands, order {','.join(map(str, s['order']))}")


def print_report(rep: dict[str, Any], *, components: bool = False) -> None:
    def mmm(d: dict[str, float]) -> str:
        return f"mean {d['mean']}, min {d['min']}, max {d['max']}" if d else "-"

    print(f"  ended: {', '.join(f'{k} {v}' for k, v in rep['end_reasons'].items())}")
    for bot, row in rep["bots"].items():
        print(f"  {bot:>10}: {row['wins']} wins over {row['seats']} seats ({100 * row['win_share']:.0f} %), "
              f"mean score {row['mean_score']}, {row['launched']} ships launched and {row['lost']} lost per seat")
    print(f"  win share by seat         : {' '.join(f'{100 * w:.0f}%' for w in rep['win_share_by_seat'])}")
    print(f"  win share by turn position: {' '.join(f'{100 * w:.0f}%' for w in rep['win_share_by_position'])}")
    print(f"  scores (every player)     : {mmm(rep['scores'])}")
    print(f"  spread (winner minus last): {mmm(rep['spread'])}")
    src = rep["points_by_source"]
    print(f"  points per player by source: cruises {src['cruise']}, contracts {src['contract']}, "
          f"traders {src['trader']}")
    print(f"  length: turns {mmm(rep['turns'])}; commands {mmm(rep['commands'])}")
    speeds = rep["ship_speeds"]
    print(f"  ships per player: {rep['launched_per_player']} launched ({mmm(rep['launched_spread'])}), "
          f"{rep['lost_per_player']} lost"
          + (f"; speed {speeds['mean']} on average, {100 * speeds['steamers']:.0f} % of 4 or more" if speeds else ""))
    print(f"  one ship over 40 % of its player's points: {100 * rep['one_ship_over_40']:.1f} % of player-games")
    if components:
        comp = rep["components"]
        names = {**{k: v["name"] for k, v in data.contracts().items()}, **{k: v["name"] for k, v in data.employees().items()}}
        print(f"  contracts (dealt, kept, kept share, mean points kept, vs the average kept {comp['contract_average']}, "
              "holders' win share):")
        for c, row in comp["contracts"].items():
            print(f"    {c} {names[c]:<28} {row['dealt']:>5} {row['kept']:>5} {100 * row['kept_share']:>5.1f}% "
                  f"{row['mean_points']:>6} {row['vs_average']:>5}x {100 * row['win_share']:>5.0f}%")
        print("  employees (times hired, share of games hired in, holders' win share):")
        for e, row in comp["employees"].items():
            print(f"    {e} {names[e]:<28} {row['hired']:>5} {100 * row['games_share']:>5.1f}% {100 * row['win_share']:>5.0f}%")
    if rep.get("games_per_second") is not None:
        print(f"  {rep['games_per_second']} bot games per second")


# -- many games: worker processes, a time bound, the single-focus tournament ----------------------------------

Job = tuple[list[str], int, dict[str, Any]]


def _play(job: Job) -> Summary:
    bots, seed, options = job
    return play_game(bots, seed=seed, options=options)[0]


def run_jobs(jobs: list[Job], *, workers: int = 1, time_limit: float | None = None) -> list[Summary]:
    """Every job's summary, in seed order; with ``time_limit`` (seconds) the games not finished by then are
    dropped (a bounded run reports how many it played). ``workers`` > 1 plays them in that many processes."""
    start = time.perf_counter()
    out: list[Summary] = []

    def late() -> bool:
        return time_limit is not None and time.perf_counter() - start > time_limit

    if workers <= 1:
        for job in jobs:
            if late():
                break
            out.append(_play(job))
    else:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers)
        try:
            for summary in pool.imap_unordered(_play, jobs, chunksize=1):
                out.append(summary)
                if late():
                    break
        finally:
            pool.terminate()
            pool.join()
    return sorted(out, key=lambda s: s["seed"])


def tournament_jobs(kind: str, bots: list[str], games: int, seed: int,
                    options: dict[str, Any] | None = None) -> list[Job]:
    """``mixed``: 4-player tables of four different bots, every combination in turn (seats rotated on each
    pass); ``pairs``: two-player games of every pair in turn, seats swapped on each pass. Game ``i`` has seed
    ``seed + i``, so a run cut short by its time bound still has every table about equally often."""
    import itertools

    tables = list(itertools.combinations(bots, 4 if kind == "mixed" else 2))
    jobs: list[Job] = []
    for i in range(games):
        table = list(tables[i % len(tables)])
        turn = (i // len(tables)) % len(table)
        jobs.append((table[turn:] + table[:turn], seed + i, dict(options or {})))
    return jobs


def tournament_report(kind: str, summaries: list[Summary]) -> dict[str, Any]:
    """``mixed``: each bot's win share against its fair share (1 of the table's seats) and the ratio;
    ``pairs``: each pair's games and the first-named bot's share of the two bots' wins (a shared win counts
    for both)."""
    if kind == "mixed":
        rows: dict[str, list[float]] = {}
        for s in summaries:
            for seat, bot in enumerate(s["bots"]):
                row = rows.setdefault(bot, [0, 0, 0.0])
                row[0] += 1
                row[1] += seat in s["winners"]
                row[2] += 1 / len(s["bots"])
        return {"bots": {b: {"seats": int(n), "wins": int(w), "win_share": round(w / n, 3),
                             "vs_fair": round(w / fair, 2) if fair else 0.0}
                         for b, (n, w, fair) in sorted(rows.items(), key=lambda kv: -kv[1][1] / kv[1][0])}}
    pairs: dict[tuple[str, str], list[int]] = {}
    for s in summaries:
        a, b = sorted(s["bots"])
        row = pairs.setdefault((a, b), [0, 0, 0])
        row[0] += 1
        row[1] += s["bots"].index(a) in s["winners"]
        row[2] += s["bots"].index(b) in s["winners"]
    return {"pairs": [{"bots": [a, b], "games": n, "wins": [wa, wb],
                       "share": round(wa / (wa + wb), 3) if wa + wb else 0.5}
                      for (a, b), (n, wa, wb) in sorted(pairs.items())]}


def print_tournament(kind: str, rep: dict[str, Any]) -> None:
    if kind == "mixed":
        print("  mixed 4-player tables (seats, wins, win share, against the fair share 25 %):")
        for bot, row in rep["bots"].items():
            print(f"    {bot:>12} {row['seats']:>5} {row['wins']:>5} {100 * row['win_share']:>5.1f}% {row['vs_fair']:>5}x")
        return
    print("  two-player round robin (games, wins of each, the first's share of the two's wins):")
    for row in rep["pairs"]:
        a, b = row["bots"]
        print(f"    {a:>12} v {b:<12} {row['games']:>4} {row['wins'][0]:>4}-{row['wins'][1]:<4} {100 * row['share']:>5.1f}%")


def _option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    try:
        return name, int(value)
    except ValueError:
        return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Slipway simulator: whole bot games through the real rules.")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=None, help="seats (default: as many as --bots names)")
    parser.add_argument("--bots", default="shipwright,random",
                        help="the bot of each seat, comma-separated; 'shipwright*3' repeats; the last fills up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. stack_end=final-round (repeatable)")
    parser.add_argument("--components", action="store_true", help="also contracts' and employees' figures")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    parser.add_argument("--json", action="store_true", help="print every game's summary as JSON lines")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (at most 2 on a shared machine)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="stop after this long and report the games played by then")
    parser.add_argument("--tournament", choices=("mixed", "pairs"), default=None,
                        help="the single-focus tournament: 'mixed' 4-player tables of different bots, 'pairs' a "
                             "two-player round robin; --bots names the entrants (default: the shipwright and every "
                             "single-focus bot)")
    args = parser.parse_args(argv)
    if args.tournament:
        from .bots import FOCUS_BOTS

        entrants = lineup(args.bots) if args.bots != parser.get_default("bots") else ["shipwright", *FOCUS_BOTS]
        options = dict(_option(o) for o in args.option)
        jobs = tournament_jobs(args.tournament, entrants, args.games, args.seed, options)
        start = time.perf_counter()
        summaries = run_jobs(jobs, workers=args.workers, time_limit=args.time_limit)
        elapsed = time.perf_counter() - start
        if args.json:
            for summary in summaries:
                print(json.dumps(summary, sort_keys=True))
            return 0
        print(f"Slipway {args.tournament} tournament of {', '.join(entrants)}: {len(summaries)} of {args.games} games "
              f"({elapsed:.0f} s), seeds from {args.seed}")
        print_tournament(args.tournament, tournament_report(args.tournament, summaries))
        print_report(report(summaries, elapsed), components=args.components)
        return 0
    bots = lineup(args.bots, args.players)
    unknown = sorted(set(bots) - set(ENGINE.bots))
    if unknown:
        parser.error(f"unknown bot(s) {', '.join(unknown)}; Slipway has {', '.join(ENGINE.bots)}")
    if not ENGINE.min_players <= len(bots) <= ENGINE.max_players:
        parser.error(f"{len(bots)} seats; Slipway takes {ENGINE.min_players} to {ENGINE.max_players}")
    options = dict(_option(o) for o in args.option)
    try:
        ENGINE.normalize_options(options)
    except RulesError as exc:
        parser.error(str(exc))
    print_each = not args.json and not args.quiet
    if not args.json:
        print(f"Slipway: {args.games} games of {', '.join(bots)}"
              f"{' with ' + json.dumps(options, sort_keys=True) if options else ''}, seeds {args.seed}.."
              f"{args.seed + args.games - 1}")
    start = time.perf_counter()
    summaries = []
    if args.workers > 1 or args.time_limit is not None:
        summaries = run_jobs([(bots, args.seed + i, options) for i in range(args.games)], workers=args.workers,
                             time_limit=args.time_limit)
        for summary in summaries:
            if args.json:
                print(json.dumps(summary, sort_keys=True), flush=True)
            elif print_each:
                print(game_line(summary), flush=True)
    else:
        for i in range(args.games):
            summary, _state = play_game(bots, seed=args.seed + i, options=options)
            summaries.append(summary)
            if args.json:
                print(json.dumps(summary, sort_keys=True), flush=True)
            elif print_each:
                print(game_line(summary), flush=True)
    elapsed = time.perf_counter() - start
    if args.json:
        return 0
    print(f"summary ({len(summaries)} of {args.games} games, {elapsed:.1f} s):")
    print_report(report(summaries, elapsed), components=args.components)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
