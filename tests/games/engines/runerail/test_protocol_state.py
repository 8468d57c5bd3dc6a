"""Runerail's state in the server notes' shape (protocol.py): the document's sections in the notes' order,
the static geography read against the raw map, nothing private in another seat's or a spectator's
document, and the effects' end turns checked against when the rules really end them."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.runerail import data
from games.engines.runerail.protocol import FORMAT, geography

from .helpers import (
    ENGINE,
    MAP,
    apply,
    end_turn,
    give_foreman,
    lay,
    line,
    new_game,
    normal_turn,
    put_train,
    seated_game,
    to_play,
    trigger,
)

SECTIONS = ["format", "phase", "start_step", "build_round", "special_phase", "turn", "round", "turn_order",
            "current_player", "winner", "winners", "end_reason", "effects", "decks", "players", "geography", "track",
            "you"]


def doc(state, seat):
    return ENGINE.protocol_state(state, seat=seat)


def public(document):
    return {k: v for k, v in document.items() if k != "you"}


def text(document):
    return json.dumps({k: v for k, v in document.items() if k != "geography"})


def test_the_document_has_the_notes_sections_in_order_through_every_phase():
    state = seated_game(2, seed=3)
    first = doc(state, 0)
    assert list(first) == SECTIONS and first["format"] == FORMAT
    assert (first["phase"], first["start_step"], first["turn"]) == ("start", "foreman-draft", 1)
    assert first["special_phase"]["kind"] == "foreman-draft" and first["special_phase"]["player_id"] == 0
    assert first["special_phase"]["dealt_counts"] == {"0": 6, "1": 6} and first["special_phase"]["undrafted"] == 1
    assert first["current_player"]["turn_phase"] == "draft"
    while state["phase"] == "draft":
        seat = state["active"]
        apply(state, seat, {"cmd": "keep-foreman", "foreman": state["draft"]["dealt"][str(seat)][0]})
    built = doc(state, 1)
    assert (built["phase"], built["start_step"], built["build_round"], built["special_phase"]) == (
        "start", "initial-build", 1, None)
    assert [p["foreman"]["id"] for p in built["players"]] == [p["foreman"] for p in state["players"]]
    to_play(state)
    main = doc(state, None)
    assert (main["phase"], main["start_step"], main["build_round"], main["round"]) == ("main", None, 0, 1)
    assert main["current_player"] == {
        "player_id": 0, "turn_phase": "move", "money_spent": 0, "money_left": 20, "distance_moved": 0,
        "distance_left": 10, "half_rate": False, "tolls_paid": [], "move_bribe_paid": False,
        "build_bribe_paid": False}
    assert main["you"] is None and main["winner"] is None
    state["players"][1]["gold"] = 300
    ENGINE._finish(state, [1], "won")
    over = doc(state, 0)
    assert (over["phase"], over["winner"], over["end_reason"], over["current_player"]) == ("finished", 1, "won", None)
    assert over["winners"] == [1]


def test_the_static_geography_is_the_map_in_the_notes_representation():
    geo = geography()
    raw = data.map_data()
    grid = geo["mileposts"]
    assert geo["layout"] == "odd-r" and [len(grid), len(grid[0]), len(grid[0][0])] == [2, 64, 54]
    cells = [(layer, q, r, grid[layer][q][r]) for layer in range(2) for q in range(64) for r in range(54)]
    land = [c for c in cells if c[3] and c[3]["terrain"] != "sea"]
    sea = [c for c in cells if c[3] and c[3]["terrain"] == "sea"]
    assert (len(land), len(sea)) == (2419, 1340)  # the README's counts: 2,116 + 303 mileposts, 1,340 sea points
    assert all(c[3]["traversable_by_ship"] for c in sea) and not any(c[3]["traversable_by_ship"] for c in land)
    for node in raw["nodes"]:
        layer, q, r = node["at"]
        cell = grid[layer][q][r]
        assert (cell["terrain"], cell["region"], cell.get("city"), cell.get("port", False), cell.get("gate")) == (
            node["terrain"], node["region"], node.get("city"), node.get("port", False), node.get("gate"))
    assert grid[0][42][9]["name"] == grid[1][42][9]["name"] == "North Gate"
    assert grid[0][16][31]["city"] == "saltharbor" and grid[0][16][31]["name"] == "Saltharbor"
    assert sum(1 for c in land if c[3].get("port")) == 17
    assert sum(1 for c in sea if c[3]["region"] == "inland-sea") == 141
    links = geo["special_links"]
    assert {name: (x["kind"], len(x["links"])) for name, x in links.items()} == {
        "The Ley Line": ("magic", 49), "The Prism Bridge": ("bridge", 49), "North Gate": ("entrance", 1),
        "East Gate": ("entrance", 1), "South Gate": ("entrance", 1), "West Gate": ("entrance", 1)}
    assert links["North Gate"]["links"] == [[[0, 42, 9], [1, 42, 9]]]
    assert len(geo["rivers"]) == 12 and len(geo["rivers"]["Amberflow"]) == 28 and len(geo["rivers"]["Silverrun"]) == 41
    assert sum(map(len, geo["rivers"].values())) == 282
    assert {k: len(v) for k, v in geo["inlets"].items()} == {
        "Gull Firth": 10, "Kelp Sound": 10, "Rimefjord": 6, "Whalesmouth": 6, "Ashen Firth": 10}
    assert len(geo["cities"]) == 50 and geo["cities"]["frostholt"] == ["bog-iron", "wool"]
    for load in data.loads().values():  # every city -> loads entry agrees with where each load comes from
        for city in load["sources"]:
            assert load["id"] in geo["cities"][city]
    assert geo["regions"]["deepways"] == "The Deepways"
    assert len(json.dumps(geo, separators=(",", ":"))) < 400_000


def test_nothing_private_reaches_another_seat_or_a_spectator():
    state = new_game(3, seed=5)
    seats = [0, 1, 2]
    # the draft: what each seat was dealt is its own
    docs = {s: doc(state, s) for s in [*seats, None]}
    assert all(public(d) == public(docs[None]) for d in docs.values())
    for s in seats:
        dealt = state["draft"]["dealt"][str(s)]
        assert [f["id"] for f in docs[s]["you"]["foreman_draft"]] == dealt
        for other in [x for x in docs if x != s]:
            assert not any(f'"{card}"' in text(docs[other]) for card in dealt)
    state = to_play(seated_game(3, seed=5))
    # hands: each seat's cards in its own `you`, counts for everyone
    for s in seats:
        mine = doc(state, s)
        assert [c["id"] for c in mine["you"]["demand_cards"]] == state["players"][s]["hand"]
        assert mine["you"]["demand_cards"][0]["demands"][0]["payout"] > 0
        assert [p["demand_cards"] for p in mine["players"]] == [3, 3, 3]
        for other in [x for x in [*seats, None] if x != s]:
            assert not any(f'"{card}"' in text(doc(state, other)) for card in state["players"][s]["hand"])
    # the decks' order: no card still in a deck is named anywhere, to anyone
    apply(state, 0, {"cmd": "hire-foreman", "mode": "draw", "source": "deck"})  # a foreman draw, seen by seat 0 only
    drawn = state["hire"]["drawn"]
    assert doc(state, 0)["you"]["drawn_foreman"]["id"] == drawn
    assert doc(state, 1)["special_phase"] == {"kind": "choose-foreman", "player_id": 0, "source": "deck"}
    for other in (1, 2, None):
        assert f'"{drawn}"' not in text(doc(state, other))
    assert doc(state, 1)["you"]["drawn_foreman"] is None
    for s in [*seats, None]:
        body = text(doc(state, s))
        hidden = state["deck"] + state["foreman_deck"]
        assert not any(f'"{card}"' in body for card in hidden), s
        assert '"rng"' not in body
    assert doc(state, None)["decks"]["demands"]["deck_size"] == len(state["deck"])
    assert doc(state, None)["decks"]["foremen"]["deck_size"] == len(state["foreman_deck"])


def test_the_halflings_ship_offer_is_the_halflings_alone():
    state = normal_turn(2, seed=1)
    put_train(state, 0, "0,15,31")  # Saltharbor's port milepost
    give_foreman(state, 0, "halfling")
    apply(state, 0, {"cmd": "board-ship"})
    offered = state["ship_offer"]["ships"]
    assert [s["id"] for s in doc(state, 0)["you"]["ship_offer"]] == offered
    for other in (1, None):
        d = doc(state, other)
        assert d["special_phase"] == {"kind": "choose-ship", "player_id": 0, "count": 3}
        assert not any(f'"{ship}"' in text(d) for ship in offered + state["ship_deck"])
        assert d["decks"]["ships"] == {"deck_size": 10, "discard_pile": []}
    apply(state, 0, {"cmd": "choose-ship", "ship": offered[0]})
    d = doc(state, 1)
    assert d["players"][0]["ship"]["id"] == offered[0] and d["special_phase"] is None
    assert [s["id"] for s in d["decks"]["ships"]["discard_pile"]] == offered[1:]


def test_a_lost_load_is_the_special_phase_and_the_asked_seats_decision():
    state = normal_turn(2)
    area = data.event_area("ashland-raiders")
    key = MAP.key(next(i for i in sorted(area.nodes) if MAP.nodes[i].city))
    put_train(state, 1, key)
    state["players"][1]["loads"] = ["ale", "wool"]
    trigger(state, 0, "ashland-raiders")
    d = doc(state, 0)
    assert d["special_phase"] == {"kind": "lose-load", "player_id": 1, "ends_turn_after": False, "draw_waits": None,
                                  "queue": [{"player_id": 1, "card": "ashland-raiders", "loads": 1}]}
    assert d["you"]["decision"] is None
    assert doc(state, 1)["you"]["decision"] == {"ask": "choose-load-to-lose", "card": "ashland-raiders",
                                                "loads": 1, "choices": ["ale", "wool"]}
    assert d["players"][1]["train"]["at"] == [int(x) for x in key.split(",")]
    assert d["effects"]["cards"][0]["status"] == "done"


def _present(document, card):
    return any(c["card"] == card for c in document["effects"]["cards"])


@pytest.mark.parametrize(("card", "section", "drawer", "lost"), [
    ("guildhall-quarrel", "no_build", 0, False),  # drawn on the drawer's own turn
    ("guildhall-quarrel", "no_build", 1, False),  # drawn by a seat not on turn (a discard's chain of draws)
    ("whiteout", "half_rate_areas", 0, True),     # a lost turn of the other seat is a turn too
    ("mossgate-quarantine", "no_loading", 2, True),
    ("ley-ebb", "magical_link", 1, False),
    ("foundry-fires-out", "no_upgrading", 0, True),
    ("sea-fog", "no_ship_changes", 2, False),
    ("guild-ledger-sealed", "no_foreman_change", 1, True),
])
def test_each_effect_shows_the_turn_it_ends_and_ends_then(card, section, drawer, lost):
    state = normal_turn(3)
    trigger(state, drawer, card)
    if lost:
        state["players"][(drawer + 1) % 3]["lost_turns"] = 1
    d = doc(state, None)
    entry = d["effects"][section]
    if "areas" in entry:
        assert entry["enabled"] is True
        [area] = entry["areas"]
        assert area["area"] == data.events()[card]["params"]["area"] and area["ends_turn"] == entry["ends_turn"]
    else:
        assert entry["enabled"] is (section != "magical_link") and entry["card"] == card
    ends = entry["ends_turn"]
    assert ends is not None and ends > state["turn_no"]
    assert d["effects"]["cards"] == [{"card": card, "kind": data.events()[card]["kind"], "status": "active",
                                      "drawn_by": drawer, "ends": {"player_id": drawer, "player_turn": 1 + state["players"][drawer]["turns"]},
                                      "ends_turn": ends}]
    seen_turns = set()
    while state["turn_no"] <= ends + 3:
        now = doc(state, 0)
        seen_turns.add(state["turn_no"])
        assert _present(now, card) is (state["turn_no"] <= ends), (state["turn_no"], ends)
        end_turn(state)
    assert ends in seen_turns  # the turn it ends in was played, not skipped over
    if section == "magical_link":
        assert doc(state, None)["effects"]["magical_link"] == {"enabled": True, "ends_turn": None, "card": None}


def test_area_effects_name_the_players_and_cities():
    state = normal_turn(3)
    trigger(state, 1, "surveyors-oath")  # players: others
    trigger(state, 0, "mossgate-quarantine")
    trigger(state, 0, "prism-dawn")
    d = doc(state, 2)
    assert d["effects"]["no_build"]["areas"][0]["players"] == [0, 2]
    assert [p["effects"]["can_build_track"] for p in d["players"]] == [False, True, False]
    assert d["players"][0]["effects"]["no_build"]["areas"][0]["card"] == "surveyors-oath"
    assert d["players"][0]["effects"]["no_build"]["enabled"] is True
    assert d["players"][1]["effects"]["no_build"] == {"enabled": False, "ends_turn": None, "areas": []}
    assert "mossgate" in d["effects"]["no_loading"]["areas"][0]["cities"]
    assert d["effects"]["rainbow_bridge"] == {"enabled": True, "ends_turn": None, "card": "prism-dawn"}


def test_track_is_a_list_of_links_per_player_and_money_and_distance_are_the_turns():
    state = normal_turn(2)
    keys = line(4)
    lay(state, 1, *keys[:2])
    d = doc(state, 0)
    assert d["track"] == [[], [[[int(x) for x in k.split(",")] for k in sorted(keys[:2], key=lambda k: MAP.index[k])]]]
    put_train(state, 0, keys[1])
    lay(state, 0, keys[1], keys[2], keys[3])
    apply(state, 0, {"cmd": "move", "path": [[int(x) for x in k.split(",")] for k in keys[1:]]})
    d = doc(state, 0)
    assert d["current_player"]["distance_moved"] == 2 and d["current_player"]["distance_left"] == 8
    assert sorted(map(tuple, map(lambda link: tuple(map(tuple, link)), d["track"][0]))) == sorted(
        tuple(tuple(MAP.address(n)) for n in MAP.edge_nodes[MAP.edge_key(MAP.index[a], MAP.index[b])])
        for a, b in zip(keys[1:], keys[2:], strict=False))
    apply(state, 0, {"cmd": "upgrade", "loco": "swiftwick"})
    d = doc(state, 0)
    assert (d["current_player"]["money_spent"], d["current_player"]["money_left"]) == (10, 10)
    assert d["current_player"]["turn_phase"] == "build" and d["players"][0]["train"]["speed"] == 12


def test_a_random_game_gives_every_seat_the_same_public_document():
    state = new_game(2, seed=2)
    rng = random.Random(2)
    for step in range(150):
        seat = ENGINE.active_seats(state)[0]
        apply(state, seat, ENGINE.bot_command(state, seat=seat, bot="random", rng=rng))
        if step % 3:
            continue
        docs = [doc(state, s) for s in (0, 1, None)]
        assert public(docs[0]) == public(docs[1]) == public(docs[2])
        d = docs[2]
        assert [p["gold"] for p in d["players"]] == [p["gold"] for p in state["players"]]
        assert sum(map(len, d["track"])) == len(state["rail"]["track"]) and d["turn"] == state["turn_no"]
        json.dumps(d)


@pytest.mark.parametrize("section", ["no_build", "halted_trains", "half_rate_areas", "no_loading", "rainbow_bridge",
                                     "magical_link", "no_upgrading", "no_ship_changes", "no_foreman_change"])
def test_every_effect_state_says_whether_it_is_enabled_and_the_turn_it_ends(section):
    """The notes: "effect states (for each of these, is it enabled and what turn does it end?)"."""
    state = normal_turn(2)
    entry = doc(state, None)["effects"][section]
    assert {"enabled", "ends_turn"} <= set(entry)
    assert entry["enabled"] is (section == "magical_link") and entry["ends_turn"] is None


@pytest.mark.parametrize(("lost", "who"), [(1, 1), (2, 1), (1, 2)])
def test_the_skip_turn_effect_says_the_turn_it_ends(lost, who):
    """The notes' per-player effects, "including turn when the effect is disabled": a lost turn ends in the
    game's turn in which it is skipped."""
    state = normal_turn(3)
    state["players"][who]["lost_turns"] = lost
    skip = doc(state, None)["players"][who]["effects"]["skip_turn"]
    assert skip["enabled"] is True and skip["turns"] == lost and skip["ends_turn"] > state["turn_no"]
    assert doc(state, None)["players"][0]["effects"]["skip_turn"] == {"enabled": False, "turns": 0, "ends_turn": None}
    while doc(state, None)["players"][who]["effects"]["skip_turn"]["enabled"]:
        last = state["turn_no"]
        events = end_turn(state)
    assert {"type": "turn-lost", "seat": who} in events
    assert last < skip["ends_turn"] < state["turn_no"]
    assert state["turn_no"] == skip["ends_turn"] + 1  # the skipped turn was that one; the next has begun


@pytest.mark.parametrize("card", [
    "sea-fog",        # lasts until the end of the drawer's next turn
    "crown-levy",     # a one-shot: its record stays until then
    "scouring-gale",  # destroyed track: the card goes when its rebuild rights begin
])
def test_an_event_card_drawn_is_on_the_discard_pile_while_in_force(card):
    state = normal_turn(2)
    trigger(state, 0, card)
    pile = doc(state, None)["decks"]["demands"]["discard_pile"]
    assert pile[-1] == {"id": card, "type": "event", "title": data.events()[card]["title"],
                        "kind": data.events()[card]["kind"], "in_force": True}
    for _ in range(3):
        end_turn(state)
    pile = doc(state, None)["decks"]["demands"]["discard_pile"]
    assert [c for c in pile if c["id"] == card] == [{"id": card, "type": "event", "title": data.events()[card]["title"],
                                                    "kind": data.events()[card]["kind"]}]
