"""Helpers that build games through the real services."""

from __future__ import annotations

from games import services
from games.selectors import Actor, actor_for_token, game_get


def make_game(*, players: int = 2, kind: str = "toy", options: dict | None = None, start: bool = True,
              host_name: str = "Host", turn_seconds: int | None = None, bank_seconds: int | None = None,
              increment_seconds: int | None = None):
    """A game with ``players`` human seats (and a clock: ``turn_seconds``, or ``bank_seconds`` with
    ``increment_seconds``); returns (code, tokens by seat)."""
    created = services.game_create(kind=kind, options=options or {}, host_name=host_name, turn_seconds=turn_seconds,
                                   bank_seconds=bank_seconds, increment_seconds=increment_seconds)
    tokens = {0: created.host_token}
    for i in range(1, players):
        seat, token, _ = services.seat_join(code=created.game.code, name=f"P{i}")
        tokens[seat.index] = token
    if start:
        services.game_start(code=created.game.code, actor=actor(created.game.code, created.host_token))
    return created.game.code, tokens


def actor(code: str, token: str | None) -> Actor:
    return actor_for_token(game=game_get(code=code), token=token)


def seat_away(code: str, seat: int, seconds: float = 3600) -> None:
    """Seat ``seat``'s phone has had no socket open for ``seconds`` (Seat.last_seen in the past):
    the host may hand it to a new device (games/rejoin.py)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat

    Seat.objects.filter(game__code=code, index=seat).update(last_seen=timezone.now() - timedelta(seconds=seconds))
