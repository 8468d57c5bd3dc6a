"""Your data (players/data.py, /me/account): the download holds the account, settings, ratings and
every game the player sat in with its whole log; deleting the account (confirmed by typing the
username, with CSRF) makes the player's seats guests' seats, keeps every game's log whole, drops
the device tokens, push devices and ratings, and signs the player out."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import broadcast, services
from games.models import Action, Game, Seat, SeatToken
from games.replay import game_replay
from players.models import Profile, PushSubscription, Rating, RatingChange
from tests.games.factories import actor

from .tables import commit, committed, play, table, user  # noqa: F401  (commit: a fixture, used by every test)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit")]


def rated_game(ann, bob) -> Game:
    code, tokens = table({0: ann, 1: bob})
    return play(code, tokens, [(0, 1), (1, 2)])


def test_download_holds_my_account_settings_ratings_and_whole_games(client):
    ann, bob = user("ann"), user("bob")
    Profile.objects.create(user=ann, turn_notices=Profile.Notices.EMAIL)
    game = rated_game(ann, bob)
    code, _tokens = table({1: bob}, target=20)  # not ann's
    client.force_login(ann)
    response = client.get("/me/account/download")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="junction-my-data-')
    data = json.loads(response.content)
    assert (data["username"], data["email"]) == ("ann", "ann@example.com")
    assert data["profile"] == {"turn_notices": "email"}
    assert [(r["kind"], r["games"]) for r in data["ratings"]] == [("toy", 1)]
    assert [c["code"] for c in data["rating_changes"]] == [game.code]
    assert [g["code"] for g in data["games"]] == [game.code]
    mine = data["games"][0]
    assert (mine["kind"], mine["status"], mine["seed"], mine["options"]) == ("toy", "finished", game.seed, game.options)
    assert [s["name"] for s in mine["seats"]] == ["Host", "P1"] and mine["my_seats"] == [0]
    logged = list(Action.objects.filter(game=game).order_by("sequence").values_list("sequence", "command"))
    assert [(a["sequence"], a["command"]) for a in mine["log"]] == logged
    assert mine["log"][-1]["events"][-1] == {"type": "won", "seat": 1}


def test_the_account_pages_need_signing_in(client):
    assert client.get("/me/account").status_code == 302
    assert client.get("/me/account/download").status_code == 302
    assert client.post("/me/account/delete", {"confirm": "x"}).status_code == 302


def test_delete_my_account_keeps_the_games_and_makes_my_seats_guests(monkeypatch, django_capture_on_commit_callbacks):
    ann, bob = user("ann"), user("bob")
    game = rated_game(ann, bob)
    code, tokens = table({0: ann, 1: bob}, target=20)  # still being played
    live = Game.objects.get(code=code)
    ann_seat = Seat.objects.get(game=live, index=0)
    SeatToken.objects.create(seat=ann_seat, token_hash="a" * 64, user=ann)
    PushSubscription.objects.create(user=ann, endpoint="https://push.example/ann", p256dh="k", auth="a")
    logs = {g.pk: list(Action.objects.filter(game=g).order_by("sequence").values_list("sequence", "seat", "command", "events"))
            for g in (game, live)}
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    page = browser.get("/me/account")
    assert page.status_code == 200 and b"Delete my account" in page.content
    csrf = browser.cookies["csrftoken"].value
    assert browser.post("/me/account/delete", {"confirm": "ann"}).status_code == 403  # no CSRF token
    wrong = browser.post("/me/account/delete", {"confirm": "Ann", "csrfmiddlewaretoken": csrf})
    assert wrong.status_code == 400 and b"account-delete-error" in wrong.content
    assert get_user_model().objects.filter(pk=ann.pk).exists()

    sent: list = []
    monkeypatch.setattr(broadcast, "send", sent.extend)
    with django_capture_on_commit_callbacks(execute=True):
        done = browser.post("/me/account/delete", {"confirm": "ann", "csrfmiddlewaretoken": csrf})
    assert done.status_code == 302 and done["Location"] == "/me/account/deleted"
    assert not get_user_model().objects.filter(username="ann").exists()
    assert browser.get("/me/account").status_code == 302  # signed out
    assert browser.get("/me/account/deleted").status_code == 200
    # The seats stay, as guests', with their names and tokens; the logs are whole.
    assert list(Seat.objects.filter(game__in=[game, live], index=0).values_list("user_id", "name")) == [(None, "Host")] * 2
    assert Seat.objects.filter(game__in=[game, live], index=1, user=bob).count() == 2
    for g in (game, live):
        assert list(Action.objects.filter(game=g).order_by("sequence").values_list("sequence", "seat", "command", "events")) == logs[g.pk]
    assert game_replay(game=Game.objects.get(pk=game.pk)) == Game.objects.get(pk=game.pk).state
    assert not SeatToken.objects.exists() and not PushSubscription.objects.exists()
    # The sockets a device token opened on ann's seat are told it is gone, and close (as after a rejoin).
    assert (broadcast.game_group(live.pk), {"type": "seat.moved", "token_hash": "a" * 64, "seat": 0}) in sent
    assert list(Rating.objects.values_list("user__username", flat=True)) == ["bob"]
    assert list(RatingChange.objects.values_list("user__username", flat=True)) == ["bob"]
    # The device that held ann's seat plays it on, as a guest.
    committed(services.game_command, code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    assert Game.objects.get(code=code).state["counter"] == 1
