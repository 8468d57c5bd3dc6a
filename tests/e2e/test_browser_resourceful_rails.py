"""Resourceful Rails in Chromium: a laptop and two phones play the build rounds, put their trains
on the map and make their first deliveries, every act by tapping the map or a button.

What each player does is what the planner bot would do in their place (the engine's
``bot_command`` on the game's saved state); the test then does it the way a person does: a build
by tapping the mileposts of the way (the page asks the server to plan it and shows the cost before
it is confirmed), a move by tapping where the train should go, the train placed by tapping a city,
the rest with the buttons of the page. Then a spectator and the replay are checked."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from games.engines.registry import get_engine
from games.models import Game

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
KIND = "resourceful-rails"


def key_of(at) -> str:
    return ",".join(str(v) for v in at)


def command_key(command: dict) -> str:
    """The page's data-key of a listed command (static/js/resourceful_rails.js: key())."""
    return json.dumps([[k, command[k]] for k in sorted(command)], separators=(",", ":"))


def settled(page) -> None:
    """Wait until no plan is being asked for."""
    page.wait_for_function("!/Planning/.test(document.querySelector('#rr-plan-text').textContent) || document.querySelector('#rr-plan').hidden")


def tap(page, key: str) -> None:
    """Tap the milepost ``key`` as a finger would: the map scrolled to the top of the screen, the
    milepost brought to its middle (clear of the zoom buttons and the plan under the map), and the
    map tapped there; the page must report that very milepost."""
    page.evaluate("() => { document.getElementById('rr-map').scrollIntoView({ block: 'start' }); window.scrollBy(0, -54); }")
    page.evaluate("(k) => window.JunctionPlay.map.focus(k)", key)
    hit = False
    for _ in range(4):
        pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
        hit = page.evaluate("""([x, y]) => { const e = document.elementFromPoint(x, y);
            return !!e && !!e.closest('#rr-map svg') && !e.closest('.rm-controls'); }""", [pt["x"], pt["y"]])
        box = page.locator("#rr-map").bounding_box()
        centre = (box["x"] + box["width"] / 2, box["y"] + min(box["height"], 400) / 2)
        if hit and abs(pt["x"] - centre[0]) < box["width"] / 3 and abs(pt["y"] - centre[1]) < 120:
            break
        page.evaluate("([dx, dy]) => window.JunctionPlay.map.panBy(dx, dy)", [pt["x"] - centre[0], pt["y"] - centre[1]])
    pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
    assert page.evaluate("""([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && !!e.closest('#rr-map svg'); }""", [pt["x"], pt["y"]])
    assert page.evaluate("([x, y]) => window.JunctionPlay.map.keyAt(x, y)", [pt["x"], pt["y"]]) == key
    page.mouse.click(pt["x"], pt["y"])


def choose_mode(page, mode: str) -> None:
    page.wait_for_function("(m) => { const b = document.querySelector('#rr-modes'); return b.hidden || !!b.querySelector(`[data-mode=${m}]`); }", arg=mode)
    if page.is_visible(f"#rr-modes button[data-mode={mode}]") and page.get_attribute(f"#rr-modes button[data-mode={mode}]", "aria-pressed") != "true":
        page.click(f"#rr-modes button[data-mode={mode}]")
    page.wait_for_function("(m) => document.querySelector('#rr-tapped').textContent.length > 0", arg=mode)


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


def wait_after(page, before: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")


def confirm(page) -> None:
    settled(page)
    page.wait_for_selector("#rr-confirm:enabled")
    before = version(page)
    page.click("#rr-confirm")
    wait_after(page, before)


def act(page, command: dict, facts: dict) -> None:
    """Do ``command`` on ``page`` as a person would."""
    cmd = command["cmd"]
    if cmd == "build":
        choose_mode(page, "build")
        path = [key_of(p) for p in command["path"]]
        for k in path:
            tap(page, k)
            settled(page)
        text = page.inner_text("#rr-plan-text")
        assert re.match(r"Build \d+ sections? to .+ · \$\d+ \(\$\d+ left to build this turn\)\.", text), text
        facts["build_texts"].append(text)
        confirm(page)
        if not facts.get("undone"):
            # The first build is taken back with Undo (the map loses it) and tapped again.
            facts["undone"] = True
            drawn = "() => [...document.querySelectorAll('#rr-map .rm-track-line')].reduce((n, p) => n + Number(p.dataset.sections), 0)"
            built = page.evaluate(drawn)
            before = version(page)
            page.click("#rr-actions button[data-cmd=undo]")
            wait_after(page, before)
            assert page.evaluate(drawn) < built
            page.locator("#rr-feed li.ev-undone").first.wait_for()
            assert "last move was taken back (build)" in page.inner_text("#rr-feed li.ev-undone")
            act(page, command, facts)
    elif cmd == "move":
        choose_mode(page, "move")
        tap(page, key_of(command["path"][-1]))
        settled(page)
        text = page.inner_text("#rr-plan-text")
        assert re.match(r"Move \d+ mileposts? to .+ \(\d+ mileposts? left after\) · (no fees|fees .+)\.", text), text
        facts["move_texts"].append(text)
        confirm(page)
    elif cmd == "place-train":
        choose_mode(page, "place")
        tap(page, key_of(command["at"]))
        page.wait_for_selector("#rr-confirm:enabled")
        assert page.inner_text("#rr-plan-text").startswith("Put your train at ")
        confirm(page)
    elif cmd == "discard-cards":
        for card in command["cards"]:
            page.check(f"#rr-hand .rr-card[data-card='{card}'] input[type=checkbox]")
        before = version(page)
        page.click("#rr-discard")
        wait_after(page, before)
    else:
        button = page.locator(f"#rr-actions button[data-key='{command_key(command)}']")
        assert button.is_enabled(), command
        label = button.inner_text()
        if cmd == "deliver":
            assert re.match(r"Deliver .+ to .+ · \+\$\d+$", label), label
        if cmd == "upgrade":
            assert label.endswith("· $20"), label
        before = version(page)
        button.click()
        wait_after(page, before)


def test_a_laptop_and_two_phones_build_place_trains_and_deliver_by_tapping(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop = new_page(width=1280, height=800)
    code = create_game(laptop, live_server_url, kind=KIND, name="Ada")
    join_url = laptop.get_attribute("#join-url", "href")
    pages = {0: laptop}
    for seat, (name, size) in enumerate((("Ben", (390, 844)), ("Cy", (360, 640))), start=1):
        phone = new_page(width=size[0], height=size[1])
        phone.goto(join_url)
        phone.fill("#join-name", name)
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        pages[seat] = phone
    watcher = new_page(width=1280, height=800)
    watcher.goto(f"{live_server_url}/games/{code}/")
    laptop.wait_for_selector("#seat-list li[data-seat='2']")
    laptop.click("#start-game")
    for page in pages.values():
        page.wait_for_selector("#rr-map svg")

    engine = get_engine(KIND)
    facts = {"build_texts": [], "move_texts": []}
    delivered: dict[int, str] = {}
    placed: set[int] = set()
    for turn_commands in range(400):
        game = Game.objects.get(code=code)
        state = game.state
        seat = state["active"]
        page = pages[seat]
        page.wait_for_function(f"Number(document.body.dataset.version) >= {game.version}")
        command = engine.bot_command(state, seat=seat, bot="planner", rng=random.Random(turn_commands))
        if state["phase"] == "build":
            # The build rounds: only building (and upgrading) is offered, and the turn line says so.
            assert page.inner_text("#rr-turn").startswith("Your turn: build up to $")
            assert command["cmd"] in ("build", "upgrade", "end-turn")
        act(page, command, facts)
        if command["cmd"] == "place-train":
            placed.add(seat)
        if command["cmd"] == "deliver" and seat not in delivered:
            line = page.locator(f"#rr-feed li.ev-delivered[data-seq='{version(page)}']")
            line.wait_for()
            delivered[seat] = line.inner_text()
        if len(delivered) == 3:
            break
    assert len(delivered) == 3, f"deliveries by seat after 400 commands: {delivered}"
    assert placed == {0, 1, 2}
    for line in delivered.values():
        assert re.fullmatch(r"\w+ delivered .+ to .+ for \$\d+\.", line), line
    assert facts["build_texts"] and facts["move_texts"]

    # Every page, and the spectator, shows the same game: version, track and cash.
    game = Game.objects.get(code=code)
    for page in [*pages.values(), watcher]:
        page.wait_for_function(f"document.body.dataset.version === '{game.version}'")
    sections = {s: sum(1 for o in game.state["rail"]["track"].values() if o == s) for s in range(3)}
    for page in [*pages.values(), watcher]:
        drawn = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('#rr-map .rm-track-line')].map((p) => [p.dataset.seat, Number(p.dataset.sections)]))")
        assert {int(k): v for k, v in drawn.items()} == {s: n for s, n in sections.items() if n}
        cash = page.evaluate("() => [...document.querySelectorAll('#rr-players .rr-player')].map((li) => [Number(li.dataset.seat), li.querySelector('.rr-cash').textContent])")
        assert {s: c for s, c in cash} == {p["seat"]: f"${p['cash']:,}" for p in game.state["players"]}
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The spectator sees trains and track but no cards and no controls.
    assert watcher.locator("#rr-hand-card").is_hidden() and watcher.locator("#rr-actions-card").is_hidden()
    assert watcher.locator("#rr-map .rm-g-trains > *").count() >= 3
    for seat, page in pages.items():
        page.screenshot(path=str(SHOTS / f"rr-seat{seat}.png"))

    # The replay: step by step, each step told in words; the last step is the game as it is.
    replay = new_page(width=1280, height=800)
    replay.goto(f"{live_server_url}/games/{code}/replay")
    replay.wait_for_selector("#rr-map svg")
    replay.wait_for_function("document.body.dataset.step === '1'")
    replay.click("#rp-last")
    replay.wait_for_function(f"document.body.dataset.step === '{game.version}'")
    replay.wait_for_function("document.querySelectorAll('#rr-feed li').length > 10")
    words = replay.inner_text("#rp-action")
    assert words and "{" not in words and "null" not in words
    drawn = replay.evaluate("() => [...document.querySelectorAll('#rr-map .rm-track-line')].reduce((n, p) => n + Number(p.dataset.sections), 0)")
    assert drawn == len(game.state["rail"]["track"])
    assert replay.locator("#rr-feed li.now").count() >= 1
    assert replay.locator("#rr-actions-card").is_hidden()
    # Opened straight at a middle step, the step line names the player, not "seat 2".
    middle = game.version // 2
    replay.goto(f"{live_server_url}/games/{code}/replay?step={middle}")
    replay.wait_for_function(f"document.body.dataset.step === '{middle}' && document.querySelector('#rp-action').textContent.length > 0")
    assert not re.search(r"\bseat \d", replay.inner_text("#rp-action")), replay.inner_text("#rp-action")
