"""games/broadcast.py's resync: a socket whose game moved on without it (the channel layer
lost the update: Redis down, restarting) is sent the game afresh, once it has stayed behind
for a whole check; a socket that is current is sent nothing."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import broadcast, services

from .factories import actor, make_game
from .test_consumers import connected, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def move_lost_in_the_layer(code: str, token: str, monkeypatch) -> int:
    """A move committed elsewhere whose broadcast never arrives here."""
    with monkeypatch.context() as m:
        m.setattr(broadcast, "send", lambda messages: None)
        return services.game_command(code=code, actor=actor(code, token), command={"cmd": "add", "n": 1}).version


async def nothing_more(comm) -> bool:
    return await comm.receive_nothing(timeout=0.3)


async def test_a_socket_behind_the_log_is_sent_the_game_after_one_whole_check(settings, monkeypatch):
    settings.JUNCTION_RESYNC_SECONDS = 0  # no background checks: this test makes them
    code, tokens = await database_sync_to_async(make_game)()
    seat1, first = await connected(code, tokens[1])
    watcher, _ = await connected(code)
    assert first["version"] == 1

    assert await broadcast.resync_once() == 0  # current: nothing to send
    assert await nothing_more(seat1) and await nothing_more(watcher)

    version = await move_lost_in_the_layer(code, tokens[0], monkeypatch)
    assert version == 2
    assert await nothing_more(seat1)  # the update was lost

    assert await broadcast.resync_once() == 0  # behind, but maybe on its way: not yet
    assert await nothing_more(seat1)
    assert await broadcast.resync_once() == 2  # still behind a check later: sent afresh
    state1, statew = await receive_type(seat1, "state"), await receive_type(watcher, "state")
    assert state1["version"] == statew["version"] == 2
    assert state1["seat"] == 1 and statew["seat"] is None  # each its own view
    assert state1["legal_commands"]  # seat 1 is on turn now

    assert await broadcast.resync_once() == 0  # current again
    assert await nothing_more(seat1)
    for comm in (seat1, watcher):
        await comm.disconnect()


async def test_an_update_that_arrives_before_the_next_check_is_not_sent_twice(settings, monkeypatch):
    settings.JUNCTION_RESYNC_SECONDS = 0
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    await move_lost_in_the_layer(code, tokens[0], monkeypatch)
    assert await broadcast.resync_once() == 0  # seen behind
    await seat1.send_to(text_data=json.dumps({"cmd": "get-state"}))  # it catches up by itself
    assert (await receive_type(seat1, "state"))["version"] == 2
    assert await broadcast.resync_once() == 0
    assert await nothing_more(seat1)
    await seat1.disconnect()


async def test_the_process_checks_by_itself(settings, monkeypatch):
    settings.JUNCTION_RESYNC_SECONDS = 0.1
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    await move_lost_in_the_layer(code, tokens[0], monkeypatch)
    assert (await receive_type(seat1, "state", timeout=5))["version"] == 2
    await seat1.disconnect()


async def test_a_socket_that_missed_a_chat_message_is_sent_the_game_and_one_that_may_not_read_it_is_not(settings, monkeypatch):
    from games import chat

    settings.JUNCTION_RESYNC_SECONDS = 0
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    watcher, _ = await connected(code)
    assert await broadcast.resync_once() == 0  # a first look: what the pages read when they opened counts as seen

    @database_sync_to_async
    def said_while_the_layer_is_down(token: str | None, text: str, user=None) -> None:
        with monkeypatch.context() as m:
            m.setattr(broadcast, "send", lambda messages: None)
            game = services.game_get(code=code)
            chat.chat_post(game=game, actor=actor(code, token), user=user, text=text)
            assert game.version == 1  # the game itself did not move

    await said_while_the_layer_is_down(tokens[0], "Your turn soon")  # the table's chat
    assert await broadcast.resync_once() == 0  # maybe on its way: next time
    assert await broadcast.resync_once() == 2  # both may read the table's chat: sent afresh
    for comm in (seat1, watcher):
        assert (await receive_type(comm, "game"))["game"]["code"] == code
        assert (await receive_type(comm, "state"))["version"] == 1
    assert await broadcast.resync_once() == 0  # seen now

    # A spectator's message while the game is on: the players may not read it yet, so only the watcher.
    eve = await database_sync_to_async(get_user_model().objects.create_user)("eve")
    await said_while_the_layer_is_down(None, "Go Ann", user=eve)
    assert await broadcast.resync_once() == 0
    assert await broadcast.resync_once() == 1
    assert (await receive_type(watcher, "game"))["game"]["code"] == code
    assert await nothing_more(seat1)
    for comm in (seat1, watcher):
        await comm.disconnect()
