"""The table / host screen page: a Wood and Steel game renders it, an unknown code is a
404, another game's kind gets a clear page that says so and links back to its room."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db


def test_table_page_renders_for_a_wood_and_steel_game(client):
    code, _ = make_game(kind="wood-and-steel", players=3)
    url = reverse("ws-table", args=[code])
    assert url == f"/games/{code}/table"
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="ws-board"' in html and 'id="conn"' in html and "js/ws_table.js" in html
    assert reverse("room", args=[code]) in html
    # The board the game is played on is embedded, and no token or secret is.
    start = html.index('id="board-data"')
    board = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    assert len(board["cities"]) == 56 and len(board["routes"]) == 104
    assert "host_token" not in html and "rng" not in html


def test_table_page_renders_in_the_lobby_too(client):
    created = services.game_create(kind="wood-and-steel")
    response = client.get(reverse("ws-table", args=[created.game.code]))
    assert response.status_code == 200
    assert b"Waiting to start" in response.content


def test_unknown_code_is_404(client):
    assert client.get("/games/NOPE0/table").status_code == 404


def test_other_kinds_get_a_clear_page(client):
    code, _ = make_game(kind="toy", players=2)
    response = client.get(reverse("ws-table", args=[code]))
    assert response.status_code == 404
    html = response.content.decode()
    assert "No table screen for this game" in html
    assert "only for Wood and Steel" in html
    assert reverse("room", args=[code]) in html
    assert "ws_table.js" not in html
