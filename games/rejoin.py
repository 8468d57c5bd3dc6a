"""A seat handed to a new device (a phone that died or lost its storage), in the open.

The host (or a game master) makes a one-time rejoin code for a seat; whoever opens it takes the
seat: a new token is made for that browser, the old one is revoked (a request with it is answered
401 seat-moved, a socket with it is told so and closed). A code lives JUNCTION_REJOIN_TTL seconds,
is used once, and a newer code for the same seat replaces it. Only its hash is stored.

Whoever holds a seat reads its hidden cards, so a seat changes hands where everyone sees it:

- the host may make a code for a person's seat (not a bot's, not the host's own) only once that
  seat's phone has been away JUNCTION_REJOIN_AWAY seconds: no socket of the seat open for that
  long (``Seat.last_seen``, games/presence.py); before that, 409 ``seat-present`` saying how long
  to wait. A game master (Django admin) may at any time;
- making a code is itself an ``admin`` action in the log (``rejoin-code-made``, by ``host`` or
  the game master's user name) and using it is another (``seat-moved``): both are broadcast after
  commit, every phone and the table screen say them in words, replay and undo step over them
  (games/replay.py, games/undo.py: admin actions change no state). A game still in its lobby has
  no log: its seats change and everyone is sent the seats;
- a seat taken by anyone but its own account (``Seat.user``; a guest's seat has none) makes the
  game unrated (``Game.unrated_reason``, players/ratings.py; the first reason stays), said in the
  ``seat-moved`` event (``"unrated": true``) and at the end of the game (the summary's
  ``unrated_reason``). A guests' game is never rated anyway; it is recorded all the same, since
  its seats may yet be linked to accounts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from . import presence, services
from .errors import Conflict, NotFound, ServiceError
from .models import Game, RejoinCode, Seat
from .selectors import Actor, game_get
from .tokens import hash_token, new_rejoin_code, new_token, normalize_rejoin_code
from .turns import game_watch

REJOINABLE = (Game.Status.LOBBY, Game.Status.ACTIVE, Game.Status.PAUSED)
REJOIN_CODE_MADE = "rejoin-code-made"
SEAT_MOVED = "seat-moved"
HOST = "host"


@dataclass
class RejoinCodeIssued:
    code: str  # shown once: only its hash is stored
    game: Game
    seat: Seat
    expires_at: Any  # datetime


@dataclass
class SeatRejoined:
    game: Game
    seat: Seat
    token: str  # the new device's seat token (the host token too when the host's seat moved)
    is_host: bool


def rejoin_code_create(*, game_id: int, seat: int, by: str, actor: Actor | None = None) -> RejoinCodeIssued:
    """A one-time code that hands seat ``seat`` to the device that opens it, announced to everyone
    (``rejoin-code-made``). ``actor``, when given (the API), must be the game's host, and a
    person's seat other than the host's own must have been away JUNCTION_REJOIN_AWAY seconds
    (409 ``seat-present`` otherwise); a game master (admin) passes none and is never held back.
    Earlier unused codes for the seat, and the game's expired unused ones, are dropped."""
    if actor is not None:
        services._require_host(actor)
    made: dict[str, Any] = {}

    def change(locked: Game, target: Seat):
        if locked.status not in REJOINABLE:
            raise Conflict(f"game-{locked.status}", f"This game is {locked.status}; its seats stay where they are.", version=locked.version)
        now = timezone.now()
        if actor is not None:
            _seat_away_or_409(locked, target, now=now)
        unused = RejoinCode.objects.filter(game=locked, used_at__isnull=True)
        unused.filter(Q(seat=seat) | Q(expires_at__lte=now)).delete()
        for _ in range(5):
            code = new_rejoin_code()
            try:
                with transaction.atomic():
                    row = RejoinCode.objects.create(
                        game=locked, seat=seat, code_hash=hash_token(code), created_by=by,
                        expires_at=now + timedelta(seconds=settings.JUNCTION_REJOIN_TTL),
                    )
                break
            except IntegrityError:  # pragma: no cover - 23^10 codes
                continue
        else:  # pragma: no cover
            raise ServiceError("no-code-available", "Could not make a rejoin code; try again.", status=503)
        made.update(code=code, game=locked, seat=target, expires_at=row.expires_at)
        return REJOIN_CODE_MADE, {"seat": target.index}, [
            {"type": REJOIN_CODE_MADE, "seat": target.index, "name": target.name, "by": by}], None

    services._admin_change(game_id=game_id, seat=seat, by=by, change=change)
    return RejoinCodeIssued(**made)


def seat_away_seconds(seat: Seat, *, now) -> float:
    """How long seat ``seat``'s phone has been away: no socket of it open since ``last_seen``
    (never one: since it was taken)."""
    since = seat.last_seen or seat.joined_at
    return max(0.0, (now - since).total_seconds())


def _seat_away_or_409(game: Game, target: Seat, *, now) -> None:
    """The host's rule: a person's seat (not a bot's, not the host's own) goes to a new device only
    once its phone has been away JUNCTION_REJOIN_AWAY seconds. A seat a bot keeps while its
    player is away (``away``) is still its person's: the same rule."""
    if (target.is_bot and not target.away) or target.is_host or target.token_hash == game.host_token_hash:
        return
    needed = presence.rejoin_away()
    away = seat_away_seconds(target, now=now)
    if away >= needed:
        return
    wait = max(1, math.ceil(needed - away))
    raise Conflict(
        "seat-present",
        f"{target.name}'s phone is still connected, or was {_seconds(away)} ago. A seat goes to a new device only "
        f"once its phone has been away for {_seconds(needed)}: try again in {_seconds(wait)}.",
        retry_after=wait,
    )


def _seconds(value: float) -> str:
    n = int(value)
    return "1 second" if n == 1 else f"{n} seconds"


def rejoin_code_redeem(*, code: str, rejoin_code: str, user: Any | None = None) -> SeatRejoined:
    """The seat ``rejoin_code`` was issued for, moved to the caller: a new token for it (returned,
    shown once), the old one revoked, and so are the device tokens of the account that held it;
    the seat is ``user``'s now (the signed-in caller), a guest's without one. Taken by anyone but
    the seat's own account, the game is unrated from now on. 404 ``rejoin-code-unknown`` (never
    issued, another game's, or replaced by a newer one), 410 ``rejoin-code-used`` /
    ``rejoin-code-expired``, 409 when the game is over, 409 ``seat-present`` when the host made the
    code and the seat's phone has come back since (the same rule as making it). A paused game's seat moves too (the game
    master may pause to fix a phone)."""
    game = game_get(code=code)
    digest = hash_token(normalize_rejoin_code(rejoin_code))
    row = RejoinCode.objects.filter(code_hash=digest, game=game).first()
    if row is None:
        raise NotFound("rejoin-code-unknown", "This rejoin code is not valid here (a newer one may have replaced it); ask the host for a new one.")
    _rejoin_code_usable(row)
    token = new_token()
    token_hash = hash_token(token)
    moved: dict[str, Any] = {}
    new_user = services._signed_in(user)

    def change(locked: Game, target: Seat):
        if locked.status not in REJOINABLE:
            raise Conflict(f"game-{locked.status}", f"This game is {locked.status}; its seats stay where they are.", version=locked.version)
        now = timezone.now()
        if row.created_by == "host":
            # Checked again now: the seat's phone may have come back since the host made the code
            # (a code made while it was away must not take it from a player who is here again).
            _seat_away_or_409(locked, target, now=now)
        old = target.token_hash
        # Used once: of two devices opening it at once, one wins (the game's row is locked too).
        if not RejoinCode.objects.filter(pk=row.pk, used_at__isnull=True, expires_at__gt=now).update(used_at=now, revoked_token_hash=old):
            current = RejoinCode.objects.filter(pk=row.pk).first()
            if current is None:  # replaced by a newer code meanwhile
                raise NotFound("rejoin-code-unknown", "This rejoin code was replaced by a newer one; ask the host for it.")
            _rejoin_code_usable(current)
            raise ServiceError("rejoin-code-used", "This rejoin code was already used; ask the host for a new one.", status=410)
        Seat.objects.filter(pk=target.pk).update(token_hash=token_hash, is_bot=False, bot="", away=False, user=new_user)
        services.seat_device_tokens_revoke(seat=target)
        is_host = target.is_host or old == locked.host_token_hash
        if is_host:  # the host's own seat: the host token moves with it
            Game.objects.filter(pk=locked.pk).update(host_token_hash=token_hash)
        moved.update(is_host=is_host)
        transaction.on_commit(services._guarded(lambda: services._token_revoked_send(locked.pk, token_hash=old, seat=target.index)))
        event = {"type": SEAT_MOVED, "seat": target.index, "name": target.name, "by": row.created_by}
        if target.is_bot:
            event["bot"] = target.bot  # a bot played it meanwhile: a person has it back
        if target.user_id is None or new_user is None or new_user.pk != target.user_id:
            if _game_unrated(locked, target):
                event["unrated"] = True
        return SEAT_MOVED, {"seat": target.index}, [event], None

    services._admin_change(game_id=game.pk, seat=row.seat, by=row.created_by, change=change)
    if new_user is not None:
        game_watch(game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    return SeatRejoined(game=game, seat=Seat.objects.get(game=game, index=row.seat), token=token, is_host=moved["is_host"])


def _game_unrated(game: Game, target: Seat) -> bool:
    """The game rates nobody from now on (``Game.unrated_reason``); False when it had a reason
    already (the first one stays, and was said)."""
    if game.unrated_reason:
        return False
    reason = f"{target.name}'s seat was handed to another device"
    Game.objects.filter(pk=game.pk).update(unrated_reason=reason)
    game.unrated_reason = reason
    return True


def _rejoin_code_usable(row: RejoinCode) -> None:
    if row.used_at is not None:
        raise ServiceError("rejoin-code-used", "This rejoin code was already used; ask the host for a new one.", status=410)
    if row.expires_at <= timezone.now():
        raise ServiceError("rejoin-code-expired", "This rejoin code has expired; ask the host for a new one.", status=410)
