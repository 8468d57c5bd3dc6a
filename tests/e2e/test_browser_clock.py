"""Clocks in Chromium against Daphne, with the clock runner (``manage.py run_clocks``) in a
process of its own beside it: an online Locomotive Werks game with a time bank (10 minutes + 20 s a
turn) between Ann (a phone), Ben (a program on the API) and a bot. Ann's bank runs out (her deadline
is set into the past in the database: no waiting): the bot plays that turn for her, her page says so,
and the seat is hers again; her next turn has the increment only and runs out too, so the bot keeps
the seat (two in a row here); she taps "Take my seat back" and plays her next turn herself."""

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


def ben_plays_until_anns_turn(url: str, code: str, token: str) -> None:
    """Ben (over the API) passes, or does what he may, until it is Ann's turn (the bot's turns in
    between are the server's: he waits for them)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if Seat.objects.filter(game__code=code, index=0, turn_started_at__isnull=False).exists():
            return
        state = httpx.get(f"{url}/api/games/{code}/state", headers=auth(token)).json()
        legal = state["legal_commands"]
        if not legal:
            time.sleep(0.2)
            continue
        command = next((c for c in legal if c["cmd"] == "pass"), legal[0])
        answer = httpx.post(f"{url}/api/games/{code}/commands", headers=auth(token),
                            json={**command, "expected_version": state["version"]})
        assert answer.status_code in (200, 409), answer.text
    raise AssertionError("it never was Ann's turn")


def bot_moves_for(code: str, seat: int) -> int:
    return Action.objects.filter(game__code=code, seat=seat, command_id__startswith="bot:").count()


def wait_until(check, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_bank_runs_out_the_bot_plays_that_turn_only_and_after_two_in_a_row_keeps_the_seat_until_taken_back(daphne, new_page):
    # Two expiries in a row before the bot keeps the seat (the default is 3); the runner's bot takes
    # a moment to move, so the banner of a turn played for Ann can be seen (on the embedded default the
    # runner's changes reach the page by its resync, every few seconds).
    runner = clock_runner(tick=0.3, wait=False, extra_env={"JUNCTION_CLOCK_EXPIRIES_KEEP": "2", "JUNCTION_BOT_DELAY": "5"})
    try:
        url = daphne().url
        clock_running(runner)
        ann = new_page(width=390, height=844)
        ann.goto(url + "/")
        ann.select_option("#create-kind", "locomotive-werks")
        ann.select_option("#create-clock", "600+20")
        ann.fill("#create-name", "Ann")
        ann.click("#create-submit")
        ann.wait_for_url("**/games/*/")
        code = ann.text_content("#room-code").strip()
        assert "Clock: 10 minutes + 20 s a turn." in ann.inner_text("#turn-clock")
        assert "a bot plays that turn for them; the seat stays theirs" in ann.inner_text("#turn-clock")
        ben = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Ben"}).json()["token"]
        ann.wait_for_selector("#seat-list li[data-seat='1']")
        ann.click("#add-bot")  # the third of at least three
        ann.wait_for_selector("#seat-list li[data-seat='2']")
        ann.click("#start-game")
        ann.wait_for_selector("#lw-players .lw-player.me")

        ben_plays_until_anns_turn(url, code, ben)
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn')")
        ann.wait_for_function("/^Your turn: (10:00|9:[0-5][0-9]) left\\./.test(document.querySelector('#turn-clock').textContent)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        ann.screenshot(path=str(SHOTS / "clock-your-turn.png"))

        # Ann's bank runs out (as if ten minutes went by); the runner beside Daphne fires: the bot plays
        # this turn for her, and the seat is hers again when it ends.
        Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        ann.wait_for_selector("#seat-away:not([hidden])", timeout=20_000)
        assert "a bot is playing this turn for you. The seat is yours again when it ends." in ann.inner_text("#seat-away")
        ann.screenshot(path=str(SHOTS / "clock-turn-played-for-you.png"))
        ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes('Time ran out for Ann: a bot')", timeout=20_000)
        assert "plays this turn for them; the seat stays theirs." in ann.inner_text("#lw-recent")
        wait_until(lambda: bot_moves_for(code, 0) >= 1 and not Seat.objects.get(game__code=code, index=0).away,
                   "the bot played Ann's turn and gave the seat back")
        ann.wait_for_selector("#seat-away", state="hidden", timeout=20_000)
        mine = Seat.objects.get(game__code=code, index=0)
        assert (mine.is_bot, mine.expiries, mine.bank_left) == (False, 1, 20.0)  # the bank ran out: the increment is what it has

        # Her next turn has the increment only; it runs out too (a second in a row): the bot keeps the seat.
        ben_plays_until_anns_turn(url, code, ben)
        ann.wait_for_function("/^Your turn: 0:[0-2][0-9] left\\./.test(document.querySelector('#turn-clock').textContent)"
                              " || !document.querySelector('#seat-away').hidden", timeout=20_000)
        Seat.objects.filter(game__code=code, index=0, is_bot=False).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        ann.wait_for_function("document.querySelector('#seat-away-words').textContent === 'Your time ran out: a bot is playing your seat.'",
                              timeout=20_000)
        ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes('Time ran out for Ann 2 turns in a row')",
                              timeout=20_000)
        ann.screenshot(path=str(SHOTS / "clock-away.png"))
        wait_until(lambda: bot_moves_for(code, 0) >= 2, "the bot played Ann's seat")
        assert Seat.objects.get(game__code=code, index=0).away  # it keeps the seat after its turn

        # Ann takes her seat back and plays her next turn herself.
        ann.click("#seat-return")
        ann.wait_for_selector("#seat-away", state="hidden")
        ann.wait_for_function("document.querySelector('#lw-recent').innerText.includes('Ann took their seat back from the bot.')")
        assert not Seat.objects.get(game__code=code, index=0).away
        ben_plays_until_anns_turn(url, code, ben)
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn')", timeout=20_000)
        returned = Action.objects.get(game__code=code, command__action="seat-returned").sequence
        ann.wait_for_function(f"Number(document.body.dataset.version) >= {returned}")
        ann.click("#lw-actions button[data-cmd=pass]")
        mine = Action.objects.filter(game__code=code, seat=0, sequence__gt=returned).exclude(command_id__startswith="bot:")
        try:
            wait_until(mine.exists, "Ann's own move after she took the seat back")
        except AssertionError:
            raise AssertionError(("Ann's own move after she took the seat back", ann.inner_text("main"),
                                  list(Action.objects.filter(game__code=code, sequence__gte=returned - 3).values_list("sequence", "seat", "command")))) from None
        assert Seat.objects.get(game__code=code, index=0).expiries == 0

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
