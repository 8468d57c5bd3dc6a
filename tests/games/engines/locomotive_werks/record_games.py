"""Regenerate the recorded Locomotive Werks games in ``recorded/``.

    .venv/bin/python tests/games/engines/locomotive_werks/record_games.py

Each fixture is one whole bot game: the seed, players, options and every command,
with the final coins and round. test_recorded.py replays them from scratch, so any
change to the rules that alters a game shows up as a failing fixture. Regenerate
only when such a change is intended.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

# (seed, bots, options) for each recorded game.
GAMES: list[tuple[int, list[str], dict]] = [
    (101, ["greedy", "greedy", "greedy"], {}),
    (102, ["greedy", "greedy", "greedy", "greedy"], {}),
    (103, ["greedy", "greedy", "greedy", "greedy", "greedy"], {}),
    (104, ["greedy", "random", "random"], {}),
    (105, ["random", "greedy", "random", "random"], {}),
    (106, ["random", "random", "greedy", "random", "random"], {}),
    (107, ["random", "random", "random"], {}),
    (108, ["random", "random", "random", "random"], {}),
    (109, ["random", "random", "random", "random", "random"], {}),
    (110, ["greedy", "greedy", "random"], {"production_costs": "published"}),
    (111, ["greedy", "random", "greedy", "random"], {"production_costs": "published"}),
    (112, ["greedy", "greedy", "greedy", "random", "random"], {"starting_coins": "by-player-count"}),
    (113, ["greedy", "greedy", "greedy"], {"obsolescence": "board-cards"}),
    (114, ["random", "greedy", "random", "greedy"], {"obsolescence": "board-cards"}),
    (115, ["greedy", "greedy", "greedy", "greedy", "greedy"], {"dice_pool": "twenty"}),
    (116, ["random", "random", "greedy"], {"dice_pool": "twenty"}),
    (117, ["greedy", "greedy", "greedy", "greedy"], {"shift_rule": "same-colour"}),
    (118, ["greedy", "random", "random", "random", "greedy"], {"winner_ties": "later-in-turn-order"}),
    (119, ["greedy", "greedy", "greedy"], {"end_threshold": 150}),
    (120, ["greedy", "greedy", "greedy", "greedy"], {"end_threshold": 500}),
    (
        121,
        ["greedy", "random", "greedy"],
        {
            "production_costs": "published",
            "starting_coins": "by-player-count",
            "obsolescence": "board-cards",
            "dice_pool": "twenty",
            "shift_rule": "same-colour",
            "winner_ties": "later-in-turn-order",
        },
    ),
    (
        122,
        ["greedy", "greedy", "greedy", "greedy", "greedy"],
        {"production_costs": "published", "dice_pool": "twenty"},
    ),
    (123, ["random", "greedy", "greedy"], {}),
    (124, ["greedy", "random", "greedy", "greedy"], {"starting_coins": "by-player-count"}),
]


def record(seed: int, bots: list[str], options: dict) -> dict:
    from games.engines.locomotive_werks import ENGINE
    from tests.games.engines.locomotive_werks.play import play_game

    state, log = play_game(bots, seed=seed, options=options)
    players = [p["name"] for p in state["players"]]
    return {
        "seed": seed,
        "players": players,
        "bots": bots,
        "options": ENGINE.normalize_options(options),
        "commands": log,
        "final_coins": [p["coins"] for p in state["players"]],
        "rounds": state["round"],
        "winners": state["winners"],
    }


def main() -> None:
    sys.path.insert(0, str(ROOT))
    out = HERE / "recorded"
    out.mkdir(exist_ok=True)
    for old in out.glob("game_*.json"):
        old.unlink()
    for seed, bots, options in GAMES:
        game = record(seed, bots, options)
        path = out / f"game_{seed}.json"
        path.write_text(json.dumps(game, separators=(",", ":")) + "\n")
        print(
            f"{path.name}: {len(bots)} players, {game['rounds']} rounds, "
            f"{len(game['commands'])} commands, coins {game['final_coins']}"
        )


if __name__ == "__main__":
    main()
