"""Seats that come back, in Chromium against Daphne: mid-game, a Wood and Steel phone is lost
(a new browser takes over) and another loses its storage; the table screen hands each seat to
its new browser with a one-time rejoin link, opened once; each is back in its seat with its
hidden hand (the private contract), and the old browser is told it no longer holds the seat.
In the open (games/rejoin.py): while a player's phone is connected the host gets no code for
the seat, only how long to wait; once it has been away (Seat.last_seen written in the past here,
not a minute slept) the code is made and every page says so, then says the seat went."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from games.models import Seat
from tests.games.factories import seat_away

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


def refused_while_connected(host, name: str) -> None:
    """The host asks for a code for ``name``'s seat while its phone is connected: no code, the wait."""
    panel = host.locator("#rejoin-host")
    if panel.get_attribute("open") is None:
        host.click("#rejoin-host > summary")
    host.click(f"#rejoin-host button:has-text('New device for {name}')")
    host.wait_for_selector("#rejoin-host .error:not([hidden])")
    said = host.inner_text("#rejoin-host .error")
    assert f"{name}'s phone is still connected" in said and "try again in" in said
    assert host.is_hidden("#rejoin-shown")


def phone_away(page, code: str, seat: int) -> None:
    """``page``, the phone of seat ``seat``, leaves the game (its socket closes: the server writes
    when); then it has been away for an hour, as far as Seat.last_seen says."""
    before = Seat.objects.get(game__code=code, index=seat).last_seen
    page.goto("about:blank")
    deadline = time.monotonic() + 15
    while Seat.objects.get(game__code=code, index=seat).last_seen == before:
        assert time.monotonic() < deadline, "the closed socket never wrote its seat's last_seen"
        time.sleep(0.1)
    seat_away(code, seat)


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
    code = host.text_content("#room-code").strip()
    game_url = f"{live_server_url}/games/{code}/"
    host.goto(f"{live_server_url}/games/{code}/table")
    host.wait_for_selector("#conn[data-state=open]")

    # While Ben's phone is connected the host gets no code for his seat: it would show his hand.
    refused_while_connected(host, "Ben")
    # Ben's phone is lost: gone from the game a while, a new browser takes his seat with one link.
    old_ben = phones["Ben"]
    phone_away(old_ben, code, 1)
    link = rejoin_link(host, "Ben")
    host.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('The host made a new-device code for Ben’s seat.')")
    host.screenshot(path=str(SHOTS / "rejoin-table-code.png"), full_page=False)
    new_ben = new_page(width=360, height=780)
    new_ben.goto(link)
    new_ben.wait_for_url("**/games/*/")
    new_ben.wait_for_selector("body[data-phase=play]")
    new_ben.wait_for_function("document.querySelector('#ws-private').innerText.trim().length > 0")
    assert new_ben.inner_text("#ws-private") == hands["Ben"], "the hidden hand is back"
    assert "Ben" in new_ben.inner_text("#ws-me")
    # The old browser, found and opened again, is told, stops showing the game and forgets the dead token.
    old_ben.goto(game_url)
    old_ben.wait_for_selector("#seat-moved")
    assert "no longer holds your seat" in old_ben.inner_text("#seat-moved")
    assert old_ben.is_hidden("#room")
    assert old_ben.evaluate("Junction.seatFor(document.getElementById('room').dataset.code).token") is None
    old_ben.screenshot(path=str(SHOTS / "rejoin-old-phone.png"), full_page=False)
    host.wait_for_function("document.querySelector('#ws-t-feed').innerText.includes('Ben’s seat went to another device with the host’s code.')")

    # Ada's browser loses its storage mid-game: a reload finds no seat; one link puts it back.
    ada = phones["Ada"]
    ada.evaluate("localStorage.clear()")
    ada.context.clear_cookies()
    ada.reload()
    ada.wait_for_selector("body[data-phase=play]")
    ada.wait_for_function("document.querySelector('#ws-me').innerText === 'Watching.'")  # no seat here any more
    seat_away(code, 0)  # no socket of Ada's seat is open now: as if a minute went by
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

    refused_while_connected(ann, "Ben")
    game_url = ben.url
    phone_away(ben, code, 1)
    ann.click("#rejoin-host button:has-text('New device for Ben')")
    link = ann.get_attribute("#rejoin-shown #rejoin-url", "href")
    ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes(\"The host made a new-device code for Ben's seat.\")")
    new_ben = new_page(width=360, height=780)
    new_ben.goto(link)
    new_ben.wait_for_selector("#lw-players .lw-player.me[data-seat='1']")
    ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes(\"Ben's seat went to another device with the host's code.\")")
    ben.goto(game_url)
    ben.wait_for_selector("#seat-moved")

    ann.click("#rejoin-host button:has-text('New device for Ann')")  # the host's own seat: at once
    ann.wait_for_selector("#rejoin-shown h3:has-text('For Ann')")
    link = ann.get_attribute("#rejoin-shown #rejoin-url", "href")
    new_ann = new_page(width=390, height=844)
    new_ann.goto(link)
    new_ann.wait_for_selector("#lw-players .lw-player.me[data-seat='0']")
    new_ann.wait_for_selector("#rejoin-host")  # the host's controls came along
    ann.wait_for_selector("#seat-moved")
    assert new_ann.evaluate(f"Junction.seatFor('{code}').host") is True


def test_the_end_of_a_game_whose_seat_went_to_another_device_says_it_is_not_rated(live_server_url, new_page):
    """Two signed-in players; a game master's code hands Ben's seat to a device nobody is signed in
    on: when the game ends the page says it was not rated, and why."""
    import httpx
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game

    from .conftest import auth

    url = live_server_url
    created = httpx.post(f"{url}/api/games", json={"kind": "toy", "name": "Ann", "options": {"target": 3}}).json()
    code, host_token = created["code"], created["host_token"]
    httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Ben"}).raise_for_status()
    httpx.post(f"{url}/api/games/{code}/start", headers=auth(host_token)).raise_for_status()
    for index, name in enumerate(("ann", "ben")):
        Seat.objects.filter(game__code=code, index=index).update(user=get_user_model().objects.create_user(name))
    issued = services.rejoin_code_create(game_id=Game.objects.get(code=code).pk, seat=1, by="gm")
    httpx.post(f"{url}/api/games/{code}/rejoin", json={"code": issued.code}).raise_for_status()

    page = new_page(width=390, height=844)
    page.goto(f"{url}/games/{code}/")
    page.wait_for_selector("#conn[data-state=open]")
    assert page.locator("#game-unrated:not([hidden])").count() == 0  # not before the end
    httpx.post(f"{url}/api/games/{code}/commands", json={"cmd": "add", "n": 3}, headers=auth(host_token)).raise_for_status()
    page.wait_for_selector("#game-unrated:not([hidden])")
    assert page.inner_text("#game-unrated") == "Not rated: Ben's seat was handed to another device."
