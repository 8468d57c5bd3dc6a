"""Client addresses and rate limits: one place for both, used by the HTTP API and the socket.

**The client's address** (:func:`client_address`, :func:`client_address_from_scope`) is the
socket's peer, unless ``JUNCTION_TRUSTED_PROXIES`` = N > 0 reverse proxies stand in front:
then it is the N-th address from the right of ``X-Forwarded-For`` (each proxy appends the
address it was reached from, so that one was written by the first of our own proxies, never by
the client), or the peer when the header holds fewer. Everything to its left is the client's
own claim and is never trusted. (DRF's ``get_ident`` is not used: with ``NUM_PROXIES`` unset it
counts the whole header as the client sent it, and with fewer hops than proxies it takes the
leftmost one, which the client wrote.)

**Limits** are fixed windows counted in the cache with its atomic ``add`` + ``incr`` (DRF's
default read-history-then-write check let concurrent requests all pass before any wrote).
Each is per address (an IPv6 address counts as its /64: one host holds a whole /64) and, when a
seat token is presented, also per seat. When the cache fails (Redis down or slow), counting
goes on in this process's memory for ``FALLBACK_FOR`` seconds before the cache is tried
again: limits stay in force per process, no request waits on a dead Redis more than once
in that time, and none is answered 500 for it.

**Reads are priced by their size** (:func:`read_price`): a read of the big public documents (a
game's state, the notes' get-state, the log, a replay step, a kind's content) costs one token of
the read limits per started ``JUNCTION_READ_PRICE_BYTES`` of JSON it sends, with or without a
token, so a flood of big reads is refused sooner than a flood of small ones. The throttle takes
the first token before the view runs (a refused read costs no query); the view charges the rest
once it knows the size (:func:`read_charge`). A 304 costs the first token only. A get-state over the
WebSocket is priced the same way against the same limits (:func:`aread_allowed`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import ipaddress
import logging
import math
import threading
import time

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

# --- the client's address ---------------------------------------------------------------


def _forwarded_address(peer: str | None, forwarded: str | None) -> str:
    proxies = settings.JUNCTION_TRUSTED_PROXIES
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            candidate = hops[-proxies]
            try:
                return str(ipaddress.ip_address(candidate))
            except ValueError:
                pass  # not an address: our proxy did not write it; the peer is all we know
    return peer or "unknown"


def client_address(request) -> str:
    """The address of the client that sent ``request`` (Django's or DRF's)."""
    meta = request.META
    return _forwarded_address(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def client_address_from_scope(scope) -> str:
    """The same for an ASGI scope (the WebSocket consumer's ``self.scope``)."""
    client = scope.get("client")
    peer = client[0] if client else None
    forwarded = [value.decode("latin-1") for name, value in scope.get("headers") or () if name.lower() == b"x-forwarded-for"]
    return _forwarded_address(peer, ",".join(forwarded) if forwarded else None)


def address_key(address: str) -> str:
    """What a limit counts an address as: itself, or for IPv6 its /64 network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def seat_key(token: str | None) -> str | None:
    """What a limit counts a seat token as (a hash: the token itself never reaches the cache)."""
    if not token:
        return None
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]


def _bearer(request) -> str | None:
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


# --- counting -------------------------------------------------------------------------

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@functools.lru_cache(maxsize=64)
def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"30/min"`` → (30, 60); empty, ``none`` or ``off`` → None (no limit)."""
    if rate is None or rate.strip().lower() in {"", "none", "off"}:
        return None
    try:
        number, period = rate.strip().split("/")
        return int(number), _PERIODS[period.strip()[0].lower()]
    except (ValueError, KeyError, IndexError):
        raise ImproperlyConfigured(f"Rate {rate!r} is not like '30/min' (per s, min, hour or day).") from None


FALLBACK = LocMemCache("junction-rate-limits", {"MAX_ENTRIES": 50_000, "CULL_FREQUENCY": 4})
FALLBACK_FOR = 5.0  # seconds counting stays in memory after the cache failed, before it is tried again
_shared_down_until = 0.0
_shared_lock = threading.Lock()
_last_warning = 0.0


def _count_in(cache, key: str, ttl: int, cost: int = 1) -> int:
    if isinstance(cache, RedisCache):
        # One round trip: INCRBY and EXPIRE in a pipeline (Django's add then incr took three: SET NX,
        # EXISTS, INCRBY). The key names its window, so renewing its expiry at each hit only keeps it
        # a little past its window's end.
        return _count_in_redis(cache, key, ttl, cost)
    cache.add(key, 0, timeout=ttl)
    try:
        return cache.incr(key, cost)
    except ValueError:  # expired between add and incr: a fresh window
        cache.add(key, cost, timeout=ttl)
        return cost


def _count_in_redis(cache, key: str, ttl: int, cost: int) -> int:
    full = cache.make_and_validate_key(key)
    pipe = cache._cache.get_client(full, write=True).pipeline(transaction=False)
    pipe.incrby(full, cost)
    pipe.expire(full, ttl)
    return int(pipe.execute()[0])


def _count(key: str, ttl: int, cost: int = 1) -> int:
    """Count ``cost`` hits of ``key``: in the shared cache, or in this process when that fails."""
    global _shared_down_until, _last_warning
    if time.monotonic() >= _shared_down_until:
        try:
            return _count_in(caches["default"], key, ttl, cost)
        except Exception as exc:  # any failure of the cache backend (redis ConnectionError, TimeoutError, ...)
            now = time.monotonic()
            with _shared_lock:
                _shared_down_until = now + FALLBACK_FOR
                warn = now - _last_warning >= 60  # once a minute, not once per request
                if warn:
                    _last_warning = now
            if warn:
                log.warning("rate limits: the cache failed (%r); counting in this process for now", exc)
    return _count_in(FALLBACK, key, ttl, cost)


def fixed_window(now: float, duration: int) -> tuple[int, float]:
    """The window ``now`` falls in, for windows of ``duration`` seconds, and the seconds a client
    past the limit is asked to wait (what is left of the window, at least one)."""
    window = int(now // duration)
    return window, max(1.0, (window + 1) * duration - now)


def hit(scope: str, ident: str, rate: str | None, now: float | None = None, cost: int = 1) -> float | None:
    """Count a request of ``ident`` under ``scope`` (``cost`` tokens of ``rate``: one, unless it is
    priced); None when within ``rate``, else the seconds until its window ends."""
    parsed = parse_rate(rate)
    if parsed is None:
        return None
    limit, duration = parsed
    now = time.time() if now is None else now
    window, left = fixed_window(now, duration)
    count = _count(f"rl:{scope}:{ident}:{window}", duration + 1, cost)
    if count <= limit:
        return None
    if count - cost <= limit:  # once per window (the request that crossed it), not once per refused request
        log.info("rate limit %s (%s) reached by %s", scope, rate, ident)
    return left


def check(scope: str, *, address: str, seat: str | None, now: float | None = None, cost: int = 1) -> float | None:
    """Count a request of ``scope`` by ``address`` (and ``seat``, a :func:`seat_key`, if any)
    against ``LIMITS[scope]``, ``cost`` tokens of each; None when allowed, else the seconds to wait."""
    address_rate, seat_rate = (getattr(settings, name) if name else None for name in LIMITS[scope])
    waits = [hit(scope, address_key(address), address_rate, now, cost)]
    if seat:
        waits.append(hit(f"{scope}-seat", seat, seat_rate, now, cost))
    waits = [w for w in waits if w is not None]
    return max(waits) if waits else None


# scope → (setting of the per-address rate, setting of the per-seat rate or None)
LIMITS: dict[str, tuple[str, str | None]] = {
    "create": ("JUNCTION_CREATE_RATE", None),
    "join": ("JUNCTION_JOIN_RATE", None),
    "command": ("JUNCTION_COMMAND_RATE", "JUNCTION_COMMAND_SEAT_RATE"),
    "read": ("JUNCTION_READ_RATE", "JUNCTION_READ_SEAT_RATE"),
    "chat": ("JUNCTION_CHAT_RATE", "JUNCTION_CHAT_SEAT_RATE"),
}


def read_price(size: int) -> int:
    """The tokens of the read limits a read of ``size`` bytes costs: one per started
    ``JUNCTION_READ_PRICE_BYTES`` (64 KiB by default), at least one; one when pricing is off (0)."""
    unit = settings.JUNCTION_READ_PRICE_BYTES
    return max(1, math.ceil(size / unit)) if unit > 0 else 1


def read_charge(request, *, size: int, paid: int = 1) -> None:
    """Charge a read of ``size`` bytes what its price adds to the ``paid`` tokens its throttle already
    took (:class:`ReadRateThrottle`, :class:`CommandOrReadThrottle` for a get-state); raises DRF's
    ``Throttled`` (429 ``rate-limited`` with ``Retry-After``) when that passes a read limit."""
    extra = read_price(size) - paid
    if extra <= 0:
        return
    wait = check("read", address=client_address(request), seat=seat_key(_bearer(request)), cost=extra)
    if wait is not None:
        raise Throttled(wait=wait)


def command_allowed(*, address: str, seat_key: str | None) -> float | None:
    """A WebSocket command counts against the same limit as ``POST …/commands``: None when
    allowed, else the seconds to wait. ``address``: :func:`client_address_from_scope`;
    ``seat_key``: :func:`seat_key` of the socket's token."""
    return check("command", address=address, seat=seat_key)


async def acommand_allowed(*, address: str, seat_key: str | None) -> float | None:
    """:func:`command_allowed` for an event loop: a Redis round trip is made in a thread,
    so a slow or dead Redis never blocks the loop's other sockets."""
    if isinstance(caches["default"], LocMemCache):
        return command_allowed(address=address, seat_key=seat_key)
    return await asyncio.to_thread(command_allowed, address=address, seat_key=seat_key)


def read_allowed(*, address: str, seat_key: str | None, cost: int = 1) -> float | None:
    """A WebSocket get-state is a read, priced like HTTP's: ``cost`` tokens of the same read limits
    (its first one before it is read, the rest of :func:`read_price` once its size is known); None
    when allowed (or nothing to count), else the seconds to wait."""
    if cost <= 0:
        return None
    return check("read", address=address, seat=seat_key, cost=cost)


async def aread_allowed(*, address: str, seat_key: str | None, cost: int = 1) -> float | None:
    """:func:`read_allowed` for an event loop (a Redis round trip in a thread, as :func:`acommand_allowed`)."""
    if cost <= 0 or isinstance(caches["default"], LocMemCache):
        return read_allowed(address=address, seat_key=seat_key, cost=cost)
    return await asyncio.to_thread(read_allowed, address=address, seat_key=seat_key, cost=cost)


# --- DRF throttles --------------------------------------------------------------------


class LimitThrottle(BaseThrottle):
    """Applies ``LIMITS[scope]`` to a request: per client address, and per seat when it
    presents a bearer token. Refused requests get 429 ``rate-limited`` with ``Retry-After``
    (games/api/errors.py)."""

    scope = ""
    methods: frozenset[str] | None = None  # None: every method

    def allow_request(self, request, view):
        self.wait_for = None
        if self.methods is not None and request.method not in self.methods:
            return True
        self.wait_for = check(self.scope, address=client_address(request), seat=seat_key(_bearer(request)))
        return self.wait_for is None

    def get_ident(self, request):
        return client_address(request)

    def wait(self):
        return self.wait_for


class CreateRateThrottle(LimitThrottle):
    """Game creation (``JUNCTION_CREATE_RATE`` per address)."""

    scope = "create"
    methods = frozenset({"POST"})


class JoinRateThrottle(LimitThrottle):
    """Seat requests (``JUNCTION_JOIN_RATE`` per address)."""

    scope = "join"
    methods = frozenset({"POST"})


class ChatRateThrottle(LimitThrottle):
    """Chat messages (``JUNCTION_CHAT_RATE`` per address, ``JUNCTION_CHAT_SEAT_RATE`` per seat; games/chat.py)."""

    scope = "chat"
    methods = frozenset({"POST"})


class CommandRateThrottle(LimitThrottle):
    """Commands and start (``JUNCTION_COMMAND_RATE`` per address, ``JUNCTION_COMMAND_SEAT_RATE`` per seat)."""

    scope = "command"
    methods = frozenset({"POST"})


class CommandOrReadThrottle(CommandRateThrottle):
    """``POST …/commands`` and ``POST /api``: a command, except that a ``{"cmd": "get-state"}`` body is a
    read, counted against the read limits (its first token; the view charges the rest of its price,
    :func:`read_charge`)."""

    def allow_request(self, request, view):
        try:
            body = request.data
        except Exception:  # not JSON, too big...: counted as a command, then answered as the parser's error
            self.scope = "command"
            if not super().allow_request(request, view):
                return False
            raise
        self.scope = "read" if isinstance(body, dict) and body.get("cmd") == "get-state" else "command"
        return super().allow_request(request, view)


class ReadRateThrottle(LimitThrottle):
    """State polls, the log, replay steps, a kind's content, summaries and the lobby list
    (``JUNCTION_READ_RATE`` per address, ``JUNCTION_READ_SEAT_RATE`` per seat): one token each here,
    the big ones the rest of their price in the view (:func:`read_charge`)."""

    scope = "read"
    methods = frozenset({"GET", "HEAD"})
