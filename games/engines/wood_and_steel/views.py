"""What a seat (or a spectator) sees. Never the board data or the RNG state.

Secrets: a seat's pending offers, the details of a held private contract (unless the
``private_contracts_public`` option is on) and a seat's ranked route choices before the
routes are settled. Everything else is public table information.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from . import scoring as S
from .rules import BID_STEP, ENGINE_NAME, ENGINES, UPGRADES

if TYPE_CHECKING:  # pragma: no cover
    from .rules import WoodAndSteelEngine

CONTRACT_FIELDS = ("id", "type", "commodity", "destination", "holder", "status", "value", "hops", "ties", "created_round", "fulfilled_round", "turns_held", "reason")


def _contract_view(c: dict[str, Any], hidden: bool = False) -> dict[str, Any]:
    out = {k: c.get(k) for k in CONTRACT_FIELDS}
    if hidden:
        for k in ("commodity", "destination", "value", "hops", "ties", "reason"):
            out[k] = None
        out["hidden"] = True
    else:
        out["hidden"] = False
    return out


# What pages show for an engine's or an upgrade's slug: "American" (the design's name without
# its wheel arrangement, "4-4-0 American"), "Upgraded stations".
DISPLAY_NAMES = {
    **{slug: name.split(" ", 1)[1] for slug, name, _d, _c in ENGINES},
    **{slug: slug.replace("-", " ").capitalize() for slug in UPGRADES},
}


def build_view(engine: WoodAndSteelEngine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    board = engine.board(state)
    opts = state["options"]
    public_private = opts["private_contracts_public"]
    players = []
    for p in state["players"]:
        mine = seat == p["seat"]
        lines = S.tie_breakdown(p, opts["depth_rule"])
        best = max(p["engines"], key=lambda e: [x[0] for x in ENGINES].index(e))
        players.append(
            {
                "seat": p["seat"],
                "name": p["name"],
                "start_route": p["start_route"],
                "desirability": p["desirability"],
                "ranked": bool(p["choices"]),
                "choices": p["choices"] if (mine or state["phase"] != "ranking") else None,
                "engine_city": p["engine_city"],
                "money": p["money"],
                "debt": p["debt"],
                "debt_service": engine._debt_preview(p),
                "engines": [{"slug": e, "name": ENGINE_NAME[e]} for e in p["engines"]],
                "market_eligible": engine._best_engine(p) >= 2,
                "best_engine": best,
                "upgrades": list(p["upgrades"]),
                "hub": p["hub"],
                "railyards": list(p["railyards"]),
                "regional_offices": list(p["regional_offices"]),
                "exchanges": list(p["exchanges"]),
                "monopolies": sorted(k for k, s in state["monopolies"].items() if s == p["seat"]),
                "active_cities": list(p["active_cities"]),
                "current_city": p["active_cities"][-1] if p["active_cities"] else None,
                "network": list(p["network"]),
                "track": [
                    {"route": rid, "segments": n, "length": board.routes[rid]["length"]} for rid, n in sorted(p["track"].items())
                ]
                + [{"route": rid, "segments": board.routes[rid]["length"], "length": board.routes[rid]["length"], "acquired": True} for rid in p["acquired"]],
                "private_contract": p["private"],
                "market_contract": p["market"],
                "offers_pending": len(p["offers"]),
                "deliveries": dict(p["deliveries"]),
                "fulfilled": list(p["fulfilled"]),
                "ties": sum(x["ties"] for x in lines),
                "tie_breakdown": lines,
                "turn_actions": list(p["turn_actions"]),
                "segments_built_this_turn": p["turn_segments"],
                "segment_allowance": engine._segment_allowance(p),
                "bankrupt_owed": p["bankrupt_owed"],
            }
        )
    contracts = []
    for c in state["contracts"]:
        if c["status"] in ("offered", "declined"):
            continue
        if c["status"] == "discarded" and c["holder"] != seat:
            continue
        hidden = c["type"] == "private" and c["status"] == "held" and c["holder"] != seat and not public_private
        contracts.append(_contract_view(c, hidden))
    offers = []
    if seat is not None and 0 <= seat < len(state["players"]):
        offers = [_contract_view(engine._contract(state, cid)) for cid in state["players"][seat]["offers"]]
    current_round = state["round"]
    railroads = []
    for r in state["railroads"]:
        routes = [{"route": x["route"], "round": x["round"]} for x in r["routes"]]
        cities = sorted(engine._railroad_cities(state, r))
        railroads.append(
            {
                "id": r["id"],
                "name": r["name"],
                "routes": routes,
                "cities": cities,
                # segments: routes (the rules), or units of length (games before issue 18)
                "segments": len(r["routes"]) if engine._by_route(state) else sum(board.routes[x["route"]]["length"] for x in r["routes"]),
                "length": sum(board.routes[x["route"]]["length"] for x in r["routes"]),
                "price": engine._railroad_price(state, r) if r["acquired_by"] is None else r.get("price"),
                "acquired_by": r["acquired_by"],
                "acquired_round": r["acquired_round"],
                "grew_last_round": [x["route"] for x in r["routes"] if x["round"] == current_round - 1 and x["round"] > 0],
            }
        )
    starting = []
    taken = {p["start_route"]: p["seat"] for p in state["players"] if p["start_route"]}
    from .rules import desirability

    for rid in board.starting_routes:
        starting.append({"route": rid, "cities": list(board.route_cities(rid)), "desirability": desirability(board, rid), "taken_by": taken.get(rid)})
    auction = None
    if state["auction"] is not None:
        a = state["auction"]
        choosing = engine._auction_choosing(a)
        lot = a["lots"][a["lot"]] if a["lot"] < len(a["lots"]) and not choosing else None
        is_player = seat is not None and 0 <= seat < len(state["players"])
        lots = []
        for x in a["lots"][a["lot"] :] if choosing else ([lot] if lot else []):
            length = board.routes[x["route"]]["length"]
            blocked = engine._bid_blocked(state, seat, x) if is_player else None
            lots.append({"route": x["route"], "segments": x.get("segments", length), "length": length, "price": x["price"], "minimum": engine._bid_minimum(state, x), "blocked": blocked["message"] if blocked else None})
        auction = {
            "seller": a["seller"],
            "choosing": choosing,  # the bidder (the opener) chooses which lot goes on the block
            "lot": dict(lot) if lot else None,
            "lots": lots,  # the lots the bidder may bid on now, each with its lowest bid and, for a seat, why it cannot bid
            "lots_left": len(a["lots"]) - a["lot"],
            "high": a["high"],
            "high_bidder": a["high_bidder"],
            "passed": list(a["passed"]),
            "bidder": engine._auction_current(state),
            "amount_step": BID_STEP,
        }
    sizes = board.monopoly_sizes()
    build_options = None
    if state["phase"] == "play" and seat is not None and 0 <= seat < len(state["players"]):
        build_options = engine._build_options(state, state["players"][seat])
    return {
        "game": "wood-and-steel",
        "phase": state["phase"],
        "round": state["round"],
        "turn": state["turn"],
        "current_seat": state["current_seat"],
        "active_seats": engine.active_seats(state),
        "order": list(state["order"]),
        "go_first": state["go_first"],
        "viewer": seat,
        "board_key": state["board_key"],
        "players": players,
        "contracts": contracts,
        "market": [c["id"] for c in state["contracts"] if c["status"] == "market"],
        "market_open": state["market_open"],
        "offers": offers,
        "railroads": railroads,
        "growth": {"round": current_round - 1 if state["phase"] == "play" else current_round, "added": [dict(g) for g in state["growth"]]},
        "western_broken": engine._western_broken(state),
        "connection_bonuses": [dict(b, a=list(b["a"]), b=list(b["b"]), claimed_by=list(b["claimed_by"])) for b in state["connection_bonuses"]],
        "monopoly_commodities": [
            {"commodity": k, "cities": len(board.producers[k]), "ties": S.MONOPOLY_TIES[n], "chance": S.MONOPOLY_CHANCE[n], "holder": state["monopolies"].get(k)}
            for k, n in sorted(sizes.items())
        ],
        "service_yard_available": state["service_yard_available"],
        "starting_routes": starting,
        "auction": auction,
        "segment_unit": "route" if engine._by_route(state) else "length",
        "build_options": build_options,
        "listing": engine.listing(state, seat=seat),
        "names": dict(DISPLAY_NAMES),
        "ending": state["ending"],
        "final": json.loads(json.dumps(state["final"])) if state["final"] else None,
        "options": {k: v for k, v in opts.items()},
    }
