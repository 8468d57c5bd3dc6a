"""Lobby games nobody started expire (services.games_expire, manage.py expire_lobby_games):
they become abandoned, leave the open-games list, and the lobby and their waiting rooms hear it."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import broadcast, services
from games.models import Game, Seat
from games.selectors import game_get, game_summary, open_games

from .factories import make_game

pytestmark = pytest.mark.django_db

HOUR = 3600


def lobby_game(*, age: float, seat_age: float | None = None) -> str:
    """A lobby game created (and last changed) ``age`` seconds ago; with ``seat_age`` a player
    joined it that long ago."""
    code, _ = make_game(players=1, start=False)
    then = timezone.now() - timedelta(seconds=age)
    # An open table (games/listing.py), so that leaving the open-games list is seen.
    Game.objects.filter(code=code).update(created_at=then, updated_at=then, listed=True)
    Seat.objects.filter(game__code=code).update(joined_at=then)
    if seat_age is not None:
        seat, _, _ = services.seat_join(code=code, name="Late")
        Seat.objects.filter(pk=seat.pk).update(joined_at=timezone.now() - timedelta(seconds=seat_age))
    return code


def status(code: str) -> str:
    return Game.objects.get(code=code).status


@pytest.fixture
def sent(monkeypatch):
    messages: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: messages.extend(batch))
    return messages


def test_old_unstarted_lobby_games_become_abandoned_and_nothing_else(settings, sent, django_capture_on_commit_callbacks):
    settings.JUNCTION_LOBBY_TTL = 24 * HOUR
    old = lobby_game(age=25 * HOUR)
    young = lobby_game(age=23 * HOUR)
    joined_lately = lobby_game(age=30 * HOUR, seat_age=HOUR)
    started, _ = make_game(players=2)
    revision_before = game_summary(game_get(code=old))["revision"]
    Game.objects.filter(code=started).update(created_at=timezone.now() - timedelta(days=3), updated_at=timezone.now() - timedelta(days=3))

    assert old in [g.code for g in open_games(status="lobby")]
    with django_capture_on_commit_callbacks(execute=True):
        assert services.games_expire() == 1
    assert status(old) == "abandoned"
    assert (status(young), status(joined_lately), status(started)) == ("lobby", "lobby", "active")
    assert old not in [g.code for g in open_games(status="lobby")]
    assert Game.objects.get(code=old).updated_at > timezone.now() - timedelta(minutes=1)

    # The lobby hears it once; the game's waiting rooms get its summary (status abandoned).
    lobby = [m for group, m in sent if group == broadcast.LOBBY_GROUP]
    assert len(lobby) == 1 and json.loads(lobby[0]["text"]) == {"type": "lobby-changed"}
    rooms = [m for group, m in sent if group == broadcast.game_group(Game.objects.get(code=old).pk)]
    assert len(rooms) == 1 and json.loads(rooms[0]["summary"])["game"]["status"] == "abandoned"
    # Newer than any summary read before it expired: pages keep it over one of those arriving late.
    assert json.loads(rooms[0]["summary"])["game"]["revision"] > revision_before

    with django_capture_on_commit_callbacks(execute=True):
        assert services.games_expire() == 0  # nothing left to expire: nothing sent
    assert len(sent) == 2


def test_expiry_works_in_batches_with_one_lobby_message_each(sent, django_capture_on_commit_callbacks):
    codes = [lobby_game(age=2 * HOUR) for _ in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        assert services.games_expire(ttl=HOUR, batch=2) == 5
    assert {status(code) for code in codes} == {"abandoned"}
    assert sum(1 for group, _ in sent if group == broadcast.LOBBY_GROUP) == 3  # batches of 2, 2, 1


def test_a_game_started_after_the_selection_is_left_alone(monkeypatch, sent):
    """The UPDATE re-checks the conditions: a game that changed meanwhile is not expired."""
    code = lobby_game(age=2 * HOUR)
    real_update = type(Game.objects.all()).update

    def start_first(queryset, **kwargs):  # someone starts the game just before the UPDATE
        real_update(Game.objects.filter(code=code), status=Game.Status.ACTIVE, updated_at=timezone.now())
        return real_update(queryset, **kwargs)

    monkeypatch.setattr(type(Game.objects.all()), "update", start_first)
    assert services.games_expire(ttl=HOUR) == 0
    monkeypatch.undo()
    assert status(code) == "active"


def test_the_management_command(settings, sent):
    settings.JUNCTION_LOBBY_TTL = HOUR
    old, young = lobby_game(age=2 * HOUR), lobby_game(age=60)
    out = StringIO()
    call_command("expire_lobby_games", stdout=out)
    assert "1 lobby game(s) expired" in out.getvalue()
    assert (status(old), status(young)) == ("abandoned", "lobby")
    call_command("expire_lobby_games", "--ttl", "30", stdout=out)
    assert status(young) == "abandoned"
