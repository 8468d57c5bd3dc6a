"""The rail core: track ownership, building, movement and connectivity on a :class:`RailMap`.

Everything here is rules of the crayon-rail family that both rail games share; a game's own
rules (trains, goods, cards, events) live in its engine and reach in through the hooks
(:mod:`.hooks`) and the rules table (:mod:`.rules`).

The core's state is plain JSON, kept by the engine inside its own state::

    {"players": [0, 1, 2],                      # seats in the game (the courtesy rule counts them)
     "track": {"0,3,4|0,3,5": 1, ...},          # edge key -> owner seat: one owner per milepost pair
     "turn": {"player": 1, "major_starts": 0,   # this turn's sections started at major cities
              "fees_paid": ["toll:2"]},         # and the once-per-turn fees already paid
     "links": {"rainbow bridge": true},         # link sets switched on or off (by name)
     "reserved": {"0,5,5|0,5,6": 2}}            # pairs only this seat may build (rebuild rights)

Counters in ``turn`` belong to the seat it names; a call for another seat starts from zero
(and a write resets ``turn`` to that seat). Engines call :meth:`RailCore.start_turn`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import RulesError
from .hooks import DEFAULT_HOOKS, Fee, RailHooks, SectionCost, overrides
from .mapdata import RailMap, map_error
from .rules import normalize_rules

# kinds of a step between two neighbouring mileposts
SECTION = 0  # a hex pair or a track link: needs a built section
INTERNAL = 1  # inside one major city: public, never built
PASSAGE = 2  # a public link (track false): nobody builds it, every train may cross while it is open


@dataclass
class BuildPlan:
    """A build path checked against the rules: what it builds and what it costs."""

    path: list[str]  # every milepost of the path, in build order
    sections: list[list[str]]  # the new sections [from, to], in build order
    costs: list[int]  # each new section's cost
    fee: int = 0  # the hooks' charge for the whole build
    major_starts: int = 0  # new sections started at a major-city milepost
    cost: int = field(init=False)

    def __post_init__(self) -> None:
        self.cost = sum(self.costs) + self.fee

    def to_json(self) -> dict[str, Any]:
        return {"path": list(self.path), "sections": [list(s) for s in self.sections], "costs": list(self.costs),
                "fee": self.fee, "cost": self.cost, "major_starts": self.major_starts}


@dataclass
class MovePlan:
    """A move checked against the rules: movement used and the fees due before each first use."""

    path: list[str]
    moves: int
    fees: list[dict[str, Any]]  # {"id", "payee", "amount", "step"}: pay before step ``step`` (1-based)
    came_from: str | None  # where the train arrived from at the end (for the next reversal check)

    @property
    def fee_total(self) -> int:
        return sum(f["amount"] for f in self.fees)

    @property
    def tolls(self) -> dict[int, int]:
        """Tolls by the opponent paid (fees whose id starts with ``toll:``)."""
        return {f["payee"]: f["amount"] for f in self.fees if f["id"].startswith("toll:")}

    def to_json(self) -> dict[str, Any]:
        return {"path": list(self.path), "moves": self.moves, "fees": [dict(f) for f in self.fees],
                "fee_total": self.fee_total, "came_from": self.came_from}


@dataclass(frozen=True)
class Place:
    """A capped city or milepost, or a major city: where the caps and the courtesy rule count."""

    id: str
    major: bool
    cap: int | None  # players who may build into it (None: any number)
    nodes: frozenset[int]
    incident: tuple[str, ...]  # every pair with one end inside, one outside, that can hold track
    ways: tuple[str, ...]  # those that can be built into from buildable land


class RailCore:
    """A map with its rules table: validated against each other once, indexed for the planners.

    Build one per (map, rules) and share it; it holds no game state.
    """

    def __init__(self, rail_map: RailMap, rules: dict[str, Any] | None = None) -> None:
        self.map = m = rail_map
        self.rules = r = normalize_rules(rules)
        terrain_cost, city_cost = r["terrain_cost"], r["city_cost"]
        for node in m.nodes:
            if node.terrain not in terrain_cost:
                raise map_error(f"Milepost {node.key}: terrain {node.terrain!r} has no cost in the rules' terrain_cost.")
        for key, crossings in m.crossings.items():
            for kind, name in crossings:
                if kind not in r["crossing_cost"]:
                    raise map_error(f"Crossing {name!r} at {key}: kind {kind!r} has no cost in the rules' crossing_cost.")
        for link in m.link_groups:
            if link.kind not in r["link_kinds"]:
                raise map_error(f"Link {link.name!r}: kind {link.kind!r} is not in the rules' link_kinds.")

        self.node_cost: list[int | None] = [
            city_cost[m.cities[n.city].size] if n.city is not None else terrain_cost[n.terrain] for n in m.nodes
        ]
        self.is_major: list[bool] = [x is not None for x in m.major_of]
        self.reverse_default: list[bool] = [
            n.city is not None or (r["reverse_at_ports"] and n.port) for n in m.nodes
        ]

        crossing_parts: dict[str, tuple[tuple[str, int | None], ...]] = {
            key: tuple((kind, r["crossing_cost"][kind]) for kind, _ in crossings)
            for key, crossings in m.crossings.items()
        }
        # For every milepost: (neighbour, edge key, step kind, SectionCost or None, its total or None, link)
        self.out: list[tuple[tuple[int, str, int, SectionCost | None, int | None, Any], ...]] = []
        for u, nbs in enumerate(m.adjacency):
            entries = []
            for v, key, link in nbs:
                spec = r["link_kinds"][link.kind] if link is not None else None
                if m.is_internal(u, v):
                    entries.append((v, key, INTERNAL, None, None, None))
                elif spec is not None and not spec["track"]:
                    entries.append((v, key, PASSAGE, None, None, link))
                else:
                    sc = None
                    parts = crossing_parts.get(key, ())
                    if (self.node_cost[u] is not None and self.node_cost[v] is not None
                            and all(c is not None for _, c in parts)):
                        sc = SectionCost(self.node_cost[v], parts, spec["cost"] if spec else 0)
                    entries.append((v, key, SECTION, sc, sc.total if sc else None, link))
            self.out.append(tuple(entries))
        self._out_by_node: list[dict[int, tuple]] = [{e[0]: e for e in entries} for entries in self.out]

        # Places: majors, capped cities, capped terrain mileposts.
        self.places: dict[str, Place] = {}
        self.place_of: list[str | None] = [None] * len(m.nodes)
        for city in m.cities.values():
            if city.size == "major":
                self._add_place(city.id, True, None, city.nodes)
            elif city.size in r["city_caps"]:
                self._add_place(city.id, False, r["city_caps"][city.size], city.nodes)
        for n in m.nodes:
            if n.city is None and n.terrain in r["terrain_caps"]:
                self._add_place("@" + n.key, False, r["terrain_caps"][n.terrain], (n.index,))

    def _add_place(self, pid: str, major: bool, cap: int | None, nodes: Iterable[int]) -> None:
        members = frozenset(nodes)
        incident, ways = [], []
        for u in sorted(members):
            for v, key, kind, _sc, _base, _link in self.out[u]:
                if v in members or kind != SECTION:
                    continue
                incident.append(key)
                back = self._out_by_node[v][u]
                if back[3] is not None:  # buildable from the outside milepost into the place
                    ways.append(key)
        place = Place(pid, major, cap, members, tuple(incident), tuple(ways))
        self.places[pid] = place
        for u in members:
            self.place_of[u] = pid

    # -- state ---------------------------------------------------------------------------------------

    @staticmethod
    def new_state(players: Sequence[int]) -> dict[str, Any]:
        return {"players": list(players), "track": {}, "turn": {"player": None, "major_starts": 0, "fees_paid": []},
                "links": {}, "reserved": {}}

    @staticmethod
    def start_turn(rail: dict[str, Any], player: int) -> None:
        rail["turn"] = {"player": player, "major_starts": 0, "fees_paid": []}

    @staticmethod
    def turn_counts(rail: dict[str, Any], player: int) -> tuple[int, set[str]]:
        turn = rail.get("turn") or {}
        if turn.get("player") != player:
            return 0, set()
        return turn.get("major_starts", 0), set(turn.get("fees_paid", ()))

    @staticmethod
    def _turn_for_write(rail: dict[str, Any], player: int) -> dict[str, Any]:
        if (rail.get("turn") or {}).get("player") != player:
            RailCore.start_turn(rail, player)
        return rail["turn"]

    def link_open(self, rail: dict[str, Any], link: Any) -> bool:
        return bool((rail.get("links") or {}).get(link.name, link.enabled))

    def owner(self, rail: dict[str, Any], a: Any, b: Any) -> int | None:
        """Who owns the section between two mileposts (None: nobody)."""
        m = self.map
        return rail["track"].get(m.edge_key(m.find(a), m.find(b)))

    def track_by_player(self, rail: dict[str, Any]) -> dict[int, list[list[str]]]:
        """Each player's sections as ``[[a, b], ...]`` (keys; sorted), the notes' "per player list of links"."""
        out: dict[int, list[list[str]]] = {p: [] for p in rail["players"]}
        for key, owner in sorted(rail["track"].items()):
            out.setdefault(owner, []).append(key.split("|"))
        return out

    def on_network(self, rail: dict[str, Any], player: int, u: int) -> bool:
        """True if ``player`` has built a section to milepost ``u``."""
        track = rail["track"]
        return any(track.get(e[1]) == player for e in self.out[u] if e[2] == SECTION)

    def can_start_at(self, rail: dict[str, Any], player: int, u: int) -> bool:
        """Building may start at ``u``: a major-city milepost, the player's track, or across an open
        connecting link from it."""
        if self.is_major[u] or self.on_network(rail, player, u):
            return True
        for v, _key, kind, _sc, _base, link in self.out[u]:
            if kind == PASSAGE and self.rules["link_kinds"][link.kind]["connects"] and self.link_open(rail, link):
                if self.is_major[v] or self.on_network(rail, player, v):
                    return True
        return False

    def build_starts(self, rail: dict[str, Any], player: int) -> list[int]:
        """Every milepost building may start from (sorted indices)."""
        m = self.map
        starts = {i for i, major in enumerate(self.is_major) if major}
        for key, owner in rail["track"].items():
            if owner == player:
                starts.update(m.edge_nodes[key])
        for u in list(starts):
            for v, _key, kind, _sc, _base, link in self.out[u]:
                if kind == PASSAGE and self.rules["link_kinds"][link.kind]["connects"] and self.link_open(rail, link):
                    starts.add(v)
        return sorted(starts)

    # -- places: caps and the courtesy rule ------------------------------------------------------------

    def place_problem(self, rail: dict[str, Any], player: int, pid: str, new: int) -> tuple[str, str] | None:
        """Why ``new`` more sections of ``player`` into place ``pid`` are refused (None: they are not)."""
        place = self.places[pid]
        track = rail["track"]
        owners: set[int] = set()
        own = 0
        for key in place.incident:
            o = track.get(key)
            if o is not None:
                owners.add(o)
                own += o == player
        name = self._place_name(pid)
        if place.cap is not None and player not in owners and len(owners) >= place.cap:
            return "city-full", f"{name} already has track from {len(owners)} players, its limit."
        limit = self.rules["max_own_sections"]
        if not place.major and limit is not None and own + new > limit:
            return "city-sections", f"At most {limit} of your sections may go into {name}."
        if not self.rules["courtesy"]:
            return None
        free = sum(1 for key in place.ways if key not in track)
        players = len(rail["players"])
        room = place.cap if place.cap is not None else players
        if place.cap is not None and self.rules["courtesy_counts_players"]:
            room = min(room, players)
        entitled_before = max(0, room - len(owners))
        entitled_after = max(0, room - len(owners | {player}))
        slack_after = free - new - entitled_after
        if slack_after < 0 and slack_after < free - entitled_before:
            left = max(0, free - new)
            return ("courtesy", f"That would leave {name} {left} free way{'' if left == 1 else 's'} in for "
                                f"{entitled_after} player{'' if entitled_after == 1 else 's'} still entitled to one "
                                "(the courtesy rule).")
        return None

    def _place_name(self, pid: str) -> str:
        if pid.startswith("@"):
            return f"milepost {pid[1:]}"
        return self.map.cities[pid].name

    # -- building ----------------------------------------------------------------------------------------

    def section_cost(self, rail: dict[str, Any], player: int, a: Any, b: Any, hooks: RailHooks | None = None) -> int | None:
        """What a new section from ``a`` to ``b`` costs ``player`` (None: it can never be built),
        ignoring ownership and the path it is part of."""
        m = self.map
        u, v = m.find(a), m.find(b)
        e = self._out_by_node[u].get(v)
        if e is None or e[2] != SECTION or e[3] is None:
            return None
        hooks = hooks or DEFAULT_HOOKS
        return hooks.section_cost(m, player, u, v, e[3])

    def check_build(self, rail: dict[str, Any], player: int, path: Sequence[Any], *, budget: int | None = None,
                    cash: int | None = None, hooks: RailHooks | None = None) -> BuildPlan:
        """Check a build along ``path`` (mileposts in build order); raise RulesError or return its plan.

        The path may run over the player's own track, inside major cities and across open connecting
        links (all free); every other pair is a new section, built in path order. A path visits each
        milepost once (``path-revisits``).

        ``budget`` alone: what the player may spend, however it is bounded (``over-budget``). With
        ``cash`` too, ``budget`` is what the turn's limit leaves and ``cash`` the money in hand, and a
        build that costs more says which it exceeds: ``not-enough-cash`` (checked first) or
        ``over-turn-limit``.
        """
        m = self.map
        if not isinstance(path, (list, tuple)) or len(path) < 2:
            raise RulesError("bad-path", "A build path needs at least two mileposts.")
        idx = [m.find(p) for p in path]
        plan, error, _culprit = self._evaluate_build(rail, player, idx, hooks or DEFAULT_HOOKS)
        if error is not None:
            raise RulesError(*error)
        if not plan.sections:
            raise RulesError("nothing-to-build", "That path is all track you can already use: nothing to build.")
        if cash is not None and plan.cost > cash:
            raise RulesError("not-enough-cash", f"That build costs {plan.cost}; you have {cash}.")
        if budget is not None and plan.cost > budget:
            if cash is not None:
                raise RulesError("over-turn-limit", f"That build costs {plan.cost}; the turn's limit leaves "
                                                    f"{budget} to spend.")
            raise RulesError("over-budget", f"That build costs {plan.cost}; you may spend {budget} more.")
        return plan

    def _evaluate_build(self, rail: dict[str, Any], player: int, idx: Sequence[int], hooks: RailHooks
                        ) -> tuple[BuildPlan | None, tuple[str, str] | None, int | None]:
        """(plan, None, None) or (None, (code, message), index of the offending step or None)."""
        m = self.map
        rules = self.rules
        track = rail["track"]
        reserved = rail.get("reserved") or {}
        seen: set[int] = set()
        for step, u in enumerate(idx):
            if u in seen:
                return None, ("path-revisits", f"The path comes back to {m.key(u)}: a build path visits each "
                                               f"milepost once."), step
            seen.add(u)
        if not self.can_start_at(rail, player, idx[0]):
            return None, ("not-connected", f"Building must start at a major city or at your own track, "
                                           f"not at {m.key(idx[0])}."), 0
        cost_hook = overrides(hooks, "section_cost")
        refusal_hook = overrides(hooks, "section_refusal")
        built: set[str] = set()
        sections: list[list[str]] = []
        costs: list[int] = []
        pairs: list[tuple[int, int]] = []
        place_new: dict[str, int] = {}
        place_step: dict[str, int] = {}
        major_starts = 0
        for step, (u, v) in enumerate(zip(idx, idx[1:], strict=False), start=1):
            e = self._out_by_node[u].get(v)
            if e is None:
                return None, ("not-adjacent", f"{m.key(u)} and {m.key(v)} are not neighbouring mileposts."), step
            _v, key, kind, sc, base, link = e
            if kind == INTERNAL or key in built:  # public, or built earlier on this path
                continue
            if kind == PASSAGE:
                if not self.link_open(rail, link):
                    return None, ("link-closed", f"The {link.name} is closed."), step
                if not rules["link_kinds"][link.kind]["connects"]:
                    return None, ("not-connected", f"Building cannot go on across the {link.name}."), step
                continue
            owner = track.get(key)
            if owner == player:
                continue
            if owner is not None:
                return None, ("track-taken", f"Player {owner} already owns {m.key(u)}–{m.key(v)}."), step
            held = reserved.get(key)
            if held is not None and held != player:
                return None, ("track-reserved", f"{m.key(u)}–{m.key(v)} is kept for player {held} to rebuild."), step
            if link is not None and not self.link_open(rail, link):
                return None, ("link-closed", f"The {link.name} is closed."), step
            if sc is None:
                return None, ("unbuildable", self._unbuildable_reason(u, v, key)), step
            if refusal_hook:
                refusal = hooks.section_refusal(m, player, u, v)
                if refusal is not None:
                    return None, tuple(refusal), step
            cost = hooks.section_cost(m, player, u, v, sc) if cost_hook else base
            if cost is None:
                return None, ("unbuildable", f"You may not build {m.key(u)}–{m.key(v)}."), step
            if self.is_major[u]:
                major_starts += 1
            for pid in (self.place_of[u], self.place_of[v]):
                if pid is not None:
                    place_new[pid] = place_new.get(pid, 0) + 1
                    place_step[pid] = step
            built.add(key)
            sections.append([m.key(u), m.key(v)])
            costs.append(cost)
            pairs.append((u, v))
        used, _paid = self.turn_counts(rail, player)
        limit = rules["major_starts_per_turn"]
        if limit is not None and major_starts and used + major_starts > limit:
            return None, ("major-start-limit",
                          f"At most {limit} sections a turn may start at a major city "
                          f"({used} already this turn, {major_starts} in this build)."), None
        for pid, count in place_new.items():
            problem = self.place_problem(rail, player, pid, count)
            if problem is not None:
                return None, problem, place_step[pid]
        fee = hooks.build_fee(m, player, pairs) if pairs and overrides(hooks, "build_fee") else 0
        plan = BuildPlan([m.key(i) for i in idx], sections, costs, fee, major_starts)
        return plan, None, None

    def _unbuildable_reason(self, u: int, v: int, key: str) -> str:
        m = self.map
        for end in (v, u):
            if self.node_cost[end] is None:
                return f"Track cannot be built on {m.nodes[end].terrain} ({m.key(end)})."
        for kind, name in m.crossings.get(key, ()):
            if self.rules["crossing_cost"][kind] is None:
                return f"Track cannot cross the {name}."
        return f"{m.key(u)}–{m.key(v)} cannot be built."  # pragma: no cover - every None has a reason above

    def build(self, rail: dict[str, Any], player: int, path: Sequence[Any], *, budget: int | None = None,
              cash: int | None = None, hooks: RailHooks | None = None) -> BuildPlan:
        """Check then build; mutates ``rail`` only when the whole path is legal."""
        plan = self.check_build(rail, player, path, budget=budget, cash=cash, hooks=hooks)
        self.apply_build(rail, player, plan)
        return plan

    def apply_build(self, rail: dict[str, Any], player: int, plan: BuildPlan) -> None:
        """Record a checked plan's sections (no checks: use :meth:`build` unless you just checked it)."""
        m = self.map
        reserved = rail.setdefault("reserved", {})
        for a, b in plan.sections:
            key = m.edge_key(m.index[a], m.index[b])
            rail["track"][key] = player
            reserved.pop(key, None)
        turn = self._turn_for_write(rail, player)
        turn["major_starts"] = turn.get("major_starts", 0) + plan.major_starts

    def remove_section(self, rail: dict[str, Any], a: Any, b: Any, *, reserve: bool = False) -> int | None:
        """Take a section off the map (track destroyed); with ``reserve`` its owner keeps the right to
        rebuild it (``rail["reserved"]``) until the engine drops it. Returns the former owner."""
        m = self.map
        key = m.edge_key(m.find(a), m.find(b))
        owner = rail["track"].pop(key, None)
        if reserve and owner is not None:
            rail.setdefault("reserved", {})[key] = owner
        return owner

    # -- movement ----------------------------------------------------------------------------------------

    def step_options(self, rail: dict[str, Any], player: int, u: int, hooks: RailHooks, *,
                     ways: Sequence[tuple] | None = None) -> list[tuple[int, int, tuple[Fee, ...]]]:
        """Where a train at ``u`` may step: (milepost, movement points, fees) for each open way (of ``ways``,
        entries of ``self.out[u]``, when given: a move's check looks at the one way it takes)."""
        m = self.map
        track = rail["track"]
        toll = self.rules["toll"]
        kinds = self.rules["link_kinds"]
        moves_hook = overrides(hooks, "step_moves")
        refusal_hook = overrides(hooks, "step_refusal")
        fees_hook = overrides(hooks, "step_fees")
        out = []
        for v, key, kind, _sc, _base, link in self.out[u] if ways is None else ways:
            fees: tuple[Fee, ...] = ()
            moves = kinds[link.kind]["moves"] if link is not None else 1
            if kind == PASSAGE:
                if not self.link_open(rail, link):
                    continue
            elif kind == SECTION:
                owner = track.get(key)
                if owner is None or (link is not None and not self.link_open(rail, link)):
                    continue
                if owner != player:
                    fees = (Fee(f"toll:{owner}", owner, toll),)
            if refusal_hook and hooks.step_refusal(m, player, u, v) is not None:
                continue
            if moves_hook:
                moves = hooks.step_moves(m, player, u, v, moves)
                if moves is None:
                    continue
            if fees_hook:
                fees = fees + tuple(hooks.step_fees(m, player, u, v))
            out.append((v, moves, fees))
        return out

    def can_reverse_at(self, player: int, u: int, hooks: RailHooks) -> bool:
        default = self.reverse_default[u]
        if overrides(hooks, "can_reverse_at"):
            return bool(hooks.can_reverse_at(self.map, player, u, default))
        return default

    def check_move(self, rail: dict[str, Any], player: int, path: Sequence[Any], *, moves_left: int | None = None,
                   cash: int | None = None, came_from: Any = None, hooks: RailHooks | None = None) -> MovePlan:
        """Check a move along ``path`` (``path[0]`` is where the train stands; ``came_from`` where it arrived
        from, or None). Raise RulesError, or return the plan with the fees due."""
        m = self.map
        hooks = hooks or DEFAULT_HOOKS
        if not isinstance(path, (list, tuple)) or len(path) < 1:
            raise RulesError("bad-path", "A move needs at least the milepost the train stands on.")
        idx = [m.find(p) for p in path]
        prev = m.find(came_from) if came_from is not None else None
        _used, paid = self.turn_counts(rail, player)
        track = rail["track"]
        moves = 0
        fees: list[dict[str, Any]] = []
        due: set[str] = set()
        total = 0
        for step, (u, v) in enumerate(zip(idx, idx[1:], strict=False), start=1):
            # Only the way to v is looked at (a pair of mileposts has one way between them, validated).
            e = self._out_by_node[u].get(v)
            options = self.step_options(rail, player, u, hooks, ways=(e,)) if e is not None else []
            if not options:
                if e is None:
                    raise RulesError("not-adjacent", f"{m.key(u)} and {m.key(v)} are not neighbouring mileposts.")
                if e[2] == SECTION and track.get(e[1]) is None:
                    raise RulesError("no-track", f"There is no track between {m.key(u)} and {m.key(v)}.")
                if e[5] is not None and not self.link_open(rail, e[5]):
                    raise RulesError("link-closed", f"The {e[5].name} is closed.")
                refusal = hooks.step_refusal(m, player, u, v) if overrides(hooks, "step_refusal") else None
                if refusal is not None:
                    raise RulesError(*refusal)
                raise RulesError("move-blocked", f"Your train may not go from {m.key(u)} to {m.key(v)} now.")
            if v == prev and not self.can_reverse_at(player, u, hooks):
                raise RulesError("no-reverse", f"A train may only reverse at a city, not at {m.key(u)}.")
            _v, step_moves, step_fees = options[0]
            moves += step_moves
            if moves_left is not None and moves > moves_left:
                raise RulesError("too-far", f"That move needs {moves} milepost{'' if moves == 1 else 's'} or more; "
                                            f"the train has {moves_left}.")
            for fee in step_fees:
                if fee.id in paid or fee.id in due:
                    continue
                due.add(fee.id)
                total += fee.amount
                if cash is not None and total > cash:
                    who = "the bank" if fee.payee is None else f"player {fee.payee}"
                    raise RulesError("cannot-pay", f"You cannot pay {fee.amount} to {who} before using their track.")
                fees.append({"id": fee.id, "payee": fee.payee, "amount": fee.amount, "step": step})
            prev = u
        end_from = m.key(prev) if prev is not None else None
        return MovePlan([m.key(i) for i in idx], moves, fees, end_from)

    def move(self, rail: dict[str, Any], player: int, path: Sequence[Any], **kwargs: Any) -> MovePlan:
        """Check a move, then record its fees as paid this turn. The engine moves the money and the train."""
        plan = self.check_move(rail, player, path, **kwargs)
        turn = self._turn_for_write(rail, player)
        turn.setdefault("fees_paid", []).extend(f["id"] for f in plan.fees)
        return plan

    # -- connectivity ------------------------------------------------------------------------------------

    def components(self, rail: dict[str, Any], player: int) -> list[list[str]]:
        """The player's networks: own track joined through major cities and open connecting links.

        Each component lists its mileposts' keys (sorted); components are ordered by their first milepost.
        """
        m = self.map
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            parent.setdefault(x, x)
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a: int, b: int) -> None:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

        touched: set[int] = set()
        for key, owner in rail["track"].items():
            if owner == player:
                a, b = m.edge_nodes[key]
                union(a, b)
                touched.update((a, b))
        if not touched:
            return []
        for cid in m.majors:
            nodes = m.cities[cid].nodes
            for n in nodes[1:]:
                union(nodes[0], n)
        for u, entries in enumerate(self.out):
            for v, _key, kind, _sc, _base, link in entries:
                if kind == PASSAGE and u < v and self.rules["link_kinds"][link.kind]["connects"] \
                        and self.link_open(rail, link):
                    union(u, v)
        roots = {find(t) for t in touched}
        groups: dict[int, list[int]] = {}
        for x in list(parent):
            r = find(x)
            if r in roots:
                groups.setdefault(r, []).append(x)
        return [sorted(m.key(i) for i in g) for g in sorted(groups.values(), key=min)]

    def connected(self, rail: dict[str, Any], player: int, a: Any, b: Any) -> bool:
        ka, kb = self.map.key(self.map.find(a)), self.map.key(self.map.find(b))
        return any(ka in comp and kb in comp for comp in map(set, self.components(rail, player)))

    def majors_connected(self, rail: dict[str, Any], player: int) -> list[str]:
        """The major cities (ids, map order) joined by the player's best network: the win check's count."""
        m = self.map
        best: list[str] = []
        for comp in self.components(rail, player):
            keys = set(comp)
            majors = [cid for cid in m.majors if m.key(m.cities[cid].nodes[0]) in keys]
            if len(majors) > len(best):
                best = majors
        return best

    def cities_reached(self, rail: dict[str, Any], player: int) -> list[str]:
        """Cities (ids, map order) a milepost of which the player has built track to."""
        m = self.map
        touched: set[int] = set()
        for key, owner in rail["track"].items():
            if owner == player:
                touched.update(m.edge_nodes[key])
        return [cid for cid, city in m.cities.items() if touched.intersection(city.nodes)]

    # -- planners (see planner.py) -----------------------------------------------------------------------

    def plan_build(self, rail: dict[str, Any], player: int, target: Any, *, start: Any = None,
                   from_majors: bool = True, hooks: RailHooks | None = None) -> BuildPlan | None:
        """The cheapest legal build path to ``target`` (see :func:`.planner.plan_build`)."""
        from .planner import plan_build

        return plan_build(self, rail, player, target, start=start, from_majors=from_majors, hooks=hooks)

    def build_costs(self, rail: dict[str, Any], player: int, *, start: Any = None, from_majors: bool = True,
                    hooks: RailHooks | None = None) -> dict[str, int]:
        """The least build cost to every milepost in one search (see :func:`.planner.build_costs`)."""
        from .planner import build_costs

        return build_costs(self, rail, player, start=start, from_majors=from_majors, hooks=hooks)

    def plan_build_through(self, rail: dict[str, Any], player: int, points: Sequence[Any], *,
                           hooks: RailHooks | None = None) -> BuildPlan | None:
        """The cheapest legal build through waypoints (see :func:`.planner.plan_build_through`)."""
        from .planner import plan_build_through

        return plan_build_through(self, rail, player, points, hooks=hooks)

    def move_distances(self, rail: dict[str, Any], player: int, start: Any, *, came_from: Any = None,
                       hooks: RailHooks | None = None) -> dict[str, int]:
        """Movement points from ``start`` to every milepost the train reaches (see :func:`.planner.move_distances`)."""
        from .planner import move_distances

        return move_distances(self, rail, player, start, came_from=came_from, hooks=hooks)

    def plan_move(self, rail: dict[str, Any], player: int, start: Any, target: Any, *, moves_left: int | None = None,
                  cash: int | None = None, came_from: Any = None, prefer: str = "moves",
                  hooks: RailHooks | None = None) -> MovePlan | None:
        """The best legal move (see :func:`.planner.plan_move`)."""
        from .planner import plan_move

        return plan_move(self, rail, player, start, target, moves_left=moves_left, cash=cash, came_from=came_from,
                         prefer=prefer, hooks=hooks)
