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
        # the opener chooses a lot (a pass and a bid per lot left), later bids name the lot
        # on the block; a bid is listed at its minimum (the priced listing, view["listing"],
        # has the whole range: any amount up to the bidder's cash in $1,000 steps)
        a = state["auction"]
        lots = a["lots"][a["lot"] :] if engine._auction_choosing(a) else [a["lots"][a["lot"]]]
        for lot in lots:
            out.append({"cmd": "pass-bid", "route": lot["route"]})
        for lot in lots:
            if engine._bid_blocked(state, seat, lot) is None:
                out.append({"cmd": "bid", "route": lot["route"], "amount": engine._bid_minimum(state, lot)})
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
        out += [command for command, cost in _engine_purchases(engine, p) if cost <= p["money"]]
    if _action_ok(engine, state, p, "buy-upgrade"):
        out += [c for c in _upgrade_targets(engine, state, p) if RU.UPGRADES[c["upgrade"]] <= p["money"]]
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


NOT_YOUR_TURN = {"code": "not-your-turn", "message": "It is not your turn."}
BANKRUPT = {"code": "bankrupt", "message": "Sell track to cover your bankruptcy first."}


def listing(engine: WoodAndSteelEngine, state: dict[str, Any], seat: Any) -> list[dict[str, Any]]:
    """What ``seat`` may spend money on in this phase, each with its price: a list of
    ``{"command", "price", "reason"}`` (and ``range`` for a bid). ``price`` is the dollars
    ``apply`` takes for the command (from the engine's own cost functions: the page
    computes nothing); ``reason`` is None when the command is legal now, else the
    ``{"code", "message"}`` ``apply`` refuses it with (``not-your-turn``, ``bankrupt``,
    ``too-many-segments``, ``action-used``, ``no-actions-left``, ``not-enough-money``,
    ``has-track``). Every entry without a reason is in ``legal_commands``, and every
    money-spending command there is listed: ``build-track`` (each buildable route),
    ``buy-engine``, ``buy-upgrade``, ``acquire-railroad``, ``repay-debt`` and, in an auction,
    ``bid`` (per lot the bidder may bid on now, at its minimum, with ``range``:
    ``{"arg": "amount", "min", "max", "step"}``, any amount from min to max in steps being
    legal; null when the bidder cannot bid). Claims and connection bonuses cost nothing and
    are not listed."""
    if state["finished"] or isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        return []
    p = state["players"][seat]
    out: list[dict[str, Any]] = []
    if state["phase"] == "auction":
        a = state["auction"]
        lots = a["lots"][a["lot"] :] if engine._auction_choosing(a) else [a["lots"][a["lot"]]]
        for lot in lots:
            reason = engine._bid_blocked(state, seat, lot)
            minimum = engine._bid_minimum(state, lot)
            top = minimum + (p["money"] - minimum) // RU.BID_STEP * RU.BID_STEP
            span = {"arg": "amount", "min": minimum, "max": top, "step": RU.BID_STEP} if reason is None else None
            out.append({"command": {"cmd": "bid", "route": lot["route"], "amount": minimum}, "price": minimum, "reason": reason, "range": span})
        return out
    if state["phase"] != "play":
        return []
    waiting = dict(NOT_YOUR_TURN) if state["current_seat"] != seat else (dict(BANKRUPT) if p["bankrupt_owed"] > 0 else None)

    def offer(command: dict[str, Any], price: int, what: str, *before: dict[str, str] | None) -> None:
        reason = waiting
        for r in before:
            reason = reason or r
        reason = reason or engine._action_reason(state, p, command["cmd"]) or engine._money_reason(p, price, what)
        out.append({"command": command, "price": price, "reason": reason})

    allowance = engine._segment_allowance(p)
    too_many = {"code": "too-many-segments", "message": f"You may build {allowance} segments per turn."}
    by_route = engine._by_route(state)
    for b in engine._build_options(state, p):
        if by_route:
            offer({"cmd": "build-track", "route": b["route"]}, b["cost"], "That track costs", too_many if p["turn_segments"] >= allowance else None)
            continue
        for n in range(1, b["remaining"] + 1):
            cost = engine._build_cost(state, p, b["route"], parallel=b["parallel"], segments=n)
            offer({"cmd": "build-track", "route": b["route"], "segments": n}, cost, "That track costs", too_many if p["turn_segments"] + n > allowance else None)
    for command, cost in _engine_purchases(engine, p):
        offer(command, cost, "That engine costs")
    for command in _upgrade_targets(engine, state, p):
        offer(command, RU.UPGRADES[command["upgrade"]], "That upgrade costs")
    network = set(p["network"])
    for rr in state["railroads"]:
        if rr["acquired_by"] is not None:
            continue
        if state["options"]["acquire_requires_connection"] and not (engine._railroad_cities(state, rr) & network):
            continue
        offer({"cmd": "acquire-railroad", "railroad": rr["id"]}, engine._railroad_price(state, rr), "That railroad costs")
    floor = state["options"]["debt_floor"]
    for amount in (5_000, 10_000):
        if p["debt"] - amount >= 0 and p["debt"] - amount >= min(floor, p["debt"]):
            offer({"cmd": "repay-debt", "amount": amount}, amount, "Repaying that costs")
    return out


def _engine_purchases(engine: WoodAndSteelEngine, p: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """Every engine ``p`` may buy (the next level, or the one after with the hub) with each
    trade-in it may make, and the price: the one enumeration behind the legal commands and the
    priced listing."""
    out: list[tuple[dict[str, Any], int]] = []
    best = engine._best_engine(p)
    for level in [best + 1] + ([best + 2] if p["hub"] else []):
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
            out.append(({"cmd": "buy-engine", "engine": slug, "trade_in": t}, RU.ENGINE_COST[slug] + surcharge - (RU.trade_in_value(t) if t else 0)))
    return out


def _upgrade_targets(engine: WoodAndSteelEngine, state: dict[str, Any], p: dict[str, Any]) -> list[dict[str, Any]]:
    """Every buy-upgrade command ``p`` is eligible for now, whatever their money."""
    board = engine.board(state)
    network = set(p["network"])
    out: list[dict[str, Any]] = []
    hubs = engine._hubs(state)
    for up in RU.UPGRADES:
        if up not in RU.REPEATABLE_UPGRADES and up in p["upgrades"]:
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
                if any(cs & set(q["network"]) for q in state["players"] if q["seat"] != p["seat"]):
                    continue
                out.append({"cmd": "buy-upgrade", "upgrade": up, "region": region})
        elif up == "commodities-exchange":
            for k in sorted(board.monopoly_sizes()):
                if k not in state["monopolies"] and all(c in network for c in board.producers[k]):
                    out.append({"cmd": "buy-upgrade", "upgrade": up, "commodity": k})
        else:
            out.append({"cmd": "buy-upgrade", "upgrade": up})
    return out
