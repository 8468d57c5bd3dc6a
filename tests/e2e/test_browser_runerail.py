"""Runerail in Chromium: a laptop (1280 px) and two phones (390 and 360 px) at one 3-player game,
through the foreman draft, a build tapped in the first build round, a train placed by tapping a
city, the layer switch, a ship boarded and sailed to a tapped sea point, and an event that asks
another player: the third player's hand discard (a
tap) draws the Raiders from the Ash while the second player's train stands in the Ashen Reach with
a load; that player's phone shows the prompt and answers it by a tap, and every page shows the same
result (the load gone, the event listed with its end, its area drawn). Then the replay is stepped.

The event is made to come, not waited for: before the game starts, the test looks for a seed
whose deck puts the Raiders among the cards that hand discard draws, on a replica of the game
(``ENGINE.setup`` with the same players, options and seed, and the same commands applied), and
sets that seed through the database (as conftest's ``toy_game`` does). Everything else the test
checks is read from the game itself (its saved state) and from the kind's content."""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path

import httpx
import pytest

from games.engines.registry import get_engine
from games.engines.runerail import data
from games.models import Game

from .conftest import auth, create_game
from .runerail_scene import NAMES, RAIDERS, find_seed, key_of, prefix, raiders_ask_bo

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
KIND = "runerail"
ENGINE = get_engine(KIND)


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


def at_version(page, v: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) >= {v}")


def tap(page, key: str) -> None:
    """Tap the milepost ``key`` as a finger would (tests/e2e/test_browser_resourceful_rails.py's way)."""
    page.evaluate("() => { document.getElementById('rn-map').scrollIntoView({ block: 'start' }); window.scrollBy(0, -54); }")
    page.evaluate("(k) => window.JunctionPlay.map.focus(k)", key)
    for _ in range(4):
        pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
        box = page.locator("#rn-map").bounding_box()
        centre = (box["x"] + box["width"] / 2, box["y"] + min(box["height"], 400) / 2)
        if abs(pt["x"] - centre[0]) < box["width"] / 3 and abs(pt["y"] - centre[1]) < 120:
            break
        page.evaluate("([dx, dy]) => window.JunctionPlay.map.panBy(dx, dy)", [pt["x"] - centre[0], pt["y"] - centre[1]])
    pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
    assert page.evaluate("([x, y]) => window.JunctionPlay.map.keyAt(x, y)", [pt["x"], pt["y"]]) == key
    page.mouse.click(pt["x"], pt["y"])


def click_and_wait(page, selector: str) -> None:
    before = version(page)
    page.click(selector)
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")


def test_three_players_draft_build_and_an_event_asks_another_phone(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    laptop = new_page(width=1280, height=800)
    code = create_game(laptop, url, kind=KIND, name=NAMES[0],
                       options=lambda p: p.select_option("[data-option=turn_order]", '"seated"'))
    join_url = laptop.get_attribute("#join-url", "href")
    pages = {0: laptop}
    for seat, size in ((1, (390, 844)), (2, (360, 740))):
        phone = new_page(width=size[0], height=size[1])
        phone.goto(join_url)
        phone.fill("#join-name", NAMES[seat])
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        pages[seat] = phone
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)  # a CSP refusal too
    tokens = {seat: page.evaluate("(c) => Junction.seatFor(c).token", code) for seat, page in pages.items()}
    laptop.wait_for_selector("#seat-list li[data-seat='2']")

    game = Game.objects.get(code=code)
    assert [s.name for s in game.seats.order_by("index")] == NAMES
    seed = find_seed(dict(game.options))
    Game.objects.filter(code=code).update(seed=seed)
    laptop.click("#start-game")
    for page in pages.values():
        page.wait_for_selector("#rn-map svg")

    def send(seat: int, command: dict) -> None:
        r = httpx.post(f"{url}/api/games/{code}/commands", json=command, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text

    def state() -> dict:
        return Game.objects.get(code=code).state

    replica = ENGINE.setup(players=NAMES, options=dict(game.options), seed=seed)
    assert state()["deck"] == replica["deck"]  # the server dealt what the search saw
    plan = prefix(copy.deepcopy(replica))

    # The foreman draft: Ann taps the foreman the plan keeps; the page says who and what.
    first = plan[0]
    assert first[0] == 0 and first[1]["cmd"] == "keep-foreman"
    laptop.wait_for_selector("#rn-actions button[data-cmd=keep-foreman]")
    assert laptop.inner_text("#rn-heading").startswith("The foreman draft")
    foreman = data.foremen()[first[1]["foreman"]]
    button = laptop.locator("#rn-actions button[data-cmd=keep-foreman]").first
    assert foreman["name"] in button.inner_text() and foreman["rule"] in button.inner_text()
    before = version(laptop)
    button.click()
    at_version(laptop, before + 1)
    for seat, command in plan[1:]:
        if command["cmd"] != "keep-foreman":
            break
        send(seat, command)
    at_version(laptop, Game.objects.get(code=code).version)

    # Build round 1, Ann's turn: a tap on a milepost next to a major city plans the build there.
    laptop.wait_for_function("document.querySelector('#rn-heading').textContent.startsWith('Build round 1')")
    assert laptop.inner_text("#rn-turn").startswith("Your turn: build up to 20 gold")
    section = next(c for c in ENGINE.legal_commands(state(), seat=0) if c["cmd"] == "build")
    tap(laptop, key_of(section["path"][-1]))
    laptop.wait_for_selector("#rn-confirm:enabled")
    words = laptop.inner_text("#rn-plan-text")
    assert re.match(r"Build \d+ sections? to .+ · \d+ gold.* \(\d+ gold left to spend this turn\)\.", words), words
    click_and_wait(laptop, "#rn-confirm")
    built = state()["rail"]["track"]
    assert built and set(built.values()) == {0}
    laptop.wait_for_function(f"[...document.querySelectorAll('#rn-map .rm-track-line')].reduce((n, p) => n + Number(p.dataset.sections), 0) === {len(built)}")
    click_and_wait(laptop, "#rn-actions button[data-cmd=end-turn]")
    while state()["phase"] == "build":
        send(state()["active"], {"cmd": "end-turn"})

    # Round 1: Ann puts her train on a port by tapping it (outside the Ashen Reach), then ends her turn.
    place = next(c for s, c in plan if s == 0 and c["cmd"] == "place-train")
    at_version(laptop, Game.objects.get(code=code).version)
    laptop.wait_for_selector("#rn-modes button[data-mode=place], #rn-tapped:has-text('Tap any city')")
    tap(laptop, key_of(place["at"]))
    laptop.wait_for_selector("#rn-confirm:enabled")
    assert laptop.inner_text("#rn-plan-text").startswith("Put your train at ")
    click_and_wait(laptop, "#rn-confirm")
    assert state()["players"][0]["at"] == key_of(place["at"])
    laptop.wait_for_selector(f"#rn-map .rm-train[data-seat='0'][data-at='{key_of(place['at'])}']")
    click_and_wait(laptop, "#rn-actions button[data-cmd=end-turn]")

    # The layer switch: the Deepways and back; the map draws one layer at a time.
    laptop.click("#rn-layers button[data-layer='1']")
    laptop.wait_for_selector("#rn-map[data-layer='1']")
    assert laptop.get_attribute("#rn-layers button[data-layer='1']", "aria-pressed") == "true"
    assert laptop.locator("#rn-map .rm-train").count() == 0  # every train is on the surface
    laptop.click("#rn-layers button[data-layer='0']")
    laptop.wait_for_selector("#rn-map[data-layer='0']")
    assert laptop.inner_text("#rn-links") == "The Ley Line is open; The Prism Bridge is closed."  # until their events

    # Bo puts his train in the Ashen Reach (over HTTP) and loads there by tapping his phone.
    bo, cy = pages[1], pages[2]
    bo_place, bo_pick, bo_second = [c for s, c in plan if s == 1 and c["cmd"] in ("place-train", "pick-up")]
    send(1, bo_place)
    at_version(bo, Game.objects.get(code=code).version)
    pick = bo.locator(f"#rn-actions button[data-cmd=pick-up][data-key='{_data_key(bo_pick)}']")
    assert pick.inner_text() == "Load " + data.loads()[bo_pick["load"]]["name"]
    before = version(bo)
    pick.click()
    at_version(bo, before + 1)
    assert state()["players"][1]["loads"] == [bo_pick["load"]]
    send(1, bo_second)  # two different loads: the Raiders will ask which one goes
    send(1, {"cmd": "end-turn"})

    # Cy's demand cards: a demand tapped rings its city on the map.
    v = Game.objects.get(code=code).version
    at_version(cy, v)
    cy.locator("#rn-hand .rn-demand-show").first.click()
    cy.wait_for_selector("#rn-map .rm-mark.rn-demand-city")
    assert raiders_ask_bo(state())

    # Cy discards her hand by a tap: the Raiders come, and Bo is asked.
    discard = cy.locator("#rn-actions button[data-cmd=discard-hand]")
    assert discard.inner_text().startswith("Discard my demand cards")
    discard.click()
    bo.wait_for_selector("#rn-ask:not([hidden]) #rn-ask-choices button[data-load]")
    # The question comes into view on Bo's phone (scrolled down to his options when it came).
    bo.wait_for_function("() => { const r = document.getElementById('rn-ask').getBoundingClientRect(); return r.top > 0 && r.bottom < innerHeight; }")
    ask = bo.locator("#rn-ask-title").bounding_box()
    assert bo.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('#rn-ask')", [ask["x"] + 5, ask["y"] + 5])  # not under the top bar
    raiders = data.events()[RAIDERS]["title"]
    assert raiders in bo.inner_text("#rn-ask-title") and "you lose 1 load" in bo.inner_text("#rn-ask-title")
    assert bo.inner_text("#rn-turn") == "An event takes a load from your train: choose which one."
    for page in (laptop, cy):
        page.wait_for_selector("#rn-ask:not([hidden])")
        assert page.inner_text("#rn-ask-title") == raiders + ": Bo is choosing"
        assert page.locator("#rn-ask-choices button").count() == 0
        assert page.inner_text("#rn-turn") == "Waiting for Bo to choose a load to lose."
    asked = state()
    assert asked["pending"]["queue"][0]["seat"] == 1
    for page in pages.values():
        page.screenshot(path=str(SHOTS / f"rn-asked-{page.viewport_size['width']}.png"), full_page=False)
    bo.click(f"#rn-ask-choices button[data-load='{bo_pick['load']}']")

    # Every page shows the same result: the load gone, the event listed with its end, its area drawn.
    final = Game.objects.get(code=code)
    for _ in range(50):
        if not final.state.get("pending"):
            break
        laptop.wait_for_timeout(100)
        final = Game.objects.get(code=code)
    assert final.state["players"][1]["loads"] == [bo_second["load"]] and not final.state.get("pending")
    area = data.content()["areas"][RAIDERS]
    effect = next(e for e in final.state["effects"] if e["card"] == RAIDERS)
    watcher = new_page(width=1280, height=800)
    watcher.goto(f"{url}/games/{code}/")
    watcher.wait_for_selector("#rn-map svg")
    for page in [*pages.values(), watcher]:
        page.wait_for_function(f"document.body.dataset.version === '{final.version}'")
        assert page.locator("#rn-ask").is_hidden()
        assert page.inner_text("#rn-players li[data-seat='1'] .rn-loads") == \
            "carrying " + data.loads()[bo_second["load"]]["name"]
        item = page.locator(f"#rn-effects li[data-card='{RAIDERS}']")
        assert raiders in item.inner_text()
        assert f"until the end of Cy's turn in round {effect['ends']['turn'] - 3}" in item.inner_text()
        drawn = page.locator(f"#rn-map .rm-area[data-area='{RAIDERS}']")
        assert int(drawn.get_attribute("data-count")) == len(area["nodes"]) + len(area["pairs"]) + len(area["sea"])
        assert page.locator("#rn-feed li.ev-load-lost").first.inner_text() == f"Bo lost {data.loads()[bo_pick['load']]['name']} ({raiders})."
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert final.state["active"] == 0 and final.state["round"] == 2  # Cy's discard ended her turn once Bo chose

    # Round 2: Ann boards a ship at her port by a tap; round 3: she taps a sea point, the voyage is
    # planned, she sails, and every page draws her ship there.
    board = laptop.locator("#rn-actions button[data-cmd=board-ship]")
    assert board.is_enabled() and board.inner_text().startswith("Board a ship here")
    click_and_wait(laptop, "#rn-actions button[data-cmd=board-ship]")
    if state().get("ship_offer"):  # the Halfling draws 3 and chooses
        click_and_wait(laptop, "#rn-actions button[data-cmd=choose-ship]")
    ship = state()["players"][0]["ship"]
    assert ship and data.ships()[ship]["name"] in laptop.inner_text("#rn-train")
    click_and_wait(laptop, "#rn-actions button[data-cmd=end-turn]")
    send(1, {"cmd": "end-turn"})
    send(2, {"cmd": "end-turn"})
    at_version(laptop, Game.objects.get(code=code).version)
    laptop.wait_for_selector("#rn-modes button[data-mode=sail][aria-pressed=true]", state="attached")
    sea, seen = key_of(place["at"]), [key_of(place["at"])]
    for _ in range(3):  # three sea points out from the port
        sea = next(k for k in data.sea_graph()[sea] if k not in seen and k not in data.port_keys())
        seen.append(sea)
    tap(laptop, sea)
    laptop.wait_for_selector("#rn-confirm:enabled")
    words = laptop.inner_text("#rn-plan-text")
    assert re.match(r"Sail \d+ sea points? to the sea off .+: you get there this turn\.", words), words
    click_and_wait(laptop, "#rn-confirm")
    assert state()["players"][0]["sea_at"] == sea
    v = Game.objects.get(code=code).version
    for page in [*pages.values(), watcher]:
        at_version(page, v)
        page.wait_for_selector(f"#rn-map .rm-train.rm-ship[data-seat='0'][data-at='{sea}'][data-sea=true]")
        assert "at sea" in page.inner_text("#rn-players li[data-seat='0']")
    for seat, page in pages.items():
        page.screenshot(path=str(SHOTS / f"rn-seat{seat}.png"))

    # The replay: read-only, stepped back from the last step to the one before Bo's choice.
    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay")
    replay.wait_for_selector("#rn-map svg")
    replay.click("#rp-last")
    replay.wait_for_function(f"document.body.dataset.step === '{v}'")
    # Cy's turn in round 2 is over by now: so is the Raiders' listing, and the feed says so.
    replay.wait_for_selector("#rn-feed li.ev-event-over")
    assert replay.locator(f"#rn-feed li.ev-event-over:has-text('{raiders} is over.')").count() == 1
    assert replay.locator(f"#rn-effects li[data-card='{RAIDERS}']").count() == 0
    assert replay.locator("#rn-actions-card").is_hidden() and replay.locator("#rn-ask").is_hidden()
    chose = next(a["sequence"] for a in httpx.get(f"{url}/api/games/{code}/actions?after=0").json()
                 if a["command"]["cmd"] == "choose-load-to-lose")
    replay.evaluate("(n) => { const s = document.getElementById('rp-slider'); s.value = n; s.dispatchEvent(new Event('input')); }", chose + 1)
    replay.wait_for_function(f"document.body.dataset.step === '{chose + 1}'")
    replay.wait_for_selector(f"#rn-effects li[data-card='{RAIDERS}']")
    assert replay.locator(f"#rn-map .rm-area[data-area='{RAIDERS}']").count() == 1
    for step in (chose, chose - 1):  # one step back at a time, as the button does
        replay.click("#rp-prev")
        replay.wait_for_function(f"document.body.dataset.step === '{step}'")
    replay.wait_for_selector("#rn-ask:not([hidden])")
    assert replay.inner_text("#rn-ask-title") == raiders + ": Bo is choosing"
    assert replay.locator("#rn-ask-choices button").count() == 0
    assert "Raiders" in replay.inner_text("#rp-action") and "{" not in replay.inner_text("#rp-action")
    assert replay.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []  # no page threw or logged an error along the way


def _data_key(command: dict) -> str:
    """The page's data-key of a listed command (static/js/runerail.js: key())."""
    import json

    return json.dumps([[k, command[k]] for k in sorted(command)], separators=(",", ":"))


# -- a first game's words: what to do and what each mark means (issue 34) -----------------------------------


@pytest.mark.layout
def test_the_turn_line_the_legend_and_the_help_say_what_to_do_and_what_each_mark_means(live_server_url, new_page):
    created = httpx.post(f"{live_server_url}/api/games", json={"kind": KIND, "name": "Ann", "options": {"turn_order": "seated"}}).json()
    code, token = created["code"], created["token"]
    host = auth(created["host_token"])
    assert httpx.post(f"{live_server_url}/api/games/{code}/seats", json={"bot": "planner", "name": "Bo"}, headers=host).status_code < 300
    assert httpx.post(f"{live_server_url}/api/games/{code}/start", headers=host).status_code == 200
    helps = {c.name: c.help for c in ENGINE.commands}
    pages = {}
    for width, height in ((390, 844), (1280, 800)):
        page = new_page(width=width, height=height)
        tokens = json.dumps(json.dumps({code: {"token": token, "seat": 0}}))
        page.context.add_init_script(f"localStorage.setItem('junction.tokens', {tokens})")
        page.goto(f"{live_server_url}/games/{code}/")
        page.wait_for_selector("#rn-map svg")
        pages[width] = page
    phone, laptop = pages[390], pages[1280]

    # The draft: the turn line says what the rules allow, in words.
    for page in pages.values():
        page.wait_for_function("document.querySelector('#rn-turn').textContent.startsWith('Your turn')")
        assert page.inner_text("#rn-turn") == "Your turn: keep one of the foremen dealt to you (or none, to wait for the re-deal)."
    keep = phone.locator("#rn-actions .rn-option[data-cmd=keep-foreman]").first
    assert keep.locator("button[data-cmd=keep-foreman]").get_attribute("title") == helps["keep-foreman"]
    keep.locator(".rp-help-toggle").click()
    assert keep.locator(".rp-help").inner_text() == helps["keep-foreman"]
    click_and_wait(phone, "#rn-actions .rn-option[data-cmd=keep-foreman] button[data-cmd=keep-foreman]")

    # Ann's first build turn (the bot drafts and builds at once).
    end = time.monotonic() + 60
    while Game.objects.get(code=code).state["active"] != 0 or Game.objects.get(code=code).state["phase"] != "build":
        assert time.monotonic() < end, "Ann's build turn did not come"
        time.sleep(0.2)
    game = Game.objects.get(code=code)
    phone.wait_for_function(f"Number(document.body.dataset.version) >= {game.version}")
    line = phone.inner_text("#rn-turn")
    assert line.startswith("Your turn: build up to 20 gold of track") and line.endswith("or end your turn."), line
    legal = {c["cmd"] for c in ENGINE.legal_commands(game.state, seat=0)}
    for cmd, words in (("hire-foreman", "hire a foreman"), ("upgrade", "upgrade your loco")):
        assert (words in line) == (cmd in legal), (cmd, line)

    # The legend: closed on the phone, open on the laptop; every kind of mark, the map's own pieces.
    assert phone.locator("#rn-legend").get_attribute("open") is None
    laptop.wait_for_selector("#rn-legend[open] li[data-mark=sea]")
    marks = laptop.evaluate("() => Object.fromEntries([...document.querySelectorAll('#rn-legend li')].map((li) => [li.dataset.mark, li.textContent]))")
    for mark in ("major", "medium", "small", "port", "sea", "gate", "crossing-river", "crossing-inlet", "area-stop", "area-slow", "rebuild", "ship", "train"):
        assert mark in marks, mark
    assert marks["crossing-inlet"] == "Inlet: + 3 gold to build across"
    for link in data.map_data()["links"]:
        if link["kind"] != "entrance":
            assert f"link-{link['name']}" in marks, link["name"]
    surface = {p for p in laptop.evaluate("() => [...document.querySelectorAll('#rn-map .rm-terrain')].map((p) => p.dataset.terrain)")}
    assert surface and all(f"terrain-{t}" in marks for t in surface)
    assert marks["terrain-volcano"].endswith("5 gold to build to")
    laptop.click("#rn-layers button[data-layer='1']")
    laptop.wait_for_selector("#rn-legend li[data-mark=terrain-underground]")  # the Deepways' own mileposts
    assert laptop.locator("#rn-legend li[data-mark=area-stop] svg .rm-area-cells").count() == 1

    # The terms: the headings' "?" tell what the cards, the train, the players and the events are.
    for heading, word in (("#rn-hand-title", "demand"), ("#rn-train-title", "foreman"), ("#rn-players-title", "Major cities joined"),
                          ("#rn-effects-title", "Events")):
        phone.click(f"{heading} .rp-help-toggle")
        assert word in phone.inner_text(f"{heading} + .rp-help"), heading
    for width, page in pages.items():
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / f"rn-first-build-{width}.png"), full_page=width < 1000)
