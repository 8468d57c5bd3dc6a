"""Open sockets of signed-in players' seats (games/presence.py, kept by games/consumers.py): a row
on connect, refreshed by the heartbeat without holding up its pong, gone on disconnect; guests'
sockets write nothing."""

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
from .test_consumers import connected

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
