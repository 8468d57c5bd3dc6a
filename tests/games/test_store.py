"""The write path's hand-written SQL (games/store.py), on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import services, store
from games.errors import Conflict, ServiceError
from games.models import Action, Game
from games.selectors import game_get

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def test_load_brings_the_game_its_seats_and_the_previous_result_of_a_command_id():
    code, tokens = make_game(players=3)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2}, command_id="x1")
    game = store.game_load(code=code, command_id="x1", fresh=True)
    stored = game_get(code=code)
    assert (game.pk, game.kind, game.code, game.status, game.version, game.state) == (
        stored.pk, "toy", code, "active", 2, stored.state
    )
    assert game.seat_list == [(0, False), (1, False), (2, False)]
    assert game.previous_sequence == 2
    assert store.game_load(code=code, command_id="never-used", fresh=True).previous_sequence is None
    assert store.game_load(code=code, command_id=None, fresh=True).previous_sequence is None
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
    assert _save(store.game_load(code=code, command_id=None, fresh=True))  # version 1 -> 2
    assert not _save(stale)  # still thinks version 1
    game = game_get(code=code)
    assert game.version == 2
    assert list(Action.objects.filter(game=game).values_list("sequence", flat=True)) == [1, 2]


def test_a_command_id_used_concurrently_undoes_the_whole_save():
    code, tokens = make_game()
    assert _save(store.game_load(code=code, command_id=None), command_id="dup")
    before = game_get(code=code)
    with pytest.raises(IntegrityError), transaction.atomic():
        _save(store.game_load(code=code, command_id=None, fresh=True), command_id="dup", state={**before.state, "counter": -1})
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


def _terminate_this_connection(wait: bool) -> set[int]:
    """Have the server end this process's sessions, the pooled ones included (as a restart
    would); their pids."""
    import time

    import psycopg

    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], host=settings["HOST"], port=settings["PORT"] or 5432,
        autocommit=True,
    ) as other:
        rows = other.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    if wait:  # until the server's goodbye has reached the sockets
        time.sleep(0.3)
    return {pid for pid, _ in rows}


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
    pids = _terminate_this_connection(wait)
    close_old_connections()  # the next request (a WebSocket command: its actor is known)
    result = services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 1})
    assert result.version == 3
    assert connection.connection.info.backend_pid not in pids
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


# --- games this process remembers ------------------------------------------------------
# Transactional tests: what is remembered after a save waits for the commit.


def _game_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if "games_game" in q["sql"] and q["sql"].lstrip().upper().startswith("SELECT")]


@pytest.mark.django_db(transaction=True)
def test_the_next_command_on_a_game_this_process_saved_skips_the_load():
    from django.test.utils import CaptureQueriesContext

    code, tokens = make_game()
    seats = [actor(code, tokens[0]), actor(code, tokens[1])]
    services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1})
    with CaptureQueriesContext(connection) as queries:
        result = services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 2})
    assert result.version == 3
    assert _game_queries(queries) == []  # no load: only the compare-and-set (+ append)
    assert game_get(code=code).state["counter"] == 3


@pytest.mark.django_db(transaction=True)
def test_a_game_another_process_moved_is_read_afresh_and_nothing_is_refused_wrongly():
    code, tokens = make_game()
    seats = [actor(code, tokens[0]), actor(code, tokens[1])]
    services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1})  # v2, seat 1 to move
    seen_here = store._known[code]
    services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 1})  # v3, "elsewhere"
    store._remember(seen_here)  # this process still thinks: v2, seat 1 to move

    # Seat 0 is on turn at v3 although this process remembers seat 1's turn: not refused.
    result = services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1}, expected_version=3)
    assert result.version == 4
    store._remember(seen_here)
    # Seat 1 may move again (v4): applying on the remembered v2 would pass, the CAS fails.
    assert services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 1}).version == 5
    store._remember(seen_here)
    with pytest.raises(ServiceError) as refused:  # seat 1 again: refused by the real state
        services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 1})
    assert refused.value.code == "not-your-turn"
    game = game_get(code=code)
    assert (game.version, game.state["counter"]) == (5, 4)
    assert list(game.actions.values_list("sequence", flat=True)) == [1, 2, 3, 4, 5]


@pytest.mark.django_db(transaction=True)
def test_a_game_master_edit_is_not_overwritten_by_what_this_process_remembers():
    code, tokens = make_game()
    seats = [actor(code, tokens[0]), actor(code, tokens[1])]
    services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1})
    assert code in store._known
    edited = Game.objects.get(code=code)
    edited.state["counter"] = 500  # as the admin's form saves it (same version)
    edited.save()
    services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 2})
    assert game_get(code=code).state["counter"] == 502


@pytest.mark.django_db(transaction=True)
def test_a_retried_command_id_on_a_remembered_game_returns_the_first_result():
    code, tokens = make_game()
    seat0 = actor(code, tokens[0])
    first = services.game_command(code=code, actor=seat0, command={"cmd": "add", "n": 3}, command_id="once")
    assert code in store._known
    again = services.game_command(code=code, actor=seat0, command={"cmd": "add", "n": 3}, command_id="once")
    assert again.duplicate and (again.version, again.events) == (first.version, first.events)
    # Even when the retry would apply again on what is remembered (seat 0's turn at v1).
    store._remember(replace(store._known[code], version=1))
    again = services.game_command(code=code, actor=seat0, command={"cmd": "add", "n": 3}, command_id="once")
    assert again.duplicate and again.version == 2
    assert game_get(code=code).version == 2 and game_get(code=code).state["counter"] == 3


@pytest.mark.django_db(transaction=True)
def test_finished_and_abandoned_games_are_not_remembered():
    code, tokens = make_game(options={"target": 3})
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 3})
    assert game_get(code=code).status == Game.Status.FINISHED
    assert code not in store._known
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    services.game_abandon(code=code, actor=actor(code, tokens[0]))
    with pytest.raises(Conflict) as refused:
        services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1})
    assert refused.value.code == "game-abandoned"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("breaks", ["after-commit", "before-commit"])
def test_a_connection_lost_with_the_outcome_unknown_is_resolved_from_the_log(monkeypatch, breaks):
    """The move is in the log exactly once, and the caller is told the truth."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL: the compare-and-set and append are one autocommitted statement")
    from django.db import OperationalError

    code, tokens = make_game()
    seat0 = actor(code, tokens[0])
    original = store._execute
    broken = []

    def execute(sql, params):
        if sql.startswith("WITH moved") and not broken:
            broken.append(sql)
            if breaks == "after-commit":
                original(sql, params)
            raise OperationalError("server closed the connection unexpectedly")
        return original(sql, params)

    monkeypatch.setattr(store, "_execute", execute)
    result = services.game_command(code=code, actor=seat0, command={"cmd": "add", "n": 2})
    assert broken and result.version == 2
    game = game_get(code=code)
    assert (game.version, game.state["counter"]) == (2, 2)
    assert list(game.actions.values_list("sequence", flat=True)) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_a_move_saved_inside_a_callers_transaction_is_remembered_at_its_own_version():
    code, tokens = make_game()
    with transaction.atomic():  # the remembering waits for this commit
        result = services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
        assert store._known[code].version == 1  # as loaded: the move is remembered once committed
    assert store._known[code].version == result.version == game_get(code=code).version == 2
    assert services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1}).version == 3


@pytest.mark.django_db(transaction=True)
def test_a_remembered_state_written_by_orjson_is_read_back_by_it_and_equals_the_stored_one():
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    known = store._known[code]
    assert known.state_ours  # written by this process's save
    assert store.game_recall(code=code).state == game_get(code=code).state
    loaded = store.game_load(code=code, command_id=None, fresh=True)  # the database's text: the standard library reads it
    assert not store._known[code].state_ours and loaded.state == game_get(code=code).state


@pytest.mark.django_db(transaction=True)
def test_a_move_made_by_another_process_is_remembered_from_its_broadcast(monkeypatch):
    """Two processes, one store each: a move made in one reaches the other with the game as the
    first remembers it (through the channel layer: msgpack), so the other's next move saves
    against it at once, without losing its compare-and-set and reading the game again."""
    import msgpack

    from games import broadcast

    code, tokens = make_game()
    seats = [actor(code, tokens[0]), actor(code, tokens[1])]
    services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 1})
    here = store._known[code]  # what the other process remembers: version 2
    with broadcast.collecting() as outbox:
        services.game_command(code=code, actor=seats[1], command={"cmd": "add", "n": 2})  # made "there": version 3
    [(_, update)] = outbox
    there = store._known[code]
    store._remember(here)
    broadcast.update_received(msgpack.unpackb(msgpack.packb(update)))  # as a socket here gets it
    assert store._known[code].version == 3
    assert replace(store._known[code], read_at=0) == replace(there, read_at=0)
    reads = []
    real_fetch = store._fetch_one
    monkeypatch.setattr(store, "_fetch_one", lambda *a: reads.append(a) or real_fetch(*a))  # no load: the save must not lose
    assert services.game_command(code=code, actor=seats[0], command={"cmd": "add", "n": 3}).version == 4
    assert reads == [] and game_get(code=code).state["counter"] == 6


@pytest.mark.django_db(transaction=True)
def test_an_update_without_the_game_makes_this_process_forget_an_older_copy():
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    store.known_receive(code, 2, None)  # the same version: kept
    assert store._known[code].version == 2
    store.known_receive(code, 3, None)  # a newer one this process cannot rebuild: forgotten
    assert code not in store._known
