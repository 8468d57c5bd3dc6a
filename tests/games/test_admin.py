"""Game masters see every game with its seats and log in Django admin."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    get_user_model().objects.create_superuser("gm", "gm@example.com", "pw")
    client.login(username="gm", password="pw")
    return client


def test_game_list_and_change_page_show_seats_and_log(admin_client):
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2})
    game = Game.objects.get(code=code)
    listing = admin_client.get("/admin/games/game/")
    assert listing.status_code == 200 and code in listing.content.decode()
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Host" in page and "P1" in page  # seats
    assert "&quot;cmd&quot;: &quot;add&quot;" in page or '"cmd": "add"' in page  # the log
    assert admin_client.get(f"/admin/games/action/?q={code}").status_code == 200


def test_game_master_fixes_a_state_and_clients_are_told(admin_client, django_capture_on_commit_callbacks):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    form = _change_form(game, state='{"players": ["Host", "P1"], "secrets": [1, 2], "counter": 7, "target": 10, "turn": 1, "rolls": [], "winner": null, "rng": 5}')
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.state["counter"] == 7 and game.state["turn"] == 1
    assert len(callbacks) == 1, "connected clients get the corrected state after commit"


def _change_form(game, **changes):
    form = {
        "code": game.code, "kind": game.kind, "status": game.status, "seed": game.seed,
        "options": json.dumps(game.options), "state": json.dumps(game.state),
        "seats-TOTAL_FORMS": str(game.seats.count()), "seats-INITIAL_FORMS": str(game.seats.count()),
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
        "actions-TOTAL_FORMS": "0", "actions-INITIAL_FORMS": "0", "actions-MIN_NUM_FORMS": "0", "actions-MAX_NUM_FORMS": "0",
    }
    for i, seat in enumerate(game.seats.all()):
        form.update({f"seats-{i}-id": seat.pk, f"seats-{i}-game": game.pk, f"seats-{i}-index": seat.index,
                     f"seats-{i}-name": seat.name, f"seats-{i}-color": seat.color, f"seats-{i}-bot": ""})
        if seat.is_host:
            form[f"seats-{i}-is_host"] = "on"
    form.update(changes)
    return form


def test_an_edited_state_is_an_action_in_the_log_and_replay_still_matches(admin_client, api_client):
    from games.replay import game_replay
    from games.services import game_command

    from .factories import actor

    code, tokens = make_game()
    game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    game = Game.objects.get(code=code)
    edited = {**game.state, "counter": 7, "secrets": [987654321, 42]}
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", _change_form(game, state=json.dumps(edited)))
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert (game.version, game.state["counter"]) == (3, 7)
    last = game.actions.get(sequence=3)
    assert last.command == {"cmd": "edit-state", "by": "gm"} and last.seat is None
    assert game_replay(game=game) == game.state
    # Play goes on from the edited state, and replay keeps matching.
    game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 2})
    game.refresh_from_db()
    assert (game.version, game.state["counter"]) == (4, 9)
    assert game_replay(game=game) == game.state
    # The public log says an edit happened, never the state it wrote (every seat's secrets).
    log = api_client.get(f"/api/games/{code}/actions?after=2").json()
    entry = next(a for a in log if a["sequence"] == 3)
    assert entry["events"] == [{"type": "state-edited", "by": "gm"}]
    assert "987654321" not in json.dumps(log)


def test_a_page_older_than_the_game_is_refused_and_the_moves_made_meanwhile_stay(admin_client):
    from games.services import game_command

    from .factories import actor

    code, tokens = make_game()
    game = Game.objects.get(code=code)
    form = _change_form(game, options=json.dumps({**game.options, "note": "checked"}), loaded_version=game.version)
    game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2})  # while the page is open
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 200 and "moved on (version 1 → 2)" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 2 and game.state["counter"] == 2 and "note" not in game.options
    # Reloaded, the same change goes through and leaves the move alone.
    form = _change_form(game, options=json.dumps({**game.options, "note": "checked"}), loaded_version=game.version)
    assert admin_client.post(f"/admin/games/game/{game.pk}/change/", form).status_code == 302
    game.refresh_from_db()
    assert game.version == 2 and game.state["counter"] == 2 and game.options["note"] == "checked"


@pytest.mark.django_db(transaction=True)
def test_a_seat_handed_to_a_bot_reaches_every_process_and_the_bot_moves(admin_client, monkeypatch):
    """A remembered game (in this process, or as another process remembers it) is not trusted
    after a game master changes its seats: its next save fails the compare-and-set, the game is
    read again with its new seats, and the bot now on turn is scheduled."""
    from games import bots, store

    scheduled = []
    monkeypatch.setattr(bots, "bots_schedule", lambda game_id: scheduled.append(game_id))
    code, tokens = make_game(players=3)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    elsewhere = store._known[code]  # what another process would remember
    game = Game.objects.get(code=code)
    form = _change_form(game)
    form["seats-2-is_bot"], form["seats-2-bot"] = "on", "random"
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert code not in store._known
    store._remember(elsewhere)  # the other process's copy: its seats say seat 2 is a person
    scheduled.clear()
    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1})
    assert (2, True) in store._known[code].seat_list
    assert scheduled == [game.pk]  # seat 2 is on turn and is a bot now
    assert Game.objects.get(code=code).version == 3
