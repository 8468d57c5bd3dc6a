"""Companion pages: the Wood and Steel table / host screen (the board, the market,
whose turn, the round, live). The page renders data; static/js/ws_table.js follows
the game over the WebSocket like any other spectator client."""

from __future__ import annotations

import segno
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from games.errors import NotFound, ServiceError
from games.links import public_url
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
    # Before the start the screen is the table's waiting room: the code, its link and QR code for the
    # phones, and (for the host that made the game without a seat) Add bot and Start game.
    join_url = public_url(request, reverse("join", args=[game.code]))
    qr_svg = segno.make(join_url, error="m").svg_inline(scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {game.code}")
    return render(request, "companion/table.html", {"game": summary, "board": board, "join_url": join_url, "qr_svg": qr_svg})
