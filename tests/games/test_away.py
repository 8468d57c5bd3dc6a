"""Away periods (games/away.py): a signed-in player's declared absence pauses their clocks in slow
games (their turn's deadline moves on; a turn that begins while they are away starts its clock when
they are back), never in live ones; ending it early gives the unused time back; the days are
limited; the table is shown it; the API takes only a signed-in session."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import away
from games.clocks import clocks_fire
from games.errors import ServiceError
from games.models import AwayPeriod, Seat

from .factories import make_game

DAY = timedelta(days=1)


@pytest.fixture
def ann(db):
    return get_user_model().objects.create_user("ann", password="a-long-password-1")


def game_with(user, **clock) -> tuple[str, dict[int, str]]:
    """A toy game (target 1000: it does not end) whose seat 0 is ``user``'s, with ``clock``."""
    code, tokens = make_game(players=2, host_name="Ann", options={"target": 1000}, **clock)
    Seat.objects.filter(game__code=code, index=0).update(user=user)
    return code, tokens


def seat(code: str, index: int) -> Seat:
    return Seat.objects.get(game__code=code, index=index)


def left(code: str, index: int) -> float:
    return (seat(code, index).turn_deadline - timezone.now()).total_seconds()


def post(client, path, body=None, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body) if body is not None else None, content_type="application/json", **headers)


def test_going_away_moves_the_deadline_of_a_slow_game_on_and_leaves_a_live_one(ann, django_capture_on_commit_callbacks):
    slow, _ = game_with(ann, turn_seconds=86400)
    banked, _ = game_with(ann, bank_seconds=259200, increment_seconds=86400)
    live, _ = game_with(ann, bank_seconds=600, increment_seconds=20)
    before = {code: seat(code, 0).turn_deadline for code in (slow, banked, live)}
    with django_capture_on_commit_callbacks(execute=True):
        period = away.away_declare(user=ann, days=3)
    assert period.ends_at - period.starts_at == 3 * DAY
    assert seat(slow, 0).turn_deadline == before[slow] + 3 * DAY
    assert seat(banked, 0).turn_deadline == before[banked] + 3 * DAY
    assert seat(live, 0).turn_deadline == before[live]  # a live table is waiting now: no pause
    # A day on, the clock runner fires the live game's turn only: the slow games' clocks wait.
    assert clocks_fire(now=before[slow] + timedelta(minutes=1)) == 1
    assert [seat(code, 0).expiries for code in (slow, banked, live)] == [0, 0, 1]
    # The table is shown it (slow games only).
    from games.selectors import game_summary

    assert game_summary(seat(slow, 0).game)["seats"][0]["away_until"] == period.ends_at.isoformat()
    assert game_summary(seat(slow, 0).game)["seats"][1]["away_until"] is None
    assert game_summary(seat(live, 0).game)["seats"][0]["away_until"] is None


def test_a_turn_that_begins_while_away_starts_its_clock_when_the_player_is_back(ann, api_client, django_capture_on_commit_callbacks):
    code, tokens = game_with(ann, bank_seconds=259200, increment_seconds=86400)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, tokens[0]).status_code == 200
    bank = seat(code, 0).bank_left
    with django_capture_on_commit_callbacks(execute=True):
        period = away.away_declare(user=ann, days=2)
        assert post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, tokens[1]).status_code == 200
    # Her turn began while she is away: its clock starts at the end of her absence.
    assert abs((seat(code, 0).turn_deadline - period.ends_at).total_seconds() - bank) < 2
    # She moves anyway, while away: none of her bank is spent (nor gained: the absence is not hers to bank).
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, tokens[0]).status_code == 200
    assert abs(seat(code, 0).bank_left - (bank + 86400)) < 2


def test_ending_early_gives_the_unused_time_back(ann, django_capture_on_commit_callbacks):
    code, _ = game_with(ann, turn_seconds=86400)
    with django_capture_on_commit_callbacks(execute=True):
        away.away_declare(user=ann, days=5)
    assert 6 * 86400 - 5 < left(code, 0) <= 6 * 86400
    with django_capture_on_commit_callbacks(execute=True):
        ended = away.away_end(user=ann)
    assert ended is not None and 86400 - 5 < left(code, 0) <= 86400  # as if she never left
    assert away.away_end(user=ann) is None  # not away any more
    assert away.away_status(user=ann).current is None


def test_away_periods_are_limited_in_length_and_per_30_days(ann, settings):
    settings.JUNCTION_AWAY_MAX_DAYS, settings.JUNCTION_AWAY_DAYS_PER_30 = 7, 10
    for wrong in (0, 8, "3", 2.5, True):
        with pytest.raises(ServiceError) as refused:
            away.away_declare(user=ann, days=wrong)
        assert refused.value.code == "invalid-away", wrong
    away.away_declare(user=ann, days=7)
    with pytest.raises(ServiceError) as twice:
        away.away_declare(user=ann, days=1)
    assert (twice.value.code, twice.value.status) == ("away-already", 409)
    # Back after 7 days: 3 days are left in these 30.
    later = timezone.now() + 7 * DAY + timedelta(minutes=1)
    assert away.away_status(user=ann, now=later).days_left == 3
    with pytest.raises(ServiceError) as over:
        away.away_declare(user=ann, days=4, now=later)
    assert (over.value.code, over.value.status) == ("away-limit", 409)
    away.away_declare(user=ann, days=3, now=later)
    # Thirty days after the first, its days count no more.
    assert away.away_status(user=ann, now=timezone.now() + 31 * DAY).days_left == 7
    assert AwayPeriod.objects.filter(user=ann).count() == 2


def test_the_api_takes_a_signed_in_session_and_says_what_is_left(ann, client, api_client):
    assert api_client.get("/api/me/away").status_code == 401
    refused = post(api_client, "/api/me/away", {"days": 2})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "sign-in-required"
    client.force_login(ann)
    status = client.get("/api/me/away").json()
    assert status == {"away": False, "starts_at": None, "ends_at": None, "days_used": 0, "days_left": 10, "max_days": 7}
    declared = client.post("/api/me/away", data=json.dumps({"days": 2}), content_type="application/json")
    assert declared.status_code == 200, declared.content
    assert declared.json()["away"] is True and declared.json()["days_left"] == 8
    for body in ({"days": 0}, {"days": "x"}, {}, [1], {"days": 9}):
        bad = client.post("/api/me/away", data=json.dumps(body), content_type="application/json")
        assert bad.status_code in (400, 409) and bad.json()["error"]["code"] in ("invalid-request", "invalid-away", "away-already"), body
    again = client.post("/api/me/away", data=json.dumps({"days": 1}), content_type="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "away-already"
    back = client.delete("/api/me/away")
    assert back.status_code == 200 and back.json()["away"] is False
    # A session without its CSRF token is refused (the page sends it).
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ann)
    assert strict.post("/api/me/away", data=json.dumps({"days": 1}), content_type="application/json").status_code == 403
