"""Turn notices' edges: the setting page (/me/notices), the VAPID public key browsers subscribe
with, and a signed-in player's devices (their browsers' push subscriptions). Session + CSRF;
the work is in players/notices.py and players/models.py."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games.errors import ServiceError

from .models import Profile, PushSubscription
from .notices import push_device_register, push_endpoint_problem, vapid_public_key

MAX_BODY = 4096


def _error(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"status": "error", "error": {"code": code, "message": message}}, status=status)


def _signed_in(request: HttpRequest) -> JsonResponse | None:
    if not request.user.is_authenticated:
        return _error("not-signed-in", "Sign in to get turn notices.", 401)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def notices_page(request: HttpRequest) -> HttpResponse:
    """/me/notices: how I am told of my turns, and "Allow notices on this device"."""
    profile = Profile.objects.filter(user=request.user).first()
    current = profile.turn_notices if profile else Profile.Notices.PUSH_OR_EMAIL
    saved = False
    error = ""
    if request.method == "POST":
        chosen = request.POST.get("turn_notices", "")
        if chosen in Profile.Notices.values:
            Profile.objects.update_or_create(user=request.user, defaults={"turn_notices": chosen})
            return redirect(f"{request.path}?saved=1")
        error = "Choose one of the four."
    saved = request.GET.get("saved") == "1"
    return render(request, "players/notices.html", {
        "choices": Profile.Notices.choices,
        "current": current,
        "saved": saved,
        "error": error,
        "has_email": bool(request.user.email),
        "devices": PushSubscription.objects.filter(user=request.user).count(),
        "config": {"public_key": vapid_public_key(), "devices_url": reverse("notices-devices"),
                   "csrf_token": get_token(request)},
    })


@require_GET
def vapid_key(request: HttpRequest) -> JsonResponse:
    """GET /me/notices/key: the application server key for pushManager.subscribe ("" when this
    server has no VAPID keys: no push)."""
    return JsonResponse({"public_key": vapid_public_key()})


@require_http_methods(["POST", "DELETE"])
def devices(request: HttpRequest) -> JsonResponse:
    """POST: this browser's push subscription (PushSubscription.toJSON()) for the signed-in
    player; DELETE with {"endpoint"}: forget it."""
    refused = _signed_in(request)
    if refused:
        return refused
    if len(request.body) > MAX_BODY:
        return _error("payload-too-large", f"At most {MAX_BODY} bytes.", 413)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return _error("malformed-json", "The body is not valid JSON.")
    if not isinstance(body, dict):
        return _error("invalid-request", "Send a JSON object.")
    endpoint = body.get("endpoint")
    if request.method == "DELETE":  # only ever one of this player's own devices
        if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000:
            return _error("invalid-endpoint", "endpoint must be a URL of at most 1000 characters.")
        PushSubscription.objects.filter(user=request.user, endpoint=endpoint).delete()
        return JsonResponse({"status": "ok"})
    problem = push_endpoint_problem(endpoint=endpoint)
    if problem:
        return _error("invalid-endpoint", problem)
    keys = body.get("keys")
    if not isinstance(keys, dict) or not _key_ok(keys.get("p256dh"), 65, b"\x04") or not _key_ok(keys.get("auth"), 16):
        return _error("invalid-keys", "keys must hold p256dh (a P-256 public key) and auth (16 bytes), base64url.")
    # One device, one row, one account: another account's device is refused (409), never moved.
    try:
        device, created = push_device_register(user_id=request.user.pk, endpoint=endpoint,
                                               p256dh=keys["p256dh"], auth=keys["auth"])
    except ServiceError as exc:
        return _error(exc.code, exc.message, exc.status)
    return JsonResponse({"status": "ok", "device": device.pk}, status=201 if created else 200)


def _key_ok(value: Any, size: int, prefix: bytes = b"") -> bool:
    if not isinstance(value, str) or not value or len(value) > 200:
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size and raw.startswith(prefix)
