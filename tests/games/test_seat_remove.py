"""The host removes a person from the waiting room (games/seating.py seat_remove, issue 31): their
seat is freed, the seats after it move up, their token stops working (401 seat-removed, in words),
and their socket is told and closed."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import services
from games.errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized
from games.models import Game, RejoinCode, SeatRemoval, SeatToken
from games.seating import seat_remove
from games.selectors import game_get
from games.tokens import hash_token

from .factories import actor, make_game


def names(code):
    return [s.name for s in game_get(code=code).seats.order_by("index")]


def post(client, path, body=None, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body or {}), content_type="application/json", **headers)


@pytest.mark.django_db
def test_the_host_removes_a_player_and_the_seats_after_move_up():
    code, tokens = make_game(players=4, start=False)  # Host, P1, P2, P3
    removed = seat_remove(code=code, actor=actor(code, tokens[0]), seat=1)
    assert (removed.index, removed.name) == (1, "P1")
    assert names(code) == ["Host", "P2", "P3"]
    assert actor(code, tokens[2]).seat == 1 and actor(code, tokens[3]).seat == 2  # each token keeps its person
    with pytest.raises(Unauthorized) as err:
        actor(code, tokens[1])
    assert err.value.code == "seat-removed" and "host removed you" in err.value.message
    with pytest.raises(Unauthorized) as err:  # joining again with it is refused the same way
        services.seat_join(code=code, name="P1 again", token=tokens[1])
    assert err.value.code == "seat-removed"
    # The freed seat is free: someone else (or the same person, anew) may take it.
    seat, token, created = services.seat_join(code=code, name="Dee")
    assert created and seat.index == 3 and names(code) == ["Host", "P2", "P3", "Dee"]
    services.game_start(code=code, actor=actor(code, tokens[0]))
    assert game_get(code=code).state["players"] == ["Host", "P2", "P3", "Dee"]


@pytest.mark.django_db
def test_a_signed_in_players_device_tokens_stop_too_and_a_rejoin_code_goes():
    code, tokens = make_game(players=3, start=False)
    game = game_get(code=code)
    seat = game.seats.get(index=1)
    SeatToken.objects.create(seat=seat, token_hash=hash_token("phone-two"))
    RejoinCode.objects.create(game=game, seat=1, code_hash=hash_token("rc"), created_by="host", expires_at=game.created_at)
    RejoinCode.objects.create(game=game, seat=2, code_hash=hash_token("rc2"), created_by="host", expires_at=game.created_at)
    seat_remove(code=code, actor=actor(code, tokens[0]), seat=1)
    with pytest.raises(Unauthorized) as err:
        actor(code, "phone-two")
    assert err.value.code == "seat-removed"
    assert not SeatToken.objects.exists()
    assert list(RejoinCode.objects.values_list("seat", flat=True)) == [1]  # P2's code moved up with P2; P1's is gone
    assert SeatRemoval.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_a_bot_may_be_removed_and_leaves_no_token_behind():
    code, tokens = make_game(players=1, start=False)
    services.seat_add_bot(code=code, actor=actor(code, tokens[0]), bot="random")
    seat_remove(code=code, actor=actor(code, tokens[0]), seat=1)
    assert names(code) == ["Host"] and not SeatRemoval.objects.exists()


@pytest.mark.django_db
def test_who_may_remove_and_when():
    code, tokens = make_game(players=3, start=False)
    with pytest.raises(Forbidden) as err:
        seat_remove(code=code, actor=actor(code, tokens[1]), seat=2)
    assert err.value.code == "host-only"
    with pytest.raises(Unauthorized) as err:
        seat_remove(code=code, actor=actor(code, None), seat=2)
    assert err.value.code == "token-required"
    with pytest.raises(Conflict) as err:
        seat_remove(code=code, actor=actor(code, tokens[0]), seat=0)
    assert err.value.code == "own-seat"
    for missing in (3, 99, -1, 2**70):
        with pytest.raises(NotFound) as err:
            seat_remove(code=code, actor=actor(code, tokens[0]), seat=missing)
        assert err.value.code == "seat-not-found"
    for bad in ("1", 1.0, None, True):
        with pytest.raises(ServiceError) as err:
            seat_remove(code=code, actor=actor(code, tokens[0]), seat=bad)
        assert err.value.status == 400
    assert names(code) == ["Host", "P1", "P2"] and not SeatRemoval.objects.exists()

    services.game_start(code=code, actor=actor(code, tokens[0]))
    with pytest.raises(Conflict) as err:
        seat_remove(code=code, actor=actor(code, tokens[0]), seat=1)
    assert err.value.code == "game-started" and err.value.status == 409
    assert names(code) == ["Host", "P1", "P2"] and actor(code, tokens[1]).seat == 1


@pytest.mark.django_db
def test_a_removal_is_broadcast_after_commit(django_capture_on_commit_callbacks):
    code, tokens = make_game(players=2, start=False)
    before = Game.objects.get(code=code).revision
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        seat_remove(code=code, actor=actor(code, tokens[0]), seat=1)
    assert len(callbacks) == 2 and Game.objects.get(code=code).revision == before + 1


@pytest.mark.django_db
def test_the_api_route(api_client):
    code, tokens = make_game(players=3, start=False)
    answer = post(api_client, f"/api/games/{code}/seats/1/remove", token=tokens[0])
    assert answer.status_code == 200
    body = answer.json()
    assert (body["seat"], body["name"]) == (1, "P1") and [s["name"] for s in body["game"]["seats"]] == ["Host", "P2"]

    refused = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "seat-removed"
    assert "removed you" in refused.json()["error"]["message"]
    again = post(api_client, f"/api/games/{code}/seats", {"name": "P1"}, tokens[1])
    assert again.status_code == 401 and again.json()["error"]["code"] == "seat-removed"

    for path, token, status, error in (
        (f"/api/games/{code}/seats/1/remove", tokens[2], 403, "host-only"),  # P2, now seat 1
        (f"/api/games/{code}/seats/1/remove", None, 401, "token-required"),
        (f"/api/games/{code}/seats/0/remove", tokens[0], 409, "own-seat"),
        (f"/api/games/{code}/seats/7/remove", tokens[0], 404, "seat-not-found"),
        (f"/api/games/{code}/seats/99999999999999999999999/remove", tokens[0], 404, "seat-not-found"),
    ):
        answer = post(api_client, path, token=token)
        assert answer.status_code == status and answer.json()["error"]["code"] == error, (path, answer.content)
    assert api_client.post(f"/api/games/{code}/seats/-1/remove", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}").status_code == 404
    assert names(code) == ["Host", "P2"]
    services.game_start(code=code, actor=actor(code, tokens[0]))
    started = post(api_client, f"/api/games/{code}/seats/1/remove", token=tokens[0])
    assert started.status_code == 409 and started.json()["error"]["code"] == "game-started"


@pytest.mark.django_db
def test_admin_shows_the_listing_and_who_was_removed(admin_client):
    code, tokens = make_game(players=3, start=False)
    seat_remove(code=code, actor=actor(code, tokens[0]), seat=2)
    game = game_get(code=code)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Listed" in page and "removed from the waiting room" in page.lower() and "P2" in page
    listing = admin_client.get("/admin/games/game/?listed__exact=0").content.decode()
    assert code in listing
    assert code not in admin_client.get("/admin/games/game/?listed__exact=1").content.decode()


# --- the socket ------------------------------------------------------------------------------------


async def receive_type(comm, wanted: str, timeout: float = 3) -> dict:
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        if message["type"] == wanted:
            return message


async def in_lobby(code, token=None):
    from .test_consumers import communicator

    comm = communicator(code, token)
    ok, _ = await comm.connect()
    assert ok
    await receive_type(comm, "game")
    return comm


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_removed_socket_is_told_and_closed_the_others_learn_their_seat():
    code, tokens = await database_sync_to_async(make_game)(players=3, start=False)
    removed = await in_lobby(code, tokens[1])
    moved = await in_lobby(code, tokens[2])
    watcher = await in_lobby(code)

    await database_sync_to_async(lambda: seat_remove(code=code, actor=actor(code, tokens[0]), seat=1))()

    told = await receive_type(removed, "error")
    assert told["error"]["code"] == "seat-removed" and "host removed you" in told["error"]["message"]
    closed = await removed.receive_output(timeout=3)
    while closed["type"] != "websocket.close":
        closed = await removed.receive_output(timeout=3)
    assert closed["code"] == 4401  # the page stops reconnecting with this token

    assert (await receive_type(moved, "seat"))["seat"] == 1  # P2 moved up
    summary = await receive_type(watcher, "game")
    assert [s["name"] for s in summary["game"]["seats"]] == ["Host", "P2"]

    from .test_consumers import communicator

    late = communicator(code, tokens[1])  # a handshake with the removed token: refused with the reason
    ok, _ = await late.connect()
    assert ok
    frame = json.loads(await late.receive_from())
    assert frame["type"] == "error" and frame["error"]["code"] == "seat-removed"
    assert (await late.receive_output())["code"] == 4401
    for comm in (moved, watcher):
        await comm.disconnect()
