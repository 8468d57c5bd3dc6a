"""A first game of each rail title (Resourceful Rails, Runerail), as a newcomer plays it: from the home page
(a short game: the create form's "round_limit", the most money wins after it), one person on a 390 px phone
with planner bots in the other seats plays the whole game to its end by tapping only, reads how it ended
and opens the replay (the driver: tests/e2e/first_game.py; every screen checked by tests/e2e/screens.py and
screenshotted into var/artifacts/first-game/<title>/).

The person plays their turns with the page's own tools, as its turn line and hints tell them: a build by
choosing "Build track" and tapping on the map where the track should go (a tap more on the way when the first
plan is not the one wanted), the train put on a city by tapping it, a move by tapping where the train should go,
each plan confirmed; loads, deliveries, foremen, ships and the end of the turn with the page's buttons; the
starting cards discarded with their checkboxes. What to do next is what a friend at the table would advise:
the planner bot's move for their seat on the game as saved (as tests/e2e/test_browser_resourceful_rails.py
does); before doing it, the turn line must offer it in words (the page's guidance), and it is done only by
taps on the page. Nothing is sent to the server but by the page."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from playwright.sync_api import Page

from games.engines.registry import get_engine
from games.models import Game

from .conftest import create_game
from .first_game import tap_until_the_end, the_ending
from .screens import Screens

# The first pass only (the layout mark, tests/conftest.py): a first game is mostly what its pages look like, at three
# widths with axe-core; the services behind them are played by every other browser test on both passes.
pytestmark = [pytest.mark.browser, pytest.mark.layout, pytest.mark.timeout(420)]

# What the turn line says (static/js/resourceful_rails.js, runerail.js: stepWords) when the rules allow a command.
SAYS = {"build": "build up to", "move": "move your train", "place-train": "put your train on", "deliver": "deliver ",
        "pick-up": "load ", "drop": "unload ", "upgrade": "upgrade your", "discard-hand": "swap all your",
        "discard-cards": "discard ", "keep-foreman": "keep ", "hire-foreman": "hire a foreman", "board-ship": "board a ship",
        "choose-ship": "choose the ship", "sail": "sail (tap", "choose-load-to-lose": "choose the load"}
SEED = 1
MAP_MODES = {"build": "build", "move": "move", "place-train": "place", "sail": "sail"}


class Newcomer:
    """One person's turns on one rail page (``p``: the page's id prefix, "rr" or "rn")."""

    def __init__(self, page: Page, *, code: str, kind: str, p: str, screens: Screens) -> None:
        self.page, self.code, self.p, self.screens = page, code, p, screens
        self.engine = get_engine(kind)
        self.done: Counter[str] = Counter()  # commands sent, by kind
        self.troubles: list[str] = []  # a step the page would not do by taps (then the turn is ended instead)
        self.mine = (f"!!document.querySelector('#{p}-turn.mine')"
                     f" || !!document.querySelector('#{p}-ask:not([hidden]) #{p}-ask-choices button:enabled')")

    # -- one step of the person's turn -----------------------------------------------------------------------
    def step(self, page: Page) -> str | None:
        game = Game.objects.get(code=self.code)
        if game.status != "active" or 0 not in self.engine.active_seats(game.state):
            return None  # the page has not caught up with a bot's move yet: look again
        page.wait_for_function(f"Number(document.body.dataset.version) >= {game.version}", timeout=15_000)
        if int(page.evaluate("document.body.dataset.version")) != game.version:
            return None
        command = self.engine.bot_command(game.state, seat=0, bot="planner", rng=random.Random(game.version))
        cmd = command["cmd"]
        line = page.inner_text(f"#{self.p}-turn") if page.locator(f"#{self.p}-turn").is_visible() else ""
        if cmd in SAYS and cmd != "choose-load-to-lose" and SAYS[cmd] not in line.lower():
            self.screens.problems.append(f"the turn line does not offer {cmd} ({command}): {line!r}")
        before = game.version
        if cmd in MAP_MODES:
            words = self.on_the_map(command)
        elif cmd == "discard-cards":
            words = self.discard(command)
        elif cmd == "choose-load-to-lose":
            page.click(f"#{self.p}-ask-choices button[data-load='{command['load']}']")
            words = f"lose {command['load']}"
        else:
            words = self.button(command)
        if words is None:  # not doable by taps: said, and the turn ended with its button
            self.clear()
            words = self.button({"cmd": "end-turn"}, fallback=True)
            if words is None:
                raise AssertionError(f"neither {command} nor the end of the turn could be tapped: {self.troubles[-3:]}")
        else:
            self.done[cmd] += 1
        page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'"
                               " || !!document.querySelector('#play-error:not([hidden])')", timeout=30_000)
        return words

    def button(self, command: dict, *, fallback: bool = False) -> str | None:
        """Tap the page's button for ``command`` (in the foremen's closed list: opened first)."""
        page = self.page
        if command["cmd"] == "end-turn":
            found = page.locator(f"#{self.p}-actions button[data-cmd=end-turn]:enabled")
        else:
            key = page.evaluate("(c) => Junction.commandKey(c)", command)
            found = page.locator(f"#{self.p}-actions button[data-key='{key}']:enabled")
        if not found.count():
            self.troubles.append(f"no button for {command}")
            return None
        if not found.first.is_visible():
            page.locator(f"#{self.p}-actions details:has([data-key]) > summary").first.click()
        words = found.first.inner_text().strip()[:50]
        found.first.click(timeout=3_000)
        if fallback:
            self.done["end-turn"] += 1
        return words

    def discard(self, command: dict) -> str:
        for card in command["cards"]:
            self.page.check(f"#{self.p}-hand .{self.p}-card[data-card='{card}'] input[type=checkbox]")
        self.page.click(f"#{self.p}-discard")
        return f"discard {len(command['cards'])} cards"

    # -- the map ---------------------------------------------------------------------------------------------
    def on_the_map(self, command: dict) -> str | None:
        page, p = self.page, self.p
        mode = MAP_MODES[command["cmd"]]
        buttons = page.locator(f"#{p}-modes button[data-mode={mode}]")
        if buttons.count() and buttons.is_visible():
            if buttons.get_attribute("aria-pressed") != "true":
                buttons.click()
        elif page.evaluate(f"document.querySelector('#{p}-tapped').textContent") == "":
            self.troubles.append(f"no {mode} mode for {command}")
            return None
        hint = page.inner_text(f"#{p}-tapped")
        if not hint.startswith("Tap "):
            self.screens.problems.append(f"{mode}: the hint under the map does not say where to tap: {hint!r}")
        keys = [",".join(map(str, at)) for at in (command.get("path") or [command.get("at")])]
        if command["cmd"] == "build":
            tries = [[keys[0], keys[-1]], keys]  # where it starts and ends; then the way, as the hint says
        else:
            tries = [[keys[-1]]]
        for points in tries:
            self.clear()
            if all(self.tap(k) for k in points) and self.planned():
                text = page.inner_text(f"#{p}-plan-text")
                page.click(f"#{p}-confirm")
                return text[:60]
        self.troubles.append(f"{command['cmd']} not planned by taps: {page.inner_text(f'#{p}-plan-text')!r}"
                             f" {page.inner_text(f'#{p}-plan-error') if page.locator(f'#{p}-plan-error').is_visible() else ''}")
        return None

    def clear(self) -> None:
        clear = self.page.locator(f"#{self.p}-clear")
        if clear.is_visible():
            clear.click()

    def planned(self) -> bool:
        page, p = self.page, self.p
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            text = page.evaluate(f"document.querySelector('#{p}-plan-text').textContent")
            if "Planning" not in text:
                break
            page.wait_for_timeout(100)
        return page.locator(f"#{p}-confirm:enabled").count() == 1 and page.locator(f"#{p}-confirm").is_visible()

    def tap(self, key: str) -> bool:
        """Tap the milepost ``key`` as a finger would: its layer shown (the layer buttons above the map), the map
        scrolled to the top of the screen and the milepost brought into its middle; False if it cannot be."""
        page, p = self.page, self.p
        layer = key.split(",")[0]
        if page.evaluate(f"document.querySelector('#{p}-map').dataset.layer || '0'") != layer:
            switch = page.locator(f"#{p}-layers button[data-layer='{layer}']")
            if not switch.count():
                return False
            switch.click()
        page.evaluate(f"() => {{ document.getElementById('{p}-map').scrollIntoView({{ block: 'start' }}); window.scrollBy(0, -54); }}")
        page.evaluate("(k) => window.JunctionPlay.map.focus(k)", key)
        for _ in range(4):
            pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
            if not pt:
                return False
            box = page.locator(f"#{p}-map").bounding_box()
            centre = (box["x"] + box["width"] / 2, box["y"] + min(box["height"], 400) / 2)
            if abs(pt["x"] - centre[0]) < box["width"] / 3 and abs(pt["y"] - centre[1]) < 120:
                break
            page.evaluate("([dx, dy]) => window.JunctionPlay.map.panBy(dx, dy)", [pt["x"] - centre[0], pt["y"] - centre[1]])
        pt = page.evaluate("(k) => window.JunctionPlay.map.clientPoint(k)", key)
        if page.evaluate("([x, y]) => window.JunctionPlay.map.keyAt(x, y)", [pt["x"], pt["y"]]) != key:
            return False
        page.mouse.click(pt["x"], pt["y"])
        return True


def first_game(live_server_url, new_page, *, kind: str, title: str, p: str, money: str, rounds: int, seed: int) -> None:
    """``rounds``: the create form's round limit, enough for a delivery or two and a whole game in well under
    three minutes. ``seed``: the game's, set through the shared database before it starts (as conftest's
    toy_game does): the same game in both passes, one where the advice has the person move and deliver (in
    some games the planner's seat never does within the limit)."""
    started = time.monotonic()
    screens = Screens(kind)
    ann = new_page(width=390, height=844)

    def short_game(page):
        page.fill("#opt-round_limit", str(rounds))

    code = create_game(ann, live_server_url, kind=kind, name="Ann", options=short_game)
    for _ in range(2):
        ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='2']")
    screens.check(ann, "waiting-room", axe=True)
    Game.objects.filter(code=code).update(seed=seed)
    ann.click("#start-game")
    ann.wait_for_url(f"**/games/{code}/")
    ann.wait_for_selector(f"#{p}-map svg")
    assert Game.objects.get(code=code).state["options"]["round_limit"] == rounds
    screens.check(ann, "first-turn", axe=True)
    person = Newcomer(ann, code=code, kind=kind, p=p, screens=screens)
    commands = [c.name for c in person.engine.commands] + ["place-train"]
    taps = tap_until_the_end(ann, actions=f"#{p}-actions", prefer=(), screens=screens, leave=tuple(commands),
                             other_taps=(person.mine, person.step),
                             moments={2: "building", 8: "later-build", 14: "moving", 24: "later"})
    played = time.monotonic() - started
    assert {"build", "place-train", "move", "deliver"} <= set(person.done), (
        f"Ann built, put her train on the map, moved and delivered: {dict(person.done)}; troubles: {person.troubles}")
    assert len(person.troubles) <= 2, person.troubles
    game = Game.objects.get(code=code)
    assert game.state["end_reason"] in ("round-limit", "won")
    ann.wait_for_selector("section.ending")
    how = ann.inner_text("section.ending .ending-how")
    if game.state["end_reason"] == "round-limit":  # how it was won: by money, the ranking too
        assert f"in the {rounds} rounds the game was limited to" in how and f"the most {money}" in how, how
        parts = ann.eval_on_selector_all("section.ending .ending-row", "(rows) => rows.map((r) => "
                                         "[...r.querySelectorAll('.ending-part')].map((s) => s.textContent))")
        held = [int("".join(c for c in part if c.isdigit())) for row in parts for part in row
                if part.lower().startswith(money)]
        assert len(held) == 3 and held == sorted(held, reverse=True), parts
    the_ending(ann, seats=3, screens=screens, base_url=live_server_url)
    assert not screens.problems, "\n".join(screens.problems)
    print(f"{title}: {taps} taps, {dict(person.done)}, the game played in {played:.0f} s, troubles: {person.troubles}")


def test_resourceful_rails_first_game_on_a_phone_with_two_bots(live_server_url, new_page):
    first_game(live_server_url, new_page, kind="resourceful-rails", title="Resourceful Rails", p="rr", money="cash", rounds=8, seed=SEED)


def test_runerail_first_game_on_a_phone_with_two_bots(live_server_url, new_page):
    first_game(live_server_url, new_page, kind="runerail", title="Runerail", p="rn", money="gold", rounds=8, seed=SEED)
