"""Wood and Steel at the table, in Chromium against Daphne: a host screen and three
phones (phone-sized) complete setup and several rounds; every page follows each
change without a reload; a player undoes a move."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version || 0) >= {at_least}")


def two_tap(page, selector: str) -> None:
    button = page.locator(selector).first
    button.click()
    button.click()


def test_host_and_three_phones_play_setup_and_rounds(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = new_page(width=1280, height=900)
    host.goto(live_server_url + "/")
    host.select_option("#create-kind", "wood-and-steel")
    host.click("text=Create game")  # no name: the host runs the table screen, not a seat
    host.wait_for_url("**/games/*/")
    join_url = host.get_attribute("#join-url", "href")

    phones = []
    for name in ("Ada", "Ben", "Cleo"):
        phone = new_page(width=360, height=780)
        phone.goto(join_url)
        phone.fill("#join-name", name)
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        phones.append(phone)
    host.wait_for_selector("#seat-list li[data-seat='2']")
    host.click("#start-game")
    # The host's screen becomes the table screen: the board for everyone to see.
    host.wait_for_selector("body[data-status=active]")
    host.click("#ws-table-link")
    host.wait_for_url("**/table")
    host.wait_for_selector("#conn[data-state=open]")

    # Setup 1: every phone ranks three starting routes by tapping them in order.
    for i, phone in enumerate(phones):
        phone.wait_for_selector("body[data-phase=ranking] #ws-setup button.ws-route")
        routes = phone.locator("#ws-setup button.ws-route")
        for j in (i, (i + 1) % 6, (i + 2) % 6):
            routes.nth(j).click()
        phone.click("#ws-setup button[data-cmd=rank-starting-routes]")
        # The phone confirms the ranking; the last one to rank ends the phase.
        phone.wait_for_function("document.body.dataset.phase === 'engines' || document.querySelector('#ws-setup').innerText.includes('Your ranking is in')")
    # Setup 2: every phone learns its route and places its engine.
    for phone in phones:
        phone.wait_for_selector("body[data-phase=engines] button[data-cmd=place-engine]")
        phone.locator("button[data-cmd=place-engine]").first.click()
    for page in (host, *phones):
        page.wait_for_selector("body[data-phase=play]")
    assert "goes first" in phones[0].inner_text("#ws-feed")
    phones[0].screenshot(path=str(SHOTS / "ws-phone-start.png"), full_page=True)

    # A player borrows, then undoes it from the phone.
    mover = next(p for p in phones if p.evaluate("document.body.dataset.myTurn") == "true")
    before = mover.inner_text("#ws-me")
    start_version = version(mover)
    chooser = mover.locator(".ws-chooser[data-cmd=borrow]")
    chooser.locator("select").select_option(index=0)
    two_tap(mover, ".ws-chooser[data-cmd=borrow] button")
    wait_version(mover, start_version + 1)
    assert "debt $5,000" in mover.inner_text("#ws-me")
    two_tap(mover, "button[data-cmd=undo]")
    wait_version(mover, start_version + 2)
    assert mover.inner_text("#ws-me") == before
    mover.wait_for_function("document.querySelector('#ws-feed').innerText.includes('move was undone')")
    assert mover.locator("#ws-feed li.ev-undone").count() == 1, "each event appears once in the feed"

    # Several rounds: whoever's turn it is takes an offer if dealt one, then ends the turn.
    target_round = 3
    for _ in range(30):
        if phones[0].inner_text("#ws-heading").startswith(f"Round {target_round}"):
            break
        mover = next((p for p in phones if p.evaluate("document.body.dataset.myTurn") == "true"), None)
        assert mover is not None, "someone is always on turn during play"
        v = version(mover)
        take = mover.locator("#ws-offers button[data-cmd=choose-offer]")
        if take.count():
            take.first.click()
            wait_version(mover, v + 1)
            continue
        two_tap(mover, "button[data-cmd=end-turn]")
        wait_version(mover, v + 1)
    assert phones[0].inner_text("#ws-heading").startswith(f"Round {target_round}")

    # Every page shows the same version, without a reload.
    final = version(phones[0])
    for page in (host, *phones):
        wait_version(page, final)
    # The railroads tab names each independent and what grew; ties tab explains ties.
    phones[1].click(".ws-tabs [data-tab=railroads]")
    assert phones[1].locator("#ws-railroads .ws-railroad").count() >= 6
    assert "grew" in phones[1].inner_text("#ws-feed").lower() or "no independent railroad grew" in phones[1].inner_text("#ws-feed").lower()
    phones[1].screenshot(path=str(SHOTS / "ws-phone-railroads.png"), full_page=True)
    phones[2].click(".ws-tabs [data-tab=commodities]")
    phones[2].wait_for_selector("#ws-commodities .ws-commodity")
    assert phones[2].locator("#ws-commodities .ws-commodity").count() == 25
    phones[2].click(".ws-tabs [data-tab=cities]")
    phones[2].fill("#ws-city-filter", "atl")
    assert phones[2].locator("#ws-cities .ws-city").all_inner_texts()[0].startswith("Atlanta")
    for phone in phones:
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling at 360 px"
    phones[0].click(".ws-tabs [data-tab=turn]")
    phones[0].screenshot(path=str(SHOTS / "ws-phone-turn.png"), full_page=True)
    assert host.evaluate("document.body.dataset.viewer") == "host"
    assert f"Round {target_round}" in host.inner_text("body")
    host.screenshot(path=str(SHOTS / "ws-host.png"), full_page=False)
