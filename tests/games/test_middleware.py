"""games/middleware.py: what no view answered still gets an answer a client can act on."""

from __future__ import annotations

import pytest
from django.test import Client

from games import selectors, views

from .factories import make_game

pytestmark = pytest.mark.django_db


def a_defect(**kwargs):
    raise RuntimeError("a defect")


def test_a_defect_under_api_is_the_json_error_not_an_html_page(monkeypatch):
    code, _ = make_game()
    monkeypatch.setattr(selectors, "actions_after", a_defect)
    client = Client(raise_request_exception=False)
    response = client.get(f"/api/games/{code}/actions", {"after": 0})
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "error", "error": {"code": "internal-error", "message": "Something went wrong on the server."}}


def test_a_defect_on_a_page_is_left_to_django(monkeypatch):
    code, _ = make_game()
    monkeypatch.setattr(views, "game_get", a_defect)
    client = Client(raise_request_exception=False)
    response = client.get(f"/games/{code}/")
    assert response.status_code == 500
    assert not response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("debug", [True, False])
def test_no_route_under_api_is_the_json_error_in_development_too(settings, debug):
    settings.DEBUG = debug
    client = Client(raise_request_exception=False)
    for path in ("/api/nothing-here", "/api/games/a%00b/state", "/api/games/TOOLONGCODE/commands"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json() == {"status": "error", "error": {"code": "not-found", "message": "Not found."}}, path
    page = client.get("/games/a%00b/")
    assert page.status_code == 404 and not page["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", ["/no/such/page", "/join/ZZZZZ", "/games/ZZZZZ/", "/games/ZZZZZ/table"])
def test_a_missing_page_is_the_sites_own_404_in_development_too(settings, debug, path):
    settings.DEBUG = debug
    response = Client().get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert 'id="not-found"' in page and "Page not found" in page and 'class="topbar"' in page
    assert "technical" not in page.lower() and "URLconf" not in page


def test_a_missing_admin_page_in_development_is_left_to_django(settings):
    settings.DEBUG = True
    response = Client().get("/admin/no-such-page/")
    assert response.status_code in (302, 404)  # the admin's login redirect, or Django's own page
    assert 'id="not-found"' not in response.content.decode()


def test_a_defect_on_a_page_without_debug_is_the_sites_own_500_page(settings, monkeypatch):
    settings.DEBUG = False
    code, _ = make_game()
    monkeypatch.setattr(views, "game_get", a_defect)
    response = Client(raise_request_exception=False).get(f"/games/{code}/")
    assert response.status_code == 500
    page = response.content.decode()
    assert 'id="server-error"' in page and "Something went wrong" in page and 'class="topbar"' in page
    assert "a defect" not in page and "Traceback" not in page


@pytest.mark.parametrize("debug", [True, False])
def test_a_page_with_its_own_404_keeps_it(settings, debug):
    settings.DEBUG = debug
    code, _ = make_game()  # a toy game: it has no table screen, and says so
    response = Client().get(f"/games/{code}/table")
    assert response.status_code == 404
    assert 'id="not-ws"' in response.content.decode()
