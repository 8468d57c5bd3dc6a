"""Bots for Locomotive Werks.

``random``  picks any legal command, uniformly.
``greedy``  plays a one-round lookahead:

* Selling is automatic and in turn order, and every player before you in the
  turn order has already finished the capacity phase, so the dice those players
  will take are known exactly. The greedy bot replays their sales on a copy of
  the Existing Orders and sees what is left for itself. A card sells
  ``min(units, highest remaining die)``, so the useful number of units on a card
  is that highest die.
* Capacity: shift surplus units (more than the card can sell) to cards that can
  sell more, then buy the missing units, best income per coin first.
* Development: develop the type whose one-round income (with the units the
  money left over can buy) is highest, discounted when a newer generation of its
  colour already exists; skip development when the game is about to end.
* Near the end (some player is projected to reach the threshold this round) it
  stops investing, because a unit or a card never pays for itself in one round.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..base import Command, RulesError, State
from .data import DIE_FACES
from .rules import COLOR, COLOR_INDICES, COST, DEVELOPMENT, GENERATION, INCOME, PRODUCTION

if TYPE_CHECKING:
    from .rules import LocomotiveWerks

PASS: Command = {"cmd": "pass"}


def choose(engine: LocomotiveWerks, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    if bot == "random":
        legal = engine.legal_commands(state, seat=seat)
        if not legal:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        return rng.choice(legal)
    if bot == "greedy":
        require_turn(engine, state, seat)
        if state["phase"] == DEVELOPMENT:
            return _greedy_development(engine, state, seat)
        return _greedy_capacity(engine, state, seat)
    raise RulesError("unknown-bot", f"There is no bot {bot!r}.")


def require_turn(engine: LocomotiveWerks, state: State, seat: int) -> None:
    if seat not in engine.active_seats(state):
        raise RulesError("not-your-turn", "This bot has nothing to do.")


def remaining_orders(state: State, seat: int) -> list[list[int]]:
    """Existing Orders per space after the players before ``seat`` in turn order
    have sold with the units they hold now."""
    orders = [list(sp["existing_orders"]) for sp in state["spaces"]]
    for other in state["order"]:
        if other == seat:
            break
        for card in state["players"][other]["cards"]:
            units = card["units"]
            dice = orders[card["space"] - 1]
            if not units or not dice:
                continue
            if units in dice:
                dice.remove(units)
            else:
                highest = max(dice)
                if units < highest:
                    dice[dice.index(highest)] = highest - units
                else:
                    dice.remove(highest)
    return orders


def projected_income(state: State, seat: int) -> int:
    """Coins ``seat`` would earn this round with the units held now."""
    orders = remaining_orders(state, seat)
    total = 0
    for card in state["players"][seat]["cards"]:
        dice = orders[card["space"] - 1]
        if dice:
            total += min(card["units"], max(dice)) * INCOME[card["space"] - 1]
    return total


def _last_round_likely(state: State) -> bool:
    threshold = state["options"]["end_threshold"]
    for seat, player in enumerate(state["players"]):
        coins = player["coins"] + projected_income(state, seat)
        if coins - coins // 10 >= threshold:
            return True
    return False


def _newer_generations(state: State, i: int) -> int:
    """How many newer generations of space ``i``'s colour are alive or unlocked."""
    count = 0
    for j in COLOR_INDICES[COLOR[i]]:
        if GENERATION[j] <= GENERATION[i]:
            continue
        sp = state["spaces"][j]
        if not sp["obsolete"] and (
            sp["initial_order"] is not None or sp["existing_orders"] or sp["customer_base"]
        ):
            count += 1
    return count


def _greedy_development(engine: LocomotiveWerks, state: State, seat: int) -> Command:
    legal = [c for c in engine.legal_commands(state, seat=seat) if c["cmd"] == "develop"]
    if not legal or _last_round_likely(state):
        return PASS
    prod = PRODUCTION[state["options"]["production_costs"]]
    coins = state["players"][seat]["coins"]
    owners = [0] * len(state["spaces"])
    for player in state["players"]:
        for card in player["cards"]:
            owners[card["space"] - 1] += 1
    best, best_score = PASS, 0.0
    for command in legal:
        i = command["space"] - 1
        sp = state["spaces"][i]
        dice = list(sp["existing_orders"])
        if sp["initial_order"] is not None:
            dice.append(sp["initial_order"])
        demand = (sum(dice) + 3.5 * len(sp["customer_base"])) / (1 + owners[i])
        units = 1 + (coins - COST[i]) // prod[i]
        life = (1.0, 0.5, 0.15)[min(_newer_generations(state, i), 2)]
        score = INCOME[i] * min(units, demand, DIE_FACES) * life
        if score > best_score:
            best, best_score = command, score
    return best


def _greedy_capacity(engine: LocomotiveWerks, state: State, seat: int) -> Command:
    if _last_round_likely(state):
        return PASS
    player = state["players"][seat]
    prod = PRODUCTION[state["options"]["production_costs"]]
    coins = player["coins"]
    orders = remaining_orders(state, seat)
    cards: list[dict[str, Any]] = player["cards"]
    useful = {}
    for card in cards:
        dice = orders[card["space"] - 1]
        life = _newer_generations(state, card["space"] - 1)
        useful[card["space"]] = max(dice) if dice and life < 2 else 0
    # Best income per coin first.
    needy = sorted(
        (c for c in cards if c["units"] < useful[c["space"]]),
        key=lambda c: (-INCOME[c["space"] - 1] / prod[c["space"] - 1], -c["space"]),
    )
    for target in needy:
        need = useful[target["space"]] - target["units"]
        for source in cards:
            surplus = source["units"] - useful[source["space"]]
            if surplus <= 0 or not engine.can_shift(state, source["space"], target["space"]):
                continue
            diff = prod[target["space"] - 1] - prod[source["space"] - 1]
            count = min(surplus, need, coins // diff if diff else need)
            if count > 0:
                return {"cmd": "shift-units", "from": source["space"], "to": target["space"], "count": count}
    for target in needy:
        need = useful[target["space"]] - target["units"]
        count = min(need, coins // prod[target["space"] - 1])
        if count > 0:
            return {"cmd": "buy-units", "space": target["space"], "count": count}
    return PASS
