from django.urls import path

from . import api

urlpatterns = [
    path("boards/default", api.DefaultBoardView.as_view(), name="ws-board-default"),
    path("games/<str:code>/board", api.GameBoardView.as_view(), name="ws-game-board"),
]
