"""Whose turn it is, kept in the database for the games that need it: a clock, or a seat held by a
signed-in player (``Game.watched``). Guest games without a clock pay nothing for it.

:func:`turns_track` runs in the transaction that saves a new state (``store.move_save`` for every
command and bot move, ``services.game_start`` and the game master's changes): it sets
``Seat.turn_started_at`` (and ``turn_deadline`` under a clock, with the bank's accounts:
games/clocks.py) on the seats whose turn began and clears it on those whose turn ended, so a
deadline is written with the move that starts the turn and is never lost. Once committed, the listeners hear of it, off the request's thread:

- ``register_turn_started(fn)``: ``fn(game_id, seat_index, user_id, turn_started_at)`` for each
  seat of a signed-in player (``user_id`` set; a guest or a bot is told nothing) whose turn
  began (players/notices.py sends the turn notice);
- ``register_game_finished(fn)``: ``fn(game_id)`` when the rules ended the game (players/ratings.py).

A watched game's moves take the database thread's path (``store.saves_on_loop`` is False), where
these writes can join the move's transaction."""

from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from .engines.registry import get_engine
from .models import Game, Seat

log = logging.getLogger(__name__)

TurnStarted = Callable[[int, int, int | None, datetime.datetime], None]
_turn_started: list[TurnStarted] = []
_game_finished: list[Callable[[int], None]] = []


def register_turn_started(fn: TurnStarted) -> None:
    if fn not in _turn_started:
        _turn_started.append(fn)


def register_game_finished(fn: Callable[[int], None]) -> None:
    if fn not in _game_finished:
        _game_finished.append(fn)


def turns_track(*, game: Game, state: dict[str, Any] | None, now: datetime.datetime, finished: bool = False) -> None:
    """In the saving transaction (the game's row is locked by its compare-and-set or
    ``select_for_update``): bring the seats' turn fields up to ``state``; after commit, tell the
    listeners which turns began and whether the game finished."""
    if not game.watched:
        return
    active: set[int] = set()
    if state is not None and game.status in (Game.Status.ACTIVE, Game.Status.LOBBY) and not finished:
        active = set(get_engine(game.kind).active_seats(state))
    if game.clocked:
        started = _clock_track(game=game, active=active, now=now)
        if started or finished:
            game_id = game.pk
            transaction.on_commit(lambda: _committed(game_id, started, now, finished))
        return
    # One read of the seats' turn fields, then one write, and only when a turn ended or began:
    # the seats whose turn goes on, and a move that leaves the turns as they were, cost no write.
    # Both in SQL of their own: the ORM took longer to build them than the database to run them.
    table, index_column = Seat._meta.db_table, connection.ops.quote_name("index")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {index_column}, user_id, is_bot, turn_started_at IS NOT NULL FROM {table} WHERE game_id = %s",
                       [game.pk])
        seats = cursor.fetchall()
        ended = [index for index, _, _, on_turn in seats if on_turn and index not in active]
        fresh = [index for index, _, _, on_turn in seats if not on_turn and index in active]
        # Only a signed-in player is told of a turn.
        started = [(index, user_id) for index, user_id, is_bot, on_turn in seats
                   if not on_turn and index in active and not is_bot and user_id is not None]
        if ended or fresh:
            deadline = now + datetime.timedelta(seconds=game.turn_seconds) if game.turn_seconds else None
            # Each seat's condition again in the statement: a turn's start is written once. A
            # seat whose turn began gets now (and the deadline, but a bot's: a bot never runs out
            # of time), one whose turn ended loses both.
            which = [f"({index_column} IN ({', '.join(['%s'] * len(group))}) AND turn_started_at IS {test})"
                     for group, test in ((ended, "NOT NULL"), (fresh, "NULL")) if group]
            cursor.execute(
                f"UPDATE {table} SET turn_started_at = CASE WHEN turn_started_at IS NULL THEN %s END, "
                "turn_deadline = CASE WHEN turn_started_at IS NOT NULL THEN NULL WHEN is_bot THEN turn_deadline ELSE %s END "
                f"WHERE game_id = %s AND ({' OR '.join(which)})",
                [connection.ops.adapt_datetimefield_value(now), connection.ops.adapt_datetimefield_value(deadline),
                 game.pk, *ended, *fresh])
    if started or finished:
        game_id = game.pk
        transaction.on_commit(lambda: _committed(game_id, started, now, finished))


def _clock_track(*, game: Game, active: set[int], now: datetime.datetime) -> list[tuple[int, int | None]]:
    """A clocked game's turns (games/clocks.py), seat by seat: a turn that began gets its deadline
    (the time per turn, or the seat's bank; in a slow game from the end of its player's away
    period), a turn that ended keeps what was left of a bank plus the increment (a pause keeps it
    without), and a seat the bot played for one turn only goes back to its player. Returns the
    signed-in players' seats whose turn began."""
    from .away import away_ends
    from .clocks import turn_time

    paused = game.status == Game.Status.PAUSED
    seats = list(Seat.objects.filter(game_id=game.pk).values_list(
        "pk", "index", "user_id", "is_bot", "turn_only", "turn_started_at", "turn_deadline", "bank_left"))
    changing = [s for s in seats if (s[5] is not None) != (s[1] in active)]
    if not changing:
        return []
    back = away_ends(user_ids={s[2] for s in changing if s[2] is not None}, now=now) if game.slow else {}
    increment = float(game.increment_seconds or 0)
    started: list[tuple[int, int | None]] = []
    for pk, index, user_id, is_bot, turn_only, turn_started_at, deadline, bank_left in changing:
        resume = max(now, back.get(user_id, now))  # the clock runs again after an away period
        update: dict[str, Any] = {}
        if turn_started_at is not None:  # the turn ended (or the game was paused or is over)
            update = {"turn_started_at": None, "turn_deadline": None}
            if turn_only:
                if not paused:  # the bot played the turn whose time ran out: the seat is its player's again
                    update.update(is_bot=False, away=False, bot="", turn_only=False)
                    if game.bank_seconds:
                        update["bank_left"] = increment  # the bank ran out: the increment is what it has
            elif not is_bot:
                if not paused:
                    update["expiries"] = 0  # the player played their turn
                if game.bank_seconds and deadline is not None:
                    left = max(0.0, (deadline - resume).total_seconds())
                    update["bank_left"] = left if paused else left + increment
        else:  # a turn began
            update["turn_started_at"] = now
            if not is_bot:
                update["turn_deadline"] = resume + datetime.timedelta(seconds=turn_time(game, bank_left))
                if user_id is not None:
                    started.append((index, user_id))
        Seat.objects.filter(pk=pk).update(**update)
    return started


def game_watch(*, game_id: int) -> bool:
    """From now on track ``game_id``'s turns (a signed-in player took a seat, or a clock was set):
    marks it watched (if it was not) and brings its seats up to its state at once, which is also
    the clock runner's repair of a game whose turns were never written. False: no such game."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        now = timezone.now()
        newly = not game.watched
        if newly:
            # updated_at moves too: a process that remembers the game unwatched loses its next
            # compare-and-set and reads it afresh (games/store.py).
            Game.objects.filter(pk=game_id).update(watched=True, updated_at=now)
            game.watched = True
        if game.status == Game.Status.ACTIVE:
            turns_track(game=game, state=game.state, now=now)
        code = game.code
    if newly:
        from . import store

        store.forget(code)  # what this process remembered says unwatched
    return True


def _committed(game_id: int, started: list[tuple[int, int | None]], now: datetime.datetime, finished: bool) -> None:
    if not (_turn_started and started) and not (_game_finished and finished):
        return
    if getattr(settings, "JUNCTION_BOTS_INLINE", False):  # tests: at once, on this thread
        _tell(game_id, started, now, finished)
        return
    threading.Thread(target=_tell_thread, args=(game_id, started, now, finished), daemon=True,
                     name=f"turns-{game_id}").start()


def _tell_thread(game_id: int, started, now, finished) -> None:
    try:
        _tell(game_id, started, now, finished)
    finally:
        close_old_connections()


def _tell(game_id: int, started: list[tuple[int, int | None]], now: datetime.datetime, finished: bool) -> None:
    for index, user_id in started:
        for fn in _turn_started:
            try:
                fn(game_id, index, user_id, now)
            except Exception:
                log.exception("turn-started listener %s failed for game %s seat %s", fn, game_id, index)
    if finished:
        for fn in _game_finished:
            try:
                fn(game_id)
            except Exception:
                log.exception("game-finished listener %s failed for game %s", fn, game_id)
