"""Runerail's bots (the model: Resourceful Rails' ``bots.py``).

``random``: a random legal command (builds one section, moves one step); four times in five it picks
among the commands other than ``end-turn``, else among all, so games move on.

``planner``: plays whole turns. The platform asks for one command at a time, so every call derives
the plan afresh from the state (deterministic: the same state gives the same command):

1. **The foreman draft.** Keeps the dealt foreman whose discount fits the terrain around the cities
   of its demand cards (the dwarf's mountains, the elf's forests, the catfolk's jungle; the human's
   free rivers count as a middling fit; the Orc pays no Deepways bribes); never the Troll (who builds
   only in the Deepways) or the Halfling (ships) while another is dealt.
2. **Which order to serve.** Every demand in hand is weighed with every city that sources its load
   (and every load already on the train): payout less the cost of the track still needed to join the
   source and the destination to the network (the rail core's ``build_costs`` with the engine's
   ``RunerailHooks``: the foreman's costs, gates, ports, the Deepways bribe), over the turns it takes
   (movement at the loco's speed, building at 20 gold a turn). Two orders may be combined when the
   loco has room; every load already aboard takes room.
3. **Operating the train.** Deliver whatever a card wants here; drop loads no card wants; pick up the
   plan's load and riders; then move (``plan_move`` with the hooks, tolls and bribes avoided when they
   save no turn) toward the next stop. A hopeless hand (nothing affordable, nothing to deliver) is
   discarded at the start of the turn.
4. **Spending.** Build up to 20 gold toward the plan's cities not yet joined (``plan_build`` from the
   network, cut to the budget); with nothing to build for orders, upgrade the loco one level (10 gold)
   or join the cheapest major city still missing; with gold near 250 the missing majors come first
   (the Ley Line joins Thornhollow and Emberforge while it is open).
5. **Anything else the engine asks** (a hire's choice, a pending decision such as which load to
   lose): one of ``legal_commands``; for a load to lose, the least valuable.

Every command is tried on a deep copy of the state before it is returned; anything the engine would
refuse becomes ``end-turn``, or else the first legal command.
"""

from __future__ import annotations

import copy
import functools
import heapq
import random
from typing import Any

from ..base import Command, RulesError, State
from ..rail_core.core import INTERNAL, PASSAGE, SECTION
from . import data
from .data import BUILD_LIMIT, WIN_GOLD, WIN_MAJORS

INF = 1 << 30
BOTS = ("random", "planner")


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


# -- the map, read once per process ---------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, tuple[int, ...]]:
    """Each city's milepost indices."""
    return {cid: tuple(c.nodes) for cid, c in data.core().map.cities.items()}


@functools.lru_cache(maxsize=1)
def _sources() -> dict[str, tuple[str, ...]]:
    """Each load's source cities (ids, sorted)."""
    out: dict[str, list[str]] = {x: [] for x in data.loads()}
    for city, loads in data.city_loads().items():
        for x in loads:
            out.setdefault(x, []).append(city)
    return {x: tuple(sorted(cs)) for x, cs in out.items()}


@functools.cache
def _from_city(city: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """From any milepost of ``city`` on the empty board (published costs, no foreman): the least build
    cost and the steps of that cheapest path to every milepost (INF where none). Passages (the Ley
    Line, the gates) count as free steps; the Prism Bridge, closed at the start, does not."""
    core = data.core()
    n = len(core.map.nodes)
    cost = [INF] * n
    steps = [INF] * n
    heap: list[tuple[int, int, int]] = []
    for u in _cities()[city]:
        cost[u] = steps[u] = 0
        heap.append((0, 0, u))
    heapq.heapify(heap)
    while heap:
        c, s, u = heapq.heappop(heap)
        if c > cost[u] or (c == cost[u] and s > steps[u]):
            continue
        for v, _key, kind, _sc, base, link in core.out[u]:
            if kind == INTERNAL:
                nc = c
            elif kind == SECTION and base is not None:
                nc = c + base
            elif kind == PASSAGE and link is not None and link.kind != "bridge":
                nc = c
            else:
                continue
            ns = s + 1
            if nc < cost[v] or (nc == cost[v] and ns < steps[v]):
                cost[v], steps[v] = nc, ns
                heapq.heappush(heap, (nc, ns, v))
    return tuple(cost), tuple(steps)


@functools.cache
def _pair(a: str, b: str) -> tuple[int, int]:
    """Empty-board build cost and path length between two cities."""
    cost, steps = _from_city(a)
    best = min(_cities()[b], key=lambda u: (cost[u], steps[u]))
    return cost[best], steps[best]


@functools.cache
def _terrain_near(city: str) -> dict[str, int]:
    """Terrain counts of the mileposts within 3 hexes of ``city`` (its own layer)."""
    m = data.core().map
    nodes = _cities()[city]
    out: dict[str, int] = {}
    for i, node in enumerate(m.nodes):
        if node.city is not None:
            continue
        if any((m.hex_distance(u, i) or INF) <= 3 for u in nodes if m.nodes[u].layer == node.layer):
            out[node.terrain] = out.get(node.terrain, 0) + 1
    return out


_COSTS: dict[tuple[Any, ...], dict[int, int]] = {}


def _build_costs(engine: Any, state: State, seat: int, from_majors: bool, start: str | None) -> dict[int, int]:
    """The rail core's least build cost (with the engine's hooks) to every milepost, from ``start`` (a
    milepost of the main network) or from anywhere building may start; memoised on the board."""
    rail = state["rail"]
    turn = rail.get("turn") or {}
    starts = turn.get("major_starts", 0) if turn.get("player") == seat else 0
    key = (seat, from_majors, start, starts, state["players"][seat]["foreman"], state["turn"]["build_bribe_paid"],
           tuple(sorted((rail.get("links") or {}).items())), tuple(rail["track"].items()))
    found = _COSTS.get(key)
    if found is None:
        core = data.core()
        index = core.map.index
        hooks = engine.hooks(state)
        found = {index[k]: c for k, c in
                 core.build_costs(rail, seat, start=start, from_majors=from_majors, hooks=hooks).items()}
        if len(_COSTS) >= 64:
            _COSTS.clear()
        _COSTS[key] = found
    return found


# -- the planner --------------------------------------------------------------------------------------


class _Leg:
    """One order to serve: a demand and where its load comes from (None: it is on the train)."""

    __slots__ = ("card", "index", "load", "source", "dest", "payout")

    def __init__(self, card: str, index: int, load: str, source: str | None, dest: str, payout: int) -> None:
        self.card, self.index, self.load, self.source, self.dest, self.payout = card, index, load, source, dest, payout


class _Plan:
    """One or two orders, the stops that serve them in order, and what the plan is worth."""

    __slots__ = ("legs", "stops", "build", "joins", "score")

    def __init__(self, legs: tuple[_Leg, ...], stops: list[tuple[str, str, _Leg]], build: int, joins: list[str],
                 score: float) -> None:
        self.legs, self.stops, self.build, self.joins, self.score = legs, stops, build, joins, score

    @property
    def loads(self) -> list[str]:
        return [leg.load for leg in self.legs]


_PAIRED = 8  # the best single orders that are tried in pairs
BUILD_WEIGHT = 0.8  # a gold of track counts this much against a plan's payout (the track stays)
MAJOR_KEEP = 30  # gold kept back when joining major cities with nothing else to build
LATE = 40  # with gold this close to the goal, the missing major cities come before orders
UPGRADE_KEEP = 35  # gold kept back after an upgrade (one level, 10 gold)
TRAIN = "(the train)"  # a build goal: back to where the train stands
STRANDED = 40  # the movement counted from a train no track or land joins to a city (an island)
FOREMAN_FIT = {"dwarf": "mountain", "elf": "forest", "catfolk": "jungle"}


class _Planner:
    def __init__(self, engine: Any, state: State, seat: int) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.core = data.core()
        self.m = self.core.map
        self.rail = state["rail"]
        self.me = state["players"][seat]
        self.gold = self.me["gold"]
        self.speed = engine.speed(state, seat)
        self.capacity = engine.capacity(state, seat)
        self.build_phase = state["phase"] == "build"
        self._costs: dict[int, int] | None = None
        self._has_track: bool | None = None
        self._start: str | None | bool = False
        self.at = self.m.find(self.me["at"]) if self.me.get("at") is not None else None
        self.here = engine.city_at(self.me["at"]) if self.me.get("at") is not None else None
        self._plans: list[_Plan] | None = None
        self._join: dict[str, int] = {}
        self._distances: dict[str, int] | None = None

    @property
    def has_track(self) -> bool:
        if self._has_track is None:
            self._has_track = any(o == self.seat for o in self.rail["track"].values())
        return self._has_track

    @property
    def costs(self) -> dict[int, int]:
        if self._costs is None:
            self._costs = _build_costs(self.engine, self.state, self.seat, from_majors=not self.has_track,
                                       start=self.start)
        return self._costs

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

    # -- costs -------------------------------------------------------------------------------------------

    def join_cost(self, city: str) -> int:
        found = self._join.get(city)
        if found is None:
            costs = self.costs
            found = self._join[city] = min((costs.get(u, INF) for u in _cities()[city]), default=INF)
        return found

    def joined(self, city: str) -> bool:
        return self.has_track and self.join_cost(city) == 0

    def joins(self, cities: list[str]) -> tuple[int, list[str]]:
        """The estimated cost of joining ``cities`` to the network, and the order to build them in
        (Prim's tree over the network and the cities; empty-board costs between cities)."""
        todo: list[str] = []
        for c in cities:
            if c not in todo and not self.joined(c):
                todo.append(c)
        attach = {c: self.join_cost(c) for c in todo}
        total = 0
        order: list[str] = []
        while todo:
            c = min(todo, key=lambda x: (attach[x], todo.index(x)))
            if attach[c] >= INF:
                return INF, order
            total += attach[c]
            order.append(c)
            todo.remove(c)
            if not self.has_track and len(order) == 1:
                attach = {x: INF for x in todo}
            for x in todo:
                attach[x] = min(attach[x], _pair(c, x)[0])
        return total, order

    def steps_to(self, city: str) -> int:
        """Movement from the train to ``city`` along the track (the way it faces counts), else the
        empty board's estimate; 0 before the train is placed."""
        if self.at is None:
            return 0
        if self._distances is None:
            self._distances = self.core.move_distances(self.rail, self.seat, self.me["at"],
                                                       came_from=self.me["came_from"],
                                                       hooks=self.engine.hooks(self.state))
        known = [self._distances[k] for k in (self.m.key(u) for u in _cities()[city]) if k in self._distances]
        if known:
            return min(known)
        estimate = _from_city(city)[1][self.at]
        return estimate if estimate < INF else STRANDED

    # -- the plan ----------------------------------------------------------------------------------------

    def legs(self) -> list[_Leg]:
        cards = data.demand_cards()
        supply = self.state["supply"]
        loads = self.me["loads"]
        sources = _sources()
        out = []
        for card in self.me["hand"]:
            for i, demand in enumerate(cards[card]["demands"]):
                load, dest, payout = demand["load"], demand["city"], demand["payout"]
                if load in loads:
                    out.append(_Leg(card, i, load, None, dest, payout))
                if supply.get(load, 0) > 0:
                    out.extend(_Leg(card, i, load, s, dest, payout) for s in sources.get(load, ()) if s != dest)
        return out

    def evaluate(self, legs: tuple[_Leg, ...], stops: list[tuple[str, str, _Leg]]) -> _Plan | None:
        loads = self.me["loads"]
        carried = [leg.load for leg in legs if leg.source is None]
        for load in set(carried):
            if carried.count(load) > loads.count(load):
                return None
        fresh = [leg.load for leg in legs if leg.source is not None]
        for load in set(fresh):
            if fresh.count(load) > self.state["supply"].get(load, 0):
                return None
        aboard = len(loads)  # every load on the train takes room
        peak = aboard
        for kind, _city, _leg in stops:
            aboard += 1 if kind == "load" else -1
            peak = max(peak, aboard)
        if peak > self.capacity:
            return None
        build, order = self.joins([city for _kind, city, _leg in stops])
        if build >= INF:
            return None
        moves = self.steps_to(stops[0][1])
        for (_k1, a, _l1), (_k2, b, _l2) in zip(stops, stops[1:], strict=False):
            moves += _pair(a, b)[1]
        if moves >= INF:
            return None
        move_turns = moves / self.speed
        build_turns = build / BUILD_LIMIT
        turns = max(move_turns, build_turns) + 0.5 * min(move_turns, build_turns) + 1
        payout = sum(leg.payout for leg in legs)
        score = (payout - BUILD_WEIGHT * build) / turns
        if build > self.gold:
            score -= 1000  # cannot be paid for: only when nothing else can
        return _Plan(legs, stops, build, order, score)

    @staticmethod
    def _stops(*parts: tuple[str, _Leg]) -> list[tuple[str, str, _Leg]]:
        out = []
        for kind, leg in parts:
            if kind == "load":
                if leg.source is not None:
                    out.append(("load", leg.source, leg))
            else:
                out.append(("deliver", leg.dest, leg))
        return out

    def plans(self) -> list[_Plan]:
        """Every plan worth weighing, best first."""
        if self._plans is not None:
            return self._plans
        singles = []
        for leg in self.legs():
            plan = self.evaluate((leg,), self._stops(("load", leg), ("deliver", leg)))
            if plan is not None:
                singles.append(plan)
        singles.sort(key=_plan_key)
        out = list(singles)
        if self.capacity >= 2:
            top = [p.legs[0] for p in singles[:_PAIRED]]
            for a in top:
                for b in top:
                    if a.card == b.card:
                        continue
                    for parts in ((("load", a), ("load", b), ("deliver", a), ("deliver", b)),
                                  (("load", a), ("load", b), ("deliver", b), ("deliver", a)),
                                  (("load", a), ("deliver", a), ("load", b), ("deliver", b))):
                        plan = self.evaluate((a, b), self._stops(*parts))
                        if plan is not None:
                            out.append(plan)
        out.sort(key=_plan_key)
        self._plans = out
        return out

    def plan(self) -> _Plan | None:
        plans = self.plans()
        return plans[0] if plans else None

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
                cities.extend(_sources().get(d["load"], ())[:2])
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
            return self.place()
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
        if self.engine.moves_left(self.state, self.seat) <= 0 or plan is None:
            return None
        loads = list(self.me["loads"])
        targets = []
        for kind, city, leg in plan.stops:
            if city == self.here:
                continue
            if kind == "deliver" and leg.load not in loads:
                continue
            targets.append(city)
        return self.move_to(targets)

    def hopeless(self, plan: _Plan | None) -> bool:
        if plan is None:
            return True
        if plan.build <= self.gold:
            return False
        loads = self.me["loads"]
        return not any(d["load"] in loads and self.joined(d["city"])
                       for card in self.me["hand"] for d in data.demand_cards()[card]["demands"])

    def place(self) -> Command | None:
        plan = self.plan()
        target = plan.stops[0][1] if plan is not None else None
        # a city on the network: the plan's first stop if it is, else the nearest to it
        cities = [c for c in _cities() if self.joined(c)] or list(self.m.majors)
        if target is not None and target in cities:
            best = target
        elif target is not None:
            best = min(cities, key=lambda c: (_pair(c, target)[1], c))
        else:
            best = sorted(cities)[0]
        node = _cities()[best][0]
        return {"cmd": "place-train", "at": self.m.address(node)}

    def deliver_here(self) -> Command | None:
        """The best-paid delivery at the city the train stands in."""
        if self.here is None:
            return None
        loads = self.me["loads"]
        cards = data.demand_cards()
        best = None
        for card in self.me["hand"]:
            for i, d in enumerate(cards[card]["demands"]):
                if d["city"] == self.here and d["load"] in loads:
                    if best is None or d["payout"] > best[0]:
                        best = (d["payout"], card, i)
        return None if best is None else {"cmd": "deliver", "card": best[1], "demand": best[2]}

    def at_city(self, plan: _Plan | None) -> Command | None:
        me = self.me
        cards = data.demand_cards()
        here = self.here
        assert here is not None
        loads = me["loads"]
        here_loads = data.city_loads()[here]
        wanted = {d["load"] for card in me["hand"] for d in cards[card]["demands"]}
        for load in sorted(set(loads)):
            if load not in wanted and load not in here_loads:
                return {"cmd": "drop", "load": load}
        if plan is None:
            return None
        supply = self.state["supply"]
        need = [leg.load for kind, city, leg in plan.stops if kind == "load" and city == here]
        keep = [leg.load for leg in plan.legs if leg.source is None]
        for load in need:
            if load not in here_loads or supply.get(load, 0) <= 0:
                continue
            if len(loads) < self.capacity:
                return {"cmd": "pick-up", "load": load}
            spare = list(loads)
            for x in keep:
                if x in spare:
                    spare.remove(x)
            for x in sorted(spare):
                if x not in here_loads:
                    return {"cmd": "drop", "load": x}
            return None
        room = self.capacity - len(loads) - sum(1 for kind, _c, _l in plan.stops if kind == "load")
        if room > 0:
            plan_cards = {leg.card for leg in plan.legs}
            for card in me["hand"]:
                if card in plan_cards:
                    continue
                for d in cards[card]["demands"]:
                    load = d["load"]
                    if load in here_loads and load not in loads and supply.get(load, 0) > 0 \
                            and load not in plan.loads and self.joined(d["city"]):
                        return {"cmd": "pick-up", "load": load}
        return None

    def move_to(self, cities: list[str]) -> Command | None:
        """Move toward the first of ``cities`` the track reaches."""
        left = self.engine.moves_left(self.state, self.seat)
        for city in cities:
            mv = self.route(city)
            if mv is None:
                continue
            # cut the path to the movement left (a passage may cost more than a step: check the cut)
            for end in range(min(len(mv.path), left + 1), 1, -1):
                path = [self.m.address(self.m.find(k)) for k in mv.path[:end]]
                cmd = {"cmd": "move", "path": path}
                try:
                    self.engine.check_move(self.state, self.seat, path)
                except RulesError:
                    continue
                return cmd
            return None
        return None

    def route(self, city: str) -> Any:
        core, m = self.core, self.m
        nodes = _cities()[city]
        assert self.at is not None
        hooks = self.engine.hooks(self.state)
        target = min(nodes, key=lambda u: (m.hex_distance(self.at, u) if m.hex_distance(self.at, u) is not None
                                           else INF, u))
        me = self.me
        mv = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.gold,
                            came_from=me["came_from"], hooks=hooks)
        if mv is None or not mv.fees:
            return mv
        cheap = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.gold,
                               came_from=me["came_from"], prefer="fees", hooks=hooks)
        left = self.engine.moves_left(self.state, self.seat)

        def turns(moves: int) -> int:
            return 0 if moves <= left else 1 + (moves - left - 1) // self.speed

        if cheap is not None and turns(cheap.moves) <= turns(mv.moves):
            return cheap
        return mv

    # -- spending -----------------------------------------------------------------------------------------

    def spend(self) -> Command | None:
        state = self.state
        budget = self.engine.budget_left(state, self.seat)
        spent = state["turn"]["spent"]
        for city, keep in self.build_goals():
            if city == "upgrade":
                if spent == 0 and not self.build_phase:
                    up = self.upgrade()
                    if up is not None:
                        return up
                continue
            cmd = self.build_toward(city, min(budget, self.gold - keep))
            if cmd is not None:
                return cmd
        return {"cmd": "end-turn"}

    def stranded(self) -> bool:
        """The train stands where no track of its owner leads (destroyed under it by an event)."""
        if self.at is None or self.build_phase:
            return False
        if self.costs.get(self.at, INF) == 0:
            return False  # on the network: it is not the train's milepost that needs track
        return not any(self.rail["track"].get(nb.key) == self.seat for nb in self.m.adjacency[self.at])

    def build_goals(self) -> list[tuple[str, int]]:
        goals: list[tuple[str, int]] = []
        if self.stranded():
            goals.append((TRAIN, 0))
        majors = self.core.majors_connected(self.rail, self.seat) if self.has_track else []
        missing = self.missing_majors(majors)
        if len(majors) < WIN_MAJORS and self.gold >= WIN_GOLD - LATE:
            goals.extend((c, 0) for c in missing)
        plans = self.plans()
        if plans:
            if plans[0].build <= self.gold:
                goals.extend((c, 0) for c in plans[0].joins)
            if self.build_phase:
                cards = {leg.card for leg in plans[0].legs}
                for p in plans[1:]:
                    if not cards & {leg.card for leg in p.legs} and p.build <= self.gold:
                        goals.extend((c, 0) for c in p.joins)
                        break
        if self.build_phase:
            goals.extend((c, 0) for c in missing)
            return goals
        goals.append(("upgrade", 0))
        goals.extend((c, MAJOR_KEEP) for c in missing)
        return goals

    def missing_majors(self, majors: list[str]) -> list[str]:
        need = WIN_MAJORS - len(majors)
        if need <= 0:
            return []
        rest = [c for c in self.m.majors if c not in majors]
        rest.sort(key=lambda c: (self.join_cost(c), c))
        return rest[:need]

    def upgrade(self) -> Command | None:
        """One level up (10 gold) when the gold allows: the fastest loco of the next level, three loads
        from level 3 up."""
        locos = data.locos()
        level = locos[self.me["loco"]]["level"]
        price = data.upgrade_rules()["cost_per_level"]
        if self.gold < price + UPGRADE_KEEP + 10 * (level - 1):
            return None
        options = [x for x, spec in locos.items() if spec["level"] == level + 1
                   and self.engine.upgrade_problem(self.state, self.seat, x) is None]
        if not options:
            return None
        best = max(options, key=lambda x: (locos[x]["speed"] + (4 if level >= 2 else 0) * locos[x]["loads"], x))
        return {"cmd": "upgrade", "loco": best}

    def build_toward(self, city: str, budget: int) -> Command | None:
        if budget <= 0:
            return None
        core, m = self.core, self.m
        costs = self.costs
        nodes = (self.at,) if city == TRAIN else _cities()[city]
        target = min(nodes, key=lambda u: (costs.get(u, INF), u))
        if costs.get(target, INF) >= INF or (self.has_track and costs.get(target) == 0):
            return None
        plan = core.plan_build(self.rail, self.seat, m.key(target), start=self.start,
                               from_majors=not self.has_track, hooks=self.engine.hooks(self.state))
        if plan is None or not plan.sections:
            return None
        new = {tuple(s) for s in plan.sections}
        fee = plan.fee or 0
        spent = fee
        cut = 0
        for i in range(1, len(plan.path)):
            pair = (plan.path[i - 1], plan.path[i])
            if pair in new:
                price = plan.costs[plan.sections.index(list(pair))]
                if spent + price > budget:
                    break
                spent += price
                cut = i
            else:
                cut = i
        while cut > 0 and (plan.path[cut - 1], plan.path[cut]) not in new:
            cut -= 1
        if cut < 1 or spent <= fee:
            return None
        path = [m.address(m.find(k)) for k in plan.path[: cut + 1]]
        try:
            self.engine.check_build(self.state, self.seat, path)
        except RulesError:
            return None
        return {"cmd": "build", "path": path}


def _plan_key(plan: _Plan) -> tuple[Any, ...]:
    return (-plan.score, [(leg.card, leg.index, leg.source or "") for leg in plan.legs],
            [(k, c) for k, c, _leg in plan.stops])
