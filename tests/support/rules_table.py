"""What the rules tests of the turn-based titles share: games set up by seed, commands applied, and
refusals checked to change nothing (each title's ``tests/games/engines/<title>/helpers.py`` makes one
:class:`RulesTable` for its engine and re-exports its methods)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from games.engines.base import Engine, RulesError

State = dict[str, Any]


@dataclass(frozen=True)
class RulesTable:
    engine: Engine
    names: tuple[str, ...]
    players: int = 2  # the default table size
    end_turn_command: str = "end-turn"

    def new_game(self, players: int | None = None, *, seed: int = 1, **options: Any) -> State:
        return self.engine.setup(players=list(self.names[: players or self.players]), options=options, seed=seed)

    def seated_game(self, players: int | None = None, *, seed: int = 1, **options: Any) -> State:
        """A game whose turn order is the seats' order (0, 1, 2, ...)."""
        return self.new_game(players, seed=seed, turn_order="seated", **options)

    def apply(self, state: State, seat: int, command: dict[str, Any]) -> list[dict[str, Any]]:
        return self.engine.apply(state, seat=seat, command=command)

    def refused(self, state: State, seat: int, command: dict[str, Any]) -> str:
        """Send a command the rules must refuse; check it changed nothing and return the error code."""
        before = copy.deepcopy(state)
        try:
            self.engine.apply(state, seat=seat, command=command)
        except RulesError as err:
            assert state == before, f"refused {command} ({err.code}) but changed the state"
            return err.code
        raise AssertionError(f"{command} was accepted")

    def end_turn(self, state: State) -> list[dict[str, Any]]:
        return self.apply(state, state["active"], {"cmd": self.end_turn_command})
