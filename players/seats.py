"""The seats a signed-in player holds (``games.Seat.user``): claiming the seats a browser holds
into the account, opening one on another device (a device token, ``games.SeatToken``), and the
My games list. A seat taken while signed in is linked when it is taken
(``games.services.seat_join`` → ``seat_user_link``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Prefetch

from games.engines.registry import get_engine
from games.errors import NotFound
from games.models import Game, Seat, SeatToken
from games.selectors import seat_for_token_hash
from games.services import seat_user_link
from games.tokens import hash_token, new_token, normalize_join_code

CLAIM_MAX = 100  # tokens in one claim (a browser holding more is cleaned up by then)
DEVICE_TOKENS_PER_SEAT = 10  # "Open" on an eleventh device retires the oldest device's token
MY_GAMES_MAX = 200


# --- services ------------------------------------------------------------------------------


@dataclass
class SeatsClaimed:
    claimed: list[dict[str, Any]] = field(default_factory=list)  # now the account's
    already: list[dict[str, Any]] = field(default_factory=list)  # were the account's before
    taken: list[dict[str, Any]] = field(default_factory=list)  # another account holds them
    unknown: int = 0  # tokens that hold no seat (revoked, a host token without a seat, garbage)

    def to_json(self) -> dict[str, Any]:
        return {"claimed": self.claimed, "already": self.already, "taken": self.taken, "unknown": self.unknown}


def seats_claim(*, user: Any, tokens: list[str]) -> SeatsClaimed:
    """A guest who signed up (or in) brings the seats their browser holds into the account: each
    token's seat (its own token, or a device token) becomes ``user``'s unless another account
    holds it, and its game's turns are tracked from then on."""
    result = SeatsClaimed()
    seen: set[int] = set()
    for token in tokens[:CLAIM_MAX]:
        if not isinstance(token, str) or not token:
            result.unknown += 1
            continue
        seat = seat_for_token_hash(hash_token(token), Seat.objects.select_related("game"))
        if seat is None:
            result.unknown += 1
            continue
        if seat.pk in seen:
            continue
        seen.add(seat.pk)
        entry = {"code": seat.game.code, "seat": seat.index, "name": seat.name}
        if seat.user_id == user.pk:
            result.already.append(entry)
        elif seat.user_id is None and seat_user_link(seat=seat, user=user):
            result.claimed.append(entry)
        else:
            result.taken.append(entry)
    return result


def seat_token_issue(*, user: Any, seat: Seat) -> str:
    """A new token for ``seat`` on the device asking (My games' "Open"), shown once; only its hash
    is kept. The seat must be ``user``'s. Handing the seat to another device or person deletes
    these (games.services.seat_device_tokens_revoke)."""
    token = new_token()
    with transaction.atomic():
        # Checked on the seat's row, locked: a hand-over to another device (a rejoin) that commits
        # first wins, and one that commits after this deletes the new token with the others.
        if not Seat.objects.select_for_update().filter(pk=seat.pk, user_id=user.pk).exists():
            raise NotFound("seat-not-yours", "This seat is not held by your account.")
        SeatToken.objects.create(seat=seat, token_hash=hash_token(token), user=user)
        keep = SeatToken.objects.filter(seat=seat).order_by("-created_at", "-pk").values_list("pk", flat=True)[:DEVICE_TOKENS_PER_SEAT]
        SeatToken.objects.filter(seat=seat).exclude(pk__in=list(keep)).delete()
    return token


# --- selectors -----------------------------------------------------------------------------


def seat_of_user(*, user: Any, code: str, index: int | None = None) -> Seat:
    """``user``'s seat in the game ``code`` (the lowest when they hold several and ``index`` is
    None); 404 ``seat-not-yours`` otherwise."""
    seats = Seat.objects.filter(user=user, game__code=normalize_join_code(code)).select_related("game").order_by("index")
    if index is not None:
        seats = seats.filter(index=index)
    seat = seats.first()
    if seat is None:
        raise NotFound("seat-not-yours", "You hold no such seat: it was never linked to your account, or it went to someone else.")
    return seat


def my_games(*, user: Any, limit: int = MY_GAMES_MAX) -> list[dict[str, Any]]:
    """Every seat ``user`` holds, newest activity first: the game (title, code, status, when it
    last changed), the seat, and whose turn it is (the active seats' names; ``my_turn``)."""
    seats = (
        Seat.objects.filter(user=user)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.only("game_id", "index", "name").order_by("index")))
        .order_by("-game__updated_at", "-game_id", "index")[:limit]
    )
    rows = []
    for seat in seats:
        game = seat.game
        try:
            engine = get_engine(game.kind)
            title = engine.title
        except Exception:  # a kind no longer installed: list it all the same
            engine, title = None, game.kind
        on_turn: list[int] = []
        if engine is not None and game.state is not None and game.status == Game.Status.ACTIVE:
            try:
                on_turn = sorted(engine.active_seats(game.state))
            except Exception:  # a state the engine cannot read: no turn shown
                on_turn = []
        names = {s.index: s.name for s in game.seats.all()}
        rows.append({
            "code": game.code,
            "kind": game.kind,
            "title": title,
            "status": game.status,
            "status_label": Game.Status(game.status).label if game.status in Game.Status.values else game.status,
            "seat": seat.index,
            "name": seat.name,
            "away": seat.away and game.status in (Game.Status.ACTIVE, Game.Status.PAUSED),  # a bot plays for them now
            "on_turn": [names.get(i, f"Seat {i + 1}") for i in on_turn],
            "my_turn": seat.index in on_turn,
            "updated_at": game.updated_at,
        })
    return rows
