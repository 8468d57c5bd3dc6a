"""Clocks: a time per turn, chosen when a game is created (``Game.turn_seconds``).

The deadlines live in the database: ``games/turns.py`` writes ``Seat.turn_deadline`` (now +
turn_seconds) in the very transaction that starts a person's turn, and clears it with the move
that ends it; a paused game's are cleared and a resumed game's start afresh. Nothing about a
clock is kept in a process, so a restart loses none.

:func:`clocks_fire` is one pass of the clock runner (``manage.py run_clocks``, the Procfile's
``clock:`` process, beside Daphne): every seat of an active clocked game held by a person whose
deadline has passed is handed to the kind's default bot (``services.seat_clock_expire``: the seat
is ``away``, a logged ``seat-to-bot`` by "clock", broadcast; the bot moves at once), until its
player takes it back (``services.seat_return``). Several runners may run at once: on
PostgreSQL each game is claimed with ``FOR UPDATE SKIP LOCKED`` (a game another runner or a
move holds is left to the next pass) and the deadline is checked again under the lock.

A pass also repairs what a crash could leave behind:
- a clocked game on turn with no seat's turn tracked gets its turns tracked (``turns.turns_track``);
- a person's seat on turn with no deadline (a seat that came back from a bot by a rejoin code,
  say) gets one: now + turn_seconds;
- a bot on turn that has not moved for a while (the process that was to move it died) is asked
  to move again (``bots.bots_schedule``; its command ids make a repeat harmless)."""

from __future__ import annotations

import datetime
import logging

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from .models import Game, Seat

log = logging.getLogger(__name__)

# The clock a host may choose, in seconds, with its words: live games (minutes per turn) and
# slow ones (hours or days). The create API takes only these; the lobby's form lists them.
TURN_SECONDS_CHOICES: tuple[tuple[int, str], ...] = (
    (60, "1 minute per turn"),
    (120, "2 minutes per turn"),
    (300, "5 minutes per turn"),
    (600, "10 minutes per turn"),
    (900, "15 minutes per turn"),
    (3600, "1 hour per turn"),
    (43200, "12 hours per turn"),
    (86400, "1 day per turn"),
    (259200, "3 days per turn"),
)
TURN_SECONDS = tuple(seconds for seconds, _ in TURN_SECONDS_CHOICES)

# A bot on turn in a clocked game that has not moved for this long is asked again.
BOT_STALLED = datetime.timedelta(seconds=10)
_bots_kicked: dict[int, int] = {}  # game id → the version whose bot this process last asked to move


def clocks_fire(*, now: datetime.datetime | None = None) -> int:
    """One pass of the clock runner; returns how many seats were handed to a bot."""
    now = now or timezone.now()
    clocks_reconcile(now=now)
    fired = 0
    due = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE, game__turn_seconds__isnull=False,
            is_bot=False, away=False, turn_deadline__lte=now,
        )
        .order_by("turn_deadline")
        .values_list("game_id", "index")
    )
    for game_id, index in list(due[:500]):
        if _seat_expire(game_id=game_id, seat=index, now=now):
            fired += 1
    _bots_nudge(now=now)
    return fired


def _seat_expire(*, game_id: int, seat: int, now: datetime.datetime) -> bool:
    """Seat ``seat`` of ``game_id`` to a bot, unless another runner or a move holds the game
    (it is tried again next pass) or the deadline no longer holds under the lock."""
    from . import services

    try:
        with transaction.atomic():
            if connection.features.has_select_for_update_skip_locked:
                claimed = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).values_list("pk", flat=True)
                if not list(claimed):
                    return False
            return services.seat_clock_expire(game_id=game_id, seat=seat, now=now) is not None
    except Exception:
        log.exception("the clock of game %s seat %s could not fire", game_id, seat)
        return False


def clocks_reconcile(*, now: datetime.datetime) -> int:
    """Deadlines a crash (or a seat coming back from a bot) left unset; returns how many games or
    seats were repaired."""
    from .turns import game_watch

    repaired = 0
    clocked = Game.objects.filter(status=Game.Status.ACTIVE, turn_seconds__isnull=False, state__isnull=False)
    # No seat's turn tracked at all: whose turn it is was never written (a game that became
    # watched without its turns written, a crash between states).
    untracked = clocked.filter(~Exists(Seat.objects.filter(game=OuterRef("pk"), turn_started_at__isnull=False)))
    for game_id in list(untracked.values_list("pk", flat=True)[:100]):
        repaired += game_watch(game_id=game_id)  # under the game's lock; writing turns twice writes nothing
    # A person's seat on turn without a deadline.
    missing = (
        Seat.objects.filter(game__in=clocked, is_bot=False, away=False, turn_started_at__isnull=False, turn_deadline__isnull=True)
        .values_list("pk", "game__turn_seconds")
    )
    for pk, seconds in list(missing[:500]):
        repaired += Seat.objects.filter(pk=pk, is_bot=False, turn_started_at__isnull=False, turn_deadline__isnull=True).update(
            turn_deadline=now + datetime.timedelta(seconds=seconds))
    return repaired


def _bots_nudge(*, now: datetime.datetime) -> None:
    """A clocked game whose bot is on turn and that has not changed for ``BOT_STALLED``: its bot
    is asked to move (once per version, per process)."""
    from .bots import bots_schedule

    stalled = (
        Game.objects.filter(status=Game.Status.ACTIVE, turn_seconds__isnull=False, updated_at__lte=now - BOT_STALLED)
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), is_bot=True, turn_started_at__isnull=False)))
        .values_list("pk", "version")
    )
    for game_id, version in list(stalled[:100]):
        if _bots_kicked.get(game_id) == version:
            continue
        _bots_kicked[game_id] = version
        try:
            bots_schedule(game_id)
        except Exception:
            log.exception("the bots of game %s could not be asked to move", game_id)
    if len(_bots_kicked) > 10_000:
        _bots_kicked.clear()
