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

from .clocks import BANK_CHOICES, TURN_SECONDS_CHOICES, expiries_keep
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
        {"kinds": [e.describe() for e in all_engines()], "games": [game_summary(g) for g in open_games(status="lobby", limit=50)],
         "clocks": TURN_SECONDS_CHOICES, "banks": BANK_CHOICES,
         "expiries_keep": expiries_keep()},
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


def rejoin(request, code: str):
    """The page a rejoin code's link and QR code open (``/games/CODE/rejoin#REJOINCODE``): its
    script takes the seat over the API and keeps the new token in this browser, as joining does.
    The code rides in the fragment, so it never reaches a server log or a Referer; opening
    the page changes nothing (a link preview cannot use the code up)."""
    game = _game_or_404(code)
    return render(request, "games/rejoin.html", {"game": game_summary(game)})


def rejoin_link(request, *, game_code: str, rejoin_code: str) -> tuple[str, str]:
    """The rejoin page's absolute URL with ``rejoin_code``, at the address phones reach
    (games/links.py), and its QR code as an inline SVG element."""
    url = public_url(request, reverse("rejoin", args=[game_code])) + "#" + rejoin_code
    qr = segno.make(url, error="m")
    width, height = qr.symbol_size(scale=4)
    # A viewBox (so a page may size it by CSS) and a size of its own (where none does).
    svg = qr.svg_inline(scale=4, omitsize=True, dark="#1b1b1b", light="#ffffff", title=f"Rejoin {game_code}")
    return url, svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)


@cache_control(max_age=300)  # the address in it may change (a laptop on another network)
def join_qr(request, code: str):
    game = _game_or_404(code)
    qr = segno.make(public_url(request, reverse("join", args=[game.code])), error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {game.code}")
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")
