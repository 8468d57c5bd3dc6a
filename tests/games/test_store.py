"""The write path's hand-written SQL (games/store.py), on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import services, store
from games.models import Action, Game
from games.selectors import game_get

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def test_load_brings_the_game_its_seats_and_the_previous_result_of_a_command_id():
    code, tokens = make_game(players=3)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2}, command_id="x1")
    game = store.game_load(code=code, command_id="x1")
    stored = game_get(code=code)
    assert (game.pk, game.kind, game.code, game.status, game.version, game.state) == (
        stored.pk, "toy", code, "active", 2, stored.state
    )
    assert game.seat_list == [(0, False), (1, False), (2, False)]
    assert game.previous_sequence == 2
    assert store.game_load(code=code, command_id="never-used").previous_sequence is None
    assert store.game_load(code=code, command_id=None).previous_sequence is None
    assert store.game_load(code="ZZZZZ", command_id=None) is None


def test_load_marks_bot_seats():
    created = services.game_create(kind="toy", options={}, host_name="Host")
    host = actor(created.game.code, created.host_token)
    services.seat_add_bot(code=created.game.code, actor=host, bot="random")
    assert store.game_load(code=created.game.code, command_id=None).seat_list == [(0, False), (1, True)]


def _save(game, *, command_id=None, state=None):
    return store.move_save(
        game=game, state=state or {**game.state, "counter": 99}, seat=0, command={"cmd": "add", "n": 1},
        events=[{"type": "added"}], command_id=command_id, finished=False, now=timezone.now(),
    )


def test_compare_and_set_refuses_a_stale_version_and_writes_nothing():
    code, tokens = make_game()
    stale = store.game_load(code=code, command_id=None)
    assert _save(store.game_load(code=code, command_id=None))  # version 1 -> 2
    assert not _save(stale)  # still thinks version 1
    game = game_get(code=code)
    assert game.version == 2
    assert list(Action.objects.filter(game=game).values_list("sequence", flat=True)) == [1, 2]


def test_a_command_id_used_concurrently_undoes_the_whole_save():
    code, tokens = make_game()
    assert _save(store.game_load(code=code, command_id=None), command_id="dup")
    before = game_get(code=code)
    with pytest.raises(IntegrityError), transaction.atomic():
        _save(store.game_load(code=code, command_id=None), command_id="dup", state={**before.state, "counter": -1})
    after = game_get(code=code)
    assert (after.version, after.state) == (before.version, before.state)
    assert Action.objects.filter(game=after).count() == 2


def test_finishing_sets_status_and_time():
    code, tokens = make_game()
    game = store.game_load(code=code, command_id=None)
    now = timezone.now()
    assert store.move_save(game=game, state=game.state, seat=0, command={"cmd": "add", "n": 1}, events=[],
                           command_id=None, finished=True, now=now)
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Game.Status.FINISHED and stored.finished_at == now and stored.updated_at == now


def _terminate_this_connection(wait: bool) -> int:
    """Have the server end this process's session (as a restart would); its pid."""
    import select

    import psycopg

    pid = connection.connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], host=settings["HOST"], port=settings["PORT"] or 5432,
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    if wait:  # until the server's goodbye has reached the socket
        select.select([connection.connection.fileno()], [], [], 5)
    return pid


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("wait", [True, False], ids=["server-gone", "server-going"])
def test_a_connection_the_server_dropped_is_replaced_and_the_command_goes_through(wait):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL: the server ends the session")
    from django.db import close_old_connections

    code, tokens = make_game()
    seats = [actor(code, tokens[0]), actor(code, tokens[1])]
    close_old_connections()
    services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1})
    close_old_connections()  # the request ends: the connection is proven
    pid = _terminate_this_connection(wait)
    close_old_connections()  # the next request (a WebSocket command: its actor is known)
    result = services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 1})
    assert result.version == 3
    assert connection.connection.info.backend_pid != pid
    assert game_get(code=code).version == 3


@pytest.mark.django_db(transaction=True)
def test_an_http_request_after_the_server_dropped_the_connection_is_served(api_client):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL: the server ends the session")
    from django.db import close_old_connections

    code, tokens = make_game()
    # Django's test client leaves out what a served request does first and last.
    close_old_connections()
    assert api_client.get(f"/api/games/{code}").status_code == 200
    close_old_connections()
    _terminate_this_connection(wait=True)
    close_old_connections()
    response = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
    assert response.status_code == 200 and response.json()["version"] == 1
