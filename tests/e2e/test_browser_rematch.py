"""Play again, in Chromium against Daphne: two phones chat through a game and finish it; the first taps "Play again with this
table" and lands in the next game's waiting room, seated second (the turn order turned by one); the other
phone's ending says "Join the next game" at once (over the socket), and one tap seats it there first; the
host starts the rematch and both play on (games/rematch.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import open_chat, two_phones

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def add(page, n: int) -> None:
    page.click(f"#legal button[data-cmd=add]:has-text('n {n}')")


def test_two_phones_finish_and_start_the_rematch_with_one_tap_each(live_server_url, new_page):
    ann, bo, code = two_phones(new_page, live_server_url,
                               options=lambda page: page.fill("[data-option-field=target] input", "5"))
    for page, n, version in ((ann, 3, 2), (bo, 2, 3)):  # 3 + 2 = 5: Bo brings the counter to the target
        page.wait_for_selector(f"body[data-status=active][data-version='{version - 1}'] #legal button[data-cmd=add]")
        add(page, n)
        if page is ann:  # they chat through the game: Bo says something, Ann reads it live
            for phone in (ann, bo):
                open_chat(phone)
            bo.click("#chat-quick button:has-text('Nice move!')")
            ann.wait_for_selector("#chat-list li:has-text('Nice move!')")
    for page in (ann, bo):
        page.wait_for_selector("body[data-status=finished] section.ending")
        assert page.locator(".ending-headline").inner_text() == "Bo won."
        assert page.locator(".ending-rematch").inner_text() == "Play again with this table"
    ann.click("#chat-quick button:has-text('Good game!')")
    bo.wait_for_selector("#chat-list li:has-text('Good game!')")
    SHOTS.mkdir(parents=True, exist_ok=True)
    bo.screenshot(path=str(SHOTS / "rematch-ending.png"), full_page=True)

    ann.click(".ending-rematch")
    ann.wait_for_url(lambda url: f"/games/{code}/" not in url and url.rstrip("/").rsplit("/", 1)[-1].isalnum())
    nxt = ann.text_content("#room-code").strip()
    assert nxt != code
    bo.wait_for_selector(".ending-rematch:has-text('Join the next game')")  # told over the socket, no reload
    bo.click(".ending-rematch")
    bo.wait_for_url(f"**/games/{nxt}/")
    for page in (ann, bo):
        page.wait_for_selector("#seat-list li[data-seat='1']")
        names = [page.locator(f"#seat-list li[data-seat='{i}']").inner_text() for i in (0, 1)]
        assert "Bo" in names[0] and "Ann" in names[1], names  # the turn order turned by one
    ann.screenshot(path=str(SHOTS / "rematch-waiting-room.png"), full_page=True)
    ann.click("#start-game")
    bo.wait_for_selector("body[data-status=active] #legal button[data-cmd=add]")  # Bo moves first now
    add(bo, 1)
    ann.wait_for_selector("body[data-version='2']")
