"""Push changes to connected clients. Called only after a transaction commits.

Each WebSocket joins ``game.<id>``. A change computes every seat's own view once,
serialised, and publishes them together in one message; each socket sends its
client only the view for its own seat (spectators and a seatless host get the
spectator view), so a client never receives another seat's secrets.
A failure here never undoes a committed move: clients catch up by version.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import jsontext

log = logging.getLogger(__name__)

try:  # errors of a Redis channel layer whose server went away (pooled connections go stale)
    from redis.exceptions import ConnectionError as _RedisConnectionError
    from redis.exceptions import TimeoutError as _RedisTimeoutError

    LAYER_ERRORS: tuple[type[BaseException], ...] = (_RedisConnectionError, _RedisTimeoutError, OSError)
except ImportError:  # pragma: no cover - redis is a dependency
    LAYER_ERRORS = (OSError,)
LAYER_ATTEMPTS = 4


async def with_layer_retries(call, *args):
    """Await ``call(*args)`` on the channel layer, retrying briefly: after Redis restarts,
    each stale pooled connection fails once and is replaced. Re-sending is harmless:
    clients order state messages by version."""
    for attempt in range(LAYER_ATTEMPTS):
        try:
            return await call(*args)
        except LAYER_ERRORS:
            if attempt == LAYER_ATTEMPTS - 1:
                raise
            await asyncio.sleep(0.05 * 2**attempt)

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def view_key(seat: int | None) -> str:
    """Which of a game update's ``states`` a socket sends: its seat's, or the spectators'."""
    return "watch" if seat is None else str(seat)


def dumps(payload: dict[str, Any]) -> str:
    return jsontext.dumps(payload)


def game_messages(game, summary: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """The one message announcing ``game``'s current version to every socket of the game:
    each seat's own view (and the spectators'), already serialised, keyed by
    :func:`view_key`; each socket sends only its own (see ``GameConsumer.game_update``).
    One publish per change, however many seats: the per-seat groups this replaced cost a
    Redis round trip per seat. The summary (seats, status) only with ``summary`` — a plain
    move changes neither. ``game.seat_list`` holds the (index, is_bot) of its seats."""
    from . import store
    from .selectors import game_summary, state_payload

    update: dict[str, Any] = {"type": "game.update", "summary": None, "states": {}, "code": game.code, "version": game.version}
    if summary:
        update["summary"] = dumps({"type": "game", "game": game_summary(game)})
    if game.state is not None:
        for seat in [index for index, _ in game.seat_list] + [None]:
            update["states"][view_key(seat)] = dumps({"type": "state", **state_payload(game=game, seat=seat)})
    if update["summary"] is None and not update["states"]:
        return []
    # The game as this process now remembers it (its whole state: for the other processes'
    # store, never sent to a client), so their next command on it needs no reload.
    update["known"] = store.known_export(game.code, game.version)
    return [(game_group(game.id), update)]


def update_received(event: dict[str, Any]) -> None:
    """A socket got a game update made by another process: this process's store takes the
    game as that process remembers it (or forgets its own older copy)."""
    from . import store

    if "version" in event:
        store.known_receive(event["code"], event["version"], event.get("known"))


def game_changed(game_id: int, game=None, summary: bool = True):
    """Send everyone ``game_id``'s current version; returns the game (with ``seat_list``) or None.

    The write path passes the game it just saved (state and version current), which saves
    reloading it for a plain move (its ``seat_list`` came with it). A summary (seats or
    status changed) needs the whole game and its seats: it is read afresh."""
    from django.db.models import F

    from .models import Game

    if game is None or summary:
        if summary and game is None:
            # After a change that kept the version (seats, status): the summary read below is at
            # least this new. A saved move (``game``) moved the version, which orders its summary.
            Game.objects.filter(pk=game_id).update(revision=F("revision") + 1)
        game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
        if game is None:
            return None
        game.seat_list = [(s.index, s.is_bot) for s in game.seats.all()]
    messages = game_messages(game, summary=summary)
    # The lobby's pages list open tables only (games/listing.py): an unlisted game's changes are not
    # theirs to hear (opening or closing a table tells them itself). ``listed`` is read last: the
    # move path's game (games/store.py) loads without it, and a move is never in the lobby.
    if (game.status == Game.Status.LOBBY or game.version <= 1) and game.listed:
        messages.append((LOBBY_GROUP, {"type": "relay", "text": dumps({"type": "lobby-changed"})}))
    send(messages)
    return game


def lobby_changed() -> None:
    send([(LOBBY_GROUP, {"type": "relay", "text": dumps({"type": "lobby-changed"})})])


# Set by an async caller (the WebSocket consumer) around its database work: messages
# are collected instead of sent, and the caller sends them on its event loop once the
# work returns. That saves blocking the database thread on a hop back to the loop.
_outbox: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("broadcast_outbox", default=None)


@contextmanager
def collecting() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Collect what :func:`send` is given in this context; the caller must pass the
    list to :func:`send_async` (everything in it is already committed)."""
    box: list[tuple[str, dict[str, Any]]] = []
    token = _outbox.set(box)
    try:
        yield box
    finally:
        _outbox.reset(token)


def send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    box = _outbox.get()
    if box is not None:
        box.extend(messages)
        return
    if not messages or get_channel_layer() is None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a thread without a loop (a request, a bot): wait until sent
        async_to_sync(send_async)(messages)
        return
    task = loop.create_task(send_async(messages))  # called on a loop: sent from it
    _sending.add(task)
    task.add_done_callback(_sending.discard)


_sending: set[asyncio.Task] = set()  # the tasks above, kept until done


# This process's sockets by group, for delivery without the round trip through Redis
# and back: a change made here reaches the sockets connected here at once; the copy the
# channel layer brings back carries this process's ``origin`` and they skip it. Sockets
# connected to other processes get the layer's copy as before. Touched only on the event
# loop that runs the consumers (``_local_loop``).
PROCESS_ORIGIN = uuid.uuid4().hex
_local: dict[str, set[Any]] = {}
_local_loop: asyncio.AbstractEventLoop | None = None


def local_join(group: str, consumer: Any) -> None:
    global _local_loop
    _local_loop = asyncio.get_running_loop()
    _local.setdefault(group, set()).add(consumer)
    _resync_ensure()


def local_leave(group: str, consumer: Any) -> None:
    members = _local.get(group)
    if members is not None:
        members.discard(consumer)
        if not members:
            del _local[group]


def is_own_copy(event: dict[str, Any]) -> bool:
    """Whether ``event`` came back through the layer after local delivery here."""
    return event.get("origin") == PROCESS_ORIGIN


async def _deliver_locally(group: str, message: dict[str, Any]) -> None:
    for consumer in list(_local.get(group, ())):
        try:
            await consumer.dispatch(message)
        except Exception:  # one closed socket must not stop the others
            log.exception("local delivery to %s failed", group)


async def send_async(
    messages: list[tuple[str, dict[str, Any]]], after_local: Callable[[], Awaitable[None]] | None = None
) -> None:
    """Send every message: first to the sockets of this process (when this runs on their
    event loop), then ``after_local()`` if given (the consumer's answer to the command that
    made the change: a client gets the new state before the answer), then through the channel
    layer, all groups at once (with Redis each group_send is a round trip; a client orders
    what it gets by version, not arrival).
    The layer's publishes wait until the loop has written the local sockets' frames out:
    Daphne buffers a frame until the loop's next turn, and the publishes would go first.
    Never raises: the change is committed and clients resync by version."""
    layer = get_channel_layer()
    if not messages:
        if after_local is not None:
            await after_local()
        return
    local = _local_loop is not None and asyncio.get_running_loop() is _local_loop
    remote = []
    for group, message in messages:
        if local and group in _local:
            await _deliver_locally(group, message)
            message = {**message, "origin": PROCESS_ORIGIN}  # the layer's copy, skipped here
        if layer is not None:
            remote.append((group, message))
    if after_local is not None:
        await after_local()
    if not remote:
        return
    if local:
        await _after_pending_writes()
    results = await asyncio.gather(
        *(with_layer_retries(layer.group_send, group, message) for group, message in remote), return_exceptions=True
    )
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        log.error("broadcast: %d of %d sends failed: %r", len(failed), len(remote), failed[0])


async def _after_pending_writes() -> None:
    """Resume once the loop has run the I/O callbacks now due (the sockets' buffered writes):
    a timer due now runs after them in the loop's turn, a ``call_soon`` before."""
    loop = asyncio.get_running_loop()
    resumed = loop.create_future()
    loop.call_later(0, lambda: resumed.done() or resumed.set_result(None))
    await resumed


# -- resync: no socket stays behind the log ---------------------------------------------
#
# The channel layer delivers at most once: while Redis is down (or restarting, or a publish
# fails) a change made by another process never reaches this process's sockets, and nothing
# in the socket says so. So each process checks, every ``JUNCTION_RESYNC_SECONDS``, the
# current version of every game it has sockets for (one query) against the version each
# socket last sent its client (``consumer.version_sent``); a socket still behind at the next
# check (a change on its way through the layer gets that long) is sent the game afresh
# (``consumer.resync()``). Nothing is lost: the log is the truth, and clients order states by
# version. Chat (games/chat.py) is not in the log: the same check reads each game's newest chat
# message by audience (a second small query) against the newest each socket was sent or may
# read (``consumer.chat_seen``); a socket missing one it may read is sent the game afresh too,
# and its page reads the chat after its last message. With Redis up and nothing lost this costs
# two small queries per interval.

_resync_task: asyncio.Task | None = None


def _resync_ensure() -> None:
    global _resync_task
    from django.conf import settings

    if settings.JUNCTION_RESYNC_SECONDS <= 0:
        return
    loop = asyncio.get_running_loop()
    if _resync_task is None or _resync_task.done() or _resync_task.get_loop() is not loop:
        _resync_task = loop.create_task(_resync_loop(), name="junction-resync")


async def _resync_loop() -> None:
    from django.conf import settings

    while _local:
        await asyncio.sleep(settings.JUNCTION_RESYNC_SECONDS)
        try:
            await resync_once()
        except Exception:  # the database may be down too: try again next time
            log.warning("resync check failed", exc_info=True)


@dataclass(frozen=True)
class _Top:
    """What a game's sockets should have been sent by now: its version, and its newest chat message's
    id by audience (whether the game is over decides who reads which)."""

    version: int
    over: bool
    chat: dict[str, int]


def _tops(game_ids: list[int]) -> dict[int, _Top]:
    from django.db.models import Max

    from .models import ChatMessage, Game

    chats: dict[int, dict[str, int]] = {}
    newest = ChatMessage.objects.filter(game_id__in=game_ids).values("game_id", "audience").annotate(top=Max("id"))
    for row in newest.values_list("game_id", "audience", "top"):
        chats.setdefault(row[0], {})[row[1]] = row[2]
    over = (Game.Status.FINISHED, Game.Status.ABANDONED)
    return {pk: _Top(version, status in over, chats.get(pk, {}))
            for pk, version, status in Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "status")}


def _chat_top(consumer, top: _Top) -> int:
    """The newest chat message this socket may read live (0: none)."""
    from .chat import visible_live

    actor = getattr(consumer, "actor", None)
    seat, is_host = (actor.seat, actor.is_host) if actor is not None else (None, False)
    return max((newest for audience, newest in top.chat.items()
                if visible_live(audience=audience, game_over=top.over, seat=seat, is_host=is_host)), default=0)


def _behind(consumer, top: _Top) -> bool:
    """Whether the socket missed a change or a chat message; a first look at its chat counts it seen
    (its page read the chat when it opened)."""
    chat = _chat_top(consumer, top)
    if getattr(consumer, "chat_seen", None) is None:
        consumer.chat_seen = chat
    sent = getattr(consumer, "version_sent", None)
    return (sent is not None and sent < top.version) or consumer.chat_seen < chat


async def resync_once() -> int:
    """One check (see above); how many sockets were sent their game afresh."""
    from channels.db import database_sync_to_async

    members = {int(group.split(".", 1)[1]): list(consumers) for group, consumers in _local.items()
               if group.startswith("game.")}
    if not members:
        return 0
    tops = await database_sync_to_async(_tops)(list(members))
    resent = 0
    for game_id, consumers in members.items():
        top = tops.get(game_id)
        if top is None:
            continue
        for consumer in consumers:
            if not _behind(consumer, top):
                consumer.behind_since = None
                continue
            if getattr(consumer, "behind_since", None) is None:  # maybe on its way: next time
                consumer.behind_since = top
                continue
            consumer.behind_since = None
            try:
                await consumer.resync()
                consumer.chat_seen = _chat_top(consumer, top)  # its page reads the chat again with the game
                resent += 1
            except Exception:  # a closed socket, the database busy: next time
                log.info("resync of a socket of game %s failed", game_id, exc_info=True)
    if resent:
        log.info("resync: %d socket(s) were behind the log and were sent their game afresh", resent)
    return resent
