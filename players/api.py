"""``GET /api/players/{username}``: a signed-in player's public record for third-party clients, the
same as their page ``/players/NAME/`` shows (players/record.py, players/ratings.py). Reads only.

``/api/me/away``: the signed-in player's away period for slow games (games/away.py): ``GET`` reads
it, ``POST {"days": n}`` declares one from now, ``DELETE`` ends it early (a session and its CSRF
token, as My games' page sends)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from games import away
from games.api import serializers as s
from games.api.throttling import JoinRateThrottle, ReadRateThrottle
from games.api.views import validated
from games.errors import NotFound, Unauthorized

from . import ratings, record


class TitleRecordSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    played = serializers.IntegerField(help_text="Games of this title the rules finished with the player seated.")
    won = serializers.IntegerField(help_text="Of them, games the player finished first in (a shared first place counts).")
    average_place = serializers.FloatField(help_text="1 = always first.")
    average_players = serializers.FloatField(help_text="Seats at the table, bots included, on average.")


class RecentGameSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    code = serializers.CharField(help_text="The game's code: its replay is /games/{code}/replay.")
    place = serializers.IntegerField()
    players = serializers.IntegerField()
    won = serializers.BooleanField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RatingSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    rating = serializers.FloatField(help_text="The displayed rating, mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games of this title.")


class RatingHistorySerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    ratings = serializers.ListField(child=serializers.FloatField(),
                                    help_text="The displayed rating before the first rated game, then after each, oldest first.")


class PlayerSerializer(serializers.Serializer):
    player = serializers.CharField()
    record = TitleRecordSerializer(many=True)
    recent_games = RecentGameSerializer(many=True)
    ratings = RatingSerializer(many=True)
    rating_history = RatingHistorySerializer(many=True)


def player_payload(user) -> dict:
    return {
        "player": user.get_username(),
        "record": record.player_record(user=user),
        "recent_games": record.player_games_recent(user=user),
        "ratings": [{k: r[k] for k in ("kind", "title", "rating", "mu", "sigma", "games")} for r in ratings.player_ratings(user=user)],
        "rating_history": [{k: h[k] for k in ("kind", "title", "ratings")} for h in record.rating_history(user=user)],
    }


class PlayerView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(responses={200: PlayerSerializer, 404: s.ErrorSerializer, 429: s.ErrorSerializer},
                   summary="A player's record: games played and won per title, recent games, ratings and their history")
    def get(self, request, username):
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise NotFound("player-not-found", "No player has that name.")
        return Response(player_payload(user))


class AwaySerializer(serializers.Serializer):
    away = serializers.BooleanField(help_text="An away period is under way.")
    starts_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When it ends (the clocks run again); null: not away.")
    days_used = serializers.IntegerField(help_text="Days of away periods begun in the last 30 days.")
    days_left = serializers.IntegerField(help_text="Days that may still be declared in these 30 days.")
    max_days = serializers.IntegerField(help_text="The longest away period, in days.")


class AwayDeclareSerializer(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=366, help_text="Whole days from now (at most max_days).")


def away_payload(user) -> dict:
    status = away.away_status(user=user)
    current = status.current
    return {"away": current is not None, "starts_at": current.starts_at if current else None,
            "ends_at": current.ends_at if current else None, "days_used": status.days_used,
            "days_left": status.days_left, "max_days": status.max_days}


class AwayView(APIView):
    """A signed-in player's away period: their clocks in slow games (a day or more a turn, or a bank of
    days) wait while it lasts, and their tables are shown it."""

    authentication_classes = [SessionAuthentication]
    throttle_classes = [JoinRateThrottle, ReadRateThrottle]

    def _user(self, request):
        if request.user is None or not request.user.is_authenticated:
            raise Unauthorized("sign-in-required", "Sign in to declare an away period.")
        return request.user

    @extend_schema(responses={200: AwaySerializer, 401: s.ErrorSerializer}, summary="My away period (slow games)")
    def get(self, request):
        return Response(AwaySerializer(away_payload(self._user(request))).data)

    @extend_schema(request=AwayDeclareSerializer, responses={200: AwaySerializer, 400: s.ErrorSerializer, 401: s.ErrorSerializer,
                   403: s.ErrorSerializer, 409: s.ErrorSerializer, 429: s.ErrorSerializer},
                   summary="Declare an away period from now: my clocks in slow games wait until it ends",
                   description="409 away-already while one lasts; 409 away-limit past the days allowed in any 30 days.")
    def post(self, request):
        user = self._user(request)
        away.away_declare(user=user, days=validated(AwayDeclareSerializer, request)["days"])
        return Response(AwaySerializer(away_payload(user)).data)

    @extend_schema(responses={200: AwaySerializer, 401: s.ErrorSerializer, 403: s.ErrorSerializer},
                   summary="End my away period now: the time it did not use comes off my clocks")
    def delete(self, request):
        user = self._user(request)
        away.away_end(user=user)
        return Response(AwaySerializer(away_payload(user)).data)
