"""Runerail simulator: whole bot games through the real rules, and what came of them.

    .venv/bin/python -m games.engines.runerail.simulate [--games 20] [--bots planner,random]
        [--seed 1] [--max-steps 20000] [--round-limit 0] [--option turn_order=seated ...] [--json]

The rail games' simulator (``../rail_core/simulate.py`` says what it plays and prints). A game ends
with a win (7 of the 8 majors and 250 gold), at the option ``round_limit`` (``--round-limit``: the most gold
wins) or after ``--max-steps`` commands (``unfinished``).
"""

from __future__ import annotations

import sys

from ..rail_core.simulate import NAMES, Simulator
from . import ENGINE, data

SIMULATOR = Simulator(
    ENGINE, name="Runerail", money="gold", money_text=lambda amount: f"{amount}", core=data.core,
    facts=lambda state: {"locos": [p["loco"] for p in state["players"]],
                         "foremen": [p["foreman"] for p in state["players"]]},
    max_steps=20_000, example_option="turn_order=seated",
    int_flags=(("--round-limit", "round_limit", "end after this many rounds (0: play to a win)"),),
)
play_game, simulate, report, main = SIMULATOR.play_game, SIMULATOR.simulate, SIMULATOR.report, SIMULATOR.main
MAX_STEPS = SIMULATOR.max_steps

__all__ = ["ENGINE", "MAX_STEPS", "NAMES", "SIMULATOR", "main", "play_game", "report", "simulate"]

if __name__ == "__main__":
    sys.exit(main())
