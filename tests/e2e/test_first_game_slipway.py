"""Slipway's first game (issue 34), as a newcomer plays it: from the home page, Ann on a 390 px phone with
the shipwright bot in the other seat (two players, the fewest the title allows) plays the whole game to its
end by tapping only, reads how it ended and opens the replay (the driver: tests/e2e/first_game.py). Every
screen state met on the way is checked (tests/e2e/screens.py) and screenshotted into
var/artifacts/first-game/slipway/.

Slipway builds most of its commands by taps on the page, and Ann does each of them as the page asks
(``Newcomer``): she tries every kind of action in turn (canal, build, crew, equipment, commodities,
exchange, employee: the first of them the page lets her choose); she builds a ship by tapping the cheapest
bow, middle and stern she can pay for, each into the slot the page offers after the last; she rents a canal
by tapping a market tile, the highlighted cell of her canals nearest her ship's token, "Turn it", then
"Confirm canal"; she loads a
completed ship with a captain and what else fits without making it faster (the plan on the page says when a
load does not fit: she takes the last item off again), puts it on board, taps the path worth the most
points and sends the ship on its cruise. The rest (the action's own buttons, a discard, the final build,
"End my turn") the driver taps."""

from __future__ import annotations

import re
import time

import pytest

from games.models import Game

from .conftest import create_game
from .first_game import tap_until_the_end, the_ending
from .screens import Screens

# The first pass only (the layout mark, tests/conftest.py): a first game is mostly what its pages look like, at three
# widths with axe-core; the services behind them are played by every other browser test on both passes.
pytestmark = [pytest.mark.browser, pytest.mark.layout, pytest.mark.timeout(420)]

ACTIONS = "#sw-actions"
ROTATION = ("canal", "build", "crew", "equipment", "commodity", "exchange", "employee")
LOAD = ("captain", "crane", "cannon", "marine", "merchant")  # a captain first; nothing that changes the speed
PLAN_SHOWN = """() => {
  const put = document.querySelector("#sw-actions .sw-launch button[data-cmd=outfit]");
  if (!put) return false;
  const why = put.disabled && document.getElementById(put.getAttribute("aria-describedby"));
  return !put.disabled || (!!why && why.textContent !== "Planning…");
}"""
# When a step of Ann's own is open on the page (the condition the driver waits on with its buttons).
HER_STEP = """(() => {
  const box = document.querySelector("#sw-actions");
  if (!box) return false;
  const shown = (n) => n.getClientRects().length > 0;
  if ([...box.querySelectorAll("button[data-cmd=choose]:enabled")].some(shown)) return true;
  if (box.querySelector(".sw-act[data-action=build] .sw-pick:enabled") && !box.querySelector(".sw-slot.pending")) return true;
  if (box.querySelector(".sw-act[data-action=canal] .sw-pick:enabled") && !box.querySelector(".sw-cell.selected")) return true;
  const launch = box.querySelector(".sw-launch");
  if (!launch) return false;
  if (launch.querySelector("button[data-cmd=outfit]:enabled, button[data-cmd=cruise]:enabled")) return true;
  return !launch.querySelector("#sw-outfit-plan") && /On board: nothing yet/.test(launch.textContent)
    && !!launch.querySelector("button[data-cmd=outfit-add]:enabled");
})()"""


class Newcomer:
    """Ann's taps where Slipway's page builds a command step by step (``other_taps``). ``done`` counts
    each flow she finished; the first time she meets each, the screen is checked."""

    def __init__(self, screens: Screens) -> None:
        self.screens = screens
        self.turns = 0
        self.done: dict[str, int] = {}

    def __call__(self, page) -> str | None:
        box = page.locator(ACTIONS)
        if box.locator("button[data-cmd=choose]:enabled:visible").count():
            return self.choose(page)
        if box.locator(".sw-act[data-action=build] .sw-pick:enabled").count() and not box.locator(".sw-slot.pending").count():
            return self.build(page)
        if box.locator(".sw-act[data-action=canal] .sw-pick:enabled").count() and not box.locator(".sw-cell.selected").count():
            return self.canal(page)
        if box.locator(".sw-launch").count():
            return self.launch(page, box.locator(".sw-launch").first)
        return None

    def first_time(self, page, flow: str, *, axe: bool = False) -> None:
        self.done[flow] = self.done.get(flow, 0) + 1
        if self.done[flow] == 1:
            self.screens.check(page, flow, axe=axe)

    def choose(self, page) -> str:
        """The next action of the rotation the page lets her choose (else the first it offers)."""
        for k in range(len(ROTATION)):
            action = ROTATION[(self.turns + k) % len(ROTATION)]
            button = page.locator(f"{ACTIONS} button[data-cmd=choose][data-key*='\"{action}\"']:enabled")
            if button.count():
                self.turns += k + 1
                words = button.inner_text().strip()
                button.click(timeout=3_000)
                return "choose " + words
        button = page.locator(f"{ACTIONS} button[data-cmd=choose]:enabled").first
        words = button.inner_text().strip()
        button.click(timeout=3_000)
        return "choose " + words

    def build(self, page) -> str:
        """The cheapest bow, middle and stern she can pay for, each tapped, then a slot of her yard tapped: the
        one after the last she filled when the page offers it, else the first it offers."""
        act = page.locator(f"{ACTIONS} .sw-act[data-action=build]")
        money = int(re.search(r"\d+", page.inner_text("#sw-players .sw-player.me .sw-money")).group())
        placed: list[int] = []
        for part in ("bow", "middle", "stern"):
            picks = act.locator(f"[aria-label='{part}s in the market'] .sw-pick:enabled")
            costs = sorted((int(re.search(r"cost (\d+)", picks.nth(i).get_attribute("aria-label")).group(1)), picks.nth(i).get_attribute("data-tile"))
                           for i in range(picks.count()))
            affordable = [(cost, tile) for cost, tile in costs if cost <= money]
            if not affordable:
                continue
            cost, tile = affordable[0]
            act.locator(f".sw-pick[data-tile='{tile}']").click(timeout=3_000)
            act.locator(".sw-slot-button").first.wait_for(timeout=10_000)  # the server's plan: which slots
            if len(placed) == 0 and self.done.get("build") is None:
                self.screens.check(page, "build-slots")
            offered = act.locator(".sw-slot-button:enabled")
            slots = [int(offered.nth(i).get_attribute("data-slot")) for i in range(offered.count())]
            if not slots:  # nowhere for it now: tapped again, it is put back
                act.locator(f".sw-pick[data-tile='{tile}']").click(timeout=3_000)
                page.wait_for_function("!document.querySelector('#sw-actions .sw-slot-button')", timeout=5_000)
                continue
            slot = placed[-1] + 1 if placed and placed[-1] + 1 in slots else slots[0]
            act.locator(f".sw-slot-button[data-slot='{slot}']").click(timeout=3_000)
            act.locator(f".sw-slot.pending[data-slot='{slot}']").wait_for(timeout=5_000)
            placed.append(slot)
            money -= cost
        assert placed, "the page offered Build ships but no tile she could place"
        self.first_time(page, "build")
        return "place tiles in slots " + ", ".join(str(s + 1) for s in placed)

    def canal(self, page) -> str:
        """A market tile that fits, the highlighted cell nearest her ship's token (where her next cruise goes
        on from; the first cell before her first cruise), turned once when it can be."""
        act = page.locator(f"{ACTIONS} .sw-act[data-action=canal]")
        pick = act.locator(".sw-pick:enabled").first
        name = pick.get_attribute("aria-label")
        pick.click(timeout=3_000)
        act.locator(".sw-cell.candidate").first.wait_for(timeout=5_000)
        nearest = page.evaluate("""() => {
          const grid = document.querySelector("#sw-actions .sw-act[data-action=canal] .sw-grid");
          const token = grid.querySelector(".sw-cell .sw-token");
          const cells = [...grid.querySelectorAll(".sw-cell.candidate")];
          if (!token) return 0;
          const at = token.closest(".sw-cell").dataset;
          const far = (c) => Math.abs(c.dataset.x - at.x) + Math.abs(c.dataset.y - at.y);
          return cells.indexOf(cells.reduce((a, c) => (far(c) < far(a) ? c : a)));
        }""")
        act.locator(".sw-cell.candidate").nth(nearest).click(timeout=5_000)
        act.locator(".sw-cell.selected").wait_for(timeout=5_000)
        if page.locator("#sw-canal-turn:enabled").count():
            page.click("#sw-canal-turn", timeout=3_000)
        self.first_time(page, "canal")
        return "place canal " + name.split(" (")[0]

    def launch(self, page, launch) -> str | None:
        """The completed ship: loaded and put on board, then the path worth the most points and its cruise."""
        if "On board: nothing yet" in launch.inner_text() and launch.locator("button[data-cmd=outfit-add]:enabled").count():
            loaded = []
            for item in LOAD:
                add = launch.locator("button[data-cmd=outfit-add]:enabled", has_text=f"Add {item} (")
                while add.count():
                    add.click(timeout=3_000)
                    page.wait_for_function(PLAN_SHOWN, timeout=10_000)
                    if launch.locator("button[data-cmd=outfit]:enabled").count():
                        loaded.append(item)
                        if item == "captain":
                            break  # one captain: a second takes a cabin a crew member would
                        continue
                    launch.get_by_role("button", name="Remove last").click(timeout=3_000)  # it does not fit
                    page.wait_for_function(f"({PLAN_SHOWN})() || !document.querySelector('#sw-outfit-plan')", timeout=10_000)
                    break
            if loaded:  # else nothing she holds goes on board (no captain left): the ship sails as it is
                self.first_time(page, "outfit")
                launch.locator("button[data-cmd=outfit]").click(timeout=3_000)
                return "put on board: " + ", ".join(loaded)
        put = launch.locator("button[data-cmd=outfit]:enabled")
        if put.count():
            put.click(timeout=3_000)
            return "put on board"
        send = launch.locator("button[data-cmd=cruise]:enabled")
        if not send.count():
            return None
        paths = launch.locator(".sw-path")
        words = [paths.nth(i).inner_text().split(": ", 1)[1] for i in range(paths.count())]
        assert len(set(words)) == len(words), f"two cruise paths read alike: {words}"
        if paths.count() > 1:
            points = [int(re.search(r": (\d+) point", paths.nth(i).inner_text()).group(1)) for i in range(paths.count())]
            best = points.index(max(points))
            if launch.locator(".sw-path.selected").get_attribute("data-path") != str(best):
                launch.locator(f".sw-path[data-path='{best}']").click(timeout=3_000)
                launch.locator(f".sw-path.selected[data-path='{best}']").wait_for(timeout=5_000)
        self.first_time(page, "cruise-paths" if paths.count() else "ship-lost")
        words = send.inner_text().strip()
        send.click(timeout=3_000)
        return words


def test_slipway_first_game_on_a_phone_with_a_bot(live_server_url, new_page):
    started = time.monotonic()
    screens = Screens("slipway")
    ann = new_page(width=390, height=844)
    errors: list[str] = []
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    code = create_game(ann, live_server_url, kind="slipway", name="Ann")
    ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='1']")
    screens.check(ann, "waiting-room", axe=True)
    ann.click("#start-game")
    ann.wait_for_url(f"**/games/{code}/")
    ann.wait_for_selector("#sw-track svg")
    ann.wait_for_selector("#sw-players .sw-player.me")
    screens.check(ann, "first-turn", axe=True)
    newcomer = Newcomer(screens)
    taps = tap_until_the_end(ann, actions=ACTIONS, prefer=("discard-contract", "build", "end-turn"), screens=screens,
                             moments={12: "early", 40: "later"}, other_taps=(HER_STEP, newcomer),
                             leave=("choose", "outfit-add", "outfit", "cruise"))
    assert taps > 20, "Ann played her turns"
    state = Game.objects.get(code=code).state
    ann_board = next(p for p in state["players"] if p["name"] == "Ann")
    assert newcomer.done.get("build") and newcomer.done.get("canal") and newcomer.done.get("outfit"), newcomer.done
    assert len(ann_board["fleet"]) >= 1, f"Ann's ships made their cruise by taps: {newcomer.done}"
    the_ending(ann, seats=2, screens=screens, base_url=live_server_url)
    assert not screens.problems, "\n".join(screens.problems)
    assert not errors, errors
    print(f"Slipway's first game: {taps} taps, {newcomer.done}, Ann's fleet {len(ann_board['fleet'])},"
          f" lost {[s['reason'] for s in ann_board['lost']]}, {time.monotonic() - started:.0f} s")


STEPS = """() => {
  const card = document.getElementById("sw-cruise-card");
  card.hidden = false;
  const step = (cls, n, words) => `<li class="sw-step ${cls}"><span class="sw-step-spot">${n}</span><span>Step ${n} · ${words}</span></li>`;
  document.getElementById("sw-cruise-steps").innerHTML = step("done", 1, "the north mouth of Yard Basin")
    + step("now", 2, "the centre of Yard Basin") + step("", 3, "the south mouth of Yard Basin") + step("", 4, "the north mouth of Ebb Cut");
}"""


def test_a_cruise_step_not_sailed_yet_is_readable(live_server_url, new_page):
    """The cruise card draws a cruise step by step, 600 ms apart, and is read meanwhile: a step the token has
    not reached yet is set apart (muted, its mark dashed) yet keeps the contrast a text needs (axe-core's
    color-contrast on the card as the page draws it mid-cruise; a first game's ending met it faded to 55 %)."""
    import json

    import httpx
    from axe_playwright_python.base import AXE_SCRIPT

    created = httpx.post(f"{live_server_url}/api/games", json={"kind": "slipway", "name": "Ann"}).json()
    httpx.post(f"{live_server_url}/api/games/{created['code']}/seats", json={"name": "Bo"})
    started = httpx.post(f"{live_server_url}/api/games/{created['code']}/start", headers={"Authorization": f"Bearer {created['token']}"})
    assert started.status_code == 200, started.text
    page = new_page(width=360, height=740)
    tokens = {created["code"]: {"token": created["token"], "seat": 0}}
    page.add_init_script(f"localStorage.setItem('junction.tokens', {json.dumps(json.dumps(tokens))})")
    page.goto(f"{live_server_url}/games/{created['code']}/")
    page.wait_for_selector("#sw-track svg")
    page.evaluate(STEPS)
    page.evaluate(AXE_SCRIPT)
    found = page.evaluate("""() => axe.run("#sw-cruise-card", { runOnly: { type: "rule", values: ["color-contrast"] } })
      .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary)))""")
    assert not found, found
    styles = page.evaluate("""() => [...document.querySelectorAll("#sw-cruise-steps .sw-step")].map((li) =>
      [getComputedStyle(li).color, getComputedStyle(li.querySelector(".sw-step-spot")).borderStyle])""")
    assert styles[2] == styles[3] and styles[2] != styles[1] and styles[2][1] == "dashed", styles  # not reached yet: set apart
