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
import time
from pathlib import Path

import httpx
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
            # The build rounds: only building (and upgrading) is offered, and the turn line says so (or,
            # with no section left to afford, that the turn's building is done).
            line = page.inner_text("#rr-turn")
            assert re.match(r"Your turn: (build up to \$\d+ of track|end your turn \(nothing more to build this turn: \$\d+ left\))", line), line
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


# -- a first game's words: what to do, what the marks mean, how it ended (issue 34) -----------------------

COORDS = re.compile(r"\b\d+,\d+,\d+\b|\(\s*\d+\s*,\s*\d+\s*(,\s*\d+\s*)?\)")  # "0,12,7", "(12, 7)"


def bot_table(url: str, *, options: dict, bots: int = 1) -> tuple[str, str]:
    """A game made over HTTP: Ann in seat 0 and planner bots in the other seats, started; (code, Ann's token)."""
    created = httpx.post(f"{url}/api/games", json={"kind": KIND, "name": "Ann", "options": options}).json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    for name in ("Bo", "Cy")[:bots]:
        assert httpx.post(f"{url}/api/games/{created['code']}/seats", json={"bot": "planner", "name": name}, headers=host).status_code < 300
    assert httpx.post(f"{url}/api/games/{created['code']}/start", headers=host).status_code == 200
    return created["code"], created["token"]


def seat_page(new_page, url: str, code: str, token: str, width: int, height: int):
    page = new_page(width=width, height=height)
    tokens = json.dumps(json.dumps({code: {"token": token, "seat": 0}}))
    page.context.add_init_script(f"localStorage.setItem('junction.tokens', {tokens})")
    page.goto(f"{url}/games/{code}/")
    page.wait_for_selector("#rr-map svg")
    return page


def ann_on_turn(code: str, deadline_s: float = 60) -> dict:
    """The state once it is Ann's turn (the bots play theirs at once), waiting with a pause and a deadline."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        game = Game.objects.get(code=code)
        if game.status != "active" or game.state["active"] == 0:
            return game.state
        time.sleep(0.2)
    raise AssertionError("Ann's turn did not come")


@pytest.mark.layout
def test_a_first_game_says_what_to_do_what_each_mark_means_and_how_it_ended(live_server_url, new_page):
    code, token = bot_table(live_server_url, options={"round_limit": 1})
    state = ann_on_turn(code)
    engine = get_engine(KIND)
    helps = {c.name: c.help for c in engine.commands}
    phone = seat_page(new_page, live_server_url, code, token, 390, 844)

    # The turn line: what the rules allow now, in words.
    phone.wait_for_function("document.querySelector('#rr-turn').textContent.startsWith('Your turn')")
    legal = {c["cmd"] for c in engine.legal_commands(state, seat=0)}
    assert legal == {"build", "end-turn"}
    assert phone.inner_text("#rr-turn") == "Your turn: build up to $20 of track or end your turn."

    # The legend: closed on a phone; every mark the map draws, with the map's own pieces and prices.
    legend = phone.locator("#rr-legend")
    assert legend.is_visible() and legend.get_attribute("open") is None
    phone.click("#rr-legend > summary")
    marks = phone.evaluate("() => Object.fromEntries([...document.querySelectorAll('#rr-legend li')].map((li) => [li.dataset.mark, li.textContent]))")
    drawn = phone.evaluate("() => [...document.querySelectorAll('#rr-map .rm-terrain')].map((p) => p.dataset.terrain)")
    for terrain in drawn:
        assert f"terrain-{terrain}" in marks, terrain
    assert marks["terrain-clear"].endswith("$1 to build to") and marks["terrain-mountain"].endswith("$2 to build to")
    assert marks["major"].endswith("$5 to build to") and marks["crossing-river"] == "River: + $2 to build across"
    assert {k for k in marks if k.startswith("track-")} == {f"track-{p['seat']}-{h}" for p, h in zip(
        state["players"], (engine.content()["colors"][p["color"]] for p in state["players"]), strict=True)}
    assert phone.locator("#rr-legend li[data-mark=major] svg .rm-major").count() == 1  # the map's own class
    assert phone.locator("#rr-legend li[data-mark=train] svg .rm-train-body").count() == 1

    # Every option says what it does: its title, and a "?" that shows the engine's words on a tap.
    end_turn = phone.locator("#rr-actions .rr-option[data-cmd=end-turn]")
    assert end_turn.locator("button[data-cmd=end-turn]").get_attribute("title") == helps["end-turn"]
    toggle = end_turn.locator(".rp-help-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert end_turn.locator(".rp-help").inner_text() == helps["end-turn"]
    phone.click("#rr-hand-title .rp-help-toggle")
    assert "order card" in phone.inner_text("#rr-hand-card .rp-help")

    box = phone.locator("#rr-map").bounding_box()
    # The whole map fits its box: the box takes the map's height, and no shown label is cut at an edge.
    tall = box["height"]
    phone.click("#rr-map .rm-fit")
    fitted = phone.locator("#rr-map").bounding_box()
    assert fitted["height"] < tall * 0.7
    svg = phone.locator("#rr-map svg.rm-svg").bounding_box()
    cut = phone.evaluate("""(s) => [...document.querySelectorAll('#rr-map .rm-label')].filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.left < s.x - 0.5 || r.right > s.x + s.width + 0.5
        || r.top < s.y - 0.5 || r.bottom > s.y + s.height + 0.5).map(([n]) => n)""", svg)
    assert cut == []
    phone.screenshot(path=str(SHOTS / "rr-first-turn-390.png"), full_page=True)

    # Ann ends her turns; the bots play theirs; the round limit ends the game.
    for _ in range(20):
        state = ann_on_turn(code)
        if Game.objects.get(code=code).status != "active":
            break
        assert httpx.post(f"{live_server_url}/api/games/{code}/commands", json={"cmd": "end-turn"},
                          headers={"Authorization": f"Bearer {token}"}).status_code == 200
    game = Game.objects.get(code=code)
    assert game.status == "finished" and game.state["end_reason"] == "round-limit"
    result = engine.result(game.state)
    for width, height in ((390, 844), (1280, 800)):
        page = seat_page(new_page, live_server_url, code, token, width, height)
        page.wait_for_selector("#rr-winner .ending")
        rows = page.eval_on_selector_all("#rr-winner .ending-row", "rows => rows.map((r) => [Number(r.dataset.seat), r.textContent])")
        assert [seat for seat, _ in rows] == [r["seat"] for r in result["ranking"]]
        for (_, words), row in zip(rows, result["ranking"], strict=True):
            assert f"Major cities {row['parts'][0]['value']}" in words and f"Cash {row['parts'][1]['value']}" in words
        assert page.inner_text("#rr-winner .ending-how") == result["how"]
        body = page.inner_text("body")
        assert body.count("Game over") == 1, body
        assert page.locator("#rr-turn").is_hidden() and page.locator("#rr-goal").is_hidden()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert (page.locator("#rr-legend").get_attribute("open") is not None) == (width >= 1000)
        # A tap names the place, never its coordinates.
        for fx, fy in ((0.3, 0.4), (0.5, 0.5), (0.7, 0.6)):
            box = page.locator("#rr-map svg.rm-svg").bounding_box()
            page.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
            tapped = page.inner_text("#rr-tapped")
            assert tapped.startswith("You tapped ") and not COORDS.search(tapped), tapped
            assert re.fullmatch(r"You tapped (a \w+ milepost in the open country near .+|[^()]+( \(.+\))?)\.", tapped), tapped
        page.screenshot(path=str(SHOTS / f"rr-ending-{width}.png"))
