"""Make ``data/components.json`` (foremen, locos, ships, the war tax) and ``data/events.json``
(the 20 event cards), Runerail's cards other than the demands.

    python -m games.engines.runerail.scripts.make_components

Everything here is this project's own content: names and texts are invented; only the rule
mechanics and numbers follow the published game family (``shared/reference/rail-games-notes.md``,
"The fantasy rail game"). The tables below are the source; the script adds nothing random, so
a rerun writes the same bytes. README.md ("Runerail components") describes every table and the choices made
where the published facts are missing (ships' boarding costs, event areas).
"""

from __future__ import annotations

from typing import Any

from ._common import DATA, write_json

# -- foremen -------------------------------------------------------------------------------------
# The published deck: 13 cards, kept here by ability kind with the published counts.

FOREMAN_KINDS: list[dict[str, Any]] = [
    {"kind": "catfolk", "name": "Catfolk Pathfinder",
     "ability": {"terrain_cost": {"jungle": 1}},
     "rule": "Building to a jungle milepost costs 1.",
     "cards": [("mirra-softstep", "Mirra Softstep", "She hears a vine creak two valleys away and lays the rails around it."),
               ("tobble-quickwhisker", "Tobble Quickwhisker", "Naps in the shade at noon, then drives spikes till moonset.")]},
    {"kind": "dwarf", "name": "Dwarven Cutter",
     "ability": {"terrain_cost": {"mountain": 1}},
     "rule": "Building to a mountain milepost costs 1.",
     "cards": [("brannoc-flintbeard", "Brannoc Flintbeard", "Reads a cliff face the way a clerk reads a ledger."),
               ("hilde-stonesong", "Hilde Stonesong", "Her crew hums one low note, and the granite splits along it."),
               ("orrin-deepfurrow", "Orrin Deepfurrow", "Never met a ridge he could not talk into a gentle grade.")]},
    {"kind": "elf", "name": "Elven Groveward",
     "ability": {"terrain_cost": {"forest": 1}},
     "rule": "Building to a forest milepost costs 1.",
     "cards": [("sael-ambermere", "Sael Ambermere", "Asks each oak's leave, and somehow the oaks always agree."),
               ("ithrin-dawnleaf", "Ithrin Dawnleaf", "Plots a line through the woods that no root will ever buckle."),
               ("corwyn-halfmoon", "Corwyn Halfmoon", "Half the forest's patience and half the city's hurry.")]},
    {"kind": "human", "name": "Human Bridgewright",
     "ability": {"crossing_cost": {"river": 0, "inlet": 1}},
     "rule": "Crossing a river costs nothing extra; crossing an inlet costs 1 extra.",
     "cards": [("maren-tallow", "Maren Tallow", "Keeps a coil of rope, a bag of rivets and no fear of water."),
               ("jory-pellwick", "Jory Pellwick", "Has spanned every stream in the realm, and fallen in most of them.")]},
    {"kind": "orc", "name": "Orc Tollmaster",
     "ability": {"move_bribe": False, "build_bribe": False, "bribes": "receives"},
     "rule": "Pays no Deepways bribes and receives the movement bribes every other player pays.",
     "cards": [("grushnak-coinbiter", "Grushnak Coinbiter", "Every lantern in the Deepways burns by his leave, and for his fee.")]},
    {"kind": "troll", "name": "Troll Tunnel-Boss",
     "ability": {"build_only_layer": 1, "layer_cost": 2, "build_bribe": False, "move_bribe": False},
     "rule": "Builds only in the Deepways, at 2 per milepost, and pays no Deepways bribes.",
     "cards": [("hulgar-underhill", "Hulgar Underhill", "Daylight makes him itch; bedrock makes him sing.")]},
    {"kind": "halfling", "name": "Halfling Harbourmaster",
     "ability": {"ship_draws": 3, "boarding_fee": 0},
     "rule": "When boarding, draws 3 ships and picks one, and pays no boarding fee.",
     "cards": [("pip-tuckaway", "Pip Tuckaway", "Knows every skipper by name, and what each one owes her.")]},
]

# Hiring (published): pay 1 to draw the top card of the deck or the discard and keep one of the
# two; or pay 5 to choose any card of the deck and the discard, then reshuffle the deck. Both
# count toward the 20 a turn may spend; a player always holds exactly one foreman.
HIRING = {"draw": 1, "choose": 5, "in_build_budget": True, "hold": 1}


def foremen() -> list[dict[str, Any]]:
    cards = []
    for kind in FOREMAN_KINDS:
        for card_id, name, text in kind["cards"]:
            cards.append({"id": card_id, "kind": kind["kind"], "kind_name": kind["name"], "name": name,
                          "text": text, "rule": kind["rule"], "ability": kind["ability"]})
    return cards


# -- locos ---------------------------------------------------------------------------------------
# Five levels as published (loads / speed in mileposts, cards in the supply); the names are ours.

LOCOS: list[dict[str, Any]] = [
    {"id": "kettle-crawler", "name": "Kettle-Crawler", "level": 1, "loads": 2, "speed": 10, "count": 6,
     "text": "Wheezes, rattles and always arrives, eventually."},
    {"id": "oxhorn-hauler", "name": "Oxhorn Hauler", "level": 2, "loads": 3, "speed": 10, "count": 3,
     "text": "Broad in the beam and stubborn as its namesake."},
    {"id": "swiftwick", "name": "Swiftwick", "level": 2, "loads": 2, "speed": 12, "count": 3,
     "text": "A lamp-wick boiler that burns hot and quick."},
    {"id": "boulderback", "name": "Boulderback", "level": 3, "loads": 3, "speed": 12, "count": 3,
     "text": "Plated like a cliff; it shrugs off avalanches."},
    {"id": "gale-runner", "name": "Gale Runner", "level": 3, "loads": 2, "speed": 14, "count": 3,
     "text": "Sails bolted to the cab catch every tailwind."},
    {"id": "thunderhide", "name": "Thunderhide", "level": 4, "loads": 3, "speed": 14, "count": 3,
     "text": "The valley hears it a full day before it arrives."},
    {"id": "starling-comet", "name": "Starling Comet", "level": 4, "loads": 2, "speed": 16, "count": 3,
     "text": "Leaves a trail of sparks that children wish upon."},
    {"id": "runeforged-colossus", "name": "Runeforged Colossus", "level": 5, "loads": 3, "speed": 16, "count": 6,
     "text": "Every rivet carved with a rune of haste and a rune of strength."},
]
START_LOCO = "kettle-crawler"
UPGRADE = {"cost_per_level": 10, "max_levels_per_turn": 2, "two_levels_only_if_nothing_else_spent": True,
           "variants": "any variant of a higher level"}


# -- ships ---------------------------------------------------------------------------------------
# 13 ships, speeds 8-13 sea points (published); boarding costs 1-5 (published range). The real
# per-ship costs are unknown: this table is our choice, rising with speed (README.md, "Ships").

SHIPS: list[tuple[str, str, int, int, str]] = [
    ("mudlark", "The Mudlark", 8, 1, "Leaks a little, floats a lot."),
    ("widows-thimble", "The Widow's Thimble", 8, 1, "Small, patched and cheaper than a room at the inn."),
    ("barnacle-queen", "Barnacle Queen", 9, 1, "Her hull wears more shells than the seabed."),
    ("tarred-gander", "The Tarred Gander", 9, 2, "Honks its foghorn at every gull it passes."),
    ("copperbay-trader", "Copperbay Trader", 10, 2, "A merchant's tub with a merchant's patience."),
    ("lanternwake", "Lanternwake", 10, 2, "Hangs a lamp at each mast so the isles know she is coming."),
    ("salt-and-sorrow", "Salt and Sorrow", 10, 3, "Her captain sings laments, but she makes good time."),
    ("greyfin", "Greyfin", 11, 3, "Runs low and grey like the shark she is named for."),
    ("merrow-kiss", "The Merrow's Kiss", 11, 3, "Blessed by something under the waves, or so her crew swears."),
    ("tidecutter", "Tidecutter", 12, 4, "Slices across the current instead of waiting on it."),
    ("windlass-royal", "Windlass Royal", 12, 4, "A navy cutter sold off cheap after the last peace."),
    ("skylark-ascendant", "Skylark Ascendant", 13, 5, "So light on the water she seems to skip."),
    ("morrow-star", "The Morrow Star", 13, 5, "Arrives tomorrow, they say, before she sets sail today."),
]

# Published: money 0-49 pays nothing, 50-99 pays 10, 100-149 pays 15, 150-199 pays 20, 200+ pays 30.
WAR_TAX = [{"from": 0, "to": 49, "pay": 0}, {"from": 50, "to": 99, "pay": 10}, {"from": 100, "to": 149, "pay": 15},
           {"from": 150, "to": 199, "pay": 20}, {"from": 200, "to": None, "pay": 30}]


def make_components() -> dict[str, Any]:
    return {
        "format": "junction/runerail-components@1",
        "about": "Runerail's foremen, locos, ships and war tax, made by scripts/make_components.py. Names and "
                 "texts are this project's own; counts, abilities, speeds, capacities and costs follow the "
                 "published mechanics (ship boarding costs are our choice within the published 1-5).",
        "foremen": foremen(),
        "hiring": HIRING,
        "locos": LOCOS,
        "start_loco": START_LOCO,
        "upgrade": UPGRADE,
        "ships": [{"id": i, "name": n, "speed": s, "boarding_cost": c, "text": t} for i, n, s, c, t in SHIPS],
        "war_tax": WAR_TAX,
    }


# -- events --------------------------------------------------------------------------------------
# Every event is one effect from a closed list of kinds with parameters. An area is one of:
#   {"region": id}                  the mileposts (or sea points) of a region
#   {"within": n, "of": city id}    mileposts at most n hex steps from the city (a major city: its centre)
#   {"terrain": t}                  mileposts of that terrain (track: sections built *to* them)
#   {"river": name}                 the pairs that cross the named river (track: its bridges)
#   {"crossing": kind}              the pairs crossing any river (or inlet) of the map
#   {"cities": [city ids]}          those cities' mileposts
#   {"any": [area, ...]}            the union of several areas
#   {"everywhere": true}            the whole realm
# Durations: "next-turn-end" (until the end of the drawing player's next turn, the default),
# "once" (one shot: only what is in the area when drawn), "game" (for the rest of the game).

EVENT_KINDS = {
    "no-build": "Players named may not build track in the area.",
    "track-destroyed": "Track in the area is erased; each owner may rebuild it (and only they) for 3 turns.",
    "halt": "Trains in the area may not move.",
    "half-rate": "Trains in the area move at half rate (10 -> 5, 12 -> 6 ...; rounded up on entering).",
    "lose-turn": "Players named (or with a train in the area when drawn) lose their next turn.",
    "lose-load": "Each train in the area when drawn loses loads; its owner chooses which.",
    "no-loading": "No loads picked up or delivered at the cities of the area.",
    "open-bridge": "The Prism Bridge opens.",
    "suspend-magic": "The Ley Line is closed: it neither moves trains nor connects the two cities.",
    "no-upgrade": "No loco may be upgraded.",
    "ships-to-port": "Every ship at sea sails at once to its nearest port; its train lands there.",
    "no-boarding": "Nobody may board or leave a ship.",
    "no-foreman-change": "Nobody may hire or change a foreman.",
    "war-tax": "Every player pays by the war tax table.",
}
DURATIONS = ("next-turn-end", "once", "game")
PLAYERS = ("all", "drawer", "others")

# River names: data/map.json's crossings of kind "river" (the world map).
RIVERS_FLOODED = ["Briarbeck", "Icebourne", "Rimewater"]  # the snowmelt rivers off the Rimeteeth

EVENTS: list[dict[str, Any]] = [
    {"id": "guildhall-quarrel", "title": "Quarrel at the Masons' Guildhall", "kind": "no-build",
     "params": {"area": {"region": "greyhold"}, "players": "all"},
     "text": "The mountain masons down their chisels until someone apologises for the cheese at the feast."},
    {"id": "surveyors-oath", "title": "The Surveyors' Oath", "kind": "no-build",
     "params": {"area": {"within": 4, "of": "goldmeadow"}, "players": "others"},
     "text": "Goldmeadow's surveyors swear to stake no line for anyone but the one who paid them last."},
    {"id": "thaw-torrents", "title": "Thaw Torrents", "kind": "track-destroyed",
     "params": {"area": {"any": [{"river": r} for r in RIVERS_FLOODED]}, "rebuild_turns": 3},
     "duration": "once",
     "text": "The spring melt comes down all at once and carries every trestle with it."},
    {"id": "scouring-gale", "title": "The Scouring Gale", "kind": "track-destroyed",
     "params": {"area": {"terrain": "desert"}, "rebuild_turns": 3}, "duration": "once",
     "text": "A hot gale full of grit scours the dunes and buries the rails beneath them."},
    {"id": "cinder-waking", "title": "The Cinder Peaks Wake", "kind": "track-destroyed",
     "params": {"area": {"terrain": "volcano"}, "rebuild_turns": 3}, "duration": "once",
     "text": "Molten rock pours down the old cones, and the rails laid on them run like wax."},
    {"id": "deepways-collapse", "title": "Rumble in the Deep Galleries", "kind": "halt",
     "params": {"area": {"region": "deepways"}},
     "text": "A gallery roof groans, and every crew below waits with held breath for it to settle."},
    {"id": "whiteout", "title": "Whiteout on the Frostmarch", "kind": "half-rate",
     "params": {"area": {"region": "frostmarch"}},
     "text": "Snow falls so thick that drivers creep forward by the glow of their own fireboxes."},
    {"id": "monsoon-mire", "title": "Monsoon Mire", "kind": "half-rate",
     "params": {"area": {"region": "verdant-tangle"}},
     "text": "The rains turn the jungle beds to soup and every wheel to a millstone."},
    {"id": "hatchling-flight", "title": "Hatchlings on the Line", "kind": "lose-turn",
     "params": {"area": {"within": 4, "of": "highcairn"}, "players": "in-area"}, "duration": "once",
     "text": "A clutch of young wyverns roosts on the boilers, and nobody dares to shoo them off."},
    {"id": "ashland-raiders", "title": "Raiders from the Ash", "kind": "lose-load",
     "params": {"area": {"region": "ashen-reach"}, "loads": 1, "chooser": "owner"}, "duration": "once",
     "text": "Masked riders gallop out of the smoke and vanish with whatever they can carry."},
    {"id": "wreckers-lights", "title": "Wreckers' Lanterns", "kind": "lose-load",
     "params": {"area": {"region": "western-sea"}, "loads": 1, "chooser": "owner"}, "duration": "once",
     "text": "False lights on the reefs lure the ships close, and cargo goes over the side to save them."},
    {"id": "mossgate-quarantine", "title": "Spore-Fever at Mossgate", "kind": "no-loading",
     "params": {"area": {"within": 2, "of": "mossgate"}},
     "text": "The healers close the gates until the yellow spores blow back into the jungle."},
    {"id": "dockers-walkout", "title": "The Dockers Walk Out", "kind": "no-loading",
     "params": {"area": {"region": "saltmere"}},
     "text": "Every crane on the coast hangs idle while the porters argue over a single copper."},
    {"id": "prism-dawn", "title": "Dawn on the Prism Bridge", "kind": "open-bridge",
     "params": {"link_kind": "bridge"}, "duration": "game",
     "text": "The morning sun strikes the crystal piers, and a road of coloured light spans the sea."},
    {"id": "ley-ebb", "title": "The Ley Ebbs", "kind": "suspend-magic",
     "params": {"link_kind": "magic"},
     "text": "The current under the hills falls quiet, and the runes along the Ley Line go dark."},
    {"id": "foundry-fires-out", "title": "The Foundry Fires Go Out", "kind": "no-upgrade",
     "params": {},
     "text": "A cold draught sweeps the great forges, and no boiler can be cast until they are relit."},
    {"id": "harbour-bells", "title": "The Harbour Bells Ring", "kind": "ships-to-port",
     "params": {}, "duration": "once",
     "text": "Every harbour rings its storm bell, and every skipper turns for the nearest quay."},
    {"id": "sea-fog", "title": "Fog Banks Roll In", "kind": "no-boarding",
     "params": {},
     "text": "A wall of white settles over the water; no captain will cast off or tie up in it."},
    {"id": "guild-ledger-sealed", "title": "The Labour Guild Seals Its Ledger", "kind": "no-foreman-change",
     "params": {},
     "text": "No crew may be signed on or let go until the guild's clerks finish their count."},
    {"id": "crown-levy", "title": "The High Council's Levy", "kind": "war-tax",
     "params": {"table": "war_tax"}, "duration": "once",
     "text": "The council's collectors arrive with scales, ledgers and very large friends."},
]


def make_events() -> dict[str, Any]:
    events = []
    for e in EVENTS:
        if e["kind"] not in EVENT_KINDS:
            raise ValueError(f"{e['id']}: unknown kind {e['kind']!r}")
        duration = e.get("duration", "next-turn-end")
        if duration not in DURATIONS:
            raise ValueError(f"{e['id']}: unknown duration {duration!r}")
        events.append({"id": e["id"], "title": e["title"], "text": e["text"], "kind": e["kind"],
                       "params": e["params"], "duration": duration})
    return {
        "format": "junction/runerail-events@1",
        "about": "Runerail's event cards, made by scripts/make_components.py: each is one effect kind with its "
                 "parameters. Titles and texts are this project's own. The deck (data/demands.json) mixes "
                 "them with the demand cards.",
        "kinds": EVENT_KINDS,
        "durations": {"next-turn-end": "until the end of the drawing player's next turn",
                      "once": "takes effect when drawn, on what is in the area then, and is over",
                      "game": "for the rest of the game"},
        "areas": {"region": "the mileposts (or sea points) of a region: {\"region\": id}",
                  "within": "mileposts at most n hex steps from a city's milepost (a major city's centre), "
                            "on its layer: {\"within\": n, \"of\": city id}",
                  "terrain": "mileposts of a terrain (track: sections built to them): {\"terrain\": t}",
                  "river": "the milepost pairs crossing a river of the map (track: its bridges): {\"river\": name}",
                  "crossing": "the milepost pairs crossing any crossing of a kind, e.g. every river: "
                              "{\"crossing\": \"river\"}",
                  "cities": "those cities' mileposts: {\"cities\": [ids]}",
                  "any": "the union of several areas: {\"any\": [area, ...]}",
                  "everywhere": "the whole realm: {\"everywhere\": true}"},
        "players": {"all": "every player", "drawer": "the player who drew it", "others": "every player but the drawer",
                    "in-area": "players whose train is in the area when it is drawn"},
        "events": events,
    }


def main(argv: list[str] | None = None) -> None:
    comps = make_components()
    write_json(DATA / "components.json", comps)
    events = make_events()
    write_json(DATA / "events.json", events)
    print(f"wrote {DATA / 'components.json'}: {len(comps['foremen'])} foremen, {len(comps['locos'])} locos "
          f"({sum(x['count'] for x in comps['locos'])} cards), {len(comps['ships'])} ships")
    print(f"wrote {DATA / 'events.json'}: {len(events['events'])} events of {len(events['kinds'])} kinds")


if __name__ == "__main__":
    main()
