"""Ratings pages: the kinds (/ratings/), a kind's leaderboard (/ratings/<kind>/) and a player's
public profile (/players/<username>/). Reads only (players/ratings.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import render

from games.engines.base import RulesError
from games.engines.registry import get_engine

from . import ratings, record


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
    })
