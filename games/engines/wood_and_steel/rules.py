"""The Wood and Steel companion rules engine (the app side of the table game).

The app does every random draw and the bookkeeping: starting routes, independent
railroads, contracts, money, debt, engines, upgrades, ties. The players report what
happens on the table (track they lay, contracts they fulfil). See README.md.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any, ClassVar

from ..base import Command, Engine, Event, Option, RulesError, State, places, require
from ..rng import Rng, seed_state
from ..specs import CommandSpec, Field
from . import contracts as C
from . import railroads as R
from . import scoring as S
from .board import Board, board_fingerprint, default_board, get_board, route_id, validate_board

# -- fixed numbers from the rules ------------------------------------------------

START_MONEY = 10_000
ENGINES = [
    # slug, name, distance, cost
    ("john-bull", "2-4-0 John Bull", 1, 0),
    ("american", "4-4-0 American", 2, 5_000),
    ("mogul", "2-6-0 Mogul", 3, 7_000),
    ("consolidation", "2-8-0 Consolidation", 3, 10_000),
    ("camelback", "4-6-0 Camelback", 4, 13_000),
    ("prairie", "2-6-2 Prairie", 5, 16_000),
    ("pacific", "4-6-2 Pacific", 7, 20_000),
    ("mikado", "2-8-2 Mikado", 8, 24_000),
    ("mountain", "4-8-2 Mountain", 9, 28_000),
    ("challenger", "4-6-6-4 Challenger", 11, 32_000),
]
ENGINE_LEVEL = {slug: i for i, (slug, *_rest) in enumerate(ENGINES)}
ENGINE_COST = {slug: cost for slug, _n, _d, cost in ENGINES}
ENGINE_NAME = {slug: name for slug, name, _d, _c in ENGINES}
MOGUL = ENGINE_LEVEL["mogul"]
CONSOLIDATION = ENGINE_LEVEL["consolidation"]
MAX_ENGINES = 2
SKIP_ENGINE_SURCHARGE = 5_000  # hub: order one design ahead

UPGRADES = {
    "service-yard": 10_000,
    "upgraded-stations": 10_000,
    "hub": 15_000,
    "timetable": 15_000,
    "roundhouse": 10_000,
    "employment-office": 10_000,
    "track-maintenance": 10_000,
    "railyard": 10_000,
    "regional-office": 20_000,
    "commodities-exchange": 20_000,
}
REPEATABLE_UPGRADES = {"railyard", "regional-office", "commodities-exchange"}
UPGRADED_STATIONS_BONUS = 3_000
HEAVY_ENGINE_BONUS = 1_000  # Mountain / Challenger: per segment (route, i.e. hop) of the contract
HUB_TRACK_DISCOUNT = 1_000  # per segment (route) built within two links of the builder's hub
TRACK_PER_TURN = 2  # segments (routes) per turn; 3 with the Employment Office
SEGMENT_UNITS = ("route", "length")  # the rules' segment; the engine's reading before issue 18
# Options the lobby never offers (not in OPTIONS). Each keeps games started before a rules
# correction playing, and replaying, as they began: a new game gets the first value, the
# companion's migrations write the second into the options of games already started, and
# the engine reads a state whose options lack the key as the second.
HIDDEN_OPTIONS = {
    "segment_unit": SEGMENT_UNITS,  # issue 18 part 1: a segment is a route (migration 0003)
    "auction_lots": ("as-sold", "whole-route"),  # issue 18: a lot is what was sold (migration 0004)
    "avoid_cities_rule": ("honour", "ignore"),  # issue 18: the board's avoid_cities (migration 0004)
}
DEBT_UNIT = 5_000
DEBT_SERVICE_PER_UNIT = 1_000
BANKRUPTCY_PENALTY = 5_000
BID_STEP = 1_000
MAX_BORROW = 100_000

ACTION_KINDS = {
    "fulfill-contract": "run-trains",
    "claim-market-contract": "run-trains",
    "build-track": "build-track",
    "buy-engine": "buy-engine",
    "acquire-railroad": "acquire-railroad",
    "go-first": "go-first",
    "borrow": "borrow",
    "repay-debt": "repay-debt",
    "buy-upgrade": "buy-upgrade",
    "discard-private-contract": "discard-private-contract",
    "pass-action": "pass",
}


# -- pure rule functions (exact numbers; tested directly) -------------------------


def route_cost(length: int, *, mountainous: bool = False, parallel: bool = False, hub: bool = False) -> int:
    """The rules' build-cost table: one segment of track (one route between two cities)
    of the given ``length``. Length 1-5: $2,000-$6,000; mountainous doubled; parallel
    +$1,000 (doubled with the mountain); $1,000 less near the builder's hub (the rules'
    "$1,000 less per segment within two links of a hub"). Longer routes (a game master's
    board allows up to 9) continue the table's rows."""
    base = 1_000 + 1_000 * length + (1_000 if parallel else 0)
    if mountainous:
        base *= 2
    return max(0, base - (HUB_TRACK_DISCOUNT if hub else 0))


def track_cost(segments: int, *, mountainous: bool = False, parallel: bool = False, hub_discount: int = 0) -> int:
    """The reading before issue 18 (``segment_unit='length'``, games started before it):
    ``segments`` units of route length laid in one go cost $1,000 + $1,000 per unit,
    +$1,000 when parallel, doubled when mountainous, minus ``hub_discount`` per unit."""
    base = 1_000 + 1_000 * segments + (1_000 if parallel else 0)
    if mountainous:
        base *= 2
    return max(0, base - hub_discount * segments)


def merger_price(unit: int, *, routes: int, length: int, segment_unit: str = "route", price_unit: str = "segment") -> int:
    """Price of merging with an independent: ``unit`` ($3,000, $4,000 once the West is
    broken) per segment. A segment is a route (``segment_unit='route'``, the rules), or a
    unit of route length in games started before issue 18 (``'length'``, where the
    ``railroad_price_unit='route'`` option priced per route instead)."""
    if segment_unit == "route" or price_unit == "route":
        return unit * routes
    return unit * length


def trade_in_value(engine: str) -> int:
    """Half the purchase price rounded down to $1,000 ($0 for the John Bull)."""
    return (ENGINE_COST[engine] // 2) // 1_000 * 1_000


def debt_service(debt: int, destination_kind: str, central_paid: bool, western_started: bool) -> tuple[int, bool, bool]:
    """Debt service for one delivery: (amount, central_paid, western_started) after it.

    Eastern deliveries cost nothing until the first Western delivery; the first Central
    delivery pays once; from the first Western delivery on, every delivery pays.
    $1,000 per $5,000 borrowed."""
    per = (debt // DEBT_UNIT) * DEBT_SERVICE_PER_UNIT
    due = False
    if destination_kind == "west":
        western_started = True
    if western_started:
        due = True
    if destination_kind == "central" and not central_paid:
        central_paid = True
        due = True
    return (per if due else 0), central_paid, western_started


def delivery_income(value: int, *, hops: int, upgraded_stations: bool, heavy_engine: bool) -> int:
    income = value
    if upgraded_stations:
        income += UPGRADED_STATIONS_BONUS
    if heavy_engine:
        income += HEAVY_ENGINE_BONUS * hops
    return income


def desirability(board: Board, rid: str) -> int:
    """How good a starting route is: cities within one hop count their value twice,
    within two hops once, plus 3 per different commodity within two hops."""
    key = ("desirability", rid)
    if key in board.memo:
        return board.memo[key]
    cities = list(board.route_cities(rid))
    score = 0
    commodities: set[str] = set()
    for c in board.names:
        d = board.hop_to_set(c, cities)
        if d <= 1:
            score += 2 * board.base_value(c)
        elif d == 2:
            score += board.base_value(c)
        else:
            continue
        commodities.update(board.cities[c]["commodities"])
    board.memo[key] = score + 3 * len(commodities)
    return board.memo[key]


def resolve_rankings(board: Board, rng: Rng, rankings: list[list[str]], allow_shared: bool | None = None) -> list[str]:
    """Give every player a starting route from their ranked choices.

    Among all assignments of distinct routes (routes sharing a city are not both used
    unless there are too few disjoint routes), pick those whose worst-off player gets the
    best rank, then the best total; break remaining ties at random. Unranked routes cost
    more than any ranked one."""
    routes = list(board.starting_routes)
    n = len(rankings)
    require(n <= len(routes), "too-many-players", "The board has too few starting routes.")

    def cost(seat: int, rid: str) -> int:
        ranks = rankings[seat]
        return ranks.index(rid) if rid in ranks else len(ranks) + 2

    def disjoint(combo) -> bool:
        seen: set[str] = set()
        for rid in combo:
            cs = set(board.route_cities(rid))
            if cs & seen:
                return False
            seen |= cs
        return True

    perms = list(itertools.permutations(routes, n))
    if not allow_shared:
        ok = [p for p in perms if disjoint(p)]
        if ok:
            perms = ok
    best, best_key = [], None
    for p in perms:
        costs = [cost(i, rid) for i, rid in enumerate(p)]
        key = (max(costs), sum(costs))
        if best_key is None or key < best_key:
            best, best_key = [p], key
        elif key == best_key:
            best.append(p)
    return list(best[rng.below(len(best))])


# -- the engine ------------------------------------------------------------------


def _opt(name, type_, default, help_, **kw):
    return Option(name=name, type=type_, default=default, help=help_, **kw)


OPTIONS = (
    _opt("min_market_value", "int", 9_000, "Market contracts are worth at least this (rules: $9,000; designers' app: $6,000).", min=3_000, max=30_000),
    _opt("tie_rule", "choice", "section", "Delivery ties: by section 1/2/3 (rules) or the designers' 1-4 region matrix.", choices=("section", "region-matrix")),
    _opt("west_coast_bonus", "choice", "first-per-player", "West Coast bonus (+3 first in the game, +2 later): once per player, or on every West Coast delivery.", choices=("first-per-player", "every-delivery")),
    _opt("target_ties", "int", 30, "The game ends when a player reaches this many ties.", min=5, max=75, stored_max=200),  # max: README, 'Option bounds'
    _opt("end_timing", "choice", "immediate", "End at once when a player reaches the target (rules), or finish the round first.", choices=("immediate", "end-of-round")),
    _opt("max_rounds", "int", 0, "Stop after this many rounds (0: no limit).", min=0, max=500),
    _opt("railroads_min", "int", 9, "Fewest railroads (players + independents) at the start.", min=1, max=30),
    _opt("railroads_max", "int", 12, "Most railroads (players + independents) at the start.", min=1, max=30),
    _opt("indie_distance", "int", 2, "Independents start at least this many hops from every possible starting city.", min=1, max=6),
    _opt("railroad_price", "int", 3_000, "Merger price per segment (route) before the western section is broken.", min=0, max=50_000),
    _opt("railroad_price_west", "int", 4_000, "Merger price per segment (route) once the western section is broken.", min=0, max=50_000),
    _opt("railroad_price_unit", "choice", "segment", "Merger price per segment (rules) or per route (designers' app): the same since issue 18 (a segment is a route); they differ only in games started before it.", choices=("segment", "route")),
    _opt("acquire_requires_connection", "bool", True, "A player may only merge with an independent their track reaches."),
    _opt("market_size", "int", 3, "Market contracts laid out when the market opens.", min=1, max=10),
    _opt("market_tableau", "choice", "fixed", "The open market: 'fixed' keeps market_size contracts (a claim deals a replacement; a market delivery deals one only when fewer are open); 'grows' (the rules' text read literally): every market delivery deals one more, up to market_max.", choices=("fixed", "grows")),
    _opt("market_max", "int", 0, "Most open market contracts: a market delivery adds one only below this (0: no cap, as in the rules; a claim always deals a replacement).", min=0, max=50),
    _opt("check_network", "bool", True, "Check that the player's reported track reaches the pickup and destination cities."),
    _opt("limit_actions", "bool", True, "At most two different actions per turn (running trains may repeat)."),
    _opt("max_borrow", "int", MAX_BORROW, "Most borrowed in one action, a multiple of $5,000 (the rules set no limit on total debt; borrow again next turn).", min=DEBT_UNIT, max=1_000_000),
    _opt("player_area", "choice", "network", "Cities contracts are drawn around and independents keep away from: each player's network plus active cities (rules: contracts are 'close to the players' existing rail networks'), or active cities only (designers' app).", choices=("network", "active-cities")),
    _opt("debt_floor", "int", 15_000, "Repaying may not bring debt below this (rules: $15,000).", min=0, max=100_000),
    _opt("regional_dominance_ties", "int", 4, "Ties for regional dominance at the end (end-of-game section: 4; the later section says 2).", min=0, max=10),
    _opt("depth_rule", "choice", "times", "Depth bonus: 'times' = deliveries of the most delivered commodity (from 2); 'literal' = that plus one.", choices=("times", "literal")),
    _opt("connection_bonuses", "int", 4, "Connection bonuses the app generates (the first is coast to coast).", min=0, max=12),
    _opt("private_contracts_public", "bool", False, "Show held private contracts to every seat (default: only their holder)."),
    _opt("rebuild_from", "choice", "active-cities", "A player left with no track (all sold in a bankruptcy) starts new track from one of their active cities (their stations: starting cities and cities delivered to), or only from one of their two starting cities.", choices=("active-cities", "starting-cities")),
    _opt("max_parallel", "int", 2, "Most tracks (players or independents) on one route.", min=1, max=6),
)


class WoodAndSteelEngine(Engine):
    kind = "wood-and-steel"
    title = "Wood and Steel"
    min_players = 1
    max_players = 6
    options = OPTIONS
    bots = ("random", "simple", "planner")  # weakest first; planner: bot.py (finishes games, plays every part)

    # Declared in commands.py, which reads this module's tables (engines, upgrades).
    @functools.cached_property
    def commands(self) -> tuple[CommandSpec, ...]:
        from .commands import COMMANDS

        return COMMANDS

    @functools.cached_property
    def view_fields(self) -> tuple[Field, ...]:
        from .commands import VIEW_FIELDS

        return VIEW_FIELDS

    def turn_key(self, state: State) -> Any:
        return turn_key(state)

    # A player takes back their own last action that drew nothing hidden, until the next player
    # acts (games/takeback.py); every draw's event is marked "random" (README, "Take back").
    takes_back: ClassVar[bool] = True

    # -- options -----------------------------------------------------------
    def normalize_options(self, options: dict[str, Any] | None, *, stored: bool = False) -> dict[str, Any]:
        options = dict(options or {})
        board = options.pop("board", None)
        hidden = {name: options.pop(name, values[0]) for name, values in HIDDEN_OPTIONS.items()}
        out = super().normalize_options(options, stored=stored)
        for name, value in hidden.items():
            values = HIDDEN_OPTIONS[name]
            require(value in values, "invalid-option", f"Option {name!r} must be " + " or ".join(repr(v) for v in values) + ".")
            out[name] = value
        require(out["railroads_min"] <= out["railroads_max"], "invalid-option", "railroads_min must not exceed railroads_max.")
        require(out["max_borrow"] % DEBT_UNIT == 0, "invalid-option", "max_borrow must be a multiple of $5,000.")
        out["board"] = validate_board(board) if board is not None else None
        return out

    # -- setup -------------------------------------------------------------
    def setup(self, *, players: list[str], options: dict[str, Any], seed: int) -> State:
        require(self.min_players <= len(players) <= self.max_players, "bad-player-count", "Wood and Steel is for 1 to 6 players.")
        options = self.normalize_options(options, stored=True)
        board_data = options.pop("board") or default_board()
        key = board_fingerprint(board_data)
        board = get_board(board_data, key)
        require(len(players) <= len(board.starting_routes), "bad-player-count", "This board has too few starting routes.")
        rng = Rng(seed_state(seed))
        state: State = {
            "game": "wood-and-steel",
            "version": 1,
            "options": options,
            "board": board_data,
            "board_key": key,
            "phase": "ranking",
            "round": 0,
            "turn": 0,
            "order": list(range(len(players))),
            "order_pos": 0,
            "current_seat": None,
            "go_first": None,
            "players": [self._new_player(i, name) for i, name in enumerate(players)],
            "contracts": [],
            "next_contract": 1,
            "railroads": [],
            "growth": [],
            "stats": {"deliveries_to": {}, "deliveries_of": {}},
            "market_open": False,
            "service_yard_available": False,
            "west_coast_delivered": False,
            "monopolies": {},
            "connection_bonuses": [],
            "auction": None,
            "ending": False,
            "finished": False,
            "final": None,
            "rng": 0,
        }
        count = R.indie_count(rng, len(players), options["railroads_min"], options["railroads_max"])
        taken: set[str] = set()
        # the board's avoid_cities: cities independents never start in (games started before
        # issue 18 ignored them: hidden option avoid_cities_rule='ignore')
        avoid = board.avoid_cities if options["avoid_cities_rule"] == "honour" else ()
        for i, rid in enumerate(R.place_independents(board, rng, count, options["indie_distance"], avoid=avoid)):
            name = R.railroad_name(board, rng, rid, taken)
            taken.add(name)
            state["railroads"].append({"id": i + 1, "name": name, "routes": [{"route": rid, "round": 0}], "acquired_by": None, "acquired_round": None})
        state["connection_bonuses"] = S.generate_connection_bonuses(board, rng, options["connection_bonuses"], options["segment_unit"])
        state["rng"] = rng.state
        return state

    @staticmethod
    def _new_player(seat: int, name: str) -> dict[str, Any]:
        return {
            "seat": seat,
            "name": name,
            "choices": None,
            "start_route": None,
            "desirability": None,
            "engine_city": None,
            "money": START_MONEY,
            "debt": 0,
            "engines": ["john-bull"],
            "upgrades": [],
            "hub": None,
            "railyards": [],
            "regional_offices": [],
            "exchanges": [],
            "track": {},
            "track_paid": {},
            "acquired": [],
            "network": [],
            "active_cities": [],
            "private": None,
            "market": None,
            "offers": [],
            "deliveries": {},
            "fulfilled": [],
            "tie_log": [],
            "end_bonus": [],
            "central_paid": False,
            "western_started": False,
            "west_coast_bonus_taken": False,
            "turn_actions": [],
            "turn_segments": 0,
            "bankrupt_owed": 0,
            "sold_lots": [],
            "last_destination": None,
        }

    # -- helpers -----------------------------------------------------------
    @staticmethod
    def board(state: State) -> Board:
        return get_board(state["board"], state.get("board_key"))

    @staticmethod
    def _contract(state: State, cid: Any) -> dict[str, Any] | None:
        if isinstance(cid, bool) or not isinstance(cid, int):
            return None
        for c in state["contracts"]:
            if c["id"] == cid:
                return c
        return None

    @staticmethod
    def _open_keys(state: State) -> set[str]:
        return {C.contract_key(c["commodity"], c["destination"]) for c in state["contracts"] if c["status"] in ("offered", "held", "market")}

    @staticmethod
    def _hubs(state: State) -> set[str]:
        return {p["hub"] for p in state["players"] if p["hub"]}

    def _area(self, state: State, p: dict[str, Any]) -> list[str]:
        """The cities a player's contracts are drawn around (``player_area``): network plus
        active cities, or active cities only."""
        if state["options"].get("player_area", "network") == "active-cities":
            return sorted(p["active_cities"])
        return sorted(set(p["network"]).union(p["active_cities"]))

    def _all_area(self, state: State) -> set[str]:
        """Every player's area: market contracts are drawn around it, independents keep away."""
        out: set[str] = set()
        for p in state["players"]:
            out.update(self._area(state, p))
        return out

    def _owned_routes(self, state: State, p: dict[str, Any]) -> list[str]:
        board = self.board(state)
        done = [rid for rid, n in p["track"].items() if n >= board.routes[rid]["length"]]
        return sorted(set(done) | set(p["acquired"]))

    def _recompute_network(self, state: State, p: dict[str, Any]) -> list[str]:
        """Refresh the player's network (the cities their track reaches); return the cities
        newly connected. Active cities are not touched: by the rules they are the starting
        cities plus the cities delivered to (see ``_cmd_fulfill``)."""
        board = self.board(state)
        cities: set[str] = set()
        for rid in self._owned_routes(state, p):
            cities.update(board.route_cities(rid))
        before = set(p["network"])
        p["network"] = sorted(cities)
        return sorted(cities - before)

    def _connected(self, state: State, p: dict[str, Any], group_a: list[str], group_b: list[str]) -> bool:
        board = self.board(state)
        routes = self._owned_routes(state, p)
        adj: dict[str, list[str]] = {}
        for rid in routes:
            a, b = board.route_cities(rid)
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        targets = set(group_b)
        for start in group_a:
            if start not in adj:
                continue
            seen = {start}
            stack = [start]
            while stack:
                u = stack.pop()
                if u in targets:
                    return True
                for v in adj[u]:
                    if v not in seen:
                        seen.add(v)
                        stack.append(v)
        return False

    def _ties(self, state: State, p: dict[str, Any]) -> int:
        return S.total_ties(p, state["options"]["depth_rule"])

    def _best_engine(self, p: dict[str, Any]) -> int:
        return max(ENGINE_LEVEL[e] for e in p["engines"])

    def _western_broken(self, state: State) -> bool:
        board = self.board(state)
        west = board.memo.get("west-cities")
        if west is None:
            west = board.memo["west-cities"] = frozenset(c for c in board.names if board.is_west(c))
        return any(not west.isdisjoint(p["network"]) for p in state["players"])

    @staticmethod
    def _by_route(state: State) -> bool:
        """True when a segment is a route (the rules; every game created since issue 18).
        A state whose options lack ``segment_unit`` predates it: the length reading."""
        return state["options"].get("segment_unit", "length") == "route"

    def _railroad_price(self, state: State, rr: dict[str, Any]) -> int:
        board = self.board(state)
        opts = state["options"]
        unit = opts["railroad_price_west"] if self._western_broken(state) else opts["railroad_price"]
        routes = [x["route"] for x in rr["routes"]]
        return merger_price(
            unit,
            routes=len(routes),
            length=R.railroad_segments(board, routes),
            segment_unit="route" if self._by_route(state) else "length",
            price_unit=opts["railroad_price_unit"],
        )

    def _build_cost(self, state: State, p: dict[str, Any], rid: str, *, parallel: bool, segments: int | None = None) -> int:
        """What building on ``rid`` costs ``p`` now: the whole route from the table (the
        rules), or ``segments`` units of its length (games started before issue 18)."""
        board = self.board(state)
        route = board.routes[rid]
        if self._by_route(state):
            return route_cost(route["length"], mountainous=route["mountainous"], parallel=parallel, hub=self._hub_discount(state, p, rid) > 0)
        return track_cost(segments or 1, mountainous=route["mountainous"], parallel=parallel, hub_discount=self._hub_discount(state, p, rid))

    def _railroad_cities(self, state: State, rr: dict[str, Any]) -> set[str]:
        board = self.board(state)
        out: set[str] = set()
        for x in rr["routes"]:
            out.update(board.route_cities(x["route"]))
        return out

    def _route_occupants(self, state: State, rid: str) -> int:
        n = sum(1 for p in state["players"] if p["track"].get(rid) or rid in p["acquired"])
        n += sum(1 for r in state["railroads"] if r["acquired_by"] is None and any(x["route"] == rid for x in r["routes"]))
        return n

    def _build_anchor(self, state: State, p: dict[str, Any]) -> set[str]:
        """The cities new track may start from: the player's network; once they have no
        track left (a bankruptcy sold it all), their active cities or their starting cities
        (option ``rebuild_from``), so a railroad that sold everything can build again."""
        if p["network"]:
            return set(p["network"])
        if state["options"].get("rebuild_from", "active-cities") == "starting-cities":
            return set(self.board(state).route_cities(p["start_route"])) if p["start_route"] else set()
        return set(p["active_cities"])

    @staticmethod
    def _anchor_text(state: State) -> str:
        return "one of your starting cities" if state["options"].get("rebuild_from") == "starting-cities" else "one of your active cities"

    def _build_options(self, state: State, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Every route ``p`` may build on now, whatever their money and actions: route,
        remaining units of length, parallel, hub discount, and the price of the whole route
        (the rules) or of its remaining length in one go (games started before issue 18)."""
        board = self.board(state)
        network = self._build_anchor(state, p)
        occupied: dict[str, int] = {}
        for q in state["players"]:
            for rid in set(q["track"]).union(q["acquired"]):
                if q["track"].get(rid) or rid in q["acquired"]:
                    occupied[rid] = occupied.get(rid, 0) + 1
        for r in state["railroads"]:
            if r["acquired_by"] is None:
                for rid in {x["route"] for x in r["routes"]}:
                    occupied[rid] = occupied.get(rid, 0) + 1
        out = []
        for rid in board.route_ids:
            route = board.routes[rid]
            if rid in p["acquired"]:
                continue
            built = p["track"].get(rid, 0)
            remaining = route["length"] - built
            if remaining <= 0:
                continue
            if built == 0 and route["a"] not in network and route["b"] not in network:
                continue
            occupants = occupied.get(rid, 0)
            if built == 0:
                if route["a"] not in network and route["b"] not in network:
                    continue
                if occupants >= state["options"]["max_parallel"]:
                    continue
                parallel = occupants > 0
            else:
                parallel = occupants - 1 > 0
            hub = self._hub_discount(state, p, rid) > 0
            cost = self._build_cost(state, p, rid, parallel=parallel, segments=remaining)
            out.append({"route": rid, "length": route["length"], "remaining": remaining, "mountainous": route["mountainous"], "parallel": parallel, "hub": hub, "cost": cost})
        return out

    def _segment_allowance(self, p: dict[str, Any]) -> int:
        """Segments a player may build per turn: routes (the rules) or units of route
        length (games started before issue 18)."""
        return TRACK_PER_TURN + (1 if "employment-office" in p["upgrades"] else 0)

    def _hub_discount(self, state: State, p: dict[str, Any], rid: str) -> int:
        if not p["hub"]:
            return 0
        board = self.board(state)
        a, b = board.route_cities(rid)
        return 1_000 if board.hop(a, p["hub"]) <= 2 and board.hop(b, p["hub"]) <= 2 else 0

    def _debt_preview(self, p: dict[str, Any]) -> dict[str, int]:
        return {kind: debt_service(p["debt"], kind, p["central_paid"], p["western_started"])[0] for kind in ("east", "central", "west")}

    def _new_contract(self, state: State, *, ctype: str, commodity: str, destination: str, holder: int | None, status: str, reason: str) -> dict[str, Any]:
        board = self.board(state)
        c = {
            "id": state["next_contract"],
            "type": ctype,
            "commodity": commodity,
            "destination": destination,
            "holder": holder,
            "status": status,
            "value": C.contract_value(board, commodity, destination),
            "hops": board.nearest[commodity][destination],
            "ties": C.contract_ties(board, commodity, destination, state["options"]["tie_rule"]),
            "created_round": state["round"],
            "reason": reason,
            "turns_held": 0,
            "fulfilled_round": None,
        }
        state["next_contract"] += 1
        state["contracts"].append(c)
        return c

    def _deal_offers(self, state: State, rng: Rng, p: dict[str, Any], reason: str) -> list[Event]:
        board = self.board(state)
        specs: list[str | None] = [r for r in p["regional_offices"]]
        n = 2 + (1 if p["hub"] else 0)
        specs += [None] * n
        exclude = self._open_keys(state)
        monopolies = [k for k, s in state["monopolies"].items() if s == p["seat"]]
        sizes = board.monopoly_sizes()
        chance = {k: S.MONOPOLY_CHANCE.get(sizes.get(k, 0), 0) for k in monopolies}
        ids = []
        for region in specs:
            pair = C.private_contract(
                board,
                rng,
                area=self._area(state, p),
                current=p["active_cities"][-1],
                exclude=exclude,
                stats=state["stats"],
                hubs=self._hubs(state),
                own_hub=p["hub"],
                region=region,
                fulfilled_count=len(p["fulfilled"]),
                monopolies=monopolies,
                last_destination=p["last_destination"],
                monopoly_chance=chance,
            )
            if pair is None:
                continue
            exclude.add(C.contract_key(*pair))
            c = self._new_contract(state, ctype="private", commodity=pair[0], destination=pair[1], holder=p["seat"], status="offered", reason=reason if region is None else f"regional-office:{region}")
            ids.append(c["id"])
        p["offers"] = ids
        return [{"type": "offers-dealt", "seat": p["seat"], "count": len(ids), "random": True}]

    def _deal_market(self, state: State, rng: Rng, reason: str) -> list[Event]:
        board = self.board(state)
        pair = C.market_contract(
            board,
            rng,
            area=self._all_area(state),
            exclude=self._open_keys(state),
            stats=state["stats"],
            hubs=self._hubs(state),
            min_value=state["options"]["min_market_value"],
        )
        if pair is None:
            return []
        c = self._new_contract(state, ctype="market", commodity=pair[0], destination=pair[1], holder=None, status="market", reason=reason)
        return [{"type": "market-contract-added", "contract": c["id"], "commodity": c["commodity"], "destination": c["destination"], "value": c["value"], "random": True}]

    def _open_market_count(self, state: State) -> int:
        return sum(1 for c in state["contracts"] if c["status"] == "market")

    def _market_refill(self, state: State) -> bool:
        """Whether a market delivery deals a new market contract. The tableau (option
        ``market_tableau='fixed'``) keeps ``market_size`` contracts: a claim already dealt a
        replacement, so a delivery deals one only when fewer are open (a draw found nothing).
        ``'grows'`` (the literal text, and games started before issue 18 whose options lack
        the key): every delivery deals one more, up to ``market_max`` (0: no cap)."""
        opts = state["options"]
        if opts.get("market_tableau", "grows") == "fixed":
            return self._open_market_count(state) < opts["market_size"]
        return not opts["market_max"] or self._open_market_count(state) < opts["market_max"]

    # -- validation of the acting seat -------------------------------------
    def _check_turn(self, state: State, seat: Any) -> dict[str, Any]:
        require(not state["finished"], "game-over", "The game is over.")
        require(state["phase"] == "play", "wrong-phase", "That is not possible in this phase.")
        require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state["players"]), "not-a-player", "Only players can do that.")
        require(state["current_seat"] == seat, "not-your-turn", "It is not your turn.")
        p = state["players"][seat]
        require(p["bankrupt_owed"] == 0, "bankrupt", "Sell track to cover your bankruptcy first.")
        return p

    def _check_action(self, state: State, p: dict[str, Any], cmd: str) -> None:
        reason = self._action_reason(state, p, cmd)
        if reason is not None:
            raise RulesError(reason["code"], reason["message"])

    @staticmethod
    def _action_reason(state: State, p: dict[str, Any], cmd: str) -> dict[str, str] | None:
        """Why ``p`` may not take the action of ``cmd`` now (two different actions a turn;
        running trains and building may go on), or None."""
        if not state["options"]["limit_actions"]:
            return None
        kind = ACTION_KINDS[cmd]
        if kind in p["turn_actions"]:
            if kind in ("run-trains", "build-track"):
                return None
            return {"code": "action-used", "message": "You already took that action this turn."}
        if len(p["turn_actions"]) >= 2:
            return {"code": "no-actions-left", "message": "You have used both actions this turn."}
        return None

    @staticmethod
    def _money_reason(p: dict[str, Any], cost: int, what: str) -> dict[str, str] | None:
        """The one affordability check (``apply`` and the priced listing give the same
        reason): ``what`` starts the sentence, e.g. "That track costs"."""
        if p["money"] >= cost:
            return None
        return {"code": "not-enough-money", "message": f"{what} ${cost:,}; you have ${p['money']:,}."}

    def _check_money(self, p: dict[str, Any], cost: int, what: str) -> None:
        reason = self._money_reason(p, cost, what)
        if reason is not None:
            raise RulesError(reason["code"], reason["message"])

    @staticmethod
    def _use_action(state: State, p: dict[str, Any], cmd: str) -> None:
        kind = ACTION_KINDS[cmd]
        if kind not in p["turn_actions"]:
            p["turn_actions"].append(kind)

    # -- apply -------------------------------------------------------------
    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        handler = self._HANDLERS[command["cmd"]]  # its shape fits `commands` (Engine.apply checked it)
        # Each handler validates everything first and only then mutates.
        events = handler(self, state, seat, command)
        if state["phase"] == "play" and not state["finished"]:
            events += self._check_end(state)
        return events

    # setup phase ----------------------------------------------------------
    def _cmd_rank(self, state: State, seat: Any, command: Command) -> list[Event]:
        require(not state["finished"], "game-over", "The game is over.")
        require(state["phase"] == "ranking", "wrong-phase", "Starting routes are already settled.")
        require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state["players"]), "not-a-player", "Only players can rank routes.")
        board = self.board(state)
        choices = command.get("choices")
        want = min(3, len(board.starting_routes))
        require(isinstance(choices, list) and len(choices) == want, "bad-choices", f"Rank exactly {want} starting routes.")
        rids = [board.parse_route(c) for c in choices]
        require(all(r in board.starting_routes for r in rids), "bad-choices", "Each choice must be a starting route such as 'New York-Philadelphia'.")
        require(len(set(rids)) == len(rids), "bad-choices", "Rank three different routes.")
        state["players"][seat]["choices"] = rids
        events: list[Event] = [{"type": "routes-ranked", "seat": seat}]
        if all(p["choices"] for p in state["players"]):
            events += self._resolve_start(state)
        return events

    def _resolve_start(self, state: State) -> list[Event]:
        board = self.board(state)
        rng = Rng(state["rng"])
        players = state["players"]
        max_disjoint = self._max_disjoint(board)
        routes = resolve_rankings(board, rng, [p["choices"] for p in players], allow_shared=len(players) > max_disjoint)
        events: list[Event] = []
        for p, rid in zip(players, routes, strict=True):
            p["start_route"] = rid
            p["desirability"] = desirability(board, rid)
            p["track"][rid] = board.routes[rid]["length"]
            p["track_paid"][rid] = 0
            a, b = board.route_cities(rid)
            p["active_cities"] = [a, b]
            p["network"] = sorted([a, b])
        tiebreak = {p["seat"]: rng.below(1 << 30) for p in players}
        state["order"] = sorted((p["seat"] for p in players), key=lambda s: (players[s]["desirability"], tiebreak[s]))
        events.append(
            {
                "type": "starting-routes",
                "routes": {str(p["seat"]): p["start_route"] for p in players},
                "desirability": {str(p["seat"]): p["desirability"] for p in players},
                "order": list(state["order"]),
                "random": True,
            }
        )
        exclude = self._open_keys(state)
        for s in state["order"]:
            p = players[s]
            pair = C.starting_contract(board, rng, list(board.route_cities(p["start_route"])), exclude, state["stats"], self._hubs(state))
            if pair is not None:
                exclude.add(C.contract_key(*pair))
                c = self._new_contract(state, ctype="private", commodity=pair[0], destination=pair[1], holder=s, status="held", reason="starting")
                p["private"] = c["id"]
            events.append({"type": "starting-contract-dealt", "seat": s, "random": True})
        state["phase"] = "engines"
        state["rng"] = rng.state
        return events

    @staticmethod
    def _max_disjoint(board: Board) -> int:
        best = 0
        routes = board.starting_routes
        for k in range(1, len(routes) + 1):
            for combo in itertools.combinations(routes, k):
                cities = [c for r in combo for c in board.route_cities(r)]
                if len(set(cities)) == len(cities):
                    best = k
                    break
        return best

    def _cmd_place_engine(self, state: State, seat: Any, command: Command) -> list[Event]:
        require(not state["finished"], "game-over", "The game is over.")
        require(state["phase"] == "engines", "wrong-phase", "Engines are placed after the starting routes are settled.")
        require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state["players"]), "not-a-player", "Only players can place engines.")
        p = state["players"][seat]
        board = self.board(state)
        city = command.get("city")
        require(city in board.route_cities(p["start_route"]), "bad-city", "Put your engine in one of your two starting cities.")
        p["engine_city"] = city
        # the engine's city is the current city (last active) until the first delivery
        p["active_cities"] = [c for c in p["active_cities"] if c != city] + [city]
        events: list[Event] = [{"type": "engine-placed", "seat": seat, "city": city}]
        if all(q["engine_city"] for q in state["players"]):
            state["phase"] = "play"
            state["round"] = 1
            state["order_pos"] = 0
            state["current_seat"] = state["order"][0]
            events.append({"type": "round-started", "round": 1, "order": list(state["order"])})
            events.append({"type": "turn-started", "seat": state["current_seat"]})
        return events

    # play phase -----------------------------------------------------------
    def _cmd_build_track(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        board = self.board(state)
        rid = board.parse_route(command.get("route"))
        require(rid is not None, "bad-route", "Name a route of the board, e.g. 'Boston-New York'.")
        route = board.routes[rid]
        built = p["track"].get(rid, 0)
        remaining = route["length"] - built
        require(rid not in p["acquired"] and remaining > 0, "already-built", "You already have that track.")
        require(p["turn_segments"] < self._segment_allowance(p), "too-many-segments", f"You may build {self._segment_allowance(p)} segments per turn.")
        segments = command.get("segments", None)
        by_route = self._by_route(state)
        if by_route:
            # a segment is the whole route: `segments`, if sent, must be 1
            require(segments is None or (isinstance(segments, int) and not isinstance(segments, bool) and segments == 1), "bad-segments", "A route is one segment: build it whole (segments 1).")
            segments = 1
        else:
            if segments is None:
                segments = min(remaining, self._segment_allowance(p) - p["turn_segments"])
            require(isinstance(segments, int) and not isinstance(segments, bool) and 1 <= segments <= remaining, "bad-segments", f"Build from 1 to {remaining} segments there.")
            require(p["turn_segments"] + segments <= self._segment_allowance(p), "too-many-segments", f"You may build {self._segment_allowance(p)} segments per turn.")
        if built == 0:
            a, b = route["a"], route["b"]
            anchor = self._build_anchor(state, p)
            require(a in anchor or b in anchor, "not-connected", "Track must start from your network." if p["network"] else "Track must start from " + self._anchor_text(state) + ".")
            require(self._route_occupants(state, rid) < state["options"]["max_parallel"], "route-full", "That route has no room for more track.")
        self._check_action(state, p, "build-track")
        parallel = self._route_occupants(state, rid) - (1 if built else 0) > 0
        cost = self._build_cost(state, p, rid, parallel=parallel, segments=segments)
        self._check_money(p, cost, "That track costs")
        # mutate
        self._use_action(state, p, "build-track")
        p["money"] -= cost
        p["turn_segments"] += segments
        # p["track"] keeps units of length laid (a route is complete at its length)
        p["track"][rid] = route["length"] if by_route else built + segments
        p["track_paid"][rid] = p["track_paid"].get(rid, 0) + cost
        events: list[Event] = [{"type": "track-built", "seat": seat, "route": rid, "segments": segments, "length": route["length"], "cost": cost, "parallel": parallel, "complete": p["track"][rid] == route["length"]}]
        if p["track"][rid] == route["length"]:
            added = self._recompute_network(state, p)
            if added:
                events.append({"type": "cities-connected", "seat": seat, "cities": added})
        return events

    def _cmd_fulfill(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        c = self._contract(state, command.get("contract"))
        require(c is not None, "no-such-contract", "There is no such contract.")
        require(c["status"] == "held" and c["holder"] == seat, "not-your-contract", "You do not hold that contract.")
        board = self.board(state)
        if state["options"]["check_network"]:
            require(c["destination"] in p["network"], "not-connected", f"Your track does not reach {c['destination']}.")
            require(self._can_pick_up(state, p, c["commodity"]), "not-connected", f"Your track reaches no city with {c['commodity']}.")
        self._check_action(state, p, "fulfill-contract")
        rng = Rng(state["rng"])
        # mutate
        self._use_action(state, p, "fulfill-contract")
        opts = state["options"]
        dest = c["destination"]
        kind = board.section_kind(dest)
        service, p["central_paid"], p["western_started"] = debt_service(p["debt"], kind, p["central_paid"], p["western_started"])
        heavy = any(e in ("mountain", "challenger") for e in p["engines"])
        income = delivery_income(c["value"], hops=c["hops"], upgraded_stations="upgraded-stations" in p["upgrades"], heavy_engine=heavy)
        net = income - service
        events: list[Event] = []
        c["status"] = "fulfilled"
        c["fulfilled_round"] = state["round"]
        c["holder"] = seat
        p["fulfilled"].append(c["id"])
        bankrupt = p["money"] + net < 0
        # "If a player has gone bankrupt fulfilling a contract, they earn no railroad ties":
        # a bankrupt delivery counts toward neither breadth nor depth (issue 18; games
        # started before it tallied it first, and replay as they were played)
        if not bankrupt or not self._by_route(state):
            p["deliveries"][c["commodity"]] = p["deliveries"].get(c["commodity"], 0) + 1
        st = state["stats"]
        st["deliveries_to"][dest] = st["deliveries_to"].get(dest, 0) + 1
        st["deliveries_of"][c["commodity"]] = st["deliveries_of"].get(c["commodity"], 0) + 1
        if dest in p["active_cities"]:
            p["active_cities"].remove(dest)
        p["active_cities"].append(dest)
        p["last_destination"] = dest
        ev = {"type": "contract-fulfilled", "seat": seat, "contract": c["id"], "commodity": c["commodity"], "destination": dest, "income": income, "debt_service": service, "ties": 0}
        if bankrupt:
            shortfall = -(p["money"] + net)
            p["money"] = 0
            penalty = min(S.BANKRUPTCY_TIES, self._ties(state, p))
            p["tie_log"].append({"source": "bankruptcy", "ties": -penalty, "detail": f"Bankrupt in round {state['round']}: ${shortfall:,} short", "round": state["round"]})
            p["bankrupt_owed"] = shortfall + BANKRUPTCY_PENALTY
            ev["bankrupt"] = True
            events.append(ev)
            events.append({"type": "bankruptcy", "seat": seat, "shortfall": shortfall, "owed": p["bankrupt_owed"], "ties_lost": penalty})
            if not self._sellable(state, p):
                events += self._finish_bankruptcy(state, p)
        else:
            p["money"] += net
            ties = c["ties"]
            p["tie_log"].append({"source": "delivery", "ties": c["ties"], "detail": f"{c['commodity']} to {dest} ({c['type']} contract)", "round": state["round"], "contract": c["id"]})
            if board.cities[dest]["west_coast"] and (opts["west_coast_bonus"] == "every-delivery" or not p["west_coast_bonus_taken"]):
                bonus = 2 if state["west_coast_delivered"] else 3
                p["tie_log"].append({"source": "west-coast", "ties": bonus, "detail": f"{'First' if bonus == 3 else 'Later'} West Coast delivery ({dest})", "round": state["round"]})
                p["west_coast_bonus_taken"] = True
                ties += bonus
            ev["ties"] = ties
            events.append(ev)
        if board.cities[dest]["west_coast"] and (not bankrupt or not self._by_route(state)):
            # a bankrupt West Coast delivery scores nothing, so the game's first +3 stays open
            state["west_coast_delivered"] = True
        if c["type"] == "private":
            p["private"] = None
            events += self._deal_offers(state, rng, p, "fulfilled")
        else:
            p["market"] = None
            if self._market_refill(state):
                events += self._deal_market(state, rng, "delivery")
        state["rng"] = rng.state
        return events

    def _can_pick_up(self, state: State, p: dict[str, Any], commodity: str) -> bool:
        board = self.board(state)
        producers = board.producers.get(commodity, [])
        if any(c in p["network"] for c in producers):
            return True
        return any(board.hop(y, c) <= 2 for y in p["railyards"] for c in producers)

    def _cmd_choose_offer(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        offer = command.get("offer")
        require(isinstance(offer, int) and not isinstance(offer, bool) and offer in p["offers"], "no-such-offer", "Choose one of your offers.")
        for cid in p["offers"]:
            c = self._contract(state, cid)
            c["status"] = "held" if cid == offer else "declined"
        p["private"] = offer
        p["offers"] = []
        return [{"type": "offer-chosen", "seat": seat, "contract": offer}]

    def _cmd_discard(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        require(p["private"] is not None and not p["offers"], "no-private-contract", "You have no private contract to discard.")
        self._check_action(state, p, "discard-private-contract")
        rng = Rng(state["rng"])
        self._use_action(state, p, "discard-private-contract")
        c = self._contract(state, p["private"])
        c["status"] = "discarded"
        p["private"] = None
        events: list[Event] = [{"type": "private-contract-discarded", "seat": seat, "contract": c["id"]}]
        events += self._deal_offers(state, rng, p, "discard")
        state["rng"] = rng.state
        return events

    def _cmd_claim_market(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        c = self._contract(state, command.get("contract"))
        require(c is not None and c["status"] == "market", "no-such-contract", "That is not an open market contract.")
        require(self._best_engine(p) >= MOGUL, "need-mogul", "You need a Mogul or better to take market contracts.")
        require(p["market"] is None, "already-holding", "You already hold a market contract.")
        if state["options"]["check_network"]:
            require(self._can_pick_up(state, p, c["commodity"]), "not-connected", f"Your track reaches no city with {c['commodity']}.")
        self._check_action(state, p, "claim-market-contract")
        rng = Rng(state["rng"])
        self._use_action(state, p, "claim-market-contract")
        c["status"] = "held"
        c["holder"] = seat
        c["claimed_round"] = state["round"]
        p["market"] = c["id"]
        events: list[Event] = [{"type": "market-contract-claimed", "seat": seat, "contract": c["id"]}]
        events += self._deal_market(state, rng, "claim")
        state["rng"] = rng.state
        return events

    def _cmd_acquire(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        rid = command.get("railroad")
        rr = next((r for r in state["railroads"] if r["id"] == rid and not isinstance(rid, bool)), None)
        require(rr is not None and rr["acquired_by"] is None, "no-such-railroad", "There is no such independent railroad.")
        cities = self._railroad_cities(state, rr)
        if state["options"]["acquire_requires_connection"]:
            require(bool(cities & set(p["network"])), "not-connected", "Your track must reach that railroad first.")
        price = self._railroad_price(state, rr)
        self._check_action(state, p, "acquire-railroad")
        self._check_money(p, price, "That railroad costs")
        self._use_action(state, p, "acquire-railroad")
        p["money"] -= price
        rr["acquired_by"] = seat
        rr["acquired_round"] = state["round"]
        rr["price"] = price
        for x in rr["routes"]:
            if x["route"] not in p["acquired"]:
                p["acquired"].append(x["route"])
            p["track"].pop(x["route"], None)
        added = self._recompute_network(state, p)
        return [{"type": "railroad-acquired", "seat": seat, "railroad": rr["id"], "name": rr["name"], "price": price, "cities": added}]

    def _cmd_buy_engine(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        engine = command.get("engine")
        require(engine in ENGINE_LEVEL, "bad-engine", "Unknown engine.")
        best = self._best_engine(p)
        level = ENGINE_LEVEL[engine]
        skip = p["hub"] is not None and level == best + 2
        require(level == best + 1 or skip, "bad-engine", "You may only buy the next engine design (two ahead with a Hub).")
        trade = command.get("trade_in")
        require(trade is None or trade in p["engines"], "bad-trade-in", "Trade in an engine you own.")
        if "john-bull" in p["engines"] and engine == "american":
            require(trade == "john-bull", "bad-trade-in", "The John Bull must be traded in for the American.")
        if len(p["engines"]) >= MAX_ENGINES:
            require(trade is not None, "bad-trade-in", "You own two engines: trade one in.")
        cost = ENGINE_COST[engine] + (SKIP_ENGINE_SURCHARGE if skip else 0) - (trade_in_value(trade) if trade else 0)
        self._check_action(state, p, "buy-engine")
        self._check_money(p, cost, "That engine costs")
        rng = Rng(state["rng"])
        self._use_action(state, p, "buy-engine")
        p["money"] -= cost
        if trade:
            p["engines"].remove(trade)
        p["engines"].append(engine)
        events: list[Event] = [{"type": "engine-bought", "seat": seat, "engine": engine, "name": ENGINE_NAME[engine], "cost": cost, "trade_in": trade}]
        if level >= CONSOLIDATION and not state["service_yard_available"]:
            state["service_yard_available"] = True
            events.append({"type": "service-yard-available"})
        if level >= MOGUL and not state["market_open"]:
            state["market_open"] = True
            events.append({"type": "market-opened"})
            for _ in range(state["options"]["market_size"]):
                events += self._deal_market(state, rng, "opening")
        state["rng"] = rng.state
        return events

    def _cmd_buy_upgrade(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        board = self.board(state)
        up = command.get("upgrade")
        require(up in UPGRADES, "bad-upgrade", "Unknown upgrade.")
        require(up in REPEATABLE_UPGRADES or up not in p["upgrades"], "already-owned", "You already have that upgrade.")
        cost = UPGRADES[up]
        event: Event = {"type": "upgrade-bought", "seat": seat, "upgrade": up, "cost": cost}
        if up == "service-yard":
            require(state["service_yard_available"], "not-available", "The Service Yard comes once someone buys a Consolidation.")
        if up in ("hub", "railyard"):
            city = command.get("city")
            require(city in p["network"], "bad-city", "Choose a city on your network.")
            if up == "hub":
                require(city not in self._hubs(state), "bad-city", "That city is already a hub.")
            else:
                require(all(city not in q["railyards"] for q in state["players"]), "bad-city", "That city already has a railyard.")
            event["city"] = city
        if up == "regional-office":
            region = command.get("region")
            require(region in board.regions, "bad-region", "Choose a region.")
            require(all(region not in q["regional_offices"] for q in state["players"]), "not-available", "That region already has a Regional Office.")
            cities = set(board.region_cities[region])
            mine = len(cities & set(p["network"]))
            require(mine >= len(cities) // 2, "not-eligible", f"Connect to at least {len(cities) // 2} cities of the region first.")
            require(all(not (cities & set(q["network"])) for q in state["players"] if q["seat"] != seat), "not-eligible", "Another player is connected in that region.")
            event["region"] = region
        if up == "commodities-exchange":
            k = command.get("commodity")
            sizes = board.monopoly_sizes()
            require(k in sizes, "bad-commodity", "Choose a commodity produced in 4 to 6 cities.")
            require(k not in state["monopolies"], "not-available", "Someone already has that monopoly.")
            require(all(c in p["network"] for c in board.producers[k]), "not-eligible", f"Connect to every city with {k} first.")
            event["commodity"] = k
        self._check_action(state, p, "buy-upgrade")
        self._check_money(p, cost, "That upgrade costs")
        self._use_action(state, p, "buy-upgrade")
        p["money"] -= cost
        if up not in p["upgrades"]:
            p["upgrades"].append(up)
        events: list[Event] = [event]
        if up == "hub":
            p["hub"] = event["city"]
        elif up == "railyard":
            p["railyards"].append(event["city"])
        elif up == "regional-office":
            p["regional_offices"].append(event["region"])
        elif up == "commodities-exchange":
            k = event["commodity"]
            p["exchanges"].append(k)
            state["monopolies"][k] = seat
            ties = S.MONOPOLY_TIES[board.monopoly_sizes()[k]]
            p["tie_log"].append({"source": "monopoly", "ties": ties, "detail": f"Monopoly in {k}", "round": state["round"]})
            events.append({"type": "monopoly", "seat": seat, "commodity": k, "ties": ties})
        return events

    def _cmd_go_first(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        require(state["go_first"] is None, "taken", "Someone already goes first next round.")
        self._check_action(state, p, "go-first")
        self._use_action(state, p, "go-first")
        state["go_first"] = seat
        return [{"type": "go-first", "seat": seat}]

    def _cmd_borrow(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        amount = command.get("amount")
        cap = state["options"].get("max_borrow", MAX_BORROW)
        require(isinstance(amount, int) and not isinstance(amount, bool) and 0 < amount <= cap and amount % DEBT_UNIT == 0, "bad-amount", f"Borrow in $5,000 steps (at most ${cap:,} at once).")
        self._check_action(state, p, "borrow")
        self._use_action(state, p, "borrow")
        p["debt"] += amount
        p["money"] += amount
        return [{"type": "borrowed", "seat": seat, "amount": amount, "debt": p["debt"], "debt_service": self._debt_preview(p)}]

    def _cmd_repay(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        amount = command.get("amount")
        require(amount in (5_000, 10_000) and not isinstance(amount, bool), "bad-amount", "Repay $5,000 or $10,000.")
        require(p["debt"] - amount >= min(state["options"]["debt_floor"], p["debt"]) and p["debt"] - amount >= 0, "debt-floor", f"Debt cannot go below ${state['options']['debt_floor']:,}.")
        self._check_action(state, p, "repay-debt")
        self._check_money(p, amount, "Repaying that costs")
        self._use_action(state, p, "repay-debt")
        p["debt"] -= amount
        p["money"] -= amount
        return [{"type": "repaid", "seat": seat, "amount": amount, "debt": p["debt"], "debt_service": self._debt_preview(p)}]

    def _cmd_claim_bonus(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        bid = command.get("bonus")
        bonus = next((b for b in state["connection_bonuses"] if b["id"] == bid and not isinstance(bid, bool)), None)
        require(bonus is not None, "no-such-bonus", "There is no such connection bonus.")
        require(not bonus["claimed_by"], "taken", "That bonus has been claimed.")
        require(self._connected(state, p, bonus["a"], bonus["b"]), "not-connected", "Your track does not make that connection.")
        bonus["claimed_by"] = [seat]
        p["tie_log"].append({"source": "connection", "ties": bonus["ties"], "detail": f"Connection bonus: {bonus['name']}", "round": state["round"]})
        return [{"type": "connection-bonus", "seat": seat, "bonus": bonus["id"], "ties": bonus["ties"]}]

    def _cmd_pass_action(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        self._check_action(state, p, "pass-action")
        self._use_action(state, p, "pass-action")
        return [{"type": "action-passed", "seat": seat}]

    # bankruptcy and auction ---------------------------------------------
    def _sellable(self, state: State, p: dict[str, Any]) -> list[str]:
        return sorted(set(p["track"]) | set(p["acquired"]))

    def _sale_value(self, state: State, p: dict[str, Any], rid: str) -> int:
        board = self.board(state)
        route = board.routes[rid]
        if rid in p["acquired"] or p["track_paid"].get(rid, 0) == 0:
            if self._by_route(state):
                return route_cost(route["length"], mountainous=route["mountainous"])
            segs = route["length"] if rid in p["acquired"] else p["track"].get(rid, route["length"])
            return track_cost(segs, mountainous=route["mountainous"])
        return p["track_paid"][rid]

    def _cmd_sell_track(self, state: State, seat: Any, command: Command) -> list[Event]:
        require(not state["finished"], "game-over", "The game is over.")
        require(state["phase"] == "play" and state["current_seat"] == seat, "not-your-turn", "It is not your turn.")
        p = state["players"][seat]
        require(p["bankrupt_owed"] > 0, "not-bankrupt", "You only sell track when bankrupt.")
        board = self.board(state)
        rid = board.parse_route(command.get("route"))
        require(rid is not None and rid in self._sellable(state, p), "bad-route", "Sell a route you own.")
        value = self._sale_value(state, p, rid)
        segs = board.routes[rid]["length"] if rid in p["acquired"] else p["track"][rid]
        p["track"].pop(rid, None)
        p["track_paid"].pop(rid, None)
        if rid in p["acquired"]:
            p["acquired"].remove(rid)
        self._recompute_network(state, p)
        p["bankrupt_owed"] -= value
        p["sold_lots"].append({"route": rid, "segments": segs, "price": value})
        events: list[Event] = [{"type": "track-sold", "seat": seat, "route": rid, "value": value}]
        if p["bankrupt_owed"] <= 0 or not self._sellable(state, p):
            events += self._finish_bankruptcy(state, p)
        return events

    def _finish_bankruptcy(self, state: State, p: dict[str, Any]) -> list[Event]:
        events: list[Event] = []
        if p["bankrupt_owed"] < 0:
            p["money"] += -p["bankrupt_owed"]
        forgiven = max(0, p["bankrupt_owed"])
        p["bankrupt_owed"] = 0
        events.append({"type": "bankruptcy-settled", "seat": p["seat"], "unpaid": forgiven})
        lots = p["sold_lots"]
        p["sold_lots"] = []
        if lots:
            n = len(state["players"])
            bidders = [(p["seat"] + k) % n for k in range(1, n)]
            state["auction"] = {"seller": p["seat"], "lots": lots, "lot": 0, "bidders": bidders, "turn": 0, "high": None, "high_bidder": None, "passed": []}
            state["phase"] = "auction"
            events += self._auction_advance(state)
        return events

    @staticmethod
    def _as_sold(state: State) -> bool:
        """True when an auction lot is exactly what was sold (issue 18): a partly built route
        goes to the winner as built, an unsold one leaves the board, an unsold route never
        joins an independent that already runs there. Games started before it (hidden option
        ``auction_lots='whole-route'``, also read when the key is absent) keep the old way."""
        return state["options"].get("auction_lots", "whole-route") == "as-sold"

    @staticmethod
    def _auction_choosing(a: dict[str, Any]) -> bool:
        """No lot is on the block yet: its first bidder (the opener) chooses one. The lots
        ``a["lots"][:a["lot"]]`` are done, the rest are left; the lot on the block is moved to
        ``a["lot"]`` when chosen (the k-th lot's bidding starts k players to the seller's left)."""
        return a["lot"] < len(a["lots"]) and a["high"] is None and not a["passed"]

    def _auction_current(self, state: State) -> int | None:
        a = state["auction"]
        order = a["bidders"][a["lot"] % len(a["bidders"]) :] + a["bidders"][: a["lot"] % len(a["bidders"])] if a["bidders"] else []
        live = [s for s in order if s not in a["passed"]]
        if not live:
            return None
        if a["high_bidder"] is not None and live == [a["high_bidder"]]:
            return None
        # next live bidder after the last to act
        k = a["turn"] % len(order)
        for i in range(len(order)):
            s = order[(k + i) % len(order)]
            if s not in a["passed"] and s != a["high_bidder"]:
                return s
        return None

    def _bid_minimum(self, state: State, lot: dict[str, Any]) -> int:
        """The lowest bid on ``lot`` now: its sale price ("normal rates") when it opens, else
        the high bid + $1,000."""
        a = state["auction"]
        current = not self._auction_choosing(a) and a["lots"][a["lot"]] is lot
        return lot["price"] if not current or a["high"] is None else a["high"] + BID_STEP

    def _bid_blocked(self, state: State, seat: Any, lot: dict[str, Any]) -> dict[str, str] | None:
        """Why ``seat`` may not bid on ``lot`` now (code and message, as ``bid`` would refuse
        it), or None. Shared by ``bid``, the legal commands and the view."""
        a = state["auction"]
        if self._auction_current(state) != seat:
            return {"code": "not-your-turn", "message": "It is not your bid."}
        if not self._auction_choosing(a) and a["lots"][a["lot"]] is not lot:
            return {"code": "lot-on-block", "message": f"The lot on the block is {a['lots'][a['lot']]['route']}."}
        w = state["players"][seat]
        if self._as_sold(state) and (lot["route"] in w["track"] or lot["route"] in w["acquired"]):
            return {"code": "has-track", "message": "You already have track on that route."}
        minimum = self._bid_minimum(state, lot)
        if w["money"] < minimum:
            return {"code": "not-enough-money", "message": f"The lowest bid is ${minimum:,}; you have ${w['money']:,}."}
        return None

    def _auction_advance(self, state: State) -> list[Event]:
        """Close lots that are decided; return to play when every lot is done."""
        events: list[Event] = []
        board = self.board(state)
        as_sold = self._as_sold(state)
        while state["auction"] is not None:
            a = state["auction"]
            if a["lot"] >= len(a["lots"]):
                state["auction"] = None
                state["phase"] = "play"
                events.append({"type": "auction-over"})
                break
            if self._auction_current(state) is not None:
                break
            lot = a["lots"][a["lot"]]
            rid = lot["route"]
            length = board.routes[rid]["length"]
            # a lot is what was sold: a whole route, or (games before issue 18) part of one
            segments = lot.get("segments", length) if as_sold else length
            if a["high_bidder"] is not None:
                w = state["players"][a["high_bidder"]]
                w["money"] -= a["high"]
                w["track"][rid] = segments
                w["track_paid"][rid] = a["high"]
                self._recompute_network(state, w)
                events.append({"type": "lot-sold", "route": rid, "seat": w["seat"], "price": a["high"], "segments": segments, "length": length})
            else:
                # "they become part of any independent railroad that is connected", else
                # leave the board; a part of a route reaches no second city, so it leaves
                rr = None
                if not as_sold or segments >= length:
                    cities = set(board.route_cities(rid))
                    rr = next(
                        (
                            r
                            for r in state["railroads"]
                            if r["acquired_by"] is None
                            and self._railroad_cities(state, r) & cities
                            and (not as_sold or all(x["route"] != rid for x in r["routes"]))
                        ),
                        None,
                    )
                if rr is not None:
                    rr["routes"].append({"route": rid, "round": state["round"]})
                    events.append({"type": "lot-unsold", "route": rid, "railroad": rr["id"]})
                else:
                    events.append({"type": "lot-unsold", "route": rid, "railroad": None})
            a["lot"] += 1
            a["turn"] = 0
            a["high"] = None
            a["high_bidder"] = None
            a["passed"] = []
        return events

    def _check_bidder(self, state: State, seat: Any, command: Command) -> tuple[dict[str, Any], dict[str, Any]]:
        """The auction and the lot ``command`` bids on or passes. While the opener chooses,
        ``route`` names any lot left (default: the first sold); later it may only name the
        lot on the block."""
        require(not state["finished"], "game-over", "The game is over.")
        require(state["phase"] == "auction", "wrong-phase", "There is no auction.")
        require(self._auction_current(state) == seat, "not-your-turn", "It is not your bid.")
        a = state["auction"]
        left = a["lots"][a["lot"] :]
        if "route" not in command or command["route"] is None:
            return a, left[0]
        rid = self.board(state).parse_route(command["route"])
        if self._auction_choosing(a):
            lot = next((x for x in left if x["route"] == rid), None)
            require(lot is not None, "no-such-lot", "Choose one of the lots left: " + ", ".join(x["route"] for x in left) + ".")
            return a, lot
        require(rid == left[0]["route"], "lot-on-block", f"The lot on the block is {left[0]['route']}.")
        return a, left[0]

    @staticmethod
    def _put_on_block(a: dict[str, Any], lot: dict[str, Any]) -> None:
        lots = a["lots"]
        lots.remove(lot)
        lots.insert(a["lot"], lot)

    def _cmd_bid(self, state: State, seat: Any, command: Command) -> list[Event]:
        a, lot = self._check_bidder(state, seat, command)
        blocked = self._bid_blocked(state, seat, lot)
        if blocked is not None:
            raise RulesError(blocked["code"], blocked["message"])
        amount = command.get("amount")
        minimum = self._bid_minimum(state, lot)
        require(isinstance(amount, int) and not isinstance(amount, bool), "bad-amount", f"Bid a whole number of dollars, at least ${minimum:,}.")
        require(amount >= minimum, "bid-too-low", f"Bid at least ${minimum:,}.")
        if self._as_sold(state):
            require(amount % BID_STEP == 0, "bad-amount", f"Bid in steps of ${BID_STEP:,}.")
        require(state["players"][seat]["money"] >= amount, "not-enough-money", f"You have ${state['players'][seat]['money']:,}: you cannot cover that bid.")
        events: list[Event] = []
        if self._auction_choosing(a):
            self._put_on_block(a, lot)
            events.append({"type": "lot-chosen", "seat": seat, "route": lot["route"], "price": lot["price"]})
        a["high"] = amount
        a["high_bidder"] = seat
        a["turn"] += 1
        return events + [{"type": "bid", "seat": seat, "route": lot["route"], "amount": amount}] + self._auction_advance(state)

    def _cmd_pass_bid(self, state: State, seat: Any, command: Command) -> list[Event]:
        a, lot = self._check_bidder(state, seat, command)
        events: list[Event] = []
        if self._auction_choosing(a):
            # the opener chooses the lot and passes: the others bid on it
            self._put_on_block(a, lot)
            events.append({"type": "lot-chosen", "seat": seat, "route": lot["route"], "price": lot["price"]})
        a["passed"].append(seat)
        a["turn"] += 1
        return events + [{"type": "bid-passed", "seat": seat, "route": lot["route"]}] + self._auction_advance(state)

    # turns and rounds -----------------------------------------------------
    def _cmd_end_turn(self, state: State, seat: Any, command: Command) -> list[Event]:
        p = self._check_turn(state, seat)
        require(not p["offers"], "choose-offer", "Choose one of your contract offers first.")
        if command["cmd"] == "end-round":
            require(state["order_pos"] == len(state["order"]) - 1, "not-last", "Only the last player in the round ends it.")
        return self._advance_turn(state)

    def _advance_turn(self, state: State) -> list[Event]:
        p = state["players"][state["current_seat"]]
        for c in state["contracts"]:
            if c["status"] == "held" and c["holder"] == p["seat"] and c["type"] == "market":
                c["turns_held"] += 1
        p["turn_actions"] = []
        p["turn_segments"] = 0
        events: list[Event] = [{"type": "turn-ended", "seat": p["seat"]}]
        state["turn"] += 1
        if state["order_pos"] + 1 < len(state["order"]):
            state["order_pos"] += 1
            state["current_seat"] = state["order"][state["order_pos"]]
            events.append({"type": "turn-started", "seat": state["current_seat"]})
            return events
        return events + self._end_round(state)

    def _end_round(self, state: State) -> list[Event]:
        board = self.board(state)
        rng = Rng(state["rng"])
        events: list[Event] = []
        live = [r for r in state["railroads"] if r["acquired_by"] is None]
        companies = [[x["route"] for x in r["routes"]] for r in live]
        added = R.grow_independents(board, rng, companies, self._all_area(state))
        growth = []
        for i, rid in added:
            rr = live[i]
            rr["routes"].append({"route": rid, "round": state["round"]})
            growth.append({"railroad": rr["id"], "name": rr["name"], "route": rid, "round": state["round"]})
            events.append({"type": "railroad-grew", "railroad": rr["id"], "name": rr["name"], "route": rid, "round": state["round"], "random": True})
        if not added:
            events.append({"type": "railroads-unchanged", "round": state["round"], "random": True})
        state["growth"] = growth
        state["rng"] = rng.state
        events.append({"type": "round-ended", "round": state["round"]})
        mr = state["options"]["max_rounds"]
        if state["ending"] or (mr and state["round"] >= mr):
            return events + self._finish(state)
        order = list(state["order"])
        if state["go_first"] is not None:
            order.remove(state["go_first"])
            order.insert(0, state["go_first"])
        state["order"] = order
        state["go_first"] = None
        state["round"] += 1
        state["order_pos"] = 0
        state["current_seat"] = order[0]
        events.append({"type": "round-started", "round": state["round"], "order": list(order)})
        events.append({"type": "turn-started", "seat": state["current_seat"]})
        return events

    def _check_end(self, state: State) -> list[Event]:
        if state["phase"] != "play" or state["ending"]:
            return []
        target = state["options"]["target_ties"]
        if any(self._ties(state, p) >= target for p in state["players"]):
            if state["options"]["end_timing"] == "immediate":
                return self._finish(state)
            state["ending"] = True
            return [{"type": "final-round", "round": state["round"]}]
        return []

    def _finish(self, state: State) -> list[Event]:
        board = self.board(state)
        dom = S.regional_dominance(board, state["players"], state["railroads"], state["options"]["regional_dominance_ties"])
        for p in state["players"]:
            p["end_bonus"] = list(dom.get(p["seat"], []))
            if "challenger" in p["engines"]:
                p["end_bonus"].append({"source": "challenger", "ties": S.CHALLENGER_TIES, "detail": "Owns a 4-6-6-4 Challenger"})
        scores = []
        for p in state["players"]:
            lines = S.tie_breakdown(p, state["options"]["depth_rule"])
            scores.append({"seat": p["seat"], "name": p["name"], "ties": sum(x["ties"] for x in lines), "net_worth": p["money"] - p["debt"], "breakdown": lines})
        ranked = sorted(scores, key=lambda s: (-s["ties"], -s["net_worth"], s["seat"]))
        best = (ranked[0]["ties"], ranked[0]["net_worth"])
        winners = [s["seat"] for s in ranked if (s["ties"], s["net_worth"]) == best]
        state["final"] = {"round": state["round"], "scores": ranked, "winners": winners, "tiebreak": "most ties, then money minus debt"}
        state["finished"] = True
        state["phase"] = "finished"
        state["current_seat"] = None
        return [{"type": "game-over", "round": state["round"], "winners": winners}]

    _HANDLERS = {
        "rank-starting-routes": _cmd_rank,
        "place-engine": _cmd_place_engine,
        "build-track": _cmd_build_track,
        "fulfill-contract": _cmd_fulfill,
        "choose-offer": _cmd_choose_offer,
        "discard-private-contract": _cmd_discard,
        "claim-market-contract": _cmd_claim_market,
        "acquire-railroad": _cmd_acquire,
        "buy-engine": _cmd_buy_engine,
        "buy-upgrade": _cmd_buy_upgrade,
        "go-first": _cmd_go_first,
        "borrow": _cmd_borrow,
        "repay-debt": _cmd_repay,
        "claim-connection-bonus": _cmd_claim_bonus,
        "pass-action": _cmd_pass_action,
        "sell-track": _cmd_sell_track,
        "bid": _cmd_bid,
        "pass-bid": _cmd_pass_bid,
        "end-turn": _cmd_end_turn,
        "end-round": _cmd_end_turn,
    }

    # -- queries -----------------------------------------------------------
    def active_seats(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        if state["phase"] == "ranking":
            return [p["seat"] for p in state["players"] if not p["choices"]]
        if state["phase"] == "engines":
            return [p["seat"] for p in state["players"] if not p["engine_city"]]
        if state["phase"] == "auction":
            s = self._auction_current(state)
            return [] if s is None else [s]
        return [state["current_seat"]]

    def is_finished(self, state: State) -> bool:
        return bool(state["finished"])

    def standings(self, state: State) -> list[int]:
        """The final scoring's order (``state["final"]``): most ties, then money minus debt;
        equal on both share a place, as they share the win."""
        key = {s["seat"]: (s["ties"], s["net_worth"]) for s in state["final"]["scores"]}
        return places([key[seat] for seat in range(len(state["players"]))])

    # The ending's parts (README, "The ending"): a score sheet's lines by where the ties came from.
    RESULT_PARTS = (
        ("delivery", "Deliveries"),
        ("west-coast", "West Coast"),
        ("connection", "Connections"),
        ("monopoly", "Monopolies"),
        ("breadth", "Breadth"),
        ("depth", "Depth"),
        ("regional-dominance", "Regional dominance"),
        ("challenger", "Challenger"),
        ("bankruptcy", "Bankruptcy"),
        ("other", "Other"),  # a source this list does not name (a game master's edit), so the parts add up
    )
    _PART_SOURCES = frozenset(src for src, _label in RESULT_PARTS)
    NET_WORTH = "Money minus debt"

    def result(self, state: State) -> dict[str, Any]:
        """The ending: ranked as :meth:`standings` (most ties, then money minus debt); the score
        is ties, the parts are the ties by source (only the sources someone scored from, in
        score-sheet order) and then money minus debt, which breaks a tie on ties."""
        scores = state["final"]["scores"]
        by_seat: dict[int, dict[str, int]] = {}
        for s in scores:
            sums: dict[str, int] = {}
            for line in s["breakdown"]:
                source = line["source"] if line["source"] in self._PART_SOURCES else "other"
                sums[source] = sums.get(source, 0) + line["ties"]
            by_seat[s["seat"]] = sums
        used = [(src, label) for src, label in self.RESULT_PARTS if any(sums.get(src) for sums in by_seat.values())]
        places_by_seat = self.standings(state)
        ranking = [
            {
                "seat": s["seat"],
                "place": places_by_seat[s["seat"]],
                "score": s["ties"],
                "parts": [{"label": label, "value": by_seat[s["seat"]].get(src, 0)} for src, label in used]
                + [{"label": self.NET_WORTH, "value": s["net_worth"]}],
            }
            for s in scores
        ]
        ranking.sort(key=lambda row: (row["place"], row["seat"]))
        return {"how": self._how(state), "columns": [label for _src, label in used] + [self.NET_WORTH], "ranking": ranking}

    @staticmethod
    def _how(state: State) -> str:
        """How the game was won, in one sentence."""
        final = state["final"]
        scores = {s["seat"]: s for s in final["scores"]}
        names = [scores[w]["name"] for w in final["winners"]]
        top = scores[final["winners"][0]]
        target = state["options"]["target_ties"]
        ties = f"{top['ties']} tie" + ("" if top["ties"] == 1 else "s")
        if top["ties"] >= target:
            why = f"reaching {target} ties ends the game"
        else:
            why = f"the game stopped after round {final['round']}, its last"
        if len(names) > 1:
            return f"{' and '.join(names)} share the win with {ties} and {_dollars(top['net_worth'])} money minus debt each ({why})."
        level = [s for s in final["scores"] if s["ties"] == top["ties"] and s["seat"] != top["seat"]]
        if level:
            others = ", ".join(f"{s['name']} {_dollars(s['net_worth'])}" for s in level)
            return (f"{names[0]} won with {ties}, level with {' and '.join(s['name'] for s in level)}, on money minus debt "
                    f"({_dollars(top['net_worth'])} against {others}; {why}).")
        return f"{names[0]} won with the most ties, {ties} ({why})."

    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        from .legal import legal_commands

        return legal_commands(self, state, seat)

    def listing(self, state: State, *, seat: int | None) -> list[dict[str, Any]]:
        """The priced listing (also ``view(state, seat)["listing"]``): what ``seat`` may spend
        money on, each ``{"command", "price", "reason"}``; see ``legal.listing``."""
        from .legal import listing

        return listing(self, state, seat)

    def secrets(self, state: State) -> dict[int | None, list[dict[str, Any]]]:
        """A seat's offers and its held private contracts (what each is: commodity and destination; the
        ids are public) unless the game shows private contracts, and its ranking of starting routes
        while the others still rank."""
        out: dict[int | None, list[dict[str, Any]]] = {p["seat"]: [] for p in state["players"]}
        public_private = state["options"].get("private_contracts_public", False)
        for c in state["contracts"]:
            if c["holder"] is None or c["holder"] not in out:
                continue
            if c["status"] == "offered" or (c["type"] == "private" and c["status"] == "held" and not public_private):
                out[c["holder"]].append({"id": c["id"], "commodity": c["commodity"], "destination": c["destination"]})
        if state["phase"] == "ranking":  # the whole ranking, as the seat's (any ranking is a legal command)
            for p in state["players"]:
                if p["choices"]:
                    out[p["seat"]].append({"seat": p["seat"], "choices": list(p["choices"])})
        return out

    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        from .views import build_view

        return build_view(self, state, seat)

    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        if bot == "planner":
            from .bot import planner_policy

            return planner_policy(self, state, seat, rng)
        if bot == "simple":
            from .simulate import simple_policy

            return simple_policy(self, state, seat, rng)
        legal = self.legal_commands(state, seat=seat)
        if not legal:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        # uniform over the legal commands, with every borrow amount counting as one choice
        # (otherwise the 20 amounts would make the random bot borrow most of the time)
        borrows = [c for c in legal if c["cmd"] == "borrow"]
        choices = [c for c in legal if c["cmd"] != "borrow"] + ([None] if borrows else [])
        pick = rng.choice(choices)
        return pick if pick is not None else rng.choice(borrows)


def _dollars(amount: int) -> str:
    return ("-$" if amount < 0 else "$") + f"{abs(amount):,}"


def turn_key(state: State) -> Any:
    """A JSON value that changes whenever the turn passes to another player or round.

    The platform's undo replays the log back to the first command with the current key."""
    if state["phase"] in ("ranking", "engines"):
        return [state["phase"]]
    if state["phase"] == "auction":
        a = state["auction"]
        return ["auction", state["round"], a["seller"], a["lot"]]
    return [state["phase"], state["round"], state["turn"], state["current_seat"]]


_ = route_id  # re-exported for callers that build route names
