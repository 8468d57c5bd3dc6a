"""Take back: any seat may take back its OWN last action, without the host, as long as that action
drew nothing hidden and no other player has acted since (issue 34: a wrong tap at a real table is
cheap). Engines opt in with ``Engine.takes_back``; the command is ``{"cmd": "take-back"}``.

It is the platform's undo (games/undo.py) with other limits: undo takes back the last command of
the current turn, by its author or the host, and lets the host take back a random draw; take-back
crosses the end of a turn (the player who ended their turn by mistake gets it back until the next
player acts), never takes back another seat's action, and never one whose events drew something
(an event marked ``"random": True``: new offers, a market contract, a railroad's growth). Like an
undo it is recorded in the log as a command of its own whose ``undone`` event names the sequence
it took back; replay and undo skip both (games/undo.py ``effective_actions``)."""

from __future__ import annotations

from typing import Any

from .engines.registry import get_engine
from .errors import Forbidden, ServiceError
from .models import Action, Game
from .selectors import Actor

TAKE_BACK = "take-back"
# Commands that take a move back: skipped, with the moves they took back, when reading the log.
TAKING_BACK = frozenset({"undo", TAKE_BACK})
# How far back offer() reads the log for a seat's last move (each undo or take-back costs one row more).
OFFER_ROWS = 40


def _drew(action: Action) -> bool:
    """The action drew something hidden (an event marked random)."""
    return any(e.get("random") for e in action.events or [])


def _last_move(actions) -> Action | None:
    """The last move that still counts, from actions newest first: not an undo or take-back, not
    taken back, not a game master's admin action; None when there is none (the start only)."""
    undone: set[int] = set()
    for action in actions:
        cmd = action.command.get("cmd")
        if cmd in TAKING_BACK:
            undone.update(e["sequence"] for e in action.events or [] if e.get("type") == "undone")
            continue
        if action.sequence in undone or cmd == "admin":
            continue
        return action if action.sequence > 1 else None
    return None


def _refusal(engine, game: Game, seat: int, target: Action | None) -> tuple[str, str] | None:
    """Why ``seat`` may not take back ``target`` (the game's last move), or None when it may."""
    if target is None or target.seat is None:
        return "nothing-to-take-back", "You have no action to take back."
    if target.seat != seat:
        names = {s.index: s.name for s in game.seats.all()}
        who = names.get(target.seat) or f"Seat {target.seat + 1}"
        return "another-player-acted", f"{who} has acted since; you can take back only your own last action, until the next player acts."
    if target.command.get("cmd") not in engine.command_table:
        return "nothing-to-take-back", "Your last action was not a move of the game; there is nothing to take back."
    if _drew(target):
        return "drew-hidden", "That action drew something hidden (new offers, a market contract or a railroad's growth), so it cannot be taken back."
    return None


def moved(game: Game, *, seat: int | None, command: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The move just saved as ``game.version`` (services calls this once it is saved): remembered
    on the game, so :func:`offer` answers the broadcast that follows without reading the log (on
    the event loop it cannot). An undo or a take-back makes an older move the last: forgotten,
    :func:`offer` reads the log then (those run in the database thread)."""
    if command.get("cmd") in TAKING_BACK or not get_engine(game.kind).takes_back:
        game.last_move = None
        return
    game.last_move = {"version": game.version, "sequence": game.version, "seat": seat, "cmd": command.get("cmd"),
                      "drew": any(e.get("random") for e in events)}


def offer(game: Game, seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` could take back now, for its state payload: ``{"sequence", "cmd"}`` of its
    last action, or None (not a title that takes back, not an active game, not a seat, or a
    refusal: the payload offers only what take-back would accept). The move services just saved
    (:func:`moved`) answers at once; else the log's last rows."""
    if seat is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    engine = get_engine(game.kind)
    if not engine.takes_back:
        return None
    last = getattr(game, "last_move", None)
    if last is not None and last["version"] == game.version:
        mine = last["seat"] == seat and last["cmd"] in engine.command_table and not last["drew"]
        return {"sequence": last["sequence"], "cmd": last["cmd"]} if mine else None
    rows = game.actions.order_by("-sequence").only("sequence", "seat", "command", "events")[:OFFER_ROWS]
    target = _last_move(rows)
    if target is None or target.seat != seat or _refusal(engine, game, seat, target) is not None:
        return None
    return {"sequence": target.sequence, "cmd": target.command.get("cmd")}


def take_back_plan(*, game: Game, actor: Actor, command: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state without ``actor``'s last action and the events saying so, or the refusal
    (ServiceError / Forbidden with a code: nothing-to-take-back, another-player-acted, drew-hidden)."""
    from .replay import action_replay, players_at_start
    from .undo import effective_actions

    engine = get_engine(game.kind)
    if set(command) != {"cmd"}:
        raise ServiceError("invalid-command", "take-back takes no arguments: it always takes back your own last action.")
    if actor.seat is None:
        raise Forbidden("not-a-player", "Only a seated player can take back their own action.")
    actions = effective_actions(list(game.actions.order_by("sequence")))
    moves = [a for a in actions if a.command.get("cmd") != "admin"]
    target = moves[-1] if moves else None
    if target is not None and target.command.get("cmd") == "edit-state":
        raise ServiceError("nothing-to-take-back", "The last change was a game master's edit; it cannot be taken back from the game.")
    refusal = _refusal(engine, game, actor.seat, target)
    if refusal is not None:
        code, message = refusal
        raise ServiceError(code, message)
    state = engine.setup(players=players_at_start(game, actions), options=game.options, seed=game.seed)
    for action in actions:
        if action is not target:
            state = action_replay(engine, state, action)
    return state, [{"type": "undone", "sequence": target.sequence, "seat": target.seat, "command": target.command}]
