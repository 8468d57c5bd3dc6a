"""Whether a signed-in player has the game open: one ``SeatSocket`` row per open WebSocket of a
seat held by a signed-in user (guests' sockets write nothing). ``games/consumers.py`` opens the
row with the socket's first snapshot, refreshes ``seen_at`` from the heartbeat now and then and
deletes it on disconnect; a row not seen for ``JUNCTION_SOCKET_STALE`` seconds is a socket of a
process that died. The turn notice (players/notices.py) goes out only when the seat has no fresh
row."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone

from .models import SeatSocket

# How often an open socket's row is refreshed, at most (from the heartbeat's pings); well under
# JUNCTION_SOCKET_STALE.
SEEN_EVERY = 30.0  # seconds


def _stale_before(now: datetime.datetime) -> datetime.datetime:
    return now - datetime.timedelta(seconds=float(getattr(settings, "JUNCTION_SOCKET_STALE", 90)))


def seat_socket_open(*, game_id: int, seat: int, channel_name: str) -> None:
    SeatSocket.objects.update_or_create(channel_name=channel_name,
                                        defaults={"game_id": game_id, "seat": seat, "seen_at": timezone.now()})


def seat_socket_seen(*, channel_name: str) -> None:
    SeatSocket.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def seat_socket_close(*, channel_name: str) -> None:
    SeatSocket.objects.filter(channel_name=channel_name).delete()


def seat_socket_fresh(*, game_id: int, seat: int) -> bool:
    """Whether the seat has an open socket seen lately. When it has none, its stale rows (a process
    that died with them) are deleted on the way."""
    stale_before = _stale_before(timezone.now())
    rows = SeatSocket.objects.filter(game_id=game_id, seat=seat)
    seen = list(rows.values_list("seen_at", flat=True))  # one read; a write only when a row is stale
    if any(at >= stale_before for at in seen):
        return True
    if seen:
        rows.filter(seen_at__lt=stale_before).delete()
    return False
