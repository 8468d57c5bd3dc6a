"""Resign, in Chromium against Daphne: in a two-player game Bo opens "Leave this game" at the foot of the
page, taps Resign and confirms; both phones show the ending at once (Ann won, Bo last, said why) and the
box is gone (games/resign.py, static/js/resign.js)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import two_phones

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_a_player_resigns_and_the_other_wins_on_both_phones(live_server_url, new_page):
    ann, bo, code = two_phones(new_page, live_server_url, start=False)
    assert bo.locator("#resign-box").is_hidden()  # not before the game is on
    ann.click("#start-game")
    bo.wait_for_selector("body[data-status=active]")
    box = bo.locator("#resign-box")
    box.wait_for(state="visible")
    box.locator("summary").click()
    bo.click("#resign")
    assert bo.locator("#resign-confirm").is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    bo.screenshot(path=str(SHOTS / "resign-confirm.png"), full_page=True)
    bo.click("#resign-confirm")
    for page in (ann, bo):
        page.wait_for_selector("body[data-status=finished] section.ending")
        assert page.locator(".ending-how").inner_text() == "Bo resigned, so Ann won."
        assert [page.locator(".ending-row").nth(i).inner_text().split()[0] for i in (0, 1)] == ["1st", "2nd"]
        assert "Bo" in page.locator(".ending-row").nth(1).inner_text()
        assert page.locator("#resign-box").is_hidden()
    ann.screenshot(path=str(SHOTS / "resign-ending.png"), full_page=True)
