from django.urls import path

from .consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<str:code>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
