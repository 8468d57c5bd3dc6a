"""Whether a seat's phone is here, two ways, both kept by ``games/consumers.py``:

- every seat (guests' too) has ``Seat.last_seen``: written when a socket of the seat opens (with
  its first snapshot) and closes, and every :func:`seat_seen_every` seconds while one stays open
  (a timer of the socket's own, never on the move path). A seat whose ``last_seen`` is older than
  JUNCTION_REJOIN_AWAY seconds has had no socket open for that long, whichever Daphne process
  held it; a process that died stops refreshing, so its sockets' seats count as away too. The
  host's rejoin code waits for that (games/rejoin.py);
- whether a signed-in player has the game open: one ``SeatSocket`` row per open WebSocket of a
  seat held by a signed-in user (guests' sockets write none). The row is opened with the socket's
  first snapshot, ``seen_at`` refreshed from the page's heartbeat now and then (a page in the
  background pings nothing) and deleted on disconnect; a row not seen for
  ``JUNCTION_SOCKET_STALE`` seconds is a socket of a process that died. The turn notice
  (players/notices.py) goes out only when the seat has no fresh row."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone

from .models import Seat, SeatSocket

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


# -- Seat.last_seen: has this seat's phone been away? ------------------------------------------


def rejoin_away() -> float:
    """Seconds a person's seat must have had no socket open before the host may hand it to a new
    device (JUNCTION_REJOIN_AWAY, 60 by default)."""
    return float(getattr(settings, "JUNCTION_REJOIN_AWAY", 60))


def seat_seen_every() -> float:
    """How often an open socket refreshes its seat's ``last_seen``: every SEEN_EVERY seconds, or
    twice within JUNCTION_REJOIN_AWAY when that is shorter, so an open socket never looks away."""
    return max(1.0, min(SEEN_EVERY, rejoin_away() / 2))


def seat_seen(*, seat_id: int) -> None:
    """A socket of the seat is open now, or closed just now."""
    Seat.objects.filter(pk=seat_id).update(last_seen=timezone.now())
