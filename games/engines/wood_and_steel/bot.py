"""The ``planner`` bot: a Wood and Steel player that finishes games and uses every part
of them (pure Python; the ``simple`` bot in ``simulate.py`` stays for comparison).

It only ever sends one of the engine's ``legal_commands`` (with an amount of its own
for a borrow, a repayment or a bid), so it follows rule changes; its judgement reads
the state through the engine's helpers. All randomness comes from the ``rng`` it is
given. One call returns one command; it re-plans on every call.

How it plays a turn (each call takes the first that applies):

1. Choose the best contract offer; claim a connection bonus it has made.
2. Deliver what it can, once per engine it owns (once more with a Timetable): the app
   takes any number of deliveries a turn, a table cannot run an engine twice. A delivery whose debt service it cannot pay is
   covered by borrowing first, or, with ``BANKRUPTCY_GAMBLE`` probability when its track
   covers what it would owe, by accepting the bankruptcy (sell track rather than owe more).
3. Buy a Commodities Exchange (monopoly) or a Regional Office when allowed.
4. Take a market contract whose destination is close (a Mogul or better).
5. When its money is well above what the next track costs: an upgrade, a merger or
   a better engine first.
6. Build toward its goals: the cheapest route (by the build-cost table, parallel
   track, the hub discount, full routes impassable) from its network to the pickup
   and the destination of the held contract worth the most once the track is paid
   for; with no contract to serve, toward a monopoly's last producers or a region's
   cities. Borrows when the next route is out of reach (up to a debt limit that is
   lower once it has delivered to the West, where debt service is due on every
   delivery; beyond it only when it has nothing else left to do).
7. A merger that saves track, an engine, an upgrade, repaying debt, discarding a
   private contract it cannot reach, going first next round.
8. End the turn.

Auctions: a lot is worth what building that route would cost it (more on its goals'
path, nothing far from its network); it bids the minimum, now and then a step or two
more, up to that worth while it keeps a cash reserve. Bankrupt: it sells the routes its
goals need least, the one closest to covering what it owes first.
"""

from __future__ import annotations

import heapq
import random
from typing import TYPE_CHECKING, Any

from ..base import RulesError
from . import rules as RU
from . import scoring as S

if TYPE_CHECKING:  # pragma: no cover
    from .rules import WoodAndSteelEngine

NAME = "planner"
INF = 10**12
TIE_VALUE = 4_000  # dollars a railroad tie is worth when comparing contracts
TURN_COST = 1_500  # a route to build also costs time: one of 2-3 builds a turn
DEBT_LIMIT_EAST = 35_000  # debt limit before the first Western delivery (little service)
DEBT_LIMIT_WEST = 25_000  # once every delivery pays $1,000 per $5,000 owed
BANKRUPTCY_GAMBLE = 0.3  # chance of delivering anyway when short of the debt service
BOLD = 0.15  # chance that a decision is taken with a higher debt limit
BOLD_DEBT_FACTOR = 3
LEVERAGE = 0.05  # chance, at each decision before the first Western delivery, of borrowing big
BORROW_AHEAD = 0.5  # chance of borrowing for the whole way to a goal, not just the next route
STALE_ROUNDS = 6  # a private contract still out of reach after this many rounds is discarded
MOVEMENT_UPGRADES = ("service-yard", "timetable", "roundhouse", "track-maintenance")


def planner_policy(engine: WoodAndSteelEngine, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The planner bot's next command for ``seat`` (one of ``legal_commands``)."""
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    by: dict[str, list[dict[str, Any]]] = {}
    for c in legal:
        by.setdefault(c["cmd"], []).append(c)
    if "rank-starting-routes" in by:
        return _rank(engine, state, by["rank-starting-routes"], rng)
    if "place-engine" in by:
        return _place_engine(engine, state, seat, by["place-engine"], rng)
    if state["phase"] == "auction":
        return _Turn(engine, state, seat, by, rng).auction(legal)
    if "sell-track" in by:
        return _Turn(engine, state, seat, by, rng).sell()
    turn = _Turn(engine, state, seat, by, rng)
    for step in turn.steps():
        cmd = step()
        if cmd is not None:
            return cmd
    if "end-turn" in by:
        return by["end-turn"][0]
    return rng.choice(legal)  # only commands this bot does not know: any of them


# -- setup ------------------------------------------------------------------------------


def _rank(engine, state, options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Rank the most desirable starting routes (a little noise, so bots differ)."""
    board = engine.board(state)
    score = {rid: RU.desirability(board, rid) * rng.uniform(0.85, 1.15) for rid in board.starting_routes}
    best = max(options, key=lambda c: tuple(score.get(board.parse_route(r), 0) for r in c["choices"]))
    return best


def _place_engine(engine, state, seat, options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Put the engine in the starting city nearer the private contract's cities."""
    board = engine.board(state)
    p = state["players"][seat]
    c = engine._contract(state, p["private"])
    if c is None:
        return rng.choice(options)
    producers = board.producers.get(c["commodity"], [])

    def distance(cmd):
        city = cmd["city"]
        return board.hop(city, c["destination"]) + min((board.hop(city, x) for x in producers), default=0)

    return min(options, key=lambda cmd: (distance(cmd), rng.random()))


# -- one turn ---------------------------------------------------------------------------


class _Turn:
    def __init__(self, engine, state, seat, by, rng):
        self.engine = engine
        self.state = state
        self.seat = seat
        self.by = by
        self.rng = rng
        self.board = engine.board(state)
        self.p = state["players"][seat]
        self.network = set(self.p["network"])
        self._dist: dict[str, int] | None = None
        self._via: dict[str, tuple[str, str]] = {}
        self._goal: tuple | None = None
        self._occupied: dict[str, int] | None = None
        # now and then the player is bold: a higher debt limit for this decision
        self.bold = rng.random() < BOLD

    def steps(self):
        return (
            self.choose_offer, self.claim_bonus, self.deliver, self.discard_stale, self.monopoly_or_office, self.claim_market,
            self.leverage, self.rich_purchase, self.build, self.expand, self.merge, self.buy_engine, self.upgrade, self.repay,
            self.discard, self.go_first,
        )

    # -- the map: cheapest track from the network ---------------------------------------
    @property
    def _occ(self) -> dict[str, int]:
        """Tracks (players' and independents') on each route."""
        if self._occupied is not None:
            return self._occupied
        occupied: dict[str, int] = {}
        for q in self.state["players"]:
            for rid in set(q["track"]).union(q["acquired"]):
                if q["track"].get(rid) or rid in q["acquired"]:
                    occupied[rid] = occupied.get(rid, 0) + 1
        for r in self.state["railroads"]:
            if r["acquired_by"] is None:
                for rid in {x["route"] for x in r["routes"]}:
                    occupied[rid] = occupied.get(rid, 0) + 1
        self._occupied = occupied
        return occupied

    def route_cost(self, rid: str) -> int | None:
        """What building ``rid`` costs this player now (None: it cannot)."""
        p, board = self.p, self.board
        if rid in p["acquired"]:
            return 0
        length = board.routes[rid]["length"]
        built = p["track"].get(rid, 0)
        if built >= length:
            return 0
        occupants = self._occ.get(rid, 0)
        if built:
            return self.engine._build_cost(self.state, p, rid, parallel=occupants - 1 > 0, segments=length - built)
        if occupants >= self.state["options"]["max_parallel"]:
            return None
        return self.engine._build_cost(self.state, p, rid, parallel=occupants > 0, segments=length)

    @property
    def dist(self) -> dict[str, int]:
        """Dijkstra from the network: the price (track plus time) of reaching each city."""
        if self._dist is None:
            board = self.board
            dist = {c: 0 for c in self.network}
            heap = [(0, c) for c in sorted(self.network)]
            costs: dict[str, int | None] = {}
            while heap:
                d, u = heapq.heappop(heap)
                if d > dist.get(u, INF):
                    continue
                for rid in board.city_routes[u]:
                    if rid not in costs:
                        cost = self.route_cost(rid)
                        costs[rid] = None if cost is None else (cost + TURN_COST if cost else 0)
                    w = costs[rid]
                    if w is None:
                        continue
                    v = board.other_end(rid, u)
                    nd = d + w
                    if nd < dist.get(v, INF):
                        dist[v] = nd
                        self._via[v] = (rid, u)
                        heapq.heappush(heap, (nd, v))
            self._dist = dist
        return self._dist

    def path(self, city: str) -> list[str]:
        """The routes still to build on the cheapest way to ``city``, nearest the network first."""
        if city in self.network or city not in self.dist:
            return []
        routes = []
        while city not in self.network:
            rid, city = self._via[city]
            routes.append(rid)
        return routes[::-1]

    def first_route(self, city: str) -> str | None:
        """The route next to the network on the cheapest way to ``city``."""
        routes = self.path(city)
        return routes[0] if routes else None

    # -- contracts ----------------------------------------------------------------------
    def pickup_cost(self, commodity: str) -> tuple[int, str | None]:
        if self.engine._can_pick_up(self.state, self.p, commodity):
            return 0, None
        best = min(((self.dist.get(x, INF), x) for x in self.board.producers.get(commodity, [])), default=(INF, None))
        return best

    def delivery_net(self, c: dict[str, Any]) -> int:
        """Money a delivery of ``c`` brings now (income less debt service)."""
        p = self.p
        kind = self.board.section_kind(c["destination"])
        service = RU.debt_service(p["debt"], kind, p["central_paid"], p["western_started"])[0]
        heavy = any(e in ("mountain", "challenger") for e in p["engines"])
        income = RU.delivery_income(c["value"], hops=c["hops"], upgraded_stations="upgraded-stations" in p["upgrades"], heavy_engine=heavy)
        return income - service

    def tie_gain(self, c: dict[str, Any]) -> int:
        p = self.p
        rule = self.state["options"]["depth_rule"]
        delivered = {k: n for k, n in p["deliveries"].items() if n > 0}
        after = dict(delivered)
        after[c["commodity"]] = after.get(c["commodity"], 0) + 1
        gain = c["ties"]
        gain += S.breadth_bonus(len(after)) - S.breadth_bonus(len(delivered))
        gain += S.depth_bonus(max(after.values()), rule) - S.depth_bonus(max(delivered.values(), default=0), rule)
        if self.board.cities[c["destination"]]["west_coast"] and not p["west_coast_bonus_taken"]:
            gain += 2 if self.state["west_coast_delivered"] else 3
        return gain

    def contract_score(self, c: dict[str, Any]) -> tuple[int, int]:
        """(worth once the track is paid for, track cost still to pay)."""
        p = self.p
        pick, _ = self.pickup_cost(c["commodity"])
        dest = self.dist.get(c["destination"], INF)
        track = pick + dest
        if track >= INF:
            return -INF, INF
        worth = self.delivery_net(c) + TIE_VALUE * self.tie_gain(c) - track
        if self.board.section_kind(c["destination"]) == "west" and not p["western_started"] and not self.bold:
            worth -= 2 * (p["debt"] // RU.DEBT_UNIT) * RU.DEBT_SERVICE_PER_UNIT  # service on later deliveries too
        return worth, track

    def held(self) -> list[dict[str, Any]]:
        return [c for c in (self.engine._contract(self.state, cid) for cid in (self.p["private"], self.p["market"])) if c is not None]

    def goal(self) -> tuple[str, dict[str, Any] | None] | None:
        """(city to build toward, the contract it serves or None for a strategic target)."""
        if self._goal is None:
            self._goal = (self._contract_goal() or self._strategic_goal(),)
        return self._goal[0]

    def _contract_goal(self):
        best, best_key = None, None
        for c in self.held():
            worth, track = self.contract_score(c)
            if track <= 0 or track >= INF:
                continue
            pick, producer = self.pickup_cost(c["commodity"])
            dest = self.dist.get(c["destination"], INF)
            # the cheaper of the two still missing first
            targets = [(pick, producer)] if producer else []
            if c["destination"] not in self.network:
                targets.append((dest, c["destination"]))
            city = min(targets)[1]
            key = (worth, -track)
            if best_key is None or key > best_key:
                best, best_key = (city, c), key
        return best

    def _strategic_goal(self):
        """A monopoly's missing producers, else a region nobody else has entered."""
        board, state = self.board, self.state
        options = []
        for k in sorted(board.monopoly_sizes()):
            if k in state["monopolies"]:
                continue
            producers = board.producers[k]
            have = sum(1 for x in producers if x in self.network)
            missing = sorted((self.dist.get(x, INF), x) for x in producers if x not in self.network)
            total = sum(d for d, _ in missing)
            if missing and have * 2 >= len(producers) and total < 30_000:
                options.append((total, missing[0][1]))
        for region, cities in board.region_cities.items():
            if any(region in q["regional_offices"] for q in state["players"]):
                continue
            cs = set(cities)
            if any(cs & set(q["network"]) for q in state["players"] if q["seat"] != self.seat):
                continue
            have = len(cs & self.network)
            if not have or have >= len(cs) // 2:
                continue
            missing = sorted((self.dist.get(x, INF), x) for x in cs if x not in self.network)
            need = len(cs) // 2 - have
            total = sum(d for d, _ in missing[:need])
            if total < 25_000:
                options.append((total + 5_000, missing[0][1]))
        if not options:
            return None
        return min(options)[1], None

    def next_build(self) -> tuple[str, int] | None:
        """(route, price) of the next route toward the goal."""
        g = self.goal()
        if g is None:
            return None
        rid = self.first_route(g[0])
        if rid is None:
            return None
        cost = self.route_cost(rid)
        return None if cost is None else (rid, cost)

    # -- money --------------------------------------------------------------------------
    def debt_limit(self) -> int:
        limit = DEBT_LIMIT_WEST if self.p["western_started"] else DEBT_LIMIT_EAST
        return limit * BOLD_DEBT_FACTOR if self.bold else limit

    def fits(self, *kinds: str) -> bool:
        """Can this turn still take these action kinds (in order)?"""
        if not self.state["options"]["limit_actions"]:
            return True
        used = list(self.p["turn_actions"])
        for k in kinds:
            if k in used:
                if k not in ("run-trains", "build-track"):
                    return False
                continue
            used.append(k)
        return len(used) <= 2

    def borrow(self, need: int, *, then: str, at_least: int | None = None, beyond_limit: bool = False) -> dict[str, Any] | None:
        """A borrow command for ``need`` dollars (no less than ``at_least``, within the debt
        limit unless ``beyond_limit``), when the turn can still ``then``."""
        at_least = need if at_least is None else at_least
        if at_least <= 0 or "borrow" not in self.by or "repay-debt" in self.p["turn_actions"] or not self.fits("borrow", then):
            return None
        amounts = sorted(c["amount"] for c in self.by["borrow"])
        enough = [a for a in amounts if a >= need]
        amount = enough[0] if enough else amounts[-1]
        if not beyond_limit:
            room = [a for a in amounts if a <= amount and self.p["debt"] + a <= self.debt_limit()]
            if not room or room[-1] < at_least:
                return None
            amount = room[-1]
        return {"cmd": "borrow", "amount": amount}

    # -- the steps ----------------------------------------------------------------------
    def choose_offer(self):
        offers = self.by.get("choose-offer")
        if not offers:
            return None
        return max(offers, key=lambda cmd: (self.contract_score(self.engine._contract(self.state, cmd["offer"]))[0], self.rng.random()))

    def claim_bonus(self):
        bonuses = self.by.get("claim-connection-bonus")
        return bonuses[0] if bonuses else None

    def trains_left(self) -> int:
        """Deliveries it may still make this turn. The app cannot see the trains and takes
        any number, but at a table "each engine in your fleet can only be run once per turn"
        and a delivery ends the train's movement: one delivery per engine, one more with a
        Timetable (the train runs on after delivering)."""
        p = self.p
        runs = len(p["engines"]) + (1 if "timetable" in p["upgrades"] else 0)
        done = 0
        for cid in reversed(p["fulfilled"]):
            c = self.engine._contract(self.state, cid)
            if c is None or c.get("fulfilled_round") != self.state["round"]:
                break
            done += 1
        return runs - done

    def deliver(self):
        p = self.p
        if self.trains_left() <= 0:
            return None
        shortfalls = []
        for cmd in self.by.get("fulfill-contract", []):
            c = self.engine._contract(self.state, cmd["contract"])
            short = -(p["money"] + self.delivery_net(c))
            if short <= 0:
                return cmd
            shortfalls.append((short, cmd, c))
        for short, cmd, c in shortfalls:
            # Debt service the player cannot pay: borrow first (each $5,000 borrowed adds
            # $1,000 to the service once it is due), or now and then accept bankruptcy
            # (sell track rather than owe more) when its track covers what it would owe.
            sellable = sum(self.engine._sale_value(self.state, p, rid) for rid in self.engine._sellable(self.state, p))
            if sellable >= short + RU.BANKRUPTCY_PENALTY + 10_000 and self.rng.random() < BANKRUPTCY_GAMBLE:
                return cmd
            due = short * 5 // 4 + 1_000 if p["western_started"] or self.board.section_kind(c["destination"]) != "east" else short
            borrow = self.borrow(due, then="run-trains", beyond_limit=True)
            if borrow is not None:
                return borrow
        return None

    def monopoly_or_office(self):
        """Ties for sure: a monopoly now, regional dominance at the end."""
        money = self.p["money"]
        options = self.by.get("buy-upgrade", [])
        for name, margin in (("commodities-exchange", 0), ("regional-office", 2_000)):
            for cmd in options:
                if cmd["upgrade"] == name and money >= RU.UPGRADES[name] + margin:
                    return cmd
        return None

    def claim_market(self):
        best, best_key = None, None
        for cmd in self.by.get("claim-market-contract", []):
            c = self.engine._contract(self.state, cmd["contract"])
            worth, track = self.contract_score(c)
            if track > max(8_000, self.p["money"]) or worth <= 0:
                continue
            key = (worth, self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = cmd, key
        return best

    def reserve(self) -> int:
        nb = self.next_build()
        return (nb[1] if nb else 0) + 3_000

    def leverage(self):
        """Debt costs next to nothing before the first Western delivery (the Central one-time
        service at most): now and then (``LEVERAGE``) the player borrows up to its bold limit
        to buy and build faster. The debt service bites later: repaying, or bankruptcy."""
        p = self.p
        if p["western_started"] or self.west_soon() or "borrow" not in self.by or self.rng.random() >= LEVERAGE:
            return None
        room = DEBT_LIMIT_EAST * BOLD_DEBT_FACTOR - p["debt"]
        return self.borrow(room, then="build-track", at_least=RU.DEBT_UNIT)

    def rich_purchase(self):
        """With money to spare after the next route: an upgrade, a merger or an engine.
        Before its first Western delivery debt costs little (the Central one-time service at
        most), so it borrows for them within its limit and repays later."""
        if self.p["western_started"] or self.west_soon():
            repay = self.repay()  # every $5,000 repaid saves $1,000 on each later delivery
            if repay is not None:
                return repay
        spare = self.p["money"] - self.reserve()
        credit = 0
        if not self.p["western_started"] and "borrow" in self.by:
            credit = max(0, self.debt_limit() - self.p["debt"]) // RU.DEBT_UNIT * RU.DEBT_UNIT
        if spare + credit < 10_000:
            return None
        for step in (self.upgrade, self.merge, self.buy_engine):
            cmd = step(budget=spare + credit)
            if cmd is None:
                continue
            cost = self.price(cmd)
            if cost <= spare:
                return cmd
            borrow = self.borrow(cost - spare, then=RU.ACTION_KINDS[cmd["cmd"]])
            if borrow is not None:
                return borrow
        return None

    def price(self, cmd: dict[str, Any]) -> int:
        """What a purchase command costs."""
        if cmd["cmd"] == "buy-upgrade":
            return RU.UPGRADES[cmd["upgrade"]]
        if cmd["cmd"] == "acquire-railroad":
            rr = next(r for r in self.state["railroads"] if r["id"] == cmd["railroad"])
            return self.engine._railroad_price(self.state, rr)
        if cmd["cmd"] == "buy-engine":
            level = RU.ENGINE_LEVEL[cmd["engine"]]
            surcharge = RU.SKIP_ENGINE_SURCHARGE if level == self.engine._best_engine(self.p) + 2 else 0
            return RU.ENGINE_COST[cmd["engine"]] + surcharge - (RU.trade_in_value(cmd["trade_in"]) if cmd["trade_in"] else 0)
        return 0

    def build(self):
        nb = self.next_build()
        if nb is None:
            return None
        rid, cost = nb
        for cmd in self.by.get("build-track", []):
            if self.board.parse_route(cmd["route"]) == rid:
                return max((c for c in self.by["build-track"] if c["route"] == cmd["route"]), key=lambda c: c.get("segments", 1))
        if "build-track" in self.p["turn_actions"] and "build-track" not in self.by:
            return None  # built all it may this turn
        if cost > self.p["money"]:
            g = self.goal()
            need = at_least = cost - self.p["money"]
            if self.rng.random() < BORROW_AHEAD:  # the whole way there, not just the next route
                need = max(need, sum(self.route_cost(r) or 0 for r in self.path(g[0])) - self.p["money"])
            stuck = g[1] is not None and not self.by.get("fulfill-contract")
            return self.borrow(need, then="build-track", at_least=at_least, beyond_limit=stuck and self.p["money"] < 2_000)
        return None

    def expand(self):
        """Track beyond its contracts: with a build action under way or money to spare, a
        route toward a monopoly or a region, else to the unconnected neighbour city worth
        most (its value, commodities it cannot pick up yet). A bold player borrows for it
        before its first Western delivery."""
        builds = self.by.get("build-track")
        if not builds:
            return None
        p, board = self.p, self.board
        started = "build-track" in p["turn_actions"]
        budget = p["money"] - 3_000
        if self.bold and not p["western_started"]:
            budget += max(0, self.debt_limit() - p["debt"])
        if not started and budget < 15_000:
            return None
        target = self._strategic_goal()
        wanted = self.first_route(target[0]) if target else None
        best, best_key = None, None
        for cmd in builds:
            rid = board.parse_route(cmd["route"])
            cost = self.route_cost(rid)
            if cost is None or cost > budget:
                continue
            a, b = board.route_cities(rid)
            new = b if a in self.network else a
            if new in self.network:
                continue
            fresh = [k for k in board.cities[new]["commodities"] if not self.engine._can_pick_up(self.state, p, k)]
            key = (rid == wanted, 1_000 * board.base_value(new) + 2_000 * len(fresh) - cost, rid)
            if best_key is None or key > best_key:
                best, best_key = cmd, key
        if best is None:
            return None
        cost = self.route_cost(board.parse_route(best["route"]))
        if cost > p["money"]:
            return self.borrow(cost - p["money"], then="build-track")
        return best

    def merge(self, budget: int | None = None):
        """A merger worth more than its price: the routes' build costs, plus the track it
        saves toward the goal, plus $2,000 a new city."""
        budget = self.p["money"] - 3_000 if budget is None else budget
        g = self.goal()
        best, best_key = None, None
        for cmd in self.by.get("acquire-railroad", []):
            rr = next(r for r in self.state["railroads"] if r["id"] == cmd["railroad"])
            price = self.price(cmd)
            cities = self.engine._railroad_cities(self.state, rr)
            worth = 0
            for x in rr["routes"]:
                route = self.board.routes[x["route"]]
                worth += RU.route_cost(route["length"], mountainous=route["mountainous"])
            if g is not None and g[0] in cities:
                worth += self.dist.get(g[0], 0)
            worth += 2_000 * len(cities - self.network)
            if worth < price or price > budget:
                continue
            key = (worth - price, self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = cmd, key
        return best

    def buy_engine(self, budget: int | None = None):
        """The next engine design when its trains must run farther than its best engine
        goes (a held contract's hops, plus one to the pickup), a Mogul early (it opens the
        market), later ones only with money of its own to spare. It keeps its old engine
        when it has room for two, else trades in the weakest."""
        options = self.by.get("buy-engine")
        if not options:
            return None
        p = self.p
        best = self.engine._best_engine(p)
        needed = max((c["hops"] + 1 for c in self.held()), default=0)
        wanted = best < RU.MOGUL or RU.ENGINES[best][2] < needed
        if budget is None:
            budget = p["money"] - 3_000
        if not wanted:
            budget = min(budget, p["money"] - 25_000)
        affordable = [c for c in options if self.price(c) <= budget]
        if not affordable:
            return None
        # a second engine is a second delivery a turn: keep the old one when it may
        return max(affordable, key=lambda c: (-RU.ENGINE_LEVEL[c["engine"]], c["trade_in"] is None, -RU.ENGINE_LEVEL.get(c["trade_in"] or "john-bull", 0), -self.price(c)))

    def upgrade(self, budget: int | None = None):
        """A railyard that reaches a contract's commodity; Upgraded Stations, the Employment
        Office, a Hub; rich, now and then one of the upgrades for moving trains."""
        options = self.by.get("buy-upgrade")
        if not options:
            return None
        p = self.p
        budget = p["money"] - 3_000 if budget is None else budget
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for c in options:
            by_kind.setdefault(c["upgrade"], []).append(c)
        cost = RU.UPGRADES.get
        railyard = self._railyard(by_kind.get("railyard", []))
        if railyard is not None and cost("railyard") <= budget:
            return railyard
        for name in ("upgraded-stations", "employment-office", "hub"):
            if name in by_kind and cost(name) <= budget - (0 if name == "upgraded-stations" else 5_000):
                return self._hub(by_kind["hub"]) if name == "hub" else by_kind[name][0]
        for name in MOVEMENT_UPGRADES:
            if name in by_kind and cost(name) <= min(budget, p["money"]) - 25_000 and self.rng.random() < 0.3:
                return by_kind[name][0]
        return None

    def _hub(self, options):
        board = self.board
        return max(options, key=lambda c: (len(board.within([c["city"]], 2)), c["city"]))

    def _railyard(self, options):
        """A railyard that brings a held contract's commodity within reach."""
        if not options:
            return None
        board = self.board
        for c in self.held():
            if self.engine._can_pick_up(self.state, self.p, c["commodity"]):
                continue
            pick, _ = self.pickup_cost(c["commodity"])
            if pick < RU.UPGRADES["railyard"]:
                continue
            producers = board.producers.get(c["commodity"], [])
            for cmd in options:
                if any(board.hop(cmd["city"], x) <= 2 for x in producers):
                    return cmd
        return None

    def west_soon(self) -> bool:
        """Holds a contract to the West before its first Western delivery."""
        return not self.p["western_started"] and any(self.board.section_kind(c["destination"]) == "west" for c in self.held())

    def repay(self):
        p = self.p
        options = sorted(self.by.get("repay-debt", []), key=lambda c: -c["amount"])
        if not options or "borrow" in p["turn_actions"]:
            return None
        cushion = 5_000 if (p["western_started"] or self.west_soon()) else 12_000
        for cmd in options:
            if p["money"] - cmd["amount"] >= self.reserve() + cushion:
                return cmd
        return None

    def discard(self, *, stale_only: bool = False):
        """Discard a private contract it cannot reach, that costs more track than it is
        worth, or that is still out of reach ``STALE_ROUNDS`` rounds after it was dealt."""
        if "discard-private-contract" not in self.by:
            return None
        c = self.engine._contract(self.state, self.p["private"])
        if c is None:
            return None
        old = self.state["round"] - c["created_round"] > STALE_ROUNDS
        if stale_only and not old:
            return None
        worth, track = self.contract_score(c)
        if (old and track > 0) or (not stale_only and (track >= INF or (track > 20_000 and worth < 0) or track > self.p["money"] + 40_000)):
            return self.by["discard-private-contract"][0]
        return None

    def discard_stale(self):
        return self.discard(stale_only=True)

    def go_first(self):
        if "go-first" not in self.by or not self.p["turn_actions"]:
            return None
        # a spare action: going first next round costs nothing
        return self.by["go-first"][0] if self.rng.random() < 0.8 else None

    # -- bankruptcy and auctions --------------------------------------------------------
    def sell(self):
        p = self.p
        owed = p["bankrupt_owed"]
        needed = {c["destination"] for c in self.held()}
        options = self.by["sell-track"]

        def key(cmd):
            rid = self.board.parse_route(cmd["route"])
            value = self.engine._sale_value(self.state, p, rid)
            a, b = self.board.route_cities(rid)
            useful = (a in needed) + (b in needed) + (rid == p["start_route"])
            covers = value >= owed
            return (useful, not covers, value if covers else -value, rid)

        return min(options, key=key)

    def lot_worth(self, rid: str) -> int:
        """What a lot is worth to this player: its build cost next to the network (more
        on the goal's path), half that one route away, nothing further off."""
        if rid is None or rid not in self.board.routes:
            return 0
        a, b = self.board.route_cities(rid)
        route = self.board.routes[rid]
        cost = RU.route_cost(route["length"], mountainous=route["mountainous"])
        if a in self.network or b in self.network:
            g = self.goal() if self.network else None
            on_path = g is not None and self.first_route(g[0]) == rid
            return cost * (13 if on_path else 10) // 10
        if any(self.board.hop(a, c) <= 1 or self.board.hop(b, c) <= 1 for c in self.network):
            return cost // 2
        return 0

    def auction(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Bid on the lot worth most over its price (the first bidder chooses among the
        lots left when the rules let it), now and then a step or two above the minimum;
        else pass (on the lot worth least to it)."""
        a = self.state["auction"]
        current = a["lots"][a["lot"]]["route"] if isinstance(a.get("lot"), int) and a["lot"] < len(a["lots"]) else None

        def route_of(cmd):
            return self.board.parse_route(cmd["route"]) if "route" in cmd else current

        limit_money = self.p["money"] - 3_000
        best, best_key = None, None
        for cmd in self.by.get("bid", []):
            limit = min(self.lot_worth(route_of(cmd)), limit_money)
            if cmd.get("amount", 0) > limit:
                continue
            key = (limit - cmd.get("amount", 0), self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = (cmd, limit), key
        if best is not None:
            cmd, limit = dict(best[0]), best[1]
            jump = RU.BID_STEP * self.rng.choice((0, 0, 0, 1, 2))
            if "amount" in cmd and cmd["amount"] + jump <= limit:
                cmd["amount"] += jump
            return cmd
        passes = self.by.get("pass-bid", [])
        if passes:
            return min(passes, key=lambda c: (self.lot_worth(route_of(c)), c.get("route", "")))
        return self.rng.choice(legal)
