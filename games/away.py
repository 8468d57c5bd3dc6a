"""Away periods: a signed-in player going away for a few days pauses their clocks in slow games.

A slow game is one whose clock counts in days more than minutes (``Game.slow``: 12 hours a turn or
more, or a bank of a day or more); a live game's clock never pauses for an absence (its table is
waiting now). A player declares an absence from now, for 1 to ``JUNCTION_AWAY_MAX_DAYS`` whole
days (default 7), and no more than ``JUNCTION_AWAY_DAYS_PER_30`` days in any 30 days (default 10:
an absence ended early counts the days it lasted, started days rounded up). While it lasts:

- a turn of theirs under way has its deadline moved on by the absence (the clock stops now and
  runs again when it ends); a turn that begins during it starts its clock when it ends
  (``turns._clock_track``). A move made while away spends none of the bank: the time left is
  measured from the absence's end;
- every table they sit at shows it (the summary's ``away_until``), and their seats' pages say so.

Ending it early (``away_end``) gives the unused time back: each deadline moves back by it.
Deadlines are the only thing moved, in the same transaction as the period, so the clock runner
needs to know nothing of absences. The API: ``GET``/``POST``/``DELETE /api/me/away``
(games/api/views.py); the page: My games."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from .errors import Conflict, ServiceError
from .models import AwayPeriod, Game, Seat

DAY = datetime.timedelta(days=1)
WINDOW = datetime.timedelta(days=30)


def away_max_days() -> int:
    return max(1, int(getattr(settings, "JUNCTION_AWAY_MAX_DAYS", 7)))


def away_days_per_30() -> int:
    return max(1, int(getattr(settings, "JUNCTION_AWAY_DAYS_PER_30", 10)))


@dataclass(frozen=True)
class AwayStatus:
    """A player's absence now (None: here), the days used in the last 30 days and those left."""

    current: AwayPeriod | None
    days_used: int
    days_left: int
    max_days: int


def away_ends(*, user_ids: set[int], now: datetime.datetime) -> dict[int, datetime.datetime]:
    """For each of ``user_ids`` away at ``now``: when their absence ends."""
    if not user_ids:
        return {}
    ends: dict[int, datetime.datetime] = {}
    for user_id, ends_at in AwayPeriod.objects.filter(user_id__in=user_ids, starts_at__lte=now, ends_at__gt=now).values_list(
            "user_id", "ends_at"):
        ends[user_id] = max(ends_at, ends.get(user_id, ends_at))
    return ends


def away_status(*, user, now: datetime.datetime | None = None) -> AwayStatus:
    now = now or timezone.now()
    periods = list(AwayPeriod.objects.filter(user=user, starts_at__gt=now - WINDOW))
    current = next((p for p in periods if p.starts_at <= now < p.ends_at), None)
    used = sum(math.ceil((p.ends_at - p.starts_at) / DAY) for p in periods if p.ends_at > p.starts_at)
    return AwayStatus(current=current, days_used=used, days_left=max(0, away_days_per_30() - used), max_days=away_max_days())


def _deadlines_shift(user, by: datetime.timedelta) -> None:
    """Move on by ``by`` (back, if negative) the deadline of each of ``user``'s turns whose clock is running
    in an active slow game (Game.slow); after commit every page of those games gets their summary (the
    seat's ``away_until``, the moved deadline)."""
    from .services import _after_commit

    slow = Q(game__turn_seconds__gte=Game.SLOW_TURN_SECONDS) | Q(game__bank_seconds__gte=Game.SLOW_BANK_SECONDS)
    seats = Seat.objects.filter(slow, user=user, game__status=Game.Status.ACTIVE, is_bot=False, turn_deadline__isnull=False)
    game_ids = list(seats.values_list("game_id", flat=True))
    seats.update(turn_deadline=F("turn_deadline") + by)
    for game_id in game_ids:
        transaction.on_commit(lambda game_id=game_id: _after_commit(game_id, schedule_bots=False))


def away_declare(*, user, days: int, now: datetime.datetime | None = None) -> AwayPeriod:
    """``user`` is away from now for ``days`` whole days: their clocks in slow games stop until then.
    400 ``invalid-away`` for days out of range; 409 ``away-already`` while an absence lasts; 409
    ``away-limit`` past the days allowed in 30 days."""
    now = now or timezone.now()
    if type(days) is not int or not 1 <= days <= away_max_days():
        raise ServiceError("invalid-away", f"days must be a whole number from 1 to {away_max_days()}.")
    with transaction.atomic():
        # One declaration at a time per player: their own row is the lock (PostgreSQL; SQLite's
        # writes are serialised anyway).
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        status = away_status(user=user, now=now)
        if status.current is not None:
            raise Conflict("away-already", f"You are away until {status.current.ends_at:%Y-%m-%d %H:%M} UTC; end it first to declare another.")
        if days > status.days_left:
            raise Conflict("away-limit", f"You may be away {away_days_per_30()} days in any 30; {status.days_left} are left.")
        period = AwayPeriod.objects.create(user=user, starts_at=now, ends_at=now + days * DAY)
        _deadlines_shift(user, days * DAY)
    return period


def away_end(*, user, now: datetime.datetime | None = None) -> AwayPeriod | None:
    """``user`` is back: the absence under way ends now and the time it did not use comes off their
    deadlines. None when they were not away."""
    now = now or timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        period = AwayPeriod.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).order_by("-ends_at").first()
        if period is None:
            return None
        unused = period.ends_at - now
        AwayPeriod.objects.filter(pk=period.pk).update(ends_at=now)
        period.ends_at = now
        _deadlines_shift(user, -unused)
    return period
