"""``GET /api/players/{username}``: a signed-in player's public record for third-party clients, the
same as their page ``/players/NAME/`` shows (players/record.py, players/ratings.py). Reads only."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.throttling import ReadRateThrottle
from games.errors import NotFound

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
