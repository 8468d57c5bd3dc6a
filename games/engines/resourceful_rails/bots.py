"""Resourceful Rails' bots.

``random``: a random legal command (builds one section, moves one step).

``planner``: plays whole turns. The platform asks for one command at a time, so every call derives
the plan afresh from the state (deterministic: the same state gives the same command):

1. **Which order to serve.** Every demand in hand is weighed with every city that sources its good
   (and every load already on the train): payout less the cost of the track still needed to join the
   source and the destination to the network (the rail core's ``build_costs`` from the network, and
   the empty-board cost between two cities for a leg that hangs off the other), over the turns it
   takes (movement at the train's speed, building at $20 a turn, waiting for cash it lacks). The best
   is *the plan*; loads for other orders whose cities the network already joins come along when
   there is room.
2. **Phase 1.** Deliver whatever a card wants here; drop loads no card wants; pick up the plan's good
   and the riders; then move (``plan_move``, tolls avoided when they save no turn) to the nearest
   stop: a delivery, or the plan's source. A hopeless hand (nothing it could afford to join, nothing
   to deliver) is discarded at the start of the turn.
3. **Phase 2.** Build up to $20 toward the plan's cities not yet joined (``plan_build`` from the
   network, cut to the budget); with nothing to build for orders, upgrade (fast, later advanced)
   or join the cheapest major city still missing; late in the game (cash near the goal) the
   missing majors come first. Then end the turn.
4. **Build rounds.** The first section starts from the major city that makes the best order
   cheapest; then as phase 2.

Every command is checked before it is returned (the engine's own checks); anything it would
refuse becomes ``end-turn``.
"""

from __future__ import annotations

import functools
import heapq
import random
from typing import Any

from ..base import Command, RulesError, State
from ..rail_core.core import INTERNAL, SECTION
from . import data
from .data import BUILD_LIMIT, TRAINS, UPGRADE_COST, WIN_CASH, WIN_MAJORS

INF = 1 << 30


def choose(engine: Any, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    if bot == "planner":
        return _Planner(engine, state, seat).command()
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    return rng.choice(legal)


# -- the map, read once per process ---------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, tuple[int, ...]]:
    """Each city's milepost indices."""
    return {cid: tuple(c.nodes) for cid, c in data.core().map.cities.items()}


@functools.lru_cache(maxsize=1)
def _sources() -> dict[str, tuple[str, ...]]:
    """Each good's source cities (ids, sorted)."""
    out: dict[str, list[str]] = {g: [] for g in data.goods()}
    for city, goods in data.city_goods().items():
        for g in goods:
            out[g].append(city)
    return {g: tuple(sorted(cs)) for g, cs in out.items()}


@functools.cache
def _from_city(city: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """From any milepost of ``city`` on the empty board: the least build cost and the steps of that
    cheapest path to every milepost (INF where none)."""
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
        for v, _key, kind, _sc, base, _link in core.out[u]:
            if kind == INTERNAL:
                nc = c
            elif kind == SECTION and base is not None:
                nc = c + base
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


_COSTS: dict[tuple[Any, ...], dict[int, int]] = {}


def _build_costs(rail: dict[str, Any], seat: int, from_majors: bool) -> dict[int, int]:
    """The rail core's least build cost to every milepost (indices), memoised on the board."""
    turn = rail.get("turn") or {}
    starts = turn.get("major_starts", 0) if turn.get("player") == seat else 0
    key = (seat, from_majors, starts, tuple(rail["players"]), tuple(rail["track"].items()))
    found = _COSTS.get(key)
    if found is None:
        core = data.core()
        index = core.map.index
        found = {index[k]: c for k, c in core.build_costs(rail, seat, from_majors=from_majors).items()}
        if len(_COSTS) >= 64:
            _COSTS.clear()
        _COSTS[key] = found
    return found


# -- the planner --------------------------------------------------------------------------------------


class _Leg:
    """One order to serve: a demand and where its load comes from (None: it is on the train)."""

    __slots__ = ("card", "index", "good", "source", "dest", "payout")

    def __init__(self, card: int, index: int, good: str, source: str | None, dest: str, payout: int) -> None:
        self.card, self.index, self.good, self.source, self.dest, self.payout = card, index, good, source, dest, payout


class _Plan:
    """One or two orders, the stops that serve them in order, and what the plan is worth."""

    __slots__ = ("legs", "stops", "build", "joins", "score")

    def __init__(self, legs: tuple[_Leg, ...], stops: list[tuple[str, str, _Leg]], build: int, joins: list[str],
                 score: float) -> None:
        self.legs, self.stops, self.build, self.joins, self.score = legs, stops, build, joins, score

    @property
    def goods(self) -> list[str]:
        return [leg.good for leg in self.legs]


_PAIRED = 8  # the best single orders that are tried in pairs
BUILD_WEIGHT = 0.8  # a dollar of track counts this much against a plan's payout (the track stays)
MAJOR_KEEP = 30  # cash kept back when joining major cities with nothing else to build
LATE = 40  # with cash this close to the goal, the missing major cities come before orders
FAST_AT = UPGRADE_COST + 15  # cash for the first upgrade (modest to fast)
ADVANCED_AT = UPGRADE_COST + 60  # cash for the second (to advanced)


class _Planner:
    def __init__(self, engine: Any, state: State, seat: int) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.core = data.core()
        self.m = self.core.map
        self.rail = state["rail"]
        self.me = state["players"][seat]
        self.cash = self.me["cash"]
        self.speed = engine.speed(state, seat)
        self.capacity = engine.capacity(state, seat)
        self.build_phase = state["phase"] == "build"
        limit = state["options"]["round_limit"]
        # with a round limit, the rounds still to play (this one included): what pays later is worth nothing
        self.rounds_left = limit - state["round"] + 1 if limit else None
        self.has_track = any(o == seat for o in self.rail["track"].values())
        self.costs = _build_costs(self.rail, seat, from_majors=not self.has_track)
        self.at = self.m.find(self.me["at"]) if self.me["at"] is not None else None
        self.here = engine.city_at(self.me["at"]) if self.me["at"] is not None else None
        self._plans: list[_Plan] | None = None
        self._join: dict[str, int] = {}
        self._distances: dict[str, int] | None = None  # movement to every milepost the train reaches

    # -- costs -------------------------------------------------------------------------------------------

    def join_cost(self, city: str) -> int:
        """What joining ``city`` to the network costs now (0: joined); with no track yet, from the
        nearest major city."""
        found = self._join.get(city)
        if found is None:
            costs = self.costs
            found = self._join[city] = min((costs.get(u, INF) for u in _cities()[city]), default=INF)
        return found

    def joined(self, city: str) -> bool:
        return self.has_track and self.join_cost(city) == 0

    def joins(self, cities: list[str]) -> tuple[int, list[str]]:
        """The estimated cost of joining ``cities`` to the network, and the order to build them in:
        Prim's tree over the network and the cities (a city hangs off the network or off a city
        joined before it; empty-board costs between cities). With no track the first city is joined
        from the nearest major city and the others hang off it."""
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
        """Mileposts from the train to ``city`` (0 when the train is not on the map yet): the real move
        along the track when there is one — the way the train faces counts, since it reverses only at a
        city — else the empty board's estimate. (With the estimate alone a train between two cities
        facing away from its plan's first stop shuttled: the plan changed each time it turned round.)"""
        if self.at is None:
            return 0
        if self._distances is None:
            self._distances = self.core.move_distances(self.rail, self.seat, self.me["at"], came_from=self.me["came_from"])
        known = [self._distances[k] for k in (self.m.key(u) for u in _cities()[city]) if k in self._distances]
        return min(known) if known else _from_city(city)[1][self.at]

    # -- the plan ----------------------------------------------------------------------------------------

    def legs(self) -> list[_Leg]:
        cards = data.cards()
        supply = self.state["supply"]
        loads = self.me["loads"]
        sources = _sources()
        out = []
        for card in self.me["hand"]:
            for i, demand in enumerate(cards[card]["demands"]):
                good, dest, payout = demand["good"], demand["city"], demand["payout"]
                if good in loads:
                    out.append(_Leg(card, i, good, None, dest, payout))
                if supply.get(good, 0) > 0:
                    out.extend(_Leg(card, i, good, s, dest, payout) for s in sources[good] if s != dest)
        return out

    def evaluate(self, legs: tuple[_Leg, ...], stops: list[tuple[str, str, _Leg]]) -> _Plan | None:
        loads = self.me["loads"]
        carried = [leg.good for leg in legs if leg.source is None]
        for good in set(carried):
            if carried.count(good) > loads.count(good):
                return None
        fresh = [leg.good for leg in legs if leg.source is not None]
        for good in set(fresh):
            if fresh.count(good) > self.state["supply"].get(good, 0):
                return None
        aboard = len(loads)  # every load on the train takes room, the ones this plan does not deliver too
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
        move_turns = moves / self.speed
        build_turns = build / BUILD_LIMIT
        turns = max(move_turns, build_turns) + 0.5 * min(move_turns, build_turns) + 1
        payout = sum(leg.payout for leg in legs)
        score = (payout - BUILD_WEIGHT * build) / turns
        if build > self.cash:
            score -= 1000  # cannot be paid for: only when nothing else can
        if self.rounds_left is not None and turns > self.rounds_left:
            score -= 500  # pays only after the game has ended
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
                                     cash=self.cash, came_from=self.me["came_from"])
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
            return self.phase_two()
        if stage == "move":
            if self.engine.qualifies(state, self.seat):
                return {"cmd": "end-turn"}
            cmd = self.phase_one()
            if cmd is not None:
                return cmd
        return self.phase_two()

    # -- the first turn's discard (extra starting cards) -----------------------------------------------

    def discard_cards(self) -> Command:
        best: dict[int, float] = {card: -float(INF) for card in self.me["hand"]}
        for plan in self.plans():
            if len(plan.legs) == 1:
                card = plan.legs[0].card
                best[card] = max(best[card], plan.score)
        worst = sorted(self.me["hand"], key=lambda card: (best[card], card))
        return {"cmd": "discard-cards", "cards": worst[: self.me["must_discard"]]}

    # -- phase 1 -----------------------------------------------------------------------------------------

    def phase_one(self) -> Command | None:
        if self.at is None:
            return self.place()
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
            if kind == "deliver" and leg.good not in loads:
                continue
            targets.append(city)
        return self.move_to(targets)

    def hopeless(self, plan: _Plan | None) -> bool:
        """Nothing to deliver and nothing affordable: the hand is better discarded."""
        if plan is None:
            return True
        if plan.build <= self.cash:
            return False
        cards = data.cards()
        loads = self.me["loads"]
        return not any(d["good"] in loads and self.joined(d["city"])
                       for card in self.me["hand"] for d in cards[card]["demands"])

    def place(self) -> Command | None:
        cities = self.engine.placeable_cities(self.state, self.seat)
        if not cities:
            return None
        plan = self.plan()
        target = plan.stops[0][1] if plan is not None else None
        if target is not None and target in cities:
            best = target
        elif target is not None:
            best = min(cities, key=lambda c: (_pair(c, target)[1], c))
        else:
            best = sorted(cities)[0]
        node = _cities()[best][0]
        return {"cmd": "place-train", "at": self.m.address(node)}

    def at_city(self, plan: _Plan | None) -> Command | None:
        me = self.me
        cards = data.cards()
        here = self.here
        assert here is not None
        loads = me["loads"]
        # deliver: the best payout here
        best = None
        for card in me["hand"]:
            for i, d in enumerate(cards[card]["demands"]):
                if d["city"] == here and d["good"] in loads:
                    if best is None or d["payout"] > best[0]:
                        best = (d["payout"], card, i)
        if best is not None:
            return {"cmd": "deliver", "card": best[1], "demand": best[2]}
        here_goods = data.city_goods()[here]
        # drop loads no card wants
        wanted = {d["good"] for card in me["hand"] for d in cards[card]["demands"]}
        for good in sorted(set(loads)):
            if good not in wanted and good not in here_goods:
                return {"cmd": "drop", "good": good}
        if plan is None:
            return None
        supply = self.state["supply"]
        # the plan's loads from here
        need = [leg.good for kind, city, leg in plan.stops if kind == "load" and city == here]
        keep = [leg.good for leg in plan.legs if leg.source is None]
        for good in need:
            if good not in here_goods or supply.get(good, 0) <= 0:
                continue
            if len(loads) < self.capacity:
                return {"cmd": "pick-up", "good": good}
            # full: make room by dropping a load the plan does not carry
            spare = list(loads)
            for g in keep:
                if g in spare:
                    spare.remove(g)
            for g in sorted(spare):
                if g not in here_goods:
                    return {"cmd": "drop", "good": g}
            return None
        # riders: another order whose source is here and whose destination the network joins
        room = self.capacity - len(loads) - sum(1 for kind, _c, _l in plan.stops if kind == "load")
        if room > 0:
            plan_cards = {leg.card for leg in plan.legs}
            for card in me["hand"]:
                if card in plan_cards:
                    continue
                for d in cards[card]["demands"]:
                    good = d["good"]
                    if good in here_goods and good not in loads and supply.get(good, 0) > 0 \
                            and good not in plan.goods and self.joined(d["city"]):
                        return {"cmd": "pick-up", "good": good}
        return None

    def move_to(self, cities: list[str]) -> Command | None:
        """Move toward the first of ``cities`` the track reaches."""
        left = self.engine.moves_left(self.state, self.seat)
        for city in cities:
            mv = self.route(city)
            if mv is None:
                continue
            path = mv.path[: left + 1]
            if len(path) < 2:
                return None
            return {"cmd": "move", "path": [self.m.address(self.m.find(k)) for k in path]}
        return None

    def route(self, city: str) -> Any:
        core, m = self.core, self.m
        nodes = _cities()[city]
        assert self.at is not None
        target = min(nodes, key=lambda u: (m.hex_distance(self.at, u) or 0, u))
        me = self.me
        mv = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.cash, came_from=me["came_from"])
        if mv is None or not mv.fees:
            return mv
        cheap = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.cash,
                               came_from=me["came_from"], prefer="fees")
        left = self.engine.moves_left(self.state, self.seat)

        def turns(moves: int) -> int:
            return 0 if moves <= left else 1 + (moves - left - 1) // self.speed

        if cheap is not None and turns(cheap.moves) <= turns(mv.moves):
            return cheap
        return mv

    # -- phase 2 -----------------------------------------------------------------------------------------

    def phase_two(self) -> Command | None:
        state = self.state
        budget = self.engine.build_left(state, self.seat)
        spent = state["turn"]["spent"]
        for city, keep in self.build_goals():
            if city == "upgrade":
                if spent == 0 and not self.build_phase:
                    up = self.upgrade()
                    if up is not None:
                        return up
                continue
            cmd = self.build_toward(city, min(budget, self.cash - keep))
            if cmd is not None:
                return cmd
        return {"cmd": "end-turn"}

    def build_goals(self) -> list[tuple[str, int]]:
        """The cities to build toward, most urgent first, with the cash to keep back for each
        (``"upgrade"`` marks where an upgrade fits in)."""
        goals: list[tuple[str, int]] = []
        majors = self.core.majors_connected(self.rail, self.seat) if self.has_track else []
        missing = self.missing_majors(majors)
        if len(majors) < WIN_MAJORS and self.cash >= WIN_CASH - LATE:
            goals.extend((c, 0) for c in missing)
        plans = self.plans()
        if plans:
            if self.worth_building(plans[0]):
                goals.extend((c, 0) for c in plans[0].joins)
            if self.build_phase:
                # the next best plan with other cards, for what the build rounds leave
                cards = {leg.card for leg in plans[0].legs}
                for p in plans[1:]:
                    if not cards & {leg.card for leg in p.legs} and self.worth_building(p):
                        goals.extend((c, 0) for c in p.joins)
                        break
        if self.build_phase:
            goals.extend((c, 0) for c in missing)
            return goals
        if self.rounds_left is None or self.rounds_left > 8:
            goals.append(("upgrade", 0))
        if self.rounds_left is None:
            goals.extend((c, MAJOR_KEEP) for c in missing)
        return goals

    def worth_building(self, plan: _Plan) -> bool:
        """Whether to spend on a plan: it can be paid for and it pays before a round limit ends the game."""
        if plan.build > self.cash:
            return False
        return self.rounds_left is None or plan.score > -400

    def missing_majors(self, majors: list[str]) -> list[str]:
        """The major cities still to join, cheapest first, as many as the win needs."""
        need = WIN_MAJORS - len(majors)
        if need <= 0:
            return []
        rest = [c for c in self.m.majors if c not in majors]
        rest.sort(key=lambda c: (self.join_cost(c), c))
        return rest[:need]

    def upgrade(self) -> Command | None:
        train = self.me["train"]
        if train == "modest" and self.cash >= FAST_AT:
            to = "fast"
        elif train in ("fast", "heavy") and self.cash >= ADVANCED_AT:
            to = "advanced"
        else:
            return None
        if to not in TRAINS[train]["upgrades"]:
            return None
        return {"cmd": "upgrade", "train": to}

    def build_toward(self, city: str, budget: int) -> Command | None:
        if budget <= 0:
            return None
        core, m = self.core, self.m
        costs = self.costs
        nodes = _cities()[city]
        target = min(nodes, key=lambda u: (costs.get(u, INF), u))
        if costs.get(target, INF) >= INF or (self.has_track and costs.get(target) == 0):
            return None
        plan = core.plan_build(self.rail, self.seat, m.key(target), from_majors=not self.has_track)
        if plan is None or not plan.sections:
            return None
        # cut the path where the budget runs out
        new = {tuple(s) for s in plan.sections}
        spent = 0
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
        # do not end the cut path on free steps after the last new section
        while cut > 0 and (plan.path[cut - 1], plan.path[cut]) not in new:
            cut -= 1
        if cut < 1 or spent <= 0:
            return None
        path = plan.path[: cut + 1]
        return {"cmd": "build", "path": [m.address(m.find(k)) for k in path]}


def _plan_key(plan: _Plan) -> tuple[Any, ...]:
    return (-plan.score, [(leg.card, leg.index, leg.source or "") for leg in plan.legs],
            [(k, c) for k, c, _leg in plan.stops])
