"""Slipway's rules: the spec's five-step turn, the eight actions, outfitting, the shakedown cruise and
the end (README.md says every choice). Pure Python: the platform drives it through :class:`Slipway`.

The yard's placement check lives in ``yard.py`` and the canals' geometry and cruise paths in
``canal.py``; this module keeps the turn, the markets, the wheels, money and points.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ..base import Command, Engine, Event, Option, RulesError, State, places, require
from ..rng import Rng, seed_state
from . import canal, data, yard
from .commands import ACTIONS, COMMANDS, CREW, EQUIPMENT, ITEMS, VIEW_FIELDS

KIND = "slipway"
STATE_VERSION = 1
PARTS = ("bow", "middle", "stern")
SAFETY = ("lantern", "lifeboat", "lifebuoy")
NOT_YOUR_TURN = {"code": "not-your-turn", "message": "It is not your turn."}
RING_ACTIONS = {"equipment": "equipment_ring", "crew": "crew_ring"}
ACTION_NAMES = {
    "build": "Build ships", "canal": "Rent a canal", "commodity": "Purchase commodities",
    "equipment": "Manufacture equipment", "crew": "Recruit crew", "employee": "Hire an employee",
    "exchange": "Exchange commodities", "subsidy": "Receive subsidy",
}
# The command that performs each action.
ACTION_COMMAND = {
    "build": "build", "canal": "rent-canal", "commodity": "buy-commodity", "equipment": "manufacture",
    "crew": "recruit", "employee": "hire", "exchange": "exchange", "subsidy": "subsidy",
}
COMMAND_ACTION = {cmd: action for action, cmd in ACTION_COMMAND.items()}
CRUISE_LISTED = 40  # cruise paths listed per ship (the listing's size; any legal path is accepted)


def _cannot_afford(cost: int, money: int) -> dict[str, str]:
    return {"code": "cannot-afford", "message": f"That costs {_count(cost, 'coin')}; you have {money}."}


def _reason(exc: RulesError) -> dict[str, str]:
    return {"code": exc.code, "message": exc.message}


class Slipway(Engine):
    kind = KIND
    title = "Slipway"
    min_players = 2
    max_players = 4
    bots = ("random", "shipwright", "steam", "sails", "big-ships", "small-ships", "contracts", "traders", "riband")
    # The lobby's and a clock's bot: the all-round shipwright, not the last of the list (the single-focus bots
    # after it are for the balance tournament, and a player may still pick one)
    default_bot = "shipwright"
    commands = COMMANDS
    view_fields = VIEW_FIELDS
    options = (
        Option(
            "subsidy",
            "choice",
            "four-players",
            help='The Subsidy action tile: "four-players" (the spec: only with 4 players), "always", "never".',
            choices=("four-players", "always", "never"),
        ),
        Option(
            "stack_end",
            "choice",
            "immediate",
            help='When a ship part\'s stack runs out: "immediate" (the spec: the game ends after that turn) or '
            '"final-round" (the final actions and the final build follow, as at the queue\'s end).',
            choices=("immediate", "final-round"),
        ),
        Option(
            "choice_income",
            "choice",
            "counted",
            help='Whether an action can be chosen counts the income its tile pays: "counted" (the spec\'s turn '
            'order: the income of step 3 is in hand when the action is performed in step 4) or "ignored" (only '
            'the money held before the cube is placed).',
            choices=("counted", "ignored"),
        ),
        Option(
            "used_canals",
            "choice",
            "face-down",
            help='The stack of canal tiles a player\'s cruises left: "face-down" (the spec: everyone sees how many, '
            'no one is shown which) or "open" (everyone is shown its tiles).',
            choices=("face-down", "open"),
        ),
        Option(
            "two_player_cubes",
            "int",
            2,
            help="Cubes each player has in a 2-player game (the published rule: 2).",
            min=1,
            max=2,
        ),
    )

    # -- setup -------------------------------------------------------------------------------------------
    def setup(self, *, players: list[str], options: dict[str, Any], seed: int) -> State:
        options = self.normalize_options(options, stored=True)
        self.check_players_and_seed(players, seed)
        n = len(players)
        conf = data.setup()
        rng = Rng(seed_state(seed))
        actions = [a for a in conf["actions"] if a != "subsidy" or _subsidy_in(options["subsidy"], n)]
        rng.shuffle(actions)
        supply: dict[str, list[str]] = {}
        for part in PARTS:
            decks = []
            for deck in (1, 2):
                ids = sorted(t["id"] for t in data.ships().values() if t["part"] == part and t["deck"] == deck)
                rng.shuffle(ids)
                decks.append(ids)
            supply[part] = decks[0] + decks[1]  # drawn from the front: deck 1 first
        canal_supply = sorted(t for t in data.canals() if t != data.start_canal())
        rng.shuffle(canal_supply)
        goods_supply = sorted(data.goods())
        rng.shuffle(goods_supply)
        employee_supply = sorted(data.employees())
        rng.shuffle(employee_supply)
        contract_supply = sorted(data.contracts())
        rng.shuffle(contract_supply)
        wheels = data.wheels()
        order = list(range(n))
        rng.shuffle(order)
        cubes = options["two_player_cubes"] if n == 2 else int(conf["cubes"][str(n)])
        slots = conf["yard_slots"]
        state: State = {
            "version": STATE_VERSION,
            "kind": KIND,
            "options": options,
            "rng": 0,
            "phase": "play",
            "order": order,
            "turn_no": 0,
            "draws": 0,
            "track": [{"action": a, "cube": None} for a in actions],
            "timer": {"space": 0, "spaces": conf["timer_spaces"], "queue": int(conf["countdown"][str(n)]),
                      "removals": 0},
            "end": None,  # {"reason": "queue"|"stack", "after_seat": seat} once triggered
            "market": {part: [supply[part].pop(0) for _ in range(min(conf["ship_market_rows"], len(supply[part])))]
                       for part in PARTS},
            "supply": supply,
            "canal_market": [canal_supply.pop(0) for _ in range(conf["canal_market"])],
            "canal_supply": canal_supply,
            "goods_market": [goods_supply.pop(0) for _ in range(conf["goods_market"])],
            "goods_supply": goods_supply,
            "goods_discards": [],
            "employee_wheel": [
                [employee_supply.pop(0) if employee_supply else None for _ in range(wheels["employee_per_stop"])]
                for _ in range(wheels["employee_stops"])
            ],
            "employee_supply": employee_supply,
            "markers": {"equipment": 0, "crew": 0, "employee": 0, "price": 0},
            "players": [],
            "turn": None,
            "finished": False,
            "winners": [],
            "scores": None,
            "scrapped": [],  # ship tiles of ships lost on their cruise
        }
        for name in players:
            items = {item: 0 for item in ITEMS}
            for item in conf["start_items"]:
                items[item] += 1
            state["players"].append({
                "name": name,
                "money": conf["start_money"],
                "cubes": [],  # actions holding this player's cubes, oldest first
                "cube_count": cubes,
                "items": items,
                "goods": [],
                "employees": [],
                "contracts": [contract_supply.pop(0) for _ in range(conf["contracts_dealt"])],
                "discards_owed": 0,
                "yard": [None] * slots,
                "outfits": {},  # bow slot (as text) -> items put on that completed ship
                "canal": {"tiles": [{"x": 0, "y": 0, "tile": data.start_canal(), "rotation": 0}], "token": None},
                "used_canals": [],
                "fleet": [],
                "lost": [],
            })
        state["contract_supply"] = contract_supply
        state["rng"] = rng.state
        self._start_turn(state, order[0], [])
        return state

    # -- queries -----------------------------------------------------------------------------------------
    def active_seats(self, state: State) -> list[int]:
        if state["finished"] or state["turn"] is None:
            return []
        return [state["turn"]["seat"]]

    def is_finished(self, state: State) -> bool:
        return state["finished"]

    def standings(self, state: State) -> list[int]:
        """The final scores (``state["scores"]``): most points, then most money; still tied:
        a shared place, as the win is shared."""
        key = {s["seat"]: (s["total"], s["money"]) for s in state["scores"]}
        return places([key[seat] for seat in range(len(state["players"]))])

    def turn_key(self, state: State) -> Any:
        # A new key at every turn and every tile drawn: undo never brings back a tile once seen.
        return [state["turn_no"], state["draws"]]

    @staticmethod
    def cells(player: dict[str, Any]) -> list[str | None]:
        """The yard as parts (what yard.py reads)."""
        ships = data.ships()
        return [None if t is None else ships[t]["part"] for t in player["yard"]]

    def completed(self, player: dict[str, Any]) -> list[tuple[int, int]]:
        return yard.completed_ships(self.cells(player), data.setup()["ship_max"])

    @staticmethod
    def _effects(player: dict[str, Any], kind: str) -> list[dict[str, Any]]:
        emp = data.employees()
        return [emp[e]["effect"] for e in player["employees"] if emp[e]["effect"]["type"] == kind]

    def free_steps(self, player: dict[str, Any], wheel: str) -> int:
        return sum(e["steps"] for e in self._effects(player, "mover") if e["wheel"] == wheel)

    def step_cost(self, player: dict[str, Any], wheel: str, steps: int) -> int:
        return max(0, steps - 1 - self.free_steps(player, wheel))

    def capacity(self, player: dict[str, Any], tiles: list[str]) -> dict[str, int]:
        """A ship's room: cabins, stoker cabins and mounts of its tiles, plus one of each builder's."""
        ships = data.ships()
        room = {"cabin": 0, "stoker_cabin": 0, "rig": 0, "crane": 0, "cannon": 0}
        for t in tiles:
            tile = ships[t]
            room["cabin"] += tile["cabins"]
            room["stoker_cabin"] += tile["stoker_cabins"]
            for mount, count in tile["mounts"].items():
                room[mount] += count
        for effect in self._effects(player, "builder"):
            room[effect["capacity"]] += 1
        return room

    @staticmethod
    def needs(items: list[str]) -> dict[str, int]:
        """The room a set of items takes (the first captain takes none)."""
        count = {item: items.count(item) for item in ITEMS}
        return {
            "cabin": max(0, count["captain"] - 1) + count["marine"] + count["merchant"],
            "stoker_cabin": count["stoker"],
            "rig": count["sail"] + count["smokestack"],
            "crane": count["crane"],
            "cannon": count["cannon"],
        }

    def speed(self, player: dict[str, Any], tiles: list[str], items: list[str]) -> int:
        """The spec's chart, plus the player's speed employees."""
        stokers, stacks, sails = items.count("stoker"), items.count("smokestack"), items.count("sail")
        if stokers >= 1 and stacks >= 1:
            base = 4 + (stokers - 1) + (stacks - 1) + sails
        else:
            base = 1 + sails + stokers + stacks // 2
        bonus = 0
        for effect in self._effects(player, "speed"):
            need = effect.get("needs")
            if (need is None or (need == "smokestack" and stacks) or (need == "sail" and sails)
                    or (need == "long" and len(tiles) >= 5)):
                bonus += effect["amount"]
        return base + bonus

    # -- the turn ----------------------------------------------------------------------------------------
    def _start_turn(self, state: State, seat: int, events: list[Event]) -> None:
        """Step 1 for ``seat`` (in the main game) and the turn's first stage."""
        state["turn_no"] += 1
        player = state["players"][seat]
        turn = {"seat": seat, "stage": "choose", "main": None, "main_done": False, "bonus": None,
                "bonus_done": False, "front": None, "cruised": 0}
        state["turn"] = turn
        phase = state["phase"]
        if phase == "play" and len(player["cubes"]) >= player["cube_count"]:
            action = player["cubes"].pop(0)
            track = state["track"]
            i = next(k for k, t in enumerate(track) if t["action"] == action)
            tile = track.pop(i)
            tile["cube"] = None
            track.append(tile)
            turn["front"] = action
            events.append({"type": "advanced", "seat": seat, "action": action})
            self._tick(state, events)
        if phase == "final-build":
            turn["stage"] = "final-build"
        elif player["discards_owed"] > 0:
            turn["stage"] = "discard"

    def _tick(self, state: State, events: list[Event]) -> None:
        """The timer advances one space; a full rotation removes a queue cube, or triggers the end."""
        timer = state["timer"]
        timer["space"] += 1
        if timer["space"] < timer["spaces"]:
            return
        timer["space"] = 0
        if state["end"] is not None:
            return
        if timer["queue"] > 0:
            timer["queue"] -= 1
            timer["removals"] += 1
            events.append({"type": "queue-cube-removed", "left": timer["queue"]})
            n = str(len(state["players"]))
            if timer["removals"] in data.setup()["discards"][n]:
                kept = data.setup()["contracts_kept"]
                for seat, p in enumerate(state["players"]):
                    if len(p["contracts"]) - p["discards_owed"] > kept:
                        p["discards_owed"] += 1
                        events.append({"type": "discard-owed", "seat": seat})
            return
        state["end"] = {"reason": "queue", "after_seat": state["order"][-1]}
        events.append({"type": "end-triggered", "reason": "queue"})

    def _end_turn(self, state: State, events: list[Event]) -> None:
        seat = state["turn"]["seat"]
        events.append({"type": "turn-ended", "seat": seat})
        order = state["order"]
        phase = state["phase"]
        nxt = order[(order.index(seat) + 1) % len(order)]
        if phase == "play":
            end = state["end"]
            if end is not None and end["reason"] == "stack":
                if state["options"]["stack_end"] == "immediate":
                    self._finish(state, events)
                    return
                self._enter(state, "final-action", events)
                return
            if end is not None and seat == end["after_seat"]:
                self._enter(state, "final-action", events)
                return
            self._start_turn(state, nxt, events)
            return
        if phase == "final-action":
            if seat == order[-1]:
                self._enter(state, "final-build", events)
                return
            self._start_turn(state, nxt, events)
            return
        # final-build: the next seat that can still complete a ship
        self._next_final_build(state, order.index(seat) + 1, events)

    def _enter(self, state: State, phase: str, events: list[Event]) -> None:
        state["phase"] = phase
        events.append({"type": "phase", "phase": phase})
        if phase == "final-action":
            self._start_turn(state, state["order"][0], events)
        else:
            self._next_final_build(state, 0, events)

    def _next_final_build(self, state: State, index: int, events: list[Event]) -> None:
        order = state["order"]
        for seat in order[index:]:
            if self._final_builds(state, seat):
                self._start_turn(state, seat, events)
                return
        self._finish(state, events)

    def _final_builds(self, state: State, seat: int) -> list[Command]:
        """The one-tile builds that complete one of ``seat``'s ships and that it can pay for."""
        player = state["players"][seat]
        ships = data.ships()
        out = []
        for slot, part in yard.one_short(self.cells(player), data.setup()["ship_max"]):
            for t in state["market"][part]:
                if ships[t]["cost"] <= player["money"]:
                    out.append({"cmd": "build", "tiles": [{"tile": t, "slot": slot}]})
        return out

    # -- apply -------------------------------------------------------------------------------------------
    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        require(not state["finished"], "game-finished", "The game is over.")
        turn = state["turn"]
        require(type(seat) is int and turn is not None and seat == turn["seat"], "not-your-turn",
                "It is not your turn.")
        name = command["cmd"]
        events: list[Event] = []
        stage = turn["stage"]
        if stage == "discard":
            require(name == "discard-contract", "discard-first",
                    "First discard a government contract (one is owed).")
            self._discard(state, seat, command["contract"], events)
            return events
        if name == "discard-contract":
            raise RulesError("no-discard-owed", "You owe no contract discard now.")
        if stage == "final-build":
            return self._apply_final_build(state, seat, command, events)
        require(name != "pass", "wrong-phase", "Passing is for the final build.")
        if stage == "choose":
            require(name == "choose", "choose-first", "First choose an action tile for your cube.")
            self._choose(state, seat, command["action"], events)
            return events
        require(name != "choose", "already-chosen", "You have chosen this turn's action.")
        if name == "bonus":
            self._bonus(state, seat, command["action"], events)
            self._forfeit_impossible(state, seat, events)
        elif name in COMMAND_ACTION:
            action = COMMAND_ACTION[name]
            role = self._open_role(turn, action)
            self._perform(state, seat, action, command, events, final_build=False)
            turn[f"{role}_done"] = True
            self._forfeit_impossible(state, seat, events)
        elif name == "outfit":
            self._outfit(state, seat, command["slot"], command["items"], events)
        elif name == "cruise":
            self._cruise(state, seat, command, events)
        else:  # end-turn
            self._check_can_end(state, seat)
            self._end_turn(state, events)
        return events

    def _forfeit_impossible(self, state: State, seat: int, events: list[Event]) -> None:
        """An open action that can no longer be performed (its money went on the other one) is forfeited, so
        a turn can always end (README, "The turn")."""
        turn = state["turn"]
        for role in ("main", "bonus"):
            action = turn[role]
            if action and not turn[f"{role}_done"] and self.cannot_perform(state, seat, action, spend=0) is not None:
                turn[f"{role}_done"] = True
                events.append({"type": "forfeited", "seat": seat, "action": action})

    def _apply_final_build(self, state: State, seat: int, command: Command, events: list[Event]) -> list[Event]:
        turn = state["turn"]
        name = command["cmd"]
        if name == "pass":
            require(not turn["main_done"], "already-built", "Your final build is made: send the ship on its cruise.")
            events.append({"type": "passed", "seat": seat})
            self._end_turn(state, events)
            return events
        if name == "build":
            require(not turn["main_done"], "already-built", "The final build is one tile.")
            self._perform(state, seat, "build", command, events, final_build=True)
            turn["main_done"] = True
            return events
        if name == "outfit":
            self._outfit(state, seat, command["slot"], command["items"], events)
            return events
        if name == "cruise":
            self._cruise(state, seat, command, events)
            return events
        raise RulesError("wrong-phase", "In the final build you may only complete a ship with one tile, or pass.")

    def _open_role(self, turn: dict[str, Any], action: str) -> str:
        """Whether an action command performs the main action or the bonus one (refused when neither is open)."""
        if turn["stage"] == "launch":
            raise RulesError("launching", "Your ships are on their cruises: the actions of this turn are over.")
        if turn["main"] == action and not turn["main_done"]:
            return "main"
        if turn["bonus"] == action and not turn["bonus_done"]:
            return "bonus"
        open_actions = [ACTION_NAMES[a] for a, done in ((turn["main"], turn["main_done"]),
                                                       (turn["bonus"], turn["bonus_done"])) if a and not done]
        if open_actions:
            raise RulesError("wrong-action", f"Your action to perform now is {' or '.join(open_actions)}.")
        raise RulesError("no-action-open", "You have no action left to perform this turn (a bonus action costs "
                                           f"{_count(data.setup()['bonus_cost'], 'coin')}).")

    def _discard(self, state: State, seat: int, contract: str, events: list[Event]) -> None:
        player = state["players"][seat]
        require(contract in player["contracts"], "unknown-contract", "You do not hold that contract.")
        player["contracts"].remove(contract)
        player["discards_owed"] -= 1
        events.append({"type": "contract-discarded", "seat": seat})
        if player["discards_owed"] == 0:
            state["turn"]["stage"] = "choose"

    def choosable(self, state: State, seat: int) -> dict[str, dict[str, str] | None]:
        """Each action tile's reason it cannot take this seat's cube now (None: it can)."""
        final = state["phase"] == "final-action"
        out = {tile["action"]: self._choice_problem(state, seat, tile["action"]) for tile in state["track"]}
        if not final and all(r is not None for r in out.values()):
            # Nothing can be performed: any free tile takes the cube and the action is forfeited (README).
            for action, reason in out.items():
                if reason is not None and reason["code"] not in ("tile-taken", "just-moved"):
                    out[action] = None
        return out

    def _choice_problem(self, state: State, seat: int, action: str) -> dict[str, str] | None:
        """Why ``action``'s tile cannot take the seat's cube (the forfeit aside); None: it can."""
        if state["phase"] != "final-action":
            tile = next(t for t in state["track"] if t["action"] == action)
            if tile["cube"] is not None:
                return {"code": "tile-taken", "message": f"{ACTION_NAMES[action]} has a cube on it."}
            if action == state["turn"]["front"]:
                return {"code": "just-moved", "message": f"You just moved {ACTION_NAMES[action]} to the front."}
            if state["options"].get("choice_income", "counted") == "counted":
                # step 3's income is paid before step 4's action: the money to perform it includes it
                return self.cannot_perform(state, seat, action, spend=-self.income(state, action))
        return self.cannot_perform(state, seat, action, spend=0)

    @staticmethod
    def income(state: State, action: str) -> int:
        """What a cube placed on ``action``'s tile earns: 1 per cube on the tiles nearer the front."""
        track = state["track"]
        i = next(k for k, t in enumerate(track) if t["action"] == action)
        return sum(1 for t in track[i + 1:] if t["cube"] is not None)

    def _choose(self, state: State, seat: int, action: str, events: list[Event]) -> None:
        turn = state["turn"]
        require(any(t["action"] == action for t in state["track"]), "no-such-action",
                f"{ACTION_NAMES[action]} is not in this game.")
        reason = self._choice_problem(state, seat, action)
        if reason is not None:
            # Only when the action itself cannot be performed, whether any free tile's can decides (the forfeit).
            reason = self.choosable(state, seat)[action]
        if reason is not None:
            raise RulesError(reason["code"], reason["message"])
        player = state["players"][seat]
        turn["main"] = action
        turn["stage"] = "act"
        if state["phase"] == "play":
            track = state["track"]
            i = next(k for k, t in enumerate(track) if t["action"] == action)
            ahead = self.income(state, action)
            track[i]["cube"] = seat
            player["cubes"].append(action)
            player["money"] += ahead
            events.append({"type": "chose", "seat": seat, "action": action, "income": ahead})
        else:
            events.append({"type": "chose", "seat": seat, "action": action, "income": 0})
        if self.cannot_perform(state, seat, action, spend=0) is not None:
            turn["main_done"] = True  # forfeited: nothing could be performed
            events.append({"type": "forfeited", "seat": seat, "action": action})

    def _bonus(self, state: State, seat: int, action: str, events: list[Event]) -> None:
        turn = state["turn"]
        cost = data.setup()["bonus_cost"]
        require(state["phase"] == "play", "no-bonus", "The final action has no bonus action.")
        require(turn["stage"] == "act", "launching", "Your ships are on their cruises: no bonus action now.")
        require(turn["bonus"] is None, "bonus-taken", "You have taken this turn's bonus action.")
        require(any(t["action"] == action for t in state["track"]), "no-such-action",
                f"{ACTION_NAMES[action]} is not in this game.")
        require(action != turn["main"], "same-as-main", "The bonus action must be another action than your main one.")
        player = state["players"][seat]
        require(player["money"] >= cost, "cannot-afford", f"A bonus action costs {_count(cost, 'coin')}; you have {player['money']}.")
        reason = self.cannot_perform(state, seat, action, spend=cost)
        if reason is not None:
            raise RulesError(reason["code"], reason["message"])
        player["money"] -= cost
        turn["bonus"] = action
        events.append({"type": "bonus", "seat": seat, "action": action, "cost": cost})

    def _check_can_end(self, state: State, seat: int) -> None:
        turn = state["turn"]
        require(turn["stage"] in ("act", "launch"), "choose-first", "First choose an action.")
        require(turn["main_done"], "act-first", f"First perform your action, {ACTION_NAMES[turn['main']]}.")
        require(turn["bonus"] is None or turn["bonus_done"], "act-first",
                f"First perform your bonus action, {ACTION_NAMES.get(turn['bonus'], '')}.")
        require(not self.completed(state["players"][seat]), "ships-to-launch",
                "Your completed ships must go on their cruise first.")

    # -- can an action be performed? --------------------------------------------------------------------
    def cannot_perform(self, state: State, seat: int, action: str, *, spend: int) -> dict[str, str] | None:
        """None when ``seat`` has a legal, affordable way to perform ``action`` after spending ``spend``;
        else the reason (what the spec's "you must be able to perform the chosen action" refuses)."""
        player = state["players"][seat]
        money = player["money"] - spend
        if action == "build":
            cells = self.cells(player)
            ship_max = data.setup()["ship_max"]
            ships = data.ships()
            affordable = False
            for part in PARTS:
                tiles = [t for t in state["market"][part] if ships[t]["cost"] <= money]
                if not tiles:
                    continue
                affordable = True
                for slot, cell in enumerate(cells):
                    if cell is None and yard.placement_problem(cells, [(slot, part)], ship_max) is None:
                        return None
            if not affordable:
                return {"code": "cannot-afford", "message": "You cannot pay for any ship tile in the market."}
            return {"code": "no-placement", "message": "No ship tile you can pay for fits your yard."}
        if action == "canal":
            defs = data.canals()
            affordable = [t for t in state["canal_market"] if defs[t]["cost"] <= money]
            if not affordable:
                return {"code": "cannot-afford", "message": "You cannot pay for any canal tile in the market."}
            if any(canal.can_place(player["canal"], defs, t) for t in affordable):
                return None
            return {"code": "no-placement", "message": "No canal tile you can pay for fits your canal system."}
        if action == "commodity":
            gd = data.goods()
            if not state["goods_market"]:
                return {"code": "market-empty", "message": "The commodity market is empty."}
            if any(gd[t]["cost"] <= money for t in state["goods_market"]):
                return None
            return {"code": "cannot-afford", "message": "You cannot pay for any commodity tile in the market."}
        if action in ("equipment", "crew", "subsidy"):
            return None
        if action == "employee":
            if self._hires(state, seat, money):
                return None
            return {"code": "no-employee", "message": "No employee on the wheel is one you may hire and pay for."}
        if action == "exchange":
            if player["goods"]:
                return None
            return {"code": "no-commodity", "message": "You have no commodity tile to exchange."}
        raise RulesError("no-such-action", f"There is no action {action!r}.")

    def _hires(self, state: State, seat: int, money: int) -> list[tuple[int, int, int]]:
        """(steps, choice, price) of every hire ``seat`` may make with ``money``."""
        player = state["players"][seat]
        stops = len(state["employee_wheel"])
        marker = state["markers"]["employee"]
        out = []
        for steps in range(1, stops + 1):
            stop = state["employee_wheel"][(marker + steps) % stops]
            for choice, emp in enumerate(stop):
                if emp is None or self._hire_problem(player, emp) is not None:
                    continue
                price = self.step_cost(player, "employee", steps) + data.employees()[emp]["cost"]
                if price <= money:
                    out.append((steps, choice, price))
        return out

    def _hire_problem(self, player: dict[str, Any], emp: str) -> tuple[str, str] | None:
        employees = data.employees()
        effect = employees[emp]["effect"]
        held = [employees[e]["effect"] for e in player["employees"]]
        if effect in held:
            return ("same-employee", f"You already have an employee who does what {employees[emp]['name']} does.")
        if effect["type"] == "trader" and effect["level"] > 1:
            if not any(h["type"] == "trader" and h["good"] == effect["good"] and h["level"] == effect["level"] - 1
                       for h in held):
                return ("trader-level", f"{employees[emp]['name']} needs the level {effect['level'] - 1} trader "
                                        f"of {data.kinds()[effect['good']]['name'].lower()} first.")
        return None

    # -- the actions -------------------------------------------------------------------------------------
    def _perform(self, state: State, seat: int, action: str, command: Command, events: list[Event], *,
                 final_build: bool) -> None:
        player = state["players"][seat]
        if action == "build":
            self._build(state, seat, command["tiles"], events, final_build=final_build)
        elif action == "canal":
            self._rent_canal(state, seat, command, events)
        elif action == "commodity":
            self._buy_commodity(state, seat, command["tile"], events)
        elif action in RING_ACTIONS:
            self._ring(state, seat, action, command["steps"], events)
        elif action == "employee":
            self._hire(state, seat, command["steps"], command["choice"], events)
        elif action == "exchange":
            self._exchange(state, seat, command["tile"], command["uses"], events)
        else:
            amount = data.setup()["subsidy"]
            player["money"] += amount
            events.append({"type": "subsidy", "seat": seat, "amount": amount})

    def _draw(self, state: State, pile: list[str]) -> str | None:
        if not pile:
            return None
        state["draws"] += 1
        return pile.pop(0)

    def _build(self, state: State, seat: int, wanted: list[dict[str, Any]], events: list[Event], *,
               final_build: bool) -> None:
        player = state["players"][seat]
        ships = data.ships()
        ship_max = data.setup()["ship_max"]
        market = state["market"]
        ids = [w["tile"] for w in wanted]
        require(len(set(ids)) == len(ids), "same-tile", "Each ship tile can be bought once.")
        for t in ids:
            require(t in ships and t in market[ships[t]["part"]], "not-in-market",
                    f"Ship tile {t} is not in the market.")
        cost = sum(ships[t]["cost"] for t in ids)
        require(cost <= player["money"], "cannot-afford", f"These tiles cost {_count(cost, 'coin')}; you have {player['money']}.")
        cells = self.cells(player)
        placements = [(w["slot"], ships[w["tile"]]["part"]) for w in wanted]
        if final_build:
            require(len(wanted) == 1, "final-build-one", "The final build is one tile that completes a ship.")
            require(placements[0] in yard.one_short(cells, ship_max), "final-build-complete",
                    "The final build's tile must complete a ship.")
        problem = yard.placement_problem(cells, placements, ship_max)
        if problem is not None:
            raise RulesError(*problem)
        player["money"] -= cost
        for w in wanted:
            part = ships[w["tile"]]["part"]
            market[part].remove(w["tile"])
            player["yard"][w["slot"]] = w["tile"]
        events.append({"type": "built", "seat": seat, "tiles": [dict(w) for w in wanted], "cost": cost})
        for part in PARTS:
            rows = data.setup()["ship_market_rows"]
            while len(market[part]) < rows and state["supply"][part]:
                market[part].append(self._draw(state, state["supply"][part]))
                if not state["supply"][part] and state["end"] is None and state["phase"] == "play":
                    state["end"] = {"reason": "stack", "after_seat": seat, "part": part}
                    events.append({"type": "end-triggered", "reason": "stack", "part": part})
        for first, last in self.completed(player):
            if any(first <= w["slot"] <= last for w in wanted):
                events.append({"type": "ship-completed", "seat": seat, "slot": first, "length": last - first + 1})

    def _rent_canal(self, state: State, seat: int, command: Command, events: list[Event]) -> None:
        player = state["players"][seat]
        defs = data.canals()
        tile = command["tile"]
        require(tile in state["canal_market"], "not-in-market", f"Canal tile {tile} is not in the market.")
        cost = defs[tile]["cost"]
        require(cost <= player["money"], "cannot-afford", f"That canal tile costs {_count(cost, 'coin')}; you have {player['money']}.")
        x, y, rotation = command["x"], command["y"], command["rotation"]
        problem = canal.placement_problem(player["canal"], defs, tile, x, y, rotation)
        if problem is not None:
            raise RulesError(*problem)
        player["money"] -= cost
        state["canal_market"].remove(tile)
        player["canal"]["tiles"].append({"x": x, "y": y, "tile": tile, "rotation": rotation})
        drawn = self._draw(state, state["canal_supply"])
        if drawn is not None:
            state["canal_market"].append(drawn)
        events.append({"type": "canal-rented", "seat": seat, "tile": tile, "x": x, "y": y, "rotation": rotation,
                       "cost": cost})

    def _buy_commodity(self, state: State, seat: int, tile: str, events: list[Event]) -> None:
        player = state["players"][seat]
        require(tile in state["goods_market"], "not-in-market", f"Commodity tile {tile} is not in the market.")
        cost = data.goods()[tile]["cost"]
        require(cost <= player["money"], "cannot-afford", f"That tile costs {_count(cost, 'coin')}; you have {player['money']}.")
        player["money"] -= cost
        state["goods_market"].remove(tile)
        player["goods"].append(tile)
        drawn = self._draw(state, state["goods_supply"])
        if drawn is None and state["goods_discards"]:
            # The supply is out: the exchanged tiles are shuffled into a new one.
            pile = sorted(state["goods_discards"])
            rng = Rng(state["rng"])
            rng.shuffle(pile)
            state["rng"] = rng.state
            state["goods_discards"] = []
            state["goods_supply"] = pile
            drawn = self._draw(state, state["goods_supply"])
        if drawn is not None:
            state["goods_market"].append(drawn)
        events.append({"type": "commodity-bought", "seat": seat, "tile": tile, "cost": cost})

    def _ring(self, state: State, seat: int, action: str, steps: int, events: list[Event]) -> None:
        player = state["players"][seat]
        ring = data.wheels()[RING_ACTIONS[action]]
        require(steps <= len(ring), "too-far", f"The wheel has {len(ring)} spaces.")
        cost = self.step_cost(player, action, steps)
        require(cost <= player["money"], "cannot-afford", f"{_count(steps, 'step')} cost {_count(cost, 'coin')}; you have {player['money']}.")
        player["money"] -= cost
        marker = (state["markers"][action] + steps) % len(ring)
        state["markers"][action] = marker
        got = [ring[marker]]
        kind = "engineer" if action == "equipment" else "recruiter"
        got += [e["item"] for e in self._effects(player, kind)]
        for item in got:
            player["items"][item] += 1
        events.append({"type": "manufactured" if action == "equipment" else "recruited", "seat": seat,
                       "items": got, "cost": cost})

    def _hire(self, state: State, seat: int, steps: int, choice: int, events: list[Event]) -> None:
        player = state["players"][seat]
        wheel = state["employee_wheel"]
        stops = len(wheel)
        require(steps <= stops, "too-far", f"The employee wheel has {stops} stops.")
        stop = (state["markers"]["employee"] + steps) % stops
        emp = wheel[stop][choice] if choice < len(wheel[stop]) else None
        require(emp is not None, "no-employee", "That place on the wheel is empty.")
        problem = self._hire_problem(player, emp)
        if problem is not None:
            raise RulesError(*problem)
        cost = self.step_cost(player, "employee", steps) + data.employees()[emp]["cost"]
        require(cost <= player["money"], "cannot-afford", f"That costs {_count(cost, 'coin')}; you have {player['money']}.")
        player["money"] -= cost
        state["markers"]["employee"] = stop
        player["employees"].append(emp)
        wheel[stop][choice] = self._draw(state, state["employee_supply"])
        events.append({"type": "hired", "seat": seat, "employee": emp, "cost": cost})

    def exchange_value(self, state: State, seat: int, kind: str, price_space: int) -> int:
        player = state["players"][seat]
        bonus = sum(e["price"] for e in self._effects(player, "trader") if e["good"] == kind)
        return data.price_ring()[price_space][kind] + bonus

    def _exchange(self, state: State, seat: int, tile: str, uses: list[str], events: list[Event]) -> None:
        player = state["players"][seat]
        require(tile in player["goods"], "not-yours", "You do not have that commodity tile.")
        goods = data.goods()[tile]["goods"]
        require(len(uses) == len(goods), "uses-count", f"That tile has {len(goods)} goods: say what each becomes.")
        traded = [u for u in uses if u != "sell"]
        require(len(set(traded)) == len(traded), "same-item", "Two goods of one exchange cannot buy the same item.")
        for kind, use in zip(goods, uses, strict=True):
            if use != "sell":
                require(use in data.kinds()[kind]["trades"], "not-tradable",
                        f"{data.kinds()[kind]['name']} cannot be traded for a {use}.")
        space = (state["markers"]["price"] + 1) % len(data.price_ring())
        state["markers"]["price"] = space
        income = 0
        for kind, use in zip(goods, uses, strict=True):
            if use == "sell":
                income += self.exchange_value(state, seat, kind, space)
            else:
                player["items"][use] += 1
        player["money"] += income
        player["goods"].remove(tile)
        state["goods_discards"].append(tile)
        events.append({"type": "exchanged", "seat": seat, "tile": tile, "uses": list(uses), "income": income})

    # -- outfitting and the cruise -----------------------------------------------------------------------
    def _completed_at(self, state: State, seat: int, slot: int) -> tuple[int, int]:
        player = state["players"][seat]
        ship = yard.ship_at(self.cells(player), slot, data.setup()["ship_max"])
        require(ship is not None, "no-ship", f"No completed ship has its bow in slot {slot + 1} (command slot {slot}).")
        return ship

    def outfit_problem(self, state: State, seat: int, slot: int, items: list[str]) -> tuple[str, str] | None:
        player = state["players"][seat]
        first, last = self._completed_at(state, seat, slot)
        for item in set(items):
            if items.count(item) > player["items"][item]:
                return ("not-in-stock", f"You have {_count(player['items'][item], item)}, not {items.count(item)}.")
        on_board = player["outfits"].get(str(slot), []) + list(items)
        room = self.capacity(player, player["yard"][first:last + 1])
        need = self.needs(on_board)
        words = {"cabin": ("cabin", ""), "stoker_cabin": ("stoker cabin", ""),
                 "rig": ("rig mount", " (for sails and smokestacks)"), "crane": ("crane mount", ""),
                 "cannon": ("cannon mount", "")}
        for key, wanted in need.items():
            if wanted > room[key]:
                word, note = words[key]
                return ("no-room", f"The ship has {_count(room[key], word)}{note}; that needs {wanted}.")
        return None

    def _outfit(self, state: State, seat: int, slot: int, items: list[str], events: list[Event]) -> None:
        problem = self.outfit_problem(state, seat, slot, items)
        if problem is not None:
            raise RulesError(*problem)
        player = state["players"][seat]
        for item in items:
            player["items"][item] -= 1
        player["outfits"].setdefault(str(slot), []).extend(items)
        events.append({"type": "outfitted", "seat": seat, "slot": slot, "items": list(items)})

    def cruise_facts(self, state: State, seat: int, slot: int) -> dict[str, Any]:
        """The ship's speed and whether it can cruise (a captain, a path that long)."""
        player = state["players"][seat]
        first, last = self._completed_at(state, seat, slot)
        tiles = player["yard"][first:last + 1]
        items = player["outfits"].get(str(slot), [])
        speed = self.speed(player, tiles, items)
        captain = "captain" in items
        path = captain and canal.has_path(player["canal"], data.canals(), speed)
        return {"tiles": tiles, "items": items, "speed": speed, "captain": captain, "path": bool(path)}

    def score_cruise(self, player: dict[str, Any], tiles: list[str], items: list[str], speed: int,
                     features: list[str | None]) -> dict[str, int]:
        ships = data.ships()
        safety = {s: sum(ships[t]["safety"].count(s) for t in tiles) for s in SAFETY}
        count = {item: items.count(item) for item in ITEMS}
        officials = 0
        riband = 0
        for step, feature in enumerate(features, start=1):
            if feature == "riband":
                riband = step
            elif feature == "navy":
                officials += count["marine"] + count["cannon"]
            elif feature == "trade":
                officials += count["merchant"] + count["crane"]
            elif feature in SAFETY:
                officials += safety[feature]
        crew = sum(count[c] for c in CREW if c != "stoker")
        equipment = 2 * (count["crane"] + count["cannon"])
        return {"crew": crew, "equipment": equipment, "speed": speed, "officials": officials, "riband": riband,
                "total": crew + equipment + speed + officials + riband}

    def _cruise(self, state: State, seat: int, command: Command, events: list[Event]) -> None:
        turn = state["turn"]
        player = state["players"][seat]
        slot = command["slot"]
        require(turn["main_done"], "act-first", "Your ships cruise after your action.")
        require(turn["bonus"] is None or turn["bonus_done"], "act-first", "Perform your bonus action first.")
        facts = self.cruise_facts(state, seat, slot)
        first, last = self._completed_at(state, seat, slot)
        start = command.get("start")
        path = [[p["x"], p["y"], p["spot"]] for p in command["path"]]
        start_pos = None if start is None else [start["x"], start["y"], start["spot"]]
        if not facts["captain"] or not facts["path"]:
            require(not path and start is None, "cruise-fails",
                    "This ship cannot make its cruise (" + ("no captain" if not facts["captain"] else
                                                            f"no canal path of {facts['speed']} steps") +
                    "): send it with an empty path, and it is lost.")
            record = {"tiles": facts["tiles"], "items": facts["items"], "speed": facts["speed"],
                      "reason": "no-captain" if not facts["captain"] else "canal-too-short"}
            player["lost"].append(record)
            state["scrapped"].extend(facts["tiles"])
            events.append({"type": "ship-lost", "seat": seat, "slot": slot, **record})
        else:
            system = player["canal"]
            if system["token"] is None:
                require(start_pos is not None, "start-needed", "The first cruise starts at a mouth spot you choose.")
            else:
                require(start_pos is None, "no-start", "Your ship token is already in your canals.")
            require(len(path) == facts["speed"], "wrong-length",
                    f"The ship's speed is {facts['speed']}: its path is that many steps.")
            walked = canal.walk(system, data.canals(), path, start=start_pos)
            require(walked["ok"], "bad-path", walked.get("message", "That is not a forward path of your canals."))
            left_cells = {tuple(c) for c in walked.get("left", [])}
            left = [dict(t) for t in system["tiles"] if (t["x"], t["y"]) in left_cells]
            canal.apply_walk(system, walked)
            player["used_canals"].extend(walked["removed"])
            score = self.score_cruise(player, facts["tiles"], facts["items"], facts["speed"], walked["spots"])
            record = {"tiles": facts["tiles"], "items": facts["items"], "speed": facts["speed"], "score": score,
                      "canals": len(walked["removed"])}
            player["fleet"].append(record)
            # The way taken and the tiles it left (gone from the system now), so pages can draw the cruise.
            events.append({"type": "cruised", "seat": seat, "slot": slot, "speed": facts["speed"],
                           "start": start_pos, "path": path, "left": left, "spots": walked["spots"], "score": score})
        for s in range(first, last + 1):
            player["yard"][s] = None
        player["outfits"].pop(str(slot), None)
        turn["stage"] = "launch"
        turn["cruised"] += 1
        if not self.completed(player):
            self._end_turn(state, events)

    # -- the end -----------------------------------------------------------------------------------------
    def contract_score(self, player: dict[str, Any], contract: str) -> int:
        c = data.contracts()[contract]
        value = self.measure(player, c["measure"], c.get("arg"))
        points = 0
        for at_least, pts in c["table"]:
            if value >= at_least:
                points = max(points, pts)
        return points

    def measure(self, player: dict[str, Any], measure: str, arg: Any) -> int:
        fleet = player["fleet"]
        ships = data.ships()

        def safety(ship: dict[str, Any], kind: str) -> int:
            return sum(ships[t]["safety"].count(kind) for t in ship["tiles"])

        if measure == "ships_with":
            if arg in SAFETY:
                return sum(1 for s in fleet if safety(s, arg))
            return sum(1 for s in fleet if arg in s["items"])
        if measure == "items":
            if arg in SAFETY:
                return sum(safety(s, arg) for s in fleet)
            return sum(s["items"].count(arg) for s in fleet)
        if measure == "ships_min_length":
            return sum(1 for s in fleet if len(s["tiles"]) >= arg)
        if measure == "ships_min_speed":
            return sum(1 for s in fleet if s["speed"] >= arg)
        if measure == "fleet":
            return len(fleet)
        if measure == "canals_used":
            return len(player["used_canals"])
        if measure == "ships_all_safety":
            return sum(1 for s in fleet if all(safety(s, k) for k in SAFETY))
        if measure == "safety_items":
            return sum(safety(s, k) for s in fleet for k in SAFETY)
        if measure == "lengths":
            return len({len(s["tiles"]) for s in fleet})
        if measure == "ships_sail_and_smokestack":
            return sum(1 for s in fleet if "sail" in s["items"] and "smokestack" in s["items"])
        if measure == "best_riband":
            return max((s["score"]["riband"] for s in fleet), default=0)
        if measure == "officers":
            return sum(max(0, s["items"].count("captain") - 1) for s in fleet)
        raise ValueError(f"unknown contract measure {measure!r}")

    def scores(self, state: State) -> list[dict[str, Any]]:
        kept = data.setup()["contracts_kept"]
        out = []
        for seat, player in enumerate(state["players"]):
            scored = sorted(((self.contract_score(player, c), c) for c in player["contracts"]), reverse=True)[:kept]
            traders = sum(e["points"] for e in self._effects(player, "trader"))
            cruises = sum(s["score"]["total"] for s in player["fleet"])
            contracts = sum(p for p, _ in scored)
            out.append({"seat": seat, "cruises": cruises, "contracts": contracts,
                        "contract_points": {c: p for p, c in scored}, "traders": traders,
                        "total": cruises + contracts + traders, "money": player["money"]})
        return out

    RESULT_COLUMNS = ("Cruises", "Contracts", "Traders")

    def result(self, state: State) -> dict[str, Any]:
        """The ending (README, "The ending"): every seat in place order with its points by part (the
        cruises of its fleet, its kept contracts, its traders; they add up to its score), and how the
        winner won in one sentence: how the game came to end, the winner's points by part and ships,
        and the money that broke a tie on points when it did."""
        scores = {s["seat"]: s for s in state["scores"]}
        players = state["players"]
        place_of = self.standings(state)
        ranking = []
        for seat in sorted(scores, key=lambda s: (place_of[s], s)):
            s = scores[seat]
            parts = [{"label": label, "value": s[key]}
                     for label, key in zip(self.RESULT_COLUMNS, ("cruises", "contracts", "traders"), strict=True)]
            ranking.append({"seat": seat, "place": place_of[seat], "score": s["total"], "parts": parts,
                            "money": s["money"], "ships": len(players[seat]["fleet"])})
        return {"how": self._how(state, ranking), "columns": list(self.RESULT_COLUMNS), "ranking": ranking}

    def _how(self, state: State, ranking: list[dict[str, Any]]) -> str:
        end = state["end"] or {}
        ended = (f"The {end.get('part', 'ship tile')} stack ran out" if end.get("reason") == "stack"
                 else "The queue ran out of cubes")
        names = [p["name"] for p in state["players"]]
        first = [r for r in ranking if r["place"] == 1]
        top = first[0]
        cruises, contracts, traders = (p["value"] for p in top["parts"])
        by_part = [f"{_count(cruises, 'point')} from the cruises of {_count(top['ships'], 'ship')}",
                   f"{contracts} from contracts"]
        if traders:
            by_part.append(f"{traders} from traders")
        points = f"{_count(top['score'], 'point')} ({_and(by_part)})"
        if len(first) > 1:
            who = _and([names[r["seat"]] for r in first])
            return (f"{ended}. {who} share first place with {_count(top['score'], 'point')} and "
                    f"{_count(top['money'], 'coin')} each.")
        tied = [r for r in ranking[1:] if r["score"] == top["score"]]
        if tied:
            others = _and([f"{names[r['seat']]}'s {r['money']}" for r in tied])
            return (f"{ended}. {names[top['seat']]} won with {points}: a tie on points, broken by money "
                    f"({_count(top['money'], 'coin')} to {others}).")
        return f"{ended}. {names[top['seat']]} won with {points}."

    def _finish(self, state: State, events: list[Event]) -> None:
        scores = self.scores(state)
        state["scores"] = scores
        best = max((s["total"], s["money"]) for s in scores)
        state["winners"] = [s["seat"] for s in scores if (s["total"], s["money"]) == best]
        state["finished"] = True
        state["phase"] = "finished"
        state["turn"] = None
        events.append({"type": "game-over", "winners": list(state["winners"]),
                       "totals": [s["total"] for s in scores]})

    # -- listing -----------------------------------------------------------------------------------------
    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        return [e["command"] for e in self.listing(state, seat=seat) if e["reason"] is None]

    def listing(self, state: State, *, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may do now: ``{"command", "price", "reason"}`` entries (reason None: legal). Listed for
        the seat whose turn it is only. Builds are listed one tile at a time (with the reason a slot is refused);
        a build of two or three tiles is checked by ``apply`` alone. Cruise paths: at most CRUISE_LISTED a ship."""
        turn = state["turn"]
        if state["finished"] or turn is None or seat != turn["seat"]:
            return []
        player = state["players"][seat]
        out: list[dict[str, Any]] = []

        def offer(command: Command, price: int, reason: dict[str, str] | None = None) -> None:
            if reason is None and price > player["money"]:
                reason = _cannot_afford(price, player["money"])
            out.append({"command": command, "price": price, "reason": reason})

        stage = turn["stage"]
        if stage == "discard":
            for c in player["contracts"]:
                offer({"cmd": "discard-contract", "contract": c}, 0)
            return out
        if stage == "choose":
            for action, reason in self.choosable(state, seat).items():
                offer({"cmd": "choose", "action": action}, 0, reason)
            return out
        if stage == "final-build":
            if not turn["main_done"]:
                for cmd in self._final_builds(state, seat):
                    t = cmd["tiles"][0]["tile"]
                    offer(cmd, data.ships()[t]["cost"])
                offer({"cmd": "pass"}, 0)
            self._list_launch(state, seat, offer)
            return out
        if stage == "act":
            for action, done in ((turn["main"], turn["main_done"]), (turn["bonus"], turn["bonus_done"])):
                if action and not done:
                    self._list_action(state, seat, action, offer)
            if state["phase"] == "play" and turn["bonus"] is None:
                cost = data.setup()["bonus_cost"]
                for tile in state["track"]:
                    action = tile["action"]
                    if action == turn["main"]:
                        continue
                    reason = None if player["money"] < cost else self.cannot_perform(state, seat, action, spend=cost)
                    offer({"cmd": "bonus", "action": action}, cost, reason)
        self._list_launch(state, seat, offer)
        can_end = True
        try:
            self._check_can_end(state, seat)
        except RulesError as exc:
            can_end = False
            end_reason = _reason(exc)
        if stage != "final-build":
            offer({"cmd": "end-turn"}, 0, None if can_end else end_reason)
        return out

    def _list_launch(self, state: State, seat: int, offer: Any) -> None:
        turn = state["turn"]
        player = state["players"][seat]
        ready = turn["main_done"] and (turn["bonus"] is None or turn["bonus_done"])
        for first, _last in self.completed(player):
            for item in ITEMS:
                if player["items"][item] > 0:
                    problem = self.outfit_problem(state, seat, first, [item])
                    offer({"cmd": "outfit", "slot": first, "items": [item]}, 0,
                          None if problem is None else {"code": problem[0], "message": problem[1]})
            if not ready:
                offer({"cmd": "cruise", "slot": first, "path": []}, 0,
                      {"code": "act-first", "message": "Your ships cruise after your action."})
                continue
            facts = self.cruise_facts(state, seat, first)
            if not facts["captain"] or not facts["path"]:
                offer({"cmd": "cruise", "slot": first, "path": []}, 0)
                continue
            found = canal.paths(player["canal"], data.canals(), facts["speed"])
            for p in found[:CRUISE_LISTED]:
                cmd: Command = {"cmd": "cruise", "slot": first,
                                "path": [{"x": x, "y": y, "spot": s} for x, y, s in p["path"]]}
                if p.get("start") is not None:
                    x, y, s = p["start"]
                    cmd["start"] = {"x": x, "y": y, "spot": s}
                offer(cmd, 0)

    def _list_action(self, state: State, seat: int, action: str, offer: Any) -> None:
        player = state["players"][seat]
        if action == "build":
            ships = data.ships()
            cells = self.cells(player)
            ship_max = data.setup()["ship_max"]
            for part in PARTS:
                for t in state["market"][part]:
                    for slot, cell in enumerate(cells):
                        if cell is not None:
                            continue
                        problem = yard.placement_problem(cells, [(slot, part)], ship_max)
                        price = ships[t]["cost"]
                        # apply refuses an unaffordable tile before it looks at the slot: the same reason here
                        reason = (_cannot_afford(price, player["money"]) if price > player["money"]
                                  else None if problem is None else {"code": problem[0], "message": problem[1]})
                        offer({"cmd": "build", "tiles": [{"tile": t, "slot": slot}]}, price, reason)
        elif action == "canal":
            defs = data.canals()
            for t in state["canal_market"]:
                for x, y, rotation in canal.placements(player["canal"], defs, t):
                    offer({"cmd": "rent-canal", "tile": t, "x": x, "y": y, "rotation": rotation}, defs[t]["cost"])
        elif action == "commodity":
            for t in state["goods_market"]:
                offer({"cmd": "buy-commodity", "tile": t}, data.goods()[t]["cost"])
        elif action in RING_ACTIONS:
            ring = data.wheels()[RING_ACTIONS[action]]
            for steps in range(1, len(ring) + 1):
                offer({"cmd": ACTION_COMMAND[action], "steps": steps}, self.step_cost(player, action, steps))
        elif action == "employee":
            wheel = state["employee_wheel"]
            stops = len(wheel)
            for steps in range(1, stops + 1):
                stop = wheel[(state["markers"]["employee"] + steps) % stops]
                for choice, emp in enumerate(stop):
                    if emp is None:
                        continue
                    problem = self._hire_problem(player, emp)
                    price = self.step_cost(player, "employee", steps) + data.employees()[emp]["cost"]
                    offer({"cmd": "hire", "steps": steps, "choice": choice}, price,
                          None if problem is None else {"code": problem[0], "message": problem[1]})
        elif action == "exchange":
            kinds = data.kinds()
            for t in player["goods"]:
                goods = data.goods()[t]["goods"]
                for uses in itertools.product(*[("sell", *kinds[k]["trades"]) for k in goods]):
                    traded = [u for u in uses if u != "sell"]
                    if len(set(traded)) == len(traded):
                        offer({"cmd": "exchange", "tile": t, "uses": list(uses)}, 0)
        else:
            offer({"cmd": "subsidy"}, 0)

    # -- planning (for pages; changes nothing) -------------------------------------------------------------
    def plan(self, state: State, *, seat: int, request: dict[str, Any]) -> dict[str, Any]:
        """Preview what a command would do before it is sent (``POST /api/games/{code}/plan``):

        - ``{"plan": "build", "tiles": [{tile, slot}, ...], "tile": id?}``: the pending tiles' cost and problem
          (None: they may be built together), and for a next ``tile`` each empty slot's reason it cannot go there;
        - ``{"plan": "outfit", "slot": bow, "items": [...]}``: whether those items fit the completed ship, its
          room, what they need, and the speed it would then have;
        - ``{"plan": "cruise", "slot": bow}``: its speed, whether it can cruise, and each path with its spots and
          score (at most 200 paths)."""
        if state["finished"]:
            raise RulesError("game-finished", "The game is over.")
        player = state["players"][seat]
        what = request.get("plan")
        if what == "build":
            return self._plan_build(state, seat, request)
        slot = request.get("slot")
        if type(slot) is not int or not 0 <= slot < len(player["yard"]):
            raise RulesError("invalid-plan", "'slot' must be the yard slot of a completed ship's bow.")
        first, last = self._completed_at(state, seat, slot)
        tiles = player["yard"][first:last + 1]
        if what == "outfit":
            items = request.get("items", [])
            if type(items) is not list or len(items) > 30 or any(i not in ITEMS for i in items):
                raise RulesError("invalid-plan", f"'items' must be a list of items ({', '.join(ITEMS)}).")
            problem = self.outfit_problem(state, seat, slot, items)
            on_board = player["outfits"].get(str(slot), []) + items
            return {"plan": "outfit", "problem": None if problem is None else {"code": problem[0], "message": problem[1]},
                    "room": self.capacity(player, tiles), "needs": self.needs(on_board),
                    "speed": self.speed(player, tiles, on_board), "captain": "captain" in on_board}
        if what == "cruise":
            facts = self.cruise_facts(state, seat, slot)
            paths = []
            if facts["captain"]:
                for p in canal.paths(player["canal"], data.canals(), facts["speed"])[:200]:
                    walked = canal.walk(player["canal"], data.canals(), p["path"], start=p.get("start"))
                    score = self.score_cruise(player, tiles, facts["items"], facts["speed"], walked["spots"])
                    paths.append({"start": p.get("start"), "path": p["path"], "spots": walked["spots"],
                                  "removed": walked["removed"], "score": score})
            return {"plan": "cruise", "speed": facts["speed"], "captain": facts["captain"],
                    "can_cruise": facts["captain"] and facts["path"], "paths": paths}
        raise RulesError("invalid-plan", "'plan' must be \"build\", \"outfit\" or \"cruise\".")

    def _plan_build(self, state: State, seat: int, request: dict[str, Any]) -> dict[str, Any]:
        player = state["players"][seat]
        ships = data.ships()
        pending = request.get("tiles", [])
        ok = type(pending) is list and len(pending) <= 3 and all(
            type(w) is dict and w.get("tile") in ships and type(w.get("slot")) is int
            and 0 <= w["slot"] < len(player["yard"]) for w in pending)
        if not ok:
            raise RulesError("invalid-plan", "'tiles' must be up to 3 {tile, slot} with a ship tile id and a yard slot.")
        cells = self.cells(player)
        ship_max = data.setup()["ship_max"]
        placed = [(w["slot"], ships[w["tile"]]["part"]) for w in pending]
        problem = yard.placement_problem(cells, placed, ship_max) if placed else None
        out: dict[str, Any] = {"plan": "build", "cost": sum(ships[w["tile"]]["cost"] for w in pending),
                               "money": player["money"],
                               "problem": None if problem is None else {"code": problem[0], "message": problem[1]}}
        tile = request.get("tile")
        if tile is not None:
            if tile not in ships:
                raise RulesError("invalid-plan", "'tile' must be a ship tile id.")
            used = {w["slot"] for w in pending}
            part = ships[tile]["part"]
            slots = []
            for slot, cell in enumerate(cells):
                if cell is not None or slot in used:
                    continue
                p = yard.placement_problem(cells, [*placed, (slot, part)], ship_max)
                slots.append({"slot": slot, "reason": None if p is None else {"code": p[0], "message": p[1]}})
            out["slots"] = slots
        return out

    # -- view --------------------------------------------------------------------------------------------
    def content(self) -> dict[str, Any]:
        return data.content()

    def secrets(self, state: State) -> dict[int | None, list[dict[str, Any]]]:
        """Each seat's government contracts (secret until the game ends) and the contracts never dealt."""
        out: dict[int | None, list[dict[str, Any]]] = {
            i: [{"*": c} for c in p["contracts"]] for i, p in enumerate(state["players"])}
        out[None] = [{"*": c} for c in state.get("contract_supply", [])]
        return out

    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        turn = state["turn"]
        players = []
        for i, p in enumerate(state["players"]):
            own = seat == i
            completed = self.completed(p)
            players.append({
                "seat": i,
                "name": p["name"],
                "color": list(data.COLORS)[i],
                "money": p["money"],
                "cubes": list(p["cubes"]),
                "cube_count": p["cube_count"],
                "items": dict(p["items"]),
                "goods": list(p["goods"]),
                "employees": list(p["employees"]),
                "contracts": list(p["contracts"]) if own or state["finished"] else None,
                "contract_count": len(p["contracts"]),
                "discards_owed": p["discards_owed"],
                "yard": list(p["yard"]),
                "completed": [{"slot": a, "last": b, "outfit": list(p["outfits"].get(str(a), [])),
                               "room": self.capacity(p, p["yard"][a:b + 1]),
                               **({"speed": self.speed(p, p["yard"][a:b + 1], p["outfits"].get(str(a), []))})}
                              for a, b in completed],
                "canal": {"tiles": [dict(t) for t in p["canal"]["tiles"]],
                          "token": None if p["canal"]["token"] is None else dict(p["canal"]["token"])},
                "used_canals": len(p["used_canals"]),
                # the stack is face down by default (the spec): its size for all, its tiles for no one
                "used_canal_tiles": list(p["used_canals"]) if state["options"].get("used_canals") == "open" else None,
                "fleet": [dict(s) for s in p["fleet"]],
                "lost": [dict(s) for s in p["lost"]],
                "cruise_points": sum(s["score"]["total"] for s in p["fleet"]),
            })
        timer = state["timer"]
        return {
            "kind": KIND,
            "phase": state["phase"],
            "active_seat": None if turn is None else turn["seat"],
            "you": seat,
            "order": list(state["order"]),
            "turn": None if turn is None else dict(turn),
            "track": [dict(t) for t in state["track"]],
            "timer": {**timer, "end": None if state["end"] is None else dict(state["end"])},
            "markets": {
                "ships": {part: list(state["market"][part]) for part in PARTS},
                "ship_supply": {part: len(state["supply"][part]) for part in PARTS},
                "canals": list(state["canal_market"]),
                "canal_supply": len(state["canal_supply"]),
                "goods": list(state["goods_market"]),
                "goods_supply": len(state["goods_supply"]),
                "employees": [list(stop) for stop in state["employee_wheel"]],
                "employee_supply": len(state["employee_supply"]),
            },
            "markers": dict(state["markers"]),
            "players": players,
            "content_version": data.content()["version"],
            "options": dict(state["options"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "scores": None if state["scores"] is None else [dict(s) for s in state["scores"]],
            "end_reason": None if state["end"] is None else state["end"]["reason"],
            "listing": self.listing(state, seat=seat),
        }

    # -- bots --------------------------------------------------------------------------------------------
    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        from .bots import choose

        return choose(self, state, seat=seat, bot=bot, rng=rng)


def _count(n: int, word: str) -> str:
    """"1 point", "0 points", "3 ships"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _and(words: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _subsidy_in(option: str, players: int) -> bool:
    return option == "always" or (option == "four-players" and players == 4)


__all__ = ["ACTIONS", "EQUIPMENT", "KIND", "Slipway"]
