"""In Chromium against Daphne: create a game, two phones join by the join URL,
every waiting room updates live, the host starts, every page follows."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_create_join_by_url_live_waiting_rooms_and_start(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = new_page(width=1024, height=800)
    code = create_game(host, live_server_url, kind="toy", name="Ann")
    join_url = host.get_attribute("#join-url", "href")
    assert join_url.endswith(f"/join/{code}")
    assert host.locator("#join-qr svg").bounding_box()["width"] >= 150
    qr = host.request.get(live_server_url + host.get_attribute("#join-qr", "href"))
    assert qr.ok and qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.body()
    host.wait_for_selector("#conn[data-state=open]")

    phones = []
    for name in ("Bo", "Cy"):
        phone = new_page(width=360, height=740)
        phone.goto(join_url)
        phone.fill("#join-name", name)
        phone.click("text=Take a seat")
        phone.wait_for_url(f"**/games/{code}/")
        phone.wait_for_selector("#conn[data-state=open]")
        phones.append(phone)

    # Every waiting room shows all three players without a reload.
    for page in (host, *phones):
        page.wait_for_selector("#seat-list li[data-seat='2']")
        assert page.locator("#seat-list li").all_inner_texts()[0].startswith("Ann")
    assert phones[0].locator("#seat-list li.me").inner_text().startswith("Bo")
    assert phones[0].is_hidden("#host-controls") and host.is_visible("#start-game")
    assert all(no_horizontal_scroll(p) for p in phones)
    phones[0].screenshot(path=str(SHOTS / "lobby-phone.png"), full_page=True)
    host.screenshot(path=str(SHOTS / "lobby-host.png"), full_page=True)

    host.click("#start-game")
    for page in (host, *phones):
        page.wait_for_selector("body[data-status=active][data-version='1']")
        assert page.is_visible("#play") and page.is_hidden("#waiting-room")

    # A move on the host page shows up on both phones live.
    host.click("#legal button >> nth=0")
    for page in phones:
        page.wait_for_selector("body[data-version='2']")
    phones[0].wait_for_selector("#legal button")  # now it is Bo's turn
    phones[0].screenshot(path=str(SHOTS / "play-phone.png"), full_page=True)


def test_an_answer_read_before_a_later_join_does_not_undo_it(live_server_url, new_page):
    """The host adds a bot; before its HTTP answer arrives a phone joins and the socket brings
    the newer seat list. The late answer (read before the join) must not take the phone away."""
    import httpx

    host = new_page(width=1024, height=800)
    code = create_game(host, live_server_url, kind="toy", name="Ann")
    host.wait_for_selector("#conn[data-state=open]")
    held = []
    host.route("**/api/games/*/seats", lambda route: held.append((route, route.fetch())))
    host.click("#add-bot")
    host.wait_for_selector("#seat-list li[data-seat='1']")  # the socket's summary: the bot is seated
    for _ in range(100):  # the route handler's fetch returns in its own time
        if held:
            break
        host.wait_for_timeout(50)
    assert len(held) == 1
    joined = httpx.post(f"{live_server_url}/api/games/{code}/seats", json={"name": "Bo"})
    assert joined.status_code == 201, joined.text
    host.wait_for_selector("#seat-list li[data-seat='2']")  # the socket's summary: Bo too
    route, answer = held[0]
    assert len(answer.json()["game"]["seats"]) == 2  # the add-bot answer: read before Bo joined
    with host.expect_response("**/api/games/*/seats"):
        route.fulfill(response=answer)
    host.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # its handler has run
    assert host.locator("#seat-list li").count() == 3
    assert "Bo" in host.inner_text("#seat-list li[data-seat='2']")


def test_create_form_sets_game_options_on_a_phone(live_server_url, new_page):
    """The options block follows the chosen kind, starts at the defaults, fits 360 px and
    the game is created with what the host picked (and the defaults for the rest)."""
    import httpx

    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(width=360, height=740)
    page.goto(live_server_url + "/")
    kinds = {k["kind"]: k for k in httpx.get(live_server_url + "/api/kinds").json()}

    page.select_option("#create-kind", "locomotive-werks")
    page.click("#create-options > summary")
    fields = page.locator("#options-fields [data-option]")
    assert fields.count() == len(kinds["locomotive-werks"]["options"])
    assert page.input_value("#opt-production_costs") == '"fixed"' and page.input_value("#opt-end_threshold") == "300"

    page.select_option("#create-kind", "wood-and-steel")
    assert fields.count() == len(kinds["wood-and-steel"]["options"])
    assert page.input_value("#opt-min_market_value") == "9000", "defaults preselected"
    assert page.is_checked("#opt-acquire_requires_connection") and not page.is_checked("#opt-private_contracts_public")
    assert page.inner_text("#options-state") == "(defaults)"
    assert no_horizontal_scroll(page), "the options block fits a 360 px phone"
    page.screenshot(path=str(SHOTS / "lobby-options-phone.png"), full_page=True)

    # An out-of-range number is refused in the browser, before anything is sent.
    page.fill("#opt-min_market_value", "100")
    page.click("#create-submit")
    assert page.url.rstrip("/") == live_server_url and page.evaluate("document.querySelector('#opt-min_market_value').validity.rangeUnderflow")

    page.fill("#opt-min_market_value", "6000")
    page.select_option("#opt-tie_rule", '"region-matrix"')
    page.check("#opt-private_contracts_public")
    page.fill("#opt-target_ties", "40")
    assert page.inner_text("#options-state") == "(4 changed)"
    page.fill("#create-name", "Ada")
    page.click("#create-submit")
    page.wait_for_url("**/games/*/")
    code = page.text_content("#room-code").strip()
    options = httpx.get(f"{live_server_url}/api/games/{code}").json()["options"]
    assert options["min_market_value"] == 6000 and options["tie_rule"] == "region-matrix"
    assert options["private_contracts_public"] is True and options["target_ties"] == 40
    assert options["railroads_min"] == 9 and options["west_coast_bonus"] == "first-per-player", "untouched options keep their defaults"

    # Locomotive Werks: the published production costs.
    code = create_game(page, live_server_url, kind="locomotive-werks", name="Ann",
                       options=lambda p: p.select_option("#opt-production_costs", '"published"'))
    options = httpx.get(f"{live_server_url}/api/games/{code}").json()["options"]
    assert options["production_costs"] == "published" and options["end_threshold"] == 300


def test_host_fills_empty_seats_with_bots(live_server_url, new_page):
    host = new_page(width=360, height=740)
    create_game(host, live_server_url, kind="locomotive-werks", name="Ann")
    host.wait_for_selector("#conn[data-state=open]")
    assert host.inner_text("#seat-count") == "1/5"
    host.select_option("#bot-level", "greedy")
    host.click("#fill-bots")
    host.wait_for_selector("#seat-list li[data-seat='4']")
    host.wait_for_function("document.querySelector('#seat-count').textContent === '5/5'")
    assert host.locator("#seat-list li").count() == 5
    assert host.inner_text("#seat-list").count("greedy bot") == 4
    host.wait_for_function("document.querySelector('#fill-bots').disabled && document.querySelector('#add-bot').disabled")
    assert host.is_hidden("#room-error"), "a full table is the goal, not an error"
    assert no_horizontal_scroll(host)
    assert host.is_enabled("#start-game")
    host.click("#start-game")
    host.wait_for_selector("#lw-board .lw-space[data-space='14']")
    assert host.locator("#lw-players .lw-player").count() == 5
