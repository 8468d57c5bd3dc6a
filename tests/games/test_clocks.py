"""Clocks (games/clocks.py): a time per turn, or a time bank with an increment, chosen at creation.
The deadline is written with the move that starts a person's turn; when it passes, the clock runner
hands the seat to the kind's default bot for that turn (away, logged, told to everyone), the bot
moves and the seat is its player's again; after a few in a row the bot keeps it, and the player
takes the seat back from their own device. The host can hand any other seat to a bot too. Paused games' clocks stop;
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
def test_time_runs_out_the_bot_plays_that_turn_only_and_the_log_replays(sent, django_capture_on_commit_callbacks):
    code, tokens = clocked_game(turn_seconds=120)
    assert clocks_fire() == 0  # not yet
    Seat.objects.filter(game__code=code, index=0).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert clocks_fire() == 1
    log = list(Action.objects.filter(game__code=code).order_by("sequence"))
    fired = log[1]
    assert fired.command == {"cmd": "admin", "action": "seat-to-bot", "by": "clock", "seat": 0, "bot": "random", "away": True,
                             "turn_only": True, "expiries": 1}
    assert fired.events == [{"type": "seat-to-bot", "seat": 0, "name": "Ann", "bot": "random", "by": "clock", "away": True,
                             "turn_only": True, "expiries": 1}]
    assert log[2].seat == 0 and log[2].command_id.startswith("bot:")  # the bot moved at once
    # That turn over, the seat is its player's again, with no clock until its next turn; one
    # expiry counted.
    back = seat(code, 0)
    assert (back.is_bot, back.away, back.bot, back.turn_only, back.turn_deadline, back.expiries) == (False, False, "", False, None, 1)
    assert seat(code, 1).turn_deadline is not None  # and the next person's clock runs
    # The table was told: the summary (seats, away, turn_only) went out with the change.
    summaries = [json.loads(m["summary"]) for _, m in sent if m.get("type") == "game.update" and m.get("summary")]
    assert any(s["game"]["seats"][0]["away"] and s["game"]["seats"][0]["turn_only"] for s in summaries)
    assert not summaries[-1]["game"]["seats"][0]["away"]
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
    # It fired: the bot played that turn (in the pass: --once moves bots inline) and gave the seat back.
    assert Action.objects.filter(game__code=code, command__action="seat-to-bot", command__by="clock").count() == 1
    assert Action.objects.filter(game__code=code, seat=0, command_id__startswith="bot:").exists()
    assert (seat(code, 0).away, seat(code, 0).expiries) == (False, 1)


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
    assert clocks_fire() == 1 and seat(code, 0).expiries == 1  # fired (the bot played that turn and gave it back)
    assert Action.objects.filter(game__code=code, command__action="seat-to-bot").count() == 1


# --- a time bank with an increment; a few expiries in a row before the bot keeps the seat ------


def banked_game(*, bank: int = 600, increment: int = 20, players: int = 2):
    return make_game(players=players, host_name="Ann", bank_seconds=bank, increment_seconds=increment, options={"target": 1000})


def move(api_client, code: str, token: str) -> None:
    answer = post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 1}, token)
    assert answer.status_code == 200, answer.content


def expire(code: str, index: int) -> None:
    Seat.objects.filter(game__code=code, index=index).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert clocks_fire() == 1


@pytest.mark.django_db
def test_a_time_bank_is_chosen_at_creation_among_the_offered_pairs(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "bank_seconds": 600, "increment_seconds": 20})
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["turn_seconds"], body["bank_seconds"], body["increment_seconds"]) == (None, 600, 20)
    game = Game.objects.get(code=body["code"])
    assert (game.bank_seconds, game.increment_seconds, game.watched, game.clocked, game.slow) == (600, 20, True, True, False)
    assert Game(bank_seconds=259200, increment_seconds=86400).slow and Game(turn_seconds=86400).slow
    for wrong, code in (({"bank_seconds": 600}, "invalid-clock"),  # a bank needs its increment
                        ({"bank_seconds": 600, "increment_seconds": 30}, "invalid-clock"),  # not a pair on offer
                        ({"bank_seconds": 600, "increment_seconds": 20, "turn_seconds": 60}, "invalid-clock"),  # both kinds
                        ({"bank_seconds": 601, "increment_seconds": 20}, "invalid-request"),
                        ({"bank_seconds": "600", "increment_seconds": True}, "invalid-request")):
        refused = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", **wrong})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, (wrong, refused.content)
    assert not Game.objects.exclude(pk=game.pk).exists()  # nothing half made
    home = api_client.get("/").content.decode()
    assert '<option value="600+20">10 minutes + 20 s a turn</option>' in home
    assert '<option value="259200+86400">3 days + 1 day a turn</option>' in home
    schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    seat_schema = schema["components"]["schemas"]["Seat"]["properties"]
    assert {"bank_left", "turn_only", "away_until"} <= set(seat_schema)


@pytest.mark.django_db
def test_a_turn_spends_the_bank_and_earns_the_increment(api_client, django_capture_on_commit_callbacks):
    before = timezone.now()
    code, tokens = banked_game(bank=600, increment=20)
    first = seat(code, 0)
    assert first.bank_left is None  # the whole bank
    assert before + timedelta(seconds=600) <= first.turn_deadline <= timezone.now() + timedelta(seconds=600)
    # Ann thinks for 100 s of her bank (her turn's start set back), then moves.
    Seat.objects.filter(pk=first.pk).update(turn_started_at=first.turn_started_at - timedelta(seconds=100),
                                            turn_deadline=first.turn_deadline - timedelta(seconds=100))
    with django_capture_on_commit_callbacks(execute=True):
        move(api_client, code, tokens[0])
    ann = seat(code, 0)
    assert ann.turn_deadline is None and 519 <= ann.bank_left <= 520  # 600 - 100 + 20
    ben = seat(code, 1)
    assert ben.turn_deadline > timezone.now() + timedelta(seconds=599)  # Ben's bank is whole
    summary = api_client.get(f"/api/games/{code}").json()
    assert summary["seats"][0]["bank_left"] == round(ann.bank_left) and summary["seats"][1]["bank_left"] is None
    with django_capture_on_commit_callbacks(execute=True):
        move(api_client, code, tokens[1])
    # Ann's next turn runs on what her bank holds.
    assert abs((seat(code, 0).turn_deadline - timezone.now()).total_seconds() - ann.bank_left) < 5


@pytest.mark.django_db
def test_a_bank_that_runs_out_leaves_the_increment_for_each_later_turn(api_client, sent, django_capture_on_commit_callbacks):
    code, tokens = banked_game(bank=600, increment=20)
    with django_capture_on_commit_callbacks(execute=True):
        expire(code, 0)  # the bot plays Ann's turn (inline in tests) and gives it back
    ann = seat(code, 0)
    assert (ann.is_bot, ann.away, ann.turn_only, ann.expiries, ann.bank_left) == (False, False, False, 1, 20.0)
    with django_capture_on_commit_callbacks(execute=True):
        move(api_client, code, tokens[1])
    left = (seat(code, 0).turn_deadline - timezone.now()).total_seconds()
    assert 15 < left <= 20  # her turn: the increment alone
    with django_capture_on_commit_callbacks(execute=True):
        move(api_client, code, tokens[0])  # she plays it herself: the count of expiries in a row starts again
    assert (seat(code, 0).expiries, seat(code, 0).is_bot) == (0, False)
    assert 34 < seat(code, 0).bank_left <= 40  # what was left of the 20, plus 20
    assert replays(code)


@pytest.mark.django_db
def test_after_a_few_expiries_in_a_row_the_bot_keeps_the_seat_until_its_player_takes_it_back(
        api_client, sent, settings, django_capture_on_commit_callbacks):
    settings.JUNCTION_CLOCK_EXPIRIES_KEEP = 3
    code, tokens = make_game(players=2, host_name="Ann", turn_seconds=60, options={"target": 1000})
    for expected in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            expire(code, 0)
        assert (seat(code, 0).is_bot, seat(code, 0).expiries) == (False, expected)  # that turn only
        with django_capture_on_commit_callbacks(execute=True):
            move(api_client, code, tokens[1])
    with django_capture_on_commit_callbacks(execute=True):
        expire(code, 0)  # the third in a row: the bot keeps it
    kept = seat(code, 0)
    assert (kept.is_bot, kept.away, kept.turn_only, kept.expiries) == (True, True, False, 3)
    third = Action.objects.filter(game__code=code, command__action="seat-to-bot").order_by("-sequence").first()
    assert (third.command["turn_only"], third.command["expiries"]) == (False, 3)
    with django_capture_on_commit_callbacks(execute=True):
        move(api_client, code, tokens[1])  # the bot plays Ann's next turn too
    assert seat(code, 0).is_bot and Action.objects.filter(game__code=code, seat=0, command_id__startswith="bot:").count() == 4
    # "Take my seat back": hers again, her count of expiries starts again.
    with django_capture_on_commit_callbacks(execute=True):
        back = post(api_client, f"/api/games/{code}/seats/me/return", token=tokens[0])
    assert back.status_code == 200 and back.json()["game"]["seats"][0]["away"] is False
    assert (seat(code, 0).is_bot, seat(code, 0).expiries) == (False, 0)
    assert replays(code)


@pytest.mark.django_db
def test_the_seat_can_be_taken_back_until_game_over_and_my_games_says_no_bot_plays_after(
        api_client, sent, settings, django_capture_on_commit_callbacks):
    from django.contrib.auth import get_user_model

    from players.seats import my_games

    settings.JUNCTION_CLOCK_EXPIRIES_KEEP = 1  # the first expiry: the bot keeps the seat
    code, tokens = clocked_game(turn_seconds=60)
    ann = get_user_model().objects.create_user("ann", password="x" * 12)
    Seat.objects.filter(game__code=code, index=0).update(user=ann)
    with django_capture_on_commit_callbacks(execute=True):
        expire(code, 0)
    assert seat(code, 0).away and my_games(user=ann)[0]["away"]
    # Ben plays to the end (the bot answers for Ann each time).
    for _ in range(20):
        if game_get(code=code).status != Game.Status.ACTIVE:
            break
        with django_capture_on_commit_callbacks(execute=True):
            post(api_client, f"/api/games/{code}/commands", {"cmd": "add", "n": 3}, tokens[1])
    assert game_get(code=code).status == Game.Status.FINISHED
    refused = post(api_client, f"/api/games/{code}/seats/me/return", token=tokens[0])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game-finished"
    row = my_games(user=ann)[0]
    assert row["status"] == "finished" and row["away"] is False  # not "a bot plays for you" once it is over


@pytest.mark.django_db
def test_a_pause_keeps_the_bank_without_the_increment(django_capture_on_commit_callbacks):
    code, _ = banked_game(bank=600, increment=20)
    game = game_get(code=code)
    Seat.objects.filter(game=game, index=0).update(turn_deadline=timezone.now() + timedelta(seconds=300))  # 300 s left
    with django_capture_on_commit_callbacks(execute=True):
        services.game_pause(game_id=game.pk, by="gm")
    ann = seat(code, 0)
    assert ann.turn_deadline is None and 299 <= ann.bank_left <= 300 and ann.expiries == 0
    with django_capture_on_commit_callbacks(execute=True):
        services.game_resume(game_id=game.pk, by="gm")
    left = (seat(code, 0).turn_deadline - timezone.now()).total_seconds()
    assert 295 < left <= 300
