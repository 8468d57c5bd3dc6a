from django.urls import path

from games import converters  # noqa: F401  (registers <gamecode:…>)

from . import api

urlpatterns = [
    path("boards/default", api.DefaultBoardView.as_view(), name="ws-board-default"),
    path("games/<gamecode:code>/board", api.GameBoardView.as_view(), name="ws-game-board"),
]
