"""Locomotive Werks in Chromium: a person against two server-side bots, a
spectator following live, the automatic phases explained, then the replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def is_generic(event_type: str, line: str) -> bool:
    """The play scripts' fallbacks for an event they do not know: the raw type, or 'the type (who).'"""
    return line == event_type or re.fullmatch(re.escape(event_type.replace("-", " ")) + r"( \(.*\))?\.", line) is not None


def test_play_rounds_against_bots_watch_and_replay(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann = new_page(width=390, height=844)
    code = create_game(ann, live_server_url, kind="locomotive-werks", name="Ann")
    for level in ("greedy", "random"):
        ann.select_option("#bot-level", level)
        ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='2']")
    assert "greedy bot" in ann.inner_text("#seat-list")

    watcher = new_page(width=1280, height=900)
    watcher.goto(f"{live_server_url}/games/{code}/")
    watcher.wait_for_selector("#conn[data-state=open]")

    ann.click("#start-game")
    ann.wait_for_selector("#lw-board .lw-space[data-space='14']")
    assert ann.locator("#lw-players .lw-player").count() == 3

    # The Locomotive Werks narration has a sentence of its own for every event type the engine emits.
    source = Path(__file__).resolve().parents[2] / "games" / "engines" / "locomotive_werks"
    emitted = sorted({m for f in source.glob("*.py") for m in re.findall(r'"type": "([a-z-]+)"', f.read_text())} | {"game-started"})
    sample = {
        "seat": 0, "space": 2, "cost": 4, "units": 3, "die": 4, "count": 1, "from": 1, "to": 2, "phase": "production", "round": 1,
        "case": "lower", "sold": 3, "income": 6, "die_after": 1, "die_to": "existing-orders", "tax": 2, "coins_before": 20, "coins": 18,
        "finished": False, "winners": [], "threshold": 300, "reached": [], "before": [0, 1], "after": [1, 0], "color": "green",
        "locomotive": "passenger", "generations": [1], "role": "only", "added": 1, "removed": 0, "pool_short": 1, "rolled": [3],
        "existing_orders": [3], "cards": 2,
    }
    lines = ann.evaluate("(events) => events.map((e) => window.JunctionPlay.describe(e))", [dict(sample, type=t) for t in emitted])
    generic = [t for t, line in zip(emitted, lines, strict=True) if is_generic(t, line)]
    assert not generic, f"events shown with generic text: {generic}"
    assert "board-cards-retired" in emitted and "space-unlock-waiting" in emitted

    # Ann plays: develop when she can, buy a unit when she can, else pass — until round 3.
    for _ in range(40):
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn') || document.body.dataset.status === 'finished'")
        heading = ann.inner_text("#lw-heading")
        if heading.startswith("Round 3"):
            break
        version = int(ann.evaluate("document.body.dataset.version"))
        # The turn line says what the legal commands allow, in words.
        turn = ann.inner_text("#lw-turn")
        if ann.inner_text("#lw-heading").endswith("Development"):
            assert turn.endswith(", or pass.") or turn.endswith("this round: pass."), turn
            names = ann.locator("#lw-actions button[data-cmd=develop]:enabled").all_inner_texts()
            for name in names if len(names) <= 3 else []:
                assert name.split(" · ")[0].removeprefix("Develop ") in turn, (name, turn)
            if len(names) > 3:
                assert f"one of {len(names)} locomotive types" in turn, turn
        else:
            assert turn.endswith("tap Done to end your turn."), turn
        develop = ann.locator("#lw-actions button[data-cmd=develop]:enabled")
        if develop.count():
            develop.first.click()
        else:
            ann.click("#lw-actions button[data-cmd=pass]")
        ann.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    assert ann.inner_text("#lw-heading").startswith("Round 3")

    # The automatic phases of round 2 are explained in words, on the player's and the watcher's page.
    report = ann.inner_text("#lw-report")
    assert "What happened in round 2" in ann.inner_text("#lw-report-title")
    assert "tax" in report and "New turn order" in report and "Market for passenger locomotives" in report
    # The whole report is on the page, no box that scrolls inside it (a phone cut it mid-sentence).
    assert ann.evaluate("(() => { const r = document.getElementById('lw-report'); return r.scrollHeight <= r.clientHeight + 1; })()")
    # Every term on the board says what it means: a title to hover, a sentence on a tap, and the legend.
    for word in ("cost", "prod", "inc", "initial", "orders", "customers"):
        assert ann.locator(f"#lw-board .lw-term[data-term={word}]").first.get_attribute("title")
    ann.locator("#lw-board .lw-space[data-space='1'] .lw-term[data-term=customers]").click()
    tip = ann.inner_text("#lw-board .lw-space[data-space='1'] .lw-tip")
    assert tip.startswith("Customer base:"), tip
    ann.locator("#lw-board .lw-space[data-space='1'] .lw-term[data-term=customers]").click()  # a second tap hides it
    assert ann.locator("#lw-board .lw-tip").count() == 0
    ann.click("#lw-legend summary")
    assert "Production cost" in ann.inner_text("#lw-legend") and "Existing orders" in ann.inner_text("#lw-legend")
    watcher.wait_for_function(f"document.body.dataset.version === '{ann.evaluate('document.body.dataset.version')}'")
    assert watcher.inner_text("#lw-heading") == ann.inner_text("#lw-heading")
    assert watcher.locator("#lw-actions button").count() == 0
    assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ann.screenshot(path=str(SHOTS / "lw-phone.png"), full_page=True)
    watcher.screenshot(path=str(SHOTS / "lw-watcher.png"), full_page=False)

    # Replay: step through from the start to the last action.
    replay = new_page(width=390, height=844)
    replay.goto(f"{live_server_url}/games/{code}/replay")
    replay.wait_for_selector("body[data-step='1']")
    assert replay.inner_text("#lw-heading").startswith("Round 1")
    replay.click("#rp-next")
    replay.wait_for_selector("body[data-step='2']")
    replay.click("#rp-last")
    last = replay.inner_text("#rp-last-step")
    replay.wait_for_selector(f"body[data-step='{last}']")
    assert replay.inner_text("#lw-heading").startswith("Round 3")
    replay.screenshot(path=str(SHOTS / "lw-replay.png"), full_page=False)


# ---- prices before paying, and no loose ends ---------------------------------------------------

FORBIDDEN = re.compile(r"\b(null|undefined|NaN)\b|\[object Object\]|\(s\)|\b1 (units|coins|cards|dice)\b")

SMALL_TARGETS = """() => [...document.querySelectorAll("#play button, #play select, #play input")]
  .filter((n) => n.getClientRects().length)
  .map((n) => [n.textContent.trim() || n.id, n.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([name, r]) => name + " " + Math.round(r.width) + "x" + Math.round(r.height))"""

# The widest number of an ordered list must fit in the room its padding leaves for the markers.
MARKERS_FIT = """(id) => {
  const list = document.getElementById(id);
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap";
  probe.textContent = list.children.length + ". ";
  list.firstElementChild.append(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return { count: list.children.length, width, room: parseFloat(getComputedStyle(list).paddingLeft) };
}"""


def api_create(url: str, name: str) -> dict:
    created = httpx.post(f"{url}/api/games", json={"kind": "locomotive-werks", "name": name})
    assert created.status_code == 201, created.text
    return created.json()


def api_seat(url: str, code: str, name: str) -> str:
    joined = httpx.post(f"{url}/api/games/{code}/seats", json={"name": name})
    assert joined.status_code == 201, joined.text
    return joined.json()["token"]


def api_command(url: str, code: str, token: str, command: dict) -> None:
    sent = httpx.post(f"{url}/api/games/{code}/commands", json=command, headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 200, sent.text


def game_state(code: str) -> dict:
    from games.models import Game

    return Game.objects.get(code=code).state


def edit_state(code: str, change) -> None:
    """The game master sets up an exact position (pages opened afterwards load it)."""
    from games import services
    from games.models import Game

    game = Game.objects.get(code=code)
    state = game.state
    change(state)
    services.game_state_edit(game_id=game.id, state=state, editor="test")


def seated_page(new_page, url: str, code: str, seat: dict):
    page = new_page(width=360, height=640)
    page.context.add_init_script(f"localStorage.setItem('junction.tokens', {json.dumps(json.dumps({code: seat}))})")
    return page


def loose_ends(page) -> list[str]:
    problems = []
    text = page.inner_text("body") + "\n" + "\n".join(
        page.eval_on_selector_all("[title], [aria-label]", "(ns) => ns.map((n) => n.title + ' ' + (n.getAttribute('aria-label') || ''))")
    )
    problems += [f"shows {m.group(0)!r}" for m in FORBIDDEN.finditer(text)]
    problems += [f"small target {t}" for t in page.evaluate(SMALL_TARGETS)]
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        problems.append("wider than the screen")
    keys = page.eval_on_selector_all("#lw-actions button", "(bs) => bs.map((b) => b.dataset.key)")
    if len(keys) != len(set(keys)):
        problems.append(f"two controls for one act: {keys}")
    if page.locator("#lw-actions button[data-cmd=pass]").count() > 1:
        problems.append("more than one control ends the turn")
    return problems


def describe_buttons(page) -> list[tuple[str, bool, str]]:
    """(label, enabled, the reason it is disabled as read with it) of every option button."""
    return page.eval_on_selector_all(
        "#lw-actions button",
        """(bs) => bs.map((b) => {
          const why = b.getAttribute("aria-describedby");
          const node = why && document.getElementById(why);
          return [b.textContent, !b.disabled, node && !node.hidden ? node.textContent : ""];
        })""",
    )


@pytest.mark.layout
def test_every_price_shows_before_paying_and_no_loose_ends(live_server_url, new_page):
    url = live_server_url
    created = api_create(url, "Ann")
    code = created["code"]
    bo, cy = api_seat(url, code, "Bo"), api_seat(url, code, "Cy")
    started = httpx.post(f"{url}/api/games/{code}/start", headers={"Authorization": f"Bearer {created['host_token']}"})
    assert started.status_code == 200, started.text

    def development(state):
        state.update(order=[0, 1, 2], turn=0, phase="development")
        for player in state["players"]:
            player.update(coins=20, cards=[], developed=[])
        for sp in state["spaces"]:
            sp.update(initial_order=None, existing_orders=[], customer_base=[])
        state["spaces"][0]["existing_orders"] = [2]  # passenger I, 4 coins
        state["spaces"][1]["initial_order"] = 4  # fast I, 8 coins
        state["spaces"][4]["existing_orders"] = [3]  # passenger II, 20 coins
        state["spaces"][5]["existing_orders"] = [1]  # fast II, 24 coins: more than anyone has

    edit_state(code, development)

    # Ann's answers pass through a relay that can answer her next command with an error.
    fail_next: list[str] = []

    def relay(ws):
        server = ws.connect_to_server()

        def from_page(message):
            body = json.loads(message)
            if fail_next and body.get("cmd") not in (None, "get-state", "ping"):
                ws.send(json.dumps({"type": "error", "command_id": body.get("command_id"),
                                    "error": {"code": "stale-version", "message": fail_next.pop()}}))
            else:
                server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    ann = seated_page(new_page, url, code, {"token": created["host_token"], "host": True, "seat": 0})
    ann.route_web_socket("**/ws/games/**", relay)
    ann.goto(f"{url}/games/{code}/")
    ann.wait_for_selector("#lw-actions button[data-cmd=develop]")
    watcher_bo = seated_page(new_page, url, code, {"token": bo, "seat": 1})
    watcher_bo.goto(f"{url}/games/{code}/")
    watcher_bo.wait_for_selector("#lw-actions button[data-cmd=develop]")

    # Every develop control carries its price; the one Ann cannot afford says why, beside it.
    assert describe_buttons(ann) == [
        ["Develop passenger I · 4 coins", True, ""],
        ["Develop fast I · 8 coins", True, ""],
        ["Develop passenger II · 20 coins", True, ""],
        ["Develop fast II · 24 coins", False, "Developing costs 24 coins; you have 20 coins."],
        ["Pass: develop nothing", True, ""],
    ]
    assert ann.is_visible("text=Developing costs 24 coins; you have 20 coins.")
    # Bo sees the same prices, every control disabled because it is not his turn (said once).
    assert [label for label, _, _ in describe_buttons(watcher_bo)][:4] == [label for label, _, _ in describe_buttons(ann)][:4]
    assert not any(enabled for _, enabled, _ in describe_buttons(watcher_bo))
    assert watcher_bo.inner_text("#lw-actions-note").startswith("Not your turn")
    assert {why for _, _, why in describe_buttons(watcher_bo)} == {watcher_bo.inner_text("#lw-actions-note")}

    # An error shows next to the control that caused it and is announced.
    fail_next.append("Someone moved first; try again.")
    develop = ann.locator("#lw-actions button", has_text="Develop passenger II")
    develop.click()
    ann.wait_for_selector(".inline-error")
    assert ann.evaluate("document.querySelector('.inline-error').previousElementSibling.textContent") == "Develop passenger II · 20 coins"
    assert ann.inner_text(".inline-error") == "Someone moved first; try again."
    ann.wait_for_function("(document.getElementById('junction-announcer') || {}).textContent === 'Someone moved first; try again.'")
    assert ann.get_attribute("#junction-announcer", "role") == "alert"
    assert develop.is_enabled()

    # Paying: exactly the price on the control.
    version = int(ann.evaluate("document.body.dataset.version"))
    develop.click()
    ann.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    assert game_state(code)["players"][0]["coins"] == 20 - 20
    assert ann.inner_text("#lw-players .lw-player[data-seat='0'] .coins") == "0 coins"
    assert not ann.is_visible(".inline-error")

    # Bo and Cy pass at once: Ann's feed shows each event once.
    api_command(url, code, bo, {"cmd": "pass"})
    api_command(url, code, cy, {"cmd": "pass"})
    ann.wait_for_function("document.querySelectorAll('#lw-recent li').length >= 5")
    ann.wait_for_timeout(500)  # any late (repeated) lines would be in by now
    assert ann.eval_on_selector_all("#lw-recent li", "(ls) => ls.map((l) => l.textContent)") == [
        "The game started.",
        "Ann developed passenger II for 20 coins.",
        "Bo passed (Development).",
        "Cy passed (Development).",
        "Production capacity phase.",
    ]
    assert loose_ends(ann) == [] and loose_ends(watcher_bo) == []

    def capacity(state):
        state.update(order=[0, 1, 2], turn=0, phase="capacity")
        # Ann holds passenger I (production 2), freight I (6) and a full passenger II.
        cards = [{"space": 1, "units": 4}, {"space": 3, "units": 5}, {"space": 5, "units": 6}]
        state["players"][0].update(coins=5, developed=[5, 1, 3], cards=cards)
        for space in (1, 3):
            state["spaces"][space - 1]["cards_left"] -= 1
        state["spaces"][2]["existing_orders"] = [6]

    edit_state(code, capacity)
    ann.reload()
    ann.wait_for_selector("#lw-actions button[data-cmd=buy-units]")
    assert describe_buttons(ann) == [
        ["Buy 1 unit · 2 coins", True, ""],
        ["Buy 1 unit · 6 coins", False, "These units cost 6 coins; you have 5 coins."],
        ["Shift 1 unit · 4 coins", True, ""],
        ["Done: end my turn", True, ""],
    ]
    green = ann.locator(".lw-count[data-group='buy-1']")
    assert green.locator("option").all_inner_texts() == ["1 unit · 2 coins", "2 units · 4 coins"]
    assert green.locator("label").inner_text() == "Buy units for passenger I"
    green.locator("select").select_option(label="2 units · 4 coins")
    assert green.locator("button").inner_text() == "Buy 2 units · 4 coins"
    version = int(ann.evaluate("document.body.dataset.version"))
    green.locator("button").click()
    ann.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    assert game_state(code)["players"][0]["coins"] == 5 - 4
    assert ann.inner_text("#lw-players .lw-player[data-seat='0'] .coins") == "1 coin"
    assert "Passenger I · 6 units" in ann.inner_text("#lw-players .lw-player[data-seat='0']")
    assert describe_buttons(ann) == [
        ["Buy 1 unit · 6 coins", False, "These units cost 6 coins; you have 1 coin."],
        ["Shift 1 unit · 4 coins", False, "This shift costs 4 coins; you have 1 coin."],
        ["Done: end my turn", True, ""],
    ]
    assert loose_ends(ann) == []

    # Paused by the game master: the same prices, every control disabled, the reason said once.
    from games import services
    from games.models import Game

    game_id = Game.objects.get(code=code).id
    services.game_pause(game_id=game_id, by="test", reason="dinner")
    ann.reload()
    ann.wait_for_selector("#lw-actions button[data-cmd=pass]")
    assert [(label, enabled) for label, enabled, _ in describe_buttons(ann)] == [
        ("Buy 1 unit · 6 coins", False),
        ("Shift 1 unit · 4 coins", False),
        ("Done: end my turn", False),
    ]
    assert ann.inner_text("#lw-actions-note") == "The game is paused."
    services.game_resume(game_id=game_id, by="test")
    ann.reload()
    ann.wait_for_selector("#lw-actions button[data-cmd=pass]:enabled")

    # The round ends; its report numbers ten and more lines, none of the numbers clipped.
    ann.click("#lw-actions button[data-cmd=pass]")
    api_command(url, code, bo, {"cmd": "pass"})
    api_command(url, code, cy, {"cmd": "pass"})
    ann.wait_for_function("document.getElementById('lw-report-title').textContent === 'What happened in round 1'")
    fit = ann.evaluate(MARKERS_FIT, "lw-report")
    assert fit["count"] >= 10 and fit["width"] <= fit["room"], fit
    assert loose_ends(ann) == []
    ann.screenshot(path=str(SHOTS / "lw-prices-phone.png"), full_page=True)
