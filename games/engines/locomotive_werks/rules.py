"""The rules of Locomotive Werks as a pure-Python engine.

A round has five phases. Players act in the first two, one at a time in turn
order; the other three run automatically when the last player passes in the
capacity phase:

1. development  - each player in turn may develop one new locomotive type, or pass
2. capacity     - each player in turn buys and shifts production units, then passes
3. production   - automatic: every player sells each type to one die (single-die rule)
4. taxes        - automatic: 10 % rounded down, then the end check, then the new
                  turn order (poorest first)
5. market       - automatic: market demands for green, red, yellow, blue (cases a-d)

See README.md in this package for every rules choice and option.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Command, Engine, Event, Option, RulesError, State, places, require
from ..rng import Rng, seed_state
from .commands import COMMANDS, VIEW_FIELDS
from .data import COLOR_NAMES, COLORS, DIE_FACES, PHYSICAL_DICE, SPACE_COUNT, SPACES, SPACES_BY_COLOR

STATE_VERSION = 1

DEVELOPMENT = "development"
CAPACITY = "capacity"
FINISHED = "finished"

USEFUL_UNITS = DIE_FACES  # a card never sells more than one die's value per round

# Precomputed per-space tables (index = space - 1).
COST = tuple(s.cost for s in SPACES)
INCOME = tuple(s.income for s in SPACES)
BOXES = tuple(s.customer_base for s in SPACES)  # equal to the Existing Orders boxes
COLOR = tuple(s.color for s in SPACES)
GENERATION = tuple(s.generation for s in SPACES)
PRODUCTION = {
    "fixed": tuple(s.production for s in SPACES),
    "published": tuple(s.published_production for s in SPACES),
}
# For each space: the index of the same colour two generations older, or None.
OBSOLETED_BY = tuple(
    next(
        (o.space - 1 for o in SPACES if o.color == s.color and o.generation == s.generation - 2),
        None,
    )
    for s in SPACES
)
COLOR_INDICES = {color: tuple(sp - 1 for sp in spaces) for color, spaces in SPACES_BY_COLOR.items()}

NOT_YOUR_TURN = {"code": "not-your-turn", "message": "It is not your turn."}


def _cannot_afford(what: str, cost: int, coins: int) -> dict[str, str]:
    """``what`` is the start of the sentence, e.g. "Developing costs"."""
    have = f"you have {coins} coin" + ("" if coins == 1 else "s")
    return {"code": "cannot-afford", "message": f"{what} {cost} coins; {have}."}


def _require_coins(coins: int, cost: int, what: str) -> None:
    """The one affordability check: ``apply`` and the listing give the same reason."""
    if coins < cost:
        reason = _cannot_afford(what, cost, coins)
        raise RulesError(reason["code"], reason["message"])


def _find_card(player: dict[str, Any], space: int) -> dict[str, Any] | None:
    for card in player["cards"]:
        if card["space"] == space:
            return card
    return None


def _developable(sp: dict[str, Any]) -> bool:
    """A space may be developed if it has dice somewhere and is not obsolete."""
    return not sp["obsolete"] and (
        sp["initial_order"] is not None or bool(sp["existing_orders"]) or bool(sp["customer_base"])
    )


# For each space: the index of the same colour two generations newer (whose development
# retires this one), or None.
RETIRED_BY = tuple(
    next((j for j, old in enumerate(OBSOLETED_BY) if old == i), None) for i in range(len(OBSOLETED_BY))
)


def _retired(state: State, i: int) -> bool:
    """Space index ``i`` is retired: someone developed generation N+2 of its colour, which
    removed the cards of this type (option ``retired_types``; a saved state without the key
    keeps the reading it started with, "developable")."""
    newer = RETIRED_BY[i]
    return (
        newer is not None
        and state["options"].get("retired_types", "developable") == "refused"
        and any(newer + 1 in p["developed"] for p in state["players"])
    )


def _dice_on_board(state: State) -> int:
    return sum(
        (sp["initial_order"] is not None) + len(sp["existing_orders"]) + len(sp["customer_base"])
        for sp in state["spaces"]
    )


def _copy_events(events: list[Event]) -> list[Event]:
    """Copy events (flat dicts whose values are scalars or lists of scalars)."""
    return [{k: (v[:] if type(v) is list else v) for k, v in e.items()} for e in events]


def _copy_report(report: dict[str, Any] | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {"round": report["round"], "events": _copy_events(report["events"])}


class _Dice:
    """The dice pool and the rolls of one automatic step, over the state's Rng."""

    __slots__ = ("rng", "limited", "free")

    def __init__(self, state: State) -> None:
        self.rng = Rng(state["rng"])
        self.limited = state["options"]["dice_pool"] == "twenty"
        self.free = PHYSICAL_DICE - _dice_on_board(state) if self.limited else 0

    def take(self, wanted: int) -> int:
        """How many of ``wanted`` dice the pool gives."""
        if not self.limited:
            return wanted
        got = min(wanted, self.free)
        self.free -= got
        return got

    def give_back(self, count: int) -> None:
        if self.limited:
            self.free += count

    def roll(self) -> int:
        return self.rng.randint(1, DIE_FACES)

    def save(self, state: State) -> None:
        state["rng"] = self.rng.state


class LocomotiveWerks(Engine):
    kind = "locomotive-werks"
    title = "Locomotive Werks"
    min_players = 3
    max_players = 5
    bots = ("random", "greedy")
    commands = COMMANDS
    view_fields = VIEW_FIELDS
    options = (
        Option(
            "production_costs",
            "choice",
            "fixed",
            help='"fixed": the Production numbers printed in the rules; "published": development cost / 2.',
            choices=("fixed", "published"),
        ),
        Option(
            "starting_coins",
            "choice",
            "twelve",
            help='"twelve": 12 coins each; "by-player-count": 12 / 12 / 14 coins for 3 / 4 / 5 players.',
            choices=("twelve", "by-player-count"),
        ),
        Option(
            "end_threshold",
            "int",
            300,
            help="The game ends when a player has at least this many coins after tax (at most 1,000: "
            "above it, games can settle below the threshold and never end).",
            min=1,
            max=1_000,  # found by simulation (README, 'Option bounds')
            stored_max=100_000,  # the bound before: games created then keep replaying
        ),
        Option(
            "obsolescence",
            "choice",
            "owned-cards",
            help='When generation N (3 or more) is developed: "owned-cards" removes the players\' '
            'cards of generation N-2 of that colour (with their units); "board-cards" removes the '
            "undeveloped generation N-2 cards from the board instead.",
            choices=("owned-cards", "board-cards"),
        ),
        Option(
            "retired_types",
            "choice",
            "refused",
            help='Generation N-2 once someone has developed generation N of its colour: "refused" '
            '(the cards of that type are removed from the game, so it cannot be developed any more); '
            '"developable" (the reading before: developable until the market phase makes it obsolete).',
            choices=("refused", "developable"),
        ),
        Option(
            "dice_pool",
            "choice",
            "unlimited",
            help='"unlimited": a die can always be added; "twenty": only 20 dice exist, and a die '
            "that the pool cannot give is not added.",
            choices=("unlimited", "twenty"),
        ),
        Option(
            "shift_rule",
            "choice",
            "higher-cost",
            help='Shifting units is allowed to any card with a higher production cost ("higher-cost") '
            'or only to a later generation of the same colour ("same-colour").',
            choices=("higher-cost", "same-colour"),
        ),
        Option(
            "winner_ties",
            "choice",
            "shared",
            help='Players tied for most coins at the end: all win ("shared"), or the one latest in '
            'the last turn order wins ("later-in-turn-order").',
            choices=("shared", "later-in-turn-order"),
        ),
    )

    # -- setup -------------------------------------------------------------
    def setup(self, *, players: list[str], options: dict[str, Any], seed: int) -> State:
        options = self.normalize_options(options, stored=True)
        self.check_players_and_seed(players, seed)
        n = len(players)
        coins = 14 if options["starting_coins"] == "by-player-count" and n == 5 else 12
        rng = Rng(seed_state(seed))
        spaces = [
            {
                "space": s.space,
                "cards_left": s.cards,
                "initial_order": None,
                "initial_order_pending": False,
                "existing_orders": [],
                "customer_base": [],
                "obsolete": False,
            }
            for s in SPACES
        ]
        spaces[0]["existing_orders"] = [rng.randint(1, DIE_FACES) for _ in range(3)]
        spaces[1]["initial_order"] = rng.randint(1, DIE_FACES)
        order = list(range(n))
        rng.shuffle(order)
        return {
            "version": STATE_VERSION,
            "options": options,
            "rng": rng.state,
            "round": 1,
            "phase": DEVELOPMENT,
            "order": order,
            "turn": 0,
            "players": [{"name": name, "coins": coins, "developed": [], "cards": []} for name in players],
            "spaces": spaces,
            "removed_cards": [0] * SPACE_COUNT,
            "last_round": None,
            "finished": False,
            "winners": [],
        }

    # -- queries -----------------------------------------------------------
    def active_seats(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        return [state["order"][state["turn"]]]

    def is_finished(self, state: State) -> bool:
        return state["finished"]

    def standings(self, state: State) -> list[int]:
        """Most coins first, as the end check picks the winners; equal coins share a place
        (``winner_ties`` "shared") or the one later in the round's turn order is ahead
        ("later-in-turn-order"), the same tie-break the end check used for the winner."""
        coins = [p["coins"] for p in state["players"]]
        if state["options"].get("winner_ties", "shared") == "later-in-turn-order":
            return places([(c, state["order"].index(seat)) for seat, c in enumerate(coins)])
        return places(coins)

    def result(self, state: State) -> dict[str, Any]:
        """The ending (README, "The ending"): ranked as :meth:`standings`, the score is coins after
        the last round's tax; the parts are that round's sales and tax and, when ``winner_ties``
        is "later-in-turn-order", each seat's place in the last turn order (what breaks a tie)."""
        players = state["players"]
        later = state["options"].get("winner_ties", "shared") == "later-in-turn-order"
        report = (state.get("last_round") or {}).get("events", [])
        sales = [0] * len(players)
        tax = [0] * len(players)
        for event in report:
            if event["type"] == "sale":
                sales[event["seat"]] += event["income"]
            elif event["type"] == "tax":
                tax[event["seat"]] += event["tax"]
        places_by_seat = self.standings(state)
        columns = ["Last round's sales", "Tax"] + (["Turn order"] if later else [])
        ranking = []
        for seat, player in enumerate(players):
            parts = [{"label": columns[0], "value": sales[seat]}, {"label": "Tax", "value": -tax[seat]}]
            if later:
                parts.append({"label": "Turn order", "value": state["order"].index(seat) + 1})
            ranking.append({"seat": seat, "place": places_by_seat[seat], "score": player["coins"], "parts": parts})
        ranking.sort(key=lambda row: (row["place"], row["seat"]))
        return {"how": self._how(state), "columns": columns, "ranking": ranking}

    @staticmethod
    def _how(state: State) -> str:
        """How the game was won, in one sentence."""
        players = state["players"]
        winners = state["winners"]
        threshold = state["options"]["end_threshold"]
        rnd = (state.get("last_round") or {}).get("round", state["round"])
        best = max(p["coins"] for p in players)
        names = [players[s]["name"] for s in winners]
        reached = f"the game ends when someone has at least {threshold:,} coins after a round's tax, as in round {rnd}"
        if len(names) > 1:
            return f"{' and '.join(names)} share the win with {best:,} coins each: {reached}."
        tied = [p["name"] for p in players if p["coins"] == best]
        if len(tied) > 1:
            return (f"{names[0]} won on {best:,} coins, level with {' and '.join(n for n in tied if n != names[0])}, "
                    f"by being later in the last turn order: {reached}.")
        return f"{names[0]} won with the most coins, {best:,}: {reached}."

    def production_costs(self, state: State) -> tuple[int, ...]:
        return PRODUCTION[state["options"]["production_costs"]]

    def can_shift(self, state: State, from_space: int, to_space: int) -> bool:
        """Whether units may move from ``from_space`` to ``to_space`` (cards aside)."""
        if from_space == to_space:
            return False
        prod = PRODUCTION[state["options"]["production_costs"]]
        a, b = from_space - 1, to_space - 1
        if state["options"]["shift_rule"] == "same-colour":
            return COLOR[a] == COLOR[b] and GENERATION[b] > GENERATION[a]
        return prod[b] > prod[a]

    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        if state["finished"] or seat != state["order"][state["turn"]]:
            return []
        return [entry["command"] for entry in self.listing(state, seat=seat) if entry["reason"] is None]

    def listing(self, state: State, *, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may do in this phase, each with its price: a list of
        ``{"command", "price", "reason"}``. ``price`` is the coins ``apply`` takes for the command
        (0 for ``pass``); ``reason`` is None when the command is legal now, else the
        ``{"code", "message"}`` that ``apply`` refuses it with (``not-your-turn`` while another
        seat acts, ``cannot-afford``). The entries without a reason are exactly
        ``legal_commands``, in the same order. Listed: every type the seat could develop if it had
        the coins, and every unit count up to 6 on the receiving card (a card never sells more)."""
        if state["finished"] or type(seat) is not int or not 0 <= seat < len(state["players"]):
            return []
        player = state["players"][seat]
        coins = player["coins"]
        waiting = None if seat == state["order"][state["turn"]] else dict(NOT_YOUR_TURN)
        out: list[dict[str, Any]] = []

        def offer(command: Command, price: int, what: str) -> None:
            reason = waiting
            if reason is None and price > coins:
                reason = _cannot_afford(what, price, coins)
            out.append({"command": command, "price": price, "reason": reason})

        if state["phase"] == DEVELOPMENT:
            developed = player["developed"]
            for i, sp in enumerate(state["spaces"]):
                if sp["cards_left"] > 0 and (i + 1) not in developed and _developable(sp) and not _retired(state, i):
                    offer({"cmd": "develop", "space": i + 1}, COST[i], "Developing costs")
        else:
            prod = PRODUCTION[state["options"]["production_costs"]]
            cards = player["cards"]
            for card in cards:
                space = card["space"]
                for count in range(1, USEFUL_UNITS - card["units"] + 1):
                    offer(
                        {"cmd": "buy-units", "space": space, "count": count},
                        count * prod[space - 1],
                        "These units cost",
                    )
            for source in cards:
                if source["units"] == 0:
                    continue
                for target in cards:
                    if not self.can_shift(state, source["space"], target["space"]):
                        continue
                    diff = prod[target["space"] - 1] - prod[source["space"] - 1]
                    for count in range(1, min(source["units"], USEFUL_UNITS - target["units"]) + 1):
                        offer(
                            {
                                "cmd": "shift-units",
                                "from": source["space"],
                                "to": target["space"],
                                "count": count,
                            },
                            count * diff,
                            "This shift costs",
                        )
        out.append({"command": {"cmd": "pass"}, "price": 0, "reason": waiting})
        return out

    # -- commands ----------------------------------------------------------
    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        name, args = command["cmd"], command  # its shape fits COMMANDS (Engine.apply checked it)
        require(not state["finished"], "game-finished", "The game is over.")
        require(
            type(seat) is int and seat == state["order"][state["turn"]],
            "not-your-turn",
            "It is not your turn.",
        )
        phase = state["phase"]
        if name == "pass":
            return self._pass(state, seat)
        if name == "develop":
            require(
                phase == DEVELOPMENT, "wrong-phase", "Locomotives are developed in the development phase."
            )
            return self._develop(state, seat, args["space"])
        require(
            phase == CAPACITY, "wrong-phase", "Production units are bought and shifted in the capacity phase."
        )
        if name == "buy-units":
            return self._buy_units(state, seat, args["space"], args["count"])
        return self._shift_units(state, seat, args["from"], args["to"], args["count"])

    def _develop(self, state: State, seat: int, space: int) -> list[Event]:
        i = space - 1
        player = state["players"][seat]
        sp = state["spaces"][i]
        require(
            space not in player["developed"], "already-developed", "You have already developed this type."
        )
        require(_developable(sp), "not-developable", "This locomotive type cannot be developed now.")
        require(
            not _retired(state, i), "not-developable",
            "This type is retired: generation two steps newer of its colour has been developed, which removed its cards.",
        )
        require(sp["cards_left"] > 0, "no-cards-left", "No cards of this type are left.")
        cost = COST[i]
        _require_coins(player["coins"], cost, "Developing costs")

        player["coins"] -= cost
        sp["cards_left"] -= 1
        player["developed"].append(space)
        cards = player["cards"]
        cards.append({"space": space, "units": 1})
        cards.sort(key=lambda c: c["space"])
        events: list[Event] = [{"type": "developed", "seat": seat, "space": space, "cost": cost, "units": 1}]

        if sp["initial_order"] is not None:
            die = sp["initial_order"]
            sp["initial_order"] = None
            sp["existing_orders"].append(die)
            events.append({"type": "initial-order-moved", "space": space, "die": die})
            if space < SPACE_COUNT:
                dice = _Dice(state)
                nxt = state["spaces"][i + 1]
                if dice.take(1):
                    nxt["initial_order"] = dice.roll()
                    dice.save(state)
                    events.append({"type": "space-unlocked", "space": space + 1, "die": nxt["initial_order"]})
                else:
                    nxt["initial_order_pending"] = True
                    events.append({"type": "space-unlock-waiting", "space": space + 1})

        old = OBSOLETED_BY[i]
        if old is not None:
            events.extend(self._retire(state, old))
        events.extend(self._next_turn(state))
        return events

    def _retire(self, state: State, old: int) -> list[Event]:
        """Obsolescence of generation N-2 (index ``old``) when generation N is developed."""
        events: list[Event] = []
        old_space = old + 1
        if state["options"]["obsolescence"] == "owned-cards":
            for seat, player in enumerate(state["players"]):
                card = _find_card(player, old_space)
                if card is not None:
                    player["cards"].remove(card)
                    state["removed_cards"][old] += 1
                    events.append(
                        {"type": "card-retired", "seat": seat, "space": old_space, "units": card["units"]}
                    )
        else:
            sp = state["spaces"][old]
            if sp["cards_left"]:
                events.append({"type": "board-cards-retired", "space": old_space, "cards": sp["cards_left"]})
                state["removed_cards"][old] += sp["cards_left"]
                sp["cards_left"] = 0
        return events

    def _buy_units(self, state: State, seat: int, space: int, count: int) -> list[Event]:
        player = state["players"][seat]
        card = _find_card(player, space)
        require(card is not None, "card-not-owned", "You do not have a card of this type.")
        cost = count * PRODUCTION[state["options"]["production_costs"]][space - 1]
        _require_coins(player["coins"], cost, "These units cost")
        player["coins"] -= cost
        card["units"] += count
        return [{"type": "units-bought", "seat": seat, "space": space, "count": count, "cost": cost}]

    def _shift_units(
        self, state: State, seat: int, from_space: int, to_space: int, count: int
    ) -> list[Event]:
        player = state["players"][seat]
        source = _find_card(player, from_space)
        target = _find_card(player, to_space)
        require(source is not None and target is not None, "card-not-owned", "You need both cards.")
        require(
            self.can_shift(state, from_space, to_space),
            "not-an-upgrade",
            "Units may only move to newer technology.",
        )
        require(source["units"] >= count, "not-enough-units", "That card does not have that many units.")
        prod = PRODUCTION[state["options"]["production_costs"]]
        cost = count * (prod[to_space - 1] - prod[from_space - 1])
        _require_coins(player["coins"], cost, "This shift costs")
        player["coins"] -= cost
        source["units"] -= count
        target["units"] += count
        return [
            {
                "type": "units-shifted",
                "seat": seat,
                "from": from_space,
                "to": to_space,
                "count": count,
                "cost": cost,
            }
        ]

    def _pass(self, state: State, seat: int) -> list[Event]:
        events: list[Event] = [{"type": "passed", "seat": seat, "phase": state["phase"]}]
        events.extend(self._next_turn(state))
        return events

    def _next_turn(self, state: State) -> list[Event]:
        state["turn"] += 1
        if state["turn"] < len(state["order"]):
            return []
        state["turn"] = 0
        if state["phase"] == DEVELOPMENT:
            state["phase"] = CAPACITY
            return [{"type": "phase-started", "phase": CAPACITY, "round": state["round"]}]
        return self._end_round(state)

    # -- the automatic phases ------------------------------------------------
    def _end_round(self, state: State) -> list[Event]:
        report: list[Event] = []
        completed = state["round"]
        self._production(state, report)
        self._taxes(state, report)
        if self._end_check(state, report):
            state["phase"] = FINISHED
        else:
            self._turn_order(state, report)
            self._market(state, report)
            state["round"] += 1
            state["phase"] = DEVELOPMENT
            report.append({"type": "round-started", "round": state["round"]})
        state["last_round"] = {"round": completed, "events": _copy_events(report)}
        return report

    def _production(self, state: State, report: list[Event]) -> None:
        players = state["players"]
        spaces = state["spaces"]
        report.append({"type": "phase-started", "phase": "production", "round": state["round"]})
        for seat in state["order"]:
            player = players[seat]
            for card in player["cards"]:
                units = card["units"]
                if not units:
                    continue
                i = card["space"] - 1
                sp = spaces[i]
                orders = sp["existing_orders"]
                if not orders:
                    continue
                if units in orders:
                    case, die, sold, after = "equal", units, units, None
                    orders.remove(units)
                    sp["customer_base"].append(units)
                else:
                    highest = max(orders)
                    if units < highest:
                        case, die, sold, after = "lower", highest, units, highest - units
                        orders[orders.index(highest)] = after
                    else:
                        case, die, sold, after = "higher", highest, highest, None
                        orders.remove(highest)
                        sp["customer_base"].append(highest)
                income = sold * INCOME[i]
                player["coins"] += income
                report.append(
                    {
                        "type": "sale",
                        "seat": seat,
                        "space": i + 1,
                        "units": units,
                        "case": case,
                        "die": die,
                        "sold": sold,
                        "income": income,
                        "die_after": after,
                        "die_to": "existing-orders" if after is not None else "customer-base",
                    }
                )

    def _taxes(self, state: State, report: list[Event]) -> None:
        players = state["players"]
        for seat in state["order"]:
            player = players[seat]
            before = player["coins"]
            tax = before // 10
            player["coins"] = before - tax
            report.append(
                {"type": "tax", "seat": seat, "coins_before": before, "tax": tax, "coins": before - tax}
            )

    def _end_check(self, state: State, report: list[Event]) -> bool:
        threshold = state["options"]["end_threshold"]
        coins = [p["coins"] for p in state["players"]]
        reached = [seat for seat, c in enumerate(coins) if c >= threshold]
        winners: list[int] = []
        if reached:
            best = max(coins)
            winners = [seat for seat, c in enumerate(coins) if c == best]
            if len(winners) > 1 and state["options"]["winner_ties"] == "later-in-turn-order":
                winners = [max(winners, key=state["order"].index)]
            state["finished"] = True
            state["winners"] = winners
        report.append(
            {
                "type": "end-check",
                "threshold": threshold,
                "reached": reached,
                "finished": bool(reached),
                "winners": winners,
            }
        )
        return bool(reached)

    def _turn_order(self, state: State, report: list[Event]) -> None:
        before = state["order"]
        players = state["players"]
        # sorted() is stable, so players with equal coins keep their previous order.
        after = sorted(before, key=lambda seat: players[seat]["coins"])
        state["order"] = after
        report.append(
            {
                "type": "turn-order",
                "before": list(before),
                "after": list(after),
                "coins": [p["coins"] for p in players],
            }
        )

    def _market(self, state: State, report: list[Event]) -> None:
        spaces = state["spaces"]
        dice = _Dice(state)
        for color in COLORS:
            alive = [
                i
                for i in COLOR_INDICES[color]
                if not spaces[i]["obsolete"] and (spaces[i]["existing_orders"] or spaces[i]["customer_base"])
            ]
            case = "abcd"[min(len(alive), 3)]
            report.append(
                {
                    "type": "market",
                    "color": color,
                    "locomotive": COLOR_NAMES[color],
                    "case": case,
                    "generations": [GENERATION[i] for i in alive],
                }
            )
            if case == "b":
                report.append(self._market_step(state, dice, alive[0], color, case, "only"))
            elif case == "c":
                report.append(self._market_step(state, dice, alive[0], color, case, "old"))
                report.append(self._market_step(state, dice, alive[1], color, case, "new"))
            elif case == "d":
                # Three generations: the oldest becomes obsolete. (Four can only happen if two
                # new generations of one colour are developed in one round; all but the newest
                # two then become obsolete.)
                for i in alive[:-2]:
                    report.append(self._market_step(state, dice, i, color, case, "obsolete"))
                report.append(self._market_step(state, dice, alive[-2], color, case, "middle"))
                report.append(self._market_step(state, dice, alive[-1], color, case, "newest"))
        for i, sp in enumerate(spaces):
            if sp["initial_order_pending"] and dice.take(1):
                sp["initial_order_pending"] = False
                sp["initial_order"] = dice.roll()
                report.append({"type": "space-unlocked", "space": i + 1, "die": sp["initial_order"]})
        dice.save(state)

    def _market_step(self, state: State, dice: _Dice, i: int, color: str, case: str, role: str) -> Event:
        sp = state["spaces"][i]
        orders = sp["existing_orders"]
        base = sp["customer_base"]
        added = removed = 0
        short = 0
        if role == "obsolete":
            removed = len(orders) + len(base)
            orders.clear()
            base.clear()
            dice.give_back(removed)
            sp["obsolete"] = True
        else:
            if role == "old":
                if base:
                    base.pop()
                    removed = 1
                    dice.give_back(1)
            else:
                current = len(orders) + len(base)
                wanted = BOXES[i] - current if role == "middle" else min(1, BOXES[i] - current)
                added = dice.take(wanted)
                short = wanted - added
                base.extend([0] * added)
        rolled = [dice.roll() for _ in base]
        base.clear()
        orders.extend(rolled)
        return {
            "type": "market-step",
            "color": color,
            "case": case,
            "role": role,
            "space": i + 1,
            "generation": GENERATION[i],
            "added": added,
            "removed": removed,
            "pool_short": short,
            "rolled": rolled,
            "existing_orders": list(orders),
        }

    # -- views ---------------------------------------------------------------
    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        prod = PRODUCTION[state["options"]["production_costs"]]
        order = state["order"]
        return {
            "kind": self.kind,
            "round": state["round"],
            "phase": state["phase"],
            "turn_order": list(order),
            "active_seat": None if state["finished"] else order[state["turn"]],
            "you": seat,
            "players": [
                {
                    "seat": s,
                    "name": p["name"],
                    "coins": p["coins"],
                    "turn_position": order.index(s),
                    "developed": list(p["developed"]),
                    "cards": [
                        {
                            "space": c["space"],
                            "units": c["units"],
                            "production": prod[c["space"] - 1],
                            "income": INCOME[c["space"] - 1],
                        }
                        for c in p["cards"]
                    ],
                }
                for s, p in enumerate(state["players"])
            ],
            "spaces": [
                {
                    "space": s.space,
                    "name": s.name,
                    "color": s.color,
                    "locomotive": COLOR_NAMES[s.color],
                    "generation": s.generation,
                    "cost": s.cost,
                    "production": prod[s.space - 1],
                    "income": s.income,
                    "boxes": s.customer_base,
                    "cards_left": sp["cards_left"],
                    "cards_removed": state["removed_cards"][s.space - 1],
                    "initial_order": sp["initial_order"],
                    "initial_order_pending": sp["initial_order_pending"],
                    "existing_orders": list(sp["existing_orders"]),
                    "customer_base": list(sp["customer_base"]),
                    "obsolete": sp["obsolete"],
                    "developable": _developable(sp) and sp["cards_left"] > 0 and not _retired(state, s.space - 1),
                }
                for s, sp in zip(SPACES, state["spaces"], strict=True)
            ],
            "dice_pool": (
                PHYSICAL_DICE - _dice_on_board(state) if state["options"]["dice_pool"] == "twenty" else None
            ),
            "options": dict(state["options"]),
            "last_round": _copy_report(state["last_round"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "listing": self.listing(state, seat=seat),
        }

    # -- bots ------------------------------------------------------------------
    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        from .bots import choose

        return choose(self, state, seat=seat, bot=bot, rng=rng)
