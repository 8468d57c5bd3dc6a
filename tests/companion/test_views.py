"""The table / host screen page: a Wood and Steel game renders it, an unknown code is a
404, another game's kind gets a clear page that says so and links back to its room."""

from __future__ import annotations

import json
import re

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


def test_the_lobby_picks_the_planner_bot_unless_the_host_chooses_another(client):
    """A Wood and Steel table fills empty seats with the kind's best bot (the planner, the one
    that finishes games) unless the host picks a weaker one."""
    created = services.game_create(kind="wood-and-steel")
    html = client.get(reverse("room", args=[created.game.code])).content.decode()
    select = re.search(r'<select id="bot-level"[^>]*>(.*?)</select>', html, re.S)
    assert select, "the host's bot chooser is on the room page"
    options = re.findall(r'<option value="([^"]+)"( selected)?>', select.group(1))
    assert [value for value, _ in options] == ["random", "simple", "planner"]  # weakest first
    assert [value for value, selected in options if selected] == ["planner"]


def test_the_kinds_listing_names_each_kinds_default_bot(client):
    kinds = {k["kind"]: k for k in client.get("/api/kinds").json()}
    assert kinds["wood-and-steel"]["default_bot"] == "planner"
    assert kinds["locomotive-werks"]["default_bot"] == "greedy"  # its better bot too
    assert kinds["toy"]["default_bot"] == "random"  # its only one
    assert kinds["slipway"]["default_bot"] == "shipwright"  # not the last of its list, a single-focus balance bot
    for kind in kinds.values():
        assert kind["default_bot"] in kind["bots"] if kind["bots"] else kind["default_bot"] is None
