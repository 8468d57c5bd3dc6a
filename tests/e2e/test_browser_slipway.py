"""Slipway in Chromium: a laptop (1280 px) and two phones (390 and 360 px) at one 3-player game, through
the first completed ship and its cruise. Bo's phone (390) manufactures; Cy's phone (360) rents a canal by
tapping a market tile, a cell of her canals and turning it; Ann's laptop recruits. On his next turn Bo
builds a whole ship by tapping three market tiles and three yard slots (an illegal slot shows why),
puts his captain on board, picks a cruise path (numbered on his canals) and sends it; every page shows
the cruise on the canals it sailed (the token along the path, the tiles it left), step by step with its
total, and the replay steps through the game to the same drawing.

The seat order is made, not waited for: the test looks for a seed whose setup puts Bo first, on a
replica of the game (``ENGINE.setup`` with the same players and options), and sets it through the
database before the game starts (as conftest's ``toy_game`` does)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engines.registry import get_engine
from games.models import Game

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
KIND = "slipway"
ENGINE = get_engine(KIND)
NAMES = ["Ann", "Bo", "Cy"]


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.drawn || 0"))


def drawn(page, v: int) -> None:
    """Wait until the page has drawn version ``v`` (or later) of the game."""
    page.wait_for_function(f"Number(document.body.dataset.drawn) >= {v}")


def click_and_wait(page, selector: str) -> None:
    before = int(page.evaluate("document.body.dataset.version || 0"))
    page.click(selector)
    page.wait_for_function(f"Number(document.body.dataset.drawn) > {before}")


def seed_with_order(options: dict, order: list[int]) -> int:
    for seed in range(1, 500):
        if ENGINE.setup(players=NAMES, options=options, seed=seed)["order"] == order:
            return seed
    raise AssertionError(f"no seed gives the order {order}")


def state(code: str) -> dict:
    return Game.objects.get(code=code).state


def test_three_devices_to_the_first_ship_and_its_cruise(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    laptop = new_page(width=1280, height=800)
    code = create_game(laptop, url, kind=KIND, name=NAMES[0])
    join_url = laptop.get_attribute("#join-url", "href")
    pages = {0: laptop}
    for seat, size in ((1, (390, 844)), (2, (360, 740))):
        phone = new_page(width=size[0], height=size[1])
        phone.goto(join_url)
        phone.fill("#join-name", NAMES[seat])
        if seat == 2:
            phone.click("label[for=color-purple]")  # Cy picks reddish purple: her colour in the game
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        pages[seat] = phone
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    laptop.wait_for_selector("#seat-list li[data-seat='2']")
    game = Game.objects.get(code=code)
    Game.objects.filter(code=code).update(seed=seed_with_order(dict(game.options), [1, 2, 0]))
    laptop.click("#start-game")
    for page in pages.values():
        page.wait_for_selector("#sw-track svg")
        page.wait_for_selector("#sw-players .sw-player[data-seat='2']")
    ann, bo, cy = pages[0], pages[1], pages[2]
    assert state(code)["order"] == [1, 2, 0]

    # The board for everyone: the action track (one drawing per tile), the four wheels, the markets.
    market = state(code)["market"]
    for page in pages.values():
        assert page.locator("#sw-wheels svg").count() == 4
        assert page.locator("#sw-market-ships .sw-tile").count() == 9
        assert page.locator("#sw-market-canals .sw-tile").count() == 4
        assert page.locator(f"#sw-market-ships [data-tile={market['bow'][0]}] svg > title").count() == 1
        assert page.locator("#sw-track li[data-action] svg").count() == len(state(code)["track"])  # a drawn tile per action
        assert page.locator("#sw-stops > li").count() == 6 and page.locator("#sw-stops .sw-staff-one").count() == 18
    assert "Bo's turn" in ann.inner_text("#sw-turn")
    # The colour each player chose in the waiting room is theirs on every screen (not the seat order's).
    for page in pages.values():
        cy_board = page.locator("#sw-players .sw-player[data-seat='2']")
        assert cy_board.evaluate("(n) => n.style.getPropertyValue('--seat')").lower() == "#cc79a7"
        assert cy_board.locator(".sw-dot").get_attribute("aria-label") == "Reddish purple"
    assert ann.is_visible("#sw-actions-card") and "Bo's turn" in ann.inner_text("#sw-actions-note")

    # Turn 1, Bo's phone: Manufacture, one step (the option names the item it gives).
    assert bo.inner_text("#sw-turn").startswith("Your turn")
    # What each thing is: every action button says what it does in the engine's words (hover: title; the
    # choice also in a line under it); a tapped tile shows what it is; the legend, folded on a phone.
    helps = {c.name: c.help for c in ENGINE.commands}
    bo.wait_for_function("document.querySelector('#sw-actions button[data-cmd=choose]').title.length > 0")
    choice = bo.locator("#sw-actions .sw-option", has=bo.locator("button:has-text('Manufacture equipment')"))
    assert choice.locator("button").get_attribute("title") == helps["manufacture"]
    assert helps["manufacture"] in choice.inner_text()
    bo.locator(f"#sw-market-ships .sw-tile[data-tile={market['bow'][0]}]").click()
    bo.wait_for_selector("#sw-tipbar:not([hidden])")
    assert bo.inner_text("#sw-tipbar").startswith("Ship tile: bow")
    assert not bo.evaluate("document.getElementById('sw-legend-box').open")
    assert ann.evaluate("document.getElementById('sw-legend-box').open")
    assert ann.locator("#sw-legend h4").count() >= 7 and ann.locator("#sw-legend li").count() >= 40
    exchange = bo.locator("#sw-actions .sw-option", has_text="Exchange commodities")
    assert "no commodity tile" in exchange.inner_text()  # a refused action says why
    assert exchange.locator("button").is_disabled()
    click_and_wait(bo, "#sw-actions button:has-text('Manufacture equipment')")
    ring = content()["wheels"]["equipment_ring"]
    step = bo.locator("#sw-actions button[data-cmd=manufacture]").first
    assert f"1 step · free → {ring[1]}" in step.inner_text()
    click_and_wait(bo, "#sw-actions button[data-cmd=manufacture] >> nth=0")
    assert state(code)["players"][1]["items"][ring[1]] == 1
    click_and_wait(bo, "#sw-actions button[data-cmd=end-turn]")

    # Turn 2, Cy's phone (360): Rent a canal — a market tile, a cell, turn it, confirm.
    drawn(cy, Game.objects.get(code=code).version)
    click_and_wait(cy, "#sw-actions button:has-text('Rent a canal')")
    tile = next(t for t in state(code)["canal_market"]
                if any(e["command"].get("tile") == t and e["reason"] is None for e in ENGINE.listing(state(code), seat=2)))
    cy.click(f"#sw-actions .sw-pick[data-tile={tile}]")
    cy.click("#sw-actions .sw-grid button.candidate >> nth=0")
    cy.wait_for_selector("#sw-actions .sw-cell.selected svg")
    if cy.locator("#sw-canal-turn:enabled").count():
        cy.click("#sw-canal-turn")
    rotation_label = cy.get_attribute("#sw-actions .sw-cell.selected", "aria-label")
    click_and_wait(cy, "#sw-actions button[data-cmd=rent-canal]")
    placed = state(code)["players"][2]["canal"]["tiles"]
    assert len(placed) == 2 and placed[1]["tile"] == tile
    # The cell is named by the tile beside it, never by coordinates.
    names = {t["id"]: t["name"] for t in content()["canals"]["tiles"]} | {"start": content()["canals"]["start"]["name"]}
    assert names[tile] in rotation_label and any(f" of {n}" in rotation_label for n in names.values()), rotation_label
    assert not re.search(RAW_XY, rotation_label), rotation_label
    assert cy.locator(f"#sw-players .sw-player[data-seat='2'] .sw-cell[data-x='{placed[1]['x']}'][data-y='{placed[1]['y']}'] svg").count() == 1
    click_and_wait(cy, "#sw-actions button[data-cmd=end-turn]")

    # Turn 3, Ann's laptop: Recruit crew, one step.
    drawn(ann, Game.objects.get(code=code).version)
    assert ann.get_attribute("#sw-track li[data-action=canal] .sw-cube", "fill").lower() == "#cc79a7"  # Cy's cube
    click_and_wait(ann, "#sw-actions button:has-text('Recruit crew')")
    click_and_wait(ann, "#sw-actions button[data-cmd=recruit] >> nth=0")
    click_and_wait(ann, "#sw-actions button[data-cmd=end-turn]")

    # Turn 4, Bo: his cube comes off Manufacture (moved to the front: marked, and refused with why);
    # Build ships pays a coin per cube nearer the front.
    drawn(bo, Game.objects.get(code=code).version)
    assert "equipment (just moved to the front)" in bo.locator("#sw-track li[data-action=equipment] svg > title").text_content()
    moved = bo.locator("#sw-actions .sw-option", has_text="Manufacture equipment")
    assert "just moved" in moved.inner_text() and moved.locator("button").is_disabled()
    track = state(code)["track"]
    i = next(k for k, t in enumerate(track) if t["action"] == "build")
    income = sum(1 for t in track[i + 1:] if t["cube"] is not None)
    build_button = bo.locator("#sw-actions button:has-text('Build ships')")
    assert (f"income +{income}" in build_button.inner_text()) == (income > 0)
    click_and_wait(bo, "#sw-actions button:has-text('Build ships')")

    # Build by tapping: the cheapest bow, middle and stern into slots 3, 4 and 5 (commands 2, 3, 4).
    ships = content()["ships"]
    cost = {t["id"]: t["cost"] for t in ships["tiles"]}
    market = state(code)["market"]
    chosen = [min(market[part], key=lambda t: cost[t]) for part in ("bow", "middle", "stern")]
    for n, (tile_id, slot) in enumerate(zip(chosen, (2, 3, 4), strict=True)):
        bo.click(f"#sw-actions .sw-pick[data-tile={tile_id}]")
        bo.wait_for_selector("#sw-actions .sw-slot-button")
        if n == 0:  # a bow in the last slot could never become a ship: shown, refused, with the reason
            last_slot = bo.locator("#sw-actions .sw-slot-button[data-slot='7']")
            assert last_slot.is_disabled()
            why = bo.inner_text("#sw-slot-why-7")
            assert why.startswith("Slot 8: ") and len(why) > 12
            assert bo.locator("#sw-actions .sw-yard .sw-slot-button").count() == 8
        bo.click(f"#sw-actions .sw-slot-button[data-slot='{slot}']")
        bo.wait_for_selector(f"#sw-actions .sw-slot.pending[data-slot='{slot}']")
    bo.wait_for_selector("#sw-actions button[data-cmd=build]:enabled")
    total = sum(cost[t] for t in chosen)
    assert f"Confirm build · {total} coin" in bo.inner_text("#sw-actions button[data-cmd=build]")
    click_and_wait(bo, "#sw-actions button[data-cmd=build]")
    me = state(code)["players"][1]
    assert me["yard"][2:5] == chosen

    # Outfitting: the ship's tiles and room; the captain goes on board (planned: speed shown).
    bo.wait_for_selector("#sw-actions .sw-launch[data-slot='2']")
    launch = bo.locator("#sw-actions .sw-launch[data-slot='2']")
    assert launch.locator(".sw-outfit .sw-ship").count() == 3
    assert "Room:" in launch.inner_text()
    launch.locator("button[data-cmd=outfit-add]", has_text="captain").click()
    bo.wait_for_selector("#sw-outfit-plan")
    bo.wait_for_function("document.querySelector('#sw-outfit-plan').textContent.includes('speed')")
    click_and_wait(bo, "#sw-actions .sw-launch button[data-cmd=outfit]")
    assert state(code)["players"][1]["outfits"]["2"] == ["captain"]

    # The cruise: the paths with their scores, the chosen one numbered on Bo's canals; send it.
    bo.wait_for_selector("#sw-actions .sw-path")
    paths = bo.locator("#sw-actions .sw-path")
    assert paths.count() >= 1
    assert "point" in paths.first.inner_text()
    assert bo.locator("#sw-actions .sw-cruise-plan .sw-on-path").count() >= 1
    paths.last.click()
    bo.wait_for_selector("#sw-actions .sw-path.selected")
    final = Game.objects.get(code=code).version
    bo.click("#sw-actions button[data-cmd=cruise]")
    for page in pages.values():
        page.wait_for_function(f"Number(document.body.dataset.drawn) > {final}")
    after = state(code)
    fleet = after["players"][1]["fleet"]
    assert len(fleet) == 1 and after["players"][1]["yard"][2:5] == [None, None, None]
    score = fleet[0]["score"]
    assert after["turn"]["seat"] == 2  # the last ship cruised: the turn ended by itself

    # Every page shows the cruise step by step, then its total, and Bo's fleet; the token went along the
    # path on Bo's canals as they were (the tiles it left included), and ended on its last spot.
    cruised = cruise_event(url, code)
    trail = " ".join(",".join(map(str, p)) for p in cruised["path"])
    end_x, end_y, _ = cruised["path"][-1]
    for page in pages.values():
        page.wait_for_selector("#sw-cruise-card:not([hidden])")
        page.wait_for_function("document.querySelector('#sw-cruise-total').textContent.includes('=')")
        assert page.locator("#sw-cruise-steps li").count() == fleet[0]["speed"]
        assert f"= {score['total']} point" in page.inner_text("#sw-cruise-total")
        assert page.get_attribute("#sw-cruise-card", "data-trail").endswith(trail)
        assert page.locator("#sw-cruise-grid .sw-on-path").count() == len(cruised["path"])
        assert page.locator(f"#sw-cruise-grid .sw-cell[data-x='{end_x}'][data-y='{end_y}'] .sw-token").count() == 1
        assert page.locator("#sw-cruise-grid .sw-cell.left").count() == len(cruised["left"])
        assert "Ship 1:" in page.inner_text("#sw-players .sw-player[data-seat='1'] .sw-fleet")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling"
    assert "Bo's cruise" in ann.inner_text("#sw-cruise-title")
    assert "made its cruise" in cy.inner_text("#sw-feed")
    bo.screenshot(path=str(SHOTS / "slipway-phone.png"), full_page=True)
    ann.screenshot(path=str(SHOTS / "slipway-laptop.png"), full_page=False)
    assert not errors, errors

    # The replay steps through the game with the same surface.
    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay")
    replay.wait_for_selector("body[data-step='1']")
    replay.wait_for_selector("#sw-track svg")
    replay.click("#rp-next")
    replay.wait_for_selector("body[data-step='2']")
    assert "Bo chose Manufacture equipment" in replay.inner_text("#rp-action")
    replay.click("#rp-last")
    last = replay.inner_text("#rp-last-step")
    replay.wait_for_selector(f"body[data-step='{last}']")
    replay.wait_for_function("document.querySelector('#sw-cruise-total').textContent.includes('=')")
    assert replay.get_attribute("#sw-cruise-card", "data-trail").endswith(trail)
    assert replay.locator(f"#sw-cruise-grid .sw-cell[data-x='{end_x}'][data-y='{end_y}'] .sw-token").count() == 1
    assert replay.locator("#sw-actions-card").is_hidden()


def cruise_event(url: str, code: str) -> dict:
    """The last ``cruised`` event of the game (its path and the canal tiles it left), from the action log."""
    import httpx

    actions = httpx.get(f"{url}/api/games/{code}/actions?after=0").json()
    return [e for a in actions for e in a.get("events", []) if e["type"] == "cruised"][-1]


def content() -> dict:
    """The kind's components, as the page reads them (GET /api/kinds/slipway/content)."""
    return ENGINE.content()


# Every state of a whole game drawn for the seat on turn: no script error, no missing value shown, and a
# control to use (or a refused one saying why) in every stage of every phase.
FORBIDDEN = r"\b(null|undefined|NaN)\b|\[object Object\]"
TURN_WORDS = {"end-turn": "end your turn", "bonus": "for a bonus action", "discard-contract": "discard one of your",
              "choose": "choose an action", "pass": "build nothing", "rent-canal": "rent a canal tile", "hire": "hire an employee"}
RAW_XY = r"\(-?\d+, ?-?\d+\)"  # a grid cell's coordinates: places are named, never numbered
DRAW_FOR = """([payload]) => {
  window.JunctionPlay.render(payload, window.JunctionRoom);
  return new Promise((resolve) => {
    const wait = () => (document.body.dataset.drawn === String(payload.version) ? resolve({
      text: document.getElementById("sw").innerText,
      turn: document.getElementById("sw-turn").innerText,
      enabled: document.querySelectorAll("#sw-actions button:enabled").length,
      refused: [...document.querySelectorAll("#sw-actions button:disabled")].filter((b) => !b.getAttribute("aria-describedby")).map((b) => b.textContent),
      stage: payload.state.turn ? payload.state.turn.stage : "over",
    }) : setTimeout(wait, 5));
    wait();
  });
}"""


@pytest.mark.layout
def test_every_state_of_a_bot_game_draws_with_its_controls(live_server_url, new_page):
    import random

    import httpx

    url = live_server_url
    created = httpx.post(f"{url}/api/games", json={"kind": KIND, "name": NAMES[0]}).json()
    for name in NAMES[1:]:
        httpx.post(f"{url}/api/games/{created['code']}/seats", json={"name": name})
    started = httpx.post(f"{url}/api/games/{created['code']}/start", headers={"Authorization": f"Bearer {created['token']}"})
    assert started.status_code == 200, started.text
    page = new_page(width=360, height=740)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    tokens = {created["code"]: {"token": created["token"], "seat": 0}}
    page.add_init_script(f"localStorage.setItem('junction.tokens', {json_text(tokens)})")
    page.goto(f"{url}/games/{created['code']}/")
    page.wait_for_selector("#sw-track svg")

    game = ENGINE.setup(players=NAMES, options=dict(Game.objects.get(code=created["code"]).options), seed=11)
    rng = random.Random(3)
    stages: set[tuple[str, str]] = set()
    for step in range(400):
        if ENGINE.is_finished(game):
            break
        seat = ENGINE.active_seats(game)[0]
        view = ENGINE.view(game, seat=seat)
        legal = [e["command"] for e in view["listing"] if e["reason"] is None]
        shown = page.evaluate(DRAW_FOR, [{"version": 10_000 + step, "status": "active", "seat": seat, "state": view, "legal_commands": legal}])
        stages.add((view["phase"], shown["stage"]))
        assert not re.search(FORBIDDEN, shown["text"]), (step, re.search(FORBIDDEN, shown["text"]).group(0))
        assert not re.search(RAW_XY, shown["text"]), (step, re.search(RAW_XY, shown["text"]).group(0))
        assert shown["enabled"] >= 1, (step, shown["stage"])
        assert not shown["refused"], (step, shown["refused"])  # a refused control always says why
        # The turn line says in words what the player can do next, from the legal commands.
        assert shown["turn"].startswith("Your turn: you can "), (step, shown["turn"])
        for cmd, words in TURN_WORDS.items():
            assert (words in shown["turn"]) == any(c["cmd"] == cmd for c in legal), (step, cmd, shown["turn"])
        command = ENGINE.bot_command(game, seat=seat, bot="random", rng=rng)
        ENGINE.apply(game, seat=seat, command=command)
    assert ENGINE.is_finished(game)
    final = ENGINE.view(game, seat=0)
    result = ENGINE.result(game)
    shown = page.evaluate(DRAW_FOR, [{"version": 20_000, "status": "finished", "seat": 0, "state": final, "legal_commands": [],
                                      "result": result}])
    # The ending (Junction.ending): "Game over" once, every seat ranked with its points by part, how it was won,
    # all within the 360 px phone.
    assert shown["text"].count("Game over") == 1, shown["text"][:400]
    rows = page.locator("#sw-scores .ending-row")
    assert rows.count() == 3
    assert [int(rows.nth(i).get_attribute("data-seat")) for i in range(3)] == [r["seat"] for r in result["ranking"]]
    assert "Cruises" in rows.first.inner_text() and result["how"] in page.inner_text("#sw-scores .ending-how")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("""[...document.querySelectorAll('#sw-scores .ending-row')].every((row) => [...row.querySelectorAll('*')]
        .every((n) => n.getBoundingClientRect().right <= row.getBoundingClientRect().right + 1))"""), "nothing in the ranking is cut"
    assert {("play", "choose"), ("play", "act"), ("final-action", "choose")} <= stages, stages
    assert not errors, errors


def json_text(value) -> str:
    """A JSON text as a JavaScript string literal holding it (for localStorage)."""
    import json

    return json.dumps(json.dumps(value))
