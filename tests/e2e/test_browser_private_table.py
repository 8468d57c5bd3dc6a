"""A private table (issue 31, games/listing.py and games/seating.py seat_remove) in two browsers: a game made
with the home page's defaults is unlisted, so another browser's home page does not show it; that browser
joins by the link all the same; the host removes them and their page says so in words; the host opens the
table and it appears on the home page."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def open_games_text(page) -> str:
    return page.inner_text("#open-games")


def wait_until(check, what: str, seconds: float = 10):
    """Wait, by time, until ``check()`` is true."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


def test_a_default_table_is_unlisted_joined_by_link_the_host_removes_then_opens(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    host = new_page(width=390, height=844)
    code = create_game(host, url, kind="toy", name="Ann")  # the home page's defaults: Open table unticked
    host.wait_for_selector("#conn[data-state='open']")
    assert "Unlisted table" in host.inner_text("#listing-line")
    assert host.inner_text("#listing-toggle") == "Open table"

    # Another browser's home page does not list it (its list is live: it would hear of an open table).
    guest = new_page(width=360, height=740)
    guest.goto(url + "/")
    assert code not in open_games_text(guest)
    assert "No open games yet" in open_games_text(guest)

    # The link is enough to join.
    join_url = host.get_attribute("#join-url", "href")
    guest.goto(join_url)
    guest.fill("#join-name", "Bo")
    guest.click("text=Take a seat")
    guest.wait_for_url(f"**/games/{code}/")
    guest.wait_for_selector("#conn[data-state='open']")
    assert "Unlisted table" in guest.inner_text("#listing-line")
    assert guest.locator("#listing-toggle").count() == 0 or not guest.is_visible("#listing-toggle")
    host.wait_for_selector("#seat-list li[data-seat='1']")
    assert "Bo" in host.inner_text("#seat-list li[data-seat='1']")
    assert guest.locator(".seat-remove").count() == 0  # only the host removes
    assert host.locator("#seat-list li[data-seat='0'] .seat-remove").count() == 0  # not the host's own seat
    host.screenshot(path=str(SHOTS / "private-table-host-waiting.png"), full_page=True)

    # The host removes Bo: Bo's page says so in words, the seat is free, the token is forgotten.
    host.click("#seat-list li[data-seat='1'] .seat-remove")
    guest.wait_for_selector("#seat-removed")
    notice = guest.inner_text("#seat-removed")
    assert "The host removed you from this table" in notice and "seat in the waiting room is free again" in notice
    assert not guest.is_visible("#room") and not guest.is_visible("#conn")
    wait_until(lambda: host.locator("#seat-list li").count() == 1, "the host's list shows one seat")
    held = guest.evaluate(f"(JSON.parse(localStorage.getItem('junction.tokens')) || {{}})['{code}']")
    assert not held or not held.get("token")
    guest.screenshot(path=str(SHOTS / "private-table-removed.png"), full_page=True)

    # The host opens the table: another browser's home page lists it, live.
    guest.goto(url + "/")
    assert code not in open_games_text(guest)
    host.click("#listing-toggle")
    wait_until(lambda: host.inner_text("#listing-toggle") == "Make unlisted", "the host's switch turns")
    assert "Open table: listed on the home page" in host.inner_text("#listing-line")
    wait_until(lambda: code in open_games_text(guest), "the open table appears on the other home page without a reload")
    guest.reload()
    assert code in open_games_text(guest)
    guest.screenshot(path=str(SHOTS / "private-table-listed.png"), full_page=True)

    # And unlisted again: it leaves the list.
    host.click("#listing-toggle")
    wait_until(lambda: code not in open_games_text(guest), "the table leaves the other home page")
