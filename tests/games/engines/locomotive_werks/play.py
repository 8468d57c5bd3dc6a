"""Play whole bot games (used by the bot tests, the fixture recorder and the benchmark)."""

from __future__ import annotations

import random
from typing import Any

from games.engines.locomotive_werks import ENGINE

from .helpers import NAMES

MAX_ACTIONS = 20_000


def play_game(
    bots: list[str], seed: int, options: dict[str, Any] | None = None, check_legal: bool = False
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play until the game ends; return the final state and the command log."""
    state = ENGINE.setup(players=NAMES[: len(bots)], options=options or {}, seed=seed)
    chooser = random.Random(seed)
    log: list[dict[str, Any]] = []
    while not state["finished"]:
        assert len(log) < MAX_ACTIONS, "game did not end"
        seat = ENGINE.active_seats(state)[0]
        command = ENGINE.bot_command(state, seat=seat, bot=bots[seat], rng=chooser)
        if check_legal:
            assert command in ENGINE.legal_commands(state, seat=seat)
        ENGINE.apply(state, seat=seat, command=command)
        log.append({"seat": seat, "command": command})
    return state, log
