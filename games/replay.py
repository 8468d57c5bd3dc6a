"""Rebuild a game's state from its seed, options, seats and action log."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, NamedTuple

from django.db.models import Q

from .engines.registry import get_engine
from .models import Action, Game


def game_replay(*, game: Game, upto: int | None = None) -> dict[str, Any] | None:
    """The state after action ``upto`` (default: the last), computed from scratch."""
    if game.started_at is None and game.version == 0:
        return None
    return _replayed(game, game_log(game=game, upto=upto), upto)


def game_replay_step(*, game: Game, step: int) -> tuple[dict[str, Any], LoggedAction | None]:
    """The state after action ``step`` of a started game and that logged action (None if the
    log has no such step), from one read of the log and one of the seats, whatever the length
    of the game."""
    log = game_log(game=game, upto=step)
    action = next((a for a in log if a.sequence == step), None)
    return _replayed(game, log, step), action


def _replayed(game: Game, every: list[LoggedAction], upto: int | None) -> dict[str, Any]:
    engine = get_engine(game.kind)
    state = engine.setup(players=players_at_start(game, every), options=game.options, seed=game.seed)
    from .undo import effective_actions

    actions = every if upto is None else [a for a in every if a.sequence <= upto]
    for action in effective_actions(actions):
        state = action_replay(engine, state, action)
    return state


class LoggedAction(NamedTuple):
    """What a replay reads of one logged action (no model instance: building 300 of them
    cost more than replaying the moves)."""

    sequence: int
    seat: int | None
    command: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: datetime


def game_log(*, game: Game, upto: int | None = None) -> list[LoggedAction]:
    """The logged actions of ``game`` in order (up to ``upto``, plus every later game
    master's change: a rename after ``upto`` still names the players at the start), in one
    query whatever the length of the log. Not through ``game.actions`` with ``.only()``: the
    related manager reads each row's deferred ``game_id``, a query per action."""
    rows = Action.objects.filter(game_id=game.pk)
    if upto is not None:
        rows = rows.filter(Q(sequence__lte=upto) | Q(command__cmd=ADMIN))
    return [LoggedAction(*row) for row in rows.order_by("sequence").values_list("sequence", "seat", "command", "events", "created_at")]


ADMIN = "admin"  # a game master's logged change: {"cmd": "admin", "action": …, "by": …} (games/services.py)
SEAT_RENAMED = "seat-renamed"


def players_at_start(game: Game, actions: list | None = None) -> list[str]:
    """The players' names the game was set up with: the seats' names now, with the game
    master's renames in the log taken back (last first)."""
    names = [s.name for s in game.seats.order_by("index")]
    if actions is None:
        actions = list(game.actions.filter(command__cmd=ADMIN).order_by("sequence"))
    for action in reversed(actions):
        for event in action.events if action.command.get("cmd") == ADMIN else ():
            if event.get("type") == SEAT_RENAMED and 0 <= event["seat"] < len(names):
                names[event["seat"]] = event["from"]
    return names


def seat_renamed(state: dict[str, Any], seat: int, name: str) -> dict[str, Any]:
    """``state`` with seat ``seat``'s player called ``name``. The platform's convention, not a
    rule: a state's ``players`` list holds each seat's name or an object with a ``name``."""
    players = state.get("players") if isinstance(state, dict) else None
    if isinstance(players, list) and 0 <= seat < len(players):
        if isinstance(players[seat], str):
            players[seat] = name
        elif isinstance(players[seat], dict) and "name" in players[seat]:
            players[seat]["name"] = name
    return state


def action_replay(engine, state: dict[str, Any], action) -> dict[str, Any]:
    """``state`` after the logged ``action``: the engine applies a move; a game master's
    ``edit-state`` replaces the state with the one it recorded; a game master's rename renames
    the player in the state; the game master's other actions (pause, resume, a seat handed to a
    bot, the end) leave the state alone."""
    cmd = action.command.get("cmd")
    if cmd == "edit-state":
        return copy.deepcopy(action.events[0]["state"])
    if cmd == ADMIN:
        for event in action.events:
            if event.get("type") == SEAT_RENAMED:
                seat_renamed(state, event["seat"], event["to"])
        return state
    engine.apply(state, seat=action.seat, command=action.command)
    return state
