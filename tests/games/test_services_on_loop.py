"""``game_command_async``: the WebSocket consumer's way into the write path.

On PostgreSQL a move of a game this process remembers is saved by awaiting the one
compare-and-set statement on the event loop; every other case runs ``game_command`` in the
database thread, before anything is written. Either way the result, the log and the
broadcast are the ones ``game_command`` gives."""

from __future__ import annotations

from dataclasses import replace

import psycopg
import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from games import broadcast, services, store
from games.models import Game
from games.selectors import game_get

from .factories import actor, make_game

pytestmark = pytest.mark.django_db(transaction=True)  # the loop's connection is its own session


def on_loop(code, token, n=1, **kw):
    return async_to_sync(services.game_command_async)(code=code, actor=actor(code, token), command={"cmd": "add", "n": n}, **kw)


@pytest.fixture
def thread_path(monkeypatch):
    """The commands that went to ``game_command`` (the database thread)."""
    calls = []
    original = services.game_command

    def counted(**kw):
        calls.append(kw["command"])
        return original(**kw)

    monkeypatch.setattr(services, "game_command", counted)
    return calls


def log_of(code):
    game = game_get(code=code)
    return game.version, game.state["counter"], list(game.actions.values_list("sequence", flat=True))


def test_a_game_remembered_a_minute_ago_still_moves_on_the_loop(thread_path):
    """A table whose moves are seconds or minutes apart stays on the loop: a remembered game is
    read again only after ``store.KNOWN_FOR`` (seat changes move ``updated_at`` instead). At 10 s,
    a table moving every 4 s went to the database thread every third move."""
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)
    assert len(thread_path) == 1
    store._remember(replace(store._known[code], read_at=store._known[code].read_at - 60))
    on_loop(code, tokens[1], 1)
    assert len(thread_path) == (1 if connection.vendor == "postgresql" else 2)
    store._remember(replace(store._known[code], read_at=store._known[code].read_at - store.KNOWN_FOR))
    on_loop(code, tokens[0], 1)  # past KNOWN_FOR: read again (its seats too), in the database thread
    assert len(thread_path) == (2 if connection.vendor == "postgresql" else 3)
    assert log_of(code) == (4, 3, [1, 2, 3, 4])


def test_a_remembered_game_moves_on_the_loop_and_broadcasts_each_seat_its_view(thread_path):
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)  # nothing remembered yet: the database thread loads it
    assert len(thread_path) == 1
    with broadcast.collecting() as outbox:
        result = on_loop(code, tokens[1], 2, command_id="c-2")
    assert (result.version, result.events[0]["counter"]) == (3, 3)
    assert len(thread_path) == (1 if connection.vendor == "postgresql" else 2)
    assert log_of(code) == (3, 3, [1, 2, 3])
    [(group, update)] = outbox
    assert group == broadcast.game_group(game_get(code=code).id) and update["summary"] is None
    assert set(update["states"]) == {"0", "1", "watch"}
    assert '"version":3' in update["states"]["0"] and '"my_secret":null' in update["states"]["watch"]
    # What the loop saved is remembered: the next move needs no load either.
    assert on_loop(code, tokens[0], 1).version == 4
    assert len(thread_path) == (1 if connection.vendor == "postgresql" else 3)


def test_what_another_process_did_is_checked_in_the_database_thread(thread_path):
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)  # v2, seat 1 to move
    seen_here = store._known[code]
    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1})  # v3 "elsewhere"
    thread_path.clear()

    store._remember(seen_here)  # seat 0 is refused by what is remembered: re-checked, accepted
    assert on_loop(code, tokens[0], 1, expected_version=3).version == 4
    store._remember(seen_here)  # seat 1 passes on what is remembered; its save fails, is redone
    assert on_loop(code, tokens[1], 1).version == 5
    assert len(thread_path) == 2
    assert log_of(code) == (5, 4, [1, 2, 3, 4, 5])


def test_a_repeated_command_id_gets_the_first_result(thread_path):
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)
    first = on_loop(code, tokens[1], 2, command_id="once")
    # Applied again on what is remembered (seat 1's turn at v2), the log refuses the id.
    store._remember(replace(store._known[code], version=2))
    again = on_loop(code, tokens[1], 2, command_id="once")
    assert again.duplicate and (again.version, again.events) == (first.version, first.events)
    assert log_of(code) == (3, 3, [1, 2, 3])


@pytest.mark.parametrize("breaks", ["after-commit", "before-commit"])
def test_a_connection_lost_with_the_outcome_unknown_is_resolved_from_the_log(monkeypatch, breaks):
    if connection.vendor != "postgresql":
        pytest.skip("the loop's connection is PostgreSQL's")
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)
    original = store._loop_connection
    broken = []

    class Breaking:
        def __init__(self, conn):
            self.conn = conn

        def __getattr__(self, name):  # closed, broken, close(): the real connection's
            return getattr(self.conn, name)

        async def execute(self, sql, params, **kw):
            broken.append(sql)
            if breaks == "after-commit":
                await self.conn.execute(sql, params, **kw)
            raise psycopg.OperationalError("server closed the connection unexpectedly")

    async def breaking():
        return Breaking(await original())

    monkeypatch.setattr(store, "_loop_connection", breaking)
    result = on_loop(code, tokens[1], 2)
    monkeypatch.setattr(store, "_loop_connection", original)
    assert broken and result.version == 3
    assert log_of(code) == (3, 3, [1, 2, 3])  # in the log once, whichever way it broke
    assert on_loop(code, tokens[0], 1).version == 4


def test_the_move_that_ends_the_game_sends_the_summary(thread_path):
    code, tokens = make_game(options={"target": 4})
    on_loop(code, tokens[0], 1)
    with broadcast.collecting() as outbox:
        result = on_loop(code, tokens[1], 3)
    assert result.version == 3 and game_get(code=code).status == Game.Status.FINISHED
    assert len(thread_path) == 2  # the summary reads the seats: the database thread
    assert '"status":"finished"' in outbox[0][1]["summary"]
    assert code not in store._known


def test_a_bot_on_turn_moves_after_a_move_saved_on_the_loop():
    code, tokens = make_game(players=1, start=False)
    host = actor(code, tokens[0])
    services.seat_add_bot(code=code, actor=host, bot="random")
    services.game_start(code=code, actor=host)
    on_loop(code, tokens[0], 1)  # the bot (seat 1) answers at once (bots run inline in tests)
    on_loop(code, tokens[0], 1)
    game = game_get(code=code)
    assert game.version == 5 and game.state["turn"] == 0
    assert list(game.actions.values_list("seat", flat=True)) == [0, 0, 1, 0, 1]


def test_without_a_connection_on_the_loop_the_move_is_saved_from_the_thread(monkeypatch, thread_path):
    code, tokens = make_game()
    on_loop(code, tokens[0], 1)
    store._loop_connections.clear()

    async def refused(*args, **kwargs):
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", refused)
    assert on_loop(code, tokens[1], 2).version == 3
    assert len(thread_path) == 2
    assert log_of(code) == (3, 3, [1, 2, 3])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="moves are saved on the loop on PostgreSQL")
def test_moves_on_the_loop_give_no_task_a_database_wrapper_of_its_own(monkeypatch):
    """On an event loop Django's ``connection`` is one object per task: a consumer that touched it
    kept a DatabaseWrapper (a hundred-odd objects) for as long as its socket lived, and at 1,000
    sockets full garbage collections took 90-150 ms. Moves on the loop must not touch it."""
    import asyncio

    from django.db import connections

    code, tokens = make_game()
    on_loop(code, tokens[0], 1)  # remembered from here on
    created = []
    real = connections.create_connection
    monkeypatch.setattr(connections, "create_connection", lambda alias: created.append(alias) or real(alias))

    async def moves():
        for i in range(4):  # each in a task of its own, as each socket's consumer is
            seat = 1 - i % 2
            await asyncio.create_task(services.game_command_async(
                code=code, actor=store_actor[seat], command={"cmd": "add", "n": 1}, command_id=f"t{i}"))

    store_actor = {0: actor(code, tokens[0]), 1: actor(code, tokens[1])}
    async_to_sync(moves)()
    assert log_of(code) == (6, 5, [1, 2, 3, 4, 5, 6])
    assert created == []
