"""Every command of Wood and Steel and the top-level fields of its view, declared once
(games/engines/specs.py says who reads them).

Where Wood and Steel had its own code for an ill-shaped argument (``bad-amount``,
``no-such-contract``, …), the argument keeps it, so clients see the codes they saw before.
The platform adds ``undo`` (the engine has a ``turn_key``).
"""

from __future__ import annotations

from ..specs import Arg, Bool, CommandSpec, Enum, Field, Int, ListOf, Obj, Text
from .rules import DEBT_UNIT, ENGINE_LEVEL, UPGRADES

ROUTE_HELP = "A route of the board, 'City-City' (either order), e.g. 'Boston-New York'."
ROUTE = Text(max_length=120)
CITY = Text(max_length=80)
ID = Int(min=1)


def _route(name: str = "route", code: str = "bad-route", **kw) -> Arg:
    return Arg(name, ROUTE, kw.pop("help", ROUTE_HELP), code=code, **kw)


COMMANDS = (
    # setting up
    CommandSpec(
        "rank-starting-routes",
        "Setup: rank three starting routes, your favourite first (the app settles who gets which).",
        (Arg("choices", ListOf(ROUTE, min_items=1, max_items=3), "Starting routes, best first.", code="bad-choices",
             private=True),),
    ),
    CommandSpec(
        "place-engine",
        "Setup: put your engine in one of the two cities of your starting route.",
        (Arg("city", CITY, "One of your starting route's two cities.", code="bad-city"),),
    ),
    # a turn's actions
    CommandSpec(
        "build-track",
        "Report track you built on the table: a route adjacent to your network (its cost is taken).",
        (
            _route(),
            Arg(
                "segments", Int(min=1), "Games counting track by length (before issue 18): units of length to lay "
                "(default: as many as allowed). Otherwise a route is one segment: 1 or absent.",
                optional=True, nullable=True, code="bad-segments",
            ),
        ),
    ),
    CommandSpec(
        "fulfill-contract",
        "Run trains: deliver a contract you hold (private or market), earning its value less debt service.",
        (Arg("contract", ID, "The contract's id.", code="no-such-contract"),),
    ),
    CommandSpec(
        "choose-offer",
        "Keep one of the private contracts you were offered (the others are declined).",
        (Arg("offer", ID, "The offered contract's id.", code="no-such-offer"),),
    ),
    CommandSpec("discard-private-contract", "Discard your private contract and be offered new ones."),
    CommandSpec(
        "claim-market-contract",
        "Take an open market contract (needs a Mogul or better).",
        (Arg("contract", ID, "The market contract's id.", code="no-such-contract"),),
    ),
    CommandSpec(
        "acquire-railroad",
        "Merge with an independent railroad, paying its price; its routes become yours.",
        (Arg("railroad", ID, "The independent railroad's id.", code="no-such-railroad"),),
    ),
    CommandSpec(
        "buy-engine",
        "Buy the next engine design (two ahead with a Hub), trading one in when you own two.",
        (
            Arg("engine", Enum(tuple(ENGINE_LEVEL)), "The engine design.", code="bad-engine"),
            Arg("trade_in", Enum(tuple(ENGINE_LEVEL)), "An engine you own to trade in (null: none).",
                optional=True, nullable=True, code="bad-trade-in"),
        ),
    ),
    CommandSpec(
        "buy-upgrade",
        "Buy an upgrade; a Hub or Railyard names a city of your network, a Regional Office a region, "
        "a Commodities Exchange a commodity.",
        (
            Arg("upgrade", Enum(tuple(UPGRADES)), "The upgrade.", code="bad-upgrade"),
            Arg("city", CITY, "Hub, Railyard: a city on your network.", optional=True, nullable=True, code="bad-city"),
            Arg("region", Text(max_length=40), "Regional Office: the region.", optional=True, nullable=True, code="bad-region"),
            Arg("commodity", Text(max_length=40), "Commodities Exchange: the commodity.",
                optional=True, nullable=True, code="bad-commodity"),
        ),
    ),
    CommandSpec("go-first", "Go first next round (one player a round)."),
    CommandSpec(
        "borrow",
        "Borrow money in $5,000 steps (at most the max_borrow option at once).",
        (Arg("amount", Int(min=DEBT_UNIT, multiple_of=DEBT_UNIT), "Dollars.", code="bad-amount"),),
    ),
    CommandSpec(
        "repay-debt",
        "Repay $5,000 or $10,000 of your debt (never below the debt_floor option).",
        (Arg("amount", Int(min=DEBT_UNIT, max=2 * DEBT_UNIT, multiple_of=DEBT_UNIT), "Dollars.", code="bad-amount"),),
    ),
    CommandSpec(
        "claim-connection-bonus",
        "Claim a connection bonus your track makes.",
        (Arg("bonus", ID, "The bonus's id.", code="no-such-bonus"),),
    ),
    CommandSpec("pass-action", "Use an action doing nothing."),
    CommandSpec("end-turn", "End your turn."),
    CommandSpec("end-round", "End your turn and the round (the last player in the round)."),
    # bankruptcy and the auction of its track
    CommandSpec(
        "sell-track",
        "Bankrupt: sell one of your routes to cover what you owe (it is auctioned).",
        (_route(help="A route you own."),),
    ),
    CommandSpec(
        "bid",
        "Auction: bid on the lot (the opener may first choose which lot goes on the block).",
        (
            Arg("amount", Int(), "Dollars: at least the lot's price, or the high bid + $1,000.", code="bad-amount"),
            _route(help="The lot's route (default: the lot on the block, or the first left).", code="no-such-lot",
                   optional=True, nullable=True),
        ),
    ),
    CommandSpec(
        "pass-bid",
        "Auction: pass on the lot (the opener chooses the lot and passes).",
        (_route(help="The lot's route (default: the lot on the block, or the first left).", code="no-such-lot",
                optional=True, nullable=True),),
    ),
)

SEAT = Int(min=0)
VIEW_FIELDS = (
    Field("game", Enum(("wood-and-steel",)), "The game kind."),
    Field("phase", Enum(("ranking", "engines", "play", "auction", "finished")), "The game's phase."),
    Field("round", Int(min=0), "The round (0 while setting up)."),
    Field("turn", Int(min=0), "Turns played."),
    Field("current_seat", SEAT, "The seat on turn (null while setting up).", nullable=True),
    Field("active_seats", ListOf(SEAT), "Seats that may act now."),
    Field("order", ListOf(SEAT), "This round's turn order."),
    Field("go_first", SEAT, "Who goes first next round (null: nobody yet).", nullable=True),
    Field("viewer", SEAT, "The seat this view is for (null: a spectator).", nullable=True),
    Field("board_key", Text(min_length=0), "Which board the game is played on."),
    Field("players", ListOf(Obj((Field("seat", SEAT), Field("name", Text(min_length=0)), Field("money", Int())))),
          "Every player: money, debt, engines, upgrades, network, track, contracts, ties."),
    Field("contracts", ListOf(Obj((Field("id", ID),))), "Contracts this seat may see (others' private ones hidden)."),
    Field("market", ListOf(ID), "Ids of the open market contracts."),
    Field("market_open", Bool(), "Whether market contracts are dealt (someone owns a Mogul)."),
    Field("offers", ListOf(Obj()), "Private contracts offered to this seat."),
    Field("railroads", ListOf(Obj()), "Independent railroads (and the acquired ones)."),
    Field("growth", Obj(), "How independents grew last round."),
    Field("western_broken", Bool(), "Whether anyone has reached the western section."),
    Field("connection_bonuses", ListOf(Obj()), "Connection bonuses and who claimed them."),
    Field("monopoly_commodities", ListOf(Obj()), "Commodities a Commodities Exchange may monopolise."),
    Field("service_yard_available", Bool(), "Whether the Service Yard may be bought."),
    Field("starting_routes", ListOf(Obj()), "The starting routes and who took them."),
    Field("auction", Obj(), "The auction of a bankrupt's track (null: none).", nullable=True),
    Field("segment_unit", Enum(("route", "length")), "What a segment of track is in this game."),
    Field("build_options", ListOf(Obj()), "Routes this seat may build now (null off turn).", nullable=True),
    Field("listing", ListOf(Obj((Field("command", Obj()), Field("price", Int(min=0))))),
          "What this seat may spend money on now, each with its price and, when it cannot now, the reason apply gives."),
    Field("names", Obj(), "Display names by slug, for engines and upgrades ('american': 'American', 'upgraded-stations': 'Upgraded stations')."),
    Field("ending", Bool(), "Whether the game ends at the end of this round."),
    Field("final", Obj(), "Final scores (null until the end).", nullable=True),
    Field("options", Obj(), "The game's options."),
)
