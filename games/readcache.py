"""Serialised reads kept per game version: a crowd of readers costs one serialisation per move.

A read — a game's state, a get-state (the notes' protocol document too), the log after n, a replay step,
a kind's content — is named by a :class:`ReadKey`: the game (id and code), the version and status read
with its row in this request, the viewer (``seat<n>``, or ``spectator`` for every caller without a seat:
each seat has its own redacted view and log, spectators share one) and what was asked. Its bytes (the
JSON DRF's renderer writes) are kept in this process's memory, least recently used out first, at most
``JUNCTION_READ_CACHE_BYTES`` in all (a read bigger than a quarter of that is not kept). The same read of
a newer version replaces the older one at once, and a request only ever looks up the version it read
itself, so nothing older than the game's current version is served and a finished flood leaves at most
one copy per read behind. Concurrent misses of one key wait for the first to build it (one serialisation,
not sixteen). Only the serialisation is kept: the token → seat resolution runs on every request before
its key is made, and the key names the seat it resolved to.

The ETag is ``W/"<code>-<version>-<viewer>-<hash>"``, the hash over what was asked, the game's status
and this build's code and data (a deploy that changes a view changes its tags).
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from rest_framework.renderers import JSONRenderer

from .models import Game

_RENDERER = JSONRenderer()


@dataclass(frozen=True)
class ReadKey:
    """One read of one version: ``slot`` names the read whatever the version (game, viewer, ask)."""

    slot: tuple
    version: int
    etag: str = field(compare=False)


@functools.cache
def _code_digest() -> bytes:
    """This build's games/ code and data (read once a process: ~1.7 MB, a few ms)."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(__file__).resolve().parent
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.json")]):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.digest()


def viewer_name(seat: int | None) -> str:
    """Who a read is for: ``seat<n>``, or ``spectator`` (no seat: a spectator, or a host without one)."""
    return "spectator" if seat is None else f"seat{seat}"


def read_key(*, game: Game, seat: int | None, ask: tuple) -> ReadKey:
    """The key of what ``seat`` (None: a spectator) asked of ``game`` as this request read it; ``ask``
    names the read and its arguments, e.g. ``("actions", 12)``."""
    viewer = viewer_name(seat)
    digest = hashlib.blake2b(repr((ask, game.status)).encode(), digest_size=8, key=_code_digest()).hexdigest()
    return ReadKey(
        slot=(game.pk, game.code, viewer, ask),
        version=(game.version, game.status),
        etag=f'W/"{game.code}-{game.version}-{viewer}-{digest}"',
    )


def content_read_key(*, kind: str, version: str) -> ReadKey:
    """A kind's content (the same for every game and viewer): its ETag is its ``version`` (as before)."""
    return ReadKey(slot=("content", kind), version=(0, version), etag=f'"{version}"')


def etag_matches(*, if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weak comparison: W/ aside; ``*``: any)."""
    if not if_none_match:
        return False
    wanted = etag.removeprefix("W/")
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == wanted:
            return True
    return False


class _Flight:
    """A key being built: later askers wait on ``lock`` and take ``body``."""

    __slots__ = ("lock", "body")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.body: bytes | None = None


class ReadCache:
    """An LRU of rendered reads bounded in bytes (``JUNCTION_READ_CACHE_BYTES``, read at each store)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[ReadKey, bytes] = OrderedDict()
        self._slots: dict[tuple, ReadKey] = {}
        self._building: dict[ReadKey, _Flight] = {}
        self.size = 0  # bytes kept
        self.builds = 0  # serialisations made (tests, benches)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: ReadKey, build: Callable[[], Any]) -> bytes:
        """The bytes of ``key``: kept ones, else ``build()`` rendered (once for concurrent askers) and kept."""
        with self._lock:
            body = self._entries.get(key)
            if body is not None:
                self._entries.move_to_end(key)
                return body
            flight = self._building.get(key)
            leader = flight is None
            if leader:
                flight = self._building[key] = _Flight()
                flight.lock.acquire()
        if not leader:
            with flight.lock:
                pass
            if flight.body is not None:
                return flight.body
            return self._render(build)  # the first asker failed (an error to answer): ask again alone
        try:
            body = flight.body = self._render(build)
            self._store(key, body)
            return body
        finally:
            with self._lock:
                self._building.pop(key, None)
            flight.lock.release()

    def _render(self, build: Callable[[], Any]) -> bytes:
        body = _RENDERER.render(build())
        self.builds += 1
        return body

    def _store(self, key: ReadKey, body: bytes) -> None:
        limit = settings.JUNCTION_READ_CACHE_BYTES
        if len(body) > limit // 4:
            return
        with self._lock:
            kept = self._slots.get(key.slot)
            if kept is not None:
                if kept.version[0] > key.version[0]:
                    return  # a newer version is kept already: this request read the row before a move
                self._drop(kept)
            self._entries[key] = body
            self._slots[key.slot] = key
            self.size += len(body)
            while self.size > limit:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: ReadKey) -> None:
        self.size -= len(self._entries.pop(key))
        if self._slots.get(key.slot) == key:
            del self._slots[key.slot]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._slots.clear()
            self.size = 0


READS = ReadCache()


def read_bytes(*, key: ReadKey, build: Callable[[], Any]) -> bytes:
    """The JSON bytes of the read ``key``: this process's kept copy, or ``build()``'s answer rendered
    (``build`` runs the selectors; its errors reach the caller and nothing is kept)."""
    return READS.get(key, build)


def reads_forget() -> None:
    """Forget every kept read (tests)."""
    READS.clear()
