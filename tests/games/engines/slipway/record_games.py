"""Regenerate the recorded Slipway games in ``recorded/``.

    .venv/bin/python tests/games/engines/slipway/record_games.py

Each fixture is one whole bot game (``games.engines.slipway.simulate.play_game``): the seed, the players,
their bots, the options and every command, with the end (winners, reason, totals, money) and the SHA-256
of the final state as canonical JSON. test_recorded_games.py replays them from scratch through the engine,
so any change to the rules that alters a game shows up as a failing fixture. Regenerate only when such a
change is intended (a change to the bots alone leaves the fixtures valid: they are replayed, not replayed
by the bots). The set, taken together, covers every command, the bonus action, a forfeited action, ships lost
both ways, the canal features scored, contract discards, the final action and build (``coverage`` below; the
test asserts it). The ship stack's end never came in 1,200 bot games (BALANCE.md): the rules tests cover it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT))

from tests.support.recorded_games import state_digest  # noqa: E402

__all__ = ["GAMES", "coverage", "replay", "state_digest"]

S, R = "shipwright", "random"
ALWAYS = {"subsidy": "always"}
FINAL = {"stack_end": "final-round"}
ONE_CUBE = {"two_player_cubes": 1}

# (seed, bots, options) for each recorded game.
GAMES: list[tuple[int, list[str], dict[str, Any]]] = [
    (2001, [S, R], {}),
    (2002, [R, S], ONE_CUBE),
    (2003, [S, S], {}),
    (2004, [S, S], ALWAYS),
    (2005, [S, R, R], {}),
    (2006, [S, S, R], FINAL),
    (2007, [S, S, S], {}),
    (2008, [S, S, S], ALWAYS),
    (2009, [S, R, R, R], {}),
    (2010, [S, S, R, R], {}),
    (2011, [S, S, S, S], {}),
    (2012, [S, S, S, S], FINAL),
    (2013, [S, S, S, S], {"subsidy": "never"}),
    (3010, [R, R], {}),  # a ship lost for want of a captain
    (3000, [R, R, R, R], {}),  # a ship lost for want of canal
    (3002, [R, R, R, R], {}),  # an action forfeited
    (2016, [S, S], ONE_CUBE),
    (2017, [S, S, S], FINAL),
    (2018, [S, R, S, R], ALWAYS),
    (2019, [S, S, S, S], {}),
    (2020, [S, S, S], {}),
    (2021, [S, S], FINAL),
    (2022, [S, S, S, S], FINAL),
]


def replay(game: dict[str, Any]) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """Play a fixture's commands from its setup; returns the final state and what the game covered."""
    from games.engines.slipway import ENGINE

    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    for step in game["commands"]:
        events = ENGINE.apply(state, seat=step["seat"], command=step["command"])
        _seen(step["command"], events, SEEN)
    seen = {k: set(v) for k, v in SEEN.items()}
    for v in SEEN.values():
        v.clear()
    return state, seen


SEEN: dict[str, set[str]] = {"commands": set(), "facts": set()}


def _seen(command: dict[str, Any], events: list[dict[str, Any]], seen: dict[str, set[str]]) -> None:
    seen["commands"].add(command["cmd"])
    for e in events:
        kind = e["type"]
        if kind == "ship-lost":
            seen["facts"].add(f"lost:{e['reason']}")
        elif kind == "cruised":
            seen["facts"].add("cruised")
            seen["facts"].update(f"spot:{s}" for s in e["spots"] if s)
        elif kind == "end-triggered":
            seen["facts"].add(f"end:{e['reason']}")
        elif kind == "phase":
            seen["facts"].add(f"phase:{e['phase']}")
        elif kind in ("bonus", "forfeited", "contract-discarded", "passed", "queue-cube-removed"):
            seen["facts"].add(kind)


def coverage(seen: dict[str, set[str]]) -> set[str]:
    return seen["commands"] | seen["facts"]


def record(seed: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    from games.engines.slipway import ENGINE
    from games.engines.slipway.simulate import play_game

    log: list[dict[str, Any]] = []
    _summary, state = play_game(bots, seed=seed, options=options, log=log)
    if not state["finished"]:
        raise SystemExit(f"game {seed} did not end")
    return {
        "seed": seed,
        "players": [p["name"] for p in state["players"]],
        "bots": bots,
        "options": ENGINE.normalize_options(options),
        "commands": log,
        "turns": state["turn_no"],
        "winners": state["winners"],
        "end_reason": state["end"]["reason"] if state["end"] else None,
        "totals": [s["total"] for s in state["scores"]],
        "final_money": [p["money"] for p in state["players"]],
        "digest": state_digest(state),
    }


def main() -> None:
    out = HERE / "recorded"
    out.mkdir(exist_ok=True)
    for old in out.glob("game_*.json"):
        old.unlink()
    total = 0
    covered: set[str] = set()
    for seed, bots, options in GAMES:
        game = record(seed, bots, options)
        text = json.dumps(game, separators=(",", ":")) + "\n"
        (out / f"game_{seed}.json").write_text(text)
        total += len(text)
        _state, seen = replay(game)
        covered |= coverage(seen)
        print(f"game_{seed}.json: {','.join(bots)} {json.dumps(options, sort_keys=True)}: {game['turns']} turns, "
              f"{len(game['commands'])} commands, {game['end_reason']}, winners {game['winners']}, "
              f"totals {game['totals']}", flush=True)
    print(f"{len(GAMES)} games, {total / 1024:.0f} KiB; covered: {', '.join(sorted(covered))}")


if __name__ == "__main__":
    main()
