"""Ratings pages: the kinds (/ratings/), a kind's leaderboard (/ratings/<kind>/) and a player's
public profile (/players/<username>/, and its chat mute: POST /players/<username>/mute). Reads only
(players/ratings.py), but the mute."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.engines.base import RulesError
from games.engines.registry import get_engine

from . import ratings, record
from .models import ChatMute


def ratings_home(request):
    return render(request, "players/ratings.html", {"kinds": ratings.kinds_rated()})


def leaderboard(request, kind: str):
    try:
        engine = get_engine(kind)
    except RulesError:
        raise Http404("No such kind of game") from None
    return render(request, "players/leaderboard.html", {
        "kind": kind, "title": engine.title, "rows": ratings.leaderboard(kind=kind), "size": ratings.LEADERBOARD_SIZE,
    })


def profile(request, username: str):
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise Http404("No such player")
    return render(request, "players/profile.html", {
        "player": user.get_username(),
        "ratings": ratings.player_ratings(user=user),
        "changes": ratings.rating_changes_recent(user=user),
        "record": record.player_record(user=user),
        "recent_games": record.player_games_recent(user=user),
        "history": record.rating_history(user=user),
        "mine": request.user.is_authenticated and request.user.pk == user.pk,
        "muted": request.user.is_authenticated and ChatMute.objects.filter(user=request.user, muted=user).exists(),
    })


@require_POST
def chat_mute(request, username: str):
    """Mute (or unmute) ``username`` in every game's chat for the signed-in player (games/chat.py): a form
    on their profile, with the session's CSRF token."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise Http404("No such player")
    if other.pk != request.user.pk:
        if request.POST.get("mute") == "0":
            ChatMute.objects.filter(user=request.user, muted=other).delete()
        else:
            ChatMute.objects.get_or_create(user=request.user, muted=other)
    return redirect("player-profile", username=other.get_username())
