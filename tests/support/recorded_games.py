"""What the rail titles' recorded games share (``tests/games/engines/<title>/record_games.py``): a whole bot
game recorded through the title's simulator (``games.engines.rail_core.simulate.Simulator``), the digest of a
final state, and writing the fixtures. Each title's ``record_games.py`` lists its games (seed, bots, options)
and calls :func:`write_games`; its ``test_recorded_games.py`` replays them through the engine."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 of the state as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record(simulator: Any, seed: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """One whole game of ``bots`` (the seed, players, bots, options and every command), with its end
    (rounds, winners, reason, each player's money as ``final_<money>``, deliveries) and final digest."""
    log: list[dict[str, Any]] = []
    summary, state = simulator.play_game(bots, seed=seed, options=options, log=log)
    if not state["finished"]:
        raise SystemExit(f"game {seed} did not end")
    return {
        "seed": seed,
        "players": [p["name"] for p in state["players"]],
        "bots": bots,
        "options": simulator.engine.normalize_options(options),
        "commands": log,
        "rounds": state["round"],
        "winners": state["winners"],
        "end_reason": state["end_reason"],
        f"final_{simulator.money}": [p[simulator.money] for p in state["players"]],
        "deliveries": summary["deliveries"],
        "digest": state_digest(state),
    }


def write_games(simulator: Any, games: list[tuple[int, list[str], dict[str, Any]]], out: Path,
                more: Callable[[dict[str, Any]], str] | None = None) -> None:
    """Record ``games`` into ``out/game_<seed>.json`` (the old fixtures removed first), a line each printed;
    ``more(game)`` adds the title's own words to that line."""
    out.mkdir(exist_ok=True)
    for old in out.glob("game_*.json"):
        old.unlink()
    total = 0
    money = f"final_{simulator.money}"
    for seed, bots, options in games:
        game = record(simulator, seed, bots, options)
        path = out / f"game_{seed}.json"
        text = json.dumps(game, separators=(",", ":")) + "\n"
        path.write_text(text)
        total += len(text)
        print(f"{path.name}: {','.join(bots)} {json.dumps(options, sort_keys=True)}: {game['rounds']} rounds, "
              f"{len(game['commands'])} commands, {game['end_reason']}, winners {game['winners']}, "
              f"{simulator.money} {game[money]}{'; ' + more(game) if more else ''}", flush=True)
    print(f"{len(games)} games, {total / 1024:.0f} KiB")
