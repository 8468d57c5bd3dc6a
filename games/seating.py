"""The seats' order in the waiting room: the host moves a seat up or down before the start.

Seats are seated in the order people joined (``Seat.index``), and the game's seat ``i`` is
``Seat.index == i`` from the start on. Reordering renumbers the seat rows themselves: each
person keeps their row (its token, colour, name, account) and only its ``index`` changes, so a
token opens its own seat afterwards with nothing else to look up. The renumbering goes in two
steps inside one transaction (first past every index in use, then to the new one), so the
unique (game, index) constraint never sees two rows on one index. What else names a seat by its
index in the lobby moves with it: the game's rejoin codes and its open sockets' presence rows.
After the commit the summary is broadcast as for any seat change (``Game.revision`` bumped),
and the game's sockets are told to look their seat up again (``GameConsumer.seats_reordered``).

The host also removes a seat from the waiting room (:func:`seat_remove`): a stranger who found
the code, someone who joined twice, a bot too many. The seat row goes, the seats after it move up
one (renumbered as above), and its tokens stop working: their hashes are kept as
:class:`~games.models.SeatRemoval` rows, so a request that presents one is answered 401
``seat-removed`` in words (selectors.token_lost), and the socket that holds one is told so when
the game's sockets look their seat up again, and closed.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Case, F, IntegerField, Value, When

from . import broadcast
from .errors import Conflict, NotFound, ServiceError
from .models import Game, RejoinCode, Seat, SeatRemoval, SeatSocket, SeatToken
from .selectors import Actor, game_get
from .services import _after_commit, _guarded, _require_host


def seats_reorder(*, code: str, actor: Actor, order: list[int]) -> list[Seat]:
    """Seat the players in ``order``: the seat now at index ``order[i]`` moves to index ``i``.
    ``order`` names every seated index once. Host only, in the lobby only (409 ``game-started``).
    Returns the seats in their new order."""
    game = game_get(code=code)
    _require_host(actor)
    if not isinstance(order, list) or not all(type(i) is int for i in order):
        raise ServiceError("invalid-request", "order: a list of seat indexes.")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.LOBBY:
            raise Conflict("game-started", "Seats can only be reordered before the game starts.")
        seats = list(game.seats.order_by("index"))
        indexes = [s.index for s in seats]
        if sorted(order) != indexes:
            raise ServiceError(
                "bad-seat-order",
                f"order must name each seat once: a reordering of {indexes}, got {order}.",
            )
        new_index = {old: new for new, old in enumerate(order)}
        if any(old != new for old, new in new_index.items()):
            _renumber(game, new_index, offset=(max(indexes) + 1) if indexes else 0)
            transaction.on_commit(_guarded(lambda: _reordered_send(game.pk)))
            transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
        return list(game.seats.order_by("index"))


def seat_remove(*, code: str, actor: Actor, seat: int) -> Seat:
    """Take seat ``seat`` away from whoever holds it, in the waiting room. Host only (401
    ``token-required``, 403 ``host-only``); 404 ``seat-not-found``; 409 ``own-seat`` for the host's
    own seat, 409 ``game-started`` once the game has started. The seats after it move up one.
    Returns the removed seat (as it was)."""
    game = game_get(code=code)
    _require_host(actor)
    if type(seat) is not int:
        raise ServiceError("invalid-request", "seat: a seat's index.")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.LOBBY:
            raise Conflict("game-started", "Players can only be removed before the game starts.")
        seats = list(game.seats.order_by("index"))
        target = next((s for s in seats if s.index == seat), None)
        if target is None:
            raise NotFound("seat-not-found", f"This game has no seat {seat}.")
        if target.is_host:
            raise Conflict("own-seat", "That is your own seat: the host stays at the table.")
        if not target.is_bot:  # a bot's token was never given to anyone
            hashes = [target.token_hash, *SeatToken.objects.filter(seat=target).values_list("token_hash", flat=True)]
            SeatRemoval.objects.bulk_create([SeatRemoval(game=game, token_hash=h, name=target.name) for h in hashes])
        RejoinCode.objects.filter(game=game, seat=seat, used_at__isnull=True).delete()
        SeatSocket.objects.filter(game=game, seat=seat).delete()
        target.delete()  # its device tokens (SeatToken) go with it
        rest = [s.index for s in seats if s.index != seat]
        new_index = {old: new for new, old in enumerate(rest)}
        if any(old != new for old, new in new_index.items()):
            _renumber(game, new_index, offset=max(rest) + 1)
        # Every socket looks its seat up again: the removed one's token holds none (it is told
        # seat-removed and closed), the seats after it have moved up one.
        transaction.on_commit(_guarded(lambda: _reordered_send(game.pk)))
        transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
    target.index = seat
    return target


def _renumber(game: Game, new_index: dict[int, int], *, offset: int) -> None:
    def moved(field: str) -> Case:
        return Case(*(When(**{field: old}, then=Value(new)) for old, new in new_index.items()),
                    default=F(field), output_field=IntegerField())

    # Step one: every seat past the indexes in use (no two rows ever share an index).
    Seat.objects.filter(game=game).update(index=F("index") + offset)
    Seat.objects.filter(game=game).update(
        index=Case(*(When(index=old + offset, then=Value(new)) for old, new in new_index.items()),
                   default=F("index"), output_field=IntegerField()))
    RejoinCode.objects.filter(game=game).update(seat=moved("seat"))
    SeatSocket.objects.filter(game=game).update(seat=moved("seat"))


def _reordered_send(game_id: int) -> None:
    """The game's sockets look their seat up again (their token's seat has a new index)."""
    broadcast.send([(broadcast.game_group(game_id), {"type": "seats.reordered"})])
