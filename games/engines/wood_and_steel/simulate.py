"""Simulator core: whole games through the real rules with simple player policies,
per-game summaries, an SVG map of a game, and the designers' own simulator workload
(used by ``bench/bench_wood_and_steel.py``).

The Django management command (``simulate_wood_and_steel``) is a thin wrapper that
writes these summaries as CSV/JSON and the SVG maps to files.
"""

from __future__ import annotations

import random
from typing import Any
from xml.sax.saxutils import escape

from ..rng import Rng, seed_state
from . import railroads as R
from . import scoring as S
from .board import Board, default_board, get_board

PLAYER_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
INDIE_COLOURS = ["#7f7f7f", "#bcbd22", "#17becf", "#e377c2", "#8c6d31", "#637939", "#843c39", "#5254a3", "#6b6ecf", "#9c9ede", "#ce6dbd", "#de9ed6"]


# -- a simple policy (also the "simple" bot) ------------------------------------------


def _network_distance(board: Board, network: list[str], target: str) -> int:
    return min((board.seg(c, target) for c in network), default=10**9)


def _target(engine, state, p) -> str | None:
    """Where this player wants its track to go next: the pickup city first, then the
    destination of its most valuable held contract."""
    board = engine.board(state)
    held = [engine._contract(state, cid) for cid in (p["market"], p["private"]) if cid is not None]
    if not held:
        return None
    c = max(held, key=lambda c: c["value"])
    if not engine._can_pick_up(state, p, c["commodity"]):
        return min(board.producers[c["commodity"]], key=lambda x: (_network_distance(board, p["network"], x), x))
    if c["destination"] not in p["network"]:
        return c["destination"]
    return None


def _offer_score(engine, state, p, c) -> int:
    """Money less the track still to lay (about $1,000 per segment to the pickup and on)."""
    board = engine.board(state)
    pickup = min(_network_distance(board, p["network"], x) for x in board.producers[c["commodity"]])
    dest = _network_distance(board, p["network"], c["destination"])
    return c["value"] + 1_500 * c["ties"] - 1_000 * (pickup + dest)


def simple_policy(engine, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Deliver when possible, take the best offer, build track toward the current goal,
    upgrade the engine when cash allows, otherwise end the turn."""
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise ValueError("nothing to do")
    board = engine.board(state)
    p = state["players"][seat]
    by = {}
    for c in legal:
        by.setdefault(c["cmd"], []).append(c)
    if "rank-starting-routes" in by:
        routes = list(board.starting_routes)
        rng.shuffle(routes)
        return {"cmd": "rank-starting-routes", "choices": routes[:3]}
    if "place-engine" in by:
        return by["place-engine"][0]
    if "sell-track" in by:
        return by["sell-track"][0]
    if state["phase"] == "auction":
        if "bid" in by and p["money"] >= by["bid"][0]["amount"] + 8_000 and rng.random() < 0.5:
            return by["bid"][0]
        return {"cmd": "pass-bid"}
    if "choose-offer" in by:
        return max(by["choose-offer"], key=lambda cmd: _offer_score(engine, state, p, engine._contract(state, cmd["offer"])))
    for name in ("fulfill-contract", "claim-connection-bonus"):
        if name in by:
            return by[name][0]
    if "claim-market-contract" in by:
        return max(by["claim-market-contract"], key=lambda c: _offer_score(engine, state, p, engine._contract(state, c["contract"])))
    if "buy-upgrade" in by:
        for c in by["buy-upgrade"]:
            if c["upgrade"] == "commodities-exchange":
                return c
    if "buy-engine" in by:
        best = max(by["buy-engine"], key=lambda c: (c["trade_in"] is not None, c["engine"]))
        if p["money"] >= 25_000 or (p["money"] >= 12_000 and engine._best_engine(p) < 2):
            return best
    target = _target(engine, state, p)
    if "build-track" in by and target is not None:
        here = _network_distance(board, p["network"], target)
        best, best_key = None, None
        for c in by["build-track"]:
            rid = c["route"]
            a, b = board.route_cities(rid)
            partial = p["track"].get(rid, 0) > 0
            far = b if a in p["network"] else a
            if not partial and board.seg(far, target) >= here:
                continue
            key = (partial, -board.seg(far, target) - board.routes[rid]["length"], c.get("segments", 1), rid)
            if best_key is None or key > best_key:
                best, best_key = c, key
        if best is not None:
            return best
    if target is not None and p["money"] < 6_000 and p["debt"] < 40_000 and "borrow" in by:
        return min(by["borrow"], key=lambda c: abs(c["amount"] - 10_000))
    if "acquire-railroad" in by and p["money"] >= 20_000:
        return by["acquire-railroad"][0]
    if "discard-private-contract" in by and p["private"] is not None:
        c = engine._contract(state, p["private"])
        if _offer_score(engine, state, p, c) < -6_000:
            return by["discard-private-contract"][0]
    if "end-turn" in by:
        return by["end-turn"][0]
    return legal[0]


# -- whole games ------------------------------------------------------------------------


def policies() -> dict[str, Any]:
    """The simulator's players by bot name: ``planner`` (bot.py, the default) and
    ``simple`` (above, kept for comparison)."""
    from .bot import NAME, planner_policy

    return {NAME: planner_policy, "simple": simple_policy}


DEFAULT_BOT = "planner"
MAX_STEPS = 20_000

# what the summary counts per game (``features``): commands by name, upgrades and
# engines by kind, and the events that only happen around bankruptcy
FEATURE_EVENTS = {"bankruptcy": "bankruptcies", "lot-sold": "lots-sold", "lot-unsold": "lots-unsold", "monopoly": "monopolies", "connection-bonus": "connection-bonuses"}


def play_game(
    engine, *, players: int = 3, rounds: int = 20, seed: int = 1, options: dict | None = None, max_steps: int = MAX_STEPS, bot: str = "simple"
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one game with bot ``bot`` (``policies()``) in every seat; ``rounds`` 0 plays
    without a round limit (the rules: until someone reaches the target). Stops after
    ``max_steps`` commands (``end_reason`` 'unfinished'). Returns (summary, final state)."""
    policy = policies()[bot]
    opts = dict(options or {})
    opts.setdefault("max_rounds", rounds)
    state = engine.setup(players=[f"Bot {i + 1}" for i in range(players)], options=engine.normalize_options(opts), seed=seed)
    prng = random.Random(seed)
    indie_sizes: list[dict[str, Any]] = []
    ties_by_round: list[list[int]] = []
    start_order: list[int] | None = None  # turn order of round 1 (least desirable start first)
    features: dict[str, int] = {}
    steps = 0
    while not engine.is_finished(state) and steps < max_steps:
        seats = engine.active_seats(state)
        if not seats:
            break
        seat = seats[0]
        cmd = policy(engine, state, seat, prng)
        events = engine.apply(state, seat=seat, command=cmd)
        steps += 1
        _count(features, cmd)
        for e in events:
            if e["type"] in FEATURE_EVENTS:
                features[FEATURE_EVENTS[e["type"]]] = features.get(FEATURE_EVENTS[e["type"]], 0) + 1
            if e["type"] == "round-started" and e["round"] == 1:
                start_order = list(e["order"])
            if e["type"] == "round-ended":
                indie_sizes.append(
                    {"round": e["round"], "sizes": [len(r["routes"]) for r in state["railroads"] if r["acquired_by"] is None], "grew": sum(1 for g in state["growth"])}
                )
                # ties in play at the end of the round (the last round's finish has
                # already added the end-of-game bonuses by the time we see the event)
                ties_by_round.append([_play_ties(engine, state, p) for p in state["players"]])
    summary = summarize(engine, state, indie_sizes, ties_by_round, seed, steps, start_order)
    summary["bot"] = bot
    summary["features"] = dict(sorted(features.items()))
    return summary, state


def _count(features: dict[str, int], cmd: dict[str, Any]) -> None:
    name = cmd["cmd"]
    if name == "buy-upgrade":
        name = f"upgrade:{cmd.get('upgrade')}"
    elif name == "buy-engine":
        name = f"engine:{cmd.get('engine')}"
    elif name in ("end-round", "pass-action", "rank-starting-routes", "place-engine"):
        return
    if name == "end-turn":
        return
    features[name] = features.get(name, 0) + 1


def _play_ties(engine, state, p) -> int:
    """A player's ties without the end-of-game bonuses (regional dominance, Challenger)."""
    return engine._ties(state, p) - sum(x["ties"] for x in p["end_bonus"])


def _ties_by_source(state, p) -> dict[str, int]:
    """A player's final ties by where they came from (delivery, breadth, depth, west-coast,
    connection, monopoly, bankruptcy (negative), regional-dominance, challenger)."""
    out: dict[str, int] = {}
    for line in S.tie_breakdown(p, state["options"]["depth_rule"]):
        out[line["source"]] = out.get(line["source"], 0) + line["ties"]
    return out


def end_reason(engine, state) -> str:
    """Why the game stopped: 'target' (someone reached target_ties in play),
    'round-limit' (max_rounds), or 'unfinished' (the simulator's step cap)."""
    if not state["finished"]:
        return "unfinished"
    target = state["options"]["target_ties"]
    return "target" if any(_play_ties(engine, state, p) >= target for p in state["players"]) else "round-limit"


def summarize(engine, state, indie_sizes, ties_by_round, seed, steps, start_order: list[int] | None = None) -> dict[str, Any]:
    contracts = [
        {"id": c["id"], "type": c["type"], "commodity": c["commodity"], "destination": c["destination"], "value": c["value"], "ties": c["ties"], "status": c["status"], "holder": c["holder"], "reason": c["reason"]}
        for c in state["contracts"]
    ]
    leader_by_round = [max(range(len(t)), key=lambda i: t[i]) if t else None for t in ties_by_round]
    final = state["final"] or {}
    return {
        "seed": seed,
        "players": len(state["players"]),
        "rounds": state["round"],
        "steps": steps,
        "finished": state["finished"],
        "winners": final.get("winners", []),
        "end_round": final.get("round"),
        "end_reason": end_reason(engine, state),
        "start_order": start_order,
        "start_routes": [p["start_route"] for p in state["players"]],
        "desirability": [p["desirability"] for p in state["players"]],
        "end_bonus_ties": [sum(x["ties"] for x in p["end_bonus"]) for p in state["players"]],
        "ties": [engine._ties(state, p) for p in state["players"]],
        "ties_by_source": [_ties_by_source(state, p) for p in state["players"]],
        "money": [p["money"] for p in state["players"]],
        "deliveries": [len(p["fulfilled"]) for p in state["players"]],
        "network_sizes": [len(p["network"]) for p in state["players"]],
        "ties_by_round": ties_by_round,
        "leader_by_round": leader_by_round,
        "indie_sizes": indie_sizes,
        "railroads_acquired": sum(1 for r in state["railroads"] if r["acquired_by"] is not None),
        "contracts": contracts,
    }


def simulate(engine, *, players: int = 3, rounds: int = 20, games: int = 10, seed: int = 1, options: dict | None = None, bot: str = "simple") -> list[dict[str, Any]]:
    """Summaries of ``games`` games with seeds seed, seed+1, ..."""
    return [play_game(engine, players=players, rounds=rounds, seed=seed + i, options=options, bot=bot)[0] for i in range(games)]


# -- SVG --------------------------------------------------------------------------------


def render_svg(state: dict[str, Any], *, use_latlong: bool = False, width: int = 1110, height: int = 696) -> str:
    """The board with each independent railroad and each player's track in its colour."""
    board = get_board(state["board"], state.get("board_key"))
    cities = board.cities
    if use_latlong or not any(c.get("x") or c.get("y") for c in cities.values()):
        lons = [c["lon"] for c in cities.values()]
        lats = [c["lat"] for c in cities.values()]
        lo0, lo1, la0, la1 = min(lons), max(lons), min(lats), max(lats)

        def pos(name):
            c = cities[name]
            x = 30 + (c["lon"] - lo0) / ((lo1 - lo0) or 1) * (width - 60)
            y = 30 + (la1 - c["lat"]) / ((la1 - la0) or 1) * (height - 60)
            return round(x, 1), round(y, 1)
    else:
        img = state["board"].get("image", {})
        sx = width / img.get("width", width)
        sy = height / img.get("height", height)

        def pos(name):
            c = cities[name]
            return round(c["x"] * sx, 1), round(c["y"] * sy, 1)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}">', '<rect width="100%" height="100%" fill="#f7f3e8"/>']
    out.append('<g id="routes">')
    for rid in board.route_ids:
        r = board.routes[rid]
        (x1, y1), (x2, y2) = pos(r["a"]), pos(r["b"])
        dash = ' stroke-dasharray="6 4"' if r["mountainous"] else ""
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c8c0ad" stroke-width="2"{dash}><title>{escape(rid)} ({r["length"]})</title></line>')
    out.append("</g>")

    def draw(rid: str, colour: str, w: int, title: str) -> None:
        r = board.routes[rid]
        (x1, y1), (x2, y2) = pos(r["a"]), pos(r["b"])
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="{w}" stroke-linecap="round"><title>{escape(title)}</title></line>')

    out.append('<g id="railroads">')
    for i, rr in enumerate(state["railroads"]):
        if rr["acquired_by"] is None:
            for x in rr["routes"]:
                draw(x["route"], INDIE_COLOURS[i % len(INDIE_COLOURS)], 5, f"{rr['name']}: {x['route']} (round {x['round']})")
    out.append("</g><g id=\"players\">")
    for p in state["players"]:
        colour = PLAYER_COLOURS[p["seat"] % len(PLAYER_COLOURS)]
        for rid, n in p["track"].items():
            if n >= board.routes[rid]["length"]:
                draw(rid, colour, 4, f"{p['name']}: {rid}")
        for rid in p["acquired"]:
            draw(rid, colour, 4, f"{p['name']} (merged): {rid}")
    out.append("</g><g id=\"cities\" font-family=\"sans-serif\" font-size=\"10\">")
    owners = {}
    for p in state["players"]:
        for c in p["network"]:
            owners.setdefault(c, p["seat"])
    for name in board.names:
        x, y = pos(name)
        fill = PLAYER_COLOURS[owners[name] % len(PLAYER_COLOURS)] if name in owners else "#333"
        r = 6 if cities[name]["large"] else 4
        out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}"><title>{escape(name)}</title></circle>')
        out.append(f'<text x="{x + 7}" y="{y + 3}">{escape(cities[name]["label"])}</text>')
    out.append("</g></svg>")
    return "\n".join(out)


# -- the designers' simulator workload ----------------------------------------------------


class Workload:
    """Precomputed tables for the designers' simulator workload on one board."""

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or get_board(default_board())
        b = self.board
        n = len(b.names)
        self.within2 = []  # bitmask of cities within 2 hops (excluding the city)
        for i in range(n):
            m = 0
            for j in range(n):
                if j != i and b.hops[i][j] <= 2:
                    m |= 1 << j
            self.within2.append(m)
        self.starts = [tuple(b.index[c] for c in b.route_cities(rid)) for rid in b.starting_routes]
        self.route_ends = {rid: tuple(b.index[c] for c in b.route_cities(rid)) for rid in b.route_ids}


_WORKLOAD: Workload | None = None


def designers_workload(seed: int, *, players: int = 3, rounds: int = 20, workload: Workload | None = None) -> dict[str, Any]:
    """One game of the designers' simulator: each round every player's network grows by a
    random city within 2 hops when it has fewer than round x 0.4 + 2 cities (else with a
    25 % chance); reaching a city of an independent buys the whole independent; the
    independents grow at the end of every round (the real growth rules)."""
    global _WORKLOAD
    if workload is None:
        if _WORKLOAD is None:
            _WORKLOAD = Workload()
        workload = _WORKLOAD
    b = workload.board
    rng = Rng(seed_state(seed))
    # starting routes: random, pairwise disjoint
    starts = list(workload.starts)
    rng.shuffle(starts)
    chosen: list[tuple[int, int]] = []
    used = 0
    for a, c in starts:
        if len(chosen) == players:
            break
        if not (used >> a) & 1 and not (used >> c) & 1:
            chosen.append((a, c))
            used |= (1 << a) | (1 << c)
    nets = [(1 << a) | (1 << c) for a, c in chosen]
    taken = 0
    for m in nets:
        taken |= m
    count = R.indie_count(rng, players, 9, 12)
    companies = [[rid] for rid in R.place_independents(b, rng, count)]
    indie_sizes = []
    bought = 0
    names = b.names
    for rnd in range(1, rounds + 1):
        threshold = rnd * 0.4 + 2
        for i in range(len(nets)):
            net = nets[i]
            size = net.bit_count()
            if size >= threshold and rng.random() >= 0.25:
                continue
            reach = 0
            m = net
            while m:
                low = m & -m
                reach |= workload.within2[low.bit_length() - 1]
                m ^= low
            reach &= ~taken
            if not reach:
                continue
            options = []
            while reach:
                low = reach & -reach
                options.append(low.bit_length() - 1)
                reach ^= low
            city = options[rng.below(len(options))]
            nets[i] |= 1 << city
            taken |= 1 << city
            name = names[city]
            for k, routes in enumerate(companies):
                if any(name in b.route_cities(r) for r in routes):
                    for r in routes:
                        for e in workload.route_ends[r]:
                            nets[i] |= 1 << e
                            taken |= 1 << e
                    companies.pop(k)
                    bought += 1
                    break
        R.grow_independents(b, rng, companies, set(), blocked_mask=taken)
        indie_sizes.append([len(r) for r in companies])
    return {"seed": seed, "network_sizes": [m.bit_count() for m in nets], "indie_sizes": indie_sizes, "bought": bought}
