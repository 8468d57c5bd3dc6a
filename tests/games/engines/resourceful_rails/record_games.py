"""Regenerate the recorded Resourceful Rails games in ``recorded/``.

    .venv/bin/python tests/games/engines/resourceful_rails/record_games.py

Each fixture is one whole bot game (``games.engines.resourceful_rails.simulate.play_game``): the seed,
the players, their bots, the options and every command, with the end (round, winners, reason, cash)
and the SHA-256 of the final state as canonical JSON. test_recorded_games.py replays them from
scratch through the engine, so any change to the rules that alters a game shows up as a failing
fixture. Regenerate only when such a change is intended (a change to the bots alone leaves the
fixtures valid: they are replayed, not replayed by the bots).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

P, R = "planner", "random"

# (seed, bots, options) for each recorded game. Games with a random bot need a round limit: the
# random bot never reaches the goal.
GAMES: list[tuple[int, list[str], dict[str, Any]]] = [
    (201, [P, P], {}),
    (202, [P, P], {}),
    (203, [P, P], {"turn_order": "seated"}),
    (204, [P, P], {"fast_trains": True}),
    (205, [P, R], {"round_limit": 12}),
    (206, [R, P], {"round_limit": 12, "extra_starting_cards": True}),
    (207, [P, P, P], {}),
    (208, [P, P, P], {"extra_build_turn": True}),
    (209, [P, P, P], {"win_timing": "finish-round"}),
    (210, [P, R, P], {"round_limit": 10, "goods_supply": 1}),
    (211, [P, P, P, P], {}),
    (212, [P, P, P, P], {"extra_starting_cards": True, "fast_trains": True}),
    (213, [R, R, R, R], {"round_limit": 6}),
    (214, [P, P, P, P], {"place_anywhere": True}),
    (215, [P, P, P, P, P], {}),
    (216, [P, P, P, P, P], {"win_timing": "finish-round", "goods_supply": 2}),
    (217, [R, P, R, P, R], {"round_limit": 8, "place_anywhere": True}),
    (218, [P, P, P, P, P, P], {}),
    (219, [P, P, P, P, P, P], {"fast_trains": True, "extra_build_turn": True}),
    (220, [R, R, R, R, R, R], {"round_limit": 4, "turn_order": "seated"}),
    (221, [P, P], {"extra_build_turn": True, "extra_starting_cards": True}),
    (222, [P, P, P], {"round_limit": 15}),
    (223, [R, R], {"round_limit": 10, "fast_trains": True}),
    (224, [P, P, P, P, P, P], {"round_limit": 20, "goods_supply": 1, "win_timing": "finish-round"}),
]


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 of the state as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record(seed: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    from games.engines.resourceful_rails import ENGINE
    from games.engines.resourceful_rails.simulate import play_game

    log: list[dict[str, Any]] = []
    summary, state = play_game(bots, seed=seed, options=options, log=log)
    if not state["finished"]:
        raise SystemExit(f"game {seed} did not end")
    return {
        "seed": seed,
        "players": [p["name"] for p in state["players"]],
        "bots": bots,
        "options": ENGINE.normalize_options(options),
        "commands": log,
        "rounds": state["round"],
        "winners": state["winners"],
        "end_reason": state["end_reason"],
        "final_cash": [p["cash"] for p in state["players"]],
        "deliveries": summary["deliveries"],
        "digest": state_digest(state),
    }


def main() -> None:
    sys.path.insert(0, str(ROOT))
    out = HERE / "recorded"
    out.mkdir(exist_ok=True)
    for old in out.glob("game_*.json"):
        old.unlink()
    total = 0
    for seed, bots, options in GAMES:
        game = record(seed, bots, options)
        path = out / f"game_{seed}.json"
        text = json.dumps(game, separators=(",", ":")) + "\n"
        path.write_text(text)
        total += len(text)
        print(f"{path.name}: {','.join(bots)} {json.dumps(options, sort_keys=True)}: {game['rounds']} rounds, "
              f"{len(game['commands'])} commands, {game['end_reason']}, winners {game['winners']}, "
              f"cash {game['final_cash']}")
    print(f"{len(GAMES)} games, {total / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
