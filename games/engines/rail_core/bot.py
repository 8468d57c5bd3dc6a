"""The rail titles' planner bot: what Resourceful Rails' and Runerail's ``planner`` share.

The platform asks a bot for one command at a time, so every call derives the plan afresh from the
state (deterministic: the same state gives the same command). :class:`RailPlanner` holds the parts
both titles play alike; each title's ``bots.py`` subclasses it with its names (what a train carries,
the money), its data, its hooks and checks, and what only it has (dispatch, placement, upgrades,
Runerail's foreman draft and decisions).

1. **Which order to serve.** Every demand in hand is weighed with every city that sources its load
   (and every load already on the train): payout less the cost of the track still needed to join the
   source and the destination to the network (the rail core's ``build_costs`` from the network, with
   the title's hooks; the empty-board cost between two cities for a leg that hangs off another), over
   the turns it takes (movement at the train's speed, building at the title's limit a turn). Two
   orders may be combined when the train has room; every load already aboard takes room. With a round
   limit, what pays only after the last round is worth nothing.
2. **Operating the train.** Deliver whatever a card wants here; drop loads no card wants; pick up the
   plan's loads and riders (other orders whose cities the network already joins); then move
   (``plan_move``, tolls and fees avoided when they save no turn) toward the next stop.
3. **Spending.** Build up to the turn's budget toward the plan's cities not yet joined (``plan_build``
   from the network, cut to the budget); with nothing to build for orders, upgrade or join the cheapest
   major city still missing; with money near the goal the missing majors come first.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..base import Command, State
from .core import INTERNAL, PASSAGE, SECTION

INF = 1 << 30
PAIRED = 8  # the best single orders that are tried in pairs
BUILD_WEIGHT = 0.8  # a unit of money spent on track counts this much against a plan's payout (the track stays)
MAJOR_KEEP = 30  # money kept back when joining major cities with nothing else to build
LATE = 40  # with money this close to the goal, the missing major cities come before orders
TRAIN = "(the train)"  # a build goal: back to where the train stands
UPGRADE = "upgrade"  # where an upgrade fits among the build goals


class Board:
    """A title's map as the planner reads it, made once per process: each city's mileposts, each
    load's source cities, and memoised empty-board and network costs. ``free_passage(link)``: whether
    the empty-board estimate crosses a public link (a passage) for free (None: never)."""

    def __init__(self, core: Any, city_loads: Mapping[str, Iterable[str]], loads: Iterable[str], *,
                 free_passage: Callable[[Any], bool] | None = None) -> None:
        self.core = core
        self.cities: dict[str, tuple[int, ...]] = {cid: tuple(c.nodes) for cid, c in core.map.cities.items()}
        out: dict[str, list[str]] = {x: [] for x in loads}
        for city, xs in city_loads.items():
            for x in xs:
                out.setdefault(x, []).append(city)
        self.sources: dict[str, tuple[str, ...]] = {x: tuple(sorted(cs)) for x, cs in out.items()}
        self.free_passage = free_passage
        self._from: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._pairs: dict[tuple[str, str], tuple[int, int]] = {}
        self._costs: dict[tuple[Any, ...], dict[int, int]] = {}

    def from_city(self, city: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """From any milepost of ``city`` on the empty board (published costs): the least build cost and
        the steps of that cheapest path to every milepost (INF where none)."""
        found = self._from.get(city)
        if found is not None:
            return found
        core = self.core
        n = len(core.map.nodes)
        cost = [INF] * n
        steps = [INF] * n
        heap: list[tuple[int, int, int]] = []
        for u in self.cities[city]:
            cost[u] = steps[u] = 0
            heap.append((0, 0, u))
        heapq.heapify(heap)
        passage = self.free_passage
        while heap:
            c, s, u = heapq.heappop(heap)
            if c > cost[u] or (c == cost[u] and s > steps[u]):
                continue
            for v, _key, kind, _sc, base, link in core.out[u]:
                if kind == INTERNAL:
                    nc = c
                elif kind == SECTION and base is not None:
                    nc = c + base
                elif kind == PASSAGE and passage is not None and link is not None and passage(link):
                    nc = c
                else:
                    continue
                ns = s + 1
                if nc < cost[v] or (nc == cost[v] and ns < steps[v]):
                    cost[v], steps[v] = nc, ns
                    heapq.heappush(heap, (nc, ns, v))
        found = self._from[city] = (tuple(cost), tuple(steps))
        return found

    def pair(self, a: str, b: str) -> tuple[int, int]:
        """Empty-board build cost and path length between two cities."""
        found = self._pairs.get((a, b))
        if found is None:
            cost, steps = self.from_city(a)
            best = min(self.cities[b], key=lambda u: (cost[u], steps[u]))
            found = self._pairs[(a, b)] = (cost[best], steps[best])
        return found

    def build_costs(self, key: tuple[Any, ...], compute: Callable[[], dict[str, int]]) -> dict[int, int]:
        """The rail core's least build cost to every milepost (by index), memoised on ``key`` (the board
        and whatever else changes the costs); ``compute`` asks the core (by milepost key)."""
        found = self._costs.get(key)
        if found is None:
            index = self.core.map.index
            found = {index[k]: c for k, c in compute().items()}
            if len(self._costs) >= 64:
                self._costs.clear()
            self._costs[key] = found
        return found


class Leg:
    """One order to serve: a demand and where its load comes from (None: it is on the train)."""

    __slots__ = ("card", "index", "load", "source", "dest", "payout")

    def __init__(self, card: Any, index: int, load: str, source: str | None, dest: str, payout: int) -> None:
        self.card, self.index, self.load, self.source, self.dest, self.payout = card, index, load, source, dest, payout


class Plan:
    """One or two orders, the stops that serve them in order, and what the plan is worth."""

    __slots__ = ("legs", "stops", "build", "joins", "score")

    def __init__(self, legs: tuple[Leg, ...], stops: list[tuple[str, str, Leg]], build: int, joins: list[str],
                 score: float) -> None:
        self.legs, self.stops, self.build, self.joins, self.score = legs, stops, build, joins, score

    @property
    def loads(self) -> list[str]:
        return [leg.load for leg in self.legs]


def plan_key(plan: Plan) -> tuple[Any, ...]:
    return (-plan.score, [(leg.card, leg.index, leg.source or "") for leg in plan.legs],
            [(k, c) for k, c, _leg in plan.stops])


class RailPlanner:
    """The shared planner for one seat and one state. A title sets ``LOAD`` (the demands' and the
    commands' word for what a train carries), ``MONEY`` (the player's money field), ``BUILD_LIMIT``,
    ``WIN_MONEY`` and ``WIN_MAJORS``, and ``STRANDED`` (the movement counted from a train that no track
    or land joins to a city; None: the empty board's estimate as it is), and gives :meth:`cards`,
    :meth:`city_loads` and :meth:`budget`; the hooks below default to the plain rail core."""

    LOAD = "load"
    MONEY = "cash"
    BUILD_LIMIT = 20
    WIN_MONEY = 250
    WIN_MAJORS = 7
    STRANDED: int | None = None

    def __init__(self, engine: Any, state: State, seat: int, board: Board) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        self.board = board
        self.core = board.core
        self.m = self.core.map
        self.rail = state["rail"]
        self.me = state["players"][seat]
        self.money = self.me[self.MONEY]
        self.speed = engine.speed(state, seat)
        self.capacity = engine.capacity(state, seat)
        self.build_phase = state["phase"] == "build"
        limit = state["options"].get("round_limit")
        # with a round limit, the rounds still to play (this one included): what pays later is worth nothing
        self.rounds_left = limit - state["round"] + 1 if limit else None
        at = self.me.get("at")
        self.at = self.m.find(at) if at is not None else None
        self.here = self.m.nodes[self.at].city if self.at is not None else None  # the board's own map
        self._costs: dict[int, int] | None = None
        self._has_track: bool | None = None
        self._plans: list[Plan] | None = None
        self._join: dict[str, int] = {}
        self._distances: dict[str, int] | None = None  # movement to every milepost the train reaches

    # -- what the title says ----------------------------------------------------------------------------

    def cards(self) -> Mapping[Any, dict[str, Any]]:
        """The demand cards by id (each with its ``demands``)."""
        raise NotImplementedError

    def city_loads(self, city: str) -> Iterable[str]:
        """What ``city`` sources."""
        raise NotImplementedError

    def budget(self) -> int:
        """What the seat may still spend on building this turn."""
        raise NotImplementedError

    def hooks(self) -> Any:
        """The title's rail-core hooks (None: the plain core)."""
        return None

    @property
    def start(self) -> str | None:
        """Where building starts (None: anywhere building may start)."""
        return None

    def cost_key(self) -> tuple[Any, ...]:
        """What else changes build costs besides the track (memo key)."""
        return ()

    def stranded(self) -> bool:
        """The train stands where it must first build back to its network."""
        return False

    def move_ok(self, path: list[str]) -> bool:
        """Whether a cut move path is one the engine takes (checked before it is returned)."""
        return True

    def build_ok(self, path: list[str]) -> bool:
        """Whether a cut build path is one the engine takes (checked before it is returned)."""
        return True

    # -- costs -------------------------------------------------------------------------------------------

    @property
    def has_track(self) -> bool:
        if self._has_track is None:
            self._has_track = any(o == self.seat for o in self.rail["track"].values())
        return self._has_track

    @property
    def costs(self) -> dict[int, int]:
        """The least build cost from the network (from the major cities with no track yet) to every milepost."""
        if self._costs is None:
            rail, seat, start, from_majors = self.rail, self.seat, self.start, not self.has_track
            turn = rail.get("turn") or {}
            starts = turn.get("major_starts", 0) if turn.get("player") == seat else 0
            key = (seat, from_majors, start, starts, *self.cost_key(), tuple(rail["track"].items()))
            self._costs = self.board.build_costs(key, lambda: self.core.build_costs(
                rail, seat, start=start, from_majors=from_majors, hooks=self.hooks()))
        return self._costs

    def join_cost(self, city: str) -> int:
        """What joining ``city`` to the network costs now (0: joined); with no track yet, from the
        nearest major city."""
        found = self._join.get(city)
        if found is None:
            costs = self.costs
            found = self._join[city] = min((costs.get(u, INF) for u in self.board.cities[city]), default=INF)
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
                attach[x] = min(attach[x], self.board.pair(c, x)[0])
        return total, order

    def steps_to(self, city: str) -> int:
        """Mileposts from the train to ``city`` (0 when the train is not on the map yet): the real move
        along the track when there is one — the way the train faces counts, since it reverses only at a
        city — else the empty board's estimate. (With the estimate alone a train between two cities
        facing away from its plan's first stop shuttled: the plan changed each time it turned round.)"""
        if self.at is None:
            return 0
        if self._distances is None:
            self._distances = self.core.move_distances(self.rail, self.seat, self.me["at"],
                                                       came_from=self.me["came_from"], hooks=self.hooks())
        known = [self._distances[k] for k in (self.m.key(u) for u in self.board.cities[city]) if k in self._distances]
        if known:
            return min(known)
        estimate = self.board.from_city(city)[1][self.at]
        return estimate if estimate < INF or self.STRANDED is None else self.STRANDED

    # -- the plan ----------------------------------------------------------------------------------------

    def legs(self) -> list[Leg]:
        cards = self.cards()
        supply = self.state["supply"]
        loads = self.me["loads"]
        sources = self.board.sources
        word = self.LOAD
        out = []
        for card in self.me["hand"]:
            for i, demand in enumerate(cards[card]["demands"]):
                load, dest, payout = demand[word], demand["city"], demand["payout"]
                if load in loads:
                    out.append(Leg(card, i, load, None, dest, payout))
                if supply.get(load, 0) > 0:
                    out.extend(Leg(card, i, load, s, dest, payout) for s in sources.get(load, ()) if s != dest)
        return out

    def evaluate(self, legs: tuple[Leg, ...], stops: list[tuple[str, str, Leg]]) -> Plan | None:
        loads = self.me["loads"]
        carried = [leg.load for leg in legs if leg.source is None]
        for load in set(carried):
            if carried.count(load) > loads.count(load):
                return None
        fresh = [leg.load for leg in legs if leg.source is not None]
        for load in set(fresh):
            if fresh.count(load) > self.state["supply"].get(load, 0):
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
            moves += self.board.pair(a, b)[1]
        if moves >= INF and self.STRANDED is not None:
            return None
        move_turns = moves / self.speed
        build_turns = build / self.BUILD_LIMIT
        turns = max(move_turns, build_turns) + 0.5 * min(move_turns, build_turns) + 1
        payout = sum(leg.payout for leg in legs)
        score = (payout - BUILD_WEIGHT * build) / turns
        if build > self.money:
            score -= 1000  # cannot be paid for: only when nothing else can
        if self.rounds_left is not None and turns > self.rounds_left:
            score -= 500  # pays only after the game has ended
        return Plan(legs, stops, build, order, score)

    @staticmethod
    def stops(*parts: tuple[str, Leg]) -> list[tuple[str, str, Leg]]:
        out = []
        for kind, leg in parts:
            if kind == "load":
                if leg.source is not None:
                    out.append(("load", leg.source, leg))
            else:
                out.append(("deliver", leg.dest, leg))
        return out

    def plans(self) -> list[Plan]:
        """Every plan worth weighing, best first."""
        if self._plans is not None:
            return self._plans
        singles = []
        for leg in self.legs():
            plan = self.evaluate((leg,), self.stops(("load", leg), ("deliver", leg)))
            if plan is not None:
                singles.append(plan)
        singles.sort(key=plan_key)
        out = list(singles)
        if self.capacity >= 2:
            top = [p.legs[0] for p in singles[:PAIRED]]
            for a in top:
                for b in top:
                    if a.card == b.card:
                        continue
                    for parts in ((("load", a), ("load", b), ("deliver", a), ("deliver", b)),
                                  (("load", a), ("load", b), ("deliver", b), ("deliver", a)),
                                  (("load", a), ("deliver", a), ("load", b), ("deliver", b))):
                        plan = self.evaluate((a, b), self.stops(*parts))
                        if plan is not None:
                            out.append(plan)
        out.sort(key=plan_key)
        self._plans = out
        return out

    def plan(self) -> Plan | None:
        plans = self.plans()
        return plans[0] if plans else None

    def hopeless(self, plan: Plan | None) -> bool:
        """Nothing to deliver and nothing affordable: the hand is better discarded."""
        if plan is None:
            return True
        if plan.build <= self.money:
            return False
        loads = self.me["loads"]
        cards = self.cards()
        return not any(d[self.LOAD] in loads and self.joined(d["city"])
                       for card in self.me["hand"] for d in cards[card]["demands"])

    # -- operating the train ------------------------------------------------------------------------------

    def place_near(self, cities: list[str]) -> Command:
        """Place the train in one of ``cities``: the plan's first stop if it is one, else the nearest to it."""
        plan = self.plan()
        target = plan.stops[0][1] if plan is not None else None
        if target is not None and target in cities:
            best = target
        elif target is not None:
            best = min(cities, key=lambda c: (self.board.pair(c, target)[1], c))
        else:
            best = sorted(cities)[0]
        return {"cmd": "place-train", "at": self.m.address(self.board.cities[best][0])}

    def deliver_here(self) -> Command | None:
        """The best-paid delivery at the city the train stands in."""
        if self.here is None:
            return None
        loads = self.me["loads"]
        cards = self.cards()
        best = None
        for card in self.me["hand"]:
            for i, d in enumerate(cards[card]["demands"]):
                if d["city"] == self.here and d[self.LOAD] in loads:
                    if best is None or d["payout"] > best[0]:
                        best = (d["payout"], card, i)
        return None if best is None else {"cmd": "deliver", "card": best[1], "demand": best[2]}

    def at_city(self, plan: Plan | None) -> Command | None:
        """At a city: drop loads no card wants, pick up the plan's loads here (making room if full),
        then riders."""
        me, word = self.me, self.LOAD
        cards = self.cards()
        here = self.here
        assert here is not None
        loads = me["loads"]
        here_loads = self.city_loads(here)
        wanted = {d[word] for card in me["hand"] for d in cards[card]["demands"]}
        for load in sorted(set(loads)):
            if load not in wanted and load not in here_loads:
                return {"cmd": "drop", word: load}
        if plan is None:
            return None
        supply = self.state["supply"]
        need = [leg.load for kind, city, leg in plan.stops if kind == "load" and city == here]
        keep = [leg.load for leg in plan.legs if leg.source is None]
        for load in need:
            if load not in here_loads or supply.get(load, 0) <= 0:
                continue
            if len(loads) < self.capacity:
                return {"cmd": "pick-up", word: load}
            # full: make room by dropping a load the plan does not carry
            spare = list(loads)
            for x in keep:
                if x in spare:
                    spare.remove(x)
            for x in sorted(spare):
                if x not in here_loads:
                    return {"cmd": "drop", word: x}
            return None
        # riders: another order whose source is here and whose destination the network joins
        room = self.capacity - len(loads) - sum(1 for kind, _c, _l in plan.stops if kind == "load")
        if room > 0:
            plan_cards = {leg.card for leg in plan.legs}
            for card in me["hand"]:
                if card in plan_cards:
                    continue
                for d in cards[card]["demands"]:
                    load = d[word]
                    if load in here_loads and load not in loads and supply.get(load, 0) > 0 \
                            and load not in plan.loads and self.joined(d["city"]):
                        return {"cmd": "pick-up", word: load}
        return None

    def move_on(self, plan: Plan | None) -> Command | None:
        """Move toward the plan's next stop (deliveries only of what is aboard)."""
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

    def move_to(self, cities: list[str]) -> Command | None:
        """Move toward the first of ``cities`` the track reaches, as far as the movement left allows."""
        left = self.engine.moves_left(self.state, self.seat)
        for city in cities:
            mv = self.route(city)
            if mv is None:
                continue
            # cut the path to the movement left (a passage may cost more than a step: check the cut)
            for end in range(min(len(mv.path), left + 1), 1, -1):
                path = [self.m.address(self.m.find(k)) for k in mv.path[:end]]
                if self.move_ok(path):
                    return {"cmd": "move", "path": path}
            return None
        return None

    def route(self, city: str) -> Any:
        """The move to ``city``: the fastest, or the one with fewer fees when it takes no more turns."""
        core, m = self.core, self.m
        assert self.at is not None
        at = self.at
        hooks = self.hooks()
        target = min(self.board.cities[city], key=lambda u: (d if (d := m.hex_distance(at, u)) is not None else INF, u))
        me = self.me
        mv = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.money,
                            came_from=me["came_from"], hooks=hooks)
        if mv is None or not mv.fees:
            return mv
        cheap = core.plan_move(self.rail, self.seat, me["at"], m.key(target), cash=self.money,
                               came_from=me["came_from"], prefer="fees", hooks=hooks)
        left = self.engine.moves_left(self.state, self.seat)

        def turns(moves: int) -> int:
            return 0 if moves <= left else 1 + (moves - left - 1) // self.speed

        if cheap is not None and turns(cheap.moves) <= turns(mv.moves):
            return cheap
        return mv

    # -- spending -----------------------------------------------------------------------------------------

    def upgrade(self) -> Command | None:
        """The title's upgrade when the money allows (None: none)."""
        return None

    def spend(self) -> Command:
        budget = self.budget()
        spent = self.state["turn"]["spent"]
        for city, keep in self.build_goals():
            if city == UPGRADE:
                if spent == 0 and not self.build_phase:
                    up = self.upgrade()
                    if up is not None:
                        return up
                continue
            cmd = self.build_toward(city, min(budget, self.money - keep))
            if cmd is not None:
                return cmd
        return {"cmd": "end-turn"}

    def build_goals(self) -> list[tuple[str, int]]:
        """The cities to build toward, most urgent first, with the money to keep back for each
        (``UPGRADE`` marks where an upgrade fits in)."""
        goals: list[tuple[str, int]] = []
        if self.stranded():
            goals.append((TRAIN, 0))
        majors = self.core.majors_connected(self.rail, self.seat) if self.has_track else []
        missing = self.missing_majors(majors)
        if len(majors) < self.WIN_MAJORS and self.money >= self.WIN_MONEY - LATE:
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
            goals.append((UPGRADE, 0))
        if self.rounds_left is None:
            goals.extend((c, MAJOR_KEEP) for c in missing)
        return goals

    def worth_building(self, plan: Plan) -> bool:
        """Whether to spend on a plan: it can be paid for and it pays before a round limit ends the game."""
        if plan.build > self.money:
            return False
        return self.rounds_left is None or plan.score > -400

    def missing_majors(self, majors: list[str]) -> list[str]:
        """The major cities still to join, cheapest first, as many as the win needs."""
        need = self.WIN_MAJORS - len(majors)
        if need <= 0:
            return []
        rest = [c for c in self.m.majors if c not in majors]
        rest.sort(key=lambda c: (self.join_cost(c), c))
        return rest[:need]

    def build_toward(self, city: str, budget: int) -> Command | None:
        """Build toward ``city`` (``TRAIN``: the train's milepost), the path cut where ``budget`` runs out."""
        if budget <= 0:
            return None
        core, m = self.core, self.m
        costs = self.costs
        nodes = (self.at,) if city == TRAIN else self.board.cities[city]
        target = min(nodes, key=lambda u: (costs.get(u, INF), u))
        if costs.get(target, INF) >= INF or (self.has_track and costs.get(target) == 0):
            return None
        plan = core.plan_build(self.rail, self.seat, m.key(target), start=self.start,
                               from_majors=not self.has_track, hooks=self.hooks())
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
        # do not end the cut path on free steps after the last new section
        while cut > 0 and (plan.path[cut - 1], plan.path[cut]) not in new:
            cut -= 1
        if cut < 1 or spent <= fee:
            return None
        path = [m.address(m.find(k)) for k in plan.path[: cut + 1]]
        return {"cmd": "build", "path": path} if self.build_ok(path) else None
