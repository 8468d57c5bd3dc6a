"""Companion pages: the Wood and Steel table / host screen (the board, the market,
whose turn, the round, live). The page renders data; static/js/ws_table.js follows
the game over the WebSocket like any other spectator client."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from games.errors import NotFound, ServiceError
from games.selectors import game_get, game_summary

from .selectors import board_data, board_default

KIND = "wood-and-steel"


def table(request, code: str):
    try:
        game = game_get(code=code)
    except NotFound:
        raise Http404("No such game") from None
    summary = game_summary(game)
    if game.kind != KIND:
        return render(request, "companion/not_wood_and_steel.html", {"game": summary}, status=404)
    board = game.options.get("board")
    if board is None:
        try:
            board = board_data(board_default())
        except ServiceError:
            board = None  # the script fetches it from the API instead
    return render(request, "companion/table.html", {"game": summary, "board": board})
