"""Chat, in Chromium against Daphne: two phones at one game chat through it, one with a quick phrase and
one typed, each seeing the other's message live; a message with markup shows as text; a guest watching
reads the table's chat and is asked to sign in to write (games/chat.py, static/js/chat.js)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import open_chat, two_phones

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_two_phones_chat_through_a_game_and_a_watcher_reads_it(live_server_url, new_page):
    ann, bo, code = two_phones(new_page, live_server_url)
    for page in (ann, bo):
        page.wait_for_selector("body[data-status=active]")
        open_chat(page)
    ann.click("#chat-quick button:has-text('Hello!')")
    bo.wait_for_selector("#chat-list li:has-text('Hello!')")
    assert "Ann" in bo.locator("#chat-list li").first.inner_text()
    bo.fill("#chat-text", "<b>hi</b> Ann, good luck")
    bo.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-list li:has-text('good luck')")
    assert ann.locator("#chat-list li b.chat-name").count() == 2 and ann.locator("#chat-list .chat-text b").count() == 0  # markup is text
    assert "<b>hi</b> Ann, good luck" in ann.locator("#chat-list li").nth(1).inner_text()
    assert bo.input_value("#chat-text") == ""

    watcher = new_page(width=390, height=844)
    watcher.goto(f"{live_server_url}/games/{code}/")
    open_chat(watcher)
    watcher.wait_for_selector("#chat-list li:has-text('good luck')")
    assert watcher.locator("#chat-sign-in").is_visible() and watcher.locator("#chat-form").is_hidden()
    ann.click("#chat-quick button:has-text('Good game!')")
    watcher.wait_for_selector("#chat-list li:has-text('Good game!')")  # live for the watcher too
    SHOTS.mkdir(parents=True, exist_ok=True)
    bo.locator("#chat-box").screenshot(path=str(SHOTS / "chat-phone.png"))
    assert bo.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
