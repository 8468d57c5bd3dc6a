"""Runerail: the rules engine on the shared rail core (pure Python, no Django). README.md, "The engine".

Rules: ``shared/specs/fantasy-rails-server-notes.md`` and the published facts and recommendations of
``shared/reference/rail-games-notes.md`` ("The fantasy rail game"); the choices are in README.md.
The rail core (``../rail_core``) does track, building, moving, tolls, passages and connectivity;
the foremen and the Deepways' bribes reach into it through :class:`RunerailHooks`; this module does
turns, gold, the draft, foremen, locos, loads, cards, events and the win.

State (plain JSON)::

    {"kind", "options", "rng", "order": [seats in turn order],
     "phase": "draft" | "build" | "play" | "finished",
     "draft": {"deal": n, "queue": [seats still to choose in this deal], "dealt": {seat: [card ids]},
               "undrafted": [card ids]} | None,
     "schedule": [seats of the build turns], "build_step": index into it,
     "round", "turn_index", "turn_no", "draws",
     "active": seat, "stage": "draft" | "move" | "build" | "none",
     "turn": {"spent", "moves_used", "acted", "built", "upgraded", "build_bribe_paid"},
     "hire": {"seat", "drawn", "source"} | None,          # a hire by drawing, waiting for the choice
     "players": [{"seat", "name", "color", "gold", "foreman", "loco", "at", "came_from", "loads", "hand",
                  "turns"}],
     "rail": the rail core's state, "deck": [card ids, drawn from the end], "discards": [...],
     "foreman_deck": [...], "foreman_discards": [...], "locos": {type: cards left}, "supply": {load: chips},
     "effects": [{"card", "kind", "params", "duration", "drawn_by", "status", "ends", "sections"?}],
     "pending": {"kind": "lose-load", "queue": [{"seat", "card", "loads"}], "then": "end-turn" | None} | None,
     "finished", "winners", "end_reason"}

Players also hold ``lost_turns`` (turns to skip), ``ship`` (the ship card aboard, or None) and ``sea_at`` (the
sea point at sea, when ``at`` is None); ``turn`` also ``half_from`` (the movement used when the train came under
a half-rate area this turn, else None), ``boarded`` and ``sailed``. Ships: ``ship_deck`` (None until the first
draw), ``ship_discards``, ``ship_offer`` ({"seat", "ships"}: the Halfling's draw of 3, waiting for the choice).
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

from ..base import Command, Engine, Event, Option, RulesError, State, places_from_winners, require
from ..rail_core import Fee, RailHooks, SectionCost
from ..rail_core.ending import ROUND_LIMIT, race_ranking, richest, round_limit_how, round_limit_reached
from ..rail_core.mapdata import RailMap
from ..rng import Rng, seed_state
from ..seat_colors import options_split, seat_colors
from . import data
from .commands import COMMANDS, VIEW_FIELDS
from .data import (
    BRIBE,
    BUILD_LIMIT,
    BUILD_ROUNDS,
    COLORS,
    DEEP_LAYER,
    GATE_COST,
    GATE_MAX_OWN,
    HAND,
    LEY_LINE,
    PORT_CAP,
    PORT_COST,
    PRISM_BRIDGE,
    START_GOLD,
    WIN_GOLD,
    WIN_MAJORS,
)

KIND = "runerail"

# Event kinds whose effect this engine applies (every kind of events.json); any other would be recorded as
# "pending" in state["effects"] and expire like the rest.
APPLIED_EVENTS = ("open-bridge", "suspend-magic", "no-upgrade", "no-foreman-change", "war-tax", "no-build", "halt",
                  "half-rate", "no-loading", "lose-turn", "lose-load", "track-destroyed", "ships-to-port",
                  "no-boarding")
# One-shot kinds: they act on what is in the area when drawn; the record stays (status "done") until it expires.
ONCE_EVENTS = ("war-tax", "lose-turn", "lose-load", "track-destroyed", "ships-to-port")
REBUILD_TURNS = 3  # the rebuild right lasts this many of the drawer's turns after the card is discarded


def _key(ref: Any) -> str:
    m = data.core().map
    return m.key(m.find(ref))


def _ability(state: State, seat: int) -> dict[str, Any]:
    foreman = state["players"][seat]["foreman"]
    return data.foremen()[foreman]["ability"] if foreman else {}


def seats_named(state: State, players: str, drawer: int, area: data.Area | None = None) -> list[int]:
    """The seats an event's ``players`` names: all, the drawer, the others, or those with a train in its area."""
    seats = [p["seat"] for p in state["players"]]
    if players == "drawer":
        return [drawer]
    if players == "others":
        return [s for s in seats if s != drawer]
    if players == "in-area":
        return [s for s in seats if _in_area(state, s, area)]
    return seats


def _in_area(state: State, seat: int, area: data.Area | None) -> bool:
    player = state["players"][seat]
    if area is None:
        return False
    if player.get("sea_at"):
        return player["sea_at"] in area.sea
    return player["at"] is not None and area.has(data.core().map.index[player["at"]])


def _nearest_port(sea_key: str) -> str:
    """The port fewest sea points away (ties: the first found, neighbours in the map's order)."""
    graph, ports = data.sea_graph(), data.port_keys()
    seen, frontier = {sea_key}, [sea_key]
    while frontier:
        nxt = []
        for key in frontier:
            for nb in graph[key]:
                if nb in ports:
                    return nb
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    raise AssertionError("the sea touches every port")


def _sea_route(start: str, target: str) -> list[str] | None:
    """The fewest sea points from ``start`` (a port or a sea point) to ``target``, landing only at the end."""
    graph, ports = data.sea_graph(), data.port_keys()
    if start not in graph or target not in graph or start == target:
        return None
    prev: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for key in frontier:
            for nb in graph[key]:
                if nb in prev or (nb in ports and nb != target):
                    continue
                prev[nb] = key
                if nb == target:
                    out = [nb]
                    while prev[out[-1]] is not None:
                        out.append(prev[out[-1]])  # type: ignore[arg-type]
                    return out[::-1]
                nxt.append(nb)
        frontier = nxt
    return None


def _orc_holder(state: State) -> int | None:
    for p in state["players"]:
        if p["foreman"] and data.foremen()[p["foreman"]]["ability"].get("bribes") == "receives":
            return p["seat"]
    return None


def _and(items: list[str]) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class RunerailHooks(RailHooks):
    """The foremen, the gates, the capped ports and the Deepways' bribes for one command's state.

    ``effects``: the events in force: no building answers in ``section_refusal``, halted trains in
    ``step_refusal`` (half rate is the engine's: it depends on the movement left); the courtesy right to a
    tunnel entrance in ``section_refusal`` and the engine's ``check_build``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.effects = [e for e in state["effects"] if e["status"] == "active"]
        # Areas in force: no building (with the seats barred), halted trains.
        self.no_build = [(data.event_area(e["card"]), set(seats_named(state, e["params"].get("players", "all"),
                                                                     e["drawn_by"])))
                         for e in self.effects if e["kind"] == "no-build"]
        self.halted = [data.event_area(e["card"]) for e in self.effects if e["kind"] == "halt"]
        # Track destroyed by an event whose card is still in force: nobody builds there until the card is
        # discarded (then the owners' rebuild rights apply: the rail core's ``reserved``).
        self.destroyed = [data.event_area(e["card"]) for e in state["effects"]
                          if e["kind"] == "track-destroyed" and e["status"] == "done"]
        self.port_price = state["options"].get("port_price", "published")
        self.minor_ports = data.minor_port_nodes()
        self.abilities = {p["seat"]: _ability(state, p["seat"]) for p in state["players"]}
        self.orc = _orc_holder(state)
        self.gates = data.gate_nodes()

    # What only building needs is read from the track when first asked (a move never asks): the hooks live for
    # one command or one plan, and the state does not change while they do.

    @functools.cached_property
    def full_ports(self) -> dict[frozenset[int], set[int]]:
        """Medium ports already holding track of PORT_CAP players: only those players may build in."""
        core = data.core()
        track = self.state["rail"]["track"]
        out: dict[frozenset[int], set[int]] = {}
        for cid, nodes in data.medium_ports().items():
            owners = {track[k] for k in core.places[cid].incident if k in track}
            if len(owners) >= PORT_CAP:
                out[nodes] = owners
        return out

    @functools.cached_property
    def gate_sections(self) -> dict[tuple[int, int], int]:
        """Each player's sections into each gate milepost."""
        out: dict[tuple[int, int], int] = {}
        m = data.core().map
        for key, owner in self.state["rail"]["track"].items():
            for end in m.edge_nodes[key]:
                if end in self.gates:
                    out[(owner, end)] = out.get((owner, end), 0) + 1
        return out

    # The courtesy right to a tunnel entrance (published): the free ways into the gate mileposts, and the players
    # with no section into any gate, each still entitled to one of them.

    @functools.cached_property
    def gate_free(self) -> set[str]:
        track = self.state["rail"]["track"]
        reserved = self.state["rail"].get("reserved") or {}
        return {key for key in data.gate_ways() if key not in track and key not in reserved}

    @functools.cached_property
    def gate_entitled(self) -> set[int]:
        holders = {owner for owner, _gate in self.gate_sections}
        return {p["seat"] for p in self.state["players"]} - holders

    def gate_courtesy(self, player: int, keys: set[str]) -> tuple[str, str] | None:
        """Refuse new sections ``keys`` into gates if they leave fewer free ways than players still entitled."""
        free = len(self.gate_free)
        taken = len(keys & self.gate_free)
        before = len(self.gate_entitled)
        after = len(self.gate_entitled - {player})
        if taken and free - taken < after and free - taken - after < free - before:
            return ("courtesy", f"That would leave {free - taken} free way{'' if free - taken == 1 else 's'} into the "
                                f"Deepway gates for {after} player{'' if after == 1 else 's'} still entitled to one "
                                "(the courtesy rule).")
        return None

    def section_cost(self, m: RailMap, player: int, a: int, b: int, cost: SectionCost) -> int | None:
        ability = self.abilities[player]
        node = m.nodes[b]
        price = cost.node
        if b in self.gates:
            price = GATE_COST
        elif b in self.minor_ports and self.port_price == "published":
            price = PORT_COST
        elif "layer_cost" in ability and node.layer == ability.get("build_only_layer"):
            price = ability["layer_cost"]
        elif node.city is None and node.terrain in ability.get("terrain_cost", {}):
            price = ability["terrain_cost"][node.terrain]
        crossing = ability.get("crossing_cost", {})
        return price + sum(crossing.get(kind, c) for kind, c in cost.crossings) + cost.link

    def section_refusal(self, m: RailMap, player: int, a: int, b: int) -> tuple[str, str] | None:
        ability = self.abilities[player]
        if self.no_build:
            key = m.edge_key(a, b)
            for area, barred in self.no_build:
                if player in barred and area.touches(key):
                    return ("no-build", "No building there now (an event).")
        if self.destroyed:
            key = m.edge_key(a, b)
            for area in self.destroyed:
                if area.touches(key):
                    return ("track-destroyed", "An event destroyed the track there and is still in force: nobody "
                                               "builds there until it ends (then the owners may rebuild).")
        layer = ability.get("build_only_layer")
        if layer is not None and (m.nodes[a].layer != layer or m.nodes[b].layer != layer):
            return ("foreman-layer", f"Your foreman builds only in {m.layers[layer]['name']}.")
        for end in (a, b):
            for nodes, owners in self.full_ports.items():
                if end in nodes and player not in owners:
                    name = m.cities[m.nodes[end].city].name
                    return ("city-full", f"{name} is a port with track from {PORT_CAP} players, its limit.")
            if end in self.gates and self.gate_sections.get((player, end), 0) >= GATE_MAX_OWN:
                return ("city-sections", f"At most {GATE_MAX_OWN} of your sections may go into {m.nodes[end].name}.")
        if (a in self.gates or b in self.gates) and self.gate_entitled:
            return self.gate_courtesy(player, {m.edge_key(a, b)})
        return None

    def build_fee(self, m: RailMap, player: int, sections: Any) -> int:
        if self.abilities[player].get("build_bribe") is False or self.state["turn"]["build_bribe_paid"]:
            return 0
        deep = any(m.nodes[u].layer == DEEP_LAYER or m.nodes[v].layer == DEEP_LAYER for u, v in sections)
        return BRIBE if deep else 0

    def step_refusal(self, m: RailMap, player: int, a: int, b: int) -> tuple[str, str] | None:
        for area in self.halted:
            if area.has(a):
                return ("halted", "Trains in that area are halted (an event).")
        return None

    def step_fees(self, m: RailMap, player: int, a: int, b: int) -> tuple[Fee, ...]:
        if self.abilities[player].get("move_bribe") is False:
            return ()
        if m.nodes[a].layer == DEEP_LAYER or m.nodes[b].layer == DEEP_LAYER:
            return (Fee("bribe", self.orc, BRIBE),)
        return ()


class Runerail(Engine):
    kind = KIND
    title = "Runerail"
    min_players = 2
    max_players = 6
    takes_seat_colors = True  # setup takes the waiting room's colours (seat_colors.py)
    bots = ("random", "planner")
    commands = COMMANDS
    view_fields = VIEW_FIELDS
    options = (
        Option("turn_order", "choice", "random",
               "Turn order: random, or the order players sat down in the lobby.", choices=("random", "seated")),
        Option("prism_bridge", "choice", "game",
               "Once its event opens it, the Prism Bridge stays open for the rest of the game (published), or "
               "until the Ley Line is next suspended (the tournament rule).", choices=("game", "until-strike")),
        Option("win_check", "choice", "at-once",
               "The win (7 of the 8 majors joined and 250 gold) is checked for every player whenever anything "
               "may change it — a delivery, an event card anyone draws, tolls, a turn's end — and ends the game "
               "at once (the notes and the published rule); or only for the player ending their own turn.",
               choices=("at-once", "own-turn-end")),
        Option("win_tie", "choice", "most-gold",
               "When one event makes two players meet the goal at once: the one with more gold wins (equal "
               "gold: they share the win), or they all share it.", choices=("most-gold", "shared")),
        Option("port_price", "choice", "published",
               "Building to a port milepost outside a major city costs 2 (published), or its city's 3.",
               choices=("published", "city")),
        Option("round_limit", "int", 0,
               "End the game after this many normal rounds (0: no limit, the published rule); then the most gold wins.",
               min=0, max=500),
    )

    # -- setup -----------------------------------------------------------------------------------------

    def normalize_options(self, options: dict[str, Any] | None, *, stored: bool = False) -> dict[str, Any]:
        """The options, and a stored game's ``seat_colors`` (the waiting room's colours: seat_colors.py)."""
        options, chosen = options_split(options, stored=stored)
        clean = super().normalize_options(options, stored=stored)
        return clean if chosen is None else {**clean, "seat_colors": chosen}

    def setup(self, *, players: list[str], options: dict[str, Any], seed: int) -> State:
        options = self.normalize_options(options, stored=True)
        chosen = options.pop("seat_colors", None)  # the waiting room's colours, when the game has them
        require(isinstance(players, list) and self.min_players <= len(players) <= self.max_players,
                "bad-player-count", f"Runerail takes {self.min_players} to {self.max_players} players.")
        rng = Rng(seed_state(seed))
        seats = list(range(len(players)))
        order = list(seats)
        if options["turn_order"] == "random":
            rng.shuffle(order)
        deck = data.deck()
        rng.shuffle(deck)
        colors = seat_colors(list(COLORS), len(players), chosen)
        start = data.start_loco()
        state: State = {
            "kind": KIND,
            "options": options,
            "rng": 0,
            "order": order,
            "phase": "draft",
            "draft": None,
            "schedule": [s for r in range(BUILD_ROUNDS) for s in (order if r % 2 == 0 else order[::-1])],
            "build_step": 0,
            "round": 0,
            "turn_index": 0,
            "turn_no": 0,
            "draws": 0,
            "active": order[0],
            "stage": "draft",
            "turn": self._fresh_turn(),
            "hire": None,
            "players": [
                {"seat": s, "name": players[s], "color": colors[s], "gold": START_GOLD, "foreman": None,
                 "loco": start, "at": None, "came_from": None, "loads": [], "hand": [], "turns": 0,
                 "lost_turns": 0}
                for s in seats
            ],
            "rail": data.core().new_state(seats),
            "deck": deck,
            "discards": [],
            "foreman_deck": [],
            "foreman_discards": [],
            "locos": {t: x["count"] for t, x in data.locos().items()},
            "supply": {x: spec["chips"] for x, spec in data.loads().items()},
            "effects": [],
            "pending": None,
            "finished": False,
            "winners": [],
            "end_reason": None,
        }
        state["locos"][start] -= len(seats)
        # Three demand cards each; event cards dealt now are discarded and replaced (published).
        for seat in order:
            hand = state["players"][seat]["hand"]
            while len(hand) < HAND:
                card = self._pop(state, rng)
                if card in data.events():
                    state["discards"].append(card)
                else:
                    hand.append(card)
        foremen = sorted(data.foremen())
        rng.shuffle(foremen)
        self._deal(state, foremen, list(order), 1)
        state["rng"] = rng.state
        state["turn_no"] = 1
        state["active"] = state["draft"]["queue"][0]
        return state

    @staticmethod
    def _fresh_turn() -> dict[str, Any]:
        return {"spent": 0, "moves_used": 0, "acted": False, "built": False, "upgraded": False,
                "build_bribe_paid": False, "half_from": None}

    @staticmethod
    def _deal(state: State, cards: list[str], seats: list[int], deal: int) -> None:
        """Deal ``cards`` evenly to ``seats`` (in turn order); the rest wait, undrafted."""
        each = len(cards) // len(seats)
        dealt = {str(s): cards[i * each:(i + 1) * each] for i, s in enumerate(seats)}
        state["draft"] = {"deal": deal, "queue": list(seats), "dealt": dealt, "undrafted": cards[len(seats) * each:]}

    # -- reading the state -----------------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        pending = state.get("pending")
        return [pending["queue"][0]["seat"]] if pending else [state["active"]]

    def is_finished(self, state: State) -> bool:
        return bool(state["finished"])

    def standings(self, state: State) -> list[int]:
        """The rules name only the winners (``state["winners"]``): they are 1st, everyone else
        shares 2nd (the win is a race: nobody else is ranked)."""
        return places_from_winners(state["winners"], len(state["players"]))

    RESULT_COLUMNS = ("Major cities", "Gold")

    def result(self, state: State) -> dict[str, Any]:
        """The ending (README, "The ending"): how the winners won in one sentence, and every seat with its
        major cities joined by one network (the Ley Line's two while it is open) and its gold. Places are
        :meth:`standings`' (the winners 1st, the rest share 2nd); within a place the seats are listed by major
        cities joined, then gold. ``score`` is None: the race is won by reaching the goal, not by a total."""
        majors, ranking = race_ranking(data.core(), state["rail"], places=self.standings(state),
                                       money={p["seat"]: p["gold"] for p in state["players"]}, money_label="Gold",
                                       by_money=state["end_reason"] == ROUND_LIMIT)
        return {"how": self._how(state, majors), "columns": list(self.RESULT_COLUMNS), "ranking": ranking}

    def _how(self, state: State, majors: dict[int, int]) -> str:
        winners, players = state["winners"], state["players"]
        if not winners:
            return ""

        def name(seat: int) -> str:
            return str(players[seat]["name"] or f"Seat {seat + 1}")

        if state["end_reason"] == ROUND_LIMIT:
            return round_limit_how(_and([name(s) for s in winners]), len(winners) > 1, state["options"]["round_limit"],
                                   f"{players[winners[0]]['gold']:,} gold", "gold")
        goal = f"{WIN_MAJORS} of the {len(data.core().map.majors)} major cities and {WIN_GOLD:,} gold"
        if len(winners) > 1:
            each = _and([f"{name(s)} ({majors[s]} major cities, {players[s]['gold']:,} gold)" for s in winners])
            same = " with the same gold" if state["options"].get("win_tie", "most-gold") == "most-gold" else ""
            return f"{each} reached the goal ({goal}) at the same moment{same} and share the win."
        seat = winners[0]
        how = (f"{name(seat)} joined {majors[seat]} major cities with one network of track and had "
               f"{players[seat]['gold']:,} gold (the goal: {goal})")
        also = [s for s in range(len(players)) if s != seat and self.qualifies(state, s)]
        if also:
            how += f"; {_and([name(s) for s in also])} reached it at the same moment with less gold"
        return how + "."

    def turn_key(self, state: State) -> Any:
        # A new key at every turn and every card drawn: undo never brings back a card once seen.
        return [state["turn_no"], state["draws"]]

    @staticmethod
    def speed(state: State, seat: int) -> int:
        return data.locos()[state["players"][seat]["loco"]]["speed"]

    @staticmethod
    def capacity(state: State, seat: int) -> int:
        return data.locos()[state["players"][seat]["loco"]]["loads"]

    @staticmethod
    def budget_left(state: State, seat: int | None) -> int:
        """What ``seat`` may still spend this turn on hiring, building and upgrading (the 20 and its gold)."""
        if seat is None or state["active"] != seat or state["stage"] not in ("move", "build"):
            return 0
        return max(0, min(BUILD_LIMIT - state["turn"]["spent"], state["players"][seat]["gold"]))

    @staticmethod
    def moves_left(state: State, seat: int | None) -> int:
        if seat is None or state["active"] != seat or state["phase"] != "play" or state["stage"] != "move":
            return 0
        speed = Runerail.speed(state, seat)
        if state["players"][seat].get("ship") or state["turn"].get("sailed"):
            return 0  # aboard a ship, or landed this turn: the ship was this turn's movement
        half_from = state["turn"].get("half_from")
        if half_from is not None:  # half rate from there on: what was left, halved, rounded up (published)
            speed = half_from + (speed - half_from + 1) // 2
        return max(0, speed - state["turn"]["moves_used"])

    @staticmethod
    def half_area(state: State) -> data.Area | None:
        """The half-rate areas in force, as one area (None when there are none)."""
        areas = [data.event_area(e["card"]) for e in state["effects"]
                 if e["kind"] == "half-rate" and e["status"] == "active"]
        if not areas:
            return None
        out = areas[0]
        for a in areas[1:]:
            out = out | a
        return out

    def _maybe_halve(self, state: State, seat: int) -> list[Event]:
        """Halve the rest of the turn's movement once the active train stands in a half-rate area."""
        if state["phase"] != "play" or state["active"] != seat or state["turn"].get("half_from") is not None:
            return []
        if not _in_area(state, seat, self.half_area(state)):
            return []
        state["turn"]["half_from"] = state["turn"]["moves_used"]
        return [{"type": "half-rate", "seat": seat, "moves_left": self.moves_left(state, seat)}]

    @staticmethod
    def city_at(key: str | None) -> str | None:
        if key is None:
            return None
        m = data.core().map
        return m.nodes[m.find(key)].city

    @staticmethod
    def in_force(state: State, kind: str) -> dict[str, Any] | None:
        return next((e for e in state["effects"] if e["kind"] == kind and e["status"] == "active"), None)

    def build_round(self, state: State) -> int:
        if state["phase"] != "build":
            return 0
        return state["build_step"] // len(state["order"]) + 1

    # -- the rules -------------------------------------------------------------------------------------

    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        require(not state["finished"], "game-over", "The game is over.")
        events = self._command(state, seat, command)
        return events + self._win_at_once(state)

    def _command(self, state: State, seat: int | None, command: Command) -> list[Event]:
        name = command["cmd"]
        pending = state.get("pending")
        if pending:
            asked = pending["queue"][0]["seat"]
            require(seat == asked, "decision-pending",
                    f"Waiting for {state['players'][asked]['name']} (player {asked}) to choose a load to lose.")
            require(name == "choose-load-to-lose", "decision-pending", "First choose the load you lose.")
            assert seat is not None
            return self._choose_load_to_lose(state, seat, command)
        require(seat is not None and seat == state["active"], "not-your-turn", "It is not your turn.")
        assert seat is not None
        require(name != "choose-load-to-lose", "nothing-to-choose", "Nobody is asked to choose a load now.")
        if state["phase"] == "draft" or state["hire"] is not None:
            require(name == "keep-foreman", "choose-foreman", "First choose your foreman.")
        if state.get("ship_offer"):
            require(name == "choose-ship", "choose-ship", "First choose the ship you board.")
        handler = {
            "keep-foreman": self._keep_foreman,
            "hire-foreman": self._hire_foreman,
            "build": self._build,
            "build-track": self._build_track,
            "upgrade": self._upgrade,
            "place-train": self._place_train,
            "move": self._move,
            "pick-up": self._pick_up,
            "drop": self._drop,
            "deliver": self._deliver,
            "discard-hand": self._discard_hand,
            "board-ship": self._board_ship,
            "choose-ship": self._choose_ship,
            "sail": self._sail,
            "end-turn": self._end_turn_command,
        }[name]
        return handler(state, seat, command)

    # the foreman draft and hiring

    def keep_problem(self, state: State, seat: int, foreman: str | None) -> tuple[str, str] | None:
        if state["hire"] is not None:
            hire = state["hire"]
            if foreman not in (hire["drawn"], state["players"][seat]["foreman"]):
                return "not-offered", "Keep the foreman you drew or the one you hold."
            return None
        if state["phase"] != "draft":
            return "no-choice", "There is no foreman to choose now."
        draft = state["draft"]
        if foreman is None:
            if draft["deal"] > 1:
                return "must-keep", "In a re-deal you must keep one of the foremen dealt to you."
            return None
        if foreman not in draft["dealt"][str(seat)]:
            return "not-offered", "That foreman was not dealt to you."
        return None

    def _keep_foreman(self, state: State, seat: int, command: Command) -> list[Event]:
        foreman = command["foreman"]
        problem = self.keep_problem(state, seat, foreman)
        if problem:
            raise RulesError(*problem)
        player = state["players"][seat]
        if state["hire"] is not None:
            hire = state["hire"]
            old = player["foreman"]
            other = hire["drawn"] if foreman == old else old
            player["foreman"] = foreman
            state["foreman_discards"].append(other)
            state["hire"] = None
            return [{"type": "foreman-kept", "seat": seat, "foreman": foreman, "discarded": other}]
        draft = state["draft"]
        dealt = draft["dealt"].pop(str(seat))
        if foreman is not None:
            dealt.remove(foreman)
            player["foreman"] = foreman
        draft["undrafted"].extend(dealt)
        draft["queue"].remove(seat)
        events: list[Event] = [{"type": "foreman-drafted" if foreman else "foreman-passed", "seat": seat,
                                "foreman": foreman}]
        state["turn_no"] += 1
        if draft["queue"]:
            state["active"] = draft["queue"][0]
            return events
        waiting = [s for s in state["order"] if state["players"][s]["foreman"] is None]
        rng = Rng(state["rng"])
        cards = sorted(draft["undrafted"])
        rng.shuffle(cards)
        state["rng"] = rng.state
        state["draws"] += 1
        if waiting:
            self._deal(state, cards, waiting, draft["deal"] + 1)
            state["active"] = waiting[0]
            return events + [{"type": "foremen-redealt", "seats": waiting, "deal": draft["deal"] + 1}]
        state["foreman_deck"] = cards
        state["draft"] = None
        state["phase"] = "build"
        events.append({"type": "draft-over"})
        return events + self._begin_turn(state, state["schedule"][0])

    def hire_problem(self, state: State, seat: int, mode: str, source: str | None, foreman: str | None
                     ) -> tuple[str, str] | None:
        price = data.hiring()["draw"] if mode == "draw" else data.hiring()["choose"]
        if self.in_force(state, "no-foreman-change"):
            return "no-foreman-change", "No foreman may be hired now (an event)."
        if state["stage"] not in ("move", "build"):
            return "phase-over", "You cannot hire now."
        if mode == "draw":
            if foreman is not None:
                return "bad-hire", "Drawing takes no foreman: you choose after the draw."
            pile = state["foreman_discards"] if source == "discard" else state["foreman_deck"]
            if not pile:
                return "pile-empty", f"The foreman {source or 'deck'} is empty."
        else:
            if source is not None:
                return "bad-hire", "Choosing takes a foreman, not a pile."
            if foreman not in state["foreman_deck"] and foreman not in state["foreman_discards"]:
                return "not-available", "That foreman is not in the deck or the discard pile."
        if price > self.budget_left(state, seat):
            return "over-budget", f"Hiring that way costs {price}; you may spend {self.budget_left(state, seat)} more."
        return None

    def _hire_foreman(self, state: State, seat: int, command: Command) -> list[Event]:
        mode, source, foreman = command["mode"], command.get("source"), command.get("foreman")
        problem = self.hire_problem(state, seat, mode, source, foreman)
        if problem:
            raise RulesError(*problem)
        player = state["players"][seat]
        price = data.hiring()["draw"] if mode == "draw" else data.hiring()["choose"]
        self._spend(state, seat, price)
        if mode == "draw":
            pile = state["foreman_discards"] if source == "discard" else state["foreman_deck"]
            drawn = pile.pop()
            state["hire"] = {"seat": seat, "drawn": drawn, "source": source or "deck"}
            state["draws"] += 1
            return [{"type": "foreman-drawn", "seat": seat, "source": source or "deck", "price": price}]
        if foreman in state["foreman_deck"]:
            state["foreman_deck"].remove(foreman)
        else:
            state["foreman_discards"].remove(foreman)
        state["foreman_discards"].append(player["foreman"])
        old, player["foreman"] = player["foreman"], foreman
        rng = Rng(state["rng"])
        rng.shuffle(state["foreman_deck"])
        state["rng"] = rng.state
        state["draws"] += 1
        return [{"type": "foreman-hired", "seat": seat, "foreman": foreman, "discarded": old, "price": price}]

    def _spend(self, state: State, seat: int, amount: int) -> None:
        state["players"][seat]["gold"] -= amount
        state["turn"]["spent"] += amount
        state["turn"]["acted"] = True
        state["stage"] = "build"

    # building and upgrading

    def hooks(self, state: State) -> RunerailHooks:
        return RunerailHooks(state)

    def check_build(self, state: State, seat: int, path: Any, hooks: RunerailHooks | None = None) -> Any:
        """The build's plan, or RulesError: the rail core's check with the hooks, the budget and the gates."""
        require(state["stage"] in ("move", "build"), "phase-over", "You cannot build now.")
        require(not (state["phase"] == "build" and state["turn"]["upgraded"]), "upgraded-instead",
                "In the initial build rounds an upgrade replaces building.")
        core = data.core()
        hooks = hooks or self.hooks(state)
        plan = core.check_build(state["rail"], seat, path, budget=self.budget_left(state, seat), hooks=hooks)
        new: dict[int, int] = {}
        m = core.map
        for a, b in plan.sections:
            for end in (m.index[a], m.index[b]):
                if end in hooks.gates:
                    new[end] = new.get(end, 0) + 1
        for gate, count in new.items():
            if hooks.gate_sections.get((seat, gate), 0) + count > GATE_MAX_OWN:
                raise RulesError("city-sections", f"At most {GATE_MAX_OWN} of your sections may go into "
                                                  f"{m.nodes[gate].name}.")
        if new and hooks.gate_entitled:
            problem = hooks.gate_courtesy(seat, {m.edge_key(m.index[a], m.index[b]) for a, b in plan.sections})
            if problem:
                raise RulesError(*problem)
        return plan

    def _build(self, state: State, seat: int, command: Command) -> list[Event]:
        plan = self.check_build(state, seat, command["path"])
        data.core().apply_build(state["rail"], seat, plan)
        self._spend(state, seat, plan.cost)
        state["turn"]["built"] = True
        if plan.fee:
            state["turn"]["build_bribe_paid"] = True
        return [{"type": "built", "seat": seat, "path": plan.path, "sections": len(plan.sections),
                 "cost": plan.cost, "bribe": plan.fee}]

    def _build_track(self, state: State, seat: int, command: Command) -> list[Event]:
        """The notes' ``build-track`` (start, end): ``build`` with that one section's path."""
        return self._build(state, seat, {"cmd": "build", "path": [command["start"], command["end"]]})

    def upgrade_problem(self, state: State, seat: int, to: str) -> tuple[str, str] | None:
        player = state["players"][seat]
        locos = data.locos()
        levels = locos[to]["level"] - locos[player["loco"]]["level"]
        price = data.upgrade_rules()["cost_per_level"] * max(levels, 0)
        if state["stage"] not in ("move", "build"):
            return "phase-over", "You cannot upgrade now."
        if self.in_force(state, "no-upgrade"):
            return "no-upgrade", "No loco may be upgraded now (an event)."
        if state["turn"]["upgraded"]:
            return "already-upgraded", "One upgrade a turn."
        if levels < 1:
            return "no-such-upgrade", f"The {locos[to]['name']} is not of a higher level than your loco."
        if levels > data.upgrade_rules()["max_levels_per_turn"]:
            return "too-many-levels", "An upgrade goes up at most two levels."
        if state["turn"]["spent"] and (levels == 2 or state["phase"] == "build"):
            return "already-spent", ("Two levels at once only when nothing else is spent this turn."
                                     if levels == 2 else "In the initial build rounds an upgrade replaces building.")
        if state["locos"][to] <= 0:
            return "none-left", f"No {locos[to]['name']} cards are left."
        if price > self.budget_left(state, seat):
            return "over-budget", f"That upgrade costs {price}; you may spend {self.budget_left(state, seat)} more."
        return None

    def _upgrade(self, state: State, seat: int, command: Command) -> list[Event]:
        to = command["loco"]
        problem = self.upgrade_problem(state, seat, to)
        if problem:
            raise RulesError(*problem)
        player = state["players"][seat]
        old = player["loco"]
        levels = data.locos()[to]["level"] - data.locos()[old]["level"]
        price = data.upgrade_rules()["cost_per_level"] * levels
        state["locos"][to] -= 1
        if 2 <= data.locos()[old]["level"] <= 4:
            state["locos"][old] += 1
        player["loco"] = to
        self._spend(state, seat, price)
        state["turn"]["upgraded"] = True
        return [{"type": "upgraded", "seat": seat, "from": old, "to": to, "cost": price}]

    # the train

    def _require_move_stage(self, state: State) -> None:
        require(state["phase"] == "play", "build-rounds-only-build",
                "In the initial build rounds you may only hire, build or upgrade.")
        require(state["stage"] == "move", "phase-over", "You have spent this turn: operating the train is over.")

    def _place_train(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_move_stage(state)
        player = state["players"][seat]
        require(player["at"] is None and not player.get("sea_at"), "train-placed", "Your train is already on the map.")
        key = _key(command["at"])
        city = self.city_at(key)
        require(city is not None, "not-a-city", "A train starts at a city.")
        player["at"] = key
        player["came_from"] = None
        state["turn"]["acted"] = True
        return [{"type": "train-placed", "seat": seat, "at": key, "city": city}] + self._maybe_halve(state, seat)

    def check_move(self, state: State, seat: int, path: Any, hooks: RunerailHooks | None = None) -> list[Any]:
        """The move's plans (the rail core's), or RulesError. One plan, or two when the path enters a half-rate
        area before its end: the part up to the first milepost in the area, then the rest with the movement
        left there halved, rounded up (published)."""
        self._require_move_stage(state)
        player = state["players"][seat]
        require(not player.get("ship"), "on-ship", "Your train is aboard a ship: sail it.")
        require(player["at"] is not None, "no-train", "Place your train on a city first.")
        require(isinstance(path, list) and len(path) >= 2, "bad-path", "A move needs at least two mileposts.")
        require(_key(path[0]) == player["at"], "bad-path", f"A move starts where your train stands ({player['at']}).")
        core = data.core()
        hooks = hooks or self.hooks(state)
        left = self.moves_left(state, seat)
        half = self.half_area(state) if state["turn"].get("half_from") is None else None
        split = None
        if half is not None:
            split = next((i for i, ref in enumerate(path[1:-1], 1) if half.has(core.map.find(ref))), None)
        if split is None:
            return [core.check_move(state["rail"], seat, path, moves_left=left, cash=player["gold"],
                                    came_from=player["came_from"], hooks=hooks)]
        rail = copy.deepcopy(state["rail"])
        first = core.move(rail, seat, path[:split + 1], moves_left=left, cash=player["gold"],
                          came_from=player["came_from"], hooks=hooks)
        rest = (left - first.moves + 1) // 2
        second = core.check_move(rail, seat, path[split:], moves_left=rest, cash=player["gold"] - first.fee_total,
                                 came_from=first.came_from, hooks=hooks)
        return [first, second]

    def _move(self, state: State, seat: int, command: Command) -> list[Event]:
        hooks = self.hooks(state)
        pieces = self.check_move(state, seat, command["path"], hooks)
        player = state["players"][seat]
        events: list[Event] = []
        for piece in pieces:
            plan = data.core().move(state["rail"], seat, piece.path, moves_left=self.moves_left(state, seat),
                                    cash=player["gold"], came_from=player["came_from"], hooks=hooks)
            fees = []
            for fee in plan.fees:
                player["gold"] -= fee["amount"]
                if fee["payee"] is not None:
                    state["players"][fee["payee"]]["gold"] += fee["amount"]
                fees.append({"kind": fee["id"].split(":")[0], "payee": fee["payee"], "amount": fee["amount"]})
            state["turn"]["moves_used"] += plan.moves
            state["turn"]["acted"] = True
            player["at"] = plan.path[-1]
            player["came_from"] = plan.came_from
            events.append({"type": "moved", "seat": seat, "path": plan.path, "moves": plan.moves, "fees": fees})
            events += self._maybe_halve(state, seat)
        return events

    def no_loading_at(self, state: State, key: str | None) -> bool:
        """Whether a no-loading event covers the milepost ``key``."""
        if key is None:
            return False
        node = data.core().map.index[key]
        return any(e["kind"] == "no-loading" and e["status"] == "active" and data.event_area(e["card"]).has(node)
                   for e in state["effects"])

    def pick_up_problem(self, state: State, seat: int, load: str) -> tuple[str, str] | None:
        player = state["players"][seat]
        if load not in data.loads():
            return "unknown-load", f"There is no load {load!r}."
        city = self.city_at(player["at"])
        if city is None:
            return "not-at-a-city", "Your train is not at a city."
        if load not in data.city_loads()[city]:
            return "not-here", f"{data.core().map.cities[city].name} has no {data.loads()[load]['name']}."
        if self.no_loading_at(state, player["at"]):
            return "no-loading", "No loads are picked up or delivered here now (an event)."
        if len(player["loads"]) >= self.capacity(state, seat):
            return "train-full", f"Your loco carries {self.capacity(state, seat)} loads and is full."
        if state["supply"][load] <= 0:
            return "none-left", f"Every {data.loads()[load]['name']} chip is on a train."
        return None

    def _pick_up(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_move_stage(state)
        load = command["load"]
        problem = self.pick_up_problem(state, seat, load)
        if problem:
            raise RulesError(*problem)
        state["players"][seat]["loads"].append(load)
        state["supply"][load] -= 1
        state["turn"]["acted"] = True
        return [{"type": "picked-up", "seat": seat, "load": load, "city": self.city_at(state["players"][seat]["at"])}]

    def _drop(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_move_stage(state)
        load = command["load"]
        player = state["players"][seat]
        city = self.city_at(player["at"])
        require(city is not None, "not-at-a-city", "Your train is not at a city.")
        require(load in player["loads"], "no-such-load", "Your train does not carry that load.")
        player["loads"].remove(load)
        state["supply"][load] += 1
        state["turn"]["acted"] = True
        return [{"type": "dropped", "seat": seat, "load": load, "city": city}]

    def deliver_problem(self, state: State, seat: int, card: str, index: int) -> tuple[str, str] | None:
        player = state["players"][seat]
        if card not in player["hand"]:
            return "not-in-hand", "That card is not in your hand."
        demand = data.demand_cards()[card]["demands"][index]
        if self.city_at(player["at"]) != demand["city"]:
            return "wrong-city", f"That demand is for {data.core().map.cities[demand['city']].name}."
        if demand["load"] not in player["loads"]:
            return "no-such-load", f"Your train carries no {data.loads()[demand['load']]['name']}."
        if self.no_loading_at(state, player["at"]):
            return "no-loading", "No loads are picked up or delivered here now (an event)."
        return None

    def _deliver(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_move_stage(state)
        card, index = command["card"], command["demand"]
        problem = self.deliver_problem(state, seat, card, index)
        if problem:
            raise RulesError(*problem)
        player = state["players"][seat]
        demand = data.demand_cards()[card]["demands"][index]
        player["loads"].remove(demand["load"])
        state["supply"][demand["load"]] += 1
        player["gold"] += demand["payout"]
        player["hand"].remove(card)
        state["discards"].append(card)
        state["turn"]["acted"] = True
        events: list[Event] = [{"type": "delivered", "seat": seat, "card": card, "demand": index,
                                "load": demand["load"], "city": demand["city"], "payout": demand["payout"]}]
        events += self._win_at_once(state)  # paid: the game may end before the card is replaced
        if state["finished"]:
            return events
        rng = Rng(state["rng"])
        events += self._draw_into_hand(state, seat, rng)
        state["rng"] = rng.state
        return events

    # cards and events

    @staticmethod
    def _pop(state: State, rng: Rng) -> str:
        if not state["deck"]:
            pile = sorted(state["discards"])
            rng.shuffle(pile)
            state["deck"], state["discards"] = pile, []
        require(bool(state["deck"]), "deck-empty", "There are no cards left to draw.")
        return state["deck"].pop()

    def _draw_into_hand(self, state: State, seat: int, rng: Rng, count: int = 1) -> list[Event]:
        """Draw ``count`` demand cards into ``seat``'s hand: each event card drawn on the way takes effect
        (published) and the draw goes on. The notes: an event "could end the game and make another player
        win" (the win is checked after each one: the draw stops there), and "could interrupt the turn and
        require the input of other players": when one asks for a decision (a lost load) the draw waits for
        the answers (``pending["draw"]``: the seat and the cards still owed; ``_choose_load_to_lose`` goes on)."""
        events: list[Event] = []
        state["draws"] += 1
        while count > 0:
            card = self._pop(state, rng)
            if card in data.events():
                events += self._trigger(state, seat, card)
                events += self._win_at_once(state)
                if state["finished"]:
                    return events
                if state.get("pending"):
                    state["pending"]["draw"] = {"seat": seat, "cards": count}
                    return events
                continue
            state["players"][seat]["hand"].append(card)
            events.append({"type": "card-drawn", "seat": seat})
            count -= 1
        return events

    def _trigger(self, state: State, seat: int, card: str) -> list[Event]:
        """An event card drawn by ``seat``: recorded in ``effects``; the kinds of APPLIED_EVENTS act now."""
        spec = data.events()[card]
        kind = spec["kind"]
        ends = None if spec["duration"] == "game" else {"seat": seat, "turn": state["players"][seat]["turns"] + 1}
        effect = {"card": card, "kind": kind, "params": spec["params"], "duration": spec["duration"],
                  "drawn_by": seat, "status": "active" if kind in APPLIED_EVENTS else "pending", "ends": ends}
        events: list[Event] = [{"type": "event-drawn", "seat": seat, "card": card, "kind": kind,
                                "status": effect["status"]}]
        links = state["rail"].setdefault("links", {})
        if kind == "open-bridge":
            links[PRISM_BRIDGE] = True
        elif kind == "suspend-magic":
            links[LEY_LINE] = False
            if state["options"]["prism_bridge"] == "until-strike" and links.get(PRISM_BRIDGE):
                links[PRISM_BRIDGE] = False
                for old in [e for e in state["effects"] if e["kind"] == "open-bridge"]:
                    state["effects"].remove(old)
                    state["discards"].append(old["card"])
                events.append({"type": "bridge-closed"})
        elif kind == "war-tax":
            paid = {}
            for p in state["players"]:
                tax = data.war_tax(p["gold"])
                p["gold"] -= tax
                paid[str(p["seat"])] = tax
            events.append({"type": "war-tax", "paid": paid})
        elif kind == "lose-turn":
            area = data.event_area(card)
            hit = seats_named(state, spec["params"].get("players", "in-area"), seat, area)
            for s in hit:
                state["players"][s]["lost_turns"] = state["players"][s].get("lost_turns", 0) + 1
            events.append({"type": "turns-lost", "card": card, "seats": hit})
        elif kind == "lose-load":
            area = data.event_area(card)
            count = spec["params"].get("loads", 1)
            asked = []
            for p in state["players"]:
                if not p["loads"] or not _in_area(state, p["seat"], area):
                    continue
                if count >= len(p["loads"]) or len(set(p["loads"])) == 1:
                    # No choice to make (every load goes, or they are all alike): taken at once, nobody asked.
                    for load in p["loads"][:count]:
                        p["loads"].remove(load)
                        state["supply"][load] += 1
                        events.append({"type": "load-lost", "seat": p["seat"], "load": load, "card": card,
                                       "chosen": False})
                    continue
                asked.append(p["seat"])
            if asked:
                pending = state.get("pending") or {"kind": "lose-load", "queue": [], "then": None}
                pending["queue"] += [{"seat": s, "card": card, "loads": count} for s in asked]
                state["pending"] = pending
            events.append({"type": "loads-to-lose", "card": card, "seats": asked})
        elif kind == "track-destroyed":
            area = data.event_area(card)
            rail = state["rail"]
            m = data.core().map
            gone = {key: owner for key, owner in sorted(rail["track"].items()) if area.touches(key)}
            for key in gone:
                a, b = m.edge_nodes[key]
                data.core().remove_section(rail, m.key(a), m.key(b), reserve=True)
            effect["sections"] = gone
            events.append({"type": "track-destroyed", "card": card, "sections": dict(gone)})
        elif kind == "ships-to-port":
            landed = {}
            for p in state["players"]:
                if p.get("sea_at"):
                    port = _nearest_port(p["sea_at"])
                    events += self._land(state, p["seat"], port)
                    landed[str(p["seat"])] = port
            events.append({"type": "ships-to-port", "landed": landed})
        if kind in ONCE_EVENTS:
            effect["status"] = "done"
        state["effects"].append(effect)
        if kind == "half-rate":
            events += self._maybe_halve(state, state["active"])
        return events

    def _expire(self, state: State, seat: int) -> list[Event]:
        """At the end of ``seat``'s turn: the effects that last until the end of its drawer's next turn."""
        turns = state["players"][seat]["turns"]
        events: list[Event] = []
        for effect in list(state["effects"]):
            ends = effect["ends"]
            if ends is None or ends["seat"] != seat or ends["turn"] != turns:
                continue
            if effect["status"] == "rebuild":  # the rebuild rights run out
                state["effects"].remove(effect)
                reserved = state["rail"].get("reserved", {})
                for key, owner in effect["sections"].items():
                    if reserved.get(key) == owner:
                        del reserved[key]
                events.append({"type": "rebuild-rights-over", "card": effect["card"]})
                continue
            state["discards"].append(effect["card"])
            if effect["kind"] == "track-destroyed" and effect.get("sections"):
                # The card is discarded; the owners may rebuild for REBUILD_TURNS more of the drawer's turns.
                effect["status"] = "rebuild"
                effect["ends"] = {"seat": seat, "turn": turns + effect["params"].get("rebuild_turns", REBUILD_TURNS)}
                events.append({"type": "event-over", "card": effect["card"], "kind": effect["kind"]})
                continue
            state["effects"].remove(effect)
            if effect["kind"] == "suspend-magic":
                state["rail"]["links"].pop(LEY_LINE, None)
            events.append({"type": "event-over", "card": effect["card"], "kind": effect["kind"]})
        return events

    def _discard_hand(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_move_stage(state)
        require(not state["turn"]["acted"], "already-acted",
                "Discarding your hand replaces the whole turn: you have already acted this turn.")
        player = state["players"][seat]
        count = len(player["hand"])
        state["discards"].extend(player["hand"])
        player["hand"] = []
        rng = Rng(state["rng"])
        events: list[Event] = [{"type": "hand-discarded", "seat": seat, "count": count}]
        events += self._draw_into_hand(state, seat, rng, count)
        state["rng"] = rng.state
        if state["finished"]:
            return events
        if state.get("pending"):  # the turn ends once the players asked have chosen and the hand is full
            state["pending"]["then"] = "end-turn"
            return events
        return events + self._end_turn(state, seat)

    def _choose_load_to_lose(self, state: State, seat: int, command: Command) -> list[Event]:
        pending = state["pending"]
        ask = pending["queue"][0]
        player = state["players"][seat]
        load = command["load"]
        require(load in player["loads"], "no-such-load", "Your train does not carry that load.")
        player["loads"].remove(load)
        state["supply"][load] += 1
        state["draws"] += 1  # another seat's choice: undo never takes it back
        events: list[Event] = [{"type": "load-lost", "seat": seat, "load": load, "card": ask["card"], "chosen": True}]
        ask["loads"] -= 1
        if ask["loads"] <= 0 or not player["loads"]:
            pending["queue"].pop(0)
        if pending["queue"]:
            return events
        state["pending"] = None
        draw = pending.get("draw")
        if draw:  # the drawer's draw waited for the answers: it goes on now
            rng = Rng(state["rng"])
            events += self._draw_into_hand(state, draw["seat"], rng, draw["cards"])
            state["rng"] = rng.state
            if state["finished"]:
                return events
            if state.get("pending"):  # another decision on the way: the turn's end waits for it too
                state["pending"]["then"] = pending.get("then")
                return events
        if pending.get("then") == "end-turn":
            events += self._end_turn(state, state["active"])
        return events

    # ships

    def board_problem(self, state: State, seat: int) -> tuple[str, str] | None:
        player = state["players"][seat]
        if state["phase"] != "play" or state["stage"] != "move":
            return "phase-over", "You can board a ship only while operating your train."
        if player.get("ship"):
            return "on-ship", "Your train is aboard a ship already."
        if player["at"] not in data.port_keys():
            return "not-at-port", "Your train is not at a port."
        if state["turn"].get("sailed"):
            return "sailed", "You have sailed this turn."
        if self.in_force(state, "no-boarding"):
            return "no-boarding", "Nobody boards or leaves a ship now (an event)."
        fee = _ability(state, seat).get("boarding_fee")
        if fee is None and player["gold"] < data.SHIP_MAX_BOARDING:
            return "cannot-pay", f"Boarding may cost up to {data.SHIP_MAX_BOARDING}; you hold {player['gold']}."
        if not (state.get("ship_deck") is None or state["ship_deck"] or state.get("ship_discards")):
            return "no-ships", "Every ship card is in use."
        return None

    @staticmethod
    def _draw_ship(state: State, rng: Rng) -> str | None:
        if state.get("ship_deck") is None:
            state["ship_deck"] = sorted(data.ships())
            state["ship_discards"] = []
            rng.shuffle(state["ship_deck"])
        if not state["ship_deck"] and state["ship_discards"]:
            state["ship_deck"] = sorted(state["ship_discards"])
            state["ship_discards"] = []
            rng.shuffle(state["ship_deck"])
        return state["ship_deck"].pop() if state["ship_deck"] else None

    def _board_ship(self, state: State, seat: int, command: Command) -> list[Event]:
        problem = self.board_problem(state, seat)
        if problem:
            raise RulesError(*problem)
        rng = Rng(state["rng"])
        draws = _ability(state, seat).get("ship_draws", 1)
        drawn = [c for c in (self._draw_ship(state, rng) for _ in range(draws)) if c is not None]
        state["rng"] = rng.state
        state["draws"] += 1
        state["turn"]["acted"] = True
        if draws > 1:
            state["ship_offer"] = {"seat": seat, "ships": drawn}
            return [{"type": "ships-drawn", "seat": seat, "count": len(drawn)}]
        return self._board(state, seat, drawn[0])

    def _choose_ship(self, state: State, seat: int, command: Command) -> list[Event]:
        offer = state.get("ship_offer")
        require(bool(offer), "no-choice", "There is no ship to choose now.")
        require(command["ship"] in offer["ships"], "not-offered", "Choose one of the ships you drew.")
        state["ship_offer"] = None
        state["ship_discards"].extend(c for c in offer["ships"] if c != command["ship"])
        return self._board(state, seat, command["ship"])

    def _board(self, state: State, seat: int, ship: str) -> list[Event]:
        player = state["players"][seat]
        fee = _ability(state, seat).get("boarding_fee", data.ships()[ship]["boarding_cost"])
        player["gold"] -= fee
        player["ship"] = ship
        player["came_from"] = None
        state["turn"]["boarded"] = True
        return [{"type": "boarded", "seat": seat, "ship": ship, "fee": fee, "at": player["at"]}]

    def sail_problem(self, state: State, seat: int, path: Any) -> tuple[str, str] | None:
        player = state["players"][seat]
        if state["phase"] != "play" or state["stage"] != "move":
            return "phase-over", "You can sail only while operating your train."
        if not player.get("ship"):
            return "no-ship", "Your train is not aboard a ship."
        if state["turn"].get("boarded"):
            return "just-boarded", "A ship sails on the turn after boarding."
        if state["turn"].get("sailed"):
            return "sailed", "A ship sails once a turn."
        keys = [",".join(str(x) for x in p) if isinstance(p, list) else str(p) for p in path]
        here = player.get("sea_at") or player["at"]
        if len(keys) < 2 or keys[0] != here:
            return "bad-path", f"A voyage starts where your ship is ({here}) and goes on."
        speed = data.ships()[player["ship"]]["speed"]
        if len(keys) - 1 > speed:
            return "too-far", f"Your ship sails {speed} sea points a turn."
        graph = data.sea_graph()
        ports = data.port_keys()
        for i, (a, b) in enumerate(zip(keys, keys[1:], strict=False)):
            if b not in graph.get(a, ()):
                return "not-adjacent", f"{a} and {b} are not neighbouring sea points."
            if b in ports and i + 2 < len(keys):
                return "bad-path", "Arriving at a port ends the voyage."
        if keys[-1] in ports and self.in_force(state, "no-boarding"):
            return "no-boarding", "Nobody boards or leaves a ship now (an event)."
        return None

    def _sail(self, state: State, seat: int, command: Command) -> list[Event]:
        path = command["path"]
        problem = self.sail_problem(state, seat, path)
        if problem:
            raise RulesError(*problem)
        keys = [",".join(str(x) for x in p) for p in path]
        player = state["players"][seat]
        state["turn"]["sailed"] = True
        state["turn"]["acted"] = True
        events: list[Event] = [{"type": "sailed", "seat": seat, "path": keys, "points": len(keys) - 1}]
        if keys[-1] in data.port_keys():
            return events + self._land(state, seat, keys[-1])
        player["at"] = None
        player["sea_at"] = keys[-1]
        return events

    @staticmethod
    def _land(state: State, seat: int, port: str) -> list[Event]:
        """The train comes ashore at ``port``; its ship card is discarded."""
        player = state["players"][seat]
        ship = player["ship"]
        state.setdefault("ship_discards", []).append(ship)
        player["ship"] = None
        player["sea_at"] = None
        player["at"] = port
        player["came_from"] = None
        return [{"type": "landed", "seat": seat, "ship": ship, "at": port}]

    def sail_steps(self, state: State, seat: int) -> list[Command]:
        player = state["players"][seat]
        if not player.get("ship") or state["active"] != seat or state.get("pending") or state.get("ship_offer"):
            return []
        here = player.get("sea_at") or player["at"]
        out: list[Command] = []
        for nb in data.sea_graph().get(here, ()):
            path = [[int(x) for x in here.split(",")], [int(x) for x in nb.split(",")]]
            if self.sail_problem(state, seat, path) is None:
                out.append({"cmd": "sail", "path": path})
        return out

    # turns

    def _end_turn_command(self, state: State, seat: int, command: Command) -> list[Event]:
        return self._end_turn(state, seat)

    def _begin_turn(self, state: State, seat: int) -> list[Event]:
        state["active"] = seat
        state["turn_no"] += 1
        state["turn"] = self._fresh_turn()
        state["players"][seat]["turns"] += 1
        data.core().start_turn(state["rail"], seat)
        state["stage"] = "build" if state["phase"] == "build" else "move"
        return [{"type": "turn-started", "seat": seat, "phase": state["phase"],
                 "build_round": self.build_round(state), "round": state["round"]}] + self._maybe_halve(state, seat)

    def _end_turn(self, state: State, seat: int) -> list[Event]:
        events: list[Event] = [{"type": "turn-ended", "seat": seat}]
        if state["phase"] == "build":
            state["build_step"] += 1
            if state["build_step"] < len(state["schedule"]):
                return events + self._begin_turn(state, state["schedule"][state["build_step"]])
            state["phase"] = "play"
            state["round"] = 1
            state["turn_index"] = 0
            events.append({"type": "build-rounds-over"})
            return events + self._begin_turn(state, state["order"][0])
        if state["options"].get("win_check", "at-once") == "own-turn-end" and self.qualifies(state, seat):
            return events + self._finish(state, [seat], "won")
        events += self._expire(state, seat)  # the Ley Line may reopen: the win is checked again
        events += self._win_at_once(state)
        if state["finished"]:
            return events
        while True:
            state["turn_index"] += 1
            if state["turn_index"] >= len(state["order"]):
                if round_limit_reached(state):  # option round_limit: the most gold wins
                    return events + self._finish(state, richest({p["seat"]: p["gold"] for p in state["players"]},
                                                                state["order"]), ROUND_LIMIT)
                state["turn_index"] = 0
                state["round"] += 1
            nxt = state["players"][state["order"][state["turn_index"]]]
            if not nxt.get("lost_turns"):
                break
            # A lost turn is skipped whole (no hand discard either); it counts as that player's turn.
            nxt["lost_turns"] -= 1
            nxt["turns"] += 1
            state["turn_no"] += 1
            events.append({"type": "turn-lost", "seat": nxt["seat"]})
            events += self._expire(state, nxt["seat"])
            events += self._win_at_once(state)
            if state["finished"]:
                return events
        return events + self._begin_turn(state, state["order"][state["turn_index"]])

    def qualifies(self, state: State, seat: int) -> bool:
        """The win: 7 of the 8 majors joined by one network (the Ley Line joins its two while open) and 250 gold."""
        if state["players"][seat]["gold"] < WIN_GOLD:
            return False
        return len(data.core().majors_connected(state["rail"], seat)) >= WIN_MAJORS

    def _win_at_once(self, state: State) -> list[Event]:
        """The win as the notes and the published rule have it (option ``win_check: at-once``): the first
        players to meet the goal win at once, whoever's turn it is — an event drawn by another player
        (the Prism Bridge), a delivery before its replacement card is drawn, tolls received. When one change
        lets several meet it together, option ``win_tie``: the most gold wins (equal gold: a shared win), or
        all share it. Nothing to do under ``own-turn-end`` (checked in ``_end_turn``)."""
        if state["finished"] or state["phase"] != "play" or state["options"].get("win_check", "at-once") != "at-once":
            return []
        met = [p["seat"] for p in state["players"] if self.qualifies(state, p["seat"])]
        if not met:
            return []
        if len(met) > 1 and state["options"].get("win_tie", "most-gold") == "most-gold":
            best = max(state["players"][s]["gold"] for s in met)
            met = [s for s in met if state["players"][s]["gold"] == best]
        return self._finish(state, met, "won")

    def _finish(self, state: State, winners: list[int], reason: str) -> list[Event]:
        state["pending"] = None  # the game is over: no decision is waited for any more
        state["finished"] = True
        state["phase"] = "finished"
        state["stage"] = "none"
        state["winners"] = winners
        state["end_reason"] = reason
        return [{"type": "game-over", "winners": winners, "reason": reason}]

    # -- what a seat may do ---------------------------------------------------------------------------

    def listing(self, state: State, *, seat: int | None) -> list[dict[str, Any]]:
        """Every command other than ``build`` and ``move`` that ``seat`` might send now, with its price and, when
        it cannot now, the reason ``apply`` would give (builds and moves are planned: :meth:`plan`)."""
        if seat is None or seat not in self.active_seats(state):
            return []
        out: list[dict[str, Any]] = []

        def add(command: Command, price: int = 0, problem: tuple[str, str] | None = None) -> None:
            out.append({"command": command, "price": price, "reason": problem[1] if problem else None})

        player = state["players"][seat]
        if state.get("pending"):
            for load in sorted(set(player["loads"])):
                add({"cmd": "choose-load-to-lose", "load": load})
            return out
        if state["hire"] is not None:
            for f in (state["hire"]["drawn"], player["foreman"]):
                add({"cmd": "keep-foreman", "foreman": f})
            return out
        if state["phase"] == "draft":
            for f in state["draft"]["dealt"][str(seat)]:
                add({"cmd": "keep-foreman", "foreman": f})
            add({"cmd": "keep-foreman", "foreman": None}, 0, self.keep_problem(state, seat, None))
            return out
        if state.get("ship_offer"):
            for ship in state["ship_offer"]["ships"]:
                add({"cmd": "choose-ship", "ship": ship})
            return out
        if state["phase"] == "play" and state["stage"] == "move":
            if player["at"] in data.port_keys() and not player.get("ship"):
                fee = _ability(state, seat).get("boarding_fee", data.SHIP_MAX_BOARDING)
                add({"cmd": "board-ship"}, fee, self.board_problem(state, seat))
            if player["at"] is None and not player.get("sea_at"):
                m = data.core().map
                for city in sorted(m.cities):
                    add({"cmd": "place-train", "at": m.address(m.cities[city].nodes[0])})
            elif player["at"] is not None:
                city = self.city_at(player["at"])
                if city is not None:
                    for load in data.city_loads()[city]:
                        add({"cmd": "pick-up", "load": load}, 0, self.pick_up_problem(state, seat, load))
                    for load in sorted(set(player["loads"])):
                        add({"cmd": "drop", "load": load})
                for card in player["hand"]:
                    for i, demand in enumerate(data.demand_cards()[card]["demands"]):
                        if demand["city"] == city and demand["load"] in player["loads"]:
                            add({"cmd": "deliver", "card": card, "demand": i})
            if not state["turn"]["acted"]:
                add({"cmd": "discard-hand"})
        hiring = data.hiring()
        for source in ("deck", "discard"):
            add({"cmd": "hire-foreman", "mode": "draw", "source": source}, hiring["draw"],
                self.hire_problem(state, seat, "draw", source, None))
        for f in sorted(set(state["foreman_deck"]) | set(state["foreman_discards"])):
            add({"cmd": "hire-foreman", "mode": "choose", "foreman": f}, hiring["choose"],
                self.hire_problem(state, seat, "choose", None, f))
        level = data.locos()[player["loco"]]["level"]
        for to, spec in data.locos().items():
            if level < spec["level"] <= level + 2:
                add({"cmd": "upgrade", "loco": to}, data.upgrade_rules()["cost_per_level"] * (spec["level"] - level),
                    self.upgrade_problem(state, seat, to))
        add({"cmd": "end-turn"})
        return out

    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        """Every command ``seat`` may send now. Builds are listed one section at a time (every affordable
        legal section from where building may start) and moves one step at a time; longer ones are legal too."""
        if seat not in self.active_seats(state):
            return []
        out = [e["command"] for e in self.listing(state, seat=seat) if e["reason"] is None]
        if (state["phase"] in ("build", "play") and state["hire"] is None and not state.get("pending")
                and not state.get("ship_offer")):
            out.extend(self.section_builds(state, seat))
            out.extend(self.step_moves(state, seat))
            out.extend(self.sail_steps(state, seat))
        return out

    def section_builds(self, state: State, seat: int) -> list[Command]:
        budget = self.budget_left(state, seat)
        if budget <= 0 or (state["phase"] == "build" and state["turn"]["upgraded"]):
            return []
        core, rail = data.core(), state["rail"]
        m = core.map
        hooks = self.hooks(state)
        out: list[Command] = []
        for u in core.build_starts(rail, seat):
            for nb in m.adjacency[u]:
                if nb.link is not None or rail["track"].get(nb.key) is not None or m.is_internal(u, nb.node):
                    continue
                cost = core.section_cost(rail, seat, m.key(u), m.key(nb.node), hooks=hooks)
                if cost is None or cost > budget:
                    continue
                path = [m.address(u), m.address(nb.node)]
                try:
                    self.check_build(state, seat, path, hooks)
                except RulesError:
                    continue
                out.append({"cmd": "build", "path": path})
        return out

    def step_moves(self, state: State, seat: int) -> list[Command]:
        player = state["players"][seat]
        if player["at"] is None or self.moves_left(state, seat) <= 0:
            return []
        m = data.core().map
        here = m.find(player["at"])
        hooks = self.hooks(state)
        out: list[Command] = []
        for nb in m.adjacency[here]:
            path = [m.address(here), m.address(nb.node)]
            try:
                self.check_move(state, seat, path, hooks)
            except RulesError:
                continue
            out.append({"cmd": "move", "path": path})
        return out

    @staticmethod
    def pending_view(state: State, seat: int | None) -> dict[str, Any] | None:
        """The decision waited for: who is asked (in order), and what is asked of ``seat`` if anything."""
        pending = state.get("pending")
        if not pending:
            return None
        queue = [dict(q) for q in pending["queue"]]
        head = queue[0]
        yours = None
        if seat is not None and seat == head["seat"]:
            yours = {"ask": "choose-load-to-lose", "card": head["card"], "loads": head["loads"],
                     "choices": sorted(set(state["players"][seat]["loads"]))}
        return {"kind": pending["kind"], "seat": head["seat"], "queue": queue, "yours": yours}

    @staticmethod
    def _effect_view(effect: dict[str, Any]) -> dict[str, Any]:
        """An effect as pages see it: its end also as the normal round in which the drawer's turn ``ends.turn``
        is played (every player plays one turn a round, a lost one too, after the build rounds' turns)."""
        out = dict(effect)
        if effect.get("ends"):
            out["ends"] = {**effect["ends"], "round": effect["ends"]["turn"] - BUILD_ROUNDS}
        return out

    def content(self) -> dict[str, Any]:
        return data.content()

    # -- planning (for pages and bots; changes nothing) ----------------------------------------------

    def plan(self, state: State, *, seat: int, request: dict[str, Any]) -> dict[str, Any]:
        """Plan a build through the tapped mileposts, or a move to one (Resourceful Rails' ``plan``).

        ``{"plan": "build", "points": [[l,q,r], ...]}`` (the first point may be null: from anywhere building may
        start) → the cheapest legal build through them with this seat's foreman and bribes, its cost, what is
        left this turn, and the command; ``{"plan": "move", "to": [l,q,r]}`` → the fastest legal move there within
        the train's movement, with tolls and bribes; ``{"plan": "sail", "to": [0,q,r]}`` (a port or a sea point)
        → the fewest sea points there, the turns it takes and the command for this turn's leg (up to the ship's
        speed; ``reason`` says why it cannot be sent now, else null). Raises RulesError when there is none."""
        require(not state["finished"], "game-over", "The game is over.")
        require(seat == state["active"], "not-your-turn", "It is not your turn.")
        require(not state.get("pending"), "decision-pending", "Waiting for a load to be chosen.")
        require(not state.get("ship_offer"), "choose-ship", "First choose the ship you board.")
        core, rail = data.core(), state["rail"]
        m = core.map
        player = state["players"][seat]
        hooks = self.hooks(state)
        what = request.get("plan")
        if what == "build":
            points = request.get("points")
            require(isinstance(points, list) and 1 <= len(points) <= 50, "invalid-plan",
                    "A build plan needs 1 to 50 points.")
            require(state["stage"] in ("move", "build") and state["hire"] is None, "phase-over",
                    "You cannot build now.")
            budget = self.budget_left(state, seat)
            pts = points if len(points) > 1 or points[0] is None else [None, *points]
            plan = core.plan_build_through(rail, seat, pts, hooks=hooks)
            require(plan is not None, "no-path", "No legal build reaches there.")
            assert plan is not None
            return {"plan": "build", "path": plan.path, "sections": plan.sections, "costs": plan.costs,
                    "bribe": plan.fee, "cost": plan.cost, "budget": budget, "affordable": plan.cost <= budget,
                    "command": {"cmd": "build", "path": [m.address(m.find(k)) for k in plan.path]}}
        if what == "move":
            require(state["phase"] == "play" and state["stage"] == "move" and state["hire"] is None,
                    "phase-over", "You cannot move now.")
            require(player["at"] is not None, "no-train", "Place your train on a city first.")
            left = self.moves_left(state, seat)
            mv = core.plan_move(rail, seat, player["at"], request.get("to"), moves_left=left, cash=player["gold"],
                                came_from=player["came_from"], hooks=hooks)
            require(mv is not None, "no-path", "Your train cannot get there this turn.")
            assert mv is not None
            try:  # a half-rate area on the way halves what is left there: the planner does not know it
                pieces = self.check_move(state, seat, list(mv.path), hooks)
            except RulesError:
                raise RulesError("no-path", "Your train cannot get there this turn.") from None
            fees = [f for piece in pieces for f in piece.fees]
            return {"plan": "move", "path": mv.path, "moves": sum(piece.moves for piece in pieces), "moves_left": left,
                    "fees": [{"kind": f["id"].split(":")[0], "payee": f["payee"], "amount": f["amount"]}
                             for f in fees],
                    "fee_total": sum(f["amount"] for f in fees),
                    "command": {"cmd": "move", "path": [m.address(m.find(k)) for k in mv.path]}}
        if what == "sail":
            require(player.get("ship") is not None, "no-ship", "Your train is not aboard a ship.")
            here = player.get("sea_at") or player["at"]
            to = request.get("to")
            target = ",".join(str(x) for x in to) if isinstance(to, list) else str(to)
            route = _sea_route(here, target)
            require(route is not None, "no-path", "No voyage reaches there.")
            assert route is not None
            speed = data.ships()[player["ship"]]["speed"]
            leg = route[:speed + 1]
            command = {"cmd": "sail", "path": [[int(x) for x in k.split(",")] for k in leg]}
            problem = self.sail_problem(state, seat, command["path"])
            return {"plan": "sail", "route": route, "points": len(route) - 1, "speed": speed,
                    "arrives": len(route) - 1 <= speed, "turns": -(-(len(route) - 1) // speed),
                    "reason": problem[1] if problem else None, "command": command}
        raise RulesError("invalid-plan", "Ask for a 'build', a 'move' or a 'sail' plan.")

    # -- views -------------------------------------------------------------------------------------------

    def secrets(self, state: State) -> dict[int | None, list[dict[str, Any]]]:
        """Each hand, the foremen dealt to a seat in the draft, the foreman drawn in a pending hire and the
        Halfling's ships drawn (every such id is unique text); the decks' next three cards."""
        out: dict[int | None, list[Any]] = {p["seat"]: list(p["hand"]) for p in state["players"]}
        if state["draft"] is not None:
            for seat, dealt in state["draft"]["dealt"].items():
                out[int(seat)] += dealt
        if state["hire"] is not None:
            out[state["hire"]["seat"]].append(state["hire"]["drawn"])
        if state.get("ship_offer"):
            out[state["ship_offer"]["seat"]] += state["ship_offer"]["ships"]
        # the foreman deck's cards are public (any may be chosen), only their order is not: the seed keeps it
        out[None] = [*state["deck"][-3:], *(state.get("ship_deck") or [])[-3:]]
        return {seat: [{"*": i} for i in ids if i is not None] for seat, ids in out.items()}

    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        core = data.core()
        active = None if state["finished"] else state["active"]
        players = []
        for p in state["players"]:
            s = p["seat"]
            players.append({
                "seat": s, "name": p["name"], "color": p["color"], "gold": p["gold"], "foreman": p["foreman"],
                "loco": p["loco"], "speed": self.speed(state, s), "capacity": self.capacity(state, s),
                "at": p["at"], "came_from": p["came_from"], "loads": list(p["loads"]),
                "hand_size": len(p["hand"]),
                "hand": [data.demand_cards()[c] for c in p["hand"]] if seat == s else None,
                "majors": core.majors_connected(state["rail"], s),
                "lost_turns": p.get("lost_turns", 0),
                "ship": p.get("ship"), "sea_at": p.get("sea_at"),
                "sections": sum(1 for o in state["rail"]["track"].values() if o == s),
            })
        draft = None
        if state["draft"] is not None:
            d = state["draft"]
            draft = {"deal": d["deal"], "queue": list(d["queue"]),
                     "dealt_counts": {k: len(v) for k, v in d["dealt"].items()},
                     "yours": list(d["dealt"].get(str(seat), [])) if seat is not None else None}
        hire = None
        if state["hire"] is not None:
            h = state["hire"]
            hire = {"seat": h["seat"], "source": h["source"], "drawn": h["drawn"] if seat == h["seat"] else None}
        turn_fees = state["rail"]["turn"].get("fees_paid", [])
        links = {link.name: core.link_open(state["rail"], link) for link in core.map.link_groups}
        return {
            "kind": KIND,
            "phase": state["phase"],
            "stage": state["stage"],
            "build_round": self.build_round(state),
            "build_rounds": BUILD_ROUNDS,
            "round": state["round"],
            "order": list(state["order"]),
            "active_seat": active,
            "you": seat,
            "turn": {
                "seat": active,
                "spent": state["turn"]["spent"],
                "budget_left": self.budget_left(state, active),
                "moves_used": state["turn"]["moves_used"],
                "moves_left": self.moves_left(state, active),
                "acted": state["turn"]["acted"],
                "tolls_paid": [int(f.split(":")[1]) for f in turn_fees if f.startswith("toll:")],
                "move_bribe_paid": "bribe" in turn_fees,
                "build_bribe_paid": state["turn"]["build_bribe_paid"],
                "half_rate": state["turn"].get("half_from") is not None,
            },
            "draft": draft,
            "hire": hire,
            "players": players,
            "track": dict(state["rail"]["track"]),
            "links": links,
            "effects": [self._effect_view(e) for e in state["effects"]],
            "pending": self.pending_view(state, seat),
            "ship_offer": None if not state.get("ship_offer") else {
                "seat": state["ship_offer"]["seat"], "count": len(state["ship_offer"]["ships"]),
                "ships": list(state["ship_offer"]["ships"]) if seat == state["ship_offer"]["seat"] else None},
            "ship_deck_size": len(data.ships()) if state.get("ship_deck") is None else len(state["ship_deck"]),
            "ship_discards": list(state.get("ship_discards") or []),
            "rebuild_rights": dict(state["rail"].get("reserved", {})),
            "supply": dict(state["supply"]),
            "locos": dict(state["locos"]),
            "deck_size": len(state["deck"]),
            "discard_size": len(state["discards"]),
            "foreman_deck_size": len(state["foreman_deck"]),
            # what "choose" (5 gold) may take: the deck's cards, in no order (its order stays secret)
            "foreman_deck": sorted(state["foreman_deck"]),
            "foreman_discards": list(state["foreman_discards"]),
            "goal": {"majors": WIN_MAJORS, "gold": WIN_GOLD},
            "content_version": data.content()["version"],
            "options": dict(state["options"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "end_reason": state["end_reason"],
            "listing": self.listing(state, seat=seat),
        }

    def protocol_state(self, state: State, *, seat: int | None) -> dict[str, Any]:
        """get-state through POST /api: the notes' state document (protocol.py)."""
        from .protocol import protocol_state

        return protocol_state(self, state, seat=seat)

    # -- bots ----------------------------------------------------------------------------------------------

    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        from .bots import choose

        return choose(self, state, seat=seat, bot=bot, rng=rng)
