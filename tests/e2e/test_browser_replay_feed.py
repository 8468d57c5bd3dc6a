"""A game's story in words, in Chromium against Daphne: the replay of a Wood and Steel game
says what happened up to the step shown (as the live page's feed does) and prompts no one;
Locomotive Werks' replay tells the round so far; a seat handed to a new device (and every
other change the platform logs) reads as a sentence on the phones of both titles, the table
screen and the replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from tests.games.factories import seat_away

from .conftest import auth
from .test_browser_wood_and_steel import SAMPLE_EVENT, is_generic

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
ROOT = Path(__file__).resolve().parents[2]
MOVED = "Ben's seat went to another device with the host's code."
# These are guests' games: a guest's device taking the seat makes them unrated too (games/rejoin.py).
MOVED_UNRATED = MOVED + " This game will not be rated."
MADE = "The host made a new-device code for Ben's seat."


def platform_event_types() -> list[str]:
    """The events the platform itself writes into any game's log (games/services.py: a game
    master's changes; games/rejoin.py: a seat handed to a new device), read from their source."""
    source = "".join((ROOT / "games" / name).read_text() for name in ("services.py", "rejoin.py"))
    found = set(re.findall(r'"type": "([a-z-]+)"', source)) | {"seat-moved", "seat-renamed", "rejoin-code-made"}  # by constant
    # not log events: the channel layer's messages to the lobby; the titles' pages had the first two already
    return sorted(found - {"relay", "lobby-changed", "game-started", "state-edited"})


def post(url: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    response = httpx.post(f"{url}{path}", json=body or {}, headers=auth(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


def legal(url: str, code: str, token: str) -> list[dict]:
    response = httpx.get(f"{url}/api/games/{code}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()["legal_commands"]


def command(url: str, code: str, token: str, body: dict) -> int:
    return post(url, f"/api/games/{code}/commands", token, body)["version"]


def feed_lines(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} li", "(items) => items.map((li) => li.textContent)")


def wood_and_steel_game(url: str) -> tuple[str, str, list[str]]:
    """A Wood and Steel game of Ada, Ben and Cleo over HTTP (the host holds no seat): its code,
    the host token and the seats' tokens."""
    created = post(url, "/api/games", body={"kind": "wood-and-steel"})
    code, host_token = created["code"], created["host_token"]
    tokens = [post(url, f"/api/games/{code}/seats", body={"name": name})["token"] for name in ("Ada", "Ben", "Cleo")]
    post(url, f"/api/games/{code}/start", host_token)
    return code, host_token, tokens


def test_a_wood_and_steel_replay_tells_what_happened_up_to_the_step(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    code, _, tokens = wood_and_steel_game(url)
    for token in tokens:
        command(url, code, token, next(c for c in legal(url, code, token) if c["cmd"] == "rank-starting-routes"))
    for token in tokens:
        setup_done = command(url, code, token, next(c for c in legal(url, code, token) if c["cmd"] == "place-engine"))
    view = httpx.get(f"{url}/api/games/{code}/state").json()["state"]
    first = view["current_seat"]
    name = {p["seat"]: p["name"] for p in view["players"]}
    command(url, code, tokens[first], {"cmd": "borrow", "amount": 5000})
    last = command(url, code, tokens[first], {"cmd": "end-turn"})
    log = httpx.get(f"{url}/api/games/{code}/actions").json()

    # The replay, at the step the engines were placed: the story so far, nothing after it, no prompts.
    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay?step={setup_done}")
    replay.wait_for_selector(f"body[data-step='{setup_done}']")
    lines = feed_lines(replay, "#ws-feed")
    expected = [e for a in log if a["sequence"] <= setup_done for e in a["events"] if e["type"] != "turn-started"]
    assert len(lines) == len(expected) > 6
    assert lines[-1] == "The game started."  # the oldest last, as on the live page
    assert any(line.startswith("Starting routes: ") for line in lines)
    assert sum("placed their engine in" in line for line in lines) == 3
    assert not any("borrowed" in line for line in lines), "nothing from a later step"
    now = replay.eval_on_selector_all("#ws-feed li.ws-now", "(items) => items.map((li) => li.textContent)")
    assert now and now == lines[: len(now)]  # the step's own lines, on top
    page_text = replay.inner_text("#play")
    assert "Waiting for" not in page_text and "Watching." not in page_text and "Your turn" not in page_text
    assert replay.inner_text("#ws-turn") == f"{name[first]}'s turn."
    assert replay.is_hidden("#ws-me")
    replay.screenshot(path=str(SHOTS / "ws-replay-feed.png"), full_page=False)

    # A step on: the borrowing shows; back to the start: only the start.
    replay.click("#rp-next")
    replay.wait_for_selector(f"body[data-step='{setup_done + 1}']")
    assert feed_lines(replay, "#ws-feed")[0].startswith(f"{name[first]} borrowed $5,000")
    replay.click("#rp-first")
    replay.wait_for_selector("body[data-step='1']")
    assert feed_lines(replay, "#ws-feed") == ["The game started."]
    assert replay.inner_text("#ws-turn") == "The players rank their starting routes."

    # The last step: the turn passed on; still no one is waited for.
    replay.click("#rp-last")
    replay.wait_for_selector(f"body[data-step='{last}']")
    after = httpx.get(f"{url}/api/games/{code}/state").json()["state"]
    assert replay.inner_text("#ws-turn") == f"{name[after['current_seat']]}'s turn."
    assert f"{name[first]} ended their turn." in feed_lines(replay, "#ws-feed")
    assert "Waiting for" not in replay.inner_text("#play")


def locomotive_werks_game(url: str) -> tuple[str, str, list[str]]:
    """A Locomotive Werks game of Ann (the host), Ben and Cleo over HTTP."""
    created = post(url, "/api/games", body={"kind": "locomotive-werks", "name": "Ann"})
    code, host_token = created["code"], created["host_token"]
    tokens = [created["token"], *(post(url, f"/api/games/{code}/seats", body={"name": name})["token"] for name in ("Ben", "Cleo"))]
    post(url, f"/api/games/{code}/start", host_token)
    return code, host_token, tokens


def test_a_locomotive_werks_replay_tells_the_round_so_far_and_waits_for_no_one(live_server_url, new_page):
    url = live_server_url
    code, _, tokens = locomotive_werks_game(url)
    for _ in range(2):  # two players move
        view = httpx.get(f"{url}/api/games/{code}/state").json()["state"]
        seat = view["active_seat"]
        last = command(url, code, tokens[seat], legal(url, code, tokens[seat])[0])
    view = httpx.get(f"{url}/api/games/{code}/state").json()["state"]
    name = {p["seat"]: p["name"] for p in view["players"]}

    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay?step={last}")
    replay.wait_for_selector(f"body[data-step='{last}']")
    assert replay.inner_text("#lw-turn") == f"{name[view['active_seat']]}'s turn."
    assert replay.is_visible("#lw-recent-card")
    recent = feed_lines(replay, "#lw-recent")
    assert recent[0] == "The game started." and len(recent) >= 3  # the start and the two moves
    assert replay.is_hidden("#lw-replay")  # the replay does not link to itself
    replay.click("#rp-first")
    replay.wait_for_selector("body[data-step='1']")
    assert "The game started." in feed_lines(replay, "#lw-recent")
    assert len(feed_lines(replay, "#lw-recent")) < len(recent)


def seat_moves_to_a_new_device(url: str, code: str, host_token: str, seat: int) -> str:
    """The host hands ``seat`` to a new device, which opens the code: the new device's token.
    The seat's phone has been away a while (no socket of it open: Seat.last_seen in the past)."""
    seat_away(code, seat)
    issued = post(url, f"/api/games/{code}/seats/{seat}/rejoin-code", host_token)
    return post(url, f"/api/games/{code}/rejoin", body={"code": issued["code"]})["token"]


def phone(new_page, url: str, code: str, token: str, seat: int, width: int = 360):
    page = new_page(width=width, height=780)
    store = json.dumps({code: {"token": token, "seat": seat, "host": False}})
    page.add_init_script(f"localStorage.setItem('junction.tokens', {json.dumps(store)})")
    page.goto(f"{url}/games/{code}/")
    page.wait_for_selector("#conn[data-state=open]")
    return page


def test_a_seat_moved_reads_as_words_on_the_phones_the_table_and_the_replay(live_server_url, new_page):
    url = live_server_url
    code, host_token, tokens = wood_and_steel_game(url)
    command(url, code, tokens[0], next(c for c in legal(url, code, tokens[0]) if c["cmd"] == "rank-starting-routes"))
    ada = phone(new_page, url, code, tokens[0], 0)
    table = new_page(width=1920, height=1080)
    table.goto(f"{url}/games/{code}/table")
    table.wait_for_selector("#conn[data-state=open]")

    # Ben's seat moves to a new device: Ada's phone and the table say so in words.
    seat_moves_to_a_new_device(url, code, host_token, 1)
    ada.wait_for_function(f"document.querySelector('#ws-feed').innerText.includes({json.dumps(MOVED)})")
    assert MADE in feed_lines(ada, "#ws-feed")  # the code made for it was said first
    assert not any(re.fullmatch(r"seat moved( \\(.*\\))?\\.", line) for line in feed_lines(ada, "#ws-feed"))
    table.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('Ben’s seat went to another device with the host’s code.')")

    # Every event the platform writes into a log has a sentence of its own on the phone.
    types = platform_event_types()
    assert {"rejoin-code-made", "seat-moved", "seat-renamed", "seat-to-bot", "game-paused", "game-resumed", "game-ended"} <= set(types)
    sample = dict(SAMPLE_EVENT, seat=1, name="Ben", bot="planner", reason="a phone died", **{"from": "Ben", "to": "Bea"})
    lines = ada.evaluate("(events) => events.map((e) => window.JunctionPlay.describe(e))", [dict(sample, type=t) for t in types])
    assert [t for t, line in zip(types, lines, strict=True) if is_generic(t, line)] == []
    said = dict(zip(types, lines, strict=True))
    assert said["seat-moved"] == "Ben's seat went to another device with a game master's code (no longer a bot)."  # a bot had played it
    assert said["rejoin-code-made"] == "A game master made a new-device code for Ben's seat."
    unrated = ada.evaluate("(e) => window.JunctionPlay.describe(e)", dict(sample, type="seat-moved", by="host", bot=None, unrated=True))
    assert unrated == MOVED_UNRATED
    assert said["seat-to-bot"] == "A bot (planner) plays Ben's seat from now on."
    assert said["seat-renamed"] == "Ben is now called Bea."
    assert said["game-paused"] == "The game master paused the game: a phone died."

    # The replay's last step: the step line and the top of the feed say it.
    last = int(httpx.get(f"{url}/api/games/{code}").json()["version"])
    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay?step={last}")
    replay.wait_for_selector(f"body[data-step='{last}']")
    assert replay.inner_text("#rp-action") == MOVED_UNRATED
    assert feed_lines(replay, "#ws-feed")[0] == MOVED_UNRATED


def test_a_seat_moved_reads_as_words_in_locomotive_werks_and_its_replay(live_server_url, new_page):
    url = live_server_url
    code, host_token, tokens = locomotive_werks_game(url)
    ann = phone(new_page, url, code, tokens[0], 0, width=390)
    ann.wait_for_selector("#lw-board .lw-space")
    seat_moves_to_a_new_device(url, code, host_token, 1)
    ann.wait_for_function(f"document.querySelector('#lw-recent').innerText.includes({json.dumps(MOVED)})")
    assert not any("seat moved (" in line for line in feed_lines(ann, "#lw-recent"))
    types = platform_event_types()
    sample = {"seat": 1, "name": "Ben", "bot": "greedy", "reason": "a phone died", "from": "Ben", "to": "Bea", "by": "gm"}
    lines = ann.evaluate("(events) => events.map((e) => window.JunctionPlay.describe(e))", [dict(sample, type=t) for t in types])
    assert [t for t, line in zip(types, lines, strict=True) if is_generic(t, line)] == []

    last = int(httpx.get(f"{url}/api/games/{code}").json()["version"])
    replay = new_page(width=390, height=844)
    replay.goto(f"{url}/games/{code}/replay?step={last}")
    replay.wait_for_selector(f"body[data-step='{last}']")
    assert replay.inner_text("#rp-action") == MOVED_UNRATED
    assert MOVED_UNRATED in feed_lines(replay, "#lw-recent")
