"""Hidden information, redacted in one place: every reader of a game's log, seed or state goes
through here with who is reading (docs/SECRETS.md).

- **The log**: an action as ``viewer`` (a seat; None: a spectator, a stranger, a game master who is
  not a superuser) may read it. While the game runs, the command's private arguments and the
  events' private fields of another seat (declared by the engine beside its commands:
  ``Arg(private=True)``, ``Engine.private_events``) are null and named in ``"hidden"``; a game
  master's ``edit-state`` shows that it happened, never the state it wrote. A finished game
  hides nothing: its seed is published, and with it anyone can rebuild every hand anyway.
- **The seed**: never while a game can still be played (with the public log it would rebuild
  every hand and the deck's order); a finished game's seed is public so anyone can verify it.
- **The state**: ``Engine.view(state, seat)`` is the only way a state leaves the server.

The readers: selectors (``GET …/actions``, the replay's every step, ``get-state``'s log through
``POST /api``), players/data.py (the data download), games/admin.py (game masters who are not
superusers). The leak test (tests/e2e/test_leaks.py) reads every door as every seat and a spectator.
"""

from __future__ import annotations

from typing import Any

from .engines.base import Engine
from .models import Game


def reveals_all(game: Game) -> bool:
    """A finished game keeps nothing back: its seed and its whole log are public."""
    return game.status == Game.Status.FINISHED


def seed_public(game: Game) -> int | None:
    """The seed anyone may read: a finished game's, else None."""
    return game.seed if reveals_all(game) else None


def action_redacted(
    *, engine: Engine | None, command: dict[str, Any], events: list[Any], actor: int | None, viewer: int | None, reveal: bool,
) -> tuple[dict[str, Any], list[Any]]:
    """One logged action's command and events as ``viewer`` may read them (``reveal``: the game is
    finished, nothing is hidden but a game master's written state)."""
    if command.get("cmd") == "edit-state":
        events = [{k: v for k, v in e.items() if k != "state"} if isinstance(e, dict) else e for e in events]
    if reveal or command.get("cmd") == "admin":
        return command, events
    if engine is None:  # a kind no engine serves: nothing says what is private, so only the command's name
        return {"cmd": command.get("cmd")}, []
    return engine.redact_action(command, events, actor=actor, viewer=viewer)
