"""Server-side bots: after a commit, seated bots whose turn it is play through
the same write path as people. Their command ids are derived from the game
version, so two processes racing to move the same bot produce one action."""

from __future__ import annotations

import logging
import random
import threading
import time

from django.conf import settings
from django.db import close_old_connections

from .engines.base import RulesError
from .engines.registry import get_engine
from .errors import DATABASE_BUSY_RETRY_AFTER, ServiceError, database_fault
from .models import Game
from .selectors import Actor

log = logging.getLogger(__name__)

MAX_BOT_MOVES = 2000
# The games whose bots' thread is running in this process → whether it was asked again while running
# (a commit that put a bot on turn after the thread last looked): the thread then looks once more
# before it ends, so no request to move is lost between its last look and its exit.
_running: dict[int, bool] = {}
_lock = threading.Lock()


def bots_schedule(game_id: int) -> None:
    """Let the bots of ``game_id`` move (inline in tests, else in a thread)."""
    if settings.JUNCTION_BOTS_INLINE:
        bots_run(game_id=game_id, delay=0.0)
        return
    with _lock:
        if game_id in _running:
            _running[game_id] = True  # look again before ending
            return
        _running[game_id] = False
    threading.Thread(target=_run_thread, args=(game_id,), daemon=True, name=f"bots-{game_id}").start()


# A bot that meets a busy database, or one that went away (a restart, a fail-over), waits and tries again
# (about a minute): each try reads the game afresh and compare-and-set keeps a move from applying twice.
BUSY_RETRIES = 30


def _run_thread(game_id: int) -> None:
    try:
        while True:
            _run_with_retries(game_id)
            with _lock:
                if not _running.get(game_id):
                    _running.pop(game_id, None)
                    return
                _running[game_id] = False  # asked again while it ran: look again
    except Exception:
        log.exception("bots failed in game %s", game_id)
        with _lock:
            _running.pop(game_id, None)
    finally:
        close_old_connections()


def _run_with_retries(game_id: int) -> None:
    for attempt in range(BUSY_RETRIES + 1):
        try:
            bots_run(game_id=game_id, delay=settings.JUNCTION_BOT_DELAY)
            return
        except Exception as exc:
            if database_fault(exc) is None or attempt == BUSY_RETRIES:
                raise
            close_old_connections()
            time.sleep(DATABASE_BUSY_RETRY_AFTER * 2)


def bots_run(*, game_id: int, delay: float) -> int:
    """Play bot moves until a person must act or the game ends. Returns moves made."""
    from .services import game_command

    moves = 0
    while moves < MAX_BOT_MOVES:
        game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return moves
        engine = get_engine(game.kind)
        bots = {s.index: s for s in game.seats.all() if s.is_bot}
        ready = [seat for seat in engine.active_seats(game.state) if seat in bots]
        if not ready:
            return moves
        seat = ready[0]
        rng = random.Random(f"{game.seed}:{game.version}:{seat}")
        try:
            command = engine.bot_command(game.state, seat=seat, bot=bots[seat].bot, rng=rng)
            if delay:
                time.sleep(delay)
            game_command(
                code=game.code,
                actor=Actor(game_id=game.id, seat=seat, is_host=False, bot=True),
                command=command,
                command_id=f"bot:{game.version}:{seat}",
                expected_version=game.version,
                schedule_bots=False,
            )
        except ServiceError as exc:
            if exc.code == "stale-version":
                continue  # someone else moved; look again
            log.error("bot %s in game %s refused: %s %s", seat, game.code, exc.code, exc.message)
            return moves
        except RulesError as exc:
            log.error("bot %s in game %s failed: %s %s", seat, game.code, exc.code, exc.message)
            return moves
        moves += 1
    return moves
