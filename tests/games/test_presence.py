"""Open sockets of signed-in players' seats (games/presence.py, kept by games/consumers.py): a row
on connect, refreshed by the heartbeat without holding up its pong, gone on disconnect; guests'
sockets write no row. Every seat's socket (guests' too) keeps Seat.last_seen: written on connect
and on disconnect, refreshed by a timer of its own while open; spectators write nothing."""

from __future__ import annotations

import asyncio
import datetime

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import presence
from games.models import Seat, SeatSocket

from .factories import make_game
from .test_consumers import connected, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def signed_in_game():
    code, tokens = make_game()
    owner = get_user_model().objects.create_user("ann", "ann@example.com")
    Seat.objects.filter(game__code=code, index=1).update(user=owner)
    return code, tokens, Seat.objects.get(game__code=code, index=1).game_id


@database_sync_to_async
def rows():
    return list(SeatSocket.objects.values_list("seat", "seen_at"))


async def test_a_signed_in_seat_socket_is_recorded_refreshed_and_removed(monkeypatch):
    code, tokens, game_id = await signed_in_game()
    guest, _ = await connected(code, tokens[0])
    watcher, _ = await connected(code)
    assert await rows() == []  # guests and spectators: nothing

    player, _ = await connected(code, tokens[1])
    [(seat, seen)] = await rows()
    assert seat == 1
    assert await database_sync_to_async(presence.seat_socket_fresh)(game_id=game_id, seat=1)

    # The heartbeat refreshes the row (at most every SEEN_EVERY seconds); the pong comes at once.
    old = timezone.now() - datetime.timedelta(seconds=60)
    await database_sync_to_async(lambda: SeatSocket.objects.update(seen_at=old))()
    await player.send_to(text_data='{"type":"ping"}')
    assert await player.receive_from(timeout=3) == '{"type":"pong"}'
    await asyncio.sleep(0.3)
    assert (await rows())[0][1] == old  # not yet: refreshed less than SEEN_EVERY ago (on connect)
    monkeypatch.setattr(presence, "SEEN_EVERY", 0.0)
    await player.send_to(text_data='{"type":"ping"}')
    assert await player.receive_from(timeout=3) == '{"type":"pong"}'
    for _ in range(50):
        if (await rows())[0][1] > old:
            break
        await asyncio.sleep(0.05)
    assert (await rows())[0][1] > old

    await player.disconnect()
    assert await rows() == []
    for comm in (guest, watcher):
        await comm.disconnect()


@database_sync_to_async
def last_seen() -> dict[int, object]:
    return dict(Seat.objects.values_list("index", "last_seen"))


@database_sync_to_async
def last_seen_set(when) -> None:
    Seat.objects.update(last_seen=when)


async def until(check, tries: int = 100) -> bool:
    for _ in range(tries):
        if await check():
            return True
        await asyncio.sleep(0.05)
    return False


async def test_every_seats_socket_keeps_when_its_seat_was_last_seen(monkeypatch):
    monkeypatch.setattr(presence, "seat_seen_every", lambda: 0.1)  # the timer's period (30 s by default)
    code, tokens = await database_sync_to_async(make_game)(players=3)
    assert set((await last_seen()).values()) == {None}
    watcher, _ = await connected(code)
    guest, _ = await connected(code, tokens[1])  # a guest's seat
    seen = await last_seen()
    assert seen[1] is not None and seen[0] is None and seen[2] is None  # the spectator wrote nothing

    # While the socket stays open its timer refreshes the seat (no ping, no frame needed).
    old = timezone.now() - datetime.timedelta(seconds=300)
    await last_seen_set(old)
    assert await until(lambda: _newer(1, old))
    assert (await last_seen())[0] == old  # other seats: untouched

    # Closing it writes the time too, and its timer stops.
    await last_seen_set(old)
    await guest.disconnect()
    assert (await last_seen())[1] > old
    await last_seen_set(old)
    await asyncio.sleep(0.3)
    assert (await last_seen())[1] == old
    await watcher.disconnect()


async def _newer(seat: int, than) -> bool:
    return (await last_seen())[seat] > than


async def test_a_socket_whose_seat_went_to_another_device_writes_nothing_more():
    from games import services

    code, tokens = await database_sync_to_async(make_game)()
    old_phone, _ = await connected(code, tokens[1])

    def hand_over():
        issued = services.rejoin_code_create(game_id=Seat.objects.get(game__code=code, index=1).game_id, seat=1, by="gm")
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
        Seat.objects.filter(game__code=code, index=1).update(last_seen=None)

    await database_sync_to_async(hand_over)()
    error = await receive_type(old_phone, "error")
    assert error["error"]["code"] == "seat-moved"
    closed = await old_phone.receive_output(timeout=3)
    while closed["type"] != "websocket.close":
        closed = await old_phone.receive_output(timeout=3)
    await old_phone.disconnect()  # the close comes back as a disconnect, as from Daphne
    assert (await last_seen())[1] is None  # the new device's seat does not look present through the old socket
