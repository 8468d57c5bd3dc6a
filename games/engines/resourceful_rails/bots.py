"""Resourceful Rails' bots.

``random``: a random legal command (builds one section, moves one step).

``planner``: plays whole turns with the rail titles' shared planner (``../rail_core/bot.py``: which
order to serve, operating the train, spending); here, Resourceful Rails' own parts:

- **Phase 1.** A hopeless hand (nothing it could afford to join, nothing to deliver) is discarded at
  the start of the turn; deliver, drop and pick up at a city; then move toward the plan's next stop.
  The train is placed in the placeable city nearest the plan's first stop.
- **Phase 2.** Build toward the plan's cities, else upgrade (fast, later advanced) or join the
  cheapest major city still missing; late in the game (cash near the goal) the missing majors come
  first; with a round limit, what pays only after it is not built for. Then end the turn.
- **Build rounds.** The first section starts from the major city that makes the best order
  cheapest; then as phase 2.
- **The first turn's discard** (extra starting cards): the cards whose best order is worth least.

Every command is checked before it is returned (the engine's own checks); anything it would
refuse becomes ``end-turn``.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from ..base import Command, RulesError, State
from ..rail_core.bot import INF, Board, RailPlanner
from . import data
from .data import BUILD_LIMIT, TRAINS, UPGRADE_COST, WIN_CASH, WIN_MAJORS

FAST_AT = UPGRADE_COST + 15  # cash for the first upgrade (modest to fast)
ADVANCED_AT = UPGRADE_COST + 60  # cash for the second (to advanced)


def choose(engine: Any, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    if bot == "planner":
        return _Planner(engine, state, seat).command()
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    return rng.choice(legal)


@functools.cache
def board(map_id: str = data.DEFAULT_MAP) -> Board:
    """The map as the planner reads it, once per process and board."""
    return Board(data.core(map_id), data.city_goods(map_id), data.goods(map_id))


class _Planner(RailPlanner):
    LOAD = "good"
    MONEY = "cash"
    BUILD_LIMIT = BUILD_LIMIT
    WIN_MONEY = WIN_CASH
    WIN_MAJORS = WIN_MAJORS

    def __init__(self, engine: Any, state: State, seat: int) -> None:
        self.map_id = state["options"].get("map", data.DEFAULT_MAP)
        super().__init__(engine, state, seat, board(self.map_id))

    def cards(self) -> dict[int, dict[str, Any]]:
        return data.cards(self.map_id)

    def city_loads(self, city: str) -> list[str]:
        return data.city_goods(self.map_id)[city]

    def budget(self) -> int:
        return self.engine.build_left(self.state, self.seat)

    def cost_key(self) -> tuple[Any, ...]:
        return (tuple(self.rail["players"]),)

    # -- the command ---------------------------------------------------------------------------------------

    def command(self) -> Command:
        try:
            cmd = self._command()
        except RulesError:
            cmd = None
        if cmd is None or not self.allowed(cmd):
            cmd = {"cmd": "end-turn"}
        return cmd

    def allowed(self, cmd: Command) -> bool:
        """Whether the engine would take ``cmd`` (its own checks, nothing changed)."""
        state, seat, engine = self.state, self.seat, self.engine
        name = cmd["cmd"]
        try:
            if name == "build":
                plan = self.core.check_build(self.rail, seat, cmd["path"], budget=engine.build_left(state, seat))
                return bool(plan.sections)
            if name == "move":
                if state["stage"] != "move" or self.at is None or self.m.find(cmd["path"][0]) != self.at:
                    return False
                self.core.check_move(self.rail, seat, cmd["path"], moves_left=engine.moves_left(state, seat),
                                     cash=self.money, came_from=self.me["came_from"])
                return len(cmd["path"]) > 1
        except RulesError:
            return False
        if name == "end-turn":
            return state["stage"] != "discard"
        if name in ("pick-up", "drop", "deliver", "place-train", "discard-hand"):
            if state["phase"] != "play" or state["stage"] != "move":
                return False
        if name == "pick-up":
            return engine.pick_up_problem(state, seat, cmd["good"]) is None
        if name == "drop":
            return self.here is not None and cmd["good"] in self.me["loads"]
        if name == "deliver":
            return engine.deliver_problem(state, seat, cmd["card"], cmd["demand"]) is None
        if name == "place-train":
            return self.at is None and engine.place_problem(state, seat, self.m.key(self.m.find(cmd["at"]))) is None
        if name == "discard-hand":
            return not state["turn"]["acted"]
        if name == "upgrade":
            return engine.upgrade_problem(state, seat, cmd["train"]) is None and state["stage"] in ("move", "build")
        if name == "discard-cards":
            return state["stage"] == "discard" and len(cmd["cards"]) == self.me["must_discard"]
        return False

    def _command(self) -> Command | None:
        state = self.state
        if state["finished"] or state["active"] != self.seat:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        stage = state["stage"]
        if stage == "discard":
            return self.discard_cards()
        if self.build_phase:
            return self.spend()
        if stage == "move":
            if self.engine.qualifies(state, self.seat):
                return {"cmd": "end-turn"}
            cmd = self.phase_one()
            if cmd is not None:
                return cmd
        return self.spend()

    def discard_cards(self) -> Command:
        best: dict[int, float] = {card: -float(INF) for card in self.me["hand"]}
        for plan in self.plans():
            if len(plan.legs) == 1:
                card = plan.legs[0].card
                best[card] = max(best[card], plan.score)
        worst = sorted(self.me["hand"], key=lambda card: (best[card], card))
        return {"cmd": "discard-cards", "cards": worst[: self.me["must_discard"]]}

    def phase_one(self) -> Command | None:
        if self.at is None:
            cities = self.engine.placeable_cities(self.state, self.seat)
            return self.place_near(cities) if cities else None
        plan = self.plan()
        if not self.state["turn"]["acted"] and self.hopeless(plan):
            return {"cmd": "discard-hand"}
        if self.here is not None:
            cmd = self.deliver_here() or self.at_city(plan)
            if cmd is not None:
                return cmd
        return self.move_on(plan)

    def upgrade(self) -> Command | None:
        train = self.me["train"]
        if train == "modest" and self.money >= FAST_AT:
            to = "fast"
        elif train in ("fast", "heavy") and self.money >= ADVANCED_AT:
            to = "advanced"
        else:
            return None
        if to not in TRAINS[train]["upgrades"]:
            return None
        return {"cmd": "upgrade", "train": to}
