"""Players who come back, in Chromium against a Daphne serving the production
Content-Security-Policy: a player signs up on a phone (django-allauth's form, in the site's look),
joins a Wood and Steel table and plays its setup (a seat they took as a guest before signing up
comes along into the account); on a second phone they sign in, find the seat
under My games and open it there with one tap: the same seat, with its hidden hand."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import create_game
from .test_browser_csp import LISTEN, violations

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PASSWORD = "tracks-and-ties-42"


def phone(new_page):
    page = new_page(width=360, height=780)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.add_init_script(LISTEN)
    return page, console


def setup_alone(page) -> None:
    """A one-player table's setup on its phone (ws_phones.play_setup's steps; its waits are
    expressions, which this page's CSP refuses to evaluate: only functions here)."""
    page.wait_for_selector("body[data-phase=ranking] #ws-setup button.ws-route")
    routes = page.locator("#ws-setup button.ws-route")
    for j in (0, 2, 4):
        routes.nth(j).click()
    page.click("#ws-setup button[data-cmd=rank-starting-routes]")
    for _ in range(5):
        page.wait_for_selector("body[data-phase=engines] button[data-cmd=place-engine], body[data-phase=play]")
        if page.evaluate("() => document.body.dataset.phase") == "play":
            return
        page.locator("button[data-cmd=place-engine]").first.click()
        try:
            page.wait_for_selector("body[data-phase=play]", timeout=3000)
            return
        except Exception:  # the tap landed while the page redrew the button: tap again
            continue
    raise AssertionError("the phone never placed its engine")


def test_a_player_signs_up_joins_a_table_and_finds_the_seat_on_a_second_phone(daphne, new_page):
    server = daphne(extra_env={"JUNCTION_CSP": "1"})
    url = server.url
    host = new_page(width=1280, height=900)
    code = create_game(host, url, kind="wood-and-steel", name=None)  # the table screen holds the host token
    join_url = host.get_attribute("#join-url", "href")

    first, first_console = phone(new_page)
    # As a guest first: a seat at another table, which comes along into the account at sign-up.
    guest_game = httpx.post(url + "/api/games", json={"kind": "toy", "name": "Tom"}).json()["code"]
    first.goto(f"{url}/join/{guest_game}")
    first.fill("#join-name", "Ada")
    first.click("text=Take a seat")
    first.wait_for_selector("#conn[data-state=open]")
    first.goto(url + "/")
    first.click("#nav-sign-in")
    first.click("#login-signup")
    first.fill("#id_username", "ada")
    first.fill("#id_email", "ada@example.org")
    first.fill("#id_password1", PASSWORD)
    first.fill("#id_password2", PASSWORD)
    first.click("#signup-submit")
    first.wait_for_url("**/me/games")  # ?welcome=1, then the list again once the seats came along
    first.wait_for_selector(f"#my-games-list .my-game[data-code='{guest_game}']")
    assert f"Ada in {guest_game}" in first.inner_text("#claim-result")
    assert first.is_hidden("#claim")  # nothing left to add
    assert violations(first, first_console) == []
    first.goto(join_url)
    first.fill("#join-name", "Ada")
    first.click("text=Take a seat")
    first.wait_for_selector("#conn[data-state=open]")
    host.wait_for_selector("#seat-list li[data-seat='0']")
    host.click("#start-game")
    setup_alone(first)
    first.wait_for_function("() => document.querySelector('#ws-private').innerText.trim().length > 0")
    hand = first.inner_text("#ws-private")

    second, second_console = phone(new_page)
    second.goto(url + "/accounts/login/")
    second.fill("#id_login", "ada@example.org")
    second.fill("#id_password", PASSWORD)
    second.click("#login-submit")
    second.wait_for_url("**/me/games")
    game = second.locator(f"#my-games-list .my-game[data-code='{code}']")
    assert "Wood and Steel" in game.inner_text() and "Ada" in game.inner_text()
    assert game.locator(".turn.mine").count() == 1, "a one-player table: Ada is on turn"
    assert second.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert violations(second, second_console) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    second.screenshot(path=str(SHOTS / "accounts-my-games.png"), full_page=True)
    game.locator(".my-game-open").click()
    second.wait_for_url(f"**/games/{code}/")
    second.wait_for_selector("body[data-phase=play]")
    second.wait_for_function("() => document.querySelector('#ws-private').innerText.trim().length > 0")
    assert second.inner_text("#ws-private") == hand, "the same seat, with its hidden hand"
    assert "Ada" in second.inner_text("#ws-me")
    assert violations(second, second_console) == []
    # Both phones hold the seat: the first one still plays on.
    first.reload()
    first.wait_for_function("() => document.querySelector('#ws-private').innerText.trim().length > 0")
    assert first.inner_text("#ws-private") == hand
