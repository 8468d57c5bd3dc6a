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
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Case, F, IntegerField, Value, When

from . import broadcast
from .errors import Conflict, ServiceError
from .models import Game, RejoinCode, Seat, SeatSocket
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
