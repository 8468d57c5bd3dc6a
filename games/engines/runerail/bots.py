"""Runerail's bots.

``random``: a random legal command (builds one section, moves one step); four times in five it picks
among the commands other than ``end-turn``, else among all, so games move on.

``planner``: plays whole turns with the rail titles' shared planner (``../rail_core/bot.py``: which
order to serve, operating the train, spending), costs and moves through the engine's
``RunerailHooks`` (the foreman's costs, gates, ports, the Deepways bribe); here, Runerail's own parts:

1. **The foreman draft.** Keeps the dealt foreman whose discount fits the terrain around the cities
   of its demand cards (the dwarf's mountains, the elf's forests, the catfolk's jungle; the human's
   free rivers count as a middling fit; the Orc pays no Deepways bribes); never the Troll (who builds
   only in the Deepways) or the Halfling (ships) while another is dealt.
2. **Operating the train.** Deliver first; a hopeless hand is discarded at the start of the turn; the
   train is placed at a city of its network (else a major city) nearest the plan's first stop. The
   empty board's estimate crosses the Ley Line and the gates for free (not the Prism Bridge, closed at
   the start); a train no track or land joins to a city counts a long way from it.
3. **Spending.** Upgrade the loco one level (10 gold) when the gold allows; with gold near 250 the
   missing majors come first (the Ley Line joins Thornhollow and Emberforge while it is open). When an
   event destroyed track, building starts from the piece the train stands on (else the one with the
   most major cities), and a train cut off from its track builds back to it first.
4. **Anything else the engine asks** (a hire's choice, a pending decision such as which load to
   lose): one of ``legal_commands``; for a load to lose, the least valuable.

Every command is tried on a deep copy of the state before it is returned; anything the engine would
refuse becomes ``end-turn``, or else the first legal command.
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

from ..base import Command, RulesError, State
from ..rail_core.bot import INF, Board, RailPlanner
from . import data
from .data import BUILD_LIMIT, WIN_GOLD, WIN_MAJORS

BOTS = ("random", "planner")
UPGRADE_KEEP = 35  # gold kept back after an upgrade (one level, 10 gold)
FOREMAN_FIT = {"dwarf": "mountain", "elf": "forest", "catfolk": "jungle"}


def choose(engine: Any, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    if bot == "planner":
        return _Planner(engine, state, seat).command()
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    others = [c for c in legal if c["cmd"] != "end-turn"]
    if others and rng.random() < 0.8:
        return rng.choice(others)
    return rng.choice(legal)


def _accepted(engine: Any, state: State, seat: int, command: Command) -> bool:
    """Whether the engine takes ``command`` (tried on a copy: the state is not changed)."""
    try:
        engine.apply(copy.deepcopy(state), seat=seat, command=copy.deepcopy(command))
    except RulesError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def board() -> Board:
    """The map as the planner reads it, once per process: passages (the Ley Line, the gates) are free
    steps of the empty board's estimate; the Prism Bridge, closed at the start, is not."""
    return Board(data.core(), data.city_loads(), data.loads(), free_passage=lambda link: link.kind != "bridge")


@functools.cache
def _terrain_near(city: str) -> dict[str, int]:
    """Terrain counts of the mileposts within 3 hexes of ``city`` (its own layer)."""
    m = data.core().map
    nodes = board().cities[city]
    out: dict[str, int] = {}
    for i, node in enumerate(m.nodes):
        if node.city is not None:
            continue
        if any((m.hex_distance(u, i) or INF) <= 3 for u in nodes if m.nodes[u].layer == node.layer):
            out[node.terrain] = out.get(node.terrain, 0) + 1
    return out


class _Planner(RailPlanner):
    LOAD = "load"
    MONEY = "gold"
    BUILD_LIMIT = BUILD_LIMIT
    WIN_MONEY = WIN_GOLD
    WIN_MAJORS = WIN_MAJORS
    STRANDED = 40  # the movement counted from a train no track or land joins to a city (an island)

    def __init__(self, engine: Any, state: State, seat: int) -> None:
        super().__init__(engine, state, seat, board())
        self._start: str | None | bool = False

    def cards(self) -> dict[str, dict[str, Any]]:
        return data.demand_cards()

    def city_loads(self, city: str) -> list[str]:
        return data.city_loads()[city]

    def budget(self) -> int:
        return self.engine.budget_left(self.state, self.seat)

    def hooks(self) -> Any:
        return self.engine.hooks(self.state)

    def cost_key(self) -> tuple[Any, ...]:
        return (self.me["foreman"], self.state["turn"]["build_bribe_paid"],
                tuple(sorted((self.rail.get("links") or {}).items())))

    def move_ok(self, path: list[str]) -> bool:
        try:
            self.engine.check_move(self.state, self.seat, path)
        except RulesError:
            return False
        return True

    def build_ok(self, path: list[str]) -> bool:
        try:
            self.engine.check_build(self.state, self.seat, path)
        except RulesError:
            return False
        return True

    @property
    def start(self) -> str | None:
        """Where building starts when the network is in pieces (track destroyed by an event): a milepost
        of the piece the train stands on, else of the one with the most major cities; None (anywhere
        building may start) while it is whole."""
        if self._start is False:
            self._start = None
            if self.has_track:
                comps = self.core.components(self.rail, self.seat)
                if len(comps) > 1:
                    m = self.m
                    at = self.me.get("at")
                    majors = {cid: m.key(m.cities[cid].nodes[0]) for cid in m.majors}

                    def weight(comp: list[str]) -> tuple[int, int, int]:
                        keys = set(comp)
                        return (at in keys, sum(k in keys for k in majors.values()), len(keys))

                    main = max(comps, key=weight)
                    self._start = next((k for k in main if self.core.can_start_at(self.rail, self.seat, m.index[k])),
                                       None)
        return self._start  # type: ignore[return-value]

    def stranded(self) -> bool:
        """The train stands where no track of its owner leads (destroyed under it by an event)."""
        if self.at is None or self.build_phase:
            return False
        if self.costs.get(self.at, INF) == 0:
            return False  # on the network: it is not the train's milepost that needs track
        return not any(self.rail["track"].get(nb.key) == self.seat for nb in self.m.adjacency[self.at])

    # -- the command ---------------------------------------------------------------------------------------

    def command(self) -> Command:
        state = self.state
        if state["finished"] or self.seat not in self.engine.active_seats(state):
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        try:
            cmd = self._command()
        except RulesError:
            cmd = None
        if cmd is not None and _accepted(self.engine, state, self.seat, cmd):
            return cmd
        end = {"cmd": "end-turn"}
        if _accepted(self.engine, state, self.seat, end):
            return end
        legal = self.engine.legal_commands(state, seat=self.seat)
        if not legal:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        return legal[0]

    def _command(self) -> Command | None:
        state = self.state
        if state.get("pending") or state.get("ship_offer"):
            return self.decide()
        if state["phase"] == "draft" or (state.get("hire") is not None and state["hire"]["seat"] == self.seat):
            return self.keep_foreman()
        stage = state["stage"]
        if stage not in ("move", "build") or state["phase"] not in ("build", "play"):
            return self.decide()
        if self.build_phase:
            return self.spend()
        if stage == "move":
            if self.engine.qualifies(state, self.seat):
                return {"cmd": "end-turn"}
            cmd = self.operate()
            if cmd is not None:
                return cmd
        return self.spend()

    # -- the draft and other choices ------------------------------------------------------------------

    def foreman_fit(self, foreman: str | None) -> float:
        if foreman is None:
            return -100.0
        spec = data.foremen()[foreman]
        kind = spec["kind"]
        if kind == "troll":
            return -50.0
        if kind == "halfling":
            return -10.0
        if kind == "orc":
            return 5.0
        if kind == "human":
            return 12.0
        terrain = FOREMAN_FIT.get(kind)
        if terrain is None:
            return 0.0
        cities: list[str] = []
        for card in self.me["hand"]:
            for d in data.demand_cards()[card]["demands"]:
                cities.append(d["city"])
                cities.extend(self.board.sources.get(d["load"], ())[:2])
        return sum(_terrain_near(c).get(terrain, 0) for c in cities) / max(1, len(cities)) * 2

    def keep_foreman(self) -> Command:
        state = self.state
        if state.get("hire") is not None:
            offered = [state["hire"]["drawn"], self.me["foreman"]]
        else:
            offered = list(state["draft"]["dealt"].get(str(self.seat), []))
        offered = [f for f in offered if f is not None]
        if not offered:
            return {"cmd": "keep-foreman", "foreman": None}
        best = max(offered, key=lambda f: (self.foreman_fit(f), f))
        return {"cmd": "keep-foreman", "foreman": best}

    def decide(self) -> Command | None:
        """A decision the engine asks for that the planner has no rule for: a legal command, the least
        valuable load when one is to be lost."""
        legal = [c for c in self.engine.legal_commands(self.state, seat=self.seat) if c["cmd"] not in ("build", "move")]
        if not legal:
            return None
        with_load = [c for c in legal if "load" in c]
        if with_load:
            return min(with_load, key=lambda c: (self.load_value(c["load"]), str(c["load"])))
        return legal[0]

    def load_value(self, load: str) -> int:
        """The best payout any card in hand offers for ``load`` (0: none wants it)."""
        return max((d["payout"] for card in self.me["hand"] for d in data.demand_cards()[card]["demands"]
                    if d["load"] == load), default=0)

    # -- operating the train ------------------------------------------------------------------------------

    def operate(self) -> Command | None:
        if self.at is None:
            # a city on the network: the plan's first stop if it is, else the nearest to it
            return self.place_near([c for c in self.board.cities if self.joined(c)] or list(self.m.majors))
        deliver = self.deliver_here()
        if deliver is not None:
            return deliver
        plan = self.plan()
        if not self.state["turn"]["acted"] and self.hopeless(plan):
            return {"cmd": "discard-hand"}
        if self.here is not None:
            cmd = self.at_city(plan)
            if cmd is not None:
                return cmd
        return self.move_on(plan)

    # -- spending -----------------------------------------------------------------------------------------

    def upgrade(self) -> Command | None:
        """One level up (10 gold) when the gold allows: the fastest loco of the next level, three loads
        from level 3 up."""
        locos = data.locos()
        level = locos[self.me["loco"]]["level"]
        price = data.upgrade_rules()["cost_per_level"]
        if self.money < price + UPGRADE_KEEP + 10 * (level - 1):
            return None
        options = [x for x, spec in locos.items() if spec["level"] == level + 1
                   and self.engine.upgrade_problem(self.state, self.seat, x) is None]
        if not options:
            return None
        best = max(options, key=lambda x: (locos[x]["speed"] + (4 if level >= 2 else 0) * locos[x]["loads"], x))
        return {"cmd": "upgrade", "loco": best}
