"""Companion API: the board a game is played on (its snapshot), for drawing maps."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from games.errors import ServiceError
from games.selectors import game_get

from .selectors import board_data, board_default


class GameBoardView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer},
                   summary="Wood and Steel: the board this game is played on (cities, routes, regions)")
    def get(self, request, code):
        game = game_get(code=code)
        if game.kind != "wood-and-steel":
            raise ServiceError("wrong-kind", "Only Wood and Steel games have a board.")
        response = Response(game.options.get("board") or board_data(board_default()))
        response["Cache-Control"] = "public, max-age=3600"
        return response


class DefaultBoardView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Wood and Steel: the default board new games use")
    def get(self, request):
        return Response(board_data(board_default()))
