"""``manage.py simulate_wood_and_steel``: play many Wood and Steel games with bots and
write what designers want to look at.

Every game goes through the real rules engine (``games.engines.wood_and_steel``) on the
board stored in the ORM, so a game master's edits in admin are what gets simulated.
The bots are ``--bot planner`` (``bot.planner_policy``, the default) or ``--bot simple``
(``simulate.simple_policy``, for comparison). Games have no round limit unless
``--rounds`` sets one; ``--max-steps`` stops a game that never ends (``end_reason``
'unfinished'). Outputs (in ``--out``; with several player counts, ``--out/players-N/``
for each):

- ``games.csv``      one row per game: seed, end round and reason, winners, ties per seat...
- ``contracts.csv``  one row per contract of every game: type, commodity, value, ties, status
- ``indies.csv``     one row per game and round: independent railroads and their sizes
- ``summary.json``   the parameters and the aggregates (the numbers printed at the end)
- ``chart-*.svg``    the aggregates as bar charts (``charts.summary_charts``): game length,
                     winning ties, ties by source, contract values, win share by seat and
                     by turn order, independents per round, what the bots did
- ``svg/game-NNNN.svg`` maps of the first ``--svg-samples`` games

Game ``i`` (1-based) is played with the ``i``-th seed of ``random.Random(seed).sample(range(2**31), games)``
and its seed is in ``games.csv``: ``simulate.play_game(ENGINE, seed=..., rounds=..., bot=...)`` replays it.
The files depend only on the arguments and the board, never on ``--workers``.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import RulesError
from games.engines.wood_and_steel import ENGINE
from games.engines.wood_and_steel.board import board_fingerprint
from games.engines.wood_and_steel.charts import summary_charts
from games.engines.wood_and_steel.simulate import DEFAULT_BOT, MAX_STEPS, play_game, policies, render_svg

MAX_PLAYERS = 6
MAX_ROUNDS = 500  # the engine's max_rounds option allows no more

GAME_COLUMNS = [
    "game", "seed", "players", "finished", "end_round", "end_reason", "winners", "winning_ties",
    "led_from_round", "steps", "contracts", "fulfilled", "railroads_acquired", "start_order",
]
PER_SEAT_COLUMNS = ["ties", "end_bonus", "money", "deliveries", "network", "desirability", "start_route"]
CONTRACT_COLUMNS = ["game", "seed", "contract", "type", "reason", "commodity", "destination", "value", "ties", "status", "holder"]
INDIE_COLUMNS = ["game", "seed", "round", "independents", "routes", "largest", "sizes", "grew"]


# -- one game (also run in worker processes: no Django here) ----------------------------

_WORKER_OPTIONS: dict[str, Any] = {}


def _init_worker(options: dict[str, Any]) -> None:
    _WORKER_OPTIONS.clear()
    _WORKER_OPTIONS.update(options)


def _play(task: tuple[int, int, int, int, bool, str, int]) -> tuple[dict[str, Any], str | None]:
    index, seed, players, rounds, with_svg, bot, max_steps = task
    summary, state = play_game(ENGINE, players=players, rounds=rounds, seed=seed, options=_WORKER_OPTIONS, bot=bot, max_steps=max_steps)
    summary["game"] = index
    return summary, (render_svg(state) if with_svg else None)


def game_seeds(seed: int, games: int) -> list[int]:
    """Distinct per-game seeds drawn from the master seed (seed 1 and seed 2 share no run of games)."""
    return random.Random(seed).sample(range(2**31), games)


# -- aggregates ---------------------------------------------------------------------------


def led_from_round(summary: dict[str, Any]) -> int | None:
    """The round from whose end on the (first) winner always had the most ties in play,
    or None if they were behind at the end of the last full round (won in the final,
    partial round or through end-of-game bonuses)."""
    if not summary["winners"] or not summary["ties_by_round"]:
        return None
    w = summary["winners"][0]
    first = None
    for r, ties in enumerate(summary["ties_by_round"], start=1):
        if ties[w] >= max(ties):
            if first is None:
                first = r
        else:
            first = None
    return first


def _mean(xs: list[float]) -> float | None:
    return round(statistics.fmean(xs), 3) if xs else None


def _histogram(xs) -> dict[str, int]:
    return {str(k): v for k, v in sorted(Counter(xs).items())}


def _spread(xs: list[int]) -> dict[str, Any]:
    """Mean, min, median, 90th and 99th percentile (nearest rank) and max."""
    if not xs:
        return {"mean": None, "min": None, "p50": None, "p90": None, "p99": None, "max": None}
    ys = sorted(xs)

    def rank(q: float) -> int:
        return ys[min(len(ys) - 1, max(0, -(-len(ys) * q // 100) - 1))]

    return {"mean": _mean(ys), "min": ys[0], "p50": rank(50), "p90": rank(90), "p99": rank(99), "max": ys[-1]}


TIE_SOURCES = ("delivery", "breadth", "depth", "west-coast", "connection", "monopoly", "regional-dominance", "challenger", "bankruptcy")


def aggregate(summaries: list[dict[str, Any]], players: int) -> dict[str, Any]:
    games = len(summaries)
    end_rounds = [s["end_round"] for s in summaries if s["end_round"] is not None]
    sources = list(TIE_SOURCES) + sorted({k for s in summaries for seat in s["ties_by_source"] for k in seat} - set(TIE_SOURCES))
    per_player = [seat for s in summaries for seat in s["ties_by_source"]]
    per_winner = [s["ties_by_source"][w] for s in summaries for w in s["winners"]]
    features = sorted({k for s in summaries for k in s["features"]})
    win_counts = [0] * players
    win_share = [0.0] * players  # a shared win counts 1/k for each of the k winners
    start_pos_share = [0.0] * players  # the same by position in round 1's turn order
    for s in summaries:
        for w in s["winners"]:
            win_counts[w] += 1
            win_share[w] += 1 / len(s["winners"])
            if s["start_order"]:
                start_pos_share[s["start_order"].index(w)] += 1 / len(s["winners"])
    contracts = [c for s in summaries for c in s["contracts"]]
    led = [s["led_from_round"] for s in summaries if s["led_from_round"] is not None]
    by_type = {}
    for kind in sorted({c["type"] for c in contracts}):
        values = [c["value"] for c in contracts if c["type"] == kind]
        by_type[kind] = {"count": len(values), "mean_value": _mean(values), "value_histogram": _histogram(values)}
    max_round = max((len(s["indie_sizes"]) for s in summaries), default=0)
    indies = []
    for r in range(max_round):
        rows = [s["indie_sizes"][r]["sizes"] for s in summaries if len(s["indie_sizes"]) > r]
        indies.append(
            {
                "round": r + 1,
                "games": len(rows),
                "mean_independents": _mean([len(x) for x in rows]),
                "mean_routes": _mean([sum(x) for x in rows]),
                "mean_largest": _mean([max(x, default=0) for x in rows]),
            }
        )
    return {
        "games": games,
        "finished": sum(1 for s in summaries if s["finished"]),
        "end_round": {**_spread(end_rounds), "histogram": _histogram(end_rounds)},
        "steps": _spread([s["steps"] for s in summaries]),
        "end_reasons": _histogram(s["end_reason"] for s in summaries),
        "wins": {
            "count_by_seat": win_counts,
            "share_by_seat": [round(x / games, 4) for x in win_share],
            "share_by_start_position": [round(x / games, 4) for x in start_pos_share],
            "shared_wins": sum(1 for s in summaries if len(s["winners"]) > 1),
            "mean_winning_ties": _mean([max(s["ties"]) for s in summaries if s["winners"]]),
            "winning_ties_histogram": _histogram(max(s["ties"]) for s in summaries if s["winners"]),
            "mean_led_from_round": _mean(led),
            "never_led_before_end": games - len(led),
        },
        "ties": {
            "mean_by_seat": [_mean([s["ties"][i] for s in summaries]) for i in range(players)],
            "mean_end_bonus": _mean([b for s in summaries for b in s["end_bonus_ties"]]),
            "by_source": {
                "mean_per_player": {k: _mean([seat.get(k, 0) for seat in per_player]) or 0 for k in sources},
                "mean_per_winner": {k: _mean([seat.get(k, 0) for seat in per_winner]) or 0 for k in sources},
            },
        },
        "features": {
            "games_with": {k: sum(1 for s in summaries if s["features"].get(k)) for k in features},
            "mean_per_game": {k: _mean([s["features"].get(k, 0) for s in summaries]) for k in features},
        },
        "contracts": {
            "count": len(contracts),
            "mean_per_game": _mean([len(s["contracts"]) for s in summaries]),
            "by_status": _histogram(c["status"] for c in contracts),
            "value": {
                "mean": _mean([c["value"] for c in contracts]),
                "min": min((c["value"] for c in contracts), default=None),
                "max": max((c["value"] for c in contracts), default=None),
                "histogram": _histogram(c["value"] for c in contracts),
            },
            "ties_histogram": _histogram(c["ties"] for c in contracts),
            "by_type": by_type,
        },
        "independents": {
            "mean_acquired_per_game": _mean([s["railroads_acquired"] for s in summaries]),
            "per_round": indies,
        },
    }


# -- files --------------------------------------------------------------------------------


def _seat_cells(s: dict[str, Any], players: int) -> list[Any]:
    cells = []
    for col in PER_SEAT_COLUMNS:
        key = {"ties": "ties", "end_bonus": "end_bonus_ties", "money": "money", "deliveries": "deliveries",
               "network": "network_sizes", "desirability": "desirability", "start_route": "start_routes"}[col]
        cells.extend(s[key][i] for i in range(players))
    return cells


def _join(xs) -> str:
    return ";".join(str(x) for x in xs)


def write_outputs(out: Path, summaries: list[dict[str, Any]], svgs: dict[int, str], summary: dict[str, Any], players: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def table(name: str, header: list[str], rows) -> None:
        path = out / name
        with path.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)
        written.append(path)

    seat_header = [f"{col}_seat{i}" for col in PER_SEAT_COLUMNS for i in range(players)]
    table(
        "games.csv",
        GAME_COLUMNS + seat_header,
        (
            [
                s["game"], s["seed"], s["players"], int(s["finished"]), s["end_round"], s["end_reason"], _join(s["winners"]),
                max(s["ties"]) if s["winners"] else "", "" if s["led_from_round"] is None else s["led_from_round"], s["steps"],
                len(s["contracts"]), sum(1 for c in s["contracts"] if c["status"] == "fulfilled"), s["railroads_acquired"],
                _join(s["start_order"] or []),
            ]
            + _seat_cells(s, players)
            for s in summaries
        ),
    )
    table(
        "contracts.csv",
        CONTRACT_COLUMNS,
        (
            [s["game"], s["seed"], c["id"], c["type"], c["reason"], c["commodity"], c["destination"], c["value"], c["ties"], c["status"], "" if c["holder"] is None else c["holder"]]
            for s in summaries
            for c in s["contracts"]
        ),
    )
    table(
        "indies.csv",
        INDIE_COLUMNS,
        (
            [s["game"], s["seed"], row["round"], len(row["sizes"]), sum(row["sizes"]), max(row["sizes"], default=0), _join(row["sizes"]), row["grew"]]
            for s in summaries
            for row in s["indie_sizes"]
        ),
    )
    path = out / "summary.json"
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    written.append(path)
    for old in out.glob("chart-*.svg"):  # charts of an earlier run
        old.unlink()
    for name, svg in summary_charts(summary).items():
        path = out / name
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    svg_dir = out / "svg"
    svg_dir.mkdir(exist_ok=True)
    for old in svg_dir.glob("game-*.svg"):  # maps of an earlier run
        old.unlink()
    for index, svg in sorted(svgs.items()):
        path = svg_dir / f"game-{index:04d}.svg"
        path.write_text(svg + "\n", encoding="utf-8")
        written.append(path)
    return written


# -- the command --------------------------------------------------------------------------


def parse_players(text: str) -> list[int]:
    """'3', '1-6' or '1,3,6' -> the player counts (sorted, distinct)."""
    counts: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise CommandError(f"--players: '{text}' is not a count, a range like 1-6 or a list like 1,3,6.") from None
        if a > b:
            raise CommandError(f"--players: the range '{part}' is empty.")
        counts.update(range(a, b + 1))
    bad = sorted(n for n in counts if not 1 <= n <= MAX_PLAYERS)
    if bad:
        raise CommandError(f"--players must be between 1 and {MAX_PLAYERS} (got {bad[0]}).")
    return sorted(counts)


class Command(BaseCommand):
    help = (
        "Play whole Wood and Steel games through the real rules with bots (--bot planner, the default, or simple) "
        "on a board from the database and write games.csv, contracts.csv, indies.csv, summary.json, charts "
        "(chart-*.svg) and SVG maps of sample games into --out (--out/players-N/ for each of several player counts). "
        "Games have no round limit unless --rounds sets one. A planner game costs about 0.03 s of CPU with 1 player "
        "to 0.12 s with 6 on an idle core; --workers plays games in parallel processes (default: every CPU). "
        "Outputs depend only on the arguments and the board, not on --workers."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", default="3", help=f"Players per game: a count 1-{MAX_PLAYERS}, a range (1-6) or a list (2,4) (default 3).")
        parser.add_argument("--rounds", type=int, default=0, help="Stop a game after this many rounds if nobody reached the target (default 0: no limit, as the rules).")
        parser.add_argument("--games", type=int, default=1000, help="Number of games per player count (default 1000).")
        parser.add_argument("--seed", type=int, default=1, help="Master seed; the same seed and board give identical files (default 1).")
        parser.add_argument("--bot", default=DEFAULT_BOT, choices=sorted(policies()), help=f"The bot in every seat (default {DEFAULT_BOT}).")
        parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help=f"Commands after which a game that has not ended is given up as 'unfinished' (default {MAX_STEPS:,}).")
        parser.add_argument("--out", default="sim-out", help="Output directory, created if missing (default sim-out/, git-ignored).")
        parser.add_argument("--svg-samples", type=int, default=3, help="Write SVG maps of the first N games (default 3; 0 for none).")
        parser.add_argument("--board", default="default", help="'default' (the board marked default in admin) or a board's slug.")
        parser.add_argument(
            "--workers", type=int, default=None,
            help="Processes playing games in parallel (default: the number of CPUs; 1 plays in this process). "
            "Each extra worker costs about half a second to start and one more core.",
        )

    def handle(self, *args, **opts) -> None:
        counts = parse_players(opts["players"])
        rounds, games, seed, bot, max_steps = opts["rounds"], opts["games"], opts["seed"], opts["bot"], opts["max_steps"]
        samples = opts["svg_samples"]
        workers = opts["workers"] if opts["workers"] is not None else (os.cpu_count() or 1)
        if not 0 <= rounds <= MAX_ROUNDS:
            raise CommandError(f"--rounds must be between 0 (no limit) and {MAX_ROUNDS} (got {rounds}).")
        if games < 1:
            raise CommandError(f"--games must be at least 1 (got {games}).")
        if max_steps < 1:
            raise CommandError(f"--max-steps must be at least 1 (got {max_steps}).")
        if samples < 0:
            raise CommandError(f"--svg-samples must be 0 or more (got {samples}).")
        if workers < 1:
            raise CommandError(f"--workers must be at least 1 (got {workers}).")
        out = Path(opts["out"])
        if out.exists() and not out.is_dir():
            raise CommandError(f"--out {out} exists and is not a directory.")

        board, data = self._board(opts["board"])
        if len(data["starting_routes"]) < counts[-1]:
            raise CommandError(f"Board '{board.slug}' has only {len(data['starting_routes'])} starting routes: at most that many players (got --players {counts[-1]}).")
        options = {"board": data}
        try:
            ENGINE.normalize_options(dict(options))
        except RulesError as e:
            raise CommandError(f"Board '{board.slug}' is not playable: {e}") from e

        rows = []
        for players in counts:
            where = out if len(counts) == 1 else out / f"players-{players}"
            summary, elapsed, used, written = self._run(players, rounds, games, seed, bot, max_steps, samples, workers, options, board, data, where)
            rows.append((players, summary, elapsed))
            self._report(summary, elapsed, used, where, written)
        if len(rows) > 1:
            self._table(rows)

    def _run(self, players, rounds, games, seed, bot, max_steps, samples, workers, options, board, data, out):
        seeds = game_seeds(seed, games)
        tasks = [(i + 1, s, players, rounds, i < samples, bot, max_steps) for i, s in enumerate(seeds)]
        workers = min(workers, games)
        started = time.perf_counter()
        if workers == 1:
            _init_worker(options)
            results = [_play(t) for t in tasks]
        else:
            ctx = multiprocessing.get_context("spawn")  # no forked database connections or threads
            with ctx.Pool(workers, initializer=_init_worker, initargs=(options,)) as pool:
                results = list(pool.imap_unordered(_play, tasks, chunksize=max(1, min(20, games // (workers * 8)))))
            results.sort(key=lambda r: r[0]["game"])  # files in game order, whatever finished first
        elapsed = time.perf_counter() - started

        summaries = []
        svgs = {}
        for summary, svg in results:
            summary["led_from_round"] = led_from_round(summary)
            summaries.append(summary)
            if svg is not None:
                svgs[summary["game"]] = svg
        summary = {
            "parameters": {
                "players": players, "rounds": rounds, "games": games, "seed": seed, "bot": bot, "max_steps": max_steps,
                "board": {"slug": board.slug, "name": board.name, "key": board_fingerprint(data)},
                "game_seeds": "random.Random(seed).sample(range(2**31), games)",
            },
            **aggregate(summaries, players),
        }
        written = write_outputs(out, summaries, svgs, summary, players)
        return summary, elapsed, workers, written

    def _board(self, name: str):
        from companion.models import Board
        from companion.selectors import board_data, board_default
        from games.errors import ServiceError

        if name == "default":
            try:
                board = board_default()
            except ServiceError as e:
                raise CommandError(str(e)) from e
        else:
            board = Board.objects.filter(slug=name).first()
            if board is None:
                known = ", ".join(Board.objects.order_by("slug").values_list("slug", flat=True)) or "none"
                raise CommandError(f"No board with slug '{name}' (boards: {known}; or 'default').")
        return board, board_data(board)

    def _report(self, s: dict[str, Any], elapsed: float, workers: int, out: Path, written: list[Path]) -> None:
        p = s["parameters"]
        w = self.stdout.write
        limit = f"up to {p['rounds']} rounds" if p["rounds"] else "no round limit"
        w(f"Wood and Steel: {s['games']} games, {p['players']} players, {p['bot']} bots, {limit}, seed {p['seed']}, board '{p['board']['slug']}'")
        w(f"  time: {elapsed:.1f} s, {s['games'] / elapsed:.1f} games/s ({workers} worker{'s' if workers > 1 else ''})")
        reasons = ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
        w(f"  ended: {reasons} (target: someone reached the target ties; round-limit: --rounds; unfinished: --max-steps)")
        er, st = s["end_round"], s["steps"]
        w(f"  end round: mean {er['mean']}, min {er['min']}, median {er['p50']}, p90 {er['p90']}, p99 {er['p99']}, max {er['max']}")
        w(f"  steps (commands): mean {st['mean']}, median {st['p50']}, p90 {st['p90']}, p99 {st['p99']}, max {st['max']}")
        wins = s["wins"]
        w("  win share by seat: " + ", ".join(f"seat {i} {x:.1%}" for i, x in enumerate(wins["share_by_seat"])))
        w("  win share by round-1 turn position: " + ", ".join(f"#{i + 1} {x:.1%}" for i, x in enumerate(wins["share_by_start_position"])))
        w(f"  winner: mean {wins['mean_winning_ties']} ties, in the lead for good from round {wins['mean_led_from_round']} on average")
        src = s["ties"]["by_source"]["mean_per_player"]
        w("  ties per player by source: " + ", ".join(f"{k} {v}" for k, v in src.items() if v))
        c = s["contracts"]
        w(f"  contracts: {c['count']} ({c['mean_per_game']} per game), value mean ${c['value']['mean']:,.0f}, min ${c['value']['min']:,}, max ${c['value']['max']:,}")
        hist = c["value"]["histogram"]
        w("  contract values: " + ", ".join(f"${int(v) // 1000}k {n / max(1, c['count']):.0%}" for v, n in hist.items()))
        w("  contract ties: " + ", ".join(f"{t}: {n / max(1, c['count']):.0%}" for t, n in c["ties_histogram"].items()))
        feats = s["features"]["games_with"]
        w("  games with: " + ", ".join(f"{k} {n / s['games']:.1%}" for k, n in feats.items()))
        w(f"  wrote {len(written)} files to {out}/")

    def _table(self, rows) -> None:
        w = self.stdout.write
        w("players  games  ended by the rules  end round median/p90/p99/max  steps median/max  seconds")
        for players, s, elapsed in rows:
            er, st = s["end_round"], s["steps"]
            target = s["end_reasons"].get("target", 0)
            w(f"{players:>7}  {s['games']:>5}  {target:>10} ({target / s['games']:.1%})  {er['p50']}/{er['p90']}/{er['p99']}/{er['max']:<21}  {st['p50']}/{st['max']:<12}  {elapsed:.1f}")
