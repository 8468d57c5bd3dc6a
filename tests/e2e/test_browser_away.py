"""Away periods in Chromium against Daphne (games/away.py): a signed-in player with a slow game on
turn declares three days away on My games; their clock waits (the deadline moves on three days),
their game's page says so, and ending it early gives the time back."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import Seat
from tests.games.factories import make_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PASSWORD = "a-slow-game-42"


def test_a_player_goes_away_for_three_days_and_comes_back_early(live_server_url, new_page):
    url = live_server_url
    ann = get_user_model().objects.create_user("ann", "ann@example.org", PASSWORD)
    code, _ = make_game(players=2, host_name="Ann", turn_seconds=86400, options={"target": 1000})
    Seat.objects.filter(game__code=code, index=0).update(user=ann)
    before = Seat.objects.get(game__code=code, index=0).turn_deadline

    page = new_page(width=360, height=780)
    page.goto(url + "/accounts/login/")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_url("**/me/games")
    assert page.inner_text("#away-status") == "You have 10 days of absence left in these 30 days."
    page.select_option("#away-days", "3")
    page.click("#away-submit")
    page.wait_for_function("document.querySelector('#away-status').textContent.startsWith('You are away until')")
    assert page.is_visible("#away-end") and page.is_hidden("#away-form")
    moved = Seat.objects.get(game__code=code, index=0).turn_deadline
    assert abs((moved - before - timedelta(days=3)).total_seconds()) < 2
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#my-away").screenshot(path=str(SHOTS / "away-my-games.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Her game's page (opened from My games: this phone gets her seat's key) says she is away and her clock waits.
    page.click(f".my-game[data-code='{code}'] .my-game-open")
    page.wait_for_url(f"**/games/{code}/")
    page.wait_for_function("document.querySelector('#turn-clock').textContent.includes('You are away until')")
    assert "the clock waits." in page.inner_text("#turn-clock")

    page.goto(url + "/me/games")
    page.click("#away-end")
    page.wait_for_function("document.querySelector('#away-status').textContent.startsWith('You have 9 days')")
    back = Seat.objects.get(game__code=code, index=0).turn_deadline
    assert abs((back - before).total_seconds()) < 60  # the unused time given back
