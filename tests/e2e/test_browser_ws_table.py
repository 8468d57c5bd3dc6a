"""The Wood and Steel table / host screen in Chromium against Daphne: the board drawn
from the map data, the independents listed, and every change followed live while the
players' phones (here: plain HTTP clients) send their setup commands."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import auth

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
SEAT_HEX = {"orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2", "vermilion": "#D55E00", "purple": "#CC79A7", "black": "#000000"}  # Junction.PALETTE (Okabe–Ito)


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version || 0) >= {at_least}")


def state(url: str, code: str, token: str | None = None) -> dict:
    response = httpx.get(f"{url}/api/games/{code}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def command(url: str, code: str, token: str, body: dict) -> dict:
    response = httpx.post(f"{url}/api/games/{code}/commands", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def test_table_screen_draws_the_board_and_follows_setup_live(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    created = httpx.post(f"{url}/api/games", json={"kind": "wood-and-steel"})
    assert created.status_code == 201, created.text
    code, host_token = created.json()["code"], created.json()["host_token"]
    tokens = []
    for name, color in (("Ada", "vermilion"), ("Ben", "blue"), ("Cleo", "green")):
        seat = httpx.post(f"{url}/api/games/{code}/seats", json={"name": name, "color": color})
        assert seat.status_code == 201, seat.text
        tokens.append(seat.json()["token"])
    assert httpx.post(f"{url}/api/games/{code}/start", headers=auth(host_token)).status_code == 200
    board = httpx.get(f"{url}/api/wood-and-steel/games/{code}/board").json()
    start = state(url, code)

    table = new_page(width=1600, height=900)
    table.add_init_script(f"localStorage.setItem('junction.tokens', {json.dumps(json.dumps({code: {'token': host_token, 'host': True}}))})")
    table.goto(f"{url}/games/{code}/table")
    table.wait_for_selector("#conn[data-state=open]")
    wait_version(table, start["version"])
    assert table.evaluate("document.body.dataset.viewer") == "host"

    # The board: one circle per city, one line per route, mountainous routes marked.
    assert table.locator("#ws-board circle.ws-city").count() == len(board["cities"]) == 56
    assert table.locator("#ws-routes line.ws-route").count() == len(board["routes"])
    assert table.locator("#ws-routes line.ws-route.mountain").count() == sum(r["mountainous"] for r in board["routes"])
    assert table.locator("#ws-routes path.ws-peak").count() == sum(r["mountainous"] for r in board["routes"])
    # The viewBox scales the board's pixels to the width of the screen.
    box = table.locator("#ws-board").bounding_box()
    assert box["width"] > 900 and box["height"] > 400

    # Every independent railroad is in the legend, in its colour, and drawn on its routes.
    railroads = start["state"]["railroads"]
    assert 6 <= len(railroads) <= 9
    legend = table.inner_text("#ws-t-legend")
    for rr in railroads:
        assert rr["name"] in legend
        assert table.locator(f"#ws-overlays line.ws-indie[data-railroad='{rr['id']}']").count() == len(rr["routes"])
    assert table.locator("#ws-t-legend li.ws-t-rr").count() == len(railroads)
    assert table.inner_text("#ws-t-phase") == "Choosing starting routes"
    assert table.locator("#ws-highlights line.ws-start-halo").count() == len(start["state"]["starting_routes"])
    assert "Ada" in table.inner_text("#ws-t-note")

    # The phones rank their starting routes; the table follows each change without a reload.
    table.evaluate("window.__sameDocument = true")
    for i, token in enumerate(tokens):
        legal = state(url, code, token)["legal_commands"]
        ranking = next(c for c in legal if c["cmd"] == "rank-starting-routes")
        result = command(url, code, token, ranking)
        wait_version(table, result["version"])
        if i < 2:
            assert table.inner_text("#ws-t-phase") == "Choosing starting routes"
            assert ["Ada", "Ben", "Cleo"][i] not in table.inner_text("#ws-t-note")
    table.wait_for_function("document.querySelector('#ws-t-phase').textContent === 'Placing engines'")
    assert table.evaluate("window.__sameDocument") is True

    # Each player's start cities are ringed in the player's colour, their start route drawn in it.
    after = state(url, code)["state"]
    summary = httpx.get(f"{url}/api/games/{code}").json()
    colors = {s["index"]: SEAT_HEX[s["color"]] for s in summary["seats"]}
    for p in after["players"]:
        assert len(p["active_cities"]) == 2
        for city in p["active_cities"]:
            ring = table.locator(f"#ws-rings circle.ws-ring[data-seat='{p['seat']}'][data-city='{city}']")
            assert ring.count() == 1
            assert ring.get_attribute("stroke") == colors[p["seat"]]
        track = table.locator(f"#ws-overlays line.ws-track[data-seat='{p['seat']}']")
        assert track.count() == 1 and track.get_attribute("data-route") == p["start_route"]
        assert track.get_attribute("stroke") == colors[p["seat"]]
    table.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('Starting routes')")

    # Engines placed: the game is on; whose turn, the order and the round show.
    for token in tokens:
        place = next(c for c in state(url, code, token)["legal_commands"] if c["cmd"] == "place-engine")
        result = command(url, code, token, place)
    wait_version(table, result["version"])
    live = state(url, code)["state"]
    assert live["phase"] == "play"
    current = next(p["name"] for p in live["players"] if p["seat"] == live["current_seat"])
    assert table.inner_text("#ws-t-phase") == "Play"
    assert table.inner_text("#ws-t-round") == "Round 1"
    assert table.inner_text("#ws-t-current") == current
    assert table.locator("#ws-t-order li").count() == 3
    assert table.locator("#ws-t-order li.current").get_attribute("data-seat") == str(live["current_seat"])
    assert table.locator("#ws-markers rect.ws-engine").count() == 3
    assert table.locator("#ws-t-players tr").count() == 3
    assert "$10,000" in table.inner_text("#ws-t-players")
    assert "opens once a player owns a Mogul" in table.inner_text("#ws-t-market")
    # Nothing secret on the table: the private contracts show only as held.
    assert "(secret)" in table.inner_text("#ws-t-market")

    # Round 1: the first player buys an American and lays track, then every player ends the turn.
    first = live["current_seat"]

    def legal(seat: int, cmd: str) -> list[dict]:
        return [c for c in state(url, code, tokens[seat])["legal_commands"] if c["cmd"] == cmd]

    command(url, code, tokens[first], next(c for c in legal(first, "buy-engine") if c["engine"] == "american"))
    build = legal(first, "build-track")[0]
    result = command(url, code, tokens[first], build)
    wait_version(table, result["version"])
    assert table.locator(f"#ws-overlays line.ws-track[data-seat='{first}'][data-route='{build['route']}']").count() == 1
    assert "American" in table.inner_text(f"#ws-t-players tr[data-seat='{first}']")
    table.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('built')")
    result = command(url, code, tokens[first], {"cmd": "end-turn"})
    wait_version(table, result["version"])
    nxt = state(url, code)["state"]
    assert table.inner_text("#ws-t-current") == next(p["name"] for p in nxt["players"] if p["seat"] == nxt["current_seat"])
    while nxt["round"] == 1:
        result = command(url, code, tokens[nxt["current_seat"]], {"cmd": "end-turn"})
        nxt = state(url, code)["state"]

    # The end of round 1: the independents grew; the table marks where, live.
    wait_version(table, result["version"])
    table.wait_for_function("document.querySelector('#ws-t-round').textContent === 'Round 2'")
    grown = [rr for rr in nxt["railroads"] if rr["grew_last_round"]]
    for rr in grown:
        assert table.locator(f"#ws-t-legend li[data-railroad='{rr['id']}'] .ws-t-grew").count() == 1
        for route in rr["grew_last_round"]:
            assert table.locator(f"#ws-overlays line.ws-indie.grew[data-railroad='{rr['id']}'][data-route='{route}']").count() == 1
    assert table.locator("#ws-highlights line.ws-grew-halo").count() == sum(len(rr["grew_last_round"]) for rr in grown)
    if grown:
        table.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes(' grew: ')")

    # Round 2: the first player buys a Mogul, which opens the market; the table lists its contracts.
    while nxt["current_seat"] != first:
        command(url, code, tokens[nxt["current_seat"]], {"cmd": "end-turn"})
        nxt = state(url, code)["state"]
    moguls = [c for c in legal(first, "buy-engine") if c["engine"] == "mogul"]
    if not moguls:  # the track cost too much: borrow first (the other action of the turn)
        command(url, code, tokens[first], {"cmd": "borrow", "amount": 5000})
        moguls = [c for c in legal(first, "buy-engine") if c["engine"] == "mogul"]
    result = command(url, code, tokens[first], moguls[0])
    wait_version(table, result["version"])
    market = state(url, code)["state"]
    assert market["market_open"] and market["market"]
    shown = table.locator("#ws-t-open li.ws-t-contract")
    assert shown.count() == len(market["market"])
    by_id = {c["id"]: c for c in market["contracts"]}
    for cid in market["market"]:
        row = table.inner_text(f"#ws-t-open li[data-contract='{cid}']")
        c = by_id[cid]
        assert c["destination"] in row and f"${c['value']:,}" in row
    assert table.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert table.evaluate("window.__sameDocument") is True
    table.screenshot(path=str(SHOTS / "ws-table.png"))

    # A tablet in portrait still gets the board and the panels, without sideways scrolling.
    tablet = new_page(width=820, height=1180)
    tablet.goto(f"{url}/games/{code}/table")
    wait_version(tablet, result["version"])
    assert tablet.evaluate("document.body.dataset.viewer") == "spectator"
    assert tablet.locator("#ws-board circle.ws-city").count() == 56
    assert tablet.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tablet.screenshot(path=str(SHOTS / "ws-table-tablet.png"), full_page=True)


def test_the_table_screen_is_the_hosts_waiting_room_open_table_remove_and_chat(live_server_url, new_page):
    """The seatless host's TV before the start: the table is unlisted until the host opens it, the host
    removes a person who should not be there (their token stops working), and the table's chat shows
    what the phones say (the host can write too)."""
    url = live_server_url
    created = httpx.post(f"{url}/api/games", json={"kind": "wood-and-steel"}).json()
    code, host_token = created["code"], created["host_token"]
    table = new_page(width=1600, height=900)
    table.add_init_script(f"localStorage.setItem('junction.tokens', {json.dumps(json.dumps({code: {'token': host_token, 'host': True}}))})")
    table.goto(f"{url}/games/{code}/table")
    table.wait_for_selector("#conn[data-state=open]")
    assert "Unlisted table" in table.inner_text("#listing-line")
    assert code not in [g["code"] for g in httpx.get(f"{url}/api/games").json()]

    table.click("#listing-toggle")
    table.wait_for_function("document.querySelector('#listing-line').textContent.startsWith('Open table')")
    assert table.inner_text("#listing-toggle") == "Make unlisted"
    assert code in [g["code"] for g in httpx.get(f"{url}/api/games").json()]

    ada = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Ada"}).json()["token"]
    stranger = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Stranger"}).json()["token"]
    table.wait_for_selector("#ws-t-seats li[data-seat='1']")
    assert table.inner_text("#ws-t-joined") == "2 players at the table: Ada, Stranger."
    assert table.locator("#ws-t-seats li").all_inner_texts() == ["Remove Ada", "Remove Stranger"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.locator("#ws-t-lobby").screenshot(path=str(SHOTS / "ws-table-lobby-host.png"))
    table.click("#ws-t-seats li[data-seat='1'] button.seat-remove")
    table.wait_for_function("document.querySelectorAll('#ws-t-seats li').length === 1")
    refused = httpx.get(f"{url}/api/games/{code}/state", headers=auth(stranger))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "seat-removed"

    # Chat: a phone's message reaches the TV live; the host writes back from it.
    said = httpx.post(f"{url}/api/games/{code}/chat", json={"text": "Ready when you are"}, headers=auth(ada))
    assert said.status_code == 201, said.text
    table.wait_for_selector("#chat-box[open]:not([hidden])")  # a wide screen: unfolded
    table.wait_for_selector("#chat-list li:has-text('Ready when you are')")
    table.fill("#chat-text", "Starting in a minute")
    table.click("#chat-send")
    table.wait_for_selector("#chat-list li:has-text('Starting in a minute')")
    messages = httpx.get(f"{url}/api/games/{code}/chat", headers=auth(ada)).json()["messages"]
    assert [m["text"] for m in messages] == ["Ready when you are", "Starting in a minute"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(SHOTS / "ws-table-waiting-room.png"))
