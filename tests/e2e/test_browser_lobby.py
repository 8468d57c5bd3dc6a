"""In Chromium against Daphne: create a game, two phones join by the join URL,
every waiting room updates live, the host starts, every page follows."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_create_join_by_url_live_waiting_rooms_and_start(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = new_page(width=1024, height=800)
    host.goto(live_server_url + "/")
    host.select_option("#create-kind", "toy")
    host.fill("#create-name", "Ann")
    host.click("text=Create game")
    host.wait_for_url("**/games/*/")
    code = host.text_content("#room-code").strip()
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
