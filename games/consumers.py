"""WebSocket edge: authenticate, join the right groups, relay. No rules here.

Server → client: ``{"type": "state", "version", "status", "seat", "state", "legal_commands"}``
on connect and after every change; ``{"type": "game", "game": summary}`` when seats
or status change; ``{"type": "result", ...}`` / ``{"type": "error", "error": {...}}``
answering a command the client sent (echoing its ``command_id``); a result comes after the
state it produced, so a client holding the answer holds the new state too; ``{"type": "chat",
"message"}`` and ``{"type": "chat-hidden", "id"}`` for the game's chat (games/chat.py).
Client → server: the same bodies as ``POST /api/games/{code}/commands``; the exact text
``{"type":"ping"}`` is the page's heartbeat, answered ``{"type":"pong"}`` (no database, no limit).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db.models import prefetch_related_objects
from rest_framework.exceptions import ValidationError

from . import broadcast, chat, presence, selectors, services
from .api.errors import _flatten
from .api.parsers import TooDeep, loads_bounded
from .api.serializers import command_validate
from .api.throttling import (
    aread_allowed,
    client_address_from_scope,
    fixed_window,
    parse_rate,
    read_price,
    seat_key,
)
from .errors import (
    DATABASE_BUSY_RETRY_AFTER,
    INTERNAL_ERROR_MESSAGE,
    ServiceError,
    Unauthorized,
    database_fault,
)
from .tokens import hash_token

MAX_FRAME = 64 * 1024
# The page's heartbeat: exactly this text is answered with PONG at once, so a page notices a
# connection that went quiet (a dropped Wi-Fi closes nothing) within seconds.
PING, PONG = '{"type":"ping"}', '{"type":"pong"}'
# Daphne drops a handshake the application has not accepted within its connect timeout (5 s
# by default): database work for a handshake still queued after this long is skipped, not done
# for a client that is gone (under a reconnect storm that wasted work is what kept it going).
CONNECT_BUDGET = 4.0  # seconds


class ConnectExpired(Exception):
    """The handshake waited too long for the database thread: its client has been dropped."""


def _connect_in_time(began: float) -> None:
    if time.monotonic() - began > CONNECT_BUDGET:
        raise ConnectExpired




def fault_frame(exc: BaseException) -> dict[str, Any] | None:
    """The answer when the database cannot serve now (games.errors.database_fault): no
    connection in time (``database-busy``) or the server gone away (``database-unavailable``);
    None for anything else."""
    fault = database_fault(exc)
    if fault is None:
        return None
    code, message = fault
    return {"type": "error", "error": {"code": code, "message": message}, "retry_after": DATABASE_BUSY_RETRY_AFTER}

log = logging.getLogger(__name__)


class NoDatabaseDispatchMixin:
    """channels' dispatch hops to the database thread to close old connections before
    *every* message, broadcasts relayed to the socket included, so each relay queued
    behind whatever command that one thread was running. Here only the handlers that
    touch the database do (``database_sync_to_async`` closes old connections itself)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class GameConsumer(NoDatabaseDispatchMixin, AsyncWebsocketConsumer):
    groups: list[str] = []
    lost = False  # its token's seat moved to another device: told, closed, sends nothing more
    token_digest: str | None = None
    read_seat_key: str | None = None  # its token as the read limits count it (throttling.seat_key): get-state
    # The game's version in the last state or summary this socket sent its client (None until
    # the first): games.broadcast's resync compares it with the log's.
    version_sent: int | None = None
    behind_since: object | None = None
    # The newest chat message this socket was sent or may have read (None until the resync's first look):
    # the resync sends the game afresh to a socket that missed one (games/broadcast.py).
    chat_seen: int | None = None
    # Commands over this socket, counted here in a fixed window at JUNCTION_COMMAND_SEAT_RATE:
    # no round trip to the shared counter on the move path (HTTP commands count there).
    _limit_window = -1
    _limit_count = 0
    # A seat held by a signed-in player: this socket has a SeatSocket row (games/presence.py) that
    # turn notices read. Guests' sockets (most) never touch it: one attribute test per ping.
    presence = False
    _presence_at = 0.0
    _presence_task: asyncio.Task | None = None
    # Any seat's socket keeps its Seat.last_seen (games/presence.py: the host's rejoin code waits
    # for a seat whose phone is away): written on open and close, and by a timer of its own between.
    seat_id: int | None = None
    _seen_task: asyncio.Task | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        token = (parse_qs(self.scope.get("query_string", b"").decode()).get("token") or [None])[0]
        self.connect_began = time.monotonic()
        # Its hash, to know this socket when its seat is handed to another device (seat_moved).
        self.token_digest = hash_token(token) if token else None
        self.read_seat_key = seat_key(token)
        try:
            self.game_id, self.code, self.actor = await self._authenticate(code, token)
        except ConnectExpired:
            await self.close(code=1013)
            return
        except ServiceError as exc:
            await self.accept()
            await self._send_json({"type": "error", "error": {"code": exc.code, "message": exc.message}})
            await self.close(code=4000 + exc.status)
            return
        except Exception as exc:
            frame = fault_frame(exc)
            if frame is None:
                raise
            # No database now: say so, and close as "try again later" (the page's socket
            # reconnects by itself).
            await self.accept()
            await self._send_json(frame)
            await self.close(code=1013)
            return
        self.view_key = broadcast.view_key(self.actor.seat)
        self.my_groups = [broadcast.game_group(self.game_id)]
        try:
            for group in self.my_groups:
                await broadcast.with_layer_retries(self.channel_layer.group_add, group, self.channel_name)
        except broadcast.LAYER_ERRORS:
            # The channel layer (Redis) is down: say so and let the client retry later.
            self.my_groups = []
            await self.accept()
            await self._error("unavailable", "Live updates are unavailable for a moment; reconnecting.")
            await self.close(code=1013)
            return
        for group in self.my_groups:
            broadcast.local_join(group, self)
        await self.accept()  # no await since local_join: a local delivery finds the socket accepted
        try:
            await self._send_snapshot()
        except Exception as exc:
            frame = fault_frame(exc)
            if frame is None:
                raise
            await self._send_json(frame)
            await self.close(code=1013)
            return
        if self.seat_id is not None and not self.lost:
            self._seen_task = asyncio.ensure_future(self._seat_seen_every())

    async def disconnect(self, close_code: int) -> None:
        for group in getattr(self, "my_groups", []):
            broadcast.local_leave(group, self)
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except broadcast.LAYER_ERRORS:  # Redis down: its subscription went with it
                pass
        if self.presence:
            await self._presence_close()
        if self.seat_id is not None:
            await self._seat_seen_close()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not hasattr(self, "actor") or self.lost:
            return
        if text_data == PING:  # the page's heartbeat (static/js/junction.js): no database, no limit
            await self.send(text_data=PONG)
            if self.presence:
                self._presence_seen()
            return
        if bytes_data is not None or text_data is None:
            await self._error("binary-not-supported", "Send commands as JSON text frames.")
            return
        if len(text_data) > MAX_FRAME:
            await self._error("payload-too-large", f"Frames are limited to {MAX_FRAME} bytes.")
            return
        try:
            body = loads_bounded(text_data)
        except TooDeep as exc:
            await self._error("invalid-json", str(exc))
            return
        except ValueError:
            await self._error("malformed-json", "The frame is not valid JSON.")
            return
        if not isinstance(body, dict):
            await self._error("invalid-request", "A command must be a JSON object.")
            return
        command_id = body.get("command_id")
        if body.get("cmd") == "get-state":  # a read, priced by its size like HTTP's: not a command
            await self._get_state(body, command_id)
            return
        wait = self._over_the_limit()
        if wait is not None:  # the socket stays open; the client may send again after retry_after
            await self._rate_limited(wait, command_id, "commands")
            return
        response, outbox = await self._handle(body)
        if command_id is not None and isinstance(command_id, str):
            response["command_id"] = command_id
        # The committed change to this process's sockets, then the answer, then the channel
        # layer's publishes, from this loop: when a client has the answer it has the state.
        await broadcast.send_async(outbox, after_local=lambda: self._send_json(response))

    async def _get_state(self, body: dict[str, Any], command_id: Any) -> None:
        """``{"cmd": "get-state"}`` over the socket counts against the same read limits as HTTP's
        (games/api/throttling.py: per address and per seat token, one token per started
        ``JUNCTION_READ_PRICE_BYTES`` of the answer): its first token before the read (a refused one
        costs no query), the rest once its size is known; past a limit the answer is the
        ``rate-limited`` frame instead, and the socket stays open."""
        address, seat = client_address_from_scope(self.scope), self.read_seat_key
        wait = await aread_allowed(address=address, seat_key=seat)
        if wait is None:
            response, _ = await self._handle(body)  # a read: nothing committed, nothing to broadcast
            if isinstance(command_id, str):
                response["command_id"] = command_id
            text = broadcast.dumps(response)
            if response.get("type") == "state":
                wait = await aread_allowed(address=address, seat_key=seat, cost=read_price(len(text)) - 1)
        if wait is not None:
            await self._rate_limited(wait, command_id, "reads")
            return
        await self.send(text_data=text)
        if response.get("type") == "state":
            self._sent(response["version"])

    async def _rate_limited(self, wait: float, command_id: Any, what: str) -> None:
        frame = {"type": "error", "error": {"code": "rate-limited", "message": f"Too many {what}; try again in {math.ceil(wait)} s."},
                 "retry_after": math.ceil(wait)}
        if isinstance(command_id, str):
            frame["command_id"] = command_id
        await self._send_json(frame)

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def game_update(self, event: dict[str, Any]) -> None:
        """A change of this game: send the summary if any, then this socket's own view only.
        The layer's copy of a change already delivered in this process is skipped; a change made
        by another process also brings this process's store up to date."""
        if broadcast.is_own_copy(event):
            return
        broadcast.update_received(event)
        if self.lost:
            return
        if event.get("summary"):
            await self.send(text_data=event["summary"])
        text = event["states"].get(self.view_key)
        if text is not None:
            await self.send(text_data=text)
        self._sent(event.get("version"))

    async def chat_message(self, event: dict[str, Any]) -> None:
        """A chat message (games/chat.py), to the sockets that may read it live: the table's to everyone, the
        spectators' to spectators until the game is over. The page leaves out whom its player muted."""
        if broadcast.is_own_copy(event) or self.lost:
            return
        message = event["message"]
        if chat.visible_live(audience=message["audience"], game_over=bool(event.get("open")), seat=self.actor.seat, is_host=self.actor.is_host):
            await self._send_json({"type": "chat", "message": message})
            # The resync's count of what this socket was sent (games/broadcast.py): None until its first check.
            if self.chat_seen is not None and isinstance(message.get("id"), int):
                self.chat_seen = max(self.chat_seen, message["id"])

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        """A game master hid a chat message: every page takes it away."""
        if broadcast.is_own_copy(event) or self.lost:
            return
        await self._send_json({"type": "chat-hidden", "id": event["id"]})

    async def seat_moved(self, event: dict[str, Any]) -> None:
        """A rejoin code moved a seat to another device (services.rejoin_code_redeem): the
        socket that held it with the token now revoked tells its client, then closes (4401:
        the page stops reconnecting with that token). Every other socket stays."""
        if broadcast.is_own_copy(event) or not self.token_digest or event.get("token_hash") != self.token_digest:
            return
        await self._seat_lost(Unauthorized("seat-moved", selectors.SEAT_MOVED_MESSAGE), seat=event.get("seat"))

    async def seats_reordered(self, event: dict[str, Any]) -> None:
        """The host reordered the waiting room's seats, or removed one (games/seating.py): this
        socket's token keeps its seat row, whose index may have changed. The snapshot looks it up
        again, then the client is told its seat's index (``{"type": "seat", "seat"}``: the page
        keeps it). A token whose seat was removed holds none: the snapshot tells its client
        ``seat-removed`` (selectors.token_lost) and closes (4401)."""
        if broadcast.is_own_copy(event) or self.actor.seat is None or self.lost:
            return
        await self._send_snapshot()
        if not self.lost:
            await self._send_json({"type": "seat", "seat": self.actor.seat})

    async def _seat_lost(self, error: ServiceError, seat: int | None = None) -> None:
        """Tell the client why its token holds nothing any more, and close (4000 + the status)."""
        if self.lost:
            return
        self.lost = True
        frame: dict[str, Any] = {"type": "error", "error": {"code": error.code, "message": error.message}}
        if seat is not None:
            frame["seat"] = seat
        await self._send_json(frame)
        await self.close(code=4000 + error.status)

    async def resync(self) -> None:
        """Send the game afresh (its summary and this socket's view): this socket fell behind
        the log (see ``games.broadcast.resync_once``)."""
        await self._send_snapshot()

    def _over_the_limit(self) -> float | None:
        """Count one command of this socket; None within the rate, else the seconds to wait."""
        parsed = parse_rate(settings.JUNCTION_COMMAND_SEAT_RATE)
        if parsed is None:
            return None
        limit, duration = parsed
        window, left = fixed_window(time.time(), duration)
        if window != self._limit_window:
            self._limit_window, self._limit_count = window, 0
        self._limit_count += 1
        return None if self._limit_count <= limit else left

    def _sent(self, version: int | None) -> None:
        if version is not None and (self.version_sent is None or version > self.version_sent):
            self.version_sent = version

    # -- helpers -----------------------------------------------------------------------

    @database_sync_to_async
    def _authenticate(self, code: str, token: str | None):
        _connect_in_time(self.connect_began)
        game = selectors.game_for_token(code=code)  # no state: the snapshot reads it once, after accept
        actor = selectors.actor_for_token(game=game, token=token)
        return game.id, game.code, actor

    @database_sync_to_async
    def _snapshot(self) -> tuple[int, list[str]]:
        game = selectors.game_get(code=self.code)
        prefetch_related_objects([game], "seats")  # the summary's one query, also read below
        if self.token_digest and not selectors.token_current(game=game, actor=self.actor, digest=self.token_digest):
            # The host reordered the waiting room's seats (games/seating.py): the token's seat row
            # has another index now; else its seat moved to another device after the handshake
            # read it, before this socket joined the game's group (so it missed the news): say so now.
            seat = selectors.seat_for_token_hash(self.token_digest, game.seats.all())
            if seat is None:
                raise selectors.token_lost(self.token_digest)
            self.actor = selectors.Actor(game_id=game.id, seat=seat.index, is_host=self.actor.is_host or seat.is_host)
            self.view_key = broadcast.view_key(seat.index)
        self._presence_open(game)
        texts = [broadcast.dumps({"type": "game", "game": selectors.game_summary(game)})]
        if game.state is not None:
            texts.append(broadcast.dumps({"type": "state", **selectors.state_payload(game=game, seat=self.actor.seat)}))
        return game.version, texts

    async def _send_snapshot(self) -> None:
        if self.lost:
            return
        try:
            version, texts = await self._snapshot()
        except ServiceError as exc:
            await self._seat_lost(exc, seat=self.actor.seat)
            return
        for text in texts:
            await self.send(text_data=text)
        self._sent(version)

    async def _handle(self, body: dict[str, Any]) -> tuple[dict[str, Any], list]:
        """The answer to one command, and the broadcasts its commit produced (to send)."""
        with broadcast.collecting() as outbox:
            try:
                response = await self._answer(body)
            except Exception as exc:
                frame = fault_frame(exc)
                if frame is not None:  # busy or gone away: the socket stays; the client retries
                    return frame, outbox
                # a defect: answer it like the HTTP API's 500 handler would
                log.exception("command failed in game %s", self.code)
                response = {"type": "error", "error": {"code": "internal-error", "message": INTERNAL_ERROR_MESSAGE}}
        return response, outbox

    async def _answer(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            data = command_validate(body)
        except ValidationError as exc:
            return {"type": "error", "error": {"code": "invalid-request", "message": "; ".join(_flatten(exc.detail))}}
        try:
            if data["cmd"] == "get-state":  # sent and priced by _get_state
                return {"type": "state", **await self._state_payload()}
            command = {k: v for k, v in body.items() if k not in ("command_id", "expected_version")}
            result = await services.game_command_async(
                code=self.code,
                actor=self.actor,
                command=command,
                command_id=data.get("command_id"),
                expected_version=data.get("expected_version"),
            )
            return {"type": "result", **result.to_json()}
        except ServiceError as exc:
            return {"type": "error", "error": {"code": exc.code, "message": exc.message}, **exc.extra}

    # -- presence of a signed-in player's seat (games/presence.py: turn notices) ----------

    def _presence_open(self, game) -> None:
        """In the database thread, with the snapshot's seats: the first snapshot of a seat's socket
        writes the seat's last_seen; a seat held by a signed-in player records this socket as open."""
        if self.actor.seat is None or self.lost or (self.presence and self.seat_id is not None):
            return
        seat = next((s for s in game.seats.all() if s.index == self.actor.seat), None)
        if seat is None:
            return
        if self.seat_id is None:
            presence.seat_seen(seat_id=seat.pk)
            self.seat_id = seat.pk
        if seat.user_id is None or self.presence:
            return
        presence.seat_socket_open(game_id=self.game_id, seat=seat.index, channel_name=self.channel_name)
        self._presence_at = time.monotonic()
        self.presence = True

    def _presence_seen(self) -> None:
        """From the heartbeat, after its pong: refresh the row at most every SEEN_EVERY seconds,
        in the database thread, not awaited (the ping's answer never waits for it)."""
        now = time.monotonic()
        if now - self._presence_at < presence.SEEN_EVERY or (self._presence_task and not self._presence_task.done()):
            return
        self._presence_at = now
        self._presence_task = asyncio.ensure_future(self._presence_refresh())

    async def _presence_refresh(self) -> None:
        try:
            await database_sync_to_async(presence.seat_socket_seen)(channel_name=self.channel_name)
        except Exception:  # a busy database: the next ping tries again; the row stays fresh for a while
            self._presence_at = 0.0
            log.warning("could not refresh the open socket of game %s", self.code, exc_info=True)

    async def _presence_close(self) -> None:
        self.presence = False
        try:
            await database_sync_to_async(presence.seat_socket_close)(channel_name=self.channel_name)
        except Exception:  # the row goes stale by itself (JUNCTION_SOCKET_STALE)
            log.warning("could not remove the open socket of game %s", self.code, exc_info=True)

    async def _seat_seen_every(self) -> None:
        """While the socket is open, its seat's last_seen is refreshed every
        presence.seat_seen_every() seconds: a timer of its own (the page's pings stop in the
        background, and a busy game's frames stop them too), nothing on the move path waits for it."""
        every = presence.seat_seen_every()
        while True:
            await asyncio.sleep(every)
            if self.lost:
                return
            try:
                await database_sync_to_async(presence.seat_seen)(seat_id=self.seat_id)
            except Exception:  # a busy database: the next round tries again
                log.warning("could not refresh the seat of an open socket of game %s", self.code, exc_info=True)

    async def _seat_seen_close(self) -> None:
        """The socket closed: its seat was seen just now (unless the seat went to another device).
        The timer stops."""
        if self._seen_task is not None:
            self._seen_task.cancel()
            self._seen_task = None
        if self.lost:
            return
        try:
            await database_sync_to_async(presence.seat_seen)(seat_id=self.seat_id)
        except Exception:  # its last refresh stands: the seat counts as away a little sooner
            log.warning("could not write when the seat of game %s was last seen", self.code, exc_info=True)

    @database_sync_to_async
    def _state_payload(self) -> dict[str, Any]:
        return selectors.state_payload(game=selectors.game_get(code=self.code), seat=self.actor.seat)

    async def _error(self, code: str, message: str) -> None:
        await self._send_json({"type": "error", "error": {"code": code, "message": message}})

    async def _send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=broadcast.dumps(payload))


class LobbyConsumer(NoDatabaseDispatchMixin, AsyncWebsocketConsumer):
    """Tells the home page when the list of open games changed."""

    async def connect(self) -> None:
        try:
            await broadcast.with_layer_retries(self.channel_layer.group_add, broadcast.LOBBY_GROUP, self.channel_name)
        except broadcast.LAYER_ERRORS:  # Redis down: say so; the page reconnects later
            self.joined = False
            await self.accept()
            await self.send(text_data=broadcast.dumps(
                {"type": "error", "error": {"code": "unavailable", "message": "Live updates are unavailable for a moment; reconnecting."}}))
            await self.close(code=1013)
            return
        self.joined = True
        await self.accept()

    async def disconnect(self, close_code: int) -> None:
        if getattr(self, "joined", False):
            try:
                await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)
            except broadcast.LAYER_ERRORS:
                pass

    async def receive(self, text_data=None, bytes_data=None) -> None:
        await self.send(text_data=broadcast.dumps({"type": "error", "error": {"code": "read-only", "message": "This socket only sends."}}))

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
