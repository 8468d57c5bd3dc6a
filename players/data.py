"""Your data: everything Junction keeps about a signed-in player, as one JSON document
(:func:`account_export`), and deleting the account (:func:`account_delete`).

Deleting an account keeps every game whole: the player's seats stay, as guests' seats (their
names, tokens and the log untouched), and only what ties them to the account goes: the devices'
extra seat tokens (My games' "Open"), the push devices, the ratings and rating changes, the
profile and the account itself."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engines.registry import find_engine
from games.models import Action, ChatMessage, Game, Seat
from games.redaction import reveals_all, seed_public
from games.selectors import action_json
from games.services import seat_device_tokens_revoke

from .models import ChatMute, Profile, PushSubscription, Rating, RatingChange
from .ratings import rating_displayed

EXPORT_FORMAT = "junction/my-data@1"


def account_export(*, user) -> dict[str, Any]:
    """The player's account, settings, ratings and every game they sat in (its kind, code,
    options, status, the seats' names, the player's seats and the whole log as the game's log shows
    it to one of those seats: games/redaction.py keeps other seats' hidden choices back while a game
    runs, and its seed until it is finished)."""
    profile = Profile.objects.filter(user=user).first()
    held: dict[int, list[int]] = {}
    for game_id, index in Seat.objects.filter(user=user).order_by("game_id", "index").values_list("game_id", "index"):
        held.setdefault(game_id, []).append(index)
    games = []
    for game in Game.objects.filter(pk__in=held).order_by("created_at", "id"):
        seats = list(game.seats.order_by("index"))
        engine, reveal, mine = find_engine(game.kind), reveals_all(game), held[game.pk]
        games.append({
            "kind": game.kind,
            "title": _title(game.kind),
            "code": game.code,
            "status": game.status,
            "options": game.options,
            "seed": seed_public(game),
            "created_at": _iso(game.created_at),
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "seats": [{"index": s.index, "name": s.name, "is_bot": s.is_bot} for s in seats],
            "my_seats": held[game.pk],
            "log": _log(game, engine=engine, reveal=reveal, seats=mine),
        })
    return {
        "format": EXPORT_FORMAT,
        "exported_at": _iso(timezone.now()),
        "username": user.get_username(),
        "email": user.email,
        "date_joined": _iso(user.date_joined),
        "profile": _settings(profile),
        "push_devices": [{"endpoint": p.endpoint, "created_at": _iso(p.created_at)}
                         for p in PushSubscription.objects.filter(user=user).order_by("created_at")],
        "ratings": [{"kind": r.kind, "rating": rating_displayed(r.mu, r.sigma), "mu": r.mu, "sigma": r.sigma, "games": r.games}
                    for r in Rating.objects.filter(user=user).order_by("kind")],
        "rating_changes": [{"kind": c.kind, "code": c.game.code, "rank": c.rank, "mu_before": c.mu_before,
                            "sigma_before": c.sigma_before, "mu_after": c.mu_after, "sigma_after": c.sigma_after}
                           for c in RatingChange.objects.filter(user=user).select_related("game").order_by("game_id")],
        "games": games,
        # What they said in games' chats (games/chat.py), and whom they muted.
        "chat": [{"code": m.game.code, "seat": m.seat, "name": m.name, "audience": m.audience, "text": m.text,
                  "created_at": _iso(m.created_at), "hidden_by_a_game_master": m.hidden_at is not None}
                 for m in ChatMessage.objects.filter(user=user).select_related("game").order_by("id")],
        "chat_muted": sorted(ChatMute.objects.filter(user=user).values_list("muted__username", flat=True)),
    }


def account_delete(*, user) -> None:
    """Delete ``user``'s account; their seats become guests' seats and every game's log stays whole."""
    with transaction.atomic():
        seat_device_tokens_revoke(user=user)  # the devices it opened seats on: their sockets are told and closed
        PushSubscription.objects.filter(user=user).delete()
        RatingChange.objects.filter(user=user).delete()
        Rating.objects.filter(user=user).delete()
        Seat.objects.filter(user=user).update(user=None)
        user.delete()


def _settings(profile: Profile | None) -> dict[str, Any]:
    """Every setting of the player's profile (a player who never saved one has the defaults)."""
    fields = [f for f in Profile._meta.concrete_fields if f.name not in ("id", "user")]
    return {f.attname: getattr(profile, f.attname) if profile else f.get_default() for f in fields}


def _log(game: Game, *, engine, reveal: bool, seats: list[int]) -> list[dict[str, Any]]:
    """The game's whole log as the player's seats read it (an action of one of them as that seat)."""
    out = []
    for action in Action.objects.filter(game_id=game.pk).order_by("sequence"):
        viewer = action.seat if action.seat in seats else seats[0]
        out.append(action_json(action, engine=engine, viewer=viewer, reveal=reveal))
    return out


def _title(kind: str) -> str:
    engine = find_engine(kind)
    return engine.title if engine is not None else kind


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None
