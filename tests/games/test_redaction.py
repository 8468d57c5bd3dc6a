"""games/redaction.py: another seat's hidden choices and the seed stay on the server while a game runs,
at every door that reads the log (issue 29's findings: Slipway's discarded contract in the action log,
the seed in the data download), and a finished game publishes both."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from games import services
from games.engines.registry import get_engine
from games.models import Action, Game, Seat
from games.selectors import protocol_document
from players.data import account_export

from .factories import actor, make_game

pytestmark = pytest.mark.django_db(transaction=True)


def auth(token: str | None) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}


def slipway_until_a_discard(code: str, tokens: dict) -> Action:
    """Play Slipway's bots through the write path until someone discards a government contract."""
    engine = get_engine("slipway")
    rng = random.Random(7)
    for _ in range(400):
        game = Game.objects.get(code=code)
        seat = engine.active_seats(game.state)[0]
        command = engine.bot_command(game.state, seat=seat, bot=engine.bot_default(), rng=rng)
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)
        if command["cmd"] == "discard-contract":
            return Action.objects.filter(game__code=code).order_by("-sequence").first()
    raise AssertionError("no contract was discarded in 400 moves")


def test_a_discarded_contract_is_read_only_by_its_seat_while_the_game_runs(api_client):
    code, tokens = make_game(players=3, kind="slipway")
    discard = slipway_until_a_discard(code, tokens)
    owner, contract = discard.seat, discard.command["contract"]
    other = next(s for s in tokens if s != owner)

    def logged(token):
        response = api_client.get(f"/api/games/{code}/actions", {"after": discard.sequence - 1}, **auth(token))
        assert response.status_code == 200, response.content
        return response.json()[0]["command"]

    assert logged(tokens[owner]) == {"cmd": "discard-contract", "contract": contract}
    for token in (tokens[other], None):  # another seat, and a stranger or spectator
        assert logged(token) == {"cmd": "discard-contract", "contract": None, "hidden": ["contract"]}
    step = api_client.get(f"/api/games/{code}/replay", {"step": discard.sequence}, **auth(tokens[other])).json()
    assert step["action"]["command"]["contract"] is None
    # the notes' get-state carries the whole log in a kind's protocol document: the same redaction
    game = Game.objects.get(code=code)
    for viewer, shown in ((other, None), (None, None), (owner, contract)):
        document = protocol_document(game=game, document={"current_player": 0}, geography=True, viewer=viewer)
        (command,) = [c["command"] for c in document["commands"] if c["sequence"] == discard.sequence]
        assert command["contract"] == shown


def test_the_seed_and_the_hidden_choices_are_kept_back_from_the_data_download_until_the_game_ends():
    code, tokens = make_game(players=3, kind="slipway")
    users = [get_user_model().objects.create_user(f"u{i}", password="pw") for i in range(3)]
    for i, user in enumerate(users):
        Seat.objects.filter(game__code=code, index=i).update(user=user)
    discard = slipway_until_a_discard(code, tokens)
    game = Game.objects.get(code=code)
    for i, user in enumerate(users):
        (exported,) = account_export(user=user)["games"]
        assert exported["seed"] is None
        (entry,) = [a for a in exported["log"] if a["sequence"] == discard.sequence]
        assert (entry["command"]["contract"] is None) == (i != discard.seat)
    services.game_end(game_id=game.pk, by="gm", reason="test")  # ended by a game master: not finished by the rules
    assert account_export(user=users[0])["games"][0]["seed"] is None


def test_a_finished_game_publishes_its_seed_and_its_whole_log(api_client):
    code, tokens = make_game(players=2, options={"target": 3})
    game = Game.objects.get(code=code)
    assert api_client.get(f"/api/games/{code}").json()["seed"] is None
    while game.status == Game.Status.ACTIVE:
        services.game_command(code=code, actor=actor(code, tokens[game.state["turn"]]), command={"cmd": "add", "n": 3})
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert api_client.get(f"/api/games/{code}").json()["seed"] == game.seed


def test_kinds_mark_the_private_arguments(api_client):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    private = {(kind, c["cmd"], a["name"]) for kind, k in kinds.items() for c in k["commands"] for a in c["args"] if a["private"]}
    assert private == {
        ("slipway", "discard-contract", "contract"),
        ("resourceful-rails", "discard-cards", "cards"),
        ("wood-and-steel", "rank-starting-routes", "choices"),
    }


def test_a_game_master_who_is_not_a_superuser_reads_a_running_game_as_a_spectator(client):
    code, tokens = make_game(players=3, kind="slipway")
    discard = slipway_until_a_discard(code, tokens)
    game = Game.objects.get(code=code)
    held = game.state["players"][0]["contracts"]
    staff = get_user_model().objects.create_user("gm", password="pw", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_game", "view_action"]))
    client.force_login(staff)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert str(game.seed) not in page and "kept back until the game is finished" in page
    assert held and not any(c in page for c in held)
    action = client.get(f"/admin/games/action/{discard.pk}/change/").content.decode()
    assert discard.command["contract"] not in action and "hidden" in action
    exported = client.post("/admin/games/game/", {"action": "log_export", "_selected_action": [game.pk]})
    assert exported.status_code == 200 and str(game.seed) not in exported.content.decode()
    superuser = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(superuser)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert str(game.seed) in page  # a superuser keeps the whole game


def test_a_kind_no_engine_serves_shows_only_each_commands_name_until_it_is_finished():
    from games.redaction import action_redacted

    command, events = {"cmd": "discard", "card": "K10"}, [{"type": "discarded", "card": "K10"}]
    assert action_redacted(engine=None, command=command, events=events, actor=0, viewer=1, reveal=False) == ({"cmd": "discard"}, [])
    assert action_redacted(engine=None, command=command, events=events, actor=0, viewer=1, reveal=True) == (command, events)
