"""Your data (/me/account): download everything Junction keeps about me as JSON, and delete my
account (typing the username confirms). Session and CSRF; the work is players/data.py's."""

from __future__ import annotations

import json

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from .data import account_delete, account_export


@login_required
@never_cache
@require_GET
def account_page(request):
    return render(request, "players/account.html", {"username": request.user.get_username()})


@login_required
@never_cache
@require_GET
def account_download(request):
    data = account_export(user=request.user)
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)
    name = f"junction-my-data-{timezone.now():%Y%m%d}.json"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@never_cache
@require_POST
def account_delete_view(request):
    username = request.user.get_username()
    if request.POST.get("confirm", "").strip() != username:
        return render(request, "players/account.html", {
            "username": username,
            "delete_error": "Type your username exactly as it is shown to delete your account.",
        }, status=400)
    account_delete(user=request.user)
    logout(request)
    return redirect("account-deleted")


@never_cache
@require_GET
def account_deleted(request):
    return render(request, "players/account_deleted.html")
