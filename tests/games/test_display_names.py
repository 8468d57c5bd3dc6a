"""Pages and the admin show display names, not slugs: the engines provide them."""

from __future__ import annotations

import pytest

from games.engines.registry import get_engine
from games.models import Game
from tests.games.factories import make_game

WS = "wood-and-steel"


def test_wood_and_steel_view_names_engines_and_upgrades():
    engine = get_engine(WS)
    state = engine.setup(players=["Ann", "Bo"], options={}, seed=1)
    names = engine.view(state, seat=0)["names"]
    assert names["american"] == "American"
    assert names["upgraded-stations"] == "Upgraded stations"
    assert names["john-bull"] == "John Bull"
    # Every engine and upgrade a command or event can name has one, and none is a slug.
    from games.engines.wood_and_steel.rules import ENGINES, UPGRADES

    for slug in [e[0] for e in ENGINES] + list(UPGRADES):
        assert names[slug] and "-" not in names[slug] and names[slug][0].isupper()


@pytest.mark.django_db
def test_the_admin_lists_games_by_kind_title(admin_client):
    code, _ = make_game(players=3, kind="locomotive-werks")
    listing = admin_client.get("/admin/games/game/")
    assert listing.status_code == 200
    assert "Locomotive Werks" in listing.content.decode()
    page = admin_client.get(f"/admin/games/game/{Game.objects.get(code=code).pk}/change/")
    assert page.status_code == 200 and "Locomotive Werks" in page.content.decode()


@pytest.mark.django_db
def test_kinds_give_each_option_and_choice_a_display_name(api_client):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    options = {o["name"]: o for o in kinds["locomotive-werks"]["options"]}
    assert options["end_threshold"]["label"] == "End threshold"
    assert options["obsolescence"]["choice_labels"] == ["Owned cards", "Board cards"]
    for kind in kinds.values():
        for o in kind["options"]:
            assert len(o["choice_labels"]) == len(o["choices"]) and "_" not in o["label"]
