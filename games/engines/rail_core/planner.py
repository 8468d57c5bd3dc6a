"""Planners: the cheapest legal build path and the shortest legal move.

**Build.** Dijkstra over states ``(milepost, major-city starts used, usage of tight places)``.
A step over the player's own track, inside a major city or across an open connecting link
costs nothing; a new section costs what the rules (and the hooks) say. Caps and the courtesy
rule limit how many new sections one path may put into a place: its *allowance* (monotone in
the count, computed once per place and search). A place whose allowance is 0 is closed to the
path; a one-milepost place whose allowance is 1, or a major city whose allowance is at most 3,
is *tight* and gets a unary counter in the state (as many bits as its allowance), so no path
(not even one that leaves the place on its own track and comes back) spends more than the
allowance. A label is dropped when a cheaper one already expanded at the same milepost used no
more major-city starts and no more of any tight place (a bit subset): it cannot do better. Other places cannot be
over-spent by a simple path through a single milepost, so the search is exact; only a path
that goes in and out of one major city more than three times could be refused by the final
check, which then bans the offending section and searches again (a few times at most). Every
returned plan has passed :meth:`RailCore.check_build`'s rules.

**Move.** Dijkstra over ``(milepost, previous milepost, fees paid)``: the previous milepost
enforces "reverse only at a city", and the set of once-per-turn fees (tolls per opponent, the
hooks' fees) is part of the state, so the fees of a path are exact and the order
(movement, then fees; or fees, then movement) is optimal under the movement and cash limits.
The movement graph is the track, far smaller than the map.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..base import RulesError
from .core import INTERNAL, SECTION, BuildPlan, MovePlan
from .hooks import DEFAULT_HOOKS, RailHooks, overrides

if TYPE_CHECKING:  # pragma: no cover
    from .core import RailCore

_RETRIES = 8
_BIG = 1 << 60


def plan_build(core: RailCore, rail: dict[str, Any], player: int, target: Any, *, start: Any = None,
               from_majors: bool = True, hooks: RailHooks | None = None,
               avoid: Sequence[int] = ()) -> BuildPlan | None:
    """The cheapest legal build path from ``start`` (or from anywhere building may start) to ``target``.

    With ``start=None`` the path may begin at any milepost of the player's track, at the far end of
    an open connecting link from it, or (if ``from_majors``) at any major-city milepost. Returns None
    when no legal path exists. A target already reachable for free gives a plan with no sections.
    ``avoid``: mileposts (indices) the path may not go through (those a longer path already visits).
    """
    hooks = hooks or DEFAULT_HOOKS
    m = core.map
    tgt = m.find(target)
    sources = _sources(core, rail, player, start, from_majors)
    if tgt in sources:
        return BuildPlan([m.key(tgt)], [], [])
    banned: set[str] = set()
    for _ in range(_RETRIES):
        path = _search_build(core, rail, player, sources, tgt, hooks, banned, avoid=avoid)
        if path is None:
            return None
        plan, error, culprit = core._evaluate_build(rail, player, path, hooks)
        if error is None:
            return plan
        if culprit is None or culprit == 0:
            return None
        banned.add(m.edge_key(path[culprit - 1], path[culprit]))
    return None


# A simple path puts at most 2 new sections into a one-milepost place; into a major city it could
# put more, but beyond this many the count is not tracked (the final check still applies).
_MAJOR_TRACKED = 3


def _search_build(core: RailCore, rail: dict[str, Any], player: int, sources: Sequence[int], tgt: int,
                  hooks: RailHooks, banned: set[str], reached: dict[int, int] | None = None,
                  avoid: Sequence[int] = ()) -> list[int] | None:
    """The cheapest path from ``sources`` to ``tgt`` (milepost indices), or None. With ``tgt == -1``
    the search runs to the end and fills ``reached`` with each milepost's least cost."""
    m = core.map
    out = core.out
    track = rail["track"]
    reserved = rail.get("reserved") or {}
    is_major = core.is_major
    place_of = core.place_of
    places = core.places
    kinds = core.rules["link_kinds"]
    limit = core.rules["major_starts_per_turn"]
    used, _paid = core.turn_counts(rail, player)
    count_starts = limit is not None
    k_max = max(0, limit - used) if count_starts else 0
    per_node = k_max + 1
    n_nodes = len(m.nodes)
    per_mask = n_nodes * per_node
    cost_hook = overrides(hooks, "section_cost")
    refusal_hook = overrides(hooks, "section_refusal")
    open_links: dict[Any, bool] = {}
    allowances: dict[str, int | None] = {}
    slots: dict[str, tuple[int, int]] = {}  # tight place -> (bit offset, width = its allowance)
    free_bit = 0

    def is_open(link: Any) -> bool:
        value = open_links.get(link)
        if value is None:
            value = open_links[link] = core.link_open(rail, link)
        return value

    def allowance(pid: str) -> int | None:
        """How many new sections this path may put into a place (None: more than a path needs)."""
        if pid in allowances:
            return allowances[pid]
        most = _MAJOR_TRACKED if places[pid].major else 1
        value: int | None = None
        for n in range(1, most + 2):
            if core.place_problem(rail, player, pid, n) is not None:
                value = n - 1
                break
        allowances[pid] = value
        return value

    dist: dict[int, int] = {}
    parent: dict[int, int] = {}
    settled: dict[int, list[tuple[int, int]]] = {}  # milepost -> (starts used, usage) expanded there
    for u in avoid:  # a label that dominates every other: the search never expands these mileposts
        settled[u] = [(0, 0)]
    heap: list[tuple[int, int]] = []
    for s in sources:
        st = s * per_node
        dist[st] = 0
        parent[st] = -1
        heap.append((0, st))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        c, st = pop(heap)
        if c > dist[st]:
            continue
        mask, rest = divmod(st, per_mask)
        u, k = divmod(rest, per_node)
        # Dominance: a cheaper label already expanded here with no more starts used and no more of
        # any tight place spent (usage is unary per place, so "no more" is a bit subset) leaves this
        # one nothing to add.
        labels = settled.get(u)
        if labels is None:
            settled[u] = [(k, mask)]
        else:
            if any(k2 <= k and not (m2 & ~mask) for k2, m2 in labels):
                continue
            labels.append((k, mask))
        if reached is not None and u not in reached:
            reached[u] = c
        if u == tgt:
            path = []
            while st != -1:
                path.append((st % per_mask) // per_node)
                st = parent[st]
            path.reverse()
            return path
        base_state = st - u * per_node
        for v, key, kind, sc, cost, link in out[u]:
            if kind == SECTION:
                owner = track.get(key)
                if owner is not None:
                    if owner != player:
                        continue
                    ns = base_state + v * per_node
                    nc = c
                else:
                    if cost is None or key in banned:
                        continue
                    if link is not None and not is_open(link):
                        continue
                    if reserved:
                        held = reserved.get(key)
                        if held is not None and held != player:
                            continue
                    if refusal_hook and hooks.section_refusal(m, player, u, v) is not None:
                        continue
                    if cost_hook:
                        cost = hooks.section_cost(m, player, u, v, sc)
                        if cost is None:
                            continue
                    nk = k
                    if count_starts and is_major[u]:
                        nk = k + 1
                        if nk > k_max:
                            continue
                    nmask = mask
                    pu, pv = place_of[u], place_of[v]
                    if pu is not None or pv is not None:
                        blocked = False
                        for pid in (pu, pv):
                            if pid is None:
                                continue
                            room = allowance(pid)
                            if room is None:
                                continue
                            if room == 0:
                                blocked = True
                                break
                            slot = slots.get(pid)
                            if slot is None:
                                slot = slots[pid] = (free_bit, room)
                                free_bit += room
                            offset, width = slot
                            spent = (nmask >> offset) & ((1 << width) - 1)
                            if spent == (1 << width) - 1:
                                blocked = True
                                break
                            nmask += ((spent << 1) | 1) - spent << offset
                        if blocked:
                            continue
                    ns = nmask * per_mask + v * per_node + nk
                    nc = c + cost
            elif kind == INTERNAL:
                ns = base_state + v * per_node
                nc = c
            else:  # a public link
                if not kinds[link.kind]["connects"] or not is_open(link):
                    continue
                ns = base_state + v * per_node
                nc = c
            if nc < dist.get(ns, _BIG):
                dist[ns] = nc
                parent[ns] = st
                push(heap, (nc, ns))
    return None


def build_costs(core: RailCore, rail: dict[str, Any], player: int, *, start: Any = None, from_majors: bool = True,
                hooks: RailHooks | None = None) -> dict[str, int]:
    """The least cost of a legal build path to every milepost (keys) from ``start`` or from anywhere
    building may start: one search for many targets (a bot weighing its orders). Mileposts that no
    path reaches are left out. Same search as :func:`plan_build`, without its final check of a path."""
    hooks = hooks or DEFAULT_HOOKS
    m = core.map
    sources = _sources(core, rail, player, start, from_majors)
    reached: dict[int, int] = {}
    _search_build(core, rail, player, sources, -1, hooks, set(), reached)
    return {m.key(i): c for i, c in sorted(reached.items())}


def _sources(core: RailCore, rail: dict[str, Any], player: int, start: Any, from_majors: bool) -> list[int]:
    m = core.map
    if start is not None:
        s = m.find(start)
        if not core.can_start_at(rail, player, s):
            raise RulesError("not-connected", f"Building must start at a major city or at your own track, "
                                              f"not at {m.key(s)}.")
        return [s]
    sources = core.build_starts(rail, player)
    if not from_majors:
        sources = [u for u in sources if not core.is_major[u] or core.on_network(rail, player, u)]
        # a major city the player's track reaches is all reachable: add the rest of its mileposts
        reached = {m.major_of[u] for u in sources if core.is_major[u]}
        sources = sorted(set(sources) | {u for cid in reached for u in m.cities[cid].nodes})
    return sources


def _direct_section(core: RailCore, rail: dict[str, Any], player: int, a: Any, b: Any,
                    hooks: RailHooks) -> BuildPlan | None:
    """The one new section from ``a`` to its neighbour ``b``, if nobody's track is there and the rules allow it."""
    m = core.map
    u, v = m.find(a), m.find(b)
    if u == v or v not in core._out_by_node[u] or m.edge_key(u, v) in rail["track"]:
        return None
    plan, error, _culprit = core._evaluate_build(rail, player, [u, v], hooks)
    return plan if error is None and plan.sections else None


def plan_build_through(core: RailCore, rail: dict[str, Any], player: int, points: Sequence[Any], *,
                       hooks: RailHooks | None = None) -> BuildPlan | None:
    """The cheapest legal build through waypoints in order: ``points[0]`` is the start (None: from
    anywhere building may start), each later point is reached in turn. Returns the whole plan or None.

    A point that is a neighbour of the one before, with no track between them yet, is reached by that
    very section when it may be built (a player who taps two neighbouring mileposts means the section
    between them, even where a way over their own track would cost nothing); otherwise by the
    cheapest way."""
    if len(points) < 2:
        raise RulesError("bad-path", "Give a start (or None) and at least one milepost to build to.")
    hooks = hooks or DEFAULT_HOOKS
    m = core.map
    scratch = {"players": rail["players"], "track": dict(rail["track"]), "turn": dict(rail.get("turn") or {}),
               "links": rail.get("links") or {}, "reserved": dict(rail.get("reserved") or {})}
    if "fees_paid" in scratch["turn"]:
        scratch["turn"]["fees_paid"] = list(scratch["turn"]["fees_paid"])
    path: list[int] = []
    start = points[0]
    for target in points[1:]:
        leg = _direct_section(core, scratch, player, start, target, hooks) if start is not None else None
        if leg is None:
            # a path visits each milepost once: this leg keeps off the mileposts the path already visits
            leg = plan_build(core, scratch, player, target, start=start, hooks=hooks, avoid=path[:-1])
        if leg is None:
            return None
        if leg.sections:
            core.apply_build(scratch, player, leg)
        nodes = [m.index[k] for k in leg.path]
        if path and nodes[0] == path[-1]:
            nodes = nodes[1:]
        path.extend(nodes)
        start = target
    if len(path) < 2:
        return BuildPlan([m.key(i) for i in path], [], [])
    plan, error, _culprit = core._evaluate_build(rail, player, path, hooks)
    return plan if error is None else None


def plan_move(core: RailCore, rail: dict[str, Any], player: int, start: Any, target: Any, *,
              moves_left: int | None = None, cash: int | None = None, came_from: Any = None,
              prefer: str = "moves", hooks: RailHooks | None = None) -> MovePlan | None:
    """The best legal move from ``start`` to ``target`` (None if there is none within the limits).

    ``prefer="moves"``: fewest movement points, then the least in fees; ``prefer="fees"``: the least
    in fees, then the fewest movement points. ``moves_left`` and ``cash`` bound the search.
    """
    if prefer not in ("moves", "fees"):
        raise RulesError("bad-option", "prefer must be 'moves' or 'fees'.")
    hooks = hooks or DEFAULT_HOOKS
    m = core.map
    s, tgt = m.find(start), m.find(target)
    prev0 = m.find(came_from) if came_from is not None else -1
    if s == tgt:
        return MovePlan([m.key(s)], 0, [], m.key(prev0) if prev0 >= 0 else None)
    _used, paid = core.turn_counts(rail, player)
    bits: dict[str, tuple[int, int]] = {}
    options: dict[int, list[tuple[int, int, tuple[tuple[int, int], ...]]]] = {}
    reverse: dict[int, bool] = {}

    def steps(u: int) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
        found = options.get(u)
        if found is None:
            found = []
            for v, mv, fees in core.step_options(rail, player, u, hooks):
                due = []
                for fee in fees:
                    if fee.id in paid:
                        continue
                    if fee.id not in bits:
                        bits[fee.id] = (1 << len(bits), fee.amount)
                    due.append(bits[fee.id])
                found.append((v, mv, tuple(due)))
            options[u] = found
        return found

    by_moves = prefer == "moves"
    best: dict[tuple[int, int, int], int] = {(s, prev0, 0): 0}
    parent: dict[tuple[int, int, int], tuple[int, int, int] | None] = {(s, prev0, 0): None}
    heap: list[tuple[int, int, int, int, int]] = [(0, 0, s, prev0, 0)]
    while heap:
        a, b, u, prev, mask = heapq.heappop(heap)
        moves, fee = (a, b) if by_moves else (b, a)
        state = (u, prev, mask)
        if best[state] < moves:
            continue
        if u == tgt:
            nodes = []
            node: tuple[int, int, int] | None = state
            while node is not None:
                nodes.append(node[0])
                node = parent[node]
            nodes.reverse()
            return core.check_move(rail, player, [m.key(i) for i in nodes], moves_left=moves_left, cash=cash,
                                   came_from=came_from, hooks=hooks)
        for v, mv, due in steps(u):
            if v == prev:
                ok = reverse.get(u)
                if ok is None:
                    ok = reverse[u] = core.can_reverse_at(player, u, hooks)
                if not ok:
                    continue
            nm = moves + mv
            if moves_left is not None and nm > moves_left:
                continue
            nmask, nfee = mask, fee
            for bit, amount in due:
                if not nmask & bit:
                    nmask |= bit
                    nfee += amount
            if cash is not None and nfee > cash:
                continue
            nstate = (v, u, nmask)
            if nm < best.get(nstate, _BIG):
                best[nstate] = nm
                parent[nstate] = state
                heapq.heappush(heap, (nm, nfee, v, u, nmask) if by_moves else (nfee, nm, v, u, nmask))
    return None


def move_distances(core: RailCore, rail: dict[str, Any], player: int, start: Any, *, came_from: Any = None,
                   hooks: RailHooks | None = None) -> dict[str, int]:
    """The fewest movement points from ``start`` to every milepost a train there can reach along track,
    reversing only where the rules allow (the way the train faces, ``came_from``, counts), by key. Fees
    are not counted: this is how far, for weighing plans; :func:`plan_move` gives the move itself."""
    hooks = hooks or DEFAULT_HOOKS
    m = core.map
    s = m.find(start)
    prev0 = m.find(came_from) if came_from is not None else -1
    best: dict[tuple[int, int], int] = {(s, prev0): 0}
    out: dict[int, int] = {s: 0}
    reverse: dict[int, bool] = {}
    heap: list[tuple[int, int, int]] = [(0, s, prev0)]
    while heap:
        moves, u, prev = heapq.heappop(heap)
        if best[(u, prev)] < moves:
            continue
        for v, mv, _fees in core.step_options(rail, player, u, hooks):
            if v == prev:
                ok = reverse.get(u)
                if ok is None:
                    ok = reverse[u] = core.can_reverse_at(player, u, hooks)
                if not ok:
                    continue
            nm = moves + mv
            if nm < best.get((v, u), _BIG):
                best[(v, u)] = nm
                if nm < out.get(v, _BIG):
                    out[v] = nm
                heapq.heappush(heap, (nm, v, u))
    return {m.key(i): d for i, d in out.items()}
