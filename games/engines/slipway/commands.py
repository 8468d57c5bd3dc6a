"""Every command of Slipway and the top-level fields of its view, declared once
(games/engines/specs.py says who reads them)."""

from __future__ import annotations

from ..specs import Arg, Bool, CommandSpec, Enum, Field, Int, ListOf, Obj, Text

ACTIONS = ("build", "canal", "commodity", "equipment", "crew", "employee", "exchange", "subsidy")
EQUIPMENT = ("smokestack", "sail", "crane", "cannon")
CREW = ("captain", "stoker", "marine", "merchant")
ITEMS = EQUIPMENT + CREW
SPOTS = ("N", "E", "S", "W", "C")

TILE_ID = Text(pattern=r"^[A-Za-z0-9-]+$", max_length=40)
SLOT = Int(min=0, max=15)
COORD = Int(min=-50, max=50)
STEPS = Int(min=1, max=40)
POINT = Obj((Field("x", COORD), Field("y", COORD), Field("spot", Enum(SPOTS))))

COMMANDS = (
    CommandSpec(
        "discard-contract",
        "Discard one of your government contracts (owed after the queue's marked cube removals, at the start "
        "of your turn).",
        (Arg("contract", TILE_ID, "The contract's id.", private=True),),
    ),
    CommandSpec(
        "choose",
        "Place your cube on an action tile with no cube, not the one you just moved to the front, and take "
        "1 coin per cube nearer the front; then perform it. In the final action: any action, no cube, no income.",
        (Arg("action", Enum(ACTIONS), "The action."),),
    ),
    CommandSpec(
        "bonus",
        "Pay 6 for a bonus action this turn: any action but this turn's main one, before or after it.",
        (Arg("action", Enum(ACTIONS), "The action."),),
    ),
    CommandSpec(
        "build",
        "Build ships: buy 1 to 3 ship tiles from the market (each at its cost) and place them in empty slots "
        "of your yard; every tile must still be able to become part of a completed ship.",
        (Arg("tiles", ListOf(Obj((Field("tile", TILE_ID), Field("slot", SLOT))), min_items=1, max_items=3),
             "The tiles and the yard slot of each: [{tile, slot}]."),),
    ),
    CommandSpec(
        "rent-canal",
        "Rent a canal tile from the market (its cost) and place it next to your canal system, turned 0 to 3 "
        "quarter turns clockwise, its sides matching the tiles they face.",
        (
            Arg("tile", TILE_ID, "The canal tile's id."),
            Arg("x", COORD, "The column (east is +1)."),
            Arg("y", COORD, "The row (south is +1)."),
            Arg("rotation", Int(min=0, max=3), "Quarter turns clockwise."),
        ),
    ),
    CommandSpec(
        "buy-commodity",
        "Buy a commodity tile from the market at its cost.",
        (Arg("tile", TILE_ID, "The commodity tile's id."),),
    ),
    CommandSpec(
        "manufacture",
        "Move the equipment wheel's marker forward and take the equipment it stops at: the first step free, "
        "your movers' steps free, each further step 1.",
        (Arg("steps", STEPS, "How many spaces forward (at least 1)."),),
    ),
    CommandSpec(
        "recruit",
        "Move the crew wheel's marker forward and take the crew member it stops at: the first step free, "
        "your movers' steps free, each further step 1.",
        (Arg("steps", STEPS, "How many spaces forward (at least 1)."),),
    ),
    CommandSpec(
        "hire",
        "Move the employee wheel's marker forward and hire one of the three employees at its stop (its cost "
        "too): the first step free, your movers' steps free, each further step 1.",
        (
            Arg("steps", STEPS, "How many stops forward (at least 1)."),
            Arg("choice", Int(min=0, max=2), "Which of the stop's three places."),
        ),
    ),
    CommandSpec(
        "exchange",
        "Move the price marker one step and exchange one of your commodity tiles: each good on it sold at the "
        "price shown (traders add) or traded for an item of its exchange table; never two goods for one item.",
        (
            Arg("tile", TILE_ID, "Your commodity tile's id."),
            Arg("uses", ListOf(Enum(("sell",) + ITEMS), min_items=1, max_items=4),
                "For each good on the tile, in order: \"sell\" or the item taken for it."),
        ),
    ),
    CommandSpec("subsidy", "Take 2 from the bank (4 players)."),
    CommandSpec(
        "outfit",
        "Put equipment and crew from your stock on a completed ship (for good): a captain needs no cabin; "
        "officers, marines and merchants a cabin each, stokers a stoker cabin; sails and smokestacks a rig "
        "mount, cranes a crane mount, cannons a cannon mount; your builders add room.",
        (
            Arg("slot", SLOT, "The yard slot of the ship's bow."),
            Arg("items", ListOf(Enum(ITEMS), min_items=1, max_items=30), "The items."),
        ),
    ),
    CommandSpec(
        "cruise",
        "Send a completed ship on its shakedown cruise: exactly its speed in steps forward through your "
        "canals (empty when it cannot: no captain, or no path that long; it is then lost).",
        (
            Arg("slot", SLOT, "The yard slot of the ship's bow."),
            Arg("start", POINT, "First cruise only: the mouth spot the ship enters at.", optional=True,
                nullable=True),
            Arg("path", ListOf(POINT, max_items=40), "The spots entered, one per step."),
        ),
    ),
    CommandSpec("end-turn", "End your turn (after your main action; completed ships must cruise first)."),
    CommandSpec("pass", "Final build: build nothing."),
)

SEAT = Int(min=0)
VIEW_FIELDS = (
    Field("kind", Enum(("slipway",)), "The game kind."),
    Field("phase", Enum(("play", "final-action", "final-build", "finished")), "The game's phase."),
    Field("active_seat", SEAT, "The seat to act (null once the game is over).", nullable=True),
    Field("you", SEAT, "The seat this view is for (null: a spectator).", nullable=True),
    Field("order", ListOf(SEAT), "Seats in turn order."),
    Field("turn", Obj(), "The turn being played: seat, stage, main and bonus actions and what is done."),
    Field("track", ListOf(Obj()), "The action tiles from the back (0) to the front, each with its cube's seat."),
    Field("timer", Obj(), "The timer's space and length, the queue's cubes left, removals so far, the end."),
    Field("markets", Obj(), "Ship tiles by part, canal tiles, commodity tiles, the employee wheel, supplies' sizes."),
    Field("markers", Obj(), "Each ring's marker: equipment, crew, employee, price."),
    Field("players", ListOf(Obj()), "Every player's money, stock, yard, canals, fleet and points (contracts: own)."),
    Field("content_version", Text(), "The version of the components (GET /api/kinds/slipway/content)."),
    Field("options", Obj(), "The game's options."),
    Field("finished", Bool(), "Whether the game is over."),
    Field("winners", ListOf(SEAT), "The winning seats once the game is over."),
    Field("scores", ListOf(Obj()), "The final scores by part (null until the end).", nullable=True),
    Field("end_reason", Text(), "Why the game ended or is ending (null while it runs).", nullable=True),
    Field("listing", ListOf(Obj((Field("command", Obj()), Field("price", Int(min=0))))),
          "What this seat may do now, each command with its price and, when it cannot, the reason apply gives."),
)
