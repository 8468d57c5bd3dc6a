"""Walk every page of every kind in every phase, on a phone (360×640) and a 1080p screen
(1920×1080), as a seated player, the host and a watcher, and check each one:

- no horizontal overflow (the page is never wider than the screen);
- none of the words null, undefined, NaN or [object Object] in what a person sees or a
  screen reader reads (the text, the value of a field, and aria-label / title / placeholder /
  alt and SVG titles);
- every tap target at least 44 × 44 CSS px: buttons, fields, selects, summaries, tabs, a radio
  or checkbox through its label, and the links of the top bar and of a nav. This is WCAG
  2.5.5 (target size, enhanced); links inside a sentence, and a label's words that explain
  themselves on a tap (``data-term``: at least 24 px, WCAG 2.5.8), are exempt, as WCAG's inline
  exception allows;
- an axe-core scan (axe-playwright-python, axe-core bundled in the package) with no serious
  or critical violation: every rule on the phone, and on the 1080p screen the rules whose
  outcome depends on the layout (contrast, scrolling regions, target size, viewport);
- no uncaught script error, and on the table screen at 1080p city labels of at least 16 px.

The games are brought to each phase through the API (the engines' own bots choose the
commands a person would send) and the game master's services (a bankruptcy set up with a
state edit, seats handed to bots to finish a game). A page with a problem is screenshotted into
var/artifacts/walk/ (printed at the start; JUNCTION_WALK_SHOTS=1: every page, for a look at them all, at about
a second a page); one failure list covers the whole walk."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from games.engines.registry import get_engine
from tests.e2e.conftest import auth
from tests.e2e.runerail_scene import ENGINE as RUNERAIL
from tests.e2e.runerail_scene import NAMES as RUNERAIL_NAMES
from tests.e2e.runerail_scene import find_seed, prefix

SLIPWAY = get_engine("slipway")

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "artifacts" / "walk"
ALL_SHOTS = os.environ.get("JUNCTION_WALK_SHOTS") == "1"  # every page screenshotted, not only those with a problem
VIEWPORTS = {"phone": {"width": 360, "height": 640}, "1080p": {"width": 1920, "height": 1080}}
# No word boundaries: a null glued to a button's words ("Send my rankingnull") is caught too; and no
# version counters ("v22"): words a player should not see.
FORBIDDEN = re.compile(r"null|undefined|NaN|\[object Object\]|\bv\d+\b")
TARGET = 44  # CSS px, both ways (WCAG 2.5.5)

# ---- what the page shows ------------------------------------------------------------------

DESCRIBE = """(n) => {
  let s = n.tagName.toLowerCase();
  if (n.id) s += "#" + n.id;
  else if (n.classList.length) s += "." + [...n.classList].slice(0, 2).join(".");
  for (const a of ["data-cmd", "data-tab", "name", "type", "href"]) if (n.getAttribute(a)) { s += `[${a}=${n.getAttribute(a)}]`; break; }
  const t = (n.innerText || n.value || n.getAttribute("aria-label") || "").trim().replace(/\\s+/g, " ").slice(0, 30);
  return t ? s + ` "${t}"` : s;
}"""

VISIBLE_TEXT = """() => {
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  const texts = [document.title, document.body.innerText];
  for (const n of document.querySelectorAll("[aria-label], [title], [placeholder], [alt], [aria-description]")) {
    if (!shown(n)) continue;
    for (const a of ["aria-label", "title", "placeholder", "alt", "aria-description"]) { const v = n.getAttribute(a); if (v) texts.push(v); }
  }
  for (const n of document.querySelectorAll("input:not([type=hidden]), select, textarea")) if (shown(n)) texts.push(n.value);
  for (const n of document.querySelectorAll("svg title")) if (n.parentElement && shown(n.parentElement)) texts.push(n.textContent);
  return texts.join("\\n");
}"""

OVERFLOW = """() => {
  const describe = DESCRIBE;
  const width = document.documentElement.clientWidth;
  const over = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
  if (over <= 0) return null;
  const wide = [];
  for (const n of document.body.querySelectorAll("*")) {
    const r = n.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) wide.push(describe(n) + " right " + Math.round(r.right));
  }
  return over + " px wider than the screen: " + wide.slice(-6).join("; ");
}""".replace("DESCRIBE;", DESCRIBE + ";")

SMALL_TARGETS = """(size) => {
  const describe = DESCRIBE;
  const targets = "button, input:not([type=hidden]), select, textarea, summary, [role=tab], [role=button], .topbar a[href], nav a[href]";
  const small = [];
  for (const n of document.querySelectorAll(targets)) {
    if (!n.getClientRects().length || getComputedStyle(n).visibility === "hidden") continue;
    if (n.matches("[data-term]")) continue;  // a word of a label explained on a tap: inline, as links in a sentence
    let target = n;
    if (n.matches("input[type=checkbox], input[type=radio]")) target = n.closest("label") || (n.id && document.querySelector(`label[for="${n.id}"]`)) || n;
    const r = target.getBoundingClientRect();
    if (r.width < size - 0.5 || r.height < size - 0.5) small.push(describe(n) + " " + Math.round(r.width) + "×" + Math.round(r.height));
  }
  return small;
}""".replace("DESCRIBE;", DESCRIBE + ";")

# The smallest city label on the table screen's board, in screen pixels (SVG text is scaled
# with the board).
LABEL_PX = """() => Math.min(...[...document.querySelectorAll("#ws-board text.ws-label")].map(
  (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""


@dataclass
class Walk:
    url: str
    browser: object
    contexts: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=lambda: {"host": {}, "seat1": {}, "seat2": {}, "watcher": {}})
    problems: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # the pages' uncaught script errors, as they come
    pages: int = 0

    def page(self, who: str, viewport: str):
        """One browser context per person and screen (its localStorage holds that person's tokens)."""
        key = (who, viewport)
        if key not in self.contexts:
            context = self.browser.new_context(viewport=VIEWPORTS[viewport], reduced_motion="reduce")
            context.set_default_timeout(10_000)
            tokens = json.dumps(json.dumps(self.tokens[who]))  # every game's tokens are known by now
            context.add_init_script(f"localStorage.setItem('junction.tokens', {tokens})")
            page = context.new_page()
            page.on("pageerror", lambda error, where=key: self.errors.append(f"{where}: {error}"))
            self.contexts[key] = page
        return self.contexts[key]

    def visit(self, name: str, path: str, who: str = "watcher", ready: str | None = None, then=None, status: int = 200) -> None:
        """Open ``path`` as ``who`` on both screens, wait for ``ready``, check (and, with
        ``then(page)`` returning named steps, check again after each step)."""
        for viewport in VIEWPORTS:
            page = self.page(who, viewport)
            response = page.goto(self.url + path)
            if response is None or response.status != status:
                self.problem(name, "status", f"{name} @ {viewport}: {path} answered {response and response.status}, not {status}")
            page.wait_for_load_state("load")
            if ready:
                try:
                    page.wait_for_selector(ready)
                except Exception:
                    shown = re.sub(r"\s+", " ", page.inner_text("body"))[:400]
                    self.problem(name, "ready", f"{name} @ {viewport}: never showed {ready!r}; script errors: {self.errors[-3:]}; the page: {shown}")
                    continue
            self.check(f"{name}", viewport, page)
            for step in (then(page) if then else []):
                self.check(f"{name}-{step}", viewport, page)

    def check(self, name: str, viewport: str, page) -> None:
        self.pages += 1
        if self.errors:
            self.problem(name, "script", f"{name} @ {viewport}: script errors: " + " | ".join(self.errors))
            self.errors.clear()
        before = len(self.problems)
        where = f"{name} @ {viewport}"

        over = page.evaluate(OVERFLOW)
        if over:
            self.problem(name, "overflow", f"{where}: {over}")
        text = page.evaluate(VISIBLE_TEXT)
        for match in sorted({m.group(0) for m in FORBIDDEN.finditer(text)}):
            at = text.find(match)
            self.problem(name, "words", f"{where}: shows {match!r}: …{text[max(0, at - 60):at + 40]!r}…")
        small = page.evaluate(SMALL_TARGETS, TARGET)
        if small:
            self.problem(name, "targets", f"{where}: {len(small)} tap target(s) under {TARGET} px: " + "; ".join(small[:8]))
        for violation in axe_violations(page, full=viewport == "phone"):
            self.problem(name, "axe", f"{where}: axe {violation}")
        if viewport == "1080p" and page.locator("#ws-board text.ws-label").count():
            smallest = page.evaluate(LABEL_PX)
            if smallest < 15.99:
                self.problem(name, "labels", f"{where}: the board's city labels are {smallest:.1f} px (at least 16 px at 1080p)")
        if len(self.problems) > before or ALL_SHOTS:
            shot = ARTIFACTS / viewport / f"{name}.png"
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot), full_page=True)

    def problem(self, name: str, check: str, text: str) -> None:
        self.problems.append(f"[{check}] {text}")

    def close(self) -> None:
        for page in self.contexts.values():
            page.context.close()


# axe-core's rules whose outcome depends on the size of the screen (where things land, what
# overlaps, what scrolls). The pages build the same DOM on every screen (none asks for the
# screen size, except the table's label size), so on the second screen only these run again.
AXE_LAYOUT_RULES = ["color-contrast", "scrollable-region-focusable", "target-size", "meta-viewport",
                    "meta-viewport-large", "css-orientation-lock", "avoid-inline-spacing"]


def axe_violations(page, full: bool = True) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now: every rule, or with
    ``full=False`` the layout rules. The script (from the axe-playwright-python package) is put
    into a document once; each check runs it anew."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    results = page.evaluate(
        "(rules) => axe.run(document, rules ? { resultTypes: ['violations'], runOnly: { type: 'rule', values: rules } }"
        " : { resultTypes: ['violations'] })",
        None if full else AXE_LAYOUT_RULES,
    )
    found = []
    for v in results["violations"]:
        if v.get("impact") in ("serious", "critical"):
            nodes = "; ".join(" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"]) for n in v["nodes"][:4])
            found.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} node(s)): {v['help']} — {nodes}")
    return found


# ---- bringing games to each phase -----------------------------------------------------------


def create(url: str, kind: str, name: str | None, options: dict | None = None) -> dict:
    # Open tables (games/listing.py): the home page's list of open games has them to walk through.
    body = {"kind": kind, "listed": True, **({"name": name} if name else {}), **({"options": options} if options else {})}
    created = httpx.post(f"{url}/api/games", json=body)
    assert created.status_code == 201, created.text
    return created.json()


def seat(url: str, code: str, name: str, color: str | None = None) -> str:
    response = httpx.post(f"{url}/api/games/{code}/seats", json={"name": name, **({"color": color} if color else {})})
    assert response.status_code == 201, response.text
    return response.json()["token"]


def start(url: str, code: str, host_token: str) -> None:
    response = httpx.post(f"{url}/api/games/{code}/start", headers=auth(host_token))
    assert response.status_code == 200, response.text


def game_row(code: str):
    from games.models import Game

    return Game.objects.get(code=code)


def play_until(url: str, code: str, tokens: dict[int, str], bot: str, done, limit: int = 400) -> None:
    """Send the commands the engine's own bot would choose for the seats on turn (each with
    its own token) until ``done(state)``."""
    from games.engines.registry import get_engine

    rng = random.Random(7)
    for _ in range(limit):
        game = game_row(code)
        if done(game.state) or game.status != "active":
            return
        engine = get_engine(game.kind)
        seat_no = engine.active_seats(game.state)[0]
        command = engine.bot_command(game.state, seat=seat_no, bot=bot, rng=rng)
        response = httpx.post(f"{url}/api/games/{code}/commands", json=command, headers=auth(tokens[seat_no]))
        assert response.status_code == 200, response.text
    raise AssertionError(f"{code} did not reach the phase in {limit} commands")


def bots_finish(code: str, bot: str) -> None:
    """The game master hands every seat to a bot; the bots play to the end."""
    from games import services

    game = game_row(code)
    for seat_row in game.seats.filter(is_bot=False).order_by("index"):
        services.seat_bot_assign(game_id=game.id, seat=seat_row.index, bot=bot, by="walk")
    assert game_row(code).status == "finished", game_row(code).status


def server_error_page() -> str:
    """The 500 page exactly as Django renders it (django.views.defaults.server_error)."""
    from django.test import RequestFactory
    from django.views.defaults import server_error

    return server_error(RequestFactory().get("/")).content.decode()


def walk_ratings(walk: Walk, code: str) -> None:
    """The ratings pages (players/ratings_views.py: the kinds, a leaderboard, a profile with a
    rated game) and Your data (players/data_views.py) as a signed-in player: ratings written
    straight into the database, the session through Django's test client."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from players.models import Rating, RatingChange

    game = game_row(code)
    users = [get_user_model().objects.create_user(name, f"{name}@example.com") for name in ("walk-ann", "walk-bo-with-a-long-name")]
    for owner, mu, rank in zip(users, (29.5, 21.25), (1, 2), strict=True):
        Rating.objects.create(user=owner, kind="toy", mu=mu, sigma=7.9, games=1)
        RatingChange.objects.create(game=game, user=owner, kind="toy", rank=rank, mu_before=25.0,
                                    sigma_before=25 / 3, mu_after=mu, sigma_after=7.9)
    client = Client()
    client.force_login(users[0])
    walk.tokens["member"] = {}
    for viewport in VIEWPORTS:
        walk.page("member", viewport).context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": walk.url}])
    walk.visit("ratings", "/ratings/", ready="#rating-kinds a")
    walk.visit("ratings-leaderboard", "/ratings/toy/", ready="#leaderboard-table")
    walk.visit("ratings-profile", f"/players/{users[1].username}/", ready="#profile-ratings")
    walk.visit("account", "/me/account", who="member", ready="#account-delete-form")


def walk_accounts(walk: Walk, code: str) -> None:
    """Sign-up and sign-in (django-allauth's pages in the site's look) as a guest, and My games as
    the signed-in member of walk_ratings, who holds a seat of ``code``."""
    from django.contrib.auth import get_user_model

    from games.models import Seat

    Seat.objects.filter(game__code=code, index=1).update(user=get_user_model().objects.get(username="walk-ann"))
    walk.visit("sign-up", "/accounts/signup/", ready="#signup-form")
    walk.visit("sign-in", "/accounts/login/", ready="#login-form")
    walk.visit("my-games", "/me/games", who="member", ready="#my-games-list .my-game-open")


# ---- the walk ---------------------------------------------------------------------------------


@pytest.mark.layout
@pytest.mark.timeout(900)  # one test over every page: minutes on a busy 2-core machine
def test_every_page_in_every_phase_on_a_phone_and_a_1080p_screen(live_server_url, chromium_browser, capsys):
    url = live_server_url
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True)
    with capsys.disabled():
        print(f"\nwalk screenshots: {ARTIFACTS}")
    walk = Walk(url, chromium_browser)
    try:
        run_walk(walk, url)
    finally:
        walk.close()
    assert walk.pages >= 80, walk.pages
    assert not walk.problems, f"{len(walk.problems)} problem(s) on {walk.pages} page views:\n" + "\n".join(walk.problems)


def run_walk(walk: Walk, url: str) -> None:
    host, seat1, seat2 = walk.tokens["host"], walk.tokens["seat1"], walk.tokens["seat2"]

    # The lobby: a toy race, Locomotive Werks and Wood and Steel, each waiting for its host.
    toy = create(url, "toy", "Ann", {"target": 12})
    host[toy["code"]] = {"token": toy["host_token"], "host": True, "seat": 0}
    seat1[toy["code"]] = {"token": seat(url, toy["code"], "Bo"), "seat": 1}
    lw = create(url, "locomotive-werks", "Ann", {"end_threshold": 1})
    host[lw["code"]] = {"token": lw["host_token"], "host": True, "seat": 0}
    seat1[lw["code"]] = {"token": seat(url, lw["code"], "Bo"), "seat": 1}
    seat2[lw["code"]] = {"token": seat(url, lw["code"], "Cy"), "seat": 2}
    ws = create(url, "wood-and-steel", "Ada", {"max_rounds": 1})
    host[ws["code"]] = {"token": ws["host_token"], "host": True, "seat": 0}
    seat1[ws["code"]] = {"token": seat(url, ws["code"], "Ben", "blue"), "seat": 1}
    seat2[ws["code"]] = {"token": seat(url, ws["code"], "Cleo", "green"), "seat": 2}
    # Resourceful Rails: one game to walk through its phases, one with five starting cards to discard from.
    rr = create(url, "resourceful-rails", "Ada", {"round_limit": 3})
    host[rr["code"]] = {"token": rr["host_token"], "host": True, "seat": 0}
    seat1[rr["code"]] = {"token": seat(url, rr["code"], "Ben"), "seat": 1}
    seat2[rr["code"]] = {"token": seat(url, rr["code"], "Cy"), "seat": 2}
    rr5 = create(url, "resourceful-rails", "Ada", {"extra_starting_cards": True})
    host[rr5["code"]] = {"token": rr5["host_token"], "host": True, "seat": 0}
    seat1[rr5["code"]] = {"token": seat(url, rr5["code"], "Ben"), "seat": 1}
    # Runerail: one game, its seed set so that a hand discard in round 1 asks another player for a load.
    rn = create(url, "runerail", "Ann", {"turn_order": "seated"})
    host[rn["code"]] = {"token": rn["host_token"], "host": True, "seat": 0}
    seat1[rn["code"]] = {"token": seat(url, rn["code"], "Bo"), "seat": 1}
    seat2[rn["code"]] = {"token": seat(url, rn["code"], "Cy"), "seat": 2}
    # Slipway: one game, from the first choice through a build, a ship's launch and its cruise to the end.
    sw = create(url, "slipway", "Ann")
    host[sw["code"]] = {"token": sw["host_token"], "host": True, "seat": 0}
    seat1[sw["code"]] = {"token": seat(url, sw["code"], "Bo"), "seat": 1}
    seat2[sw["code"]] = {"token": seat(url, sw["code"], "Cy"), "seat": 2}
    spare = create(url, "toy", "Dee")  # a second open game: the home page lists two
    # A table screen held by a host without a seat (its host panel shows): a second Wood and Steel game.
    hosted = create(url, "wood-and-steel", None)
    host[hosted["code"]] = {"token": hosted["host_token"], "host": True}
    for name in ("Eve", "Finn"):
        seat(url, hosted["code"], name)

    walk.visit("home", "/", ready="#open-games li a",
               then=lambda p: (p.click("#create-options > summary"), ["options-open"])[1])
    walk.visit("join-lobby", f"/join/{spare['code']}", ready="#color-choices input")
    walk.visit("rules-index", "/rules/", ready="#rules-index")  # How to play (games/rules_views.py)
    for kind in ("locomotive-werks", "resourceful-rails", "runerail", "slipway", "wood-and-steel"):
        walk.visit(f"rules-{kind}", f"/rules/{kind}/", ready="#rules #options")
    for code, kind in ((toy["code"], "toy"), (ws["code"], "ws")):  # the same waiting room for every kind
        walk.visit(f"room-lobby-{kind}-host", f"/games/{code}/", who="host", ready="#host-controls:not([hidden])")
    walk.visit("room-lobby-toy-seated", f"/games/{toy['code']}/", who="seat1", ready="#waiting-host:not([hidden])")
    walk.visit("room-lobby-toy-watcher", f"/games/{toy['code']}/", ready="#not-seated:not([hidden])")
    walk.visit("table-lobby", f"/games/{ws['code']}/table", ready="#conn[data-state=open]")
    walk.visit("table-lobby-host", f"/games/{hosted['code']}/table", who="host", ready="body[data-viewer=host] #conn[data-state=open]")
    walk.visit("rejoin", f"/games/{ws['code']}/rejoin", ready="#rejoin-form")
    walk.visit("table-not-ws", f"/games/{toy['code']}/table", ready="#not-ws", status=404)
    walk.visit("not-found", "/join/ZZZZZ", status=404)  # the same page as for no route at all
    walk_ratings(walk, toy["code"])
    walk_accounts(walk, toy["code"])
    page_500 = server_error_page()
    for viewport in VIEWPORTS:
        page = walk.page("watcher", viewport)
        page.route(f"{url}/__walk_500", lambda route: route.fulfill(status=500, content_type="text/html", body=page_500))
        page.goto(f"{url}/__walk_500")
        walk.check("server-error", viewport, page)
        page.unroute(f"{url}/__walk_500")

    # Playing: every kind started.
    start(url, toy["code"], toy["host_token"])
    start(url, lw["code"], lw["host_token"])
    start(url, ws["code"], ws["host_token"])
    start(url, hosted["code"], hosted["host_token"])
    walk.visit("table-ranking-host", f"/games/{hosted['code']}/table", who="host", ready="body[data-viewer=host][data-phase=ranking]")
    walk.visit("join-started", f"/join/{toy['code']}")
    walk.visit("room-toy-on-turn", f"/games/{toy['code']}/", who="host", ready="#legal button")
    play_until(url, toy["code"], {0: toy["host_token"], 1: seat1[toy["code"]]["token"]}, "random", lambda s: s["counter"] >= 4)
    walk.visit("room-toy-watcher", f"/games/{toy['code']}/", ready="#conn[data-state=open]")
    lw_tokens = {0: lw["host_token"], 1: seat1[lw["code"]]["token"], 2: seat2[lw["code"]]["token"]}
    walk.visit("lw-playing-host", f"/games/{lw['code']}/", who="host", ready="#conn[data-state=open]")
    play_until(url, lw["code"], lw_tokens, "random", lambda s, code=lw["code"]: game_row(code).version >= 8)
    walk.visit("lw-later-seat1", f"/games/{lw['code']}/", who="seat1", ready="#conn[data-state=open]")
    walk.visit("lw-later-watcher", f"/games/{lw['code']}/", ready="#conn[data-state=open]")

    # Wood and Steel through its phases, on the phones (every tab) and the table screen.
    ws_code = ws["code"]
    ws_tokens = {0: ws["host_token"], 1: seat1[ws_code]["token"], 2: seat2[ws_code]["token"]}

    def tabs(*names):
        def step(page):
            for tab in names:
                page.click(f".ws-tabs [data-tab={tab}]")
                yield tab
        return step

    def ws_phase(phase: str, with_tabs: bool = False) -> None:
        for who in ("host", "seat1") if phase != "engines" else ("host",):
            walk.visit(f"ws-{phase}-{who}", f"/games/{ws_code}/", who=who, ready=f"body[data-phase={phase}] #ws-feed li",
                       then=tabs("market", "ties", "railroads", "commodities", "cities") if with_tabs and who == "host" else None)
        walk.visit(f"table-{phase}", f"/games/{ws_code}/table", ready=f"body[data-phase={phase}] #ws-t-feed li")

    ws_phase("ranking")
    play_until(url, ws_code, ws_tokens, "simple", lambda s: s["phase"] != "ranking")
    ws_phase("engines")
    play_until(url, ws_code, ws_tokens, "simple", lambda s: s["phase"] != "engines")
    ws_phase("play", with_tabs=True)

    # A bankruptcy: the player on turn owes more than they have (set by the game master).
    from games import services

    game = game_row(ws_code)
    state = game.state
    debtor = state["current_seat"]
    state["players"][debtor]["bankrupt_owed"] = 1
    services.game_state_edit(game_id=game.id, state=state, editor="walk")
    who_debtor = {0: "host", 1: "seat1", 2: "seat2"}[debtor]
    walk.visit("ws-bankrupt", f"/games/{ws_code}/", who=who_debtor, ready="body[data-phase=play] #ws-feed li")
    walk.visit("table-bankrupt", f"/games/{ws_code}/table", ready="body[data-phase=play] #ws-t-feed li")
    # Selling the starting route pays the debt and puts the route up for auction.
    route = next(iter(state["players"][debtor]["track"]))
    sold = httpx.post(f"{url}/api/games/{ws_code}/commands", json={"cmd": "sell-track", "route": route}, headers=auth(ws_tokens[debtor]))
    assert sold.status_code == 200, sold.text
    assert game_row(ws_code).state["phase"] == "auction"
    bidder = game_row(ws_code).state["auction"]["bidders"][0]
    for seat_no in (debtor, bidder):  # the seller, and the first to bid
        who = {0: "host", 1: "seat1", 2: "seat2"}[seat_no]
        walk.visit(f"ws-auction-{who}", f"/games/{ws_code}/", who=who, ready="body[data-phase=auction] #ws-feed li")
    walk.visit("table-auction", f"/games/{ws_code}/table", ready="body[data-phase=auction] #ws-t-feed li")

    # Resourceful Rails: the build rounds (a tap planned on the map), the starting-card discard,
    # normal turns with trains on the map, and (below) the end after a round limit.
    rr_code = rr["code"]
    rr_tokens = {0: rr["host_token"], 1: seat1[rr_code]["token"], 2: seat2[rr_code]["token"]}
    start(url, rr_code, rr["host_token"])
    rr_who = {0: "host", 1: "seat1", 2: "seat2"}

    def tap_and_plan(page):
        box = page.locator("#rr-map").bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.45, box["y"] + box["height"] * 0.55)
        page.wait_for_selector("#rr-plan:not([hidden])")
        page.wait_for_function("!/Planning/.test(document.querySelector('#rr-plan-text').textContent)")
        yield "planned"

    first = rr_who[game_row(rr_code).state["active"]]
    walk.visit("rr-build-on-turn", f"/games/{rr_code}/", who=first, ready="#rr-map svg", then=tap_and_plan)
    walk.visit("rr-build-watcher", f"/games/{rr_code}/", ready="#rr-map svg")
    play_until(url, rr_code, rr_tokens, "planner", lambda s: s["phase"] == "play" and all(p["at"] for p in s["players"]))
    on_turn = rr_who[game_row(rr_code).state["active"]]
    walk.visit("rr-play-on-turn", f"/games/{rr_code}/", who=on_turn, ready="#rr-actions button",
               then=lambda p: (p.click("#rr-hand .rr-demand-show"), ["demand-shown"])[1])
    walk.visit("rr-play-waiting", f"/games/{rr_code}/", who=rr_who[(game_row(rr_code).state["active"] + 1) % 3], ready="#rr-hand .rr-card")
    start(url, rr5["code"], rr5["host_token"])
    play_until(url, rr5["code"], {0: rr5["host_token"], 1: seat1[rr5["code"]]["token"]}, "planner", lambda s: s["stage"] == "discard")
    walk.visit("rr-discard", f"/games/{rr5['code']}/", who={0: "host", 1: "seat1"}[game_row(rr5["code"]).state["active"]],
               ready="#rr-discard", then=lambda p: (p.locator("#rr-hand input[type=checkbox]").first.check(), ["one-chosen"])[1])

    # Runerail: the foreman draft, a build round with a tap planned, a normal turn with a demand shown,
    # an event that asks another player (the prompt on the asked phone, who is asked on the others).
    rn_code = rn["code"]
    rn_tokens = {0: rn["host_token"], 1: seat1[rn_code]["token"], 2: seat2[rn_code]["token"]}
    rn_game = game_row(rn_code)
    rn_seed = find_seed(dict(rn_game.options))
    type(rn_game).objects.filter(code=rn_code).update(seed=rn_seed)
    start(url, rn_code, rn["host_token"])
    rn_who = {0: "host", 1: "seat1", 2: "seat2"}
    rn_plan = prefix(RUNERAIL.setup(players=RUNERAIL_NAMES, options=dict(rn_game.options), seed=rn_seed))

    def rn_send(seat_no: int, command: dict) -> None:
        response = httpx.post(f"{url}/api/games/{rn_code}/commands", json=command, headers=auth(rn_tokens[seat_no]))
        assert response.status_code == 200, response.text

    def rn_tap_and_plan(page):
        box = page.locator("#rn-map").bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.45, box["y"] + min(box["height"], 600) * 0.5)
        page.wait_for_selector("#rn-plan:not([hidden])")
        page.wait_for_function("!/Planning/.test(document.querySelector('#rn-plan-text').textContent)")
        yield "planned"

    walk.visit("rn-draft-on-turn", f"/games/{rn_code}/", who="host", ready="#rn-actions button[data-cmd=keep-foreman]")
    walk.visit("rn-draft-waiting", f"/games/{rn_code}/", who="seat2", ready="#rn-map svg")
    steps = iter(rn_plan)
    for seat_no, command in steps:
        rn_send(seat_no, command)
        if game_row(rn_code).state["phase"] == "build":
            break
    walk.visit("rn-build-on-turn", f"/games/{rn_code}/", who=rn_who[game_row(rn_code).state["active"]],
               ready="#rn-map svg", then=rn_tap_and_plan)
    for seat_no, command in steps:
        rn_send(seat_no, command)
    walk.visit("rn-play-on-turn", f"/games/{rn_code}/", who="seat2", ready="#rn-actions button",
               then=lambda p: (p.click("#rn-hand .rn-demand-show"), ["demand-shown"])[1])
    rn_send(2, {"cmd": "discard-hand"})
    assert game_row(rn_code).state["pending"]["queue"][0]["seat"] == 1
    walk.visit("rn-asked", f"/games/{rn_code}/", who="seat1", ready="#rn-ask:not([hidden]) #rn-ask-choices button")
    walk.visit("rn-asking-other", f"/games/{rn_code}/", who="host", ready="#rn-effects li")

    # Slipway: choosing an action, a build with a tapped market tile (the yard's slots planned), a completed
    # ship's outfitting (a tapped item planned), its cruise paths, a canal tapped into place, the last cruise.
    sw_code = sw["code"]
    sw_tokens = {0: sw["host_token"], 1: seat1[sw_code]["token"], 2: seat2[sw_code]["token"]}
    sw_who = {0: "host", 1: "seat1", 2: "seat2"}
    start(url, sw_code, sw["host_token"])

    def sw_send(command: dict) -> None:
        on_turn = game_row(sw_code).state["turn"]["seat"]
        response = httpx.post(f"{url}/api/games/{sw_code}/commands", json=command, headers=auth(sw_tokens[on_turn]))
        assert response.status_code == 200, response.text

    def sw_on_turn() -> str:
        return sw_who[game_row(sw_code).state["turn"]["seat"]]

    def sw_tap_tile(page):
        page.click("#sw-actions .sw-pick >> nth=0")
        page.wait_for_selector("#sw-actions .sw-slot-button")
        yield "slots-planned"

    def sw_tap_item(page):
        page.click("#sw-actions button[data-cmd=outfit-add]:enabled >> nth=0")
        page.wait_for_selector("#sw-outfit-plan")
        page.wait_for_function("!document.querySelector('#sw-actions').textContent.includes('Planning')")
        yield "outfit-planned"

    def sw_tap_canal(page):
        page.click("#sw-actions .sw-pick:enabled >> nth=0")
        page.click("#sw-actions .sw-grid button.candidate >> nth=0")
        page.wait_for_selector("#sw-actions .sw-cell.selected svg")
        yield "cell-chosen"

    walk.visit("sw-choose-on-turn", f"/games/{sw_code}/", who=sw_on_turn(), ready="#sw-actions button[data-cmd=choose]")
    walk.visit("sw-choose-watcher", f"/games/{sw_code}/", ready="#sw-players .sw-player svg")
    sw_send({"cmd": "choose", "action": "build"})
    walk.visit("sw-build-on-turn", f"/games/{sw_code}/", who=sw_on_turn(), ready="#sw-actions .sw-pick", then=sw_tap_tile)
    sw_state = game_row(sw_code).state
    ship_costs = {t["id"]: t["cost"] for t in SLIPWAY.content()["ships"]["tiles"]}
    cheapest = [min(sw_state["market"][part], key=ship_costs.get) for part in ("bow", "middle", "stern")]
    sw_send({"cmd": "build", "tiles": [{"tile": t, "slot": i} for i, t in enumerate(cheapest)]})
    walk.visit("sw-launch-on-turn", f"/games/{sw_code}/", who=sw_on_turn(), ready="#sw-actions .sw-launch #sw-cannot-cruise", then=sw_tap_item)
    sw_send({"cmd": "outfit", "slot": 0, "items": ["captain"]})
    walk.visit("sw-cruise-on-turn", f"/games/{sw_code}/", who=sw_on_turn(), ready="#sw-actions .sw-launch .sw-path")
    seat_no = game_row(sw_code).state["turn"]["seat"]
    cruise = next(e["command"] for e in SLIPWAY.listing(game_row(sw_code).state, seat=seat_no)
                  if e["command"]["cmd"] == "cruise" and e["reason"] is None)
    sw_send(cruise)
    sw_send({"cmd": "choose", "action": "canal"})
    walk.visit("sw-canal-on-turn", f"/games/{sw_code}/", who=sw_on_turn(), ready="#sw-cruise-card:not([hidden]) #sw-cruise-steps li",
               then=sw_tap_canal)
    walk.visit("sw-cruise-watcher", f"/games/{sw_code}/", ready="#sw-cruise-card:not([hidden]) #sw-cruise-steps li")

    # Finished: the game master hands the seats to bots, which play to the end.
    bots_finish(rr_code, "planner")
    walk.visit("rr-finished", f"/games/{rr_code}/", who="seat1", ready="body[data-status=finished] #rr-winner:not([hidden])")
    bots_finish(rn_code, "planner")
    walk.visit("rn-finished", f"/games/{rn_code}/", who="seat2", ready="body[data-status=finished] #rn-winner:not([hidden])")
    bots_finish(toy["code"], "random")
    bots_finish(lw["code"], "random")
    bots_finish(ws_code, "simple")
    bots_finish(sw_code, "random")
    walk.visit("sw-finished", f"/games/{sw_code}/", who="seat1", ready="body[data-status=finished] #sw-scores:not([hidden])")
    walk.visit("room-toy-finished", f"/games/{toy['code']}/", who="host", ready="body[data-status=finished]")
    walk.visit("lw-finished", f"/games/{lw['code']}/", who="host", ready="body[data-status=finished]")
    walk.visit("ws-finished", f"/games/{ws_code}/", who="seat1", ready="body[data-phase=finished] #ws-feed li", then=tabs("ties", "market"))
    walk.visit("table-finished", f"/games/{ws_code}/table", ready="body[data-phase=finished] #ws-t-feed li")
    walk.visit("replay-ws-start", f"/games/{ws_code}/replay", ready="body[data-step='1']")
    for code, kind in ((toy["code"], "toy"), (lw["code"], "lw"), (ws_code, "ws"), (rr_code, "rr"), (rn_code, "rn"), (sw_code, "sw")):
        last = game_row(code).version
        if kind != "toy":
            walk.visit(f"replay-{kind}-middle", f"/games/{code}/replay?step={last // 2}", ready=f"body[data-step='{last // 2}']")
        walk.visit(f"replay-{kind}-end", f"/games/{code}/replay?step={last}", ready=f"body[data-step='{last}']")


def test_the_site_helpers_plurals_missing_values_and_errors_next_to_their_control(live_server_url, new_page):
    """Junction.plural, Junction.text and Junction.showError as the pages use them."""
    page = new_page(width=360, height=640)
    page.goto(live_server_url + "/")
    words = page.evaluate("""() => [
      Junction.plural(1, "unit"), Junction.plural(2, "unit"), Junction.plural(0, "unit"), Junction.plural(1500, "unit"),
      Junction.plural(1, "city", "cities"), Junction.plural(3, "city", "cities"), Junction.plural(null, "tie"),
      Junction.text(null), Junction.text(undefined), Junction.text(NaN), Junction.text({}), Junction.text([1, null, "a"]),
      Junction.text(""), Junction.text(0), Junction.text(12345), Junction.number("7"), Junction.number(Infinity),
      Junction.el("p", {}, null, NaN, {}, 5, "x").textContent, Junction.el("p", { text: undefined }).textContent,
    ]""")
    assert words == ["1 unit", "2 units", "0 units", "1,500 units", "1 city", "3 cities", "— ties",
                     "—", "—", "—", "—", "1, a", "—", "0", "12,345", "7", "—", "—5x", ""]

    # An error after a tap far down the page shows beside that control, on screen, announced.
    page.evaluate("""() => {
      const spacer = Junction.el("div", { id: "spacer" }); spacer.style.height = "2000px";
      const row = Junction.el("div", { class: "row", id: "far-row" }, Junction.el("button", { type: "button", id: "far" }, "Far away"), Junction.el("button", { type: "button" }, "Other"));
      document.querySelector("main").append(spacer, row);
      document.getElementById("far").addEventListener("click", () => Junction.showError(document.getElementById("create-error"), "That did not work."));
    }""")
    page.locator("#far").scroll_into_view_if_needed()
    page.click("#far")
    inline = page.locator("#far + p.inline-error")
    assert inline.inner_text() == "That did not work."
    assert page.get_attribute("#far", "aria-describedby") == inline.get_attribute("id")
    assert page.is_hidden("#create-error"), "one place only: next to the control"
    page.wait_for_function("document.getElementById('junction-announcer').textContent === 'That did not work.'")
    box = inline.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 640, "the error is on screen"
    # Cleared with the page's own box, the inline error goes too.
    page.evaluate("Junction.showError(document.getElementById('create-error'), '')")
    assert page.locator("p.inline-error").count() == 0 and page.get_attribute("#far", "aria-describedby") is None
    # Without a recent tap, the error is the page's own box, scrolled into view.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.evaluate("Junction.showError(document.getElementById('create-error'), 'Top error', null)")
    page.wait_for_function("() => { const r = document.getElementById('create-error').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
