"""Undo for engines with a ``turn_key``: an ``undo`` action takes back the last
command of the current turn. The log stays append-only: the undo is itself an
action naming the sequence it undid, and replay skips undone commands."""

from __future__ import annotations

from typing import Any

from .engines.registry import get_engine
from .errors import Forbidden, ServiceError
from .models import Action, Game
from .selectors import Actor


def effective_actions(actions: list[Action]) -> list[Action]:
    """Commands that still count: not an undo or a take-back (games/takeback.py), not undone."""
    back = ("undo", "take-back")
    undone = {e["sequence"] for a in actions if a.command.get("cmd") in back for e in a.events if e.get("type") == "undone"}
    return [a for a in actions if a.sequence > 1 and a.command.get("cmd") not in back and a.sequence not in undone]


def undo_plan(*, game: Game, actor: Actor, command: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state without the last command of this turn, and the events saying so.
    Raises ServiceError when there is nothing to undo or the actor may not."""
    engine = get_engine(game.kind)
    confirm = command.get("confirm", False)
    if not isinstance(confirm, bool) or set(command) - {"cmd", "confirm"}:
        raise ServiceError("invalid-command", "undo takes only an optional boolean 'confirm'.")
    actions = effective_actions(list(game.actions.order_by("sequence")))
    if not actions:
        raise ServiceError("nothing-to-undo", "Nothing has happened yet in this game.")
    # A game master's pause, resume, rename or bot is no move: undo takes back the last move.
    moves = [a for a in actions if a.command.get("cmd") != "admin"]
    if not moves:
        raise ServiceError("nothing-to-undo", "Nothing has happened yet in this game.")
    target = moves[-1]
    if target.command.get("cmd") == "edit-state":
        raise ServiceError("nothing-to-undo", "The last change was a game master's edit; it cannot be undone from the game.")
    from .replay import action_replay, players_at_start

    state = engine.setup(players=players_at_start(game, actions), options=game.options, seed=game.seed)
    for action in actions:
        if action is not target:
            state = action_replay(engine, state, action)
    if engine.turn_key(state) != engine.turn_key(game.state):
        raise ServiceError("nothing-to-undo", "Nothing to undo in this turn: undo never reaches into the previous turn.")
    if not actor.is_host and actor.seat != target.seat:
        raise Forbidden("not-your-command", "Only the player who made the last move (or the host) can undo it.")
    if any(e.get("random") for e in target.events):
        if not actor.is_host:
            raise ServiceError("undo-needs-host", "That move drew something random that everyone has seen; only the host can undo it.")
        if not confirm:
            raise ServiceError("confirm-required", "That move revealed a random draw; send confirm: true to undo it anyway.")
    events = [{"type": "undone", "sequence": target.sequence, "seat": target.seat, "command": target.command}]
    return state, events
