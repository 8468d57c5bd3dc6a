"""WebSocket side of a seat handed to a new device: the socket holding the revoked token is told
and closed; every other socket stays; a socket that missed the news is told at its next
snapshot; a handshake with the revoked token is refused with the reason."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import broadcast, services
from games.selectors import game_get

from .factories import make_game
from .test_consumers import communicator, connected, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def move_seat(code: str, seat: int, by: str = "gm") -> services.SeatRejoined:
    """A game master hands the seat on (never held back: its old socket may be open, as here); the host's
    door waits until the seat's phone is away (tests/games/test_rejoin_in_the_open.py)."""
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=seat, by=by)
    return services.rejoin_code_redeem(code=code, rejoin_code=issued.code)


async def test_the_old_socket_is_told_and_closed_the_others_stay():
    code, tokens = await database_sync_to_async(make_game)(players=3)
    old, _ = await connected(code, tokens[1])
    other, _ = await connected(code, tokens[2])
    watcher, _ = await connected(code)

    rejoined = await database_sync_to_async(move_seat)(code, 1)

    told = await receive_type(old, "error")
    assert told["error"]["code"] == "seat-moved" and told["seat"] == 1
    assert "another device" in told["error"]["message"]
    closed = await old.receive_output(timeout=3)
    while closed["type"] != "websocket.close":  # a state of the move may come first
        closed = await old.receive_output(timeout=3)
    assert closed["code"] == 4401  # the page stops reconnecting with this token

    for comm in (other, watcher):  # everyone else gets both new versions and stays
        made, moved = await receive_type(comm, "state"), await receive_type(comm, "state")
        assert (made["version"], moved["version"]) == (2, 3)  # the code made, then the move
    new, first = await connected(code, rejoined.token)
    assert first["seat"] == 1 and first["state"]["my_secret"] is not None and first["version"] == 3
    await new.send_to(text_data=json.dumps({"cmd": "get-state", "command_id": "g"}))
    assert (await receive_type(new, "state"))["seat"] == 1
    await other.send_to(text_data=json.dumps({"cmd": "get-state", "command_id": "g"}))
    assert (await receive_type(other, "state"))["seat"] == 2
    for comm in (other, watcher, new):
        await comm.disconnect()


async def test_a_handshake_with_the_revoked_token_is_refused_with_the_reason():
    code, tokens = await database_sync_to_async(make_game)()
    await database_sync_to_async(move_seat)(code, 1)
    comm = communicator(code, tokens[1])
    ok, _ = await comm.connect()
    assert ok
    message = json.loads(await comm.receive_from())
    assert message["type"] == "error" and message["error"]["code"] == "seat-moved"
    assert (await comm.receive_output())["code"] == 4401


async def test_the_hosts_socket_is_closed_when_the_hosts_seat_moves():
    code, tokens = await database_sync_to_async(make_game)()
    host, _ = await connected(code, tokens[0])
    rejoined = await database_sync_to_async(move_seat)(code, 0, "gm")
    assert (await receive_type(host, "error"))["error"]["code"] == "seat-moved"
    new, first = await connected(code, rejoined.token)
    assert first["seat"] == 0
    await new.disconnect()


async def test_a_socket_that_missed_the_news_is_told_at_its_next_snapshot(monkeypatch, settings):
    """The news can be lost (Redis down) or missed (the handshake read the token just before
    the move and the socket joined the game's group just after): the next snapshot of that
    socket (the resync sends one to a socket behind the log) checks its token again."""
    code, tokens = await database_sync_to_async(make_game)()
    old, _ = await connected(code, tokens[1])
    lost: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: lost.extend(batch))  # nothing reaches the socket
    await database_sync_to_async(move_seat)(code, 1)
    monkeypatch.undo()
    assert any(message["type"] == "seat.moved" for _, message in lost)
    assert await broadcast.resync_once() == 0  # behind: maybe on its way
    assert await broadcast.resync_once() == 1  # still behind: sent afresh, which finds the token revoked
    told = json.loads(await old.receive_from(timeout=3))
    assert told["type"] == "error" and told["error"]["code"] == "seat-moved"
    assert (await old.receive_output(timeout=3))["code"] == 4401
