"""A bare ASGI WebSocket echo (no Django, no channels): what Daphne itself costs a frame."""


async def application(scope, receive, send):
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message.get("text")})
        elif message["type"] == "websocket.disconnect":
            return
