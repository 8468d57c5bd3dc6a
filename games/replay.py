"""Rebuild a game's state from its seed, options, seats and action log."""

from __future__ import annotations

import copy
from typing import Any

from .engines.registry import get_engine
from .models import Game


def game_replay(*, game: Game, upto: int | None = None) -> dict[str, Any] | None:
    """The state after action ``upto`` (default: the last), computed from scratch."""
    if game.started_at is None and game.version == 0:
        return None
    engine = get_engine(game.kind)
    players = [s.name for s in game.seats.order_by("index")]
    state = engine.setup(players=players, options=game.options, seed=game.seed)
    from .undo import effective_actions

    actions = game.actions.order_by("sequence")
    if upto is not None:
        actions = actions.filter(sequence__lte=upto)
    for action in effective_actions(list(actions.only("sequence", "seat", "command", "events"))):
        state = action_replay(engine, state, action)
    return state


def action_replay(engine, state: dict[str, Any], action) -> dict[str, Any]:
    """``state`` after the logged ``action``: the engine applies a move; a game master's
    ``edit-state`` replaces the state with the one it recorded."""
    if action.command.get("cmd") == "edit-state":
        return copy.deepcopy(action.events[0]["state"])
    engine.apply(state, seat=action.seat, command=action.command)
    return state
