"""Open tables and unlisted ones: who may find a game.

A new game is **unlisted** (``Game.listed`` false): it is joined (and watched) by its code, its
link or its QR code only, so a family's living-room table is not offered to strangers. The host
may open it to anyone (``listed``: at creation, ``POST /api/games`` with ``"listed": true``, or
later ``POST /api/games/{code}/listing``), and make it unlisted again. Only open tables are in the
lobby's list: the home page, ``GET /api/games`` (selectors.games_page) and the lobby socket's
``lobby-changed`` news (broadcast.game_changed). Games made before this existed were opened by
the migration that added the field (0008_game_listed): they were made when every game was listed.

Listing decides who can *find* a game, not who may join it: a code is enough to join an unlisted
table, as before. The host removes someone who should not be there from the waiting room
(games/seating.py seat_remove).
"""

from __future__ import annotations

from django.db import transaction

from . import broadcast
from .errors import ServiceError
from .models import Game
from .selectors import Actor, game_get
from .services import _after_commit, _guarded, _require_host


def game_listed_set(*, code: str, actor: Actor, listed: bool) -> Game:
    """Open the table to anyone (``listed`` true) or make it unlisted (false). Host only (401
    ``token-required`` without a token, 403 ``host-only`` with another); any status (a finished
    game leaves the list too). Setting what already is changes nothing and tells no one.
    Returns the game as it is now."""
    game = game_get(code=code)
    _require_host(actor)
    if type(listed) is not bool:
        raise ServiceError("invalid-request", "listed must be true or false.")
    with transaction.atomic():
        changed = Game.objects.filter(pk=game.pk).exclude(listed=listed).update(listed=listed)
        if changed:
            # Every page of the game gets the summary (its "listed"), and the lobby's pages look again:
            # the summary's broadcast tells them of a table opened in the lobby (broadcast.game_changed);
            # of one made unlisted, which that broadcast no longer tells them of, this does.
            transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
            if not listed:
                transaction.on_commit(_guarded(broadcast.lobby_changed))
    game.refresh_from_db()
    return game
