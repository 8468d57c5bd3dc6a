"""Game masters see every game with its seats and log in Django admin."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    get_user_model().objects.create_superuser("gm", "gm@example.com", "pw")
    client.login(username="gm", password="pw")
    return client


def test_game_list_and_change_page_show_seats_and_log(admin_client):
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2})
    game = Game.objects.get(code=code)
    listing = admin_client.get("/admin/games/game/")
    assert listing.status_code == 200 and code in listing.content.decode()
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Host" in page and "P1" in page  # seats
    assert "&quot;cmd&quot;: &quot;add&quot;" in page or '"cmd": "add"' in page  # the log
    assert admin_client.get(f"/admin/games/action/?q={code}").status_code == 200


def test_game_master_fixes_a_state_and_clients_are_told(admin_client, django_capture_on_commit_callbacks):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    form = _change_form(game, replace_state='{"players": ["Host", "P1"], "secrets": [1, 2], "counter": 7, "target": 10, "turn": 1, "rolls": [], "winner": null, "rng": 5}')
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.state["counter"] == 7 and game.state["turn"] == 1
    assert len(callbacks) == 1, "connected clients get the corrected state after commit"


def _change_form(game, **changes):
    """The change form as the page posts it: no options, no state, no log; the seats inline."""
    form = {
        "control": "", "reason": "", "replace_state": "", "loaded_version": str(game.version),
        "seats-TOTAL_FORMS": str(game.seats.count()), "seats-INITIAL_FORMS": str(game.seats.count()),
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
    }
    for i, seat in enumerate(game.seats.all()):
        form.update({f"seats-{i}-id": seat.pk, f"seats-{i}-game": game.pk,
                     f"seats-{i}-name": seat.name, f"seats-{i}-color": seat.color, f"seats-{i}-bot": seat.bot})
        if seat.is_bot:
            form[f"seats-{i}-is_bot"] = "on"
    form.update(changes)
    return form


def test_an_edited_state_is_an_action_in_the_log_and_replay_still_matches(admin_client, api_client):
    from games.replay import game_replay
    from games.services import game_command

    from .factories import actor

    code, tokens = make_game()
    game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    game = Game.objects.get(code=code)
    edited = {**game.state, "counter": 7, "secrets": [987654321, 42]}
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", _change_form(game, replace_state=json.dumps(edited)))
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert (game.version, game.state["counter"]) == (3, 7)
    last = game.actions.get(sequence=3)
    assert last.command == {"cmd": "edit-state", "by": "gm"} and last.seat is None
    assert game_replay(game=game) == game.state
    # Play goes on from the edited state, and replay keeps matching.
    game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 2})
    game.refresh_from_db()
    assert (game.version, game.state["counter"]) == (4, 9)
    assert game_replay(game=game) == game.state
    # The public log says an edit happened, never the state it wrote (every seat's secrets).
    log = api_client.get(f"/api/games/{code}/actions?after=2").json()
    entry = next(a for a in log if a["sequence"] == 3)
    assert entry["events"] == [{"type": "state-edited", "by": "gm"}]
    assert "987654321" not in json.dumps(log)


def test_a_state_from_a_page_older_than_the_game_is_refused_and_the_moves_made_meanwhile_stay(admin_client):
    from games.services import game_command

    from .factories import actor

    code, tokens = make_game()
    game = Game.objects.get(code=code)
    edited = {**game.state, "target": 12}
    form = _change_form(game, replace_state=json.dumps(edited))
    game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2})  # while the page is open
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 200 and "moved on (version 1 → 2)" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 2 and game.state["counter"] == 2 and game.state["target"] == 10
    # A change that does not replace the state is no older than the game: it goes through.
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", {**form, "replace_state": "", "control": "pause"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == "paused" and game.state["counter"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_seat_handed_to_a_bot_reaches_every_process_and_the_bot_moves(admin_client, monkeypatch):
    """A remembered game (in this process, or as another process remembers it) is not trusted
    after a game master changes its seats: its next save fails the compare-and-set, the game is
    read again with its new seats, and the bot now on turn is scheduled."""
    from games import bots, store

    scheduled = []
    monkeypatch.setattr(bots, "bots_schedule", lambda game_id: scheduled.append(game_id))
    code, tokens = make_game(players=3)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    elsewhere = store._known[code]  # what another process would remember
    game = Game.objects.get(code=code)
    form = _change_form(game)
    form["seats-2-is_bot"], form["seats-2-bot"] = "on", "random"
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert code not in store._known
    store._remember(elsewhere)  # the other process's copy: its seats say seat 2 is a person
    scheduled.clear()
    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1})
    assert (2, True) in store._known[code].seat_list
    assert scheduled == [game.pk]  # seat 2 is on turn and is a bot now
    # start, add, the game master's seat-to-bot (logged), add
    assert Game.objects.get(code=code).version == 4
    assert Game.objects.get(code=code).actions.get(sequence=3).command == {"cmd": "admin", "action": "seat-to-bot", "by": "gm", "seat": 2, "bot": "random"}


# --- every kind's page opens and saves, posted as a browser posts it -------------------------


class _FormFields(HTMLParser):
    """The fields a browser would send from the form with id ``form_id``."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, []
        self._textarea = self._select = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or a.get("disabled") is not None:
            return
        if tag == "input" and a.get("name") and a.get("type", "text") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")))
        elif tag == "textarea" and a.get("name"):
            self._textarea = [a["name"], ""]
        elif tag == "select" and a.get("name"):
            self._select, self._options = a["name"], []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea[0], self._textarea[1].removeprefix("\n")))
            self._textarea = None
        elif tag == "select" and self._select:
            chosen = [v for v, selected in self._options if selected] or [v for v, _ in self._options[:1]]
            self.fields += [(self._select, v) for v in chosen]
            self._select = None


def browser_form(page: str) -> dict[str, str]:
    parser = _FormFields("game_form")
    parser.feed(page)
    return dict(parser.fields)


def _long_locomotive_werks_game() -> Game:
    from games.bots import bots_run

    code, _ = make_game(kind="locomotive-werks", players=3)
    game = Game.objects.get(code=code)
    game.seats.update(is_bot=True, bot="random")
    bots_run(game_id=game.pk, delay=0)
    game.refresh_from_db()
    assert game.actions.count() > 120, "long enough that posting a field per action would pass Django's 200"
    return game


def _wood_and_steel_game() -> Game:
    from tests.support.boards import ensure_wood_and_steel_board

    ensure_wood_and_steel_board()
    code, _ = make_game(kind="wood-and-steel", players=3)
    game = Game.objects.get(code=code)
    posted = len(json.dumps(game.options)) + len(json.dumps(game.state))
    assert posted > 48 * 1024, "options (the board) and state: most of what a request may carry, before any move"
    return game


@pytest.mark.parametrize("make", [lambda: Game.objects.get(code=make_game()[0]), _long_locomotive_werks_game, _wood_and_steel_game],
                         ids=["toy", "locomotive-werks", "wood-and-steel"])
def test_every_kinds_game_page_opens_and_saves(admin_client, make):
    game = make()
    url = f"/admin/games/game/{game.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert re.search(r"<details[^>]*><summary>state · [0-9.]+ (bytes|KB)</summary>", text)  # folded, its size shown
    form = browser_form(text)
    assert "options" not in form and "state" not in form and not any(k.startswith("actions-") for k in form)
    assert len(form) < 200
    before = (game.version, game.state, game.options)
    form["seats-1-name"] = "Renamed"
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert game.seats.get(index=1).name == "Renamed"
    assert game.options == before[2]
    assert game.version == before[0] + 1  # the rename is an action in the log
    last = game.actions.get(sequence=game.version)
    assert last.command["cmd"] == "admin" and last.command["action"] == "rename-seat"


def test_saving_an_unchanged_page_changes_nothing(admin_client):
    code, _ = make_game()
    game = Game.objects.get(code=code)
    url = f"/admin/games/game/{game.pk}/change/"
    assert admin_client.post(url, browser_form(admin_client.get(url).content.decode())).status_code == 302
    assert Game.objects.get(pk=game.pk).version == game.version


# --- live changes: logged, and on every phone -----------------------------------------------


def _admin_login():
    from django.test import Client

    user = get_user_model().objects.filter(username="gm").first() or get_user_model().objects.create_superuser("gm", "gm@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_rename_through_admin_reaches_a_connected_phone_and_is_in_the_log():
    from channels.db import database_sync_to_async

    from .test_consumers import connected

    code, tokens = await database_sync_to_async(make_game)()
    phone, first = await connected(code, tokens[1])
    assert first["state"]["players"][1] == "P1"

    def rename():
        client = _admin_login()
        game = Game.objects.get(code=code)
        return client.post(f"/admin/games/game/{game.pk}/change/", _change_form(game, **{"seats-1-name": "Bea"})).status_code

    assert await database_sync_to_async(rename)() == 302
    frames = {}
    while len(frames) < 2:  # seats changed: the game's summary and the new state
        frame = json.loads(await phone.receive_from(timeout=3))
        frames.setdefault(frame["type"], frame)
    update = frames["state"]
    assert update["version"] == 2 and update["state"]["players"][1] == "Bea"
    assert [s["name"] for s in frames["game"]["game"]["seats"]] == ["Host", "Bea"]

    def log_and_replay():
        from rest_framework.test import APIClient

        from games.replay import game_replay

        game = Game.objects.get(code=code)
        return APIClient().get(f"/api/games/{code}/actions?after=1").json(), game_replay(game=game) == game.state

    log, replay_matches = await database_sync_to_async(log_and_replay)()
    assert log[0]["command"] == {"cmd": "admin", "action": "rename-seat", "by": "gm", "seat": 1, "name": "Bea"}
    assert log[0]["events"] == [{"type": "seat-renamed", "seat": 1, "from": "P1", "to": "Bea", "by": "gm"}]
    assert replay_matches  # replay sets the game up with the first names and renames as the log did
    await phone.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_paused_game_refuses_commands_over_http_and_the_socket_until_resumed():
    from channels.db import database_sync_to_async
    from rest_framework.test import APIClient

    from .test_consumers import connected, receive_type

    code, tokens = await database_sync_to_async(make_game)()
    phone, _ = await connected(code, tokens[0])

    def control(value, reason=""):
        client = _admin_login()
        game = Game.objects.get(code=code)
        return client.post(f"/admin/games/game/{game.pk}/change/", _change_form(game, control=value, reason=reason)).status_code

    def http_add(n):
        return APIClient().post(f"/api/games/{code}/commands", {"cmd": "add", "n": n}, format="json",
                                HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")

    assert await database_sync_to_async(control)("pause", "fire alarm") == 302
    paused = await receive_type(phone, "state")
    assert paused["status"] == "paused" and paused["version"] == 2
    response = await database_sync_to_async(http_add)(1)
    assert response.status_code == 409 and response.json()["error"]["code"] == "game-paused"
    await phone.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "p-1"}))
    error = await receive_type(phone, "error")
    assert error["error"]["code"] == "game-paused"

    assert await database_sync_to_async(control)("resume") == 302
    resumed = await receive_type(phone, "state")
    assert resumed["status"] == "active" and resumed["version"] == 3
    await phone.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "p-2"}))
    assert (await receive_type(phone, "result"))["version"] == 4
    game = await database_sync_to_async(Game.objects.get)(code=code)
    assert game.state["counter"] == 1
    kinds = await database_sync_to_async(lambda: [a.command.get("action") for a in game.actions.order_by("sequence")])()
    assert kinds == [None, "pause", "resume", None]
    await phone.disconnect()


def test_the_game_master_ends_a_game_with_a_reason(admin_client):
    code, tokens = make_game()
    game = Game.objects.get(code=code)
    url = f"/admin/games/game/{game.pk}/change/"
    refused = admin_client.post(url, _change_form(game, control="end"))
    assert refused.status_code == 200 and "Say why the game ends." in refused.content.decode()
    assert admin_client.post(url, _change_form(game, control="end", reason="the café closes")).status_code == 302
    game.refresh_from_db()
    assert game.status == "abandoned" and game.finished_at is not None
    assert game.actions.get(sequence=2).events == [{"type": "game-ended", "by": "gm", "reason": "the café closes"}]
    with pytest.raises(services.Conflict) as refused_move:
        services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    assert refused_move.value.code == "game-abandoned"


def test_export_downloads_the_games_log_as_json(admin_client):
    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 3}, command_id="c-1")
    game = Game.objects.get(code=code)
    response = admin_client.post("/admin/games/game/", {"action": "log_export", "_selected_action": [game.pk]})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="junction-{code}.json"'
    exported = json.loads(response.content)
    assert (exported["code"], exported["seed"], exported["version"]) == (code, game.seed, 2)
    assert [s["name"] for s in exported["seats"]] == ["Host", "P1"]
    assert [(a["sequence"], a["command"], a["command_id"]) for a in exported["actions"]] == [
        (1, {"cmd": "start"}, None), (2, {"cmd": "add", "n": 3}, "c-1")]


@pytest.mark.django_db(transaction=True)
def test_an_absent_player_replaced_by_a_bot_and_the_bot_moves():
    code, tokens = make_game(players=2)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})  # seat 1 is on turn
    game = Game.objects.get(code=code)
    absent = game.seats.get(index=1)
    client = _admin_login()
    response = client.post("/admin/games/seat/", {"action": "seats_to_bots", "_selected_action": [absent.pk]})
    assert response.status_code == 302
    absent.refresh_from_db()
    assert absent.is_bot and absent.bot == "random"
    game.refresh_from_db()
    handed = game.actions.get(sequence=3)
    assert handed.command == {"cmd": "admin", "action": "seat-to-bot", "by": "gm", "seat": 1, "bot": "random"}
    assert game.version == 4 and game.actions.get(sequence=4).seat == 1  # the bot moved at once
    assert game.state["turn"] == 0  # and it is the person's turn again


def test_the_seats_on_turn_go_to_bots_from_the_games_list(admin_client, django_capture_on_commit_callbacks):
    code, tokens = make_game(players=3)
    game = Game.objects.get(code=code)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post("/admin/games/game/", {"action": "seats_on_turn_to_bots", "_selected_action": [game.pk]})
    assert response.status_code == 302
    assert [s.is_bot for s in game.seats.order_by("index")] == [True, False, False]  # the host was on turn
    game.refresh_from_db()
    assert game.actions.get(sequence=3).seat == 0  # and its bot moved


def test_replay_steps_over_the_game_masters_actions_and_renames_as_the_log_did(admin_client):
    """Pausing and resuming are no moves; a rename renames the player in the state. Replay,
    set up with the names the game started with, ends at the stored state, and play goes on."""
    from games.replay import game_replay, players_at_start

    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 2})
    game = Game.objects.get(code=code)
    services.game_pause(game_id=game.pk, by="gm")
    services.game_resume(game_id=game.pk, by="gm")
    services.seat_rename(game_id=game.pk, seat=0, name="Ann", by="gm")
    game.refresh_from_db()
    assert game.state["players"] == ["Ann", "P1"] and players_at_start(game) == ["Host", "P1"]
    assert game_replay(game=game) == game.state
    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "add", "n": 1})
    game.refresh_from_db()
    assert (game.version, game.state["counter"]) == (6, 3) and game_replay(game=game) == game.state


def test_a_lobby_games_seats_change_without_a_log(admin_client):
    code, _ = make_game(start=False)
    game = Game.objects.get(code=code)
    assert services.seat_rename(game_id=game.pk, seat=1, name="Cy", by="gm") is None
    game.refresh_from_db()
    assert game.version == 0 and not game.actions.exists() and game.seats.get(index=1).name == "Cy"
    with pytest.raises(services.Conflict):
        services.game_pause(game_id=game.pk, by="gm")


# --- the bot a seat gets when the game master names none: the kind's best --------------------


@pytest.mark.parametrize(("kind", "players", "best"), [("toy", 2, "random"), ("locomotive-werks", 3, "greedy"), ("wood-and-steel", 3, "planner")])
def test_an_absent_player_gets_the_kinds_best_bot(admin_client, django_capture_on_commit_callbacks, kind, players, best):
    from tests.support.boards import ensure_wood_and_steel_board

    ensure_wood_and_steel_board()
    code, _ = make_game(kind=kind, players=players)
    game = Game.objects.get(code=code)
    absent = game.seats.get(index=1)
    with django_capture_on_commit_callbacks(execute=False):  # the bot's move is not what this asks
        response = admin_client.post("/admin/games/seat/", {"action": "seats_to_bots", "_selected_action": [absent.pk]})
    assert response.status_code == 302
    absent.refresh_from_db()
    assert absent.is_bot and absent.bot == best
    handed = Game.objects.get(pk=game.pk).actions.get(sequence=game.version + 1)
    assert handed.command == {"cmd": "admin", "action": "seat-to-bot", "by": "gm", "seat": 1, "bot": best}


def test_a_seat_ticked_as_a_bot_on_the_games_page_gets_the_planner(admin_client, django_capture_on_commit_callbacks):
    game = _wood_and_steel_game()
    url = f"/admin/games/game/{game.pk}/change/"
    form = browser_form(admin_client.get(url).content.decode())
    form["seats-2-is_bot"], form["seats-2-bot"] = "on", ""  # ticked, no level named
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    seat = game.seats.get(index=2)
    assert seat.is_bot and seat.bot == "planner"
    assert game.actions.get(sequence=game.version + 1).command["bot"] == "planner"


def test_the_seats_on_turn_of_a_wood_and_steel_game_go_to_planner_bots(admin_client, django_capture_on_commit_callbacks):
    game = _wood_and_steel_game()  # ranking: every seat is on turn
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_client.post("/admin/games/game/", {"action": "seats_on_turn_to_bots", "_selected_action": [game.pk]})
    assert response.status_code == 302
    assert [(s.is_bot, s.bot) for s in game.seats.order_by("index")] == [(True, "planner")] * 3


def test_the_clock_and_the_seats_banks_show_and_a_game_master_ends_an_away_period(admin_client):
    from datetime import timedelta

    from django.utils import timezone

    from games import away
    from games.models import AwayPeriod, Seat

    code, tokens = make_game(bank_seconds=259200, increment_seconds=86400, options={"target": 1000})
    Seat.objects.filter(game__code=code, index=1).update(bank_left=1234.5, expiries=2)
    page = admin_client.get(f"/admin/games/game/{Game.objects.get(code=code).pk}/change/").content.decode()
    assert "3 days + 1 day a turn" in page
    assert "on turn until" in page and "bank 1234 s; time ran out 2 turn(s) in a row" in page
    ann = get_user_model().objects.create_user("ann")
    Seat.objects.filter(game__code=code, index=0).update(user=ann)
    before = Seat.objects.get(game__code=code, index=0).turn_deadline
    period = away.away_declare(user=ann, days=2)
    assert Seat.objects.get(game__code=code, index=0).turn_deadline == before + timedelta(days=2)
    assert admin_client.get("/admin/games/awayperiod/").status_code == 200
    done = admin_client.post("/admin/games/awayperiod/", {"action": "periods_end", "_selected_action": [period.pk]})
    assert done.status_code == 302
    assert AwayPeriod.objects.get(pk=period.pk).ends_at <= timezone.now()
    assert abs((Seat.objects.get(game__code=code, index=0).turn_deadline - before).total_seconds()) < 5  # the time given back
