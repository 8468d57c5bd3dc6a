"""Resign: a player leaves a game they cannot finish, in the open (an ``admin`` action in the log,
"seat-resigned"), and finishes last (games/results.py lays it over the rules' places; rated games count
it). When only one seat is left that has not resigned, the game is over and that seat won (a two-player
game ends at once); otherwise the title's default bot plays the seat to the end (its player cannot take
it back: that is what resigning means), as every title's rules page says."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from . import services
from .engines.registry import get_engine
from .errors import Conflict, Forbidden, ServiceError, Unauthorized
from .models import Game, Seat
from .selectors import Actor, game_get

SEAT_RESIGNED = "seat-resigned"


def seat_resign(*, code: str, actor: Actor) -> services.CommandResult | None:
    """``actor``'s seat resigns from the active (or paused) game ``code``. 401 ``token-required`` for a
    spectator, 403 ``not-a-player`` for the host without a seat, 409 ``game-<status>`` when the game is not
    on, 409 ``already-resigned``."""
    if actor.is_spectator:
        raise Unauthorized("token-required", "Only a player can resign; send your seat's token.")
    if actor.seat is None:
        raise Forbidden("not-a-player", "The host has no seat in this game.")
    game = game_get(code=code)

    def change(locked: Game, target: Seat):
        if locked.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise Conflict(f"game-{locked.status}", f"This game is {locked.status}: there is nothing to resign from.", version=locked.version)
        if target.resigned_at is not None:
            raise Conflict("already-resigned", "You resigned from this game already.", version=locked.version)
        update: dict[str, Any] = {"resigned_at": timezone.now(), "turn_deadline": None, "away": False}
        if not over:
            bot = get_engine(locked.kind).bot_default()
            if bot is None:
                raise ServiceError("no-bots", "This title has no bot to play the seat on; the game master can end the game.")
            update |= {"is_bot": True, "bot": bot}
        Seat.objects.filter(pk=target.pk).update(**update)
        return SEAT_RESIGNED, {"seat": target.index}, [
            {"type": SEAT_RESIGNED, "seat": target.index, "name": target.name, "by": "player", "then": "game-over" if over else "bot"}], None

    with transaction.atomic():
        # Under the game's row lock (taken again by _admin_change in the same transaction): whether anyone else
        # is left decides whether this resignation ends the game.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        over = Seat.objects.filter(game_id=game.pk, resigned_at__isnull=True).exclude(index=actor.seat).count() <= 1
        return services._admin_change(game_id=game.pk, by="player", seat=actor.seat, change=change,
                                      status=Game.Status.FINISHED if over else None)
