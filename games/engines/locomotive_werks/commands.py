"""Every command of Locomotive Werks and the top-level fields of its view, declared once
(games/engines/specs.py says who reads them)."""

from __future__ import annotations

from ..specs import Arg, Bool, CommandSpec, Enum, Field, Int, ListOf, Obj, Text
from .data import SPACE_COUNT

MAX_COUNT = 999  # largest unit count a single command may name

SPACE = Int(min=1, max=SPACE_COUNT)
COUNT = Int(min=1, max=MAX_COUNT)

COMMANDS = (
    CommandSpec(
        "develop",
        "Development phase: develop a new locomotive type, taking one of its cards (with one production unit).",
        (Arg("space", SPACE, "The board space of the locomotive type (1 to 14, board order)."),),
    ),
    CommandSpec(
        "buy-units",
        "Capacity phase: buy production units for a locomotive card you own.",
        (
            Arg("space", SPACE, "The board space of your card."),
            Arg("count", COUNT, "How many units."),
        ),
    ),
    CommandSpec(
        "shift-units",
        "Capacity phase: move production units to a newer card you own, paying the difference in production cost.",
        (
            Arg("from", SPACE, "The board space of the card the units leave."),
            Arg("to", SPACE, "The board space of the card they go to."),
            Arg("count", COUNT, "How many units."),
        ),
    ),
    CommandSpec("pass", "End your turn in this phase (develop nothing, or buy and shift no more)."),
)

SEAT = Int(min=0)
VIEW_FIELDS = (
    Field("kind", Enum(("locomotive-werks",)), "The game kind."),
    Field("round", Int(min=1), "The round being played."),
    Field("phase", Enum(("development", "capacity", "finished")), "The phase players act in now."),
    Field("turn_order", ListOf(SEAT), "Seats in this round's turn order."),
    Field("active_seat", SEAT, "The seat to act (null once the game is over).", nullable=True),
    Field("you", SEAT, "The seat this view is for (null: a spectator).", nullable=True),
    Field("players", ListOf(Obj((
        Field("seat", SEAT), Field("name", Text(min_length=0)), Field("coins", Int()),
        Field("cards", ListOf(Obj()), "Cards owned: space, units, production cost, income."),
    ))), "Every player: coins, turn position, developed types and cards."),
    Field("spaces", ListOf(Obj((Field("space", SPACE),))), "The 14 board spaces with their dice and cards left."),
    Field("dice_pool", Int(min=0), "Dice left in the pool (null: unlimited).", nullable=True),
    Field("options", Obj(), "The game's options."),
    Field("last_round", Obj(), "The report of the last automatic phases (null before the first).", nullable=True),
    Field("finished", Bool(), "Whether the game is over."),
    Field("winners", ListOf(SEAT), "The winning seats once the game is over."),
    Field("listing", ListOf(Obj((Field("command", Obj()), Field("price", Int(min=0))))),
          "What this seat may do in this phase, each command with its price in coins and, when it cannot "
          "now, the reason apply gives (null when it can)."),
)
