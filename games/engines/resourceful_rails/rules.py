"""Resourceful Rails: the rules engine on the shared rail core (pure Python, no Django).

Rules: ``shared/specs/resourceful-rails.md``; the choices where it is silent are in README.md.
The rail core (``../rail_core``) does track, building, moving, tolls and connectivity; this module
does turns, money, trains, goods, cards and the win.

State (plain JSON)::

    {"kind", "options", "rng", "order": [seats in turn order],
     "phase": "build" | "play" | "finished",
     "schedule": [seats of the build turns, snake order], "build_step": index into it,
     "round": normal round (0 in the build rounds), "turn_index": index into order,
     "turn_no": turns begun so far, "draws": cards drawn in play (undo never crosses one),
     "active": seat, "stage": "discard" | "move" | "build" | "none",
     "turn": {"spent", "moves_used", "acted"},
     "players": [{"seat", "name", "color", "cash", "train", "at", "came_from", "loads", "hand",
                  "must_discard", "placed_turn"}],
     "rail": the rail core's state, "deck": [card ids, drawn from the end], "discards": [...],
     "supply": {good: left}, "qualified": [seats], "finished", "winners", "end_reason"}
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Command, Engine, Event, Option, RulesError, State, places_from_winners, require
from ..rail_core.ending import ROUND_LIMIT, race_ranking, richest, round_limit_how, round_limit_reached
from ..rng import Rng, seed_state
from ..seat_colors import options_split, seat_colors
from . import data
from .commands import COMMANDS, VIEW_FIELDS
from .data import (
    BUILD_LIMIT,
    COLORS,
    HAND,
    HAND_EXTRA,
    START_CASH,
    START_CASH_EXTRA_BUILD,
    TRAINS,
    UPGRADE_COST,
    WIN_CASH,
    WIN_MAJORS,
)

KIND = "resourceful-rails"


def _map(state: State) -> str:
    """The board a game is played on (games set up before the option existed: the default one)."""
    return state["options"].get("map", data.DEFAULT_MAP)


def _key(core: Any, ref: Any) -> str:
    m = core.map
    return m.key(m.find(ref))


def _and(items: list[str]) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class ResourcefulRails(Engine):
    kind = KIND
    title = "Resourceful Rails"
    min_players = 2
    max_players = 6
    takes_seat_colors = True  # setup takes the waiting room's colours (seat_colors.py)
    bots = ("random", "planner")
    commands = COMMANDS
    view_fields = VIEW_FIELDS
    options = (
        Option("map", "choice", data.DEFAULT_MAP,
               "The board: the Pacific Northwest, or Juniper Basin (this project's own invented region).",
               choices=tuple(data.MAPS)),
        Option("turn_order", "choice", "random",
               "Turn order: random, or the order players sat down in the lobby (the host's custom order).",
               choices=("random", "seated")),
        Option("fast_trains", "bool", False, "Optional rule: every train is faster (9 becomes 12, 12 becomes 16)."),
        Option("extra_build_turn", "bool", False, "Optional rule: start with $60 and 3 build rounds instead of $50 and 2."),
        Option("extra_starting_cards", "bool", False,
               "Optional rule: start with 5 cards; everyone discards 2 when the build rounds end."),
        Option("build_round_upgrade", "bool", False,
               "Allow upgrading the train in the build rounds (the spec: build turns can only build)."),
        Option("win_timing", "choice", "at-once",
               "When a player has 6 major cities joined and $250 at the end of their turn: they win at once, "
               "or the round is finished and the richest of those who qualified wins.",
               choices=("at-once", "finish-round")),
        Option("goods_supply", "int", 3, "Loads of each good in the game (on trains and in the supply together).",
               min=1, max=9),
        Option("place_anywhere", "bool", False,
               "Place the train on any city, not only one your track reaches (the published rule)."),
        Option("round_limit", "int", 0,
               "End the game after this many normal rounds (0: no limit); then the most cash wins.",
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
                "bad-player-count", f"Resourceful Rails takes {self.min_players} to {self.max_players} players.")
        rng = Rng(seed_state(seed))
        seats = list(range(len(players)))
        order = list(seats)
        if options["turn_order"] == "random":
            rng.shuffle(order)
        deck = sorted(data.cards(options["map"]))
        rng.shuffle(deck)
        extra_cards = options["extra_starting_cards"]
        colors = seat_colors(list(COLORS), len(players), chosen)
        state: State = {
            "kind": KIND,
            "options": options,
            "rng": 0,
            "order": order,
            "phase": "build",
            "schedule": self._schedule(order, options),
            "build_step": 0,
            "round": 0,
            "turn_index": 0,
            "turn_no": 0,
            "draws": 0,
            "active": order[0],
            "stage": "build",
            "turn": {"spent": 0, "moves_used": 0, "acted": False},
            "players": [
                {
                    "seat": s,
                    "name": players[s],
                    "color": colors[s],
                    "cash": START_CASH_EXTRA_BUILD if options["extra_build_turn"] else START_CASH,
                    "train": "modest",
                    "at": None,
                    "came_from": None,
                    "loads": [],
                    "hand": [],
                    "must_discard": HAND_EXTRA - HAND if extra_cards else 0,
                }
                for s in seats
            ],
            "rail": data.core(options["map"]).new_state(seats),
            "deck": deck,
            "discards": [],
            "supply": {g: options["goods_supply"] for g in data.goods(options["map"])},
            "qualified": [],
            "finished": False,
            "winners": [],
            "end_reason": None,
        }
        for seat in order:
            for _ in range(HAND_EXTRA if extra_cards else HAND):
                state["players"][seat]["hand"].append(self._draw(state, rng))
        state["rng"] = rng.state
        self._begin_turn(state, order[0])
        return state

    @staticmethod
    def _schedule(order: list[int], options: dict[str, Any]) -> list[int]:
        """The build turns: the spec's snake (in order, then reversed), and a third round in order with the
        extra-build-turn rule (the notes' reading)."""
        rounds = [list(order), list(reversed(order))]
        if options["extra_build_turn"]:
            rounds.append(list(order))
        return [s for r in rounds for s in r]

    # -- reading the state -----------------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        return [] if state["finished"] else [state["active"]]

    def is_finished(self, state: State) -> bool:
        return bool(state["finished"])

    def standings(self, state: State) -> list[int]:
        """The rules name only the winners (``state["winners"]``): they are 1st, everyone else
        shares 2nd (the win is a race: nobody else is ranked)."""
        return places_from_winners(state["winners"], len(state["players"]))

    RESULT_COLUMNS = ("Major cities", "Cash")

    def result(self, state: State) -> dict[str, Any]:
        """The ending (README, "The ending"): how the winners won in one sentence, and every seat with its
        major cities joined by one network and its cash. Places are :meth:`standings`' (the winners 1st, the
        rest share 2nd); within a place the seats are listed by major cities joined, then cash. ``score`` is
        None: the race is won by reaching the goal, not by a total (the parts say how near each came)."""
        majors, ranking = race_ranking(data.core(_map(state)), state["rail"], places=self.standings(state),
                                       money={p["seat"]: p["cash"] for p in state["players"]}, money_label="Cash",
                                       by_money=state["end_reason"] == ROUND_LIMIT)
        return {"how": self._how(state, majors), "columns": list(self.RESULT_COLUMNS), "ranking": ranking}

    def _how(self, state: State, majors: dict[int, int]) -> str:
        winners = state["winners"]
        players = state["players"]

        def name(seat: int) -> str:
            return str(players[seat]["name"] or f"Seat {seat + 1}")

        names = _and([name(s) for s in winners])
        if state["end_reason"] == ROUND_LIMIT:
            amount = f"${players[winners[0]]['cash']:,}" if winners else "$0"
            return round_limit_how(names, len(winners) > 1, state["options"]["round_limit"], amount, "cash")
        if not winners:
            return ""
        goal = f"{WIN_MAJORS} major cities and ${WIN_CASH:,}"
        if len(winners) > 1:
            each = _and([f"{name(s)} ({majors[s]} major cities, ${players[s]['cash']:,})" for s in winners])
            return f"{each} reached the goal ({goal}) with the same cash and share the win."
        seat = winners[0]
        reached = (f"{names} joined {majors[seat]} major cities with one network of track "
                   f"and had ${players[seat]['cash']:,}")
        qualified = sum(1 for s in state["qualified"] if self.qualifies(state, s))  # as _end_turn counts them
        if qualified > 1:
            return f"{reached} at the end of the round: the most cash of the {qualified} players who reached the goal ({goal})."
        return f"{reached} at the end of a turn (the goal: {goal})."

    def turn_key(self, state: State) -> Any:
        # A new key at every turn and every card drawn: undo never brings back a card once seen.
        return [state["turn_no"], state["draws"]]

    @staticmethod
    def speed(state: State, seat: int) -> int:
        train = TRAINS[state["players"][seat]["train"]]
        return train["fast_speed"] if state["options"]["fast_trains"] else train["speed"]

    @staticmethod
    def capacity(state: State, seat: int) -> int:
        return TRAINS[state["players"][seat]["train"]]["capacity"]

    @staticmethod
    def build_left(state: State, seat: int) -> int:
        """What ``seat`` may still spend on building this turn (the $20 limit and their cash)."""
        if state["active"] != seat or state["stage"] not in ("move", "build"):
            return 0
        return max(0, min(BUILD_LIMIT - state["turn"]["spent"], state["players"][seat]["cash"]))

    @staticmethod
    def moves_left(state: State, seat: int) -> int:
        if state["active"] != seat or state["phase"] != "play" or state["stage"] != "move":
            return 0
        return max(0, ResourcefulRails.speed(state, seat) - state["turn"]["moves_used"])

    @staticmethod
    def city_at(key: str | None, map_id: str = data.DEFAULT_MAP) -> str | None:
        if key is None:
            return None
        m = data.core(map_id).map
        return m.nodes[m.find(key)].city

    # -- the rules -------------------------------------------------------------------------------------

    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        require(not state["finished"], "game-over", "The game is over.")
        require(seat is not None and seat == state["active"], "not-your-turn", "It is not your turn.")
        assert seat is not None
        name = command["cmd"]
        if name == "choose-color":
            return self._choose_color(state, seat, command["color"])
        if state["stage"] == "discard":
            require(name == "discard-cards", "discard-first",
                    f"First discard {state['players'][seat]['must_discard']} of your starting cards.")
        handler = {
            "build": self._build,
            "upgrade": self._upgrade,
            "place-train": self._place_train,
            "move": self._move,
            "pick-up": self._pick_up,
            "drop": self._drop,
            "deliver": self._deliver,
            "discard-cards": self._discard_cards,
            "discard-hand": self._discard_hand,
            "end-turn": self._end_turn_command,
        }[name]
        return handler(state, seat, command)

    def _choose_color(self, state: State, seat: int, color: str) -> list[Event]:
        require(state["phase"] == "build", "too-late", "Colours are chosen during the build rounds.")
        taken = {p["color"] for p in state["players"] if p["seat"] != seat}
        require(color not in taken, "color-taken", f"Another player has {color}.")
        state["players"][seat]["color"] = color
        return [{"type": "color-chosen", "seat": seat, "color": color}]

    def _require_play(self, state: State, stage: str = "move") -> None:
        require(state["phase"] == "play", "build-rounds-only-build",
                "In the build rounds you may only build track"
                + (" or upgrade your train." if state["options"].get("build_round_upgrade", False) else "."))
        if stage == "move":
            require(state["stage"] == "move", "phase-over", "You have built this turn: moving and loading are over.")

    # building and upgrading (phase 2; the whole of a build-round turn)

    def _build(self, state: State, seat: int, command: Command) -> list[Event]:
        core = data.core(_map(state))
        rail = state["rail"]
        plan = core.check_build(rail, seat, command["path"], budget=max(0, BUILD_LIMIT - state["turn"]["spent"]),
                                cash=state["players"][seat]["cash"])
        core.apply_build(rail, seat, plan)
        state["players"][seat]["cash"] -= plan.cost
        state["turn"]["spent"] += plan.cost
        state["turn"]["acted"] = True
        state["stage"] = "build"
        return [{"type": "built", "seat": seat, "path": plan.path, "sections": len(plan.sections),
                 "cost": plan.cost}]

    def _upgrade(self, state: State, seat: int, command: Command) -> list[Event]:
        player = state["players"][seat]
        to = command["train"]
        self.upgrade_problem(state, seat, to, raise_it=True)
        old = player["train"]
        player["train"] = to
        player["cash"] -= UPGRADE_COST
        state["turn"]["spent"] += UPGRADE_COST
        state["turn"]["acted"] = True
        state["stage"] = "build"
        return [{"type": "upgraded", "seat": seat, "from": old, "to": to, "cost": UPGRADE_COST}]

    def upgrade_problem(self, state: State, seat: int, to: str, *, raise_it: bool = False) -> tuple[str, str] | None:
        player = state["players"][seat]
        old = player["train"]
        problem = None
        if state["phase"] == "build" and not state["options"].get("build_round_upgrade", False):
            problem = ("build-rounds-only-build", "In the build rounds you may only build track.")
        elif to not in TRAINS[old]["upgrades"]:
            was, will = TRAINS[old]["name"].lower(), TRAINS[to]["name"].lower()
            problem = ("no-such-upgrade", f"{'An' if was[0] in 'aeiou' else 'A'} {was} train cannot become "
                                          f"{'an' if will[0] in 'aeiou' else 'a'} {will} one.")
        elif state["turn"]["spent"] > 0:
            problem = ("already-built", "An upgrade takes the whole build phase: you have built this turn.")
        elif player["cash"] < UPGRADE_COST:
            problem = ("cannot-afford", f"An upgrade costs ${UPGRADE_COST}; you have ${player['cash']}.")
        if problem and raise_it:
            raise RulesError(*problem)
        return problem

    # phase 1: the train

    def _place_train(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        player = state["players"][seat]
        require(player["at"] is None, "train-placed", "Your train is already on the map.")
        core = data.core(_map(state))
        key = _key(core, command["at"])
        problem = self.place_problem(state, seat, key)
        if problem:
            raise RulesError(*problem)
        player["at"] = key
        player["came_from"] = None
        state["turn"]["acted"] = True
        return [{"type": "train-placed", "seat": seat, "at": key, "city": self.city_at(key, _map(state))}]

    def place_problem(self, state: State, seat: int, key: str) -> tuple[str, str] | None:
        city = self.city_at(key, _map(state))
        if city is None:
            return "not-a-city", "A train is placed on a city."
        if state["options"]["place_anywhere"]:
            return None
        if city not in data.core(_map(state)).cities_reached(state["rail"], seat):
            name = data.core(_map(state)).map.cities[city].name
            return "no-track-there", f"Your track does not reach {name} yet."
        return None

    def _move(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        player = state["players"][seat]
        require(player["at"] is not None, "no-train", "Place your train on a city first.")
        core = data.core(_map(state))
        path = command["path"]
        require(_key(core, path[0]) == player["at"], "bad-path",
                f"A move starts where your train stands ({player['at']}).")
        plan = core.move(state["rail"], seat, path, moves_left=self.moves_left(state, seat), cash=player["cash"],
                         came_from=player["came_from"])
        tolls = plan.tolls
        for payee, amount in tolls.items():
            player["cash"] -= amount
            state["players"][payee]["cash"] += amount
        state["turn"]["moves_used"] += plan.moves
        state["turn"]["acted"] = True
        player["at"] = plan.path[-1]
        player["came_from"] = plan.came_from
        return [{"type": "moved", "seat": seat, "path": plan.path, "moves": plan.moves,
                 "tolls": [{"payee": p, "amount": a} for p, a in sorted(tolls.items())]}]

    def _here(self, state: State, seat: int) -> str:
        player = state["players"][seat]
        require(player["at"] is not None, "no-train", "Place your train on a city first.")
        city = self.city_at(player["at"], _map(state))
        require(city is not None, "not-at-a-city", "Your train is not at a city.")
        assert city is not None
        return city

    def _pick_up(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        good = command["good"]
        problem = self.pick_up_problem(state, seat, good)
        if problem:
            raise RulesError(*problem)
        city = self.city_at(state["players"][seat]["at"], _map(state))
        state["players"][seat]["loads"].append(good)
        state["supply"][good] -= 1
        state["turn"]["acted"] = True
        return [{"type": "picked-up", "seat": seat, "good": good, "city": city}]

    def pick_up_problem(self, state: State, seat: int, good: str) -> tuple[str, str] | None:
        player = state["players"][seat]
        if good not in data.goods(_map(state)):
            return "unknown-good", f"There is no good {good!r}."
        city = self.city_at(player["at"], _map(state))
        if city is None:
            return "not-at-a-city", "Your train is not at a city."
        if good not in data.city_goods(_map(state))[city]:
            return "not-here", f"{data.core(_map(state)).map.cities[city].name} has no {data.goods(_map(state))[good]['name']}."
        if len(player["loads"]) >= self.capacity(state, seat):
            return "train-full", f"Your train carries {self.capacity(state, seat)} loads and is full."
        if state["supply"][good] <= 0:
            return "none-left", f"Every load of {data.goods(_map(state))[good]['name']} is on a train."
        return None

    def _drop(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        good = command["good"]
        city = self._here(state, seat)
        player = state["players"][seat]
        require(good in player["loads"], "no-such-load", "Your train does not carry that good.")
        player["loads"].remove(good)
        state["supply"][good] += 1
        state["turn"]["acted"] = True
        return [{"type": "dropped", "seat": seat, "good": good, "city": city}]

    def _deliver(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        player = state["players"][seat]
        card_id, index = command["card"], command["demand"]
        problem = self.deliver_problem(state, seat, card_id, index)
        if problem:
            raise RulesError(*problem)
        demand = data.cards(_map(state))[card_id]["demands"][index]
        good, payout = demand["good"], demand["payout"]
        player["loads"].remove(good)
        state["supply"][good] += 1
        player["cash"] += payout
        player["hand"].remove(card_id)
        state["discards"].append(card_id)
        rng = Rng(state["rng"])
        player["hand"].append(self._draw(state, rng))
        state["rng"] = rng.state
        state["draws"] += 1
        state["turn"]["acted"] = True
        return [{"type": "delivered", "seat": seat, "card": card_id, "demand": index, "good": good,
                 "city": demand["city"], "payout": payout},
                {"type": "card-drawn", "seat": seat}]

    def deliver_problem(self, state: State, seat: int, card_id: int, index: int) -> tuple[str, str] | None:
        player = state["players"][seat]
        if card_id not in player["hand"]:
            return "not-in-hand", "That card is not in your hand."
        demand = data.cards(_map(state))[card_id]["demands"][index]
        city = self.city_at(player["at"], _map(state))
        if city != demand["city"]:
            return "wrong-city", f"That demand is for {data.core(_map(state)).map.cities[demand['city']].name}."
        if demand["good"] not in player["loads"]:
            return "no-such-load", f"Your train carries no {data.goods(_map(state))[demand['good']]['name']}."
        return None

    # cards

    def _draw(self, state: State, rng: Rng) -> int:
        if not state["deck"]:
            pile = sorted(state["discards"])
            rng.shuffle(pile)
            state["deck"], state["discards"] = pile, []
        require(bool(state["deck"]), "deck-empty", "There are no cards left to draw.")
        return state["deck"].pop()

    def _discard_cards(self, state: State, seat: int, command: Command) -> list[Event]:
        player = state["players"][seat]
        need = player["must_discard"]
        require(state["stage"] == "discard" and need > 0, "nothing-to-discard", "You have no cards to discard now.")
        ids = command["cards"]
        require(len(ids) == need, "discard-count", f"Discard exactly {need} cards.")
        require(all(c in player["hand"] for c in ids), "not-in-hand", "Discard only cards in your hand.")
        for c in ids:
            player["hand"].remove(c)
            state["discards"].append(c)
        player["must_discard"] = 0
        events: list[Event] = [{"type": "cards-discarded", "seat": seat, "count": len(ids)}]
        return events + self._next_discard_or_play(state)

    def _next_discard_or_play(self, state: State) -> list[Event]:
        """When the build rounds end: each player still holding extra starting cards discards down to 3, in
        turn order (the notes: 5 cards during the build rounds only); then the first normal turn begins."""
        for seat in state["order"]:
            need = state["players"][seat]["must_discard"]
            if need:
                state["active"] = seat
                state["turn_no"] += 1
                state["turn"] = {"spent": 0, "moves_used": 0, "acted": False}
                state["stage"] = "discard"
                return [{"type": "discard-started", "seat": seat, "count": need}]
        return self._begin_turn(state, state["order"][0])

    def _discard_hand(self, state: State, seat: int, command: Command) -> list[Event]:
        self._require_play(state)
        require(not state["turn"]["acted"], "already-acted",
                "Discarding your hand replaces the whole turn: you have already acted this turn.")
        player = state["players"][seat]
        count = len(player["hand"])
        state["discards"].extend(player["hand"])
        player["hand"] = []
        rng = Rng(state["rng"])
        for _ in range(count):
            player["hand"].append(self._draw(state, rng))
        state["rng"] = rng.state
        state["draws"] += 1
        events: list[Event] = [{"type": "hand-discarded", "seat": seat, "count": count}]
        return events + self._end_turn(state, seat)

    # turns

    def _end_turn_command(self, state: State, seat: int, command: Command) -> list[Event]:
        return self._end_turn(state, seat)

    def _begin_turn(self, state: State, seat: int) -> list[Event]:
        state["active"] = seat
        state["turn_no"] += 1
        state["turn"] = {"spent": 0, "moves_used": 0, "acted": False}
        data.core(_map(state)).start_turn(state["rail"], seat)
        state["stage"] = "build" if state["phase"] == "build" else "move"
        return [{"type": "turn-started", "seat": seat, "phase": state["phase"],
                 "build_round": self.build_round(state), "round": state["round"]}]

    def build_round(self, state: State) -> int:
        if state["phase"] != "build":
            return 0
        return state["build_step"] // len(state["order"]) + 1

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
            return events + self._next_discard_or_play(state)

        # the win check, at the end of the player's own turn
        if self.qualifies(state, seat) and seat not in state["qualified"]:
            state["qualified"].append(seat)
            events.append({"type": "qualified", "seat": seat, "cash": state["players"][seat]["cash"]})
            if state["options"]["win_timing"] == "at-once":
                return events + self._finish(state, [seat], "won")
        state["turn_index"] += 1
        if state["turn_index"] >= len(state["order"]):
            qualified = [s for s in state["qualified"] if self.qualifies(state, s)]
            if qualified:
                return events + self._finish(state, self._richest(state, qualified), "won")
            if round_limit_reached(state):
                return events + self._finish(state, self._richest(state, state["order"]), ROUND_LIMIT)
            state["turn_index"] = 0
            state["round"] += 1
        return events + self._begin_turn(state, state["order"][state["turn_index"]])

    @staticmethod
    def _richest(state: State, seats: list[int]) -> list[int]:
        return richest({p["seat"]: p["cash"] for p in state["players"]}, seats)

    def qualifies(self, state: State, seat: int) -> bool:
        if state["players"][seat]["cash"] < WIN_CASH:
            return False
        return len(data.core(_map(state)).majors_connected(state["rail"], seat)) >= WIN_MAJORS

    def _finish(self, state: State, winners: list[int], reason: str) -> list[Event]:
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
        if seat is None or state["finished"] or seat != state["active"]:
            return []
        out: list[dict[str, Any]] = []

        def add(command: Command, price: int = 0, problem: tuple[str, str] | None = None) -> None:
            out.append({"command": command, "price": price, "reason": problem[1] if problem else None})

        player = state["players"][seat]
        stage = state["stage"]
        if stage == "discard":
            add({"cmd": "discard-cards", "cards": []}, 0, None)
            return out
        if state["phase"] == "play" and stage == "move":
            if player["at"] is None:
                m = data.core(_map(state)).map
                for node in self.place_mileposts(state, seat):
                    add({"cmd": "place-train", "at": m.address(node)})
            else:
                city = self.city_at(player["at"], _map(state))
                if city is not None:
                    for good in data.city_goods(_map(state))[city]:
                        add({"cmd": "pick-up", "good": good}, 0, self.pick_up_problem(state, seat, good))
                    for good in sorted(set(player["loads"])):
                        add({"cmd": "drop", "good": good})
                for card_id in player["hand"]:
                    for i, demand in enumerate(data.cards(_map(state))[card_id]["demands"]):
                        if demand["city"] == city and demand["good"] in player["loads"]:
                            add({"cmd": "deliver", "card": card_id, "demand": i})
            if not state["turn"]["acted"]:
                add({"cmd": "discard-hand"})
        for to in TRAINS[player["train"]]["upgrades"]:
            add({"cmd": "upgrade", "train": to}, UPGRADE_COST, self.upgrade_problem(state, seat, to))
        add({"cmd": "end-turn"})
        return out

    def placeable_cities(self, state: State, seat: int) -> list[str]:
        core = data.core(_map(state))
        if state["options"]["place_anywhere"]:
            return list(core.map.cities)
        return core.cities_reached(state["rail"], seat)

    def place_mileposts(self, state: State, seat: int) -> list[int]:
        """Where the place-train control offers to put the train: in each city it may go to (by id), every
        milepost of it the seat's track reaches (a major city's track may arrive at several of its seven), so
        the train starts on its own track; a city without the seat's track (``place_anywhere``) offers its first
        milepost."""
        core = data.core(_map(state))
        m = core.map
        touched: set[int] = set()
        for key, owner in state["rail"]["track"].items():
            if owner == seat:
                touched.update(m.edge_nodes[key])
        out: list[int] = []
        for city in sorted(self.placeable_cities(state, seat)):
            nodes = m.cities[city].nodes
            out.extend(sorted(n for n in nodes if n in touched) or [nodes[0]])
        return out

    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        """Every command ``seat`` may send now. Builds are listed one section at a time (every affordable
        legal section from where building may start) and moves one step at a time; longer ones are legal too."""
        if state["finished"] or seat != state["active"]:
            return []
        if state["stage"] == "discard":
            hand = state["players"][seat]["hand"]
            return [{"cmd": "discard-cards", "cards": hand[:state["players"][seat]["must_discard"]]}]
        out = [e["command"] for e in self.listing(state, seat=seat) if e["reason"] is None]
        out.extend(self.section_builds(state, seat))
        out.extend(self.step_moves(state, seat))
        return out

    def section_builds(self, state: State, seat: int) -> list[Command]:
        budget = self.build_left(state, seat)
        if budget <= 0:
            return []
        core, rail = data.core(_map(state)), state["rail"]
        m = core.map
        out: list[Command] = []
        for u in core.build_starts(rail, seat):
            for nb in m.adjacency[u]:
                if rail["track"].get(nb.key) is not None or m.is_internal(u, nb.node):
                    continue
                cost = core.section_cost(rail, seat, m.key(u), m.key(nb.node))
                if cost is None or cost > budget:
                    continue
                path = [m.address(u), m.address(nb.node)]
                try:
                    core.check_build(rail, seat, path, budget=budget)
                except RulesError:
                    continue
                out.append({"cmd": "build", "path": path})
        return out

    def step_moves(self, state: State, seat: int) -> list[Command]:
        player = state["players"][seat]
        left = self.moves_left(state, seat)
        if player["at"] is None or left <= 0:
            return []
        core, rail = data.core(_map(state)), state["rail"]
        m = core.map
        here = m.find(player["at"])
        out: list[Command] = []
        for nb in m.adjacency[here]:
            path = [m.address(here), m.address(nb.node)]
            try:
                core.check_move(rail, seat, path, moves_left=left, cash=player["cash"], came_from=player["came_from"])
            except RulesError:
                continue
            out.append({"cmd": "move", "path": path})
        return out

    maps = tuple(data.MAPS)

    def content(self, map_id: str = data.DEFAULT_MAP) -> dict[str, Any]:
        """The map, goods, trains and colours pages draw with (GET /api/kinds/resourceful-rails/content; a board
        other than the default: ``?map=<id>``, the game's option ``map``)."""
        return data.content(map_id)

    # -- planning (for pages and bots; changes nothing) ----------------------------------------------

    def plan(self, state: State, *, seat: int, request: dict[str, Any]) -> dict[str, Any]:
        """Plan a build through the tapped mileposts, or a move to one: what the page shows before confirm.

        ``{"plan": "build", "points": [[l,q,r], ...]}`` (the first point may be null: from anywhere building may
        start) → the cheapest legal build through them, its cost, what is left this turn, and the command; or
        ``{"plan": "move", "to": [l,q,r]}`` → the fastest legal move there within the train's movement, with
        tolls. Raises RulesError when there is none."""
        require(not state["finished"], "game-over", "The game is over.")
        require(seat == state["active"], "not-your-turn", "It is not your turn.")
        core, rail = data.core(_map(state)), state["rail"]
        player = state["players"][seat]
        what = request.get("plan")
        if what == "build":
            points = request.get("points")
            require(isinstance(points, list) and 1 <= len(points) <= 50, "invalid-plan",
                    "A build plan needs 1 to 50 points.")
            require(state["stage"] in ("move", "build"), "phase-over", "You cannot build now.")
            budget = self.build_left(state, seat)
            pts = points if len(points) > 1 or points[0] is None else [None, *points]
            plan = core.plan_build_through(rail, seat, pts)
            require(plan is not None, "no-path", "No legal build reaches there.")
            assert plan is not None
            return {"plan": "build", "path": plan.path, "sections": plan.sections, "costs": plan.costs,
                    "cost": plan.cost, "budget": budget, "affordable": plan.cost <= budget,
                    "command": {"cmd": "build", "path": [core.map.address(core.map.find(k)) for k in plan.path]}}
        if what == "move":
            require(state["phase"] == "play" and state["stage"] == "move", "phase-over", "You cannot move now.")
            require(player["at"] is not None, "no-train", "Place your train on a city first.")
            to = request.get("to")
            left = self.moves_left(state, seat)
            mv = core.plan_move(rail, seat, player["at"], to, moves_left=left, cash=player["cash"],
                                came_from=player["came_from"])
            require(mv is not None, "no-path", "Your train cannot get there this turn.")
            assert mv is not None
            return {"plan": "move", "path": mv.path, "moves": mv.moves, "moves_left": left,
                    "tolls": [{"payee": p, "amount": a} for p, a in sorted(mv.tolls.items())],
                    "fee_total": mv.fee_total,
                    "command": {"cmd": "move", "path": [core.map.address(core.map.find(k)) for k in mv.path]}}
        raise RulesError("invalid-plan", "Ask for a 'build' or a 'move' plan.")

    # -- views -------------------------------------------------------------------------------------------

    def secrets(self, state: State) -> dict[int | None, list[dict[str, Any]]]:
        """Each hand (its cards by id, and as the view shows them), and the deck's next three cards."""
        def probes(ids: list[int]) -> list[dict[str, Any]]:
            cards = data.cards(_map(state))
            return [p for c in ids for p in ({"card": c}, {"cards": c}, {"id": c, "demands": cards[c]["demands"]})]

        out: dict[int | None, list[dict[str, Any]]] = {p["seat"]: probes(p["hand"]) for p in state["players"]}
        out[None] = probes(state["deck"][-3:])
        return out

    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        core = data.core(_map(state))
        active = None if state["finished"] else state["active"]
        players = []
        for p in state["players"]:
            s = p["seat"]
            mine = seat == s
            players.append({
                "seat": s,
                "name": p["name"],
                "color": p["color"],
                "cash": p["cash"],
                "train": p["train"],
                "speed": self.speed(state, s),
                "capacity": self.capacity(state, s),
                "at": p["at"],
                "came_from": p["came_from"],
                "loads": list(p["loads"]),
                "hand_size": len(p["hand"]),
                "hand": [data.cards(_map(state))[c] for c in p["hand"]] if mine else None,
                "must_discard": p["must_discard"],
                "majors": core.majors_connected(state["rail"], s),
                "sections": sum(1 for o in state["rail"]["track"].values() if o == s),
            })
        return {
            "kind": KIND,
            "phase": state["phase"],
            "stage": state["stage"],
            "build_round": self.build_round(state),
            "round": state["round"],
            "order": list(state["order"]),
            "active_seat": active,
            "you": seat,
            "turn": {
                "seat": active,
                "spent": state["turn"]["spent"],
                "build_left": self.build_left(state, active) if active is not None else 0,
                "moves_used": state["turn"]["moves_used"],
                "moves_left": self.moves_left(state, active) if active is not None else 0,
                "acted": state["turn"]["acted"],
                "tolls_paid": [int(f.split(":")[1]) for f in state["rail"]["turn"].get("fees_paid", [])
                               if f.startswith("toll:")],
            },
            "players": players,
            "track": dict(state["rail"]["track"]),
            "supply": dict(state["supply"]),
            "deck_size": len(state["deck"]),
            "qualified": list(state["qualified"]),
            "goal": {"majors": WIN_MAJORS, "cash": WIN_CASH},
            "content_version": data.content(_map(state))["version"],
            "options": dict(state["options"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "end_reason": state["end_reason"],
            "listing": self.listing(state, seat=seat),
        }

    # -- bots ----------------------------------------------------------------------------------------------

    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        from .bots import choose

        return choose(self, state, seat=seat, bot=bot, rng=rng)
