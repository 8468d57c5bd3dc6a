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

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT))

from tests.support.recorded_games import state_digest, write_games  # noqa: E402

__all__ = ["GAMES", "state_digest"]

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
    (225, [P, P, P], {"map": "juniper-basin"}),
    (226, [P, R], {"map": "juniper-basin", "round_limit": 10, "extra_starting_cards": True}),
]


def main() -> None:
    from games.engines.resourceful_rails.simulate import SIMULATOR

    write_games(SIMULATOR, GAMES, HERE / "recorded")


if __name__ == "__main__":
    main()
