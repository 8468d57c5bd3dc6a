"""Turn notices: when a signed-in player's turn begins and none of their sockets for that seat
is open, a Web Push notice to the devices they allowed, else an e-mail; at most one per turn.

``turn_started`` is games/turns.py's listener (registered in players/apps.py): it runs after the
move's commit, off the request's thread, so nothing here ever holds up a move. The
``TurnNotice`` row is written first: its unique (game, seat, turn_started_at) is what makes a
turn's notice one, whichever process or thread heard of the turn; the loser does nothing.

Web Push uses pywebpush with the VAPID keys from the environment (``JUNCTION_VAPID_PRIVATE_KEY``,
``JUNCTION_VAPID_SUBJECT``); a device the push service no longer knows (404, 410) is forgotten.
E-mail goes through Django's e-mail backend (console by default)."""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.engines.registry import get_engine
from games.models import Seat

from .models import Profile, PushSubscription, TurnNotice

log = logging.getLogger(__name__)

PUSH_TIMEOUT = 10.0  # seconds per push service request
# How long a push service keeps a notice for a device that is offline: a slow game's turn
# matters for a day.
PUSH_TTL = 24 * 3600
Notices = Profile.Notices
Channel = TurnNotice.Channel


def turn_started(game_id: int, seat_index: int, user_id: int | None, turn_started_at: datetime.datetime) -> None:
    """games.turns listener: a turn began (after commit, in a thread of its own)."""
    if user_id is None:
        return
    turn_notice_send(game_id=game_id, seat=seat_index, user_id=user_id, turn_started_at=turn_started_at)


def turn_notice_send(*, game_id: int, seat: int, user_id: int, turn_started_at: datetime.datetime) -> TurnNotice | None:
    """Send the notice of this turn, once: None when another process or thread already did
    (or the game is gone); else the notice, with the channel it went through."""
    try:
        with transaction.atomic():
            notice = TurnNotice.objects.create(game_id=game_id, seat=seat, turn_started_at=turn_started_at,
                                               user_id=user_id, channel=Channel.NONE)
    except IntegrityError:
        return None
    channel = _deliver(game_id=game_id, seat=seat, user_id=user_id, turn_started_at=turn_started_at)
    if channel != Channel.NONE:
        TurnNotice.objects.filter(pk=notice.pk).update(channel=channel)
        notice.channel = channel
    return notice


def _deliver(*, game_id: int, seat: int, user_id: int, turn_started_at: datetime.datetime) -> str:
    # The open page first: the usual case of a player at the table, told by junction.js itself,
    # then costs this one read.
    if presence.seat_socket_fresh(game_id=game_id, seat=seat):
        return Channel.NONE
    # The seat, its game and its player's choice and address in one read.
    row = (Seat.objects.filter(game_id=game_id, index=seat).order_by()
           .values_list("user_id", "turn_started_at", "name", "game__code", "game__kind",
                        "user__profile__turn_notices", "user__email").first())
    if row is None:
        return Channel.NONE  # the game is gone
    held_by, started_at, name, code, kind, setting, email = row
    if held_by != user_id or started_at != turn_started_at:
        return Channel.NONE  # the seat changed hands, or this turn is already over
    setting = setting or Notices.PUSH_OR_EMAIL  # a user without a profile has the default
    if setting == Notices.OFF:
        return Channel.NONE
    message = _message(kind=kind, code=code, name=name)
    if setting in (Notices.PUSH_OR_EMAIL, Notices.PUSH) and push_send(user_id=user_id, payload=message):
        return Channel.PUSH
    if setting in (Notices.PUSH_OR_EMAIL, Notices.EMAIL) and _email_send(user_id=user_id, email=email, message=message):
        return Channel.EMAIL
    return Channel.NONE


def _message(*, kind: str, code: str, name: str) -> dict[str, str]:
    title = get_engine(kind).title
    return {
        "title": f"Your turn in {title}",
        "body": f"Game {code}: {name}, it is your move.",
        "url": reverse("room", kwargs={"code": code}),
    }


# -- Web Push ------------------------------------------------------------------------------


def vapid_public_key() -> str:
    """The application server key browsers subscribe with (base64url of the uncompressed point):
    JUNCTION_VAPID_PUBLIC_KEY, or derived from the private key; "" without keys."""
    given = getattr(settings, "JUNCTION_VAPID_PUBLIC_KEY", "")
    if given:
        return given
    private = getattr(settings, "JUNCTION_VAPID_PRIVATE_KEY", "")
    if not private:
        return ""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid
    from py_vapid.utils import b64urlencode

    point = Vapid.from_string(private_key=private).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(point)


def push_send(*, user_id: int, payload: dict[str, Any]) -> bool:
    """Push ``payload`` to each of the user's devices; True when at least one took it. A device
    the push service no longer knows (404, 410) is deleted."""
    private = getattr(settings, "JUNCTION_VAPID_PRIVATE_KEY", "")
    if not private:
        return False
    from pywebpush import WebPushException, webpush

    data = json.dumps(payload, separators=(",", ":"))
    delivered = False
    for device in PushSubscription.objects.filter(user_id=user_id):
        try:
            webpush(
                subscription_info={"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
                data=data,
                vapid_private_key=private,
                vapid_claims={"sub": settings.JUNCTION_VAPID_SUBJECT},
                ttl=PUSH_TTL,
                timeout=PUSH_TIMEOUT,
                headers={"Urgency": "high"},
            )
        except WebPushException as exc:
            if exc.status_code in (404, 410):
                device.delete()
            else:
                log.warning("push to device %s of user %s failed: %s", device.pk, user_id, exc)
            continue
        except Exception:  # unreachable service, a malformed key: the other devices still get theirs
            log.warning("push to device %s of user %s failed", device.pk, user_id, exc_info=True)
            continue
        delivered = True
        PushSubscription.objects.filter(pk=device.pk).update(last_ok_at=timezone.now())
    return delivered


# -- e-mail ----------------------------------------------------------------------------------


def _email_send(*, user_id: int, email: str, message: dict[str, str]) -> bool:
    if not email:
        return False
    base = getattr(settings, "JUNCTION_PUBLIC_URL", "")
    link = base + message["url"] if base else message["url"]
    body = (f"{message['body']}\n\nOpen your seat: {link}\n\n"
            "You get this because none of your pages of this game was open. "
            f"Choose how you are told of your turns: {base + reverse('notices') if base else reverse('notices')}\n")
    try:
        send_mail(message["title"], body, None, [email])
    except Exception:
        log.warning("turn notice e-mail to user %s failed", user_id, exc_info=True)
        return False
    return True
