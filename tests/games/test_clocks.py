"""Clocks (games/clocks.py): a time per turn chosen at creation. The deadline is written with the
move that starts a person's turn; when it passes, the clock runner hands the seat to the kind's
default bot (away, logged, told to everyone), the bot moves, and the player takes the seat back
from their own device. The host can hand any other seat to a bot too. Paused games' clocks stop;
a runner killed and started again loses no deadline; the log still replays."""

from __future__ import annotations

import json
import signal
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import broadcast, services
from games.clocks import TURN_SECONDS, clocks_fire
from games.models import Action, Game, Seat
from games.replay import game_replay
from games.selectors import game_get
from tests.support.clock_runner import clock_runner

from .factories import actor, make_game, seat_away


@pytest.fixture
def sent(monkeypatch):
    """What the broadcast would send (a list of (group, message))."""
    messages: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: messages.extend(batch))
    return messages


def clocked_game(*, turn_seconds: int = 60, players: int = 2, start: bool = True):
    """A toy game with a clock and ``players`` people; (code, tokens by seat)."""
    return make_game(players=players, start=start, host_name="Ann", turn_seconds=turn_seconds)


def seat(code: str, index: int) -> Seat:
    return Seat.objects.get(game__code=code, index=index)


def post(client, path: str, body=None, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body) if body is not None else None, content_type="application/json", **headers)


def replays(code: str) -> bool:
    game = game_get(code=code)
    return game_replay(game=game) == game.state


@pytest.mark.django_db
def test_the_clock_is_chosen_at_creation_among_the_offered_ones(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "turn_seconds": 300})
    assert created.status_code == 201, created.content
    assert created.json()["turn_seconds"] == 300
    game = Game.objects.get(code=created.json()["code"])
    assert (game.turn_seconds, game.watched) == (300, True)  # watched from creation
    plain = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "turn_seconds": None}).json()
    assert plain["turn_seconds"] is None and Game.objects.get(code=plain["code"]).watched is False
    for wrong in (61, "soon", 0, True):
        refused = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "turn_seconds": wrong})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid-request", wrong
    assert TURN_SECONDS == (60, 120, 300, 600, 900, 3600, 43200, 86400, 259200)
    # The lobby's form offers them, and the schema names them.
    home = api_client.get("/").content.decode()
    assert 'id="create-clock"' in home and '<option value="259200">3 days per turn</option>' in home
    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    schemas = schema["components"]["schemas"]
    clock = schemas["ToyGameCreateRequest"]["properties"]["turn_seconds"]
    choices = next(schemas[ref["$ref"].rsplit("/", 1)[1]] for ref in clock["oneOf"] if "Null" not in ref["$ref"])
    assert choices["enum"] == list(TURN_SECONDS) and clock["nullable"]


@pytest.mark.django_db
def test_the_deadline_is_set_at_the_start_and_moves_with_the_turn(api_client, django_capture_on_commit_callbacks):
    before = timezone.now()
    code, tokens = clocked_game(turn_seconds=60)
    first = seat(code, 0)
    assert before + timedelta(seconds=60) <= first.turn_deadline <= timezone.now() + timedelta(seconds=60)
    assert seat(code, 1).turn_deadline is None
    seats = api_client.get(f"/api/games/{code}").json()["seats"]
    assert seats[0]["turn_deadline"] == first.turn_deadline.isoformat() and seats[0]["away"] is False
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, tokens[0])
    assert answer.status_code == 200
    assert seat(code, 0).turn_deadline is None and seat(code, 1).turn_deadline is not None


@pytest.mark.django_db
def test_time_runs_out_a_bot_takes_the_seat_and_moves_and_the_log_replays(sent, django_capture_on_commit_callbacks):
    code, tokens = clocked_game(turn_seconds=120)
    assert clocks_fire() == 0  # not yet
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert clocks_fire() == 1
    taken = seat(code, 0)
    assert (taken.is_bot, taken.away, taken.bot, taken.turn_deadline) == (True, True, "random", None)
    log = list(Action.objects.filter(game__code=code).order_by("sequence"))
    fired = log[1]
    assert fired.command == {"cmd": "admin", "action": "seat-to-bot", "by": "clock", "seat": 0, "bot": "random", "away": True}
    assert fired.events == [{"type": "seat-to-bot", "seat": 0, "name": "Ann", "bot": "random", "by": "clock", "away": True}]
    assert log[2].seat == 0 and log[2].command_id.startswith("bot:")  # the bot moved at once
    assert seat(code, 1).turn_deadline is not None  # and the next person's clock runs
    # The table was told: the summary (seats, away) went out with the change.
    summaries = [json.loads(m["summary"]) for _, m in sent if m.get("type") == "game.update" and m.get("summary")]
    assert any(s["game"]["seats"][0]["away"] for s in summaries)
    assert clocks_fire() == 0  # fired once
    assert replays(code)


@pytest.mark.django_db
def test_no_clock_fires_while_paused_and_resuming_restarts_the_clock(django_capture_on_commit_callbacks):
    code, _ = clocked_game(turn_seconds=60)
    game = game_get(code=code)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_pause(game_id=game.pk, by="gm")
    assert seat(code, 0).turn_deadline is None
    Seat.objects.filter(game=game, index=0).update(turn_deadline=timezone.now() - timedelta(hours=1))  # even so
    assert clocks_fire() == 0 and not seat(code, 0).away
    with django_capture_on_commit_callbacks(execute=True):
        services.game_resume(game_id=game.pk, by="gm")
    # turns_track cleared it at the pause (it is what the write path does); resumed, the turn
    # begins afresh: now + turn_seconds.
    restarted = seat(code, 0).turn_deadline
    assert restarted is not None and restarted > timezone.now() + timedelta(seconds=50)
    assert clocks_fire() == 0


@pytest.mark.django_db
def test_the_player_takes_the_seat_back_and_their_clock_restarts(api_client, sent, monkeypatch, django_capture_on_commit_callbacks):
    import games.bots

    scheduled: list[int] = []
    monkeypatch.setattr(games.bots, "bots_schedule", scheduled.append)  # the bot is slow: the seat stays on turn
    code, tokens = clocked_game(turn_seconds=60)
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert clocks_fire() == 1
    assert scheduled == [game_get(code=code).pk]  # the bot was asked to move
    assert seat(code, 0).away
    # While the bot plays the seat, its player's device cannot move for it (the two would race).
    refused = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2}, tokens[0])
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"]["code"] == "seat-played-by-bot", refused.content
    # Only the seat's own token takes it back: a spectator is 401, another seat's changes nothing.
    assert post(api_client, f"/api/games/{code}/seats/me/return").status_code == 401
    other = post(api_client, f"/api/games/{code}/seats/me/return", token=tokens[1])
    assert other.status_code == 200 and other.json()["result"] is None and seat(code, 0).away
    with django_capture_on_commit_callbacks(execute=True):
        back = post(api_client, f"/api/games/{code}/seats/me/return", token=tokens[0])
    assert back.status_code == 200, back.content
    body = back.json()
    assert body["result"]["events"][0]["type"] == "seat-returned" and body["game"]["seats"][0]["away"] is False
    mine = seat(code, 0)
    assert (mine.is_bot, mine.away, mine.bot) == (False, False, "")
    assert mine.turn_deadline > timezone.now() + timedelta(seconds=50)  # on turn: the clock starts afresh
    last = Action.objects.filter(game__code=code).order_by("-sequence").first()
    assert last.command == {"cmd": "admin", "action": "seat-returned", "by": "player", "seat": 0}
    # The player plays on with their own token; the log replays.
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 2}, tokens[0]).status_code == 200
    assert replays(code)


@pytest.mark.django_db
def test_the_host_hands_an_absent_seat_to_a_bot_or_to_a_new_device(api_client, sent, django_capture_on_commit_callbacks):
    code, tokens = clocked_game(turn_seconds=3600, players=3)
    lobby_code, lobby_tokens = clocked_game(start=False)
    assert post(api_client, f"/api/games/{lobby_code}/seats/1/bot", token=lobby_tokens[0]).status_code == 409
    assert post(api_client, f"/api/games/{code}/seats/2/bot", token=tokens[1]).json()["error"]["code"] == "host-only"
    assert post(api_client, f"/api/games/{code}/seats/0/bot", token=tokens[0]).json()["error"]["code"] == "own-seat"
    assert post(api_client, f"/api/games/{code}/seats/7/bot", token=tokens[0]).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        handed = post(api_client, f"/api/games/{code}/seats/2/bot", token=tokens[0])
    assert handed.status_code == 200, handed.content
    assert handed.json()["result"]["events"] == [
        {"type": "seat-to-bot", "seat": 2, "name": "P2", "bot": "random", "by": "host", "away": True}]
    assert (seat(code, 2).is_bot, seat(code, 2).away) == (True, True)
    assert post(api_client, f"/api/games/{code}/seats/2/bot", token=tokens[0]).json()["result"] is None  # a bot has it already
    with django_capture_on_commit_callbacks(execute=True):
        assert post(api_client, f"/api/games/{code}/seats/me/return", token=tokens[2]).status_code == 200
    assert not seat(code, 2).away
    # Or to a new player: a rejoin code for an away seat gives it to a person again.
    with django_capture_on_commit_callbacks(execute=True):
        post(api_client, f"/api/games/{code}/seats/1/bot", token=tokens[0])
    seat_away(code, 1)  # an away seat is still its person's: the code waits for the phone to be gone
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="host", actor=actor(code, tokens[0]))
    with django_capture_on_commit_callbacks(execute=True):
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (seat(code, 1).is_bot, seat(code, 1).away) == (False, False)
    assert replays(code)


@pytest.mark.django_db
def test_a_pass_repairs_missing_deadlines_and_run_clocks_once_fires(django_capture_on_commit_callbacks):
    code, _ = clocked_game(turn_seconds=600)
    # A person's seat on turn without a deadline (it came back from a bot by a rejoin code, say).
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=None)
    clocks_fire()
    assert seat(code, 0).turn_deadline > timezone.now() + timedelta(seconds=590)
    # No turn tracked at all (a crash between states): tracked again.
    Seat.objects.filter(game__code=code).update(turn_started_at=None, turn_deadline=None)
    clocks_fire()
    assert seat(code, 0).turn_started_at is not None and seat(code, 0).turn_deadline is not None
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("run_clocks", "--once", verbosity=0)
    assert seat(code, 0).away


@pytest.mark.django_db(transaction=True)
def test_a_runner_restart_loses_no_deadline():
    code, _ = clocked_game(turn_seconds=900)
    first = clock_runner()
    try:
        time.sleep(0.5)  # a pass or two: nothing is due
        assert not seat(code, 0).away
    finally:
        first.send_signal(signal.SIGKILL)  # a crash, not a clean stop
        first.wait(10)
    # While no runner runs, the turn's time runs out.
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    second = clock_runner()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and Action.objects.filter(game__code=code, seat=0, command_id__startswith="bot:").count() == 0:
            time.sleep(0.1)
        assert seat(code, 0).away
        assert Action.objects.filter(game__code=code, command__action="seat-to-bot", command__by="clock").count() == 1
        assert Action.objects.filter(game__code=code, seat=0, command_id__startswith="bot:").exists()  # the bot moved
    finally:
        second.send_signal(signal.SIGTERM)  # a clean stop
        out, _ = second.communicate(timeout=10)
    assert second.returncode == 0 and "clocks: stopped" in out
    assert replays(code)


@pytest.mark.django_db(transaction=True)
def test_a_game_another_runner_holds_is_left_to_the_next_pass():
    """Several runners: on PostgreSQL a game locked elsewhere (another runner firing, a move being
    saved) is skipped, not waited for, and fired by a later pass once free."""
    import threading

    from django.db import connection, connections, transaction

    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite: one writer at a time; nothing to skip")
    code, _ = clocked_game(turn_seconds=60)
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    locked, release = threading.Event(), threading.Event()

    def other_runner():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(code=code)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=other_runner)
    holder.start()
    try:
        assert locked.wait(10)
        assert clocks_fire() == 0 and not seat(code, 0).away
    finally:
        release.set()
        holder.join(10)
    assert clocks_fire() == 1 and seat(code, 0).away
