"""Resourceful Rails simulator: whole bot games through the real rules, and what came of them.

    .venv/bin/python -m games.engines.resourceful_rails.simulate [--games 20] [--bots planner,random]
        [--seed 1] [--round-limit 0] [--option fast_trains=true ...] [--max-steps 40000] [--json]

The rail games' simulator (``../rail_core/simulate.py`` says what it plays and prints). A game ends
with a win or at the round limit (most cash wins); ``--round-limit`` sets that option.
"""

from __future__ import annotations

import sys

from ..rail_core.simulate import NAMES, Simulator
from . import ENGINE, data

SIMULATOR = Simulator(
    ENGINE, name="Resourceful Rails", money="cash", money_text=lambda amount: f"${amount}", core=data.core,
    core_for=lambda state: data.core(state["options"].get("map", data.DEFAULT_MAP)),
    facts=lambda state: {"trains": [p["train"] for p in state["players"]]},
    max_steps=40_000, example_option="fast_trains=true",
    int_flags=(("--round-limit", "round_limit", "end after this many rounds (0: play to a win)"),),
)
play_game, simulate, report, main = SIMULATOR.play_game, SIMULATOR.simulate, SIMULATOR.report, SIMULATOR.main
MAX_STEPS = SIMULATOR.max_steps

__all__ = ["MAX_STEPS", "NAMES", "SIMULATOR", "main", "play_game", "report", "simulate"]

if __name__ == "__main__":
    sys.exit(main())
