"""The game master hands a seat to a new device from admin: a one-time rejoin code shown with
its link and QR code (the game's seats, or the seats list's action); using it is logged with
the game master's name."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Action, Game, RejoinCode

from .factories import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    get_user_model().objects.create_superuser("gm", "gm@example.com", "pw")
    client.login(username="gm", password="pw")
    return client


def shown_codes(page: str) -> list[str]:
    return re.findall(r'<code class="rejoin-code">([A-Z]{5}-[A-Z]{5})</code>', page)


def test_the_game_page_links_each_seat_to_a_rejoin_code(admin_client):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    for seat in (0, 1):
        assert f'href="/admin/games/game/{game.pk}/rejoin/{seat}/"' in page


def test_a_game_master_makes_a_code_and_its_use_is_logged_with_their_name(admin_client, api_client, settings):
    settings.JUNCTION_PUBLIC_URL = "https://table.example.org"
    code, tokens = make_game()
    game = Game.objects.get(code=code)
    url = f"/admin/games/game/{game.pk}/rejoin/1/"
    confirm = admin_client.get(url)
    assert confirm.status_code == 200 and "Make a rejoin code" in confirm.content.decode()
    assert not RejoinCode.objects.exists()  # opening the page makes nothing

    page = admin_client.post(url).content.decode()
    [shown] = shown_codes(page)
    assert "<svg" in page and f"https://table.example.org/games/{code}/rejoin#{shown.replace('-', '')}" in page
    assert RejoinCode.objects.get().created_by == "gm"

    response = api_client.post(f"/api/games/{code}/rejoin", {"code": shown}, format="json")
    assert response.status_code == 200 and response.json()["seat"] == 1
    last = Action.objects.filter(game=game).order_by("-sequence").first()
    assert last.command == {"cmd": "admin", "action": "seat-moved", "by": "gm", "seat": 1}
    old = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert old.status_code == 401 and old.json()["error"]["code"] == "seat-moved"


def test_the_seats_list_action_makes_a_code_for_each_selected_seat(admin_client):
    code, _ = make_game(players=3)
    game = Game.objects.get(code=code)
    seats = list(game.seats.filter(index__in=[1, 2]).values_list("pk", flat=True))
    response = admin_client.post("/admin/games/seat/", {"action": "seats_to_new_devices", "_selected_action": seats})
    assert response.status_code == 200
    assert len(shown_codes(response.content.decode())) == 2
    assert sorted(RejoinCode.objects.values_list("seat", flat=True)) == [1, 2]


def test_a_game_that_is_over_gets_no_code(admin_client):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    services.game_end(game_id=game.pk, by="gm", reason="done")
    response = admin_client.post(f"/admin/games/game/{game.pk}/rejoin/1/", follow=True)
    assert "abandoned" in response.content.decode() and not RejoinCode.objects.exists()
    assert admin_client.get(f"/admin/games/game/{game.pk}/rejoin/9/").status_code == 404


def test_only_staff_reach_it(client):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    response = client.post(f"/admin/games/game/{game.pk}/rejoin/1/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not RejoinCode.objects.exists()
