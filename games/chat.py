"""Chat in every game: messages stored with the game (``ChatMessage``), never in the rules' log, sent live
over the game's socket group after they are committed, and read back with ``GET …/chat``.

Who writes, and who reads:

- **The table** (``table``): each seat's player and the host. Everyone reads it, spectators too.
- **Spectators** (``watchers``): a signed-in person watching (a guest watching reads but does not write).
  Kept from the players while the game runs, so nobody at the table is coached or spoiled; everyone reads
  it once the game is over.

A message is at most ``CHAT_MAX`` characters of text under the names' rules (games/names.py: NFC, no control
or invisible formatting characters, so a message cannot reorder or hide text on other screens); pages
insert it as text, never as markup. Writers are rate-limited (``JUNCTION_CHAT_RATE`` per address,
``JUNCTION_CHAT_SEAT_RATE`` per seat). A game master hides a message in admin (:func:`chat_hide`: gone
from every page at once); a signed-in player mutes another (``players.ChatMute``): their messages no
longer reach them, in any game. A player's messages are part of their data download."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from . import broadcast
from .errors import ServiceError, Unauthorized
from .models import ChatMessage, Game, Seat
from .names import name_clean
from .selectors import Actor

CHAT_MAX = 300
CHAT_PAGE = 200  # messages a read returns at most
# One tap on a phone: what people at a table say most.
QUICK_PHRASES = ("Hello!", "Your turn!", "One moment, please.", "Nice move!", "Thanks!", "Good game!")
TABLE, WATCHERS = ChatMessage.Audience.TABLE, ChatMessage.Audience.WATCHERS


def chat_text_clean(text: Any) -> str:
    """``text`` as a message is kept, or 400 ``invalid-request`` saying why."""
    try:
        return name_clean(text, max_length=CHAT_MAX).replace("\t", " ")
    except ValueError as exc:
        raise ServiceError("invalid-request", "text: " + str(exc).replace("A name", "A message").replace("a name", "a message")) from None


def chat_post(*, game: Game, actor: Actor, user: Any | None, text: Any) -> ChatMessage:
    """``actor`` (a seat or the host; else the signed-in ``user`` watching) says ``text`` in ``game``.
    401 ``sign-in-required`` for a guest watching; 409 ``game-abandoned`` for a game a game master ended."""
    clean = chat_text_clean(text)
    if game.status == Game.Status.ABANDONED:
        raise ServiceError("game-abandoned", "This game was ended by a game master; its chat is closed.", status=409)
    signed_in = user if user is not None and getattr(user, "is_authenticated", False) else None
    if actor.seat is not None:
        seat = Seat.objects.filter(game=game, index=actor.seat).values_list("name", "user_id").first()
        name, audience, user_id = seat[0], TABLE, seat[1]
    elif actor.is_host:
        name, audience, user_id = "The host", TABLE, None
    elif signed_in is not None:
        name, audience, user_id = signed_in.get_username(), WATCHERS, signed_in.pk
    else:
        raise Unauthorized("sign-in-required", "Sign in to chat while you watch; players chat with their seat.")
    message = ChatMessage.objects.create(game=game, seat=actor.seat, user_id=user_id, name=name, audience=audience, text=clean)
    over = game.status == Game.Status.FINISHED
    transaction.on_commit(lambda: _send(game.pk, {"type": "chat.message", "message": message_json(message), "open": over}))
    return message


def chat_read(*, game: Game, actor: Actor, user: Any | None, after: int = 0) -> dict[str, Any]:
    """What ``actor`` may read of ``game``'s chat after message id ``after``: the messages (oldest first, at
    most ``CHAT_PAGE``), the quick phrases, whether they may write and whom they muted."""
    signed_in = user if user is not None and getattr(user, "is_authenticated", False) else None
    messages = ChatMessage.objects.filter(game=game, id__gt=after, hidden_at__isnull=True)
    if not _reads_watchers(game, actor):
        messages = messages.filter(audience=TABLE)
    muted: list[str] = []
    if signed_in is not None:
        from players.models import ChatMute

        mutes = list(ChatMute.objects.filter(user=signed_in).values_list("muted_id", "muted__username"))
        if mutes:
            messages = messages.exclude(user_id__in=[pk for pk, _name in mutes])
            muted = [name for _pk, name in mutes]
    rows = list(messages.select_related("user").order_by("id")[:CHAT_PAGE])
    writes = actor.seat is not None or actor.is_host or signed_in is not None
    return {"messages": [message_json(m) for m in rows], "quick_phrases": list(QUICK_PHRASES), "writes": writes,
            "audience": (TABLE if actor.seat is not None or actor.is_host else WATCHERS) if writes else None,
            "muted": sorted(muted)}


def chat_hide(*, message_id: int, by: str) -> bool:
    """A game master hides a message: gone from every reader at once. False when it was hidden already."""
    message = ChatMessage.objects.filter(pk=message_id, hidden_at__isnull=True).first()
    if message is None:
        return False
    ChatMessage.objects.filter(pk=message.pk).update(hidden_at=timezone.now(), hidden_by=by)
    transaction.on_commit(lambda: _send(message.game_id, {"type": "chat.hidden", "id": message.pk}))
    return True


def message_json(message: ChatMessage) -> dict[str, Any]:
    return {"id": message.pk, "seat": message.seat, "name": message.name, "text": message.text,
            "audience": message.audience, "user": message.user.get_username() if message.user_id and message.user else None,
            "created_at": message.created_at.isoformat() if message.created_at else None}


def visible_live(*, audience: str, game_over: bool, seat: int | None, is_host: bool) -> bool:
    """Whether a socket (its seat, or the host's, or a spectator's) is sent a message of ``audience`` live."""
    return audience == TABLE or game_over or (seat is None and not is_host)


def _reads_watchers(game: Game, actor: Actor) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABANDONED) or (actor.seat is None and not actor.is_host)


def _send(game_id: int, message: dict[str, Any]) -> None:
    try:
        broadcast.send([(broadcast.game_group(game_id), message)])
    except Exception:  # committed: pages that miss it read it with GET …/chat
        import logging

        logging.getLogger(__name__).exception("chat broadcast failed for game %s", game_id)
