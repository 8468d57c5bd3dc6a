"""NUL and odd characters in any free-text path parameter (a player's name, a kind, the admin's
object ids, allauth's keys, anything a URL pattern takes that is not a join code or a number)
are answered 404 or the route's own refusal, never 500, on SQLite and on PostgreSQL (which
refuses a NUL in a query: /players/%00/ was a 500 there). The routes are read from the URLconf,
so a new free-text route is covered the day it is added."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from .factories import make_game

pytestmark = pytest.mark.django_db

# Odd values, already percent-encoded as they travel in a path.
ODD = [
    "%00", "a%00b", "ann%00", "%00%00%00",
    "%E2%80%AEevil%E2%80%AC",  # a right-to-left override
    "%E2%81%A6x%E2%81%A9",  # an isolate
    "%E2%80%8B",  # zero width space
    "%EF%BB%BFBOM", "%07bell", "%0D%0AX-Injected:%201", "%09", "%20",
    "%C3%89", "%EF%BC%A1%EF%BC%A2",  # É, full-width letters
    "%F0%9F%99%82" * 20, "x" * 300,
    "%FF%FE", "%ED%A0%80",  # not UTF-8, a lone surrogate's bytes
    "..%2F..%2Fetc%2Fpasswd", "%27%20OR%201%3D1%20--", "%3Cscript%3E", "%25", "null",
]
# Control characters (NUL, bell, CR LF, tab) are in no route: a 404 whatever the route.
CONTROL = [value for value in ODD if any(c in value for c in ("%00", "%07", "%0D", "%09"))]
# Path parameters that are not free text: a join code (games/converters.py) or a number.
CLOSED = {"gamecode", "int"}
_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>(?P<body>[^()]*(?:\([^()]*\)[^()]*)*)\)")


def routes() -> list[str]:
    """Every route of the site, as its pattern's text (resolvers' prefixes joined)."""
    def walk(patterns, prefix: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)
    return list(walk(get_resolver().url_patterns, ""))


def free_text_routes() -> list[str]:
    return [route for route in routes() if any(
        (m["group"] or m["converter"] not in CLOSED) for m in _PARAM.finditer(route))]


def fill(route: str, value: str, code: str) -> str:
    """The route with ``value`` in each free-text parameter (a real code and 1 in the others)."""
    def one(match: re.Match) -> str:
        if match["converter"] == "gamecode":
            return code
        if match["converter"] == "int":
            return "1"
        return value
    path = _PARAM.sub(one, route).replace("^", "").replace("$", "").replace("\\", "")
    return "/" + path.removeprefix("/")


def test_the_free_text_routes_are_the_ones_this_test_knows():
    """A route that takes free text is covered by the walk below; this pins the list, so one
    added later is looked at (its view must answer an odd value with a 404, never a query)."""
    found = {re.sub(r"^admin/\w+/\w+/", "admin/<app>/<model>/", route) for route in free_text_routes()}
    assert found == {
        "admin/r/<path:content_type_id>/<path:object_id>/",
        "admin/<app>/<model>/<path:object_id>/", "admin/<app>/<model>/<path:object_id>/change/",
        "admin/<app>/<model>/<path:object_id>/history/", "admin/<app>/<model>/<path:object_id>/delete/",
        "admin/<app>/<model>/<id>/password/", "admin/(?P<url>.*)$",
        "admin/^(?P<app_label>auth|games|companion|players|account)/$",
        "accounts/^confirm-email/(?P<key>[-:\\w]+)/$",
        "accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        "api/kinds/<slug:kind>/content", "ratings/<slug:kind>/", "players/<str:username>/", "players/<str:username>/mute", "api/players/<str:username>", "rules/<slug:kind>/",
    }


@pytest.fixture
def clients():
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "a long enough password")
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(staff)
    return {"anonymous": Client(raise_request_exception=False), "staff": signed_in}


@pytest.mark.parametrize("value", ODD)
def test_odd_values_in_every_free_text_route_are_never_a_server_error(clients, value):
    code, _ = make_game()
    failures = []
    for route in free_text_routes():
        path = fill(route, value, code)
        for who, client in clients.items():
            for method in ("get", "post"):
                response = getattr(client, method)(path)
                if response.status_code >= 500 or (value in CONTROL and response.status_code != 404):
                    failures.append(f"{who} {method.upper()} {path[:80]} -> {response.status_code}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("value", CONTROL)
def test_a_control_character_anywhere_in_a_path_is_a_404_without_a_query(client, api_client, django_assert_num_queries, value):
    for path in (f"/players/{value}/", f"/players/{value}/mute", f"/api/players/{value}", f"/ratings/{value}/", f"/api/kinds/{value}/content",
                 f"/accounts/password/reset/key/1-{value}/", f"/admin/auth/user/{value}/change/",
                 f"/no/such/{value}/page", f"/static/{value}"):
        with django_assert_num_queries(0):
            response = (api_client if path.startswith("/api/") else client).get(path)
        assert response.status_code == 404, (path, response.status_code)
        if path.startswith("/api/"):
            assert response.json()["error"]["code"] == "not-found"


def test_a_players_page_is_still_found_by_any_name_django_takes(client):
    for name in ("ann", "Ann.B", "ann@example.com", "a+b", "a-b_c", "Zoë", "李"):
        get_user_model().objects.create_user(name, password="a long enough password")
        response = client.get(f"/players/{name}/")
        assert response.status_code == 200, name
    assert client.get("/players/nobody/").status_code == 404
