"""Turn notices: when a signed-in player's turn begins and none of their sockets for that seat
is open, a Web Push notice to the devices they allowed, else an e-mail; at most one per turn.

``turn_started`` is games/turns.py's listener (registered in players/apps.py): it runs after the
move's commit, off the request's thread, so nothing here ever holds up a move. The
``TurnNotice`` row is written first: its unique (game, seat, turn_started_at) is what makes a
turn's notice one, whichever process or thread heard of the turn; the loser does nothing.

Web Push uses pywebpush with the VAPID keys from the environment (``JUNCTION_VAPID_PRIVATE_KEY``,
``JUNCTION_VAPID_SUBJECT``); a device the push service no longer knows (404, 410) is forgotten.
A device's endpoint is a URL a player sent: it is read as the sender reads it (urllib3's parser,
which requests uses) and must name one of JUNCTION_PUSH_HOSTS over https; at send time its host
is resolved once, every address must be public, and the connection goes to the address checked.
E-mail goes through Django's e-mail backend (console by default)."""

from __future__ import annotations

import datetime
import ipaddress
import json
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import LocationParseError, NewConnectionError
from urllib3.util import parse_url

from games import presence
from games.engines.registry import get_engine
from games.errors import Conflict
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
    the push service no longer knows (404, 410) is deleted. An endpoint that is not a push
    service's (a row older than the check), or whose host resolves to an address inside a
    network, is not posted to, and the device is kept: what became of it tells its owner nothing."""
    private = getattr(settings, "JUNCTION_VAPID_PRIVATE_KEY", "")
    if not private:
        return False
    from pywebpush import WebPushException, webpush

    data = json.dumps(payload, separators=(",", ":"))
    delivered = False
    with _push_session() as session:
        for device in PushSubscription.objects.filter(user_id=user_id):
            problem = push_endpoint_problem(endpoint=device.endpoint)
            if problem:
                log.warning("push to device %s of user %s not sent: %s", device.pk, user_id, problem)
                continue
            try:
                webpush(
                    subscription_info={"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
                    data=data,
                    vapid_private_key=private,
                    vapid_claims={"sub": settings.JUNCTION_VAPID_SUBJECT},
                    ttl=PUSH_TTL,
                    timeout=PUSH_TIMEOUT,
                    headers={"Urgency": "high"},
                    requests_session=session,
                )
            except WebPushException as exc:
                if exc.status_code in (404, 410):
                    device.delete()
                else:
                    log.warning("push to device %s of user %s failed: %s", device.pk, user_id, exc)
                continue
            except Exception:  # unreachable service, a refused address, a malformed key: the other devices still get theirs
                log.warning("push to device %s of user %s failed", device.pk, user_id, exc_info=True)
                continue
            delivered = True
            PushSubscription.objects.filter(pk=device.pk).update(last_ok_at=timezone.now())
    return delivered


def push_device_register(*, user_id: int, endpoint: str, p256dh: str, auth: str) -> tuple[PushSubscription, bool]:
    """This browser's push subscription for the user: (the device, whether it is new). The
    endpoint must already have passed ``push_endpoint_problem``. An endpoint that is another
    account's device stays theirs: Conflict ``endpoint-taken`` (409)."""
    mine = PushSubscription.objects.filter(endpoint=endpoint, user_id=user_id)
    if mine.update(p256dh=p256dh, auth=auth):
        return mine.get(), False
    try:
        with transaction.atomic():
            return PushSubscription.objects.create(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth), True
    except IntegrityError:  # the endpoint is taken: by this user a moment ago, or by another account
        if mine.update(p256dh=p256dh, auth=auth):
            return mine.get(), False
    raise Conflict("endpoint-taken", "This browser already gets another account's turn notices: "
                   "that account turns them off first (sign in to it, then Turn notices).")


# -- push endpoints: only the push services, only at public addresses -------------------------


def push_endpoint_problem(*, endpoint: Any) -> str:
    """Why the server must not post to ``endpoint`` ("" when it may). Read as the sender reads it:
    requests (under pywebpush) connects to the host urllib3's ``parse_url`` finds, and
    ``urlsplit`` must find the same one. An https URL of one of the browsers' push services
    (JUNCTION_PUSH_HOSTS: a host or a parent domain of it) with no user name, password or port;
    or, where JUNCTION_PUSH_LOOPBACK allows it (never in production), an http(s) URL on this
    machine, any port (the tests' fake push service)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000:
        return "endpoint must be a URL of at most 1000 characters."
    if any(char <= " " or char >= "\x7f" or char == "\\" for char in endpoint):
        return "endpoint must be plain ASCII with no spaces or backslashes."
    try:
        url = parse_url(endpoint)
        split = urlsplit(endpoint)
        split_port = split.port  # ValueError when it is not a number
    except (LocationParseError, ValueError):
        return "endpoint is not a URL."
    scheme = (url.scheme or "").lower()
    host = (url.host or "").lower().strip("[]")
    if not host or host != (split.hostname or ""):
        return "endpoint is not a URL."
    if url.auth is not None or split.username is not None or split.password is not None:
        return "endpoint must not carry a user name or password."
    if settings.JUNCTION_PUSH_LOOPBACK and scheme in ("http", "https") and _loopback_name(host):
        return ""
    if scheme != "https":
        return "endpoint must be an https URL."
    if url.port is not None or split_port is not None or ":" in (split.netloc or "").rpartition("]")[2]:
        return "endpoint must not name a port."
    if _ip_literal(host):
        return "endpoint must name its push service, not an address."
    if not any(host == allowed or host.endswith("." + allowed) for allowed in settings.JUNCTION_PUSH_HOSTS):
        return "endpoint is not at a known push service."
    return ""


def push_host_resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (the system's resolver), each once, in its order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class PushAddressRefused(Exception):
    """A push endpoint's host resolved to an address the server does not post to."""


def push_address(*, host: str, port: int) -> str:
    """The address to post to ``host`` at: it is resolved once and every address it resolves to
    must be public (not private, loopback, link-local, reserved, multicast or unspecified; loopback
    only where JUNCTION_PUSH_LOOPBACK allows). A name that answers a public address for the check
    and an inner one for the connection (DNS rebinding) gets nowhere: the caller connects to the
    address returned, not to the name."""
    addresses = push_host_resolve(host.strip("[]"), port)
    if not addresses:
        raise PushAddressRefused(f"{host} resolves to no address")
    for address in addresses:
        if not _public_address(address):
            raise PushAddressRefused(f"{host} resolves to {address}, not a public address")
    return addresses[0]


def _public_address(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if settings.JUNCTION_PUSH_LOOPBACK and ip.is_loopback:
        return True
    inner = [ip]
    if ip.version == 6:  # an IPv4 address carried in an IPv6 one reaches that IPv4 address
        inner += [v4 for v4 in (ip.ipv4_mapped, ip.sixtofour) if v4 is not None]
        if ip in _NAT64:
            inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return all(
        one.is_global and not (one.is_private or one.is_loopback or one.is_link_local or one.is_reserved
                               or one.is_multicast or one.is_unspecified)
        for one in inner
    )


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _loopback_name(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class _CheckedConnection:
    """A urllib3 connection that connects to the address ``push_address`` checked, while TLS (the
    server name, the certificate) and the Host header keep the host's name."""

    _dns_host: str
    port: int

    def _new_conn(self) -> socket.socket:
        try:
            checked = push_address(host=self._dns_host, port=self.port)
        except (PushAddressRefused, OSError) as exc:
            raise NewConnectionError(self, f"push not sent: {exc}") from exc  # type: ignore[arg-type]
        named, self._dns_host = self._dns_host, checked
        try:
            return super()._new_conn()  # type: ignore[misc]
        finally:
            self._dns_host = named


class _CheckedHTTPConnection(_CheckedConnection, HTTPConnection):
    pass


class _CheckedHTTPSConnection(_CheckedConnection, HTTPSConnection):
    pass


class _CheckedHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _CheckedHTTPConnection


class _CheckedHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _CheckedHTTPSConnection


class _CheckedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _CheckedHTTPConnectionPool, "https": _CheckedHTTPSConnectionPool}


def _push_session() -> requests.Session:
    """The session pywebpush posts through: every connection to an address push_address checked;
    no proxy from the environment (the server connects itself); no redirect followed (a push
    service answers, it does not send the notice elsewhere)."""
    session = requests.Session()
    session.trust_env = False
    session.max_redirects = 0
    adapter = _CheckedAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


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
