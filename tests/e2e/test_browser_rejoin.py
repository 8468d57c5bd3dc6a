"""Seats that come back, in Chromium against Daphne: mid-game, a Wood and Steel phone is lost
(a new browser takes over) and another loses its storage; the table screen hands each seat to
its new browser with a one-time rejoin link, opened once; each is back in its seat with its
hidden hand (the private contract), and the old browser is told it no longer holds the seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import create_game
from .ws_phones import play_setup

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def rejoin_link(table, name: str) -> str:
    """The table screen's host panel: a one-time code for ``name``'s seat; its link."""
    panel = table.locator("#rejoin-host")
    if panel.get_attribute("open") is None:
        table.click("#rejoin-host > summary")
    table.click(f"#rejoin-host button:has-text('New device for {name}')")
    table.wait_for_selector("#rejoin-shown:not([hidden]) #rejoin-url")
    assert table.locator("#rejoin-shown svg").count() == 1  # the QR code
    code = table.inner_text("#rejoin-code-shown")
    url = table.get_attribute("#rejoin-url", "href")
    assert url.endswith("#" + code.replace("-", ""))
    return url


def test_a_lost_phone_and_a_wiped_one_get_their_seats_and_hands_back(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = new_page(width=1280, height=900)
    create_game(host, live_server_url, kind="wood-and-steel", name=None)  # the table screen holds the host token
    join_url = host.get_attribute("#join-url", "href")
    host.wait_for_selector("#rejoin-host")  # the host's panel, in the waiting room too
    phones = {}
    for name in ("Ada", "Ben"):
        phone = new_page(width=360, height=780)
        phone.goto(join_url)
        phone.fill("#join-name", name)
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        phones[name] = phone
    host.wait_for_selector("#seat-list li[data-seat='1']")
    host.click("#start-game")
    play_setup(phones.values())
    for phone in phones.values():
        phone.wait_for_function("document.querySelector('#ws-private').innerText.trim().length > 0")
    hands = {name: phone.inner_text("#ws-private") for name, phone in phones.items()}
    host.goto(f"{live_server_url}/games/{host.text_content('#room-code').strip()}/table")
    host.wait_for_selector("#conn[data-state=open]")

    # Ben's phone is lost (it stays open somewhere): a new browser takes his seat with one link.
    link = rejoin_link(host, "Ben")
    host.screenshot(path=str(SHOTS / "rejoin-table-code.png"), full_page=False)
    new_ben = new_page(width=360, height=780)
    new_ben.goto(link)
    new_ben.wait_for_url("**/games/*/")
    new_ben.wait_for_selector("body[data-phase=play]")
    new_ben.wait_for_function("document.querySelector('#ws-private').innerText.trim().length > 0")
    assert new_ben.inner_text("#ws-private") == hands["Ben"], "the hidden hand is back"
    assert "Ben" in new_ben.inner_text("#ws-me")
    # The old browser is told, stops showing the game and forgets the dead token.
    old_ben = phones["Ben"]
    old_ben.wait_for_selector("#seat-moved")
    assert "no longer holds your seat" in old_ben.inner_text("#seat-moved")
    assert old_ben.is_hidden("#room")
    assert old_ben.evaluate("Junction.seatFor(document.getElementById('room').dataset.code).token") is None
    old_ben.screenshot(path=str(SHOTS / "rejoin-old-phone.png"), full_page=False)
    host.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('seat moved to a new device')")

    # Ada's browser loses its storage mid-game: a reload finds no seat; one link puts it back.
    ada = phones["Ada"]
    ada.evaluate("localStorage.clear()")
    ada.context.clear_cookies()
    ada.reload()
    ada.wait_for_selector("body[data-phase=play]")
    ada.wait_for_function("document.querySelector('#ws-me').innerText === 'Watching.'")  # no seat here any more
    host.click("#rejoin-host button:has-text('Done')")
    ada.goto(rejoin_link(host, "Ada"))
    ada.wait_for_url("**/games/*/")
    ada.wait_for_function("document.querySelector('#ws-private').innerText.trim().length > 0")
    assert ada.inner_text("#ws-private") == hands["Ada"]

    # The seats play on from their new browsers: whoever is on turn ends it.
    mover = next(p for p in (ada, new_ben) if p.evaluate("document.body.dataset.myTurn") == "true")
    before = int(mover.evaluate("document.body.dataset.version"))
    for _ in range(2):
        mover.locator("button[data-cmd=end-turn]").first.click()
    mover.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    # The same link again is refused: it worked once.
    again = new_page(width=360, height=780)
    again.goto(link)
    again.wait_for_selector("#rejoin-error:not([hidden])")
    assert "already used" in again.inner_text("#rejoin-error")
    for page in (ada, new_ben):
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_seated_host_hands_seats_from_their_own_phone_in_an_online_game(live_server_url, new_page):
    """Locomotive Werks, the host playing on a phone: from the game page the host hands Ben's
    seat to Ben's new phone, then the host's own seat (and with it the host's controls) to a
    new phone of the host's; each old page is told."""
    ann = new_page(width=390, height=844)
    code = create_game(ann, live_server_url, kind="locomotive-werks", name="Ann")
    ben = new_page(width=360, height=780)
    ben.goto(ann.get_attribute("#join-url", "href"))
    ben.fill("#join-name", "Ben")
    ben.click("text=Take a seat")
    ben.wait_for_selector("#conn[data-state=open]")
    ann.select_option("#bot-level", "random")
    ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='2']")
    ann.click("#start-game")
    for page in (ann, ben):
        page.wait_for_selector("#lw-players .lw-player.me")
    assert ben.is_hidden("#rejoin-host") or ben.locator("#rejoin-host").count() == 0  # players have no such panel

    ann.click("#rejoin-host > summary")
    ann.click("#rejoin-host button:has-text('New device for Ben')")
    link = ann.get_attribute("#rejoin-shown #rejoin-url", "href")
    new_ben = new_page(width=360, height=780)
    new_ben.goto(link)
    new_ben.wait_for_selector("#lw-players .lw-player.me[data-seat='1']")
    ben.wait_for_selector("#seat-moved")

    ann.click("#rejoin-host button:has-text('New device for Ann')")
    ann.wait_for_selector("#rejoin-shown h3:has-text('For Ann')")
    link = ann.get_attribute("#rejoin-shown #rejoin-url", "href")
    new_ann = new_page(width=390, height=844)
    new_ann.goto(link)
    new_ann.wait_for_selector("#lw-players .lw-player.me[data-seat='0']")
    new_ann.wait_for_selector("#rejoin-host")  # the host's controls came along
    ann.wait_for_selector("#seat-moved")
    assert new_ann.evaluate(f"Junction.seatFor('{code}').host") is True
