"""Accounts and My games (players/seats.py, players/views.py): a seat taken while signed in is the
account's; a guest's seats are claimed into an account from the browser that holds them; a
signed-in player opens a seat on another device with a device token of its own (games.SeatToken),
which a seat handed to another device revokes; My games lists every seat with whose turn it is;
sign-up, sign-in and password reset are django-allauth's, in the site's look."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from games import services
from games.errors import NotFound, Unauthorized
from games.models import Game, Seat, SeatToken
from games.selectors import actor_for_token, game_get, token_current
from games.tokens import hash_token
from players import seats
from tests.games.factories import actor, make_game

pytestmark = pytest.mark.django_db
PASSWORD = "tracks-and-ties-42"


def make_user(name: str = "ada", email: str = "ada@example.org"):
    return get_user_model().objects.create_user(name, email, PASSWORD)


def signed_in(user, csrf: bool = False) -> APIClient:
    client = APIClient(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def lobby_game(host: str = "Host") -> tuple[str, str]:
    created = services.game_create(kind="toy", options={}, host_name=host)
    return created.game.code, created.host_token


def test_a_seat_taken_while_signed_in_is_the_accounts_and_its_game_is_watched():
    ada = make_user()
    code, _ = lobby_game()
    joined = signed_in(ada).post(f"/api/games/{code}/seats", {"name": "Ada"}, format="json")
    assert joined.status_code == 201, joined.content
    seat = Seat.objects.get(game__code=code, index=joined.json()["seat"])
    assert seat.user == ada
    assert Game.objects.get(code=code).watched
    # A guest joins exactly as before: no account, nothing watched for it.
    other, _ = lobby_game()
    guest = APIClient().post(f"/api/games/{other}/seats", {"name": "Ben"}, format="json")
    assert guest.status_code == 201
    assert Seat.objects.get(game__code=other, index=guest.json()["seat"]).user is None
    assert not Game.objects.get(code=other).watched
    # A host who creates a game while signed in holds its first seat.
    created = signed_in(ada).post("/api/games", {"kind": "toy", "name": "Ada"}, format="json")
    assert Seat.objects.get(game__code=created.json()["code"], index=0).user == ada


def test_a_guest_claims_the_seats_their_browser_holds_into_the_account(django_capture_on_commit_callbacks):
    first, tokens = make_game(players=3)  # started: Host, P1, P2
    second, host_token = lobby_game("Ada")
    ada, ben = make_user(), make_user("ben", "ben@example.org")
    Seat.objects.filter(game__code=first, index=2).update(user=ben)
    body = {"tokens": [tokens[1], host_token, tokens[2], "no-such-token", tokens[1]]}
    assert APIClient().post("/api/me/seats/claim", body, format="json").status_code == 401  # signed out
    client = signed_in(ada, csrf=True)
    refused = client.post("/api/me/seats/claim", body, format="json")
    assert refused.status_code == 403  # the session needs its CSRF token
    client.get("/me/games")  # sets the CSRF cookie
    with django_capture_on_commit_callbacks(execute=True):
        claimed = client.post("/api/me/seats/claim", body, format="json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert claimed.status_code == 200, claimed.content
    result = claimed.json()
    assert sorted((s["code"], s["seat"]) for s in result["claimed"]) == sorted([(first, 1), (second, 0)])
    assert result["taken"] == [{"code": first, "seat": 2, "name": "P2"}]
    assert result["unknown"] == 1 and result["already"] == []
    assert Seat.objects.get(game__code=first, index=1).user == ada
    assert Seat.objects.get(game__code=first, index=2).user == ben  # never taken from another account
    assert Game.objects.get(code=first).watched and Game.objects.get(code=second).watched
    # The started game's turn is tracked from the claim on (games/turns.py).
    assert Seat.objects.get(game__code=first, index=0).turn_started_at is not None
    again = client.post("/api/me/seats/claim", {"tokens": [tokens[1]]}, format="json",
                        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert again.json()["already"] == [{"code": first, "seat": 1, "name": "P1"}]


def test_opening_a_seat_on_another_device_gives_it_a_token_of_its_own():
    code, tokens = make_game(players=2)
    ada = make_user()
    seat = Seat.objects.get(game__code=code, index=1)
    services.seat_user_link(seat=seat, user=ada)
    client = signed_in(ada)
    page = client.get(f"/me/games/{code}/open?seat=1")
    assert page.status_code == 200 and b'id="seat-open-data"' in page.content and b"/static/js/seat_open.js" in page.content
    opened = client.post(f"/me/games/{code}/open", {"seat": "1"})
    assert opened.status_code == 200, opened.content
    data = opened.json()
    assert (data["code"], data["seat"], data["host"], data["url"]) == (code, 1, False, f"/games/{code}/")
    device = SeatToken.objects.get()
    assert device.token_hash == hash_token(data["token"]) and device.user == ada and device.seat == seat
    # The new device's token is the seat's, as good as the first device's; both stay current.
    game = game_get(code=code)
    device_actor = actor_for_token(game=game, token=data["token"])
    assert (device_actor.seat, device_actor.is_host) == (1, False)
    assert token_current(game=game, actor=device_actor, digest=hash_token(data["token"]))
    assert token_current(game=game, actor=actor(code, tokens[1]), digest=hash_token(tokens[1]))
    state = APIClient().get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {data['token']}")
    assert state.status_code == 200 and state.json()["seat"] == 1
    # Not yours: another account, a signed-out device, a seat you do not hold.
    ben = make_user("ben", "ben@example.org")
    assert signed_in(ben).post(f"/me/games/{code}/open", {"seat": "1"}).json()["error"]["code"] == "seat-not-yours"
    assert APIClient().post(f"/me/games/{code}/open", {"seat": "1"}).status_code == 401
    assert client.post(f"/me/games/{code}/open", {"seat": "0"}).status_code == 404
    assert APIClient().get(f"/me/games/{code}/open").status_code == 302  # to sign in


def test_a_seat_handed_to_another_device_loses_its_device_tokens(django_capture_on_commit_callbacks, monkeypatch):
    from games import broadcast

    sent: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: sent.extend(batch))
    code, _ = make_game(players=2)
    ada = make_user()
    seat = Seat.objects.get(game__code=code, index=1)
    services.seat_user_link(seat=seat, user=ada)
    token = seats.seat_token_issue(user=ada, seat=seat)
    game = game_get(code=code)
    device_actor = actor_for_token(game=game, token=token)
    issued = services.rejoin_code_create(game_id=game.pk, seat=1, by="gm")  # a game master: no actor, never held back
    with django_capture_on_commit_callbacks(execute=True):
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert not SeatToken.objects.exists()
    assert Seat.objects.get(pk=seat.pk).user is None  # a guest's device has it now: not Ada's any more
    game = game_get(code=code)
    assert not token_current(game=game, actor=device_actor, digest=hash_token(token))
    with pytest.raises(Unauthorized):
        actor_for_token(game=game, token=token)
    moved = [m for _, m in sent if m.get("type") == "seat.moved"]
    assert hash_token(token) in {m["token_hash"] for m in moved}  # its open sockets are told and closed
    # Taken with a rejoin code while signed in: the seat is that account's.
    issued = services.rejoin_code_create(game_id=game.pk, seat=1, by="gm")  # a game master: no actor, never held back
    taken = signed_in(ada).post(f"/api/games/{code}/rejoin", {"code": issued.code}, format="json")
    assert taken.status_code == 200, taken.content
    assert Seat.objects.get(pk=seat.pk).user == ada


def test_a_device_token_asked_for_as_the_seat_is_handed_on_is_refused():
    """My games read the seat (Ada's) just before a rejoin handed it to a guest's device: the token
    is not issued on that stale read, so no device of Ada's keeps a seat that is not hers."""
    code, _ = make_game(players=2)
    ada = make_user()
    seat = Seat.objects.get(game__code=code, index=1)
    services.seat_user_link(seat=seat, user=ada)
    read_before = Seat.objects.get(pk=seat.pk)  # what the "Open" request read
    issued = services.rejoin_code_create(game_id=seat.game_id, seat=1, by="gm")  # a game master: no actor, never held back
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    with pytest.raises(NotFound) as refused:
        seats.seat_token_issue(user=ada, seat=read_before)
    assert refused.value.code == "seat-not-yours"
    assert not SeatToken.objects.exists()


def test_device_tokens_per_seat_are_capped():
    code, _ = make_game(players=2)
    ada = make_user()
    seat = Seat.objects.get(game__code=code, index=1)
    services.seat_user_link(seat=seat, user=ada)
    issued = [seats.seat_token_issue(user=ada, seat=seat) for _ in range(seats.DEVICE_TOKENS_PER_SEAT + 2)]
    assert SeatToken.objects.count() == seats.DEVICE_TOKENS_PER_SEAT
    game = game_get(code=code)
    assert actor_for_token(game=game, token=issued[-1]).seat == 1
    with pytest.raises(Unauthorized):
        actor_for_token(game=game, token=issued[0])  # the oldest device's was retired


def test_my_games_lists_every_seat_with_whose_turn_it_is():
    ada = make_user()
    assert APIClient().get("/me/games").status_code == 302  # sign in first
    waiting, _ = make_game(players=2)  # toy: seat 0 (Host) is on turn
    mine, _ = make_game(players=2)
    lobby, _ = lobby_game("Cy")
    for code, index in ((waiting, 1), (mine, 0), (lobby, 0)):
        Seat.objects.filter(game__code=code, index=index).update(user=ada, name="Ada")
    Game.objects.filter(code=lobby).update(updated_at="2020-01-01T00:00:00Z")
    Game.objects.filter(code=mine).update(updated_at="2030-01-01T00:00:00Z")
    rows = seats.my_games(user=ada)
    assert [r["code"] for r in rows] == [mine, waiting, lobby]  # newest activity first
    by_code = {r["code"]: r for r in rows}
    assert by_code[mine]["my_turn"] and by_code[mine]["on_turn"] == ["Ada"]
    assert not by_code[waiting]["my_turn"] and by_code[waiting]["on_turn"] == ["Host"]
    assert by_code[lobby]["status"] == "lobby" and by_code[lobby]["on_turn"] == []
    page = signed_in(ada).get("/me/games")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.index(mine) < html.index(waiting) < html.index(lobby)
    assert "Toy race" in html and "Your turn" in html and "Turn: Host" in html and "Waiting for the host to start" in html
    assert f'/me/games/{waiting}/open?seat=1' in html and 'id="nav-sign-out"' in html
    assert 'id="my-games-data"' in html and "<script>" not in html.replace("<script src", "")  # no inline script
    assert b'id="nav-sign-in"' in APIClient().get("/").content  # signed out: the topbar offers to sign in


def test_sign_up_and_sign_in_by_name_or_e_mail():
    client = APIClient()
    form = client.get("/accounts/signup/")
    assert form.status_code == 200
    html = form.content.decode()
    assert 'href="/static/css/junction.css"' in html and 'class="topbar"' in html  # the site's own layout
    assert 'name="username"' in html and 'name="email"' in html and "(optional)" in html
    made = client.post("/accounts/signup/", {"username": "ada", "email": "ada@example.org",
                                              "password1": PASSWORD, "password2": PASSWORD})
    assert made.status_code == 302 and made["Location"] == "/me/games?welcome=1"
    assert get_user_model().objects.filter(username="ada").exists()
    client.post("/accounts/logout/")
    assert client.get("/me/games").status_code == 302
    for login in ("ada", "ada@example.org"):
        signed = APIClient().post("/accounts/login/", {"login": login, "password": PASSWORD})
        assert signed.status_code == 302 and signed["Location"] == "/me/games", login
    bad = APIClient().post("/accounts/login/", {"login": "ada", "password": "wrong"})
    assert bad.status_code == 200 and b'class="error"' in bad.content
    # No e-mail address needed.
    plain = APIClient().post("/accounts/signup/", {"username": "cy", "password1": PASSWORD, "password2": PASSWORD})
    assert plain.status_code == 302


def test_a_forgotten_password_is_reset_by_e_mail():
    make_user()
    mail.outbox.clear()
    client = APIClient()
    asked = client.post("/accounts/password/reset/", {"email": "ada@example.org"})
    assert asked.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b'name="password1"' in form.content
    done = client.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                       {"password1": "a-new-pass-77", "password2": "a-new-pass-77"})
    assert done.status_code == 302
    assert APIClient().post("/accounts/login/", {"login": "ada", "password": "a-new-pass-77"}).status_code == 302


def test_game_masters_see_players_with_their_games_in_admin(client):
    code, _ = make_game(players=2)
    ada = make_user()
    Seat.objects.filter(game__code=code, index=1).update(user=ada)
    client.force_login(get_user_model().objects.create_superuser("gm", "gm@example.org", PASSWORD))
    player = client.get(f"/admin/auth/user/{ada.pk}/change/").content.decode()
    assert code in player and "Toy race" in player and "P1" in player  # the player's games, read-only
    assert client.get("/admin/auth/user/").status_code == 200
    seats_list = client.get("/admin/games/seat/").content.decode()
    assert "ada" in seats_list
    game = client.get(f"/admin/games/game/{game_get(code=code).pk}/change/").content.decode()
    assert "ada" in game  # the seat's account, beside its name


def test_admin_sign_in_is_the_players_one_and_locks_after_five_failures():
    from django.core.cache import cache
    from django.test import Client

    get_user_model().objects.create_superuser("gm", "gm@example.org", PASSWORD)
    # /admin/login/ takes no password of its own: it sends the game master to the players' sign-in.
    direct = Client()
    answer = direct.post("/admin/login/?next=/admin/", {"username": "gm", "password": PASSWORD, "next": "/admin/"})
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/?next=")
    assert direct.get("/admin/").status_code == 302  # not signed in
    opened = direct.get("/admin/", follow=True)
    assert opened.redirect_chain[-1][0] == "/accounts/login/?next=%2Fadmin%2F" and b'name="login"' in opened.content

    sign_in = "/accounts/login/?next=/admin/"
    client = Client()
    for _ in range(6):
        wrong = client.post(sign_in, {"login": "gm", "password": "not-it"})
        assert wrong.status_code == 200 and b'class="error"' in wrong.content
    for where in (client, Client(REMOTE_ADDR="203.0.113.9")):  # the account's limit, from any address
        refused = where.post(sign_in, {"login": "gm", "password": PASSWORD})
        assert refused.status_code == 200 and b"Too many failed login attempts" in refused.content
        assert where.get("/admin/").status_code == 302
    cache.clear()  # the limit's window over (its counters are in the cache)
    signed = client.post(sign_in, {"login": "gm", "password": PASSWORD})
    assert signed.status_code == 302 and signed["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_signed_in_player_is_not_let_into_admin():
    make_user()
    client = APIClient()
    assert client.post("/accounts/login/?next=/admin/", {"login": "ada", "password": PASSWORD}).status_code == 302
    assert client.get("/admin/login/").status_code == 403
    assert client.get("/admin/").status_code == 302  # to the admin's sign-in, which refuses her (above)


def test_sign_in_limits_count_the_address_the_trusted_proxy_names(settings):
    """Behind the load balancer (JUNCTION_TRUSTED_PROXIES=1) ten failed sign-ins a minute from one
    address lock out that address, not everyone the proxy forwards (players/adapter.py)."""
    from django.core.cache import cache
    from django.test import Client

    settings.JUNCTION_TRUSTED_PROXIES = 1
    # A fast hasher: thirteen sign-ins at the real one's cost (each checks a password, even for no such
    # player) took over the limit's minute on a loaded machine, and the window rolled over mid-test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    sign_in = "/accounts/login/"
    flooder = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.7")
    for i in range(12):  # other names each time: only the address's limit (10 a minute) is reached
        flooder.post(sign_in, {"login": f"nobody{i}", "password": "not-it"})
    assert b"Too many failed login attempts" in flooder.post(sign_in, {"login": "nobody", "password": "x"}).content
    make_user()
    neighbour = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.5")  # the same proxy, another player
    assert neighbour.post(sign_in, {"login": "ada", "password": PASSWORD}).status_code == 302


def test_the_sign_in_page_says_what_to_type_and_how_to_sign_up():
    """The README's words are the page's: the field is "Your name or e-mail" (not allauth's "Login") and the
    way to an account is "Create an account" (issue 34)."""
    from django.test import Client

    page = Client().get("/accounts/login/").content.decode()
    assert "Your name or e-mail" in page and ">Login<" not in page
    assert "Create an account" in page
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "then **Create an account**" in readme and "**Sign up**" not in readme
