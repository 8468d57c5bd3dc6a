"""Play again: at game over any seat (or the host) asks for a rematch, and the table goes on to a new game
of the same title with the same options, clock, listing and seats: the same people (accounts stay
theirs, so My games lists the new seat), the same bots, the same colours, and the turn order turned by
one (the old second seat sits first, the old first seat last).

The first asker makes the game (``Game.next_game`` on the old one, set once under its row lock); every
later ask, from any seat, gets the same game: one tap is "Play again" and "Join the next game" alike.
Every seat of the new game is made at once, each with a token **derived** from its old seat's token
hash (an HMAC under the project's secret key, :func:`_derived_token`): whoever proves they hold an old
seat (its token, or a device token of it) receives its new seat's token, the same one on every device
and every retry, without the server ever keeping a token in the clear. The host (a table screen without
a seat, too) gets the new host token the same way. Nobody can claim a seat they did not hold.

The old game's summary names ``next_game`` (every page hears it over the socket at once and its ending
offers "Join the next game"); the new game starts in its waiting room, started by its host as usual."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from . import services
from .engines.registry import get_engine
from .errors import Conflict, Unauthorized
from .models import Game, Seat
from .selectors import Actor, game_get
from .tokens import hash_token
from .turns import game_watch


@dataclass(frozen=True)
class Rematch:
    game: Game  # the next game
    token: str  # the asker's token there (their seat's, or the host's)
    seat: int | None  # their seat there (None: the host without a seat)
    is_host: bool
    created: bool  # this ask made the game (else it was there already)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.game.code, "token": self.token, "seat": self.seat, "host": self.is_host, "created": self.created}


def rematch_index(index: int, seats: int) -> int:
    """Where the old seat ``index`` sits in the next game: the turn order turned by one."""
    return (index - 1) % seats


def game_rematch(*, code: str, actor: Actor) -> Rematch:
    """Play again with the table of the finished game ``code``: its next game (made by this call if no
    seat asked before) and the asker's token there. 401 ``token-required`` for a spectator; 409
    ``game-not-finished`` before the game is over."""
    if actor.is_spectator:
        raise Unauthorized("token-required", "Only the game's players can ask to play again; send your seat's token.")
    old = game_get(code=code)
    if old.status != Game.Status.FINISHED:
        raise Conflict("game-not-finished", "A rematch can be asked for once the game is over.", version=old.version)
    created = False
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=old.pk)
        nxt = Game.objects.filter(pk=locked.next_game_id).first() if locked.next_game_id else None
        if nxt is None:
            nxt = _next_game_create(locked)
            locked.next_game = nxt
            locked.revision += 1  # pages keep the summary with the highest revision
            locked.save(update_fields=["next_game", "revision", "updated_at"])
            created = True
            transaction.on_commit(services._guarded(lambda: services._after_commit(locked.pk, schedule_bots=False)))
    return _ask_answer(old=locked, nxt=nxt, actor=actor, created=created)


def _next_game_create(old: Game) -> Game:
    engine = get_engine(old.kind)
    names = {o.name for o in engine.options}
    options = {k: v for k, v in (old.options or {}).items() if k in names}  # what the host chose, not what setup stored
    made = services.game_create(kind=old.kind, options=options, turn_seconds=old.turn_seconds, bank_seconds=old.bank_seconds,
                                increment_seconds=old.increment_seconds, listed=old.listed,
                                host_token=_derived_token(old, old.host_token_hash))
    nxt = made.game
    seats = list(old.seats.order_by("index"))
    for seat in seats:
        person = not seat.is_bot or seat.away  # a person's seat a bot was keeping is theirs again
        Seat.objects.create(
            game=nxt, index=rematch_index(seat.index, len(seats)), name=seat.name, color=seat.color,
            token_hash=nxt.host_token_hash if seat.is_host else hash_token(_derived_token(old, seat.token_hash)),
            is_host=seat.is_host, is_bot=not person, bot="" if person else seat.bot, user_id=seat.user_id,
        )
    if any(seat.user_id for seat in seats) and not nxt.watched:
        game_watch(game_id=nxt.pk)  # a signed-in seat's turns are tracked (clocks, notices)
    return nxt


def _ask_answer(*, old: Game, nxt: Game, actor: Actor, created: bool) -> Rematch:
    if actor.is_host and actor.seat is None:
        return Rematch(game=nxt, token=_derived_token(old, old.host_token_hash), seat=None, is_host=True, created=created)
    seat = old.seats.get(index=actor.seat)
    index = rematch_index(seat.index, old.seats.count())
    token = _derived_token(old, old.host_token_hash if seat.is_host else seat.token_hash)
    kept = Seat.objects.filter(game=nxt, index=index).values_list("token_hash", flat=True).first()
    if kept is not None and kept != hash_token(token):
        # The secret key changed since the game was made (derived tokens with it): the seat takes the token
        # this key derives, so every one of its devices still gets one and the same.
        raise Conflict("rematch-seat-lost", "Your seat in the next game can no longer be handed over; join it by its code.")
    return Rematch(game=nxt, token=token, seat=index, is_host=seat.is_host, created=created)


def _derived_token(old: Game, token_hash: str) -> str:
    """The next game's token for the holder of ``token_hash`` in ``old``: the same for every ask."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"rematch:{old.code}:{token_hash}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")
