"""Accounts and My games: pages and endpoints of a signed-in player's seats. Signing up, in and
out and password resets are django-allauth's views (/accounts/, templates/account/)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.throttling import JoinRateThrottle
from games.away import away_days_per_30, away_status
from games.errors import ServiceError, Unauthorized

from . import seats


@login_required
@never_cache
def my_games(request):
    games = seats.my_games(user=request.user)
    now = timezone.now()
    for game in games:
        recent = (now - game["updated_at"]).total_seconds() < 60
        game["updated_ago"] = "just now" if recent else timesince(game["updated_at"], now, depth=1) + " ago"
    held = [{"code": g["code"], "seat": g["seat"]} for g in games]
    status = away_status(user=request.user, now=now)
    return render(request, "players/my_games.html", {
        "games": games,
        "away": {"current": status.current, "days_left": status.days_left, "max_days": status.max_days,
                 "per_30": away_days_per_30(), "choices": list(range(1, min(status.max_days, status.days_left) + 1))},
        "page_data": {"held": held, "welcome": request.GET.get("welcome") == "1",
                      "claim_url": reverse("api-my-seats-claim")},
    })


def _seat_index(request) -> int | None:
    raw = request.POST.get("seat") or request.GET.get("seat")
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError:
        return None


@never_cache
@require_http_methods(["GET", "POST"])
def seat_open(request, code: str):
    """My games' "Open": this device gets a token of its own for the player's seat (no token
    copying). GET is the page (its script POSTs here, keeps the token as joining does and opens
    the game); POST makes the token and answers JSON."""
    if request.method == "GET":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.get_full_path()}")
        try:
            seat = seats.seat_of_user(user=request.user, code=code, index=_seat_index(request))
        except ServiceError as exc:
            return render(request, "players/seat_open.html", {"error": exc.message, "code": code}, status=exc.status)
        return render(request, "players/seat_open.html", {
            "code": seat.game.code, "seat": seat, "page_data": {"code": seat.game.code, "seat": seat.index},
        })
    try:
        if not request.user.is_authenticated:
            raise Unauthorized("sign-in-required", "Sign in to open your seats.")
        seat = seats.seat_of_user(user=request.user, code=code, index=_seat_index(request))
        token = seats.seat_token_issue(user=request.user, seat=seat)
    except ServiceError as exc:
        return JsonResponse(exc.to_json(), status=exc.status)
    return JsonResponse({
        "code": seat.game.code, "seat": seat.index, "token": token, "host": seat.is_host,
        "url": reverse("room", args=[seat.game.code]),
    })


class SeatsClaimSerializer(serializers.Serializer):
    tokens = serializers.ListField(child=serializers.CharField(max_length=200, trim_whitespace=False),
                                   max_length=seats.CLAIM_MAX, allow_empty=True)


@extend_schema(exclude=True)  # My games' own call (a session and its CSRF token), not the token API's
class SeatsClaimView(APIView):
    """POST /api/me/seats/claim {"tokens": [...]}: the seats this browser holds become the
    signed-in player's (session and CSRF, not a seat token). 401 sign-in-required, 403 without
    the CSRF token; the answer: claimed, already (the account's before), taken (another
    account's), unknown (how many tokens hold no seat)."""

    authentication_classes = [SessionAuthentication]
    throttle_classes = [JoinRateThrottle]

    def post(self, request):
        if request.user is None or not request.user.is_authenticated:
            raise Unauthorized("sign-in-required", "Sign in to add seats to your account.")
        body = SeatsClaimSerializer(data=request.data if isinstance(request.data, dict) else {})
        body.is_valid(raise_exception=True)
        result = seats.seats_claim(user=request.user, tokens=body.validated_data["tokens"])
        return Response(result.to_json())
