"""Every command a seat may send now (mirrors the checks in rules.py; the test suite
applies each listed command to make sure the two agree)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from . import rules as RU

if TYPE_CHECKING:  # pragma: no cover
    from .rules import WoodAndSteelEngine


def _action_ok(engine: WoodAndSteelEngine, state: dict[str, Any], p: dict[str, Any], cmd: str) -> bool:
    if not state["options"]["limit_actions"]:
        return True
    kind = RU.ACTION_KINDS[cmd]
    if kind in p["turn_actions"]:
        return kind in ("run-trains", "build-track")
    return len(p["turn_actions"]) < 2


def legal_commands(engine: WoodAndSteelEngine, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if state["finished"] or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        return []
    board = engine.board(state)
    p = state["players"][seat]
    phase = state["phase"]
    out: list[dict[str, Any]] = []
    if phase == "ranking":
        if p["choices"]:
            return []
        k = min(3, len(board.starting_routes))
        return [{"cmd": "rank-starting-routes", "choices": list(c)} for c in itertools.permutations(board.starting_routes, k)]
    if phase == "engines":
        if p["engine_city"]:
            return []
        return [{"cmd": "place-engine", "city": c} for c in board.route_cities(p["start_route"])]
    if phase == "auction":
        if engine._auction_current(state) != seat:
            return []
        a = state["auction"]
        lot = a["lots"][a["lot"]]
        minimum = lot["price"] if a["high"] is None else a["high"] + RU.BID_STEP
        out.append({"cmd": "pass-bid"})
        if p["money"] >= minimum:
            out.append({"cmd": "bid", "amount": minimum})
        return out
    if phase != "play" or state["current_seat"] != seat:
        return []
    if p["bankrupt_owed"] > 0:
        return [{"cmd": "sell-track", "route": rid} for rid in engine._sellable(state, p)]
    network = set(p["network"])
    check = state["options"]["check_network"]
    for cid in p["offers"]:
        out.append({"cmd": "choose-offer", "offer": cid})
    if _action_ok(engine, state, p, "fulfill-contract"):
        for cid in (p["private"], p["market"]):
            if cid is None:
                continue
            c = engine._contract(state, cid)
            if not check or (c["destination"] in network and engine._can_pick_up(state, p, c["commodity"])):
                out.append({"cmd": "fulfill-contract", "contract": cid})
    if p["market"] is None and engine._best_engine(p) >= RU.MOGUL and _action_ok(engine, state, p, "claim-market-contract"):
        for c in state["contracts"]:
            if c["status"] == "market" and (not check or engine._can_pick_up(state, p, c["commodity"])):
                out.append({"cmd": "claim-market-contract", "contract": c["id"]})
    left = engine._segment_allowance(p) - p["turn_segments"]
    if left > 0 and _action_ok(engine, state, p, "build-track"):
        by_route = engine._by_route(state)
        for b in engine._build_options(state, p):
            if by_route:
                # a segment is a whole route, priced from the rules' table
                if b["cost"] <= p["money"]:
                    out.append({"cmd": "build-track", "route": b["route"]})
                continue
            for n in range(1, min(b["remaining"], left) + 1):
                if engine._build_cost(state, p, b["route"], parallel=b["parallel"], segments=n) <= p["money"]:
                    out.append({"cmd": "build-track", "route": b["route"], "segments": n})
    if _action_ok(engine, state, p, "buy-engine"):
        best = engine._best_engine(p)
        levels = [best + 1] + ([best + 2] if p["hub"] else [])
        for level in levels:
            if level >= len(RU.ENGINES):
                continue
            slug = RU.ENGINES[level][0]
            surcharge = RU.SKIP_ENGINE_SURCHARGE if level == best + 2 else 0
            trades: list[str | None] = list(p["engines"])
            if len(p["engines"]) < RU.MAX_ENGINES:
                trades.append(None)
            if "john-bull" in p["engines"] and slug == "american":
                trades = ["john-bull"]
            for t in trades:
                cost = RU.ENGINE_COST[slug] + surcharge - (RU.trade_in_value(t) if t else 0)
                if cost <= p["money"]:
                    out.append({"cmd": "buy-engine", "engine": slug, "trade_in": t})
    if _action_ok(engine, state, p, "buy-upgrade"):
        hubs = engine._hubs(state)
        for up, cost in RU.UPGRADES.items():
            if cost > p["money"] or (up not in RU.REPEATABLE_UPGRADES and up in p["upgrades"]):
                continue
            if up == "service-yard" and not state["service_yard_available"]:
                continue
            if up == "hub":
                out += [{"cmd": "buy-upgrade", "upgrade": up, "city": c} for c in p["network"] if c not in hubs]
            elif up == "railyard":
                yards = {y for q in state["players"] for y in q["railyards"]}
                out += [{"cmd": "buy-upgrade", "upgrade": up, "city": c} for c in p["network"] if c not in yards]
            elif up == "regional-office":
                for region, cities in board.region_cities.items():
                    cs = set(cities)
                    if any(region in q["regional_offices"] for q in state["players"]):
                        continue
                    if len(cs & network) < len(cs) // 2:
                        continue
                    if any(cs & set(q["network"]) for q in state["players"] if q["seat"] != seat):
                        continue
                    out.append({"cmd": "buy-upgrade", "upgrade": up, "region": region})
            elif up == "commodities-exchange":
                for k in sorted(board.monopoly_sizes()):
                    if k not in state["monopolies"] and all(c in network for c in board.producers[k]):
                        out.append({"cmd": "buy-upgrade", "upgrade": up, "commodity": k})
            else:
                out.append({"cmd": "buy-upgrade", "upgrade": up})
    if _action_ok(engine, state, p, "acquire-railroad"):
        for rr in state["railroads"]:
            if rr["acquired_by"] is not None:
                continue
            if state["options"]["acquire_requires_connection"] and not (engine._railroad_cities(state, rr) & network):
                continue
            if engine._railroad_price(state, rr) <= p["money"]:
                out.append({"cmd": "acquire-railroad", "railroad": rr["id"]})
    if state["go_first"] is None and _action_ok(engine, state, p, "go-first"):
        out.append({"cmd": "go-first"})
    if _action_ok(engine, state, p, "borrow"):
        cap = state["options"].get("max_borrow", RU.MAX_BORROW)
        out += [{"cmd": "borrow", "amount": a} for a in range(RU.DEBT_UNIT, cap + 1, RU.DEBT_UNIT)]
    if _action_ok(engine, state, p, "repay-debt"):
        floor = state["options"]["debt_floor"]
        for a in (5_000, 10_000):
            if p["debt"] - a >= 0 and p["debt"] - a >= min(floor, p["debt"]) and p["money"] >= a:
                out.append({"cmd": "repay-debt", "amount": a})
    if p["private"] is not None and not p["offers"] and _action_ok(engine, state, p, "discard-private-contract"):
        out.append({"cmd": "discard-private-contract"})
    for b in state["connection_bonuses"]:
        if not b["claimed_by"] and engine._connected(state, p, b["a"], b["b"]):
            out.append({"cmd": "claim-connection-bonus", "bonus": b["id"]})
    if _action_ok(engine, state, p, "pass-action"):
        out.append({"cmd": "pass-action"})
    if not p["offers"]:
        out.append({"cmd": "end-turn"})
        if state["order_pos"] == len(state["order"]) - 1:
            out.append({"cmd": "end-round"})
    return out
