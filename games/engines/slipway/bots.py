"""Slipway's bots: ``random`` (any legal command) and ``shipwright`` (a heuristic player).

``shipwright`` plays one command at a time and derives everything afresh from the state, so the same
state always gives the same command (the ``rng`` is not used):

1. **Discards.** Keeps the contracts with the best prospect: their points now plus most of what the target
   ship (below), launched about once every four turns left, would add; ties broken by how naturally a
   fleet of steamers reaches them.
2. **Actions** (choose, the main action, a bonus, the final build): every candidate command is applied
   to a copy of the state (``marshal``: the state is plain JSON; the other players are shared unless the
   command ends the turn) and the result valued for the bot's seat (:func:`value`, whose figures are
   remembered by what they read, so the many candidates of a decision that share most of a player cost little). ``choose`` and ``bonus`` are valued with their
   best follow-up command. Builds of two or three tiles are the bot's own: for each window of 3–6 slots
   whose tiles fit one ship, the best affordable market tiles for its empty slots, or for all but one
   middle (the ship held open until its crew and engines are in hand), picked for places, price or steam
   (the listing lists single tiles only).
3. **Launching.** Once the turn's actions are settled, each completed ship gets the outfit that scores
   most on a path the canals can give (a captain; stokers, smokestacks and sails for the greatest speed
   not beyond the canals' forward length; cranes, cannons, marines, merchants, officers for the room
   left), then cruises on the path that scores most, counting what the canals still offer afterwards.

:func:`value` is the points already made (fleet, the best two contracts, traders) plus the promise of
the rest, weighed by the turns this seat has left: money, stock items (a stoker with a smokestack makes a
speed-4 steamer), commodity goods, employees, the yard's tiles, completed ships (their cruise score with
the outfit the stock allows, or a loss when they cannot sail) and the canals' forward length from the
token. On top of that it values the *target ship* (:func:`plan_ship`): for the ship being built (the
first run of unfinished tiles in the yard) the best of a few outfits (a plain ship, or a steamer with one
or two stokers, smokestacks and a sail), scored with its contract gains, less ``PLAN_ACTION`` for each
action still to take (tiles, a captain, stokers and smokestacks by recruit, manufacture or a commodity
tile's exchange, canal rents to reach its speed). So every step toward the target is worth something the
one-ply comparison sees. Nothing here changes the rules: it only reads the engine's state and its helpers.
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..base import Command, RulesError, State
from . import canal, data, yard
from .commands import ITEMS

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Slipway

BOTS = ("random", "shipwright", "steam", "sails", "big-ships", "small-ships", "contracts", "traders", "riband")
ACTION_COMMAND = {
    "build": "build", "canal": "rent-canal", "commodity": "buy-commodity", "equipment": "manufacture",
    "crew": "recruit", "employee": "hire", "exchange": "exchange", "subsidy": "subsidy",
}
MONEY = 0.45  # a coin while there are turns to spend it (up to what tiles and canals want)
MONEY_NEEDED = 8  # coins a player wants for its next tiles and canals
SPARE_MONEY = 0.15  # a coin beyond those (a bonus action costs 6)
LAUNCH_RETURN = 0.7  # the share of a launched ship's items' stock value counted back
PLAN_EXCLUSIVE = 0  # 1: the stock, goods and canal the target uses count in its value only
PLAN_WEIGHT = 0.8  # the target ship's value beside the items' own
GOOD = 1.2  # a good on a commodity tile the target ship does not want (its sale)
CANAL = 1.0  # scale of the canals' promise
TILE = 0.6  # a ship tile in the yard, before its places
STOCK = 1.0  # scale of the stock items' promise
BONUS_MARGIN = 0.5  # a bonus action is taken when it adds at least this much to the valuation
GOOD_SHIP = 6  # the cruise score of a plain steamer (captain, stoker, smokestack, speed 4, a crane)
SHIP_PATIENCE = 0.1  # how much of the gap to a good ship counts against launching a poor one early
MAX_LENGTH = 14  # the canals' forward length is looked at up to this many steps
PATHS_LOOKED_AT = 300  # cruise paths weighed per ship
PLAN_ACTION = 0.8  # the points an action costs a plan (about what an action earns over a game)
PLAN_TRUST = 0.85  # a planned ship's score counts at this share (markets change, rivals take tiles)
TILES_PER_BUILD = 2.5  # ship tiles a build action places, on average
STEPS_PER_RENT = 2.5  # canal steps a rented tile adds, on average
# The target ships weighed: (stokers, smokestacks, sails); (0, 0, 0) is the plain ship with a captain.
PLAN_MODES = ((0, 0, 0), (1, 1, 0), (2, 1, 0), (1, 2, 0), (1, 1, 1), (2, 2, 0), (2, 1, 1), (2, 2, 1))

# Stock items as promise (before the weight of the turns left): the common speed pieces and captains are
# what every ship needs; cranes and cannons score 2 on a ship, marines and merchants 1.
ITEM_VALUE = {"sail": 0.8, "crane": 1.8, "cannon": 1.8, "marine": 0.9, "merchant": 0.9}
EMPLOYEE_VALUE = {
    ("speed", None): 3.0, ("speed", "smokestack"): 2.6, ("speed", "sail"): 1.3, ("speed", "long"): 1.3,
    ("engineer", "smokestack"): 2.0, ("engineer", "sail"): 1.5, ("engineer", "crane"): 2.4,
    ("engineer", "cannon"): 2.4, ("recruiter", "captain"): 2.2, ("recruiter", "stoker"): 2.0,
    ("recruiter", "marine"): 1.6, ("recruiter", "merchant"): 1.6,
    # a rig or cannon place more is a sail or smokestack, or a 2-point cannon, aboard any ship
    ("builder", "rig"): 1.6, ("builder", "cannon"): 1.6,
}
BUILDER = 1.2  # any other builder (a cabin, a stoker cabin, a crane place)
MOVER = 1.3  # free steps on a wheel (cheaper recruits, manufactures, hires)
# How naturally a steamer fleet reaches each contract measure (the discard's tie-break).
CONTRACT_LEAN = {
    "fleet": 3.0, "ships_min_speed": 2.0, "canals_used": 3.0, "lengths": 2.0, "best_riband": 1.0, "items": 1.0,
    "ships_with": 1.5, "ships_min_length": 1.0, "ships_all_safety": 0.3, "safety_items": 1.5, "ships_sail_and_smokestack": 1.0,
    "officers": 1.0,
}


@dataclass(frozen=True)
class Style:
    """What a shipwright aims at: the valuation's leanings. ``shipwright`` weighs everything as the constants
    above say; each single-focus bot leans one way (the balance report's tournament: does any line dominate?)."""

    modes: tuple[tuple[int, int, int], ...] = PLAN_MODES  # the target ships weighed (stokers, smokestacks, sails)
    items: dict[str, float] = field(default_factory=dict)  # extra promise per stock item
    employees: dict[str, float] = field(default_factory=dict)  # extra per employee, by effect type or type:arg
    canal: float = CANAL
    good: float = GOOD
    tile: float = TILE
    patience: float = SHIP_PATIENCE
    contracts: float = 1.0  # the weight of the held contracts' points (realized and gained)
    length: float = 0.0  # the promise per piece of the ship being built beyond four
    lengths: tuple[int, int] = (3, 6)  # the ship lengths its own builds of 2-3 tiles aim at
    riband: float = 0.0  # the promise per Blue Riband spot in its canal system
    officials: float = 0.0  # the promise per official's spot in its canal system
    avoid: tuple[str, ...] = ()  # items it never puts aboard (nor values in its stock)
    min_ship: int = 3  # a ship completed shorter than this counts 4 points against it


STEAM_MODES = ((1, 1, 0), (2, 1, 0), (1, 2, 0), (2, 2, 0), (2, 2, 1))
SAIL_MODES = ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3))  # no stoker: the sails line ships none (avoid)
STYLES: dict[str, Style] = {
    "shipwright": Style(),
    # steam speed: stokers and smokestacks, speed and engine staff
    "steam": Style(modes=STEAM_MODES, items={"stoker": 0.8, "smokestack": 0.8, "sail": -0.5},
                   employees={"speed": 1.5, "engineer:smokestack": 1.5, "recruiter:stoker": 1.5,
                              "builder:stoker_cabin": 1.0}),
    # sails only: no engines at all
    "sails": Style(modes=SAIL_MODES, items={"sail": 1.2}, avoid=("stoker", "smokestack"),
                   employees={"speed:sail": 2.0, "engineer:sail": 2.0, "builder:rig": 1.5}),
    # big ships: long hulls full of cabins and mounts
    "big-ships": Style(length=1.5, lengths=(3, 7), min_ship=5, tile=0.9, patience=0.6,
                       items={"crane": 0.6, "cannon": 0.6, "marine": 0.5, "merchant": 0.5},
                       employees={"speed:long": 2.0, "builder": 1.0}),
    # many small ships: three pieces, launched as soon as they can sail
    "small-ships": Style(modes=((0, 0, 0), (0, 0, 1), (1, 1, 0)), lengths=(3, 3), patience=0.0, tile=0.4,
                         items={"captain": 1.0}, employees={"recruiter:captain": 2.0}),
    # contracts: the held contracts' points weigh more, made and promised
    "contracts": Style(contracts=1.8),
    # commodities and traders: goods bought, sold and traded, red traders hired
    "traders": Style(good=2.2, employees={"trader": 2.5}),
    # canals and the Blue Riband: long canal systems with riband and officials' spots
    "riband": Style(canal=1.8, riband=1.5, officials=0.6, employees={"speed": 0.8}),
}
FOCUS_BOTS = tuple(b for b in STYLES if b != "shipwright")


def choose(engine: Slipway, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
    if bot in STYLES:
        return _Shipwright(engine, state, seat, STYLES[bot]).command()
    legal = engine.legal_commands(state, seat=seat)
    if not legal:
        raise RulesError("not-your-turn", "This bot has nothing to do.")
    return rng.choice(legal)


def _copy(state: State) -> State:
    """A deep copy of a plain-JSON state. ``marshal`` (format 2: no shared references, like a JSON round trip)
    is about twice as fast as ``json.loads(json.dumps())`` and gives the same document."""
    return marshal.loads(marshal.dumps(state, 2))


def _trial_copy(state: State, seat: int, command: Command) -> State:
    """A copy of ``state`` to try ``command`` of ``seat`` on. Only a command that ends a turn (``pass``,
    ``end-turn``) changes another player (the next turn's start, a queue cube's discards); for any other the
    other players are shared with ``state``, not copied (they are only read)."""
    if command["cmd"] in ("pass", "end-turn"):
        return _copy(state)
    players = state["players"]
    shared = {**state, "players": None}
    copy = marshal.loads(marshal.dumps(shared, 2))
    copy["players"] = [marshal.loads(marshal.dumps(p, 2)) if i == seat else p for i, p in enumerate(players)]
    return copy


def _key(*parts: Any) -> bytes:
    """A memo key: the bytes of plain data (equal bytes, equal data)."""
    return marshal.dumps(parts, 2)


def _remember(memo: dict[Any, Any], key: Any, found: Any, size: int | None = None) -> Any:
    if len(memo) > (size or MEMO_SIZE):
        memo.clear()
    memo[key] = found
    return found


# What the valuation works out again and again: every candidate of a decision shares most of the player
# (its fleet, contracts, employees, the ship being built), so the figures are remembered by their inputs.
MEMO_SIZE = 50_000  # entries a memo holds before it starts afresh (a few hundred MB at most)
_REALIZED: dict[bytes, float] = {}
_PLANS: dict[bytes, tuple[float, dict[str, Any]]] = {}
_PROMISES: dict[bytes, tuple[float, ...]] = {}
_FOLLOW_UPS: dict[bytes, Command | None] = {}  # the best command performing an open action, by state and style
# a planned ship's speed by the player's employees, then (length, stokers, smokestacks, sails): engine.speed
# reads no more of a ship than those
_SPEEDS: dict[bytes, dict[tuple[int, int, int, int], int]] = {}


# -- facts the valuation reads ------------------------------------------------------------------------


def turns_left(state: State, seat: int) -> float:
    """About how many more turns ``seat`` gets after the current one (the final action counts)."""
    phase = state["phase"]
    if phase in ("final-build", "finished"):
        return 0.0
    if phase == "final-action":
        turn = state["turn"]
        order = state["order"]
        if turn is not None and order.index(turn["seat"]) < order.index(seat):
            return 1.0
        return 0.0
    end = state["end"]
    if end is not None:
        if end["reason"] == "stack" and state["options"]["stack_end"] == "immediate":
            return 0.0
        return 1.0
    timer = state["timer"]
    advances = timer["queue"] * timer["spaces"] + (timer["spaces"] - timer["space"])
    return advances / len(state["players"]) + 1.0


def forward_length(system: dict[str, Any]) -> int:
    """The longest forward path the canals offer from the token (from any mouth before the first cruise).

    Remembered by the system's tiles and token: every candidate of a decision asks about the same few
    systems, and the search is most of a valuation's time."""
    token = system.get("token")
    key = (tuple((t["x"], t["y"], t["tile"], t.get("rotation", 0)) for t in system.get("tiles") or []),
           None if token is None else (token["x"], token["y"], token["spot"], token["entered"]))
    found = _LENGTHS.get(key)
    if found is None:
        # the longest forward walk, up to MAX_LENGTH (a walk's first steps are a walk: canal.has_path(n)
        # holds for every n up to it), in one search of the system
        index = canal._index(system, data.canals())
        found = 0
        for pos, entered, _named in canal._origins(system, index, None):
            found = max(found, _longest(index, pos, entered, frozenset(), MAX_LENGTH))
            if found >= MAX_LENGTH:
                break
        if len(_LENGTHS) > 20_000:
            _LENGTHS.clear()
        _LENGTHS[key] = found
    return found


_LENGTHS: dict[tuple[Any, ...], int] = {}


def _longest(index: Any, pos: Any, entered: str, gone: frozenset[Any], cap: int) -> int:
    """The most forward steps (up to ``cap``) from ``pos``, as canal's walks take them."""
    best = 0
    for step, step_entered in canal._moves(index, gone, pos, entered):
        left = gone | {(pos[0], pos[1])} if step[:2] != pos[:2] else gone
        best = max(best, 1 + _longest(index, step, step_entered, left, cap - 1))
        if best >= cap:
            return cap
    return best


def canal_value(length: int) -> float:
    """The promise of ``length`` forward steps: the first few make a steamer possible at all."""
    return sum(1.0 if i <= 4 else 0.6 if i <= 8 else 0.25 for i in range(1, length + 1))


def units(tile: str) -> int:
    """A ship tile's places: cabins, stoker cabins and mounts."""
    t = data.ships()[tile]
    return t["cabins"] + t["stoker_cabins"] + sum(t["mounts"].values())


def plan_outfit(engine: Slipway, player: dict[str, Any], tiles: list[str], aboard: list[str],
                stock: dict[str, int], length: int) -> tuple[list[str], int]:
    """The items from ``stock`` to add to a ship already carrying ``aboard`` for its best cruise on canals of
    forward ``length``, and that cruise's score without officials or riband (0 items and -1 when it
    cannot sail)."""
    room = engine.capacity(player, tiles)
    used = engine.needs(aboard)
    left = {k: room[k] - used[k] for k in room}
    add: list[str] = []
    captains = stock.get("captain", 0)
    if "captain" not in aboard:
        if captains < 1:
            return [], -1
        add.append("captain")
        captains -= 1
    best: tuple[int, int] | None = None  # the greatest speed the canals allow, then the fewest items
    best_add = (0, 0, 0)
    for st in range(min(stock.get("stoker", 0), max(0, left["stoker_cabin"])) + 1):
        for sm in range(min(stock.get("smokestack", 0), max(0, left["rig"])) + 1):
            for sa in range(min(stock.get("sail", 0), max(0, left["rig"] - sm)) + 1):
                items = aboard + ["stoker"] * st + ["smokestack"] * sm + ["sail"] * sa
                speed = engine.speed(player, tiles, items)
                if speed > length:
                    continue
                key = (speed, -(st + sm + sa))
                if best is None or key > best:
                    best, best_add = key, (st, sm, sa)
    if best is None:
        return [], -1
    add += ["stoker"] * best_add[0] + ["smokestack"] * best_add[1] + ["sail"] * best_add[2]
    left["rig"] -= best_add[1] + best_add[2]
    for item, mount in (("crane", "crane"), ("cannon", "cannon")):
        n = min(stock.get(item, 0), max(0, left[mount]))
        add += [item] * n
    cabins = max(0, left["cabin"])
    for item in ("marine", "merchant"):
        n = min(stock.get(item, 0), cabins)
        add += [item] * n
        cabins -= n
    officers = min(max(0, captains - 1), cabins)  # one captain is kept for the next ship
    add += ["captain"] * officers
    items = aboard + add
    count = {i: items.count(i) for i in ITEMS}
    score = (best[0] + sum(count[c] for c in ("captain", "marine", "merchant"))
             + 2 * (count["crane"] + count["cannon"]))
    return add, score


def stock_value(items: dict[str, int], style: Style | None = None) -> float:
    captains = items["captain"]
    v = 3.0 * min(captains, 1) + 1.5 * min(max(captains - 1, 0), 1) + 0.6 * max(captains - 2, 0)
    pairs = min(items["stoker"], items["smokestack"])
    v += 4.0 * min(pairs, 1) + 1.6 * max(pairs - 1, 0)
    v += 1.0 * (items["stoker"] + items["smokestack"] - 2 * pairs)
    v += sum(ITEM_VALUE[i] * items[i] for i in ITEM_VALUE)
    if style is not None and style.items:
        v += sum(extra * items.get(i, 0) for i, extra in style.items.items())
    return v


def employee_value(effect: dict[str, Any], style: Style | None = None) -> float:
    extra = 0.0
    if style is not None and style.employees:
        arg = effect.get("item", effect.get("needs", effect.get("capacity", effect.get("good"))))
        extra = style.employees.get(effect["type"], 0.0) + style.employees.get(f"{effect['type']}:{arg}", 0.0)
    return extra + _employee_value(effect)


def _employee_value(effect: dict[str, Any]) -> float:
    kind = effect["type"]
    if kind == "trader":
        return 0.4  # its points are counted as points; this is its better price
    if kind in ("speed", "engineer", "recruiter"):
        return EMPLOYEE_VALUE.get((kind, effect.get("needs", effect.get("item"))), 1.0)
    if kind == "builder":
        return EMPLOYEE_VALUE.get((kind, effect["capacity"]), BUILDER)
    return MOVER


def realized(engine: Slipway, player: dict[str, Any]) -> float:
    """Points the player has made (what the scores would say now)."""
    key = _key(player["fleet"], player["contracts"], player["employees"], len(player["used_canals"]))
    found = _REALIZED.get(key)
    if found is None:
        found = _remember(_REALIZED, key, _realized(engine, player))
    return found


def _realized(engine: Slipway, player: dict[str, Any]) -> float:
    kept = data.setup()["contracts_kept"]
    contracts = sorted((engine.contract_score(player, c) for c in player["contracts"]), reverse=True)[:kept]
    emp = data.employees()
    traders = sum(emp[e]["effect"].get("points", 0) for e in player["employees"] if emp[e]["effect"]["type"] == "trader")
    return sum(s["score"]["total"] for s in player["fleet"]) + sum(contracts) + traders


def contract_points(engine: Slipway, player: dict[str, Any]) -> int:
    kept = data.setup()["contracts_kept"]
    return sum(sorted((engine.contract_score(player, c) for c in player["contracts"]), reverse=True)[:kept])


def value(engine: Slipway, state: State, seat: int, style: Style | None = None) -> float:
    """Points made plus the promise of the rest, for ``seat`` (see the module's docstring). It reads the
    seat's player, the turns it has left and whether the game is over, nothing else of the state."""
    style = style or STYLES["shipwright"]
    player = state["players"][seat]
    if state["finished"]:
        return realized(engine, player) + 0.01 * player["money"]
    return _styled_value(engine, state, seat, style)


_STYLE_KEYS: dict[int, tuple[Style, str]] = {}


def _style_key(style: Style) -> str:
    """A style's memo key (its fields: a style made anew with the same leanings values alike)."""
    found = _STYLE_KEYS.get(id(style))
    if found is None or found[0] is not style:
        found = _STYLE_KEYS[id(style)] = (style, repr(style))
    return found[1]


def _styled_value(engine: Slipway, state: State, seat: int, style: Style) -> float:
    player = state["players"][seat]
    v = _value(engine, state, seat, style)
    if style.length:  # long ships launched and complete in the yard
        v += style.length * sum(max(0, len(s["tiles"]) - 4) for s in player["fleet"])
        v += style.length * sum(max(0, last - first - 3) for first, last in engine.completed(player))
    if style.min_ship > 3:
        v -= 4.0 * sum(1 for first, last in engine.completed(player) if last - first + 1 < style.min_ship)
    if style.contracts != 1.0:
        v += (style.contracts - 1.0) * contract_points(engine, player)
    return v


def _value(engine: Slipway, state: State, seat: int, style: Style) -> float:
    player = state["players"][seat]
    left = turns_left(state, seat)
    v = realized(engine, player)
    money = player["money"]
    v += (MONEY * min(1.0, left / 2.0) + 0.01) * min(money, MONEY_NEEDED)
    v += (SPARE_MONEY * min(1.0, left / 2.0) + 0.01) * max(0, money - MONEY_NEEDED)
    # the rest reads neither the money nor the canal's tiles beyond its forward length (unless the style
    # counts riband and officials' spots): remembered by what it reads, so candidates that differ only
    # there (a canal rented one way or another, an income) are valued once
    length = forward_length(player["canal"])
    canal_key = player["canal"]["tiles"] if style.riband or style.officials else None
    key = _key(player["employees"], length, canal_key, player["yard"], player["outfits"], player["items"],
               player["fleet"], player["contracts"], len(player["used_canals"]), player["goods"], left,
               _style_key(style))
    found = _PROMISES.get(key)
    if found is None:
        found = _remember(_PROMISES, key, _promise(engine, player, left, length, style))
    for term in found:
        v += term
    return v


def _promise(engine: Slipway, player: dict[str, Any], left: float, length: int, style: Style) -> tuple[float, ...]:
    """What the player has in hand beyond its points and money (see :func:`_value`): the terms :func:`_value`
    adds one by one (in this order, so the sum is the same to the last bit whatever is remembered)."""
    w = min(1.0, left / 3.0)
    w_slow = min(1.0, left / 5.0)
    emp = data.employees()
    terms = [w_slow * sum(employee_value(emp[e]["effect"], style) for e in player["employees"])]
    cells = engine.cells(player)
    ships = yard.completed_ships(cells, data.setup()["ship_max"])
    in_ship: set[int] = set()
    sailing: list[dict[str, Any]] = []
    stock = {k: 0 if k in style.avoid else n for k, n in player["items"].items()}
    for first, last in ships:
        in_ship.update(range(first, last + 1))
        tiles = player["yard"][first:last + 1]
        aboard = player["outfits"].get(str(first), [])
        add, score = plan_outfit(engine, player, tiles, aboard, stock, length)
        if score < 0:
            terms.append(-2.0)
            continue
        before = stock_value(stock, style)
        for item in add:
            stock[item] -= 1
        # the items aboard leave the stock's promise: part of it is counted back, so that a ship is launched
        # once it is ready rather than when the turns run out
        terms.append(w * STOCK * LAUNCH_RETURN * (before - stock_value(stock, style)))
        items = aboard + add
        speed = engine.speed(player, tiles, items)
        length = max(0, length - speed)
        sailing.append({"tiles": tiles, "items": items, "speed": speed, "score": {"riband": 0, "total": score}})
        terms.append(score + 1.0 - w * style.patience * max(0.0, GOOD_SHIP - score))
    if sailing:  # what those cruises would add to the contracts
        gained = realized(engine, {**player, "fleet": player["fleet"] + sailing}) - realized(engine, player)
        terms.append(gained - sum(s["score"]["total"] for s in sailing))
    # the ship being built towards its target, and the promise of what is in hand beyond it
    tiles, missing = project(player, in_ship)
    fleet_now = {**player, "fleet": player["fleet"] + sailing}
    plan_v, plan = plan_ship(engine, fleet_now, tiles, missing, stock, length, left if not sailing else left - 1,
                             style.modes)
    goods_used: tuple[str, ...] = ()
    if plan:
        terms.append(w * PLAN_WEIGHT * plan_v)
        if PLAN_EXCLUSIVE:  # what the target uses is valued there, not again as stock
            for item in plan["items"]:
                if stock.get(item, 0) > 0:
                    stock[item] -= 1
            goods_used = tuple(plan["goods"])
            length = max(0, length - plan["speed"])
    terms.append(w * STOCK * stock_value(stock, style))
    terms.append(w * style.canal * canal_value(length))
    terms.append(w * sum(style.tile + 0.25 * units(t) for t in tiles))
    terms.append(w * style.length * max(0, len(tiles) - 4))
    terms.append(w * style.good * sum(len(data.goods()[g]["goods"]) for g in player["goods"] if g not in goods_used))
    if style.riband or style.officials:
        defs = data.canals()
        for t in player["canal"]["tiles"]:
            for feature in defs[t["tile"]]["spots"].values():
                if feature == "riband":
                    terms.append(w * style.riband)
                elif feature is not None:
                    terms.append(w * style.officials)
    return tuple(terms)


# -- the target ship ---------------------------------------------------------------------------------------


def _plain_middle() -> str:
    """A middle with no safety item: stands for a tile not yet bought when a planned ship's length counts."""
    if not _PLAIN:
        _PLAIN.append(min(t for t, d in data.ships().items() if d["part"] == "middle" and not d["safety"]))
    return _PLAIN[0]


_PLAIN: list[str] = []


def project(player: dict[str, Any], in_ship: set[int]) -> tuple[list[str], dict[str, int]]:
    """The ship being built: the first run of the yard's tiles outside completed ships (from the first such
    tile to its stern, or to just before a second bow), and the parts it still lacks (a bow, a stern, a
    middle) to be a ship at all. Tiles of a second ship begun wait their turn (valued as tiles)."""
    ships = data.ships()
    tiles: list[str] = []
    for s, t in enumerate(player["yard"]):
        if t is None or s in in_ship:
            continue
        part = ships[t]["part"]
        if part == "bow" and tiles:
            break
        tiles.append(t)
        if part == "stern":
            break
    parts = [ships[t]["part"] for t in tiles]
    missing = {"bow": int("bow" not in parts), "stern": int("stern" not in parts),
               "middle": int("middle" not in parts)}
    return tiles, missing


def cover_from_goods(player: dict[str, Any], short: dict[str, int]) -> list[str]:
    """Take what the player's commodity tiles can become off ``short`` (in place); the tiles used (an
    exchange each).

    Each good becomes one item of its kind's table, no two goods of a tile the same item (the rule)."""
    kinds = data.kinds()
    goods = data.goods()
    used: list[str] = []
    for g in player["goods"]:
        taken: list[str] = []
        for kind in goods[g]["goods"]:
            item = next((i for i in kinds[kind]["trades"] if short.get(i, 0) > 0 and i not in taken), None)
            if item is not None:
                taken.append(item)
                short[item] -= 1
        if taken:
            used.append(g)
    return used


def plan_ship(engine: Slipway, player: dict[str, Any], tiles: list[str], missing: dict[str, int],
              stock: dict[str, int], length: int, left: float,
              modes: tuple[tuple[int, int, int], ...] = PLAN_MODES) -> tuple[float, dict[str, Any]]:
    """:func:`_plan_ship`, remembered by what it reads (the player's employees, contracts, fleet, used canals
    and goods; the arguments). The plan it returns is shared: read it, don't change it."""
    key = _key(player["employees"], player["contracts"], player["fleet"], len(player["used_canals"]),
               player["goods"], tiles, missing, stock, length, left, modes)
    found = _PLANS.get(key)
    if found is None:
        found = _remember(_PLANS, key, _plan_ship(engine, player, tiles, missing, stock, length, left, modes))
    return found


def _plan_ship(engine: Slipway, player: dict[str, Any], tiles: list[str], missing: dict[str, int],
               stock: dict[str, int], length: int, left: float,
               modes: tuple[tuple[int, int, int], ...] = PLAN_MODES) -> tuple[float, dict[str, Any]]:
    """The best target ship for the yard's project: its value (the planned score, trusted at
    ``PLAN_TRUST``, less ``PLAN_ACTION`` per action still to take: tiles, items, canal) and what it uses.

    A mode is a number of stokers, smokestacks and sails; the captain comes from the stock or one action
    (a recruit, or rum); each other missing item from the stock, a commodity tile's goods (one exchange
    for the tile) or one action; a stoker cabin or rig mount the built tiles lack comes with a tile still
    to build; the canals must reach the ship's speed (``STEPS_PER_RENT`` steps a rent). Cranes, cannons,
    marines and merchants in stock go aboard when there is room. A mode needing more actions than the
    turns left is not a plan. The gain on the contracts held counts with the score."""
    room = engine.capacity(player, tiles) if tiles else {"cabin": 0, "stoker_cabin": 0, "rig": 0, "crane": 0,
                                                         "cannon": 0}
    to_build = sum(missing.values())
    best: tuple[float, dict[str, Any]] = (float("-inf"), {})
    base = realized(engine, player)
    ship_max = data.setup()["ship_max"]
    # the speed of a planned ship: the chart and the player's staff, by its length and its engines and sails
    speeds = _SPEEDS.setdefault(_key(player["employees"]), {})
    from_stern = min(missing["stern"], 1)  # a stern still to build brings a stoker cabin and a rig mount
    slots_free = to_build - from_stern  # any other tile still to build one of them
    plain = _plain_middle()
    fleet = player["fleet"]
    for st, sm, sa in modes:
        short_stoker_left = max(0, max(0, st - room["stoker_cabin"]) - from_stern)
        short_rig_left = max(0, max(0, sm + sa - room["rig"]) - from_stern)
        need_units = short_stoker_left + short_rig_left
        extra_tiles = max(0, need_units - slots_free)
        if len(tiles) + to_build + extra_tiles > ship_max:
            continue
        actions = (to_build + extra_tiles) / TILES_PER_BUILD
        short: dict[str, int] = {}
        for item, n in (("captain", 1), ("stoker", st), ("smokestack", sm), ("sail", sa)):
            use = min(n, stock.get(item, 0))
            if n > use:
                short[item] = n - use
        goods_used = cover_from_goods(player, short) if short else []
        actions += len(goods_used)
        actions += sum(short.values())
        n_shape = len(tiles) + to_build + extra_tiles
        speed = speeds.get((n_shape, st, sm, sa))
        if speed is None:
            speed = speeds[(n_shape, st, sm, sa)] = engine.speed(
                player, tiles + [plain] * (to_build + extra_tiles),
                ["captain"] + ["stoker"] * st + ["smokestack"] * sm + ["sail"] * sa)
        if speed > length:
            actions += (speed - length) / STEPS_PER_RENT
        if actions > left + 0.5:
            continue
        items = ["captain"] + ["stoker"] * st + ["smokestack"] * sm + ["sail"] * sa
        score = speed + 1
        spare_units = max(0, slots_free - need_units)  # tiles still to build can bring mounts and cabins
        for item in ("crane", "cannon"):
            n = min(stock.get(item, 0), room[item] + spare_units)
            spare_units -= max(0, n - room[item])
            items += [item] * n
            score += 2 * n
        cabins = room["cabin"] + spare_units
        for item in ("marine", "merchant"):
            n = min(stock.get(item, 0), cabins)
            items += [item] * n
            cabins -= n
            score += n
        ship = {"tiles": tiles + [plain] * (to_build + extra_tiles), "items": items, "speed": speed,
                "score": {"riband": 0, "total": score}}
        gain = realized(engine, {**player, "fleet": fleet + [ship]}) - base - score
        v = PLAN_TRUST * (score + gain) - PLAN_ACTION * actions
        if v > best[0]:
            best = (v, {"items": items, "speed": speed, "actions": actions, "goods": goods_used})
    return best


# -- the player -----------------------------------------------------------------------------------------


class _Shipwright:
    def __init__(self, engine: Slipway, state: State, seat: int, style: Style | None = None) -> None:
        self.style = style or STYLES["shipwright"]
        self.engine = engine
        self.state = state
        self.seat = seat
        self.player = state["players"][seat]

    def command(self) -> Command:
        state = self.state
        turn = state["turn"]
        if turn is None or turn["seat"] != self.seat or state["finished"]:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        stage = turn["stage"]
        if stage == "discard":
            return self._discard()
        if stage == "choose":
            return self._best_choose()
        if stage == "final-build" and not turn["main_done"]:
            cands = [c for c in self.engine.legal_commands(state, seat=self.seat) if c["cmd"] in ("build", "pass")]
            return self._best(cands, baseline_cmd={"cmd": "pass"})
        if stage == "act":
            picked = self._act()
            if picked is not None:
                return picked
        return self._launch()

    # -- discards and choices ------------------------------------------------------------------------
    def _discard(self) -> Command:
        """Drop the contract with the worst prospect: its points now, plus what the target ship (launched as
        often as the turns left allow, about one every four turns) would add; ties by ``CONTRACT_LEAN``."""
        contracts = data.contracts()
        engine, player = self.engine, self.player
        in_ship = {s for first, last in engine.completed(player) for s in range(first, last + 1)}
        tiles, missing = project(player, in_ship)
        left = turns_left(self.state, self.seat)
        _v, plan = plan_ship(engine, player, tiles, missing, dict(player["items"]),
                             forward_length(player["canal"]), left, self.style.modes)
        fleet = list(player["fleet"])
        if plan:
            shape = tiles + [_plain_middle()] * max(0, self._projected_length() - len(tiles))
            ship = {"tiles": shape, "items": plan["items"], "speed": plan["speed"], "score": {"riband": 0, "total": 0}}
            fleet += [ship] * max(1, round(left / 4))
        future = {**player, "fleet": fleet}

        def keep(c: str) -> tuple[float, float, str]:
            now = engine.contract_score(player, c)
            later = engine.contract_score(future, c)
            return now + 0.7 * (later - now), CONTRACT_LEAN.get(contracts[c]["measure"], 1.0), c

        worst = min(player["contracts"], key=keep)
        return {"cmd": "discard-contract", "contract": worst}

    def _projected_length(self) -> int:
        """The length of the ships the discard projects: one more than the shortest the style builds, within
        the lengths it builds (the shipwright's 3-6 gives 4: a length contract is then worth keeping)."""
        low, high = self.style.lengths
        return max(3, min(high, low + 1))

    def _value_after(self, command: Command, state: State | None = None) -> float | None:
        """The value of ``state`` (this one by default) after ``command``; None when it is refused."""
        copy = _trial_copy(self.state if state is None else state, self.seat, command)
        try:  # the rules only: the candidates are the listing's commands and the bot's own builds, well formed
            self.engine.apply_rules(copy, seat=self.seat, command=command)
        except RulesError:
            return None
        return value(self.engine, copy, self.seat, self.style)

    def _best(self, commands: Iterable[Command], *, baseline_cmd: Command | None = None,
              baseline: float | None = None) -> Command:
        """The command whose resulting state is worth most (``baseline_cmd`` is what is sent when nothing beats
        ``baseline``)."""
        best_cmd: Command | None = None
        best_v = baseline if baseline is not None else float("-inf")
        for cmd in commands:
            v = self._value_after(cmd)
            if v is not None and v > best_v + 1e-9:
                best_cmd, best_v = cmd, v
        if best_cmd is None:
            if baseline_cmd is not None:
                return baseline_cmd
            return self.engine.legal_commands(self.state, seat=self.seat)[0]
        return best_cmd

    def _follow_ups(self, state: State, action: str) -> list[Command]:
        """Commands performing ``action`` in ``state`` (the bot's own multi-tile builds included)."""
        name = ACTION_COMMAND[action]
        cmds = [c for c in self.engine.legal_commands(state, seat=self.seat) if c["cmd"] == name]
        if action == "build":
            cmds = prune_singles(cmds) + multi_builds(self.engine, state, self.seat, self.style.lengths)
        elif action in ("equipment", "crew"):
            cmds = [c for c in cmds if c["steps"] <= 5]
        return cmds

    def _with_follow_up(self, command: Command, action: str) -> float | None:
        """The value after ``command`` (a choose or a bonus) and the best way to perform ``action``."""
        copy = _trial_copy(self.state, self.seat, command)
        try:
            self.engine.apply_rules(copy, seat=self.seat, command=command)
        except RulesError:
            return None
        turn = copy["turn"]
        open_ = turn is not None and turn["seat"] == self.seat and any(
            turn[role] == action and not turn[f"{role}_done"] for role in ("main", "bonus"))
        if not open_:
            return value(self.engine, copy, self.seat, self.style)  # forfeited
        found, _cmd = self._best_follow_up(copy, action)
        return found if found > float("-inf") else value(self.engine, copy, self.seat, self.style)

    def _best_follow_up(self, state: State, action: str) -> tuple[float, Command | None]:
        """The best command performing ``action`` in ``state`` and the value after it (the first of equals);
        the command is remembered by the state, so the turn that chose the action plays it without weighing
        the same commands again."""
        found, best_cmd = float("-inf"), None
        for cmd in self._follow_ups(state, action):
            v = self._value_after(cmd, state)
            if v is not None and v > found:
                found, best_cmd = v, cmd
        # keyed by a whole state (kilobytes): only the latest few are ever asked for
        _remember(_FOLLOW_UPS, _key(state, self.seat, action, _style_key(self.style)), best_cmd, 500)
        return found, best_cmd

    def _best_choose(self) -> Command:
        best_cmd, best_v = None, float("-inf")
        for cmd in self.engine.legal_commands(self.state, seat=self.seat):
            if cmd["cmd"] != "choose":
                continue
            v = self._with_follow_up(cmd, cmd["action"])
            if v is not None and v > best_v:
                best_cmd, best_v = cmd, v
        assert best_cmd is not None, "a choose is always open"
        return best_cmd

    def _bonus_options(self) -> list[tuple[float, Command]]:
        turn = self.state["turn"]
        if self.state["phase"] != "play" or turn["bonus"] is not None:
            return []
        if self.player["money"] < data.setup()["bonus_cost"]:
            return []
        out = []
        for cmd in self.engine.legal_commands(self.state, seat=self.seat):
            if cmd["cmd"] == "bonus":
                v = self._with_follow_up(cmd, cmd["action"])
                if v is not None:
                    out.append((v, cmd))
        return out

    def _act(self) -> Command | None:
        """The turn's actions: the open main or bonus action's best command, then a bonus worth its price; None
        when the actions are settled (then the ships launch and the turn ends). A bonus is weighed once the
        main action is done (it may go before it by the rules; weighing it at both points doubles a turn's
        thinking for a rare gain) and not again once the launch has begun (outfits made)."""
        turn = self.state["turn"]
        for role in ("main", "bonus"):
            action = turn[role]
            if action and not turn[f"{role}_done"]:
                key = _key(self.state, self.seat, action, _style_key(self.style))
                if key in _FOLLOW_UPS:
                    best_cmd = _FOLLOW_UPS[key]
                else:
                    _v, best_cmd = self._best_follow_up(self.state, action)
                if best_cmd is not None:
                    return best_cmd
        if self.player["outfits"]:
            return None
        best_bonus = max(self._bonus_options(), key=lambda b: b[0], default=None)
        if best_bonus is not None and best_bonus[0] > value(self.engine, self.state, self.seat, self.style) + BONUS_MARGIN:
            return best_bonus[1]
        return None

    # -- launching ----------------------------------------------------------------------------------
    def _launch(self) -> Command:
        engine, state, seat, player = self.engine, self.state, self.seat, self.player
        ships = engine.completed(player)
        turn = state["turn"]
        ready = turn["main_done"] and (turn["bonus"] is None or turn["bonus_done"])
        if not ships:
            return {"cmd": "end-turn"} if turn["stage"] != "final-build" else self._any_legal()
        if not ready:
            return self._any_legal()
        first, last = ships[0]
        tiles = player["yard"][first:last + 1]
        aboard = player["outfits"].get(str(first), [])
        length = forward_length(player["canal"])
        stock = {k: 0 if k in self.style.avoid else n for k, n in player["items"].items()}
        add, _score = plan_outfit(engine, player, tiles, aboard, stock, length)
        if add:
            cmd = {"cmd": "outfit", "slot": first, "items": add}
            if engine.outfit_problem(state, seat, first, add) is None:
                return cmd
        return self._cruise(first, tiles)

    def _cruise(self, slot: int, tiles: list[str]) -> Command:
        engine, player = self.engine, self.player
        facts = engine.cruise_facts(self.state, self.seat, slot)
        if not facts["captain"] or not facts["path"]:
            return {"cmd": "cruise", "slot": slot, "path": []}
        defs = data.canals()
        system = player["canal"]
        best: tuple[float, Command] | None = None
        for n, p in enumerate(canal.paths(system, defs, facts["speed"])):
            if n >= PATHS_LOOKED_AT:
                break
            walked = canal.walk(system, defs, p["path"], start=p["start"])
            if not walked["ok"]:
                continue
            score = engine.score_cruise(player, facts["tiles"], facts["items"], facts["speed"], walked["spots"])
            after = _copy(system)
            canal.apply_walk(after, walked)
            v = score["total"] + canal_value(forward_length(after)) * min(1.0, turns_left(self.state, self.seat) / 3)
            if best is None or v > best[0]:
                cmd: Command = {"cmd": "cruise", "slot": slot,
                                "path": [{"x": x, "y": y, "spot": s} for x, y, s in p["path"]]}
                if p["start"] is not None:
                    x, y, s = p["start"]
                    cmd["start"] = {"x": x, "y": y, "spot": s}
                best = (v, cmd)
        if best is None:
            return {"cmd": "cruise", "slot": slot, "path": []}
        return best[1]

    def _any_legal(self) -> Command:
        legal = self.engine.legal_commands(self.state, seat=self.seat)
        if not legal:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        return next((c for c in legal if c["cmd"] == "end-turn"), legal[0])


def prune_singles(builds: list[Command]) -> list[Command]:
    """Of the one-tile builds, for each part and slot only the tile offering most for its price and the
    cheapest (the others are never better for the valuation, which reads a tile's places and its price)."""
    ships = data.ships()
    by_place: dict[tuple[str, int], list[Command]] = {}
    for b in builds:
        if len(b["tiles"]) != 1:
            continue
        t = b["tiles"][0]
        by_place.setdefault((ships[t["tile"]]["part"], t["slot"]), []).append(b)
    out = []
    for group in by_place.values():
        tiles = [b["tiles"][0]["tile"] for b in group]
        keep = {max(tiles, key=lambda t: (units(t) - 0.5 * ships[t]["cost"], -ships[t]["cost"], t)),
                min(tiles, key=lambda t: (ships[t]["cost"], -units(t), t))}
        out += [b for b in group if b["tiles"][0]["tile"] in keep]
    return out


def _tile_keys() -> list[Any]:
    """The ways a build picks a slot's tile: most places for the price, cheapest, or steam first (a stoker
    cabin and a rig mount: what a steamer needs)."""
    ships = data.ships()

    def steam(t: str) -> tuple[float, ...]:
        d = ships[t]
        return (min(1, d["stoker_cabins"]) + min(1, d["mounts"]["rig"]), units(t) - 0.5 * d["cost"], -d["cost"])

    return [lambda t: (units(t) - 0.5 * ships[t]["cost"], -ships[t]["cost"]),
            lambda t: (-ships[t]["cost"], units(t)), steam]


def multi_builds(engine: Slipway, state: State, seat: int, lengths: tuple[int, int] = (3, 6)) -> list[Command]:
    """Builds of two or three tiles: for each window of 3 to 6 slots whose tiles fit one ship, the best
    affordable market tiles for (up to three of) its empty slots, bow end first; and the same leaving one
    middle empty (a ship held open until its crew and engines are ready: the last tile launches it)."""
    player = state["players"][seat]
    ships = data.ships()
    cells = engine.cells(player)
    ship_max = data.setup()["ship_max"]
    money = player["money"]
    out: list[Command] = []
    seen: set[tuple[tuple[str, int], ...]] = set()
    keys = _tile_keys()
    for length in range(lengths[0], min(lengths[1], ship_max) + 1):
        for first in range(len(cells) - length + 1):
            last = first + length - 1
            parts = ["bow" if s == first else "stern" if s == last else "middle" for s in range(first, last + 1)]
            if any(cells[s] is not None and cells[s] != parts[s - first] for s in range(first, last + 1)):
                continue
            empty = [s for s in range(first, last + 1) if cells[s] is None]
            fills = [empty] if len(empty) <= 3 else []
            open_middles = [s for s in empty if s not in (first, last)]
            if open_middles:
                held = [s for s in empty if s != open_middles[-1]]
                if len(held) <= 3:
                    fills.append(held)
            for fill in fills:
                if len(fill) < 2:
                    continue
                for key in keys:
                    budget = money
                    taken: list[tuple[str, int]] = []
                    for s in fill:
                        part = parts[s - first]
                        options = [t for t in state["market"][part] if ships[t]["cost"] <= budget
                                   and t not in {x for x, _ in taken}]
                        if not options:
                            break
                        t = max(options, key=key)
                        budget -= ships[t]["cost"]
                        taken.append((t, s))
                    if len(taken) != len(fill):
                        continue
                    sig = tuple(sorted(taken))
                    if sig in seen:
                        continue
                    seen.add(sig)
                    if yard.placement_problem(cells, [(s, ships[t]["part"]) for t, s in taken], ship_max) is None:
                        out.append({"cmd": "build", "tiles": [{"tile": t, "slot": s} for t, s in taken]})
    return out


__all__ = ["BOTS", "choose", "multi_builds", "plan_outfit", "value"]
