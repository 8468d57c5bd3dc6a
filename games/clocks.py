"""Clocks, chosen when a game is created: a time per turn (``Game.turn_seconds``) or a time bank
with an increment (``Game.bank_seconds`` + ``Game.increment_seconds``: each seat spends its bank on
its turns and gains the increment after each; ``Seat.bank_left`` keeps what is left between turns).

When a person's time runs out (:func:`clocks_fire`), the title's bot plays that turn only and the
seat stays the player's: it comes back to them when the turn ends (``Seat.turn_only``, by
``turns.turns_track``). Only after ``JUNCTION_CLOCK_EXPIRIES_KEEP`` such turns in a row (default 3)
does the bot keep the seat, until its player takes it back ("Take my seat back", until game over).
A bank that ran out gives its seat the increment alone for each later turn. In slow games
(``Game.slow``) a signed-in player may declare an away period that pauses their clock (games/away.py).

The deadlines live in the database: ``games/turns.py`` writes ``Seat.turn_deadline`` (now +
turn_seconds, or + the seat's bank) in the very transaction that starts a person's turn, and
clears it with the move that ends it (a bank keeps what was left, plus the increment); a paused
game's are cleared (a bank keeps what was left, without the increment) and a resumed game's start
afresh. Nothing about a clock is kept in a process, so a restart loses none.

:func:`clocks_fire` is one pass of the clock runner (``manage.py run_clocks``, the Procfile's
``clock:`` process, beside Daphne): every seat of an active clocked game held by a person whose
deadline has passed is handed to the kind's default bot (``services.seat_clock_expire``: the seat
is ``away``, a logged ``seat-to-bot`` by "clock" with ``turn_only``, broadcast; the bot moves at
once) for that turn, or for good after a few in a row, until its player takes it back
(``services.seat_return``). Several runners may run at once: on
PostgreSQL each game is claimed with ``FOR UPDATE SKIP LOCKED`` (a game another runner or a
move holds is left to the next pass) and the deadline is checked again under the lock.

A pass also repairs what a crash could leave behind:
- a clocked game on turn with no seat's turn tracked gets its turns tracked (``turns.turns_track``);
- a person's seat on turn with no deadline (a seat that came back from a bot by a rejoin code,
  say) gets one: now + its turn's time;
- a bot on turn that has not moved for a while (the process that was to move it died) is asked
  to move again (``bots.bots_schedule``; its command ids make a repeat harmless)."""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from .errors import ServiceError
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

# The time banks on offer: (bank, increment after each turn, words). Live games in minutes, slow ones
# in days. The increment is per turn (a rail turn of several commands gains it once).
BANK_CHOICES: tuple[tuple[int, int, str], ...] = (
    (300, 5, "5 minutes + 5 s a turn"),
    (600, 20, "10 minutes + 20 s a turn"),
    (1800, 30, "30 minutes + 30 s a turn"),
    (86400, 43200, "1 day + 12 hours a turn"),
    (259200, 86400, "3 days + 1 day a turn"),
    (604800, 86400, "7 days + 1 day a turn"),
)
BANKS = tuple((bank, increment) for bank, increment, _ in BANK_CHOICES)


@dataclass(frozen=True)
class Clock:
    """A game's clock as created: at most one of a time per turn and a bank (with its increment)."""

    turn_seconds: int | None = None
    bank_seconds: int | None = None
    increment_seconds: int | None = None


def clock_check(*, engine, turn_seconds: Any = None, bank_seconds: Any = None, increment_seconds: Any = None) -> Clock:
    """The clock asked for, if it is one on offer and the title has a bot to play a turn whose time
    ran out; raises ``ServiceError("invalid-clock")`` otherwise. All None: no clock."""
    if turn_seconds is None and bank_seconds is None and increment_seconds is None:
        return Clock()
    if turn_seconds is not None and (bank_seconds is not None or increment_seconds is not None):
        raise ServiceError("invalid-clock", "Choose one clock: a time per turn (turn_seconds) or a time bank "
                           "(bank_seconds with increment_seconds), not both.")
    if turn_seconds is not None:
        if type(turn_seconds) is not int or turn_seconds not in TURN_SECONDS:
            raise ServiceError("invalid-clock", f"turn_seconds must be one of {', '.join(map(str, TURN_SECONDS))} (or null: no clock).")
    elif (type(bank_seconds), type(increment_seconds)) != (int, int) or (bank_seconds, increment_seconds) not in BANKS:
        offered = ", ".join(f"{bank} + {increment}" for bank, increment in BANKS)
        raise ServiceError("invalid-clock", f"A time bank is bank_seconds with increment_seconds, one of: {offered}.")
    if engine.bot_default() is None:
        raise ServiceError("invalid-clock", f"{engine.title} has no bot to play a turn whose time runs out: it cannot have a clock.")
    return Clock(turn_seconds=turn_seconds, bank_seconds=bank_seconds, increment_seconds=increment_seconds)


def expiries_keep() -> int:
    """Turns in a row whose time ran out after which the bot keeps the seat (until its player takes it back)."""
    return max(1, int(getattr(settings, "JUNCTION_CLOCK_EXPIRIES_KEEP", 3)))


def turn_time(game: Game, seat_bank_left: float | None) -> float:
    """Seconds a person's turn may take as it begins: the game's time per turn, or what is left of
    the seat's bank (the whole bank before its first turn)."""
    if game.bank_seconds:
        return float(game.bank_seconds if seat_bank_left is None else seat_bank_left)
    return float(game.turn_seconds or 0)


CLOCKED = Q(turn_seconds__isnull=False) | Q(bank_seconds__isnull=False)  # games with a clock of either kind
CLOCKED_SEAT = Q(game__turn_seconds__isnull=False) | Q(game__bank_seconds__isnull=False)

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
            CLOCKED_SEAT, game__status=Game.Status.ACTIVE, is_bot=False, away=False, turn_deadline__lte=now,
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
    clocked = Game.objects.filter(CLOCKED, status=Game.Status.ACTIVE, state__isnull=False)
    # No seat's turn tracked at all: whose turn it is was never written (a game that became
    # watched without its turns written, a crash between states).
    untracked = clocked.filter(~Exists(Seat.objects.filter(game=OuterRef("pk"), turn_started_at__isnull=False)))
    for game_id in list(untracked.values_list("pk", flat=True)[:100]):
        repaired += game_watch(game_id=game_id)  # under the game's lock; writing turns twice writes nothing
    # A person's seat on turn without a deadline.
    missing = (
        Seat.objects.filter(game__in=clocked, is_bot=False, away=False, turn_started_at__isnull=False, turn_deadline__isnull=True)
        .select_related("game").only("pk", "bank_left", "game__turn_seconds", "game__bank_seconds")
    )
    for seat in list(missing[:500]):
        repaired += Seat.objects.filter(pk=seat.pk, is_bot=False, turn_started_at__isnull=False, turn_deadline__isnull=True).update(
            turn_deadline=now + datetime.timedelta(seconds=turn_time(seat.game, seat.bank_left)))
    return repaired


def _bots_nudge(*, now: datetime.datetime) -> None:
    """A clocked game whose bot is on turn and that has not changed for ``BOT_STALLED``: its bot
    is asked to move (once per version, per process)."""
    from .bots import bots_schedule

    stalled = (
        Game.objects.filter(CLOCKED, status=Game.Status.ACTIVE, updated_at__lte=now - BOT_STALLED)
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
