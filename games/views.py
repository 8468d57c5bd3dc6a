"""Server-rendered pages. They render data; the JavaScript talks to the JSON API
and the WebSocket like any other client."""

from __future__ import annotations

import io

import segno
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.cache import cache_control

from .engines.registry import all_engines, get_engine
from .errors import NotFound
from .links import public_url
from .selectors import game_get, game_summary, open_games


def _game_or_404(code: str):
    try:
        return game_get(code=code)
    except NotFound:
        raise Http404("No such game") from None


def home(request):
    return render(
        request,
        "games/home.html",
        {"kinds": [e.describe() for e in all_engines()], "games": [game_summary(g) for g in open_games(status="lobby", limit=50)]},
    )


def join(request, code: str):
    game = _game_or_404(code)
    return render(request, "games/join.html", {"game": game_summary(game)})


def room(request, code: str):
    game = _game_or_404(code)
    engine = get_engine(game.kind)
    play_template = select_template([f"games/play/{game.kind}.html", "games/play/generic.html"])
    join_url = public_url(request, reverse("join", args=[game.code]))
    qr_svg = segno.make(join_url, error="m").svg_inline(scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {game.code}")
    return render(
        request,
        "games/room.html",
        {
            "game": game_summary(game),
            "engine": engine.describe(),
            "join_url": join_url,
            "qr_svg": qr_svg,
            "play_template": play_template.template.name,
        },
    )


def replay(request, code: str):
    game = _game_or_404(code)
    play_template = select_template([f"games/play/{game.kind}.html", "games/play/generic.html"])
    return render(request, "games/replay.html", {"game": game_summary(game), "play_template": play_template.template.name})


@cache_control(max_age=300)  # the address in it may change (a laptop on another network)
def join_qr(request, code: str):
    game = _game_or_404(code)
    qr = segno.make(public_url(request, reverse("join", args=[game.code])), error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {game.code}")
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")
