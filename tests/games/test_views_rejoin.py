"""The rejoin page a rejoin code's link and QR code open: it shows the game and a code field
(the code itself comes in the fragment, which never reaches the server); opening it changes
nothing. The host's pages load the rejoin panel's script."""

from __future__ import annotations

import pytest

from games.models import RejoinCode

from .factories import make_game

pytestmark = pytest.mark.django_db


def test_the_rejoin_page_renders_the_game_and_its_form(client):
    code, _ = make_game()
    page = client.get(f"/games/{code}/rejoin")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="rejoin-code"' in html and code in html and "js/rejoin_page.js" in html
    assert client.get(f"/games/{code.lower()}/rejoin").status_code == 200
    assert client.get("/games/ZZZZZ/rejoin").status_code == 404
    assert not RejoinCode.objects.exists()


def test_the_room_and_the_table_screen_load_the_rejoin_panel(client):
    code, _ = make_game()
    assert "js/rejoin.js" in client.get(f"/games/{code}/").content.decode()
    ws, _ = make_game(kind="wood-and-steel", players=2, start=False)
    assert "js/rejoin.js" in client.get(f"/games/{ws}/table").content.decode()


def test_a_started_games_join_page_points_to_the_rejoin_page(client):
    code, _ = make_game()
    assert f'href="/games/{code}/rejoin"' in client.get(f"/join/{code}").content.decode()
    lobby, _ = make_game(start=False)
    assert "/rejoin" not in client.get(f"/join/{lobby}").content.decode()
