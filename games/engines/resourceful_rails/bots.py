"""Resourceful Rails' bots. ``random``: a random legal command (builds one section, moves one step)."""

from __future__ import annotations

import random
from typing import Any

from ..base import Command, RulesError, State


def choose(engine: Any, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    return rng.choice(legal)
