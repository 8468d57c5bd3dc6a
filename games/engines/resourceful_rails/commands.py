"""Every command of Resourceful Rails and the top-level fields of its view, declared once
(games/engines/specs.py says who reads them).

Mileposts in commands are ``[layer, q, r]`` (the rail core's address form); the view names
them by key, ``"layer,q,r"`` (the core's state form), because JSON object keys are strings.
"""

from __future__ import annotations

from ..specs import Arg, Bool, CommandSpec, Enum, Field, Int, ListOf, Milepost, Obj, Text
from .data import COLORS, TRAINS

MILEPOST = Milepost(layers=1, min_coord=0, max_coord=63)
PATH = ListOf(MILEPOST, min_items=2, max_items=200)
CARD = Int(min=1, max=9999)
GOOD = Text(pattern=r"^[a-z0-9-]+$", max_length=40)

COMMANDS = (
    CommandSpec(
        "build",
        "Build track along a path of mileposts (in build order): from a major city or your own track; "
        "over your own track and inside major cities for free; each new section costs the milepost built to "
        "(clear 1, mountain 2, small or medium city 3, major city 5) plus 2 per river. At most $20 a turn.",
        (Arg("path", PATH, "The mileposts, [layer, q, r] each, in build order."),),
    ),
    CommandSpec(
        "upgrade",
        "Upgrade your train for $20 instead of building this turn: modest to fast or heavy, fast or heavy to advanced.",
        (Arg("train", Enum(tuple(t for t in TRAINS if t != "modest")), "The train to upgrade to."),),
    ),
    CommandSpec(
        "choose-color",
        "Choose your colour (before the build rounds end; not one another player has).",
        (Arg("color", Enum(tuple(COLORS)), "The colour's name."),),
    ),
    CommandSpec(
        "place-train",
        "Put your train on a city milepost your track reaches (your first normal turn).",
        (Arg("at", MILEPOST, "The milepost, [layer, q, r]."),),
    ),
    CommandSpec(
        "move",
        "Move your train along a path (its first milepost is where the train stands): your own track and major "
        "cities are free; each opponent whose track you use is paid $4 once a turn, before first use; reverse "
        "only at a city.",
        (Arg("path", PATH, "The mileposts, [layer, q, r] each, starting where the train stands."),),
    ),
    CommandSpec(
        "pick-up",
        "Load a good the city your train stands in produces.",
        (Arg("good", GOOD, "The good's id."),),
    ),
    CommandSpec(
        "drop",
        "Unload a good at the city your train stands in, without payment (it goes back to the supply).",
        (Arg("good", GOOD, "The good's id."),),
    ),
    CommandSpec(
        "deliver",
        "Deliver a load to the city of one demand on one of your cards: paid at once; the card is discarded "
        "and a new one drawn.",
        (
            Arg("card", CARD, "The card's id."),
            Arg("demand", Int(min=0, max=2), "Which of its three demands (0, 1 or 2)."),
        ),
    ),
    CommandSpec(
        "discard-cards",
        "With the extra-starting-cards rule: at your first normal turn, discard 2 of your 5 cards.",
        (Arg("cards", ListOf(CARD, min_items=1, max_items=5, unique=True), "The cards' ids.", private=True),),
    ),
    CommandSpec("discard-hand", "Instead of your turn: discard all your cards and draw as many new ones; your turn ends."),
    CommandSpec("end-turn", "End your turn."),
)

SEAT = Int(min=0)
VIEW_FIELDS = (
    Field("kind", Enum(("resourceful-rails",)), "The game kind."),
    Field("phase", Enum(("build", "play", "finished")), "Build rounds (building only), normal turns, or over."),
    Field("stage", Enum(("discard", "move", "build", "none")),
          "Where the active seat's turn is: discarding starting cards, phase 1 (move, load, deliver), phase 2 "
          "(build or upgrade), or none (game over)."),
    Field("build_round", Int(min=0), "The build round being played (1-based; 0 once normal turns began)."),
    Field("round", Int(min=0), "The normal round being played (0 during the build rounds)."),
    Field("order", ListOf(SEAT), "Seats in turn order."),
    Field("active_seat", SEAT, "The seat to act (null once the game is over).", nullable=True),
    Field("you", SEAT, "The seat this view is for (null: a spectator).", nullable=True),
    Field("turn", Obj((Field("seat", SEAT, nullable=True), Field("spent", Int(min=0)), Field("build_left", Int(min=0)),
                       Field("moves_used", Int(min=0)), Field("moves_left", Int(min=0)))),
          "The turn in progress: money spent on building, movement used and left."),
    Field("players", ListOf(Obj((
        Field("seat", SEAT), Field("name", Text(min_length=0)), Field("color", Text()), Field("cash", Int(min=0)),
        Field("train", Enum(tuple(TRAINS))), Field("at", Text(), nullable=True), Field("loads", ListOf(Text())),
        Field("hand_size", Int(min=0)),
    ))), "Every player: cash, train, where it stands, loads, cards (your own in full), majors joined."),
    Field("track", Obj(), "Every built section: edge key 'l,q,r|l,q,r' -> owner seat."),
    Field("supply", Obj(), "Goods left to load, by good id."),
    Field("deck_size", Int(min=0), "Cards left in the draw pile."),
    Field("goal", Obj(), "What wins: majors joined and cash."),
    Field("content_version", Text(), "The version of the map and goods (GET /api/kinds/resourceful-rails/content)."),
    Field("options", Obj(), "The game's options."),
    Field("finished", Bool(), "Whether the game is over."),
    Field("winners", ListOf(SEAT), "The winning seats once the game is over."),
    Field("end_reason", Text(), "Why the game ended (null while it runs).", nullable=True),
    Field("listing", ListOf(Obj((Field("command", Obj()), Field("price", Int(min=0))))),
          "What this seat may do now other than build and move (those are planned: POST .../plan): each command "
          "with its price in dollars and, when it cannot now, the reason apply gives (null when it can)."),
)
