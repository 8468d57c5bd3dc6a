"""Runerail's state as the server notes lay it out: the document ``get-state`` answers through ``POST /api``.

Pure Python (no Django). :func:`protocol_state` turns the engine's state into the notes' "Game State" list
(``shared/specs/fantasy-rails-server-notes.md``), section by section, with the notes' names in snake_case.
Everything is public (gold too, as the notes say) but ``you``: the caller's private part (``None`` for a
spectator). The decks' order and the RNG are never in it, for anyone. Mileposts are ``[layer, q, r]``
(layer 0 the surface, 1 the Deepways; layout ``odd-r``); a *link* is a pair of mileposts ``[a, b]``; a
*player id* is the seat number (0, 1, ...). Cards are objects (see "Cards" below), so a client needs no
other table to read them. The document::

    {"format": "runerail/notes-state@1",
     # phase and turn information
     "phase": "start" | "main" | "finished",           # the notes' game phase
     "start_step": "foreman-draft" | "initial-build" | None,   # which part of the start (None after it)
     "build_round": 1..3 | 0,                         # the initial build round (0 outside them)
     "special_phase": None | {"kind", "player_id", ...},   # the decision waited for (below)
     "turn": n,                                       # the game's turn number (each player's turn is one)
     "round": n,                                      # normal rounds (0 during the start)
     "turn_order": [player ids],
     "current_player": None | {"player_id", "turn_phase": "draft" | "move" | "build",
                               "money_spent", "money_left", "distance_moved", "distance_left",
                               "half_rate": bool, "tolls_paid": [player ids], "move_bribe_paid", "build_bribe_paid"},
     "commands": [{"sequence", "player_id", "command"}],   # added by the platform (its action log), see below
     "winner": None | player id, "winners": [player ids], "end_reason": None | "won",
     # effect states: for each, whether it is enabled and what turn it ends
     "effects": {"rainbow_bridge", "magical_link", "no_upgrading", "no_ship_changes", "no_foreman_change":
                     {"enabled": bool, "ends_turn": n | None, "card": card id | None},
                 "no_build", "halted_trains", "half_rate_areas", "no_loading":
                     {"enabled": bool, "ends_turn": n | None, "areas": [area effect]},
                     # no_build's areas also name "players": [player ids], no_loading's "cities": [city ids]
                 "cards": [every event card in play: {"card", "kind", "status", "drawn_by", "ends", "ends_turn"}]},
     # deck information
     "decks": {"resources": {load id: chips left},
               "foremen": {"deck_size", "discard_pile": [foreman]},
               "ships": {"deck_size", "discard_pile": [ship]},
               "demands": {"deck_size", "discard_pile": [card]},   # event cards in force too (below)
               "trains": [{"id", "name", "level", "loads", "speed", "left"}]},   # the loco supply
     # per-player state (index = player id)
     "players": [{"id", "name", "color", "gold", "demand_cards": count, "train": {"id", "name", "level",
                  "loads", "speed", "at": milepost | None, "sea_at": sea point | None}, "ship": ship | None,
                  "foreman": foreman | None, "loads": [load ids], "majors_connected": [city ids],
                  "effects": {"skip_turn": {"enabled": bool, "ends_turn": n | None, "turns": n},
                              "can_build_track": bool,
                              "no_build": {"enabled": bool, "ends_turn": n | None, "areas": [area effect]},
                              "rebuild_rights": [links]}}],
     # static geography (left out with "geography": false in the get-state body; see the README)
     "geography": {"layout": "odd-r", "board": {"width", "height"}, "layers": [{"id", "name"}],
                   "regions": {id: name},
                   "mileposts": [layer][q][r] -> None | {"terrain", "traversable_by_ship", "name", "region",
                                                         "city"?, "port"?, "gate"?},
                   "special_links": {name: {"kind": "magic" | "bridge" | "entrance", "links": [links]}},
                   "rivers": {name: [links]}, "inlets": {name: [links]},
                   "cities": {city id: [load ids]}},
     # dynamic geography
     "track": [[links] per player id],
     # the caller's private part
     "you": None | {"player_id", "demand_cards": [card], "foreman_draft": [foreman] | None,
                    "drawn_foreman": foreman | None, "ship_offer": [ship] | None, "decision": None | {...}}}

**Phases.** The engine's draft and build rounds are the notes' "start of game" (``start_step`` says which:
the foreman draft, then the initial build rounds, which stand for the notes' "each player picks a starting
city": here a train is placed on any city at its first normal turn); its normal turns are ``main``.
``special_phase`` is the decision the game waits for, whose ``player_id`` alone may answer:
``{"kind": "lose-load", "player_id", "queue": [{"player_id", "card", "loads"}], "ends_turn_after": bool,
"draw_waits": None | {"player_id", "cards"}}`` (an event asks trains to drop a load: the notes' example; the
drawer's draw, ``cards`` still to come, goes on after the answers), ``{"kind": "foreman-draft", "player_id", "deal",
"queue", "dealt_counts": {player id: n}, "undrafted": n}``, ``{"kind": "choose-foreman", "player_id",
"source"}`` (a hire by drawing) and ``{"kind": "choose-ship", "player_id", "count"}`` (the Halfling's three
ships); what was dealt or drawn is in that player's ``you`` only.

**Effects and the turn they end.** An event lasts until the end of its drawer's next turn (the drawer's own
turn count, ``ends``: ``{"player_id", "player_turn"}``); ``ends_turn`` is the game's turn number whose end
removes it (every player's turn, a lost one too, is one turn, so it is known when drawn), ``None`` for the
game-long Prism Bridge. The rainbow bridge is the Prism Bridge, the magical link the Ley Line (``enabled``:
open now; while an event suspends it, ``ends_turn`` is when it reopens). The four area kinds (no building,
halted trains, half rate, no loading) are each ``{"enabled", "ends_turn", "areas"}`` like the others:
``enabled`` while one or more of their cards is in force, ``ends_turn`` the last of those cards' ends, each
*area effect* ``{"card", "area": the event's area as events.json writes it, "ends", "ends_turn"}``. Per
player, the notes' "skip turn?" is ``skip_turn`` (``turns``: lost turns to come, ``ends_turn``: the game's
turn in which the last of them is skipped) and "can build track?" is ``can_build_track`` with the no-build
effect barring them (``no_build``, its end).

**The discard pile.** An event card drawn is shown face up on the demand deck's discard pile at once, marked
``"in_force": true`` while its effect lasts (the engine keeps it beside the pile until then, so it cannot be
reshuffled into the deck while in force); a demand card discarded, and an event card once over, without it.

**Cards.** A demand card ``{"id", "type": "demand", "demands": [{"city", "load", "payout"}]}``, an event card
``{"id", "type": "event", "title", "kind"}``, a foreman ``{"id", "kind", "name"}``, a ship ``{"id", "name",
"speed", "boarding_cost"}``.

**Geography.** ``mileposts[layer][q][r]`` covers the whole board (64 × 54 on each layer): a land milepost,
a sea point (``terrain: "sea"``, ``traversable_by_ship: true``, its sea region) or ``None``. Only sea points
are traversable by ship: our inlets are named crossings on hex sides (``inlets``), so the notes' guess of an
inlet from a ship-traversable end is not needed; ``port: true`` marks where a ship lands. ``name`` is a
city's or gate's display name; ``city`` its id. Special links are the passages nobody builds: the Ley Line
(``magic``: any milepost of Thornhollow to any of Emberforge), the Prism Bridge (``bridge``) and the four
Deepway gates (``entrance``). The geography is the same for every game and is built once per process
(:func:`geography`): never mutate it.

**Commands.** The notes' "list of all effectful commands made so far" is the platform's action log, not
the engine's state: the platform adds ``commands`` (``games.selectors``); this function leaves it out.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from . import data

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Runerail

FORMAT = "runerail/notes-state@1"
SHIP_CHANGES = "no-boarding"


def _point(key: str | None) -> list[int] | None:
    return None if key is None else [int(x) for x in key.split(",")]


def _link(key: str) -> list[list[int]]:
    m = data.core().map
    a, b = m.edge_nodes[key]
    return [m.address(a), m.address(b)]


def foreman_card(card: str | None) -> dict[str, Any] | None:
    if card is None:
        return None
    f = data.foremen()[card]
    return {"id": card, "kind": f["kind"], "name": f["name"]}


def ship_card(card: str | None) -> dict[str, Any] | None:
    if card is None:
        return None
    s = data.ships()[card]
    return {"id": card, "name": s["name"], "speed": s["speed"], "boarding_cost": s["boarding_cost"]}


def deck_card(card: str) -> dict[str, Any]:
    """A card of the demand deck: a demand card or an event card."""
    if card in data.events():
        e = data.events()[card]
        return {"id": card, "type": "event", "title": e["title"], "kind": e["kind"]}
    demands = data.demand_cards()[card]["demands"]
    return {"id": card, "type": "demand",
            "demands": [{"city": d["city"], "load": d["load"], "payout": d["payout"]} for d in demands]}


def ends_turn(state: dict[str, Any], ends: dict[str, Any] | None) -> int | None:
    """The game's turn number at whose end a record ending at its drawer's turn ``ends["turn"]`` expires.

    Normal turns go round ``order`` and every turn, a lost one too, adds one to ``turn_no``; so the drawer's
    own turn k is a fixed number of turns away. ``None`` for a record that lasts the game (and before the
    normal turns, when no event can be in play)."""
    if ends is None or state["phase"] not in ("play", "finished"):
        return None
    order = state["order"]
    n = len(order)
    seat, k = ends["seat"], ends["turn"]
    done = state["players"][seat]["turns"]  # the drawer's turns begun so far
    active = state["active"]
    if seat == active:  # the drawer's turn number `done` is this one
        return state["turn_no"] + (k - done) * n
    ahead = (order.index(seat) - order.index(active)) % n  # turns until the drawer's next one
    return state["turn_no"] + ahead + (k - done - 1) * n


def _ends(state: dict[str, Any], effect: dict[str, Any]) -> dict[str, Any]:
    ends = effect["ends"]
    return {"ends": None if ends is None else {"player_id": ends["seat"], "player_turn": ends["turn"]},
            "ends_turn": ends_turn(state, ends)}


def _area_effect(state: dict[str, Any], effect: dict[str, Any]) -> dict[str, Any]:
    return {"card": effect["card"], "area": effect["params"].get("area"), **_ends(state, effect)}


def _barred(state: dict[str, Any], effect: dict[str, Any]) -> list[int]:
    """The players a no-build event bars (its ``players``: all, the drawer, the others), as the rules read it."""
    from .rules import seats_named

    return seats_named(state, effect["params"].get("players", "all"), effect["drawn_by"])


@functools.cache
def _area_cities(card: str) -> tuple[str, ...]:
    """The cities with a milepost in an event card's area (sorted ids)."""
    area = data.event_area(card)
    m = data.core().map
    return tuple(sorted({m.nodes[i].city for i in area.nodes | area.pair_ends if m.nodes[i].city}))


def _areas(state: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """An area kind's state: enabled while any card of it is in force, ending with the last of them."""
    ends = [e["ends_turn"] for e in entries]
    return {"enabled": bool(entries), "ends_turn": None if not entries or None in ends else max(ends),
            "areas": entries}


def _switch(engine: Runerail, state: dict[str, Any], kind: str) -> dict[str, Any]:
    effect = engine.in_force(state, kind)
    if effect is None:
        return {"enabled": False, "ends_turn": None, "card": None}
    return {"enabled": True, "ends_turn": ends_turn(state, effect["ends"]), "card": effect["card"]}


def effects(engine: Runerail, state: dict[str, Any]) -> dict[str, Any]:
    """The notes' effect states: each with whether it is on and the turn it ends."""
    core = data.core()
    open_links = {link.name: core.link_open(state["rail"], link) for link in core.map.link_groups}
    active = [e for e in state["effects"] if e["status"] == "active"]
    bridge = engine.in_force(state, "open-bridge")
    strike = engine.in_force(state, "suspend-magic")
    return {
        "rainbow_bridge": {"enabled": bool(open_links.get(data.PRISM_BRIDGE)),
                           "ends_turn": ends_turn(state, bridge["ends"]) if bridge else None,
                           "card": bridge["card"] if bridge else None},
        "magical_link": {"enabled": bool(open_links.get(data.LEY_LINE)),
                         "ends_turn": ends_turn(state, strike["ends"]) if strike else None,
                         "card": strike["card"] if strike else None},
        "no_build": _areas(state, [{**_area_effect(state, e), "players": _barred(state, e)}
                                   for e in active if e["kind"] == "no-build"]),
        "halted_trains": _areas(state, [_area_effect(state, e) for e in active if e["kind"] == "halt"]),
        "half_rate_areas": _areas(state, [_area_effect(state, e) for e in active if e["kind"] == "half-rate"]),
        "no_loading": _areas(state, [{**_area_effect(state, e), "cities": list(_area_cities(e["card"]))}
                                     for e in active if e["kind"] == "no-loading"]),
        "no_upgrading": _switch(engine, state, "no-upgrade"),
        "no_ship_changes": _switch(engine, state, SHIP_CHANGES),
        "no_foreman_change": _switch(engine, state, "no-foreman-change"),
        "cards": [{"card": e["card"], "kind": e["kind"], "status": e["status"], "drawn_by": e["drawn_by"],
                   **_ends(state, e)} for e in state["effects"]],
    }


def special_phase(state: dict[str, Any]) -> dict[str, Any] | None:
    """The decision the game waits for, as everyone may see it (what was dealt or drawn: ``you`` only)."""
    pending = state.get("pending")
    if pending:
        queue = [{"player_id": q["seat"], "card": q["card"], "loads": q["loads"]} for q in pending["queue"]]
        draw = pending.get("draw")
        return {"kind": pending["kind"], "player_id": queue[0]["player_id"], "queue": queue,
                "ends_turn_after": pending.get("then") == "end-turn",
                "draw_waits": {"player_id": draw["seat"], "cards": draw["cards"]} if draw else None}
    if state["draft"] is not None and state["phase"] == "draft":
        d = state["draft"]
        return {"kind": "foreman-draft", "player_id": d["queue"][0] if d["queue"] else None, "deal": d["deal"],
                "queue": list(d["queue"]), "dealt_counts": {k: len(v) for k, v in d["dealt"].items()},
                "undrafted": len(d["undrafted"])}
    if state["hire"] is not None:
        return {"kind": "choose-foreman", "player_id": state["hire"]["seat"], "source": state["hire"]["source"]}
    offer = state.get("ship_offer")
    if offer:
        return {"kind": "choose-ship", "player_id": offer["seat"], "count": len(offer["ships"])}
    return None


def decks(state: dict[str, Any]) -> dict[str, Any]:
    """Sizes and discard piles; the decks' order is never shown."""
    locos = data.locos()
    ship_deck = state.get("ship_deck")
    return {
        "resources": dict(state["supply"]),
        "foremen": {"deck_size": len(state["foreman_deck"]),
                    "discard_pile": [foreman_card(c) for c in state["foreman_discards"]]},
        "ships": {"deck_size": len(data.ships()) if ship_deck is None else len(ship_deck),
                  "discard_pile": [ship_card(c) for c in state.get("ship_discards") or []]},
        "demands": {"deck_size": len(state["deck"]),
                    "discard_pile": [deck_card(c) for c in state["discards"]]
                    + [{**deck_card(e["card"]), "in_force": True} for e in state["effects"]
                       if e["status"] != "rebuild"]},
        "trains": [{"id": t, "name": x["name"], "level": x["level"], "loads": x["loads"], "speed": x["speed"],
                    "left": state["locos"][t]} for t, x in locos.items()],
    }


def players(state: dict[str, Any], fx: dict[str, Any]) -> list[dict[str, Any]]:
    core = data.core()
    reserved = state["rail"].get("reserved") or {}
    out = []
    for p in state["players"]:
        s = p["seat"]
        loco = data.locos()[p["loco"]]
        no_build = [{k: v for k, v in e.items() if k != "players"} for e in fx["no_build"]["areas"]
                    if s in e["players"]]
        lost = p.get("lost_turns", 0)
        out.append({
            "id": s,
            "name": p["name"],
            "color": p["color"],
            "gold": p["gold"],
            "demand_cards": len(p["hand"]),
            "train": {"id": p["loco"], "name": loco["name"], "level": loco["level"], "loads": loco["loads"],
                      "speed": loco["speed"], "at": _point(p["at"]), "sea_at": _point(p.get("sea_at"))},
            "ship": ship_card(p.get("ship")),
            "foreman": foreman_card(p["foreman"]),
            "loads": list(p["loads"]),
            "majors_connected": core.majors_connected(state["rail"], s),
            "effects": {
                "skip_turn": {"enabled": lost > 0, "turns": lost,
                              "ends_turn": ends_turn(state, {"seat": s, "turn": p["turns"] + lost}) if lost else None},
                "can_build_track": not no_build,
                "no_build": _areas(state, no_build),
                "rebuild_rights": [_link(k) for k, owner in sorted(reserved.items()) if owner == s],
            },
        })
    return out


def track(state: dict[str, Any]) -> list[list[list[list[int]]]]:
    """Every player's track: a list of links per player id."""
    out: list[list[list[list[int]]]] = [[] for _ in state["players"]]
    for key, owner in sorted(state["rail"]["track"].items()):
        out[owner].append(_link(key))
    return out


def private(engine: Runerail, state: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """What only ``seat`` may see: its hand, the foremen dealt to it, a foreman it drew, the ships it drew
    and the decision it is asked for."""
    if seat is None:
        return None
    player = state["players"][seat]
    draft = state["draft"] if state["phase"] == "draft" else None
    hire = state["hire"] if state["hire"] is not None and state["hire"]["seat"] == seat else None
    offer = state.get("ship_offer")
    offer = offer if offer and offer["seat"] == seat else None
    pending = engine.pending_view(state, seat)
    return {
        "player_id": seat,
        "demand_cards": [deck_card(c) for c in player["hand"]],
        "foreman_draft": [foreman_card(c) for c in draft["dealt"].get(str(seat), [])] if draft else None,
        "drawn_foreman": foreman_card(hire["drawn"]) if hire else None,
        "ship_offer": [ship_card(c) for c in offer["ships"]] if offer else None,
        "decision": pending["yours"] if pending else None,
    }


@functools.lru_cache(maxsize=1)
def geography() -> dict[str, Any]:
    """The static geography in the notes' representation (built once; shared: never mutate it)."""
    raw = data.map_data()
    m = data.core().map
    width, height = raw["board"]["width"], raw["board"]["height"]
    grid: list[list[list[dict[str, Any] | None]]] = [
        [[None] * height for _ in range(width)] for _ in raw["layers"]]
    ports = data.port_keys()
    for node in m.nodes:
        name = node.name or (m.cities[node.city].name if node.city else None)
        info: dict[str, Any] = {"terrain": node.terrain, "traversable_by_ship": False, "name": name,
                                "region": node.region}
        if node.city:
            info["city"] = node.city
        if node.key in ports:
            info["port"] = True
        gate = raw["nodes"][node.index].get("gate")  # the core keeps the map's order of nodes
        if gate:
            info["gate"] = gate
        grid[node.layer][node.q][node.r] = info
    sea_region = {tuple(p): region for region, points in raw.get("sea_regions", {}).items() for p in points}
    for layer, q, r in raw["sea"]:
        grid[layer][q][r] = {"terrain": "sea", "traversable_by_ship": True, "name": None,
                             "region": sea_region.get((layer, q, r), "western-sea")}
    special: dict[str, dict[str, Any]] = {}
    for link in raw["links"]:
        special[link["name"]] = {"kind": link["kind"], "links": [list(map(list, e)) for e in link["edges"]]}
    rivers: dict[str, list[Any]] = {}
    inlets: dict[str, list[Any]] = {}
    for crossing in raw["crossings"]:
        into = rivers if crossing["kind"] == "river" else inlets
        into.setdefault(crossing["name"], []).extend(list(map(list, e)) for e in crossing["edges"])
    return {
        "layout": raw["layout"],
        "board": {"width": width, "height": height},
        "layers": [dict(layer) for layer in raw["layers"]],
        "regions": {r["id"]: r["name"] for r in raw["regions"]},
        "mileposts": grid,
        "special_links": special,
        "rivers": rivers,
        "inlets": inlets,
        "cities": {cid: list(loads) for cid, loads in data.city_loads().items()},
    }


def _phase(state: dict[str, Any]) -> tuple[str, str | None]:
    return {"draft": ("start", "foreman-draft"), "build": ("start", "initial-build"), "play": ("main", None),
            "finished": ("finished", None)}[state["phase"]]


def protocol_state(engine: Runerail, state: dict[str, Any], *, seat: int | None) -> dict[str, Any]:
    """The notes' state document for ``seat`` (None: a spectator): every public part, the same for every
    caller, and ``you``, the caller's private part. The module docstring describes it."""
    phase, step = _phase(state)
    active = None if state["finished"] else state["active"]
    fx = effects(engine, state)
    turn = state["turn"]
    fees = state["rail"]["turn"].get("fees_paid", [])
    current = None
    if active is not None:
        current = {
            "player_id": active,
            "turn_phase": state["stage"],
            "money_spent": turn["spent"],
            "money_left": engine.budget_left(state, active),
            "distance_moved": turn["moves_used"],
            "distance_left": engine.moves_left(state, active),
            "half_rate": turn.get("half_from") is not None,
            "tolls_paid": [int(f.split(":")[1]) for f in fees if f.startswith("toll:")],
            "move_bribe_paid": "bribe" in fees,
            "build_bribe_paid": turn["build_bribe_paid"],
        }
    return {
        "format": FORMAT,
        "phase": phase,
        "start_step": step,
        "build_round": engine.build_round(state),
        "special_phase": special_phase(state),
        "turn": state["turn_no"],
        "round": state["round"],
        "turn_order": list(state["order"]),
        "current_player": current,
        "winner": state["winners"][0] if len(state["winners"]) == 1 else None,
        "winners": list(state["winners"]),
        "end_reason": state["end_reason"],
        "effects": fx,
        "decks": decks(state),
        "players": players(state, fx),
        "geography": geography(),
        "track": track(state),
        "you": private(engine, state, seat),
    }
