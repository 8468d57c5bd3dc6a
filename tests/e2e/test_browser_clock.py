"""Clocks in Chromium against Daphne, with the clock runner (``manage.py run_clocks``) in a
process of its own beside it: an online Locomotive Werks game with a clock between Ann (a
phone), Ben (a program on the API) and a bot. Ann's turn runs out (her deadline is set into the past in
the database: no waiting), the runner hands her seat to a bot, her page says so and the bot
moves; she taps "Take my seat back" and plays her next turn herself."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from django.utils import timezone

from games.models import Action, Seat
from tests.support.clock_runner import clock_runner, clock_running

from .conftest import auth

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def ben_plays_until_anns_turn(url: str, code: str, token: str) -> int:
    """Ben (over the API) passes, or does what he may, until he may not: Ann's turn. The version then."""
    for _ in range(30):
        state = httpx.get(f"{url}/api/games/{code}/state", headers=auth(token)).json()
        legal = state["legal_commands"]
        if not legal:
            return state["version"]
        command = next((c for c in legal if c["cmd"] == "pass"), legal[0])
        answer = httpx.post(f"{url}/api/games/{code}/commands", headers=auth(token),
                            json={**command, "expected_version": state["version"]})
        assert answer.status_code in (200, 409), answer.text
    raise AssertionError("Ben was never done")


def test_a_clocked_seat_goes_to_a_bot_when_time_runs_out_and_back_to_its_player(daphne, new_page):
    runner = clock_runner(tick=0.3, wait=False)  # starting while Daphne does
    try:
        url = daphne().url
        clock_running(runner)
        ann = new_page(width=390, height=844)
        ann.goto(url + "/")
        ann.select_option("#create-kind", "locomotive-werks")
        ann.select_option("#create-clock", "3600")
        ann.fill("#create-name", "Ann")
        ann.click("#create-submit")
        ann.wait_for_url("**/games/*/")
        code = ann.text_content("#room-code").strip()
        assert "Clock: 1 hour per turn." in ann.inner_text("#turn-clock")
        ben = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Ben"}).json()["token"]
        ann.wait_for_selector("#seat-list li[data-seat='1']")
        ann.click("#add-bot")  # the third of at least three
        ann.wait_for_selector("#seat-list li[data-seat='2']")
        ann.click("#start-game")
        ann.wait_for_selector("#lw-players .lw-player.me")

        ben_plays_until_anns_turn(url, code, ben)
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn')")
        ann.wait_for_function("document.querySelector('#turn-clock').textContent.startsWith('Your turn: ')")
        assert ann.inner_text("#turn-clock").endswith(" left.")
        SHOTS.mkdir(parents=True, exist_ok=True)
        ann.screenshot(path=str(SHOTS / "clock-your-turn.png"))

        # Ann's time runs out (as if an hour went by); the runner beside Daphne fires.
        Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        ann.wait_for_selector("#seat-away:not([hidden])", timeout=20_000)
        assert "Your time ran out: a bot is playing your seat." in ann.inner_text("#seat-away")
        ann.screenshot(path=str(SHOTS / "clock-away.png"))
        ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes('Time ran out for Ann')", timeout=20_000)
        bot_move = Action.objects.filter(game__code=code, seat=0, command_id__startswith="bot:")
        waited = time.monotonic() + 20
        while not bot_move.exists() and time.monotonic() < waited:
            time.sleep(0.1)
        assert bot_move.exists(), "the bot played Ann's turn"
        seen = bot_move.order_by("-sequence").first().sequence
        ann.wait_for_function(f"Number(document.body.dataset.version) >= {seen}", timeout=20_000)

        # Ann takes her seat back and plays her next turn herself.
        ann.click("#seat-return")
        ann.wait_for_selector("#seat-away", state="hidden")
        ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes('Ann took their seat back from the bot.')")
        assert not Seat.objects.get(game__code=code, index=0).away
        ben_plays_until_anns_turn(url, code, ben)
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn')", timeout=20_000)
        version = int(ann.evaluate("document.body.dataset.version"))
        ann.click("#lw-actions button[data-cmd=pass]")
        ann.wait_for_function(f"Number(document.body.dataset.version) > {version}")
        returned = Action.objects.get(game__code=code, command__action="seat-returned").sequence
        mine = Action.objects.filter(game__code=code, seat=0, sequence__gt=returned).exclude(command_id__startswith="bot:")
        assert mine.exists(), "Ann's own move after she took the seat back"

        # The host (Ann) hands Ben, who is away, to a bot until he is back: her own seat and the
        # bot's are not offered.
        ann.click("#rejoin-host > summary")
        assert ann.locator("#rejoin-host button[data-seat-bot]").all_inner_texts() == ["Bot plays for Ben"]
        ann.click("#rejoin-host button[data-seat-bot='1']")
        # (Its line in "this round so far" may be gone already: the bots may finish the round.)
        ann.wait_for_selector("#rejoin-host li:has(button[data-seat='1']) .tag:has-text('bot plays it until they are back')")
        assert Seat.objects.get(game__code=code, index=1).away
        handed = Action.objects.get(game__code=code, command__action="seat-to-bot", command__by="host")
        assert handed.events[0]["seat"] == 1 and handed.events[0]["away"] is True
        assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        runner.kill()
        runner.communicate(timeout=10)
