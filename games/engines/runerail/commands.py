"""Every command of Runerail and the top-level fields of its view, declared once
(games/engines/specs.py says who reads them).

Mileposts in commands are ``[layer, q, r]`` (layer 0 the surface, 1 the Deepways); the view names
them by key, ``"layer,q,r"``, because JSON object keys are strings.
"""

from __future__ import annotations

from ..specs import Arg, Bool, CommandSpec, Enum, Field, Int, ListOf, Milepost, Obj, Text
from .data import locos, ships

MILEPOST = Milepost(layers=2, min_coord=0, max_coord=63)
PATH = ListOf(MILEPOST, min_items=2, max_items=200)
CARD_ID = Text(pattern=r"^[a-z0-9-]+$", max_length=60)
LOAD = Text(pattern=r"^[a-z0-9-]+$", max_length=40)

COMMANDS = (
    CommandSpec(
        "keep-foreman",
        "Choose a foreman: in the draft, one of the cards dealt to you (or none, in the first deal, to wait for "
        "the re-deal); after hiring by drawing, the drawn card or the one you hold.",
        (Arg("foreman", CARD_ID, "The foreman card's id; null: keep none (first deal of the draft only).",
             nullable=True),),
    ),
    CommandSpec(
        "hire-foreman",
        "Hire a foreman (counts toward the 20 gold a turn may spend): 'draw' for 1 gold — draw the top card of "
        "the foreman deck or discard pile, then keep it or the one you hold; 'choose' for 5 gold — take any card "
        "of the deck and the discard pile, then the deck is reshuffled.",
        (
            Arg("mode", Enum(("draw", "choose")), "draw (1 gold) or choose (5 gold)."),
            Arg("source", Enum(("deck", "discard")), "With draw: the pile to draw from (default the deck).",
                optional=True),
            Arg("foreman", CARD_ID, "With choose: the card to take.", optional=True),
        ),
    ),
    CommandSpec(
        "build",
        "Build track along a path of mileposts (in build order): from a major city or your own track; over your "
        "own track, inside major cities and across open passages for free; each new section costs the milepost "
        "built to (plain and desert 1, forest and mountain 2, jungle 3, alpine, volcano and Deepways rock 5, "
        "a gate 2, small and medium city 3, major 5) plus 2 per river and 3 per inlet, changed by your foreman; "
        "building in the Deepways costs a bribe of 1 once a turn. At most 20 gold a turn with hiring and upgrading.",
        (Arg("path", PATH, "The mileposts, [layer, q, r] each, in build order."),),
    ),
    CommandSpec(
        "build-track",
        "The server notes' one-section build: the section from start to end (neighbouring mileposts), priced "
        "and checked as build with that two-milepost path.",
        (
            Arg("start", MILEPOST, "The milepost the section starts at, [layer, q, r]."),
            Arg("end", MILEPOST, "The neighbouring milepost it goes to, [layer, q, r]."),
        ),
    ),
    CommandSpec(
        "upgrade",
        "Upgrade your loco to one of a higher level: 10 gold per level, two levels only when nothing else is "
        "spent this turn; a type with no cards left cannot be had.",
        (Arg("loco", Enum(tuple(locos())), "The loco type to upgrade to."),),
    ),
    CommandSpec(
        "place-train",
        "Put your train on any city milepost (your first normal turn).",
        (Arg("at", MILEPOST, "The milepost, [layer, q, r]."),),
    ),
    CommandSpec(
        "move",
        "Move your train along a path (its first milepost is where the train stands): your own track, major "
        "cities and open passages are free (the Ley Line counts as one milepost, a gate as one); each opponent "
        "whose track you use is paid 4 once a turn before first use; moving in the Deepways costs a bribe of 1 "
        "once a turn (to the Orc foreman's holder, else the bank); reverse only at a city or a port.",
        (Arg("path", PATH, "The mileposts, [layer, q, r] each, starting where the train stands."),),
    ),
    CommandSpec("pick-up", "Load a load the city your train stands in produces.",
                (Arg("load", LOAD, "The load's id."),)),
    CommandSpec("drop", "Unload a load at the city your train stands in, without payment (back to the supply).",
                (Arg("load", LOAD, "The load's id."),)),
    CommandSpec(
        "deliver",
        "Deliver a load to the city of one demand on one of your cards: paid at once; the card is discarded and "
        "a new one drawn (an event card drawn takes effect, and you draw again).",
        (Arg("card", CARD_ID, "The demand card's id."), Arg("demand", Int(min=0, max=2), "Which of its demands.")),
    ),
    CommandSpec("discard-hand", "Instead of your turn: discard your cards and draw as many new ones; your turn ends."),
    CommandSpec(
        "board-ship",
        "At a port, while operating your train: draw a ship card and board it, paying its boarding cost (1-5; "
        "you must hold 5 to draw). The Halfling draws 3, chooses one (choose-ship) and boards free. Your train's "
        "movement is over for the turn; it sails on your next turn.",
    ),
    CommandSpec("choose-ship", "After the Halfling's draw of 3 ships: board one; the others are discarded.",
                (Arg("ship", Enum(tuple(ships())), "The ship card's id."),)),
    CommandSpec(
        "sail",
        "Aboard a ship, from the turn after boarding: sail from where the ship is, sea point to sea point, up to "
        "its speed; arriving at a port ends the voyage: the train lands there (the ship card is discarded) and may "
        "load and deliver at once. You may end the turn at sea.",
        (Arg("path", ListOf(MILEPOST, min_items=2, max_items=20), "The sea points ([0, q, r] each), starting "
                                                                   "where the ship is."),),
    ),
    CommandSpec(
        "choose-load-to-lose",
        "When an event takes a load from your train (view.pending.yours), choose which one: it goes back to the "
        "supply. The players asked answer in seat order; the turn goes on after the last answer.",
        (Arg("load", LOAD, "The load's id (one your train carries)."),),
    ),
    CommandSpec("end-turn", "End your turn."),
)

SEAT = Int(min=0)
VIEW_FIELDS = (
    Field("kind", Enum(("runerail",)), "The game kind."),
    Field("phase", Enum(("draft", "build", "play", "finished")),
          "The foreman draft, the 3 initial build rounds, normal turns, or over."),
    Field("stage", Enum(("draft", "move", "build", "none")),
          "Where the active seat's turn is: choosing a foreman, operating the train, spending, or none."),
    Field("build_round", Int(min=0), "The initial build round being played (1-3; 0 outside them)."),
    Field("build_rounds", Int(min=1), "How many initial build rounds the game has (3)."),
    Field("round", Int(min=0), "The normal round being played (0 before)."),
    Field("order", ListOf(SEAT), "Seats in turn order."),
    Field("active_seat", SEAT, "The seat to act (null once the game is over).", nullable=True),
    Field("you", SEAT, "The seat this view is for (null: a spectator).", nullable=True),
    Field("turn", Obj((Field("seat", SEAT, nullable=True), Field("spent", Int(min=0)), Field("budget_left", Int(min=0)),
                       Field("moves_used", Int(min=0)), Field("moves_left", Int(min=0)))),
          "The turn in progress: gold spent, what is left of the 20, movement used and left, bribes paid."),
    Field("draft", Obj(), "The foreman draft: its deal, how many cards each seat holds, yours in full.",
          nullable=True),
    Field("hire", Obj(), "A hire by drawing waiting for the choice (the drawn card shown to its hirer only).",
          nullable=True),
    Field("players", ListOf(Obj((
        Field("seat", SEAT), Field("name", Text(min_length=0)), Field("color", Text()), Field("gold", Int(min=0)),
        Field("foreman", Text(), nullable=True), Field("loco", Text()), Field("at", Text(), nullable=True),
        Field("loads", ListOf(Text())), Field("hand_size", Int(min=0)),
    ))), "Every player: gold, foreman, loco, where the train stands, loads, cards (your own in full), majors."),
    Field("track", Obj(), "Every built section: edge key 'l,q,r|l,q,r' -> owner seat."),
    Field("links", Obj(), "The passages by name: open (true) or closed (false)."),
    Field("effects", ListOf(Obj()), "Event cards in force or waiting: card, kind, params, status (active, done, "
                                    "rebuild, pending), who drew it, when it ends (ends: the drawer's seat, their turn number and the "
                                    "normal round it is played in), the sections destroyed."),
    Field("pending", Obj((Field("kind", Text()), Field("seat", SEAT))),
          "A decision the game waits for (an event's lost load): the seat asked now, the queue in seat order, and "
          "in 'yours' what is asked of this seat (the choices), else null.", nullable=True),
    Field("ship_offer", Obj(), "The Halfling's 3 ships drawn, waiting for the choice (the ships shown to the "
                               "drawer only).", nullable=True),
    Field("ship_deck_size", Int(min=0), "Ship cards left to draw."),
    Field("ship_discards", ListOf(Text()), "The ship discard pile."),
    Field("rebuild_rights", Obj(), "Destroyed sections only their owner may rebuild now: edge key -> seat."),
    Field("supply", Obj(), "Load chips left, by load id."),
    Field("locos", Obj(), "Loco cards left to upgrade to, by type."),
    Field("deck_size", Int(min=0), "Cards left in the demand deck."),
    Field("discard_size", Int(min=0), "Cards in the demand discard pile."),
    Field("foreman_deck_size", Int(min=0), "Foreman cards in the deck."),
    Field("foreman_deck", ListOf(Text()), "The foreman cards in the deck, sorted (any may be chosen for 5 gold; "
          "the order they are drawn in is secret)."),
    Field("foreman_discards", ListOf(Text()), "The foreman discard pile (its top last)."),
    Field("goal", Obj(), "What wins: majors joined and gold."),
    Field("content_version", Text(), "The version of the world and the cards."),
    Field("options", Obj(), "The game's options."),
    Field("finished", Bool(), "Whether the game is over."),
    Field("winners", ListOf(SEAT), "The winning seats once the game is over."),
    Field("end_reason", Text(), "Why the game ended (null while it runs).", nullable=True),
    Field("listing", ListOf(Obj((Field("command", Obj()), Field("price", Int(min=0))))),
          "What this seat may do now other than build and move (planned: plan()): each command with its price "
          "in gold and, when it cannot now, the reason apply gives (null when it can)."),
)
