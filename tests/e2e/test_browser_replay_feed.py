"""A game's story in words, in Chromium against Daphne: the replay of a Wood and Steel game
says what happened up to the step shown (as the live page's feed does) and prompts no one;
Locomotive Werks' replay tells the round so far."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import auth

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


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
