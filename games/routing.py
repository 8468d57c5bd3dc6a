from django.urls import path, re_path

from . import converters  # noqa: F401  (registers <gamecode:…>)
from .consumers import GameConsumer, LobbyConsumer


async def refuse(scope, receive, send) -> None:
    """Any other WebSocket path (a code that cannot be one included): the handshake is
    refused (Daphne answers 403) without reaching a consumer, and without the traceback an
    unrouted path would log."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 4404})


websocket_urlpatterns = [
    path("ws/games/<gamecode:code>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    re_path(r"", refuse),
]
