"""Ratings: a signed-in player's OpenSkill rating in each kind of game (Plackett-Luce, the
multiplayer model), moved by every rated game and recomputable from the games' logs.

**Which games are rated** (:func:`game_rated_places`): a game the rules finished
(``Engine.is_finished``; a game the game master ended is abandoned, never rated) of a kind whose
engine has ``standings``, where

- no seat is a bot at the end (``Seat.is_bot``, which an away seat also is), and no seat was ever
  handed to a bot (an ``admin`` action in the log naming a ``bot``: the game master's
  ``seat-to-bot``, the clock's hand-over): a game a bot played a part of rates nobody;
- at least two seats are held by signed-in players (``Seat.user``), each by a different one
  (a player in two seats of one game rates nobody). Guests play along but are not rated: the
  signed-in players' places are their standings among themselves;
- no seat was handed by a rejoin code to anyone but its own account (``Game.unrated_reason``,
  games/rejoin.py): whoever took it could read that player's hidden cards.

**The numbers**: each rating is OpenSkill's ``mu`` (skill) and ``sigma`` (uncertainty), 25 and
25/3 to begin with. What pages show, and what the leaderboard sorts by, is the **displayed rating**,
:func:`rating_displayed` = ``mu - 3 * sigma`` (OpenSkill's ordinal: a skill the player has with
high confidence; 0 for a newcomer, it grows as games show how good they are).

:func:`game_rate` runs when a game finishes (``games.turns.register_game_finished``, after
commit; a game with a signed-in seat is watched, so it is told): one :class:`RatingChange` per
rated player, once per game whoever calls it again. :func:`ratings_recompute` (``manage.py
recompute_ratings``) throws every rating away and replays each rated game in ``finished_at``
order, its standings taken from the final state rebuilt from the log (``games.replay``), not
from the stored state; the numbers come out the same as the incremental ones.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, F
from openskill.models import PlackettLuce

from games import results
from games.models import Action, Game, Seat
from games.replay import ADMIN, game_replay

from .models import Rating, RatingChange

log = logging.getLogger(__name__)

MU = 25.0
SIGMA = 25.0 / 3
MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def rating_displayed(mu: float, sigma: float) -> float:
    """The rating pages show and the leaderboard sorts by: ``mu - 3 * sigma``."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class RatedPlace:
    user_id: int
    seat: int
    rank: int  # 1 = first among the game's rated players; equal ranks tied


def game_rated_places(*, game: Game, state: dict[str, Any] | None) -> list[RatedPlace]:
    """The rated players of ``game`` finished in ``state`` and their places among themselves;
    empty when the game is not rated (the module's docstring says which are)."""
    held = _seats_rated(game)
    return _places(game, state, held) if held else []


def _seats_rated(game: Game) -> list[tuple[int, int]]:
    """What rating ``game`` asks of its seats and log (no state needed: the recompute replays only
    the games that pass): its rated seats as (index, user id), or none."""
    if game.status != Game.Status.FINISHED or game.unrated_reason:
        return []
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("index")
                 .values_list("index", "user_id", "is_bot", "away", "resigned_at"))
    # A resigned player's seat a bot played on counts: its player finishes last (games/results.py).
    if any((is_bot or away) and resigned is None for _index, _user, is_bot, away, resigned in seats):
        return []
    held = [(index, user_id) for index, user_id, _bot, _away, _resigned in seats if user_id is not None]
    if len(held) < 2 or len({user_id for _index, user_id in held}) < len(held):
        return []
    if _bot_ever_played(game.pk):
        return []
    return held


def _places(game: Game, state: dict[str, Any] | None, held: list[tuple[int, int]]) -> list[RatedPlace]:
    if state is None:
        return []
    standings = results.game_places(game=game, state=state)  # the rules' places, resignations laid over them
    if standings is None:
        return []
    places = [standings[index] for index, _user in held]
    return [RatedPlace(user_id=user_id, seat=index, rank=1 + sum(1 for other in places if other < standings[index]))
            for index, user_id in held]


def _bot_ever_played(game_id: int) -> bool:
    """Whether the log hands a seat to a bot: an ``admin`` action naming a bot (the game master's
    ``seat-to-bot``, the clock's hand-over) or one of its events doing so."""
    for command, events in Action.objects.filter(game_id=game_id, command__cmd=ADMIN).values_list("command", "events"):
        if command.get("bot") or "bot" in str(command.get("action", "")):
            return True
        if any(isinstance(e, dict) and (e.get("bot") or "bot" in str(e.get("type", ""))) for e in events or ()):
            return True
    return False


def game_rate(*, game_id: int) -> list[RatingChange]:
    """Rate the finished game ``game_id`` from its stored final state (the game-finished
    listener). Idempotent: a game already rated returns its changes and changes nothing."""
    return _game_rate(game_id=game_id, final_state=lambda game: game.state)


def game_finished(game_id: int) -> None:
    """``games.turns``' game-finished listener."""
    game_rate(game_id=game_id)


def _game_rate(*, game_id: int, final_state: Callable[[Game], dict[str, Any] | None]) -> list[RatingChange]:
    with transaction.atomic():
        # The game's row lock makes two callers for one game take turns; the second finds the
        # first's changes.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return []
        done = list(RatingChange.objects.filter(game_id=game_id).order_by("rank", "user_id"))
        if done:
            return done
        held = _seats_rated(game)
        places = _places(game, final_state(game), held) if held else []
        if not places:
            return []
        kind = game.kind
        users = sorted(p.user_id for p in places)
        Rating.objects.bulk_create(
            [Rating(user_id=u, kind=kind, mu=MU, sigma=SIGMA, games=0) for u in users], ignore_conflicts=True)
        # Locked in one order (by user) so two games sharing players never deadlock.
        ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(kind=kind, user_id__in=users).order_by("user_id")}
        before = [ratings[p.user_id] for p in places]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = MODEL.rate(teams, ranks=[float(p.rank) for p in places])
        changes = []
        for place, rating, (new,) in zip(places, before, after, strict=True):
            changes.append(RatingChange(
                game_id=game_id, user_id=place.user_id, kind=kind, rank=place.rank,
                mu_before=rating.mu, sigma_before=rating.sigma, mu_after=new.mu, sigma_after=new.sigma))
            rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
            rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingChange.objects.bulk_create(changes)
        return changes


def ratings_recompute(*, on_skip: Callable[[Game, Exception], None] | None = None) -> int:
    """Throw every rating away and rate each finished game again in ``finished_at`` order, its
    standings from the state rebuilt from its log. One transaction: nobody sees half of it.
    Returns how many games were rated; a game whose log no longer replays is skipped (told
    to ``on_skip``)."""

    def replayed(game: Game) -> dict[str, Any] | None:
        try:
            return game_replay(game=game)
        except Exception as exc:  # an engine that changed since: that game is left out, said so
            log.warning("game %s (%s) does not replay: %s", game.code, game.kind, exc)
            if on_skip is not None:
                on_skip(game, exc)
            return None

    rated = 0
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        held = Seat.objects.filter(user__isnull=False).values("game_id")
        finished = (Game.objects.filter(status=Game.Status.FINISHED, pk__in=held)
                    .order_by(F("finished_at").asc(nulls_first=True), "id").values_list("pk", flat=True))
        for game_id in list(finished):
            if _game_rate(game_id=game_id, final_state=replayed):
                rated += 1
    return rated


# -- reads (the pages) ------------------------------------------------------------------------------

LEADERBOARD_SIZE = 100


def kinds_rated() -> list[dict[str, Any]]:
    """Every installed kind whose engine has standings, with how many players hold a rating in it."""
    from games.engines.base import Engine
    from games.engines.registry import all_engines

    counts = dict(Rating.objects.filter(user__is_active=True).values_list("kind").annotate(n=Count("id")).values_list("kind", "n"))
    return [{"kind": e.kind, "title": e.title, "players": counts.get(e.kind, 0)}
            for e in all_engines() if type(e).standings is not Engine.standings]


def leaderboard(*, kind: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The ``limit`` best players of ``kind`` by displayed rating (only signed-in players hold
    ratings: bots and guests never appear), with their place (equal ratings share one)."""
    rows = (Rating.objects.filter(kind=kind, user__is_active=True)
            .annotate(displayed=F("mu") - 3 * F("sigma"))
            .order_by("-displayed", "-games", "user__username")
            .values_list("user__username", "mu", "sigma", "games")[:limit])
    out: list[dict[str, Any]] = []
    for i, (username, mu, sigma, games) in enumerate(rows):
        shown = round(rating_displayed(mu, sigma), 1)
        place = out[-1]["place"] if out and out[-1]["rating"] == shown else i + 1
        out.append({"place": place, "username": username, "rating": shown, "mu": mu, "sigma": sigma, "games": games})
    return out


def player_ratings(*, user) -> list[dict[str, Any]]:
    """``user``'s rating in each kind they played rated games of, best first."""
    titles = _titles()
    rows = [{"kind": r.kind, "title": titles.get(r.kind, r.kind), "rating": round(rating_displayed(r.mu, r.sigma), 1),
             "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in Rating.objects.filter(user=user)]
    return sorted(rows, key=lambda r: (-r["rating"], r["title"]))


RECENT_CHANGES = 20


def rating_changes_recent(*, user, limit: int = RECENT_CHANGES) -> list[dict[str, Any]]:
    """What ``user``'s last ``limit`` rated games did to their ratings, the latest first."""
    titles = _titles()
    changes = list(RatingChange.objects.filter(user=user).select_related("game")
                   .order_by(F("game__finished_at").desc(nulls_last=True), "-game_id")[:limit])
    rated = dict(RatingChange.objects.filter(game_id__in=[c.game_id for c in changes]).values_list("game_id")
                 .annotate(n=Count("id")).values_list("game_id", "n"))
    out = []
    for c in changes:
        before = rating_displayed(c.mu_before, c.sigma_before)
        after = rating_displayed(c.mu_after, c.sigma_after)
        out.append({
            "kind": c.kind, "title": titles.get(c.kind, c.kind), "code": c.game.code, "finished_at": c.game.finished_at,
            "rank": c.rank, "of": rated.get(c.game_id, 0),
            "before": round(before, 1), "after": round(after, 1), "delta": round(after - before, 1),
        })
    return out


def _titles() -> dict[str, str]:
    from games.engines.registry import all_engines

    return {e.kind: e.title for e in all_engines()}
