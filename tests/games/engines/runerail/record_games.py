"""Regenerate the recorded Runerail games in ``recorded/``.

    .venv/bin/python tests/games/engines/runerail/record_games.py

Each fixture is one whole bot game (``games.engines.runerail.simulate.play_game``): the seed, the
players, their bots, the options and every command, with the end (round, winners, reason, gold) and
the SHA-256 of the final state as canonical JSON. test_recorded_games.py replays them from scratch
through the engine, so any change to the rules that alters a game shows up as a failing fixture.
Regenerate only when such a change is intended (a change to the bots alone leaves the fixtures
valid: they are replayed, not replayed by the bots).

The fixtures play without a round limit (option ``round_limit`` 0, the published rule), so every game has at least one planner: a game of random bots alone
never ends (the random bot never reaches the goal), while a planner wins against random bots. The
seeds are chosen so that the set, taken together, draws an event card of every kind and has ships
boarded and sailed, a foreman hired, loco upgrades, a lost load chosen and destroyed track rebuilt
(``coverage`` below; the test asserts it). Recording takes a few minutes (a planner's game takes
several seconds); replaying all of them well under a second.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT))

from tests.support.recorded_games import state_digest, write_games  # noqa: E402

__all__ = ["GAMES", "replay", "state_digest"]

P, R = "planner", "random"
SEATED = {"turn_order": "seated"}
STRIKE = {"prism_bridge": "until-strike"}
BOTH = {"turn_order": "seated", "prism_bridge": "until-strike"}

# (seed, bots, options) for each recorded game.
GAMES: list[tuple[int, list[str], dict[str, Any]]] = [
    (1001, [P, R], {}),
    (1002, [R, P], SEATED),
    (1003, [P, P], STRIKE),
    (1004, [P, R, R], BOTH),
    (1005, [P, P, R], {}),
    (1006, [P, P, P], SEATED),
    (1007, [P, R, R, R], STRIKE),
    (1008, [P, P, R, R], BOTH),
    (1010, [P, P, R, R, R], SEATED),
    (1012, [P, P, R, R, R, R], BOTH),
    (1013, [P, R], SEATED),
    (1014, [R, P], STRIKE),
    (1015, [P, P], BOTH),
    (1016, [P, R, R], {}),
    (1017, [P, P, R], SEATED),
    (1018, [P, P, P], STRIKE),
    (1020, [P, P, R, R], {}),
    (1024, [P, P, R, R, R, R], {}),
    (2018, [P, R, R], {}),
    (2026, [P, R, R, R], {}),
    (2032, [P, R, R], {}),  # a random bot holding the Halfling boards a ship, sails and lands
    (2094, [R, P], {}),
    # the other values of the options issue 30 added (the old win timing; a shared win; ports at their city's 3)
    (3001, [P, R], {"win_check": "own-turn-end", "port_price": "city"}),
    (3002, [P, P], {"win_tie": "shared", "turn_order": "seated"}),
]


def replay(game: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Replay a recorded game from its seed through ``setup`` and ``apply``.

    Returns the final state and what happened on the way: ``events`` (the SHA-256 of every event
    in order, as canonical JSON), ``kinds`` (the kinds of the event cards drawn) and ``facts``: a
    set of ``boarded``, ``sailed``, ``landed``, ``foreman-hired``, ``upgraded``, ``load-lost``
    (a player chose a load to lose), ``track-destroyed`` and ``rebuilt`` (a build laid a section
    destroyed by an event, by the player who had owned it)."""
    from games.engines.runerail import ENGINE

    state = ENGINE.setup(players=game["players"], options=game["options"], seed=game["seed"])
    events = hashlib.sha256()
    kinds: set[str] = set()
    facts: set[str] = set()
    for step in game["commands"]:
        if state["finished"]:
            raise AssertionError(f"game {game['seed']}: a command after the end")
        command = step["command"]
        reserved = dict(state["rail"].get("reserved") or {}) if command["cmd"].startswith("build") else {}
        for event in ENGINE.apply(state, seat=step["seat"], command=command):
            events.update(json.dumps(event, sort_keys=True, separators=(",", ":")).encode())
            kind = event["type"]
            if kind == "event-drawn":
                kinds.add(event["kind"])
            elif kind in ("boarded", "sailed", "landed", "foreman-hired", "upgraded", "load-lost",
                          "track-destroyed"):
                facts.add(kind)
        track = state["rail"]["track"]
        if any(track.get(key) == owner for key, owner in reserved.items()):
            facts.add("rebuilt")
    return state, {"events": events.hexdigest(), "kinds": kinds, "facts": facts}


def main() -> None:
    from games.engines.runerail.simulate import SIMULATOR

    def more(game: dict[str, Any]) -> str:
        _state, seen = replay(game)
        return f"events {', '.join(sorted(seen['kinds']))}; {', '.join(sorted(seen['facts']))}"

    write_games(SIMULATOR, GAMES, HERE / "recorded", more)


if __name__ == "__main__":
    main()
