"""A player's record: every finished game a signed-in player sat in, with the place the rules gave
them, and what the profile (``/players/NAME/``, ``GET /api/players/NAME``) says of it per title.

:func:`game_record` runs when the rules finish a game (``games.turns.register_game_finished``, after
commit; a game with a signed-in seat is watched, so it is told) and writes one
:class:`~players.models.GameRecord` per seat a signed-in player holds at the end: rated or not, bots
and guests at the table too (ratings are stricter: players/ratings.py). A game the game master
ended (abandoned) is no one's record. :func:`records_recompute` (``manage.py recompute_records``)
writes them again for every finished game from its stored final state."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Avg, Count, F, Q

from games import results
from games.engines.registry import all_engines
from games.models import Game, Seat

from .models import GameRecord, RatingChange
from .ratings import rating_displayed

log = logging.getLogger(__name__)

RECENT_GAMES = 10


def game_places(*, game: Game) -> list[int] | None:
    """Each seat's place (1 = first, ties shared) in ``game`` as it finished: by its rules, with resignations
    laid over them (games/results.py); None when it did not finish (a game the game master ended) or its
    kind ranks nobody."""
    return results.game_places(game=game)


def game_record(*, game_id: int) -> list[GameRecord]:
    """Write the record of the finished game ``game_id`` for its signed-in players. Idempotent: a
    game recorded already keeps its rows."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return []
    places = game_places(game=game)
    if places is None:
        return []
    held = list(Seat.objects.filter(game_id=game_id, user__isnull=False).order_by("index").values_list("index", "user_id"))
    rows = [GameRecord(user_id=user_id, game_id=game_id, kind=game.kind, seat=index, place=places[index],
                       players=len(places), finished_at=game.finished_at)
            for index, user_id in held if index < len(places)]
    GameRecord.objects.bulk_create(rows, ignore_conflicts=True)  # (game, seat) is unique: a second call adds nothing
    return list(GameRecord.objects.filter(game_id=game_id).order_by("seat"))


def game_finished(game_id: int) -> None:
    """``games.turns``' game-finished listener."""
    game_record(game_id=game_id)


def records_recompute() -> int:
    """Throw every record away and write it again for every finished game with a signed-in seat, from
    the stored final states; one transaction. Returns the number of records written."""
    with transaction.atomic():
        GameRecord.objects.all().delete()
        ids = (Game.objects.filter(status=Game.Status.FINISHED, seats__user__isnull=False)
               .distinct().order_by("finished_at", "pk").values_list("pk", flat=True))
        return sum(len(game_record(game_id=game_id)) for game_id in list(ids))


def player_record(*, user) -> list[dict[str, Any]]:
    """Per title ``user`` finished games of: games played, won (first place, ties included), the
    average place and the average table size; most played first."""
    titles = _titles()
    rows = (GameRecord.objects.filter(user=user).values("kind")
            .annotate(played=Count("id"), won=Count("id", filter=Q(place=1)),
                      average_place=Avg("place"), average_players=Avg("players"))
            .order_by("-played", "kind"))
    return [{"kind": r["kind"], "title": titles.get(r["kind"], r["kind"]), "played": r["played"], "won": r["won"],
             "average_place": round(r["average_place"], 2), "average_players": round(r["average_players"], 1)}
            for r in rows]


def player_games_recent(*, user, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """``user``'s last ``limit`` finished games, the latest first, each with its code for the replay."""
    titles = _titles()
    rows = (GameRecord.objects.filter(user=user).order_by(F("finished_at").desc(nulls_last=True), "-game_id")
            .values("kind", "game__code", "place", "players", "finished_at")[:limit])
    return [{"kind": r["kind"], "title": titles.get(r["kind"], r["kind"]), "code": r["game__code"],
             "place": r["place"], "players": r["players"], "won": r["place"] == 1, "finished_at": r["finished_at"]}
            for r in rows]


# The rating chart: a small SVG drawn on the server (no script), one line per title.
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 8


def rating_history(*, user) -> list[dict[str, Any]]:
    """Per title ``user`` is rated in: the displayed rating after each rated game, oldest first (it
    starts from the rating before the first one), with the chart's polyline points and its range."""
    titles = _titles()
    by_kind: dict[str, list[float]] = {}
    changes = (RatingChange.objects.filter(user=user)
               .order_by(F("game__finished_at").asc(nulls_first=True), "game_id")
               .values_list("kind", "mu_before", "sigma_before", "mu_after", "sigma_after"))
    for kind, mu_before, sigma_before, mu_after, sigma_after in changes:
        series = by_kind.setdefault(kind, [round(rating_displayed(mu_before, sigma_before), 1)])
        series.append(round(rating_displayed(mu_after, sigma_after), 1))
    out = []
    for kind, series in sorted(by_kind.items(), key=lambda item: titles.get(item[0], item[0])):
        low, high = min(series), max(series)
        span = (high - low) or 1.0
        step = (CHART_WIDTH - 2 * CHART_PAD) / max(1, len(series) - 1)
        points = " ".join(f"{CHART_PAD + i * step:.1f},{CHART_HEIGHT - CHART_PAD - (v - low) / span * (CHART_HEIGHT - 2 * CHART_PAD):.1f}"
                          for i, v in enumerate(series))
        out.append({"kind": kind, "title": titles.get(kind, kind), "ratings": series, "low": low, "high": high,
                    "last": series[-1], "points": points, "width": CHART_WIDTH, "height": CHART_HEIGHT})
    return out


def _titles() -> dict[str, str]:
    return {e.kind: e.title for e in all_engines()}
