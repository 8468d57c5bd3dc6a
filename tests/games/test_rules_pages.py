"""How to play (games/rules_views.py, templates/rules/): a page per title that names every command
of its engine (a new command without a rules entry fails here) and every option with each of its
choices, an index of them, and the links to them from the lobby, the waiting room and every game
page (each title's play template and the table screen)."""

from __future__ import annotations

import html
import re

import pytest

from games.engines.registry import get_engine

from .factories import make_game

pytestmark = pytest.mark.django_db

TITLES = ("locomotive-werks", "resourceful-rails", "runerail", "slipway", "wood-and-steel")
# What the layout walk forbids a person to see (tests/e2e/test_browser_walk.py FORBIDDEN).
FORBIDDEN = re.compile(r"null|undefined|NaN|\[object Object\]|\bv\d+\b")


def page_of(client, kind: str) -> str:
    response = client.get(f"/rules/{kind}/")
    assert response.status_code == 200, kind
    return response.content.decode()


def words(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("kind", TITLES)
def test_each_title_has_a_rules_entry_for_every_command_of_its_engine_and_no_other(client, kind):
    engine = get_engine(kind)
    page = page_of(client, kind)
    entries = re.findall(r'<dt data-command="([a-z-]+)"', page)
    commands = [spec.name for spec in engine.command_specs()]
    missing = sorted(set(commands) - set(entries))
    assert not missing, f"{kind}: no rules entry for {missing}"
    assert sorted(entries) == sorted(commands), f"{kind}: entries for commands the engine has not, or twice: {entries}"
    # Each entry says what it costs ("free" included) and what it does.
    for name in commands:
        entry = re.search(rf'<dt data-command="{name}">(.*?)</dt>\s*<dd>(.*?)</dd>', page, re.S)
        assert entry and 'class="rules-cost"' in entry.group(1) and words(entry.group(2)).strip(), f"{kind} {name}"


@pytest.mark.parametrize("kind", TITLES)
def test_each_title_explains_every_option_and_each_of_its_choices(client, kind):
    engine = get_engine(kind)
    page = page_of(client, kind)
    text = words(page)
    for option in engine.options:
        described = option.to_json()
        assert f'data-option="{option.name}"' in page, f"{kind}: option {option.name}"
        assert described["label"] in text and html.unescape(option.help) in text, f"{kind}: option {option.name}"
        for label in described["choice_labels"]:
            assert label in text, f"{kind}: {option.name} choice {label}"


@pytest.mark.parametrize("kind", TITLES)
def test_each_title_page_has_the_sections_a_first_player_needs_and_no_forbidden_words(client, kind):
    page = page_of(client, kind)
    for section in ("goal", "turn", "actions", "end", "options"):
        assert f'id="{section}"' in page, f"{kind}: {section}"
    assert "<svg" in page, f"{kind}: a picture drawn from the game's data"
    assert "<script" not in page.split("<main", 1)[1].split("</main>", 1)[0], "no inline script (CSP)"
    assert not FORBIDDEN.findall(words(page)), f"{kind}: {FORBIDDEN.findall(words(page))}"


def test_wood_and_steel_says_what_the_app_does_and_what_the_table_does(client):
    text = words(page_of(client, "wood-and-steel"))
    assert "What the app does, what the table does" in text
    assert "Every draw" in text and "The bookkeeping" in text and "The physical board" in text


def test_the_pictures_come_from_the_games_data(client):
    from games.engines.locomotive_werks.data import SPACES
    from games.engines.runerail import data as runerail

    lw = page_of(client, "locomotive-werks")
    assert lw.count('class="rules-swatch"') == len(SPACES)
    rn = page_of(client, "runerail")
    for terrain, cost in runerail.RULES["terrain_cost"].items():
        if terrain != "underground":
            assert f"{terrain.capitalize()} · {cost}" in words(rn), terrain
    # Slipway's prices come from its data too (its content script tunes them: the canal rents went 0-3 to 0-2)
    from games.engines.slipway import data as slipway

    sw = words(page_of(client, "slipway"))
    for pieces, said in ((slipway.ships(), "each tile's cost"), (slipway.canals(), "the tile's cost"),
                         (slipway.employees(), "the employee's cost")):
        costs = [p["cost"] for p in pieces.values()]
        assert f"{said} ({min(costs)} to {max(costs)})" in sw, said


def test_the_index_lists_every_title_and_an_unknown_kind_is_not_found(client):
    index = client.get("/rules/")
    assert index.status_code == 200
    for kind in TITLES:
        assert f'href="/rules/{kind}/"' in index.content.decode()
    assert client.get("/rules/no-such-game/").status_code == 404


def test_the_lobby_and_the_waiting_room_link_the_rules(client):
    assert 'href="/rules/"' in client.get("/").content.decode()
    for kind in TITLES:
        code, _ = make_game(kind=kind, players=get_engine(kind).min_players, start=False)
        room = client.get(f"/games/{code}/").content.decode()
        assert re.search(rf'id="room-rules-link" href="/rules/{kind}/"', room), kind


@pytest.mark.parametrize("kind", TITLES)
def test_every_game_page_links_its_rules(client, kind):
    code, _ = make_game(kind=kind, players=get_engine(kind).min_players)
    page = client.get(f"/games/{code}/").content.decode()
    play = page.split('<section id="play"', 1)[1]
    assert f'id="rules-link" href="/rules/{kind}/"' in play, kind
    if kind == "wood-and-steel":
        table = client.get(f"/games/{code}/table").content.decode()
        assert f'id="rules-link" href="/rules/{kind}/"' in table


@pytest.mark.parametrize("kind", TITLES)
def test_leaving_and_clocks_name_the_bot_that_plays_for_a_player(client, kind, settings):
    settings.JUNCTION_CLOCK_EXPIRIES_KEEP = 4
    bot = get_engine(kind).bot_default()
    text = " ".join(words(page_of(client, kind)).split())
    assert f"otherwise the {bot} bot plays the seat to the end" in text
    assert f"If yours runs out, the {bot} bot plays that turn for you and the seat stays yours. Only after 4 such turns" in text
