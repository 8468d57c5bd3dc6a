"""Turn notices (players/notices.py): a local fake push service gets exactly one notice per turn
change of a signed-in player with no open socket, encrypted for the device's real keys; none
while a socket is open; an e-mail when there is no device; nothing when the setting is off; a
device the push service forgot is deleted; two listeners for one turn send one."""

from __future__ import annotations

import datetime
import io
import logging
import os
import subprocess
import sys
import threading

import pytest
import urllib3.util.connection
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game, Seat, SeatSocket
from games.turns import game_watch
from players import notices
from players.models import Profile, PushSubscription, TurnNotice
from players.notices import push_send, turn_notice_send, turn_started, vapid_public_key
from tests.games.factories import actor, make_game
from tests.support.fake_push import FakePushService, vapid_pair


@pytest.fixture
def push(settings):
    private, public = vapid_pair()
    settings.JUNCTION_VAPID_PRIVATE_KEY = private
    settings.JUNCTION_VAPID_PUBLIC_KEY = public
    service = FakePushService().start()
    yield service
    service.stop()


def user(name: str, email: str = ""):
    return get_user_model().objects.create_user(name, email or f"{name}@example.com")  # no password: no hashing


def subscribe(service: FakePushService, owner, name: str):
    device = service.device(name)
    PushSubscription.objects.create(user=owner, endpoint=device.endpoint, **device.keys)
    return device


def seated_game(users: dict[int, object], start: bool = True) -> tuple[str, dict[int, str]]:
    """A toy game whose seats ``users`` are signed-in players' (watched before it starts)."""
    code, tokens = make_game(players=2, start=False)
    game = Game.objects.get(code=code)
    for index, owner in users.items():
        Seat.objects.filter(game=game, index=index).update(user=owner)
    game_watch(game_id=game.pk)
    if start:
        services.game_start(code=code, actor=actor(code, tokens[0]))
    return code, tokens


def on_turn(code: str, index: int) -> Seat:
    """Seat ``index`` of an unstarted game marked on turn since now (as games.turns does)."""
    seat = Seat.objects.get(game__code=code, index=index)
    seat.turn_started_at = timezone.now()
    seat.save(update_fields=["turn_started_at"])
    return seat


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_sends_exactly_one_push_per_turn_change(push, settings):
    ann, bob = user("ann"), user("bob")
    ann_phone, bob_phone = subscribe(push, ann, "ann"), subscribe(push, bob, "bob")
    code, tokens = seated_game({0: ann, 1: bob})
    game = Game.objects.get(code=code)
    turns = {0: 1, 1: 0}  # the start made it seat 0's turn
    mover = 0
    while True:
        services.game_command(code=code, actor=actor(code, tokens[mover]), command={"cmd": "add", "n": 1})
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
        mover = 1 - mover
        turns[mover] += 1
    assert turns[0] + turns[1] >= 8  # several turn changes (target 10, adding 1)
    assert (len(push.to(ann_phone)), len(push.to(bob_phone))) == (turns[0], turns[1])
    assert TurnNotice.objects.filter(game=game, channel="push").count() == turns[0] + turns[1]
    first = ann_phone.decrypt(push.to(ann_phone)[0].body)  # encrypted for the device's own keys
    assert first == {"title": "Your turn in Toy race", "body": f"Game {code}: Host, it is your move.", "url": f"/games/{code}/"}
    headers = {k.lower(): v for k, v in push.to(ann_phone)[0].headers.items()}
    assert headers["authorization"].startswith("vapid t=") and headers["authorization"].endswith(",k=" + settings.JUNCTION_VAPID_PUBLIC_KEY)
    assert (headers["content-encoding"], headers["ttl"], headers["urgency"]) == ("aes128gcm", "86400", "high")
    assert PushSubscription.objects.get(user=ann).last_ok_at is not None
    assert mail.outbox == []


@pytest.mark.django_db
def test_an_open_socket_means_no_notice_until_it_goes_stale(push, settings):
    ann = user("ann")
    phone = subscribe(push, ann, "ann")
    code, _ = seated_game({0: ann}, start=False)
    game = Game.objects.get(code=code)
    seat = on_turn(code, 0)
    socket = SeatSocket.objects.create(game=game, seat=0, channel_name="specific.abc", seen_at=timezone.now())
    notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
    assert notice.channel == "none" and push.to(phone) == [] and mail.outbox == []

    # A socket not seen for JUNCTION_SOCKET_STALE seconds is one of a process that died.
    SeatSocket.objects.filter(pk=socket.pk).update(seen_at=timezone.now() - datetime.timedelta(seconds=settings.JUNCTION_SOCKET_STALE + 1))
    seat = on_turn(code, 0)
    notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
    assert notice.channel == "push" and len(push.to(phone)) == 1
    assert not SeatSocket.objects.exists()  # the stale row went


@pytest.mark.django_db
def test_an_email_when_no_device_and_nothing_when_off(push, settings):
    settings.JUNCTION_PUBLIC_URL = "https://table.example.org"
    ann = user("ann")
    code, _ = seated_game({0: ann}, start=False)
    game = Game.objects.get(code=code)
    seat = on_turn(code, 0)
    notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
    assert notice.channel == "email"
    assert [m.to for m in mail.outbox] == [["ann@example.com"]]
    assert mail.outbox[0].subject == "Your turn in Toy race"
    assert f"https://table.example.org/games/{code}/" in mail.outbox[0].body and code in mail.outbox[0].body
    # The same turn again (another process heard of it too): nothing more.
    assert turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at) is None
    assert len(mail.outbox) == 1

    for choice in ("off", "push"):  # off: nothing; push only: no device, so nothing either
        Profile.objects.update_or_create(user=ann, defaults={"turn_notices": choice})
        seat = on_turn(code, 0)
        notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
        assert notice.channel == "none"
    assert len(mail.outbox) == 1 and push.received == []

    # E-mail only: no push even with a device.
    phone = subscribe(push, ann, "ann")
    Profile.objects.filter(user=ann).update(turn_notices="email")
    seat = on_turn(code, 0)
    assert turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at).channel == "email"
    assert push.to(phone) == [] and len(mail.outbox) == 2


@pytest.mark.django_db
def test_a_device_the_push_service_forgot_is_deleted(push):
    ann = user("ann")
    gone, kept = subscribe(push, ann, "gone"), subscribe(push, ann, "kept")
    push.status["/push/gone"] = 410
    code, _ = seated_game({0: ann}, start=False)
    game = Game.objects.get(code=code)
    seat = on_turn(code, 0)
    notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
    assert notice.channel == "push" and len(push.to(gone)) == 1 and len(push.to(kept)) == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]

    # The last device gone too (404): no push got through, so an e-mail.
    push.status["/push/kept"] = 404
    seat = on_turn(code, 0)
    notice = turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at)
    assert notice.channel == "email" and not PushSubscription.objects.exists() and len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_two_listeners_for_one_turn_send_one_notice(push):
    ann = user("ann")
    phone = subscribe(push, ann, "ann")
    code, _ = seated_game({0: ann}, start=False)
    game = Game.objects.get(code=code)
    seat = on_turn(code, 0)
    ready = threading.Barrier(2)
    failures: list[BaseException] = []

    def listener() -> None:
        from django.db import connection

        try:
            ready.wait(5)
            turn_started(game.pk, 0, ann.pk, seat.turn_started_at)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=listener) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert failures == []
    assert len(push.to(phone)) == 1 and TurnNotice.objects.count() == 1


@pytest.mark.django_db
def test_guests_and_ended_turns_get_nothing(push):
    ann = user("ann")
    phone = subscribe(push, ann, "ann")
    code, _ = seated_game({0: ann}, start=False)
    game = Game.objects.get(code=code)
    turn_started(game.pk, 1, None, timezone.now())  # a guest's seat
    seat = on_turn(code, 0)
    Seat.objects.filter(pk=seat.pk).update(turn_started_at=None)  # the turn ended before the listener ran
    assert turn_notice_send(game_id=game.pk, seat=0, user_id=ann.pk, turn_started_at=seat.turn_started_at).channel == "none"
    assert push.to(phone) == [] and TurnNotice.objects.count() == 1


# -- endpoints ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_devices_endpoint_checks_the_shape_and_keeps_one_row_per_device(push):
    ann, bob = user("ann"), user("bob")
    device = push.device("ann")
    assert Client().post("/me/notices/devices", {"endpoint": device.endpoint, "keys": device.keys},
                         content_type="application/json").status_code == 401
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    page = client.get("/me/notices")
    assert page.status_code == 200 and b"Allow notices on this device" in page.content
    csrf = page.context["config"]["csrf_token"]
    assert page.context["config"]["public_key"] == vapid_public_key()

    def send(method, body):
        return getattr(client, method)("/me/notices/devices", body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)

    assert client.post("/me/notices/devices", {"endpoint": device.endpoint, "keys": device.keys},
                       content_type="application/json").status_code == 403  # no CSRF token
    assert send("post", {"endpoint": device.endpoint, "keys": device.keys}).status_code == 201
    assert send("post", {"endpoint": device.endpoint, "keys": device.keys}).status_code == 200
    for body, code in (
        ({"endpoint": "http://push.example.com/x", "keys": device.keys}, "invalid-endpoint"),  # http, not local
        ({"endpoint": "ftp://push.example.com/x", "keys": device.keys}, "invalid-endpoint"),
        ({"endpoint": "https://push.example.com/x", "keys": device.keys}, "invalid-endpoint"),  # not a push service
        ({"endpoint": "https://fcm.googleapis.com.evil.example/x", "keys": device.keys}, "invalid-endpoint"),
        ({"endpoint": device.endpoint, "keys": {"p256dh": "AAAA", "auth": device.keys["auth"]}}, "invalid-keys"),
        ({"endpoint": device.endpoint, "keys": {"p256dh": device.keys["p256dh"]}}, "invalid-keys"),
        ([1], "invalid-request"),
    ):
        answer = send("post", body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, code), body
    assert send("post", {"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": device.keys}).status_code == 201
    assert PushSubscription.objects.filter(user=ann).count() == 2

    # The same endpoint under another account stays Ann's: refused, never moved, not deleted by Bob.
    other = Client()
    other.force_login(bob)
    taken = other.post("/me/notices/devices", {"endpoint": device.endpoint, "keys": device.keys},
                       content_type="application/json")
    assert (taken.status_code, taken.json()["error"]["code"]) == (409, "endpoint-taken")
    assert PushSubscription.objects.get(endpoint=device.endpoint).user == ann
    assert other.delete("/me/notices/devices", {"endpoint": device.endpoint}, content_type="application/json").status_code == 200
    assert PushSubscription.objects.get(endpoint=device.endpoint).user == ann
    assert send("delete", {"endpoint": device.endpoint}).status_code == 200
    assert not PushSubscription.objects.filter(endpoint=device.endpoint).exists()

    key = Client().get("/me/notices/key").json()["public_key"]
    assert key == vapid_public_key() and len(key) == 87


@pytest.mark.django_db
def test_the_setting_page_saves_the_choice(push):
    ann = user("ann")
    client = Client()
    assert client.get("/me/notices").status_code == 302  # to sign in
    client.force_login(ann)
    assert client.get("/me/notices").context["current"] == "push-or-email"
    answer = client.post("/me/notices", {"turn_notices": "email"})
    assert answer.status_code == 302
    assert Profile.objects.get(user=ann).turn_notices == "email"
    assert b"Saved." in client.get(answer.url).content
    assert client.post("/me/notices", {"turn_notices": "loud"}).status_code == 200
    assert Profile.objects.get(user=ann).turn_notices == "email"


def test_vapid_keys_prints_a_pair_that_belongs_together(settings):
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.JUNCTION_VAPID_PRIVATE_KEY = lines["JUNCTION_VAPID_PRIVATE_KEY"]
    settings.JUNCTION_VAPID_PUBLIC_KEY = ""
    assert vapid_public_key() == lines["JUNCTION_VAPID_PUBLIC_KEY"]


# -- hostile endpoints: checked as they will be sent, and never inside the network ---------------

HOSTILE_ENDPOINTS = [
    r"https://localhost\@fcm.googleapis.com/fcm/send/x",  # urlsplit: fcm.googleapis.com; urllib3: localhost
    r"https://fcm.googleapis.com\@localhost/fcm/send/x",
    "https://user@fcm.googleapis.com/fcm/send/x",
    "https://user:secret@fcm.googleapis.com/fcm/send/x",
    "https://127.0.0.1:5432@fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://fcm.googleapis.com:443/fcm/send/x",
    "https://fcm.googleapis.com:/fcm/send/x",
    "https://142.250.74.42/fcm/send/x",
    "https://[2a00:1450:4001::200e]/fcm/send/x",
    "http://fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com /fcm/send/x",
    "https://fcm.googleapis.com\t.evil.example/x",
    "https://fcm.googleapis.com%2F@evil.example/x",
]
# What the development allowance lets through, refused where it is off (production).
LOCAL_ENDPOINTS = ["http://127.0.0.1:8000/push/x", "https://localhost/push/x", "https://[::1]:9/x", "http://127.0.0.2/x"]


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", HOSTILE_ENDPOINTS)
@pytest.mark.parametrize("loopback", [True, False], ids=["development", "production"])
def test_the_devices_endpoint_refuses_what_the_sender_would_read_otherwise(push, settings, endpoint, loopback):
    settings.JUNCTION_PUSH_LOOPBACK = loopback
    ann = user("ann")
    client = Client()
    client.force_login(ann)
    answer = client.post("/me/notices/devices", {"endpoint": endpoint, "keys": push.device("ann").keys},
                         content_type="application/json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid-endpoint"), answer.json()
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", LOCAL_ENDPOINTS)
def test_this_machine_is_a_push_service_only_where_the_allowance_is_on(push, settings, endpoint):
    ann = user("ann")
    client = Client()
    client.force_login(ann)

    def post():
        return client.post("/me/notices/devices", {"endpoint": endpoint, "keys": push.device("ann").keys},
                           content_type="application/json")

    settings.JUNCTION_PUSH_LOOPBACK = False
    refused = post()
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "invalid-endpoint")
    settings.JUNCTION_PUSH_LOOPBACK = True
    assert post().status_code == 201
    for hostile in (endpoint.replace("//", "//user@"), endpoint.replace("/x", "\\x")):  # not even here
        assert notices.push_endpoint_problem(endpoint=hostile), hostile


def test_the_development_allowance_is_never_on_in_production():
    from tests.config.test_settings import ROOT

    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "JUNCTION_HOST"}}
    code = "from django.conf import settings; print(settings.JUNCTION_PUSH_LOOPBACK)"
    seen = {}
    for where, env in {"development": {}, "production": {"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "s" * 50},
                       "hosted table": {"JUNCTION_HOST": "1", "DJANGO_SECRET_KEY": "s" * 50}}.items():
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                             env={**base, **env, "DJANGO_SETTINGS_MODULE": "config.settings", "JUNCTION_PUSH_LOOPBACK": "1"})
        assert out.returncode == 0, out.stderr
        seen[where] = out.stdout.split()[-1]
    assert seen == {"development": "True", "production": "False", "hosted table": "False"}


@pytest.fixture
def connections(monkeypatch):
    """Every connection the sender opens, recorded and refused (nothing leaves this machine)."""
    opened: list[tuple[str, int]] = []

    def create_connection(address, *args, **kwargs):
        opened.append(address)
        raise ConnectionRefusedError("no network in this test")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    return opened


def fcm_device(owner, push) -> PushSubscription:
    return PushSubscription.objects.create(user=owner, endpoint="https://fcm.googleapis.com/fcm/send/abc",
                                           **push.device("phone").keys)


def resolver(monkeypatch, *answers: list[str]) -> list[str]:
    """The resolver answers each lookup with the next of ``answers`` (the last one from then on)."""
    asked: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[min(len(asked), len(answers)) - 1]

    monkeypatch.setattr(notices, "push_host_resolve", resolve, raising=False)  # (also run against the code before it)
    return asked


@pytest.mark.django_db
@pytest.mark.parametrize("addresses", [
    ["127.0.0.1"], ["10.0.0.7"], ["172.16.5.4"], ["192.168.1.1"], ["169.254.169.254"], ["100.64.0.1"], ["0.0.0.0"],
    ["224.0.0.251"], ["240.0.0.1"], ["255.255.255.255"], ["::1"], ["::"], ["fe80::1"], ["fc00::1"], ["ff02::1"],
    ["::ffff:10.0.0.1"], ["2002:a00:1::1"], ["64:ff9b::a00:1"], ["142.250.74.42", "10.0.0.7"],
])
def test_a_push_host_that_resolves_inside_the_network_is_not_posted_to(push, settings, monkeypatch, connections, caplog, addresses):
    settings.JUNCTION_PUSH_LOOPBACK = False  # as in production
    ann = user("ann")
    device = fcm_device(ann, push)
    resolver(monkeypatch, addresses)
    with caplog.at_level(logging.WARNING, logger="players.notices"):
        assert push_send(user_id=ann.pk, payload={"title": "t"}) is False
    assert connections == []  # no connection at all, to any address
    assert PushSubscription.objects.filter(pk=device.pk).exists()  # kept: its fate tells nobody anything
    assert "not a public address" in caplog.text


@pytest.mark.django_db
def test_the_sender_connects_to_the_address_it_checked(push, settings, monkeypatch, connections):
    settings.JUNCTION_PUSH_LOOPBACK = False
    ann = user("ann")
    fcm_device(ann, push)
    # DNS rebinding: a public address for the check, an inner one for any lookup after it.
    asked = resolver(monkeypatch, ["142.250.74.42"], ["127.0.0.1"])
    assert push_send(user_id=ann.pk, payload={"title": "t"}) is False  # the recorder refuses the connection
    assert asked == ["fcm.googleapis.com"] and connections == [("142.250.74.42", 443)]


@pytest.mark.django_db
def test_a_stored_endpoint_that_fails_the_check_is_not_posted_to(push, settings, monkeypatch, connections):
    ann = user("ann")
    for endpoint in (r"https://localhost\@fcm.googleapis.com/x", "https://fcm.googleapis.com:8443/x",
                     "https://user@fcm.googleapis.com/x"):
        PushSubscription.objects.create(user=ann, endpoint=endpoint, **push.device(endpoint).keys)
    asked = resolver(monkeypatch, ["142.250.74.42"])
    assert push_send(user_id=ann.pk, payload={"title": "t"}) is False
    assert asked == [] and connections == [] and PushSubscription.objects.count() == 3
