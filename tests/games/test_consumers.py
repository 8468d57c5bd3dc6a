"""WebSocket: each seat and a spectator receive their own views after a command."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application

from .factories import make_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def communicator(code: str, token: str | None = None) -> WebsocketCommunicator:
    path = f"/ws/games/{code}/" + (f"?token={token}" if token else "")
    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])


async def receive_type(comm: WebsocketCommunicator, wanted: str, timeout: float = 3) -> dict:
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        if message["type"] == wanted:
            return message


async def connected(code, token=None):
    comm = communicator(code, token)
    ok, _ = await comm.connect()
    assert ok
    first = await receive_type(comm, "state")
    return comm, first


async def test_two_seats_and_a_spectator_get_their_own_views():
    code, tokens = await database_sync_to_async(make_game)()
    seat0, s0 = await connected(code, tokens[0])
    seat1, s1 = await connected(code, tokens[1])
    watcher, sw = await connected(code)
    assert (s0["seat"], s1["seat"], sw["seat"]) == (0, 1, None)
    secrets = (s0["state"]["my_secret"], s1["state"]["my_secret"])
    assert None not in secrets and sw["state"]["my_secret"] is None
    assert s0["legal_commands"] and not s1["legal_commands"]

    await seat0.send_to(text_data=json.dumps({"cmd": "add", "n": 2, "command_id": "ws-1"}))
    # The mover gets the new state first, then the answer: with the answer it has the state.
    u0, result = [json.loads(await seat0.receive_from(timeout=3)) for _ in range(2)]
    assert (u0["type"], u0["version"]) == ("state", 2)
    assert result == {"type": "result", "response": "add-response", "status": "ok", "version": 2,
                      "events": result["events"], "command_id": "ws-1"}

    u1, uw = [await receive_type(c, "state") for c in (seat1, watcher)]
    assert [u["version"] for u in (u0, u1, uw)] == [2, 2, 2]
    assert u0["state"]["my_secret"] == secrets[0] and u1["state"]["my_secret"] == secrets[1]
    assert uw["state"]["my_secret"] is None
    assert not u0["legal_commands"] and u1["legal_commands"]
    for comm in (seat0, seat1, watcher):
        await comm.disconnect()


async def test_errors_over_the_socket_change_nothing():
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    watcher, _ = await connected(code)
    cases = [
        ("{not json", "malformed-json"),
        ("[1]", "invalid-request"),
        (json.dumps({"n": 1}), "invalid-request"),
        (json.dumps({"cmd": "add", "n": 1}), "not-your-turn"),
        (json.dumps({"cmd": "add", "n": 1, "pad": "x" * 70_000}), "payload-too-large"),
        ("[" * 5000, "invalid-json"),
        ('{"a":' * 3000 + "1" + "}" * 3000, "invalid-json"),
        (json.dumps({"cmd": "add", "n": 1, "command_id": 5}), "invalid-request"),
    ]
    for frame, code_expected in cases:
        await seat1.send_to(text_data=frame)
        message = await receive_type(seat1, "error")
        assert message["error"]["code"] == code_expected, (frame[:30], message)
    await seat1.send_to(bytes_data=b"\x00\x01")
    assert (await receive_type(seat1, "error"))["error"]["code"] == "binary-not-supported"
    await watcher.send_to(text_data=json.dumps({"cmd": "add", "n": 1}))
    assert (await receive_type(watcher, "error"))["error"]["code"] == "token-required"
    await seat1.send_to(text_data=json.dumps({"cmd": "get-state"}))
    state = await receive_type(seat1, "state")
    assert state["version"] == 1
    for comm in (seat1, watcher):
        await comm.disconnect()


async def test_bad_token_and_unknown_game_are_refused_with_a_reason():
    code, tokens = await database_sync_to_async(make_game)()
    comm = communicator(code, "bogus")
    ok, _ = await comm.connect()
    assert ok
    message = json.loads(await comm.receive_from())
    assert message == {"type": "error", "error": {"code": "invalid-token", "message": "This token is not valid."}}
    assert (await comm.receive_output())["code"] == 4401
    comm = communicator("ZZZZZ")
    await comm.connect()
    assert json.loads(await comm.receive_from())["error"]["code"] == "game-not-found"
    other_code, other_tokens = await database_sync_to_async(make_game)()
    comm = communicator(code, other_tokens[0])
    await comm.connect()
    assert json.loads(await comm.receive_from())["error"]["code"] == "wrong-game"


async def test_lobby_updates_reach_the_waiting_room():
    from games import services

    created = await database_sync_to_async(services.game_create)(kind="toy", host_name="Ann")
    code = created.game.code
    host = communicator(code, created.host_token)
    await host.connect()
    first = await receive_type(host, "game")
    assert [s["name"] for s in first["game"]["seats"]] == ["Ann"]
    await database_sync_to_async(services.seat_join)(code=code, name="Bo")
    update = await receive_type(host, "game")
    assert [s["name"] for s in update["game"]["seats"]] == ["Ann", "Bo"]
    await host.disconnect()


async def test_commands_past_the_rate_get_a_rate_limited_frame_and_the_socket_stays(settings):
    settings.JUNCTION_COMMAND_SEAT_RATE = "3/hour"
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    for i in range(3):  # within the rate: the rules answer (not seat 1's turn)
        await seat1.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": f"r{i}"}))
        assert (await receive_type(seat1, "error"))["error"]["code"] == "not-your-turn"
    await seat1.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "r3"}))
    limited = await receive_type(seat1, "error")
    assert limited["error"]["code"] == "rate-limited" and limited["command_id"] == "r3" and limited["retry_after"] >= 1
    other, _ = await connected(code, tokens[0])  # another socket counts on its own
    await other.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "o1"}))
    assert (await receive_type(other, "result"))["version"] == 2
    for comm in (seat1, other):
        await comm.disconnect()


async def test_the_heartbeat_is_answered_at_once_past_the_rate_and_changes_nothing(settings):
    settings.JUNCTION_COMMAND_SEAT_RATE = "1/hour"
    code, tokens = await database_sync_to_async(make_game)()
    seat1, first = await connected(code, tokens[1])
    for _ in range(3):  # past the command rate: a ping is not a command
        await seat1.send_to(text_data='{"type":"ping"}')
        assert await seat1.receive_from(timeout=3) == '{"type":"pong"}'
    # Anything else that is not a command is still refused as before (and counted).
    await seat1.send_to(text_data='{"type": "ping", "x": 1}')
    assert (await receive_type(seat1, "error"))["error"]["code"] == "invalid-request"
    watcher, now = await connected(code)
    assert now["version"] == first["version"]
    for comm in (seat1, watcher):
        await comm.disconnect()


async def test_a_command_id_reused_for_another_command_is_refused_over_the_socket():
    code, tokens = await database_sync_to_async(make_game)()
    seat0, _ = await connected(code, tokens[0])
    seat1, _ = await connected(code, tokens[1])
    await seat0.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "once"}))
    first = await receive_type(seat0, "result")
    await seat1.send_to(text_data=json.dumps({"cmd": "add", "n": 1}))
    await receive_type(seat1, "result")
    await seat0.send_to(text_data=json.dumps({"cmd": "add", "n": 3, "command_id": "once"}))
    refused = await receive_type(seat0, "error")
    assert refused["error"]["code"] == "command-id-reused" and refused["command_id"] == "once"
    assert refused["first"] == {"sequence": first["version"], "command": {"cmd": "add", "n": 1}} and refused["version"] == 3
    await seat0.send_to(text_data=json.dumps({"cmd": "add", "n": 1, "command_id": "once"}))  # a retry: the first result
    again = await receive_type(seat0, "result")
    assert (again["version"], again["events"]) == (first["version"], first["events"])
    for comm in (seat0, seat1):
        await comm.disconnect()


async def test_a_player_takes_their_seat_back_from_the_bot_over_the_socket():
    """A seat a bot plays while its player is away: the player's socket is refused a move
    (seat-played-by-bot) and takes the seat back with {"cmd": "seat-return"}, as POST …/seats/me/return."""
    from games.models import Seat
    from games.selectors import game_get

    code, tokens = await database_sync_to_async(make_game)(players=2, options={"target": 100})
    # The host hands Ann's seat (0, on turn) to a bot; bots move only when scheduled, which this test leaves out.
    game = await database_sync_to_async(game_get)(code=code)
    await database_sync_to_async(Seat.objects.filter(game=game, index=0).update)(is_bot=True, bot="random", away=True)
    ann, _ = await connected(code, tokens[0])
    await ann.send_to(text_data=json.dumps({"cmd": "add", "n": 1}))
    refused = await receive_type(ann, "error")
    assert refused["error"]["code"] == "seat-played-by-bot" and "seat-return" in refused["error"]["message"]

    await ann.send_to(text_data=json.dumps({"cmd": "seat-return", "command_id": "back-1"}))
    back = await receive_type(ann, "result")
    assert back["response"] == "seat-return-response" and back["command_id"] == "back-1"
    assert [e["type"] for e in back["events"]] == ["seat-returned"] and back["version"] == 2
    seat = await database_sync_to_async(Seat.objects.get)(game=game, index=0)
    assert (seat.is_bot, seat.away) == (False, False)
    await ann.send_to(text_data=json.dumps({"cmd": "seat-return"}))  # not away now: nothing changes
    again = await receive_type(ann, "result")
    assert (again["events"], again["version"]) == ([], 2)
    await ann.send_to(text_data=json.dumps({"cmd": "add", "n": 1}))
    assert (await receive_type(ann, "result"))["version"] == 3
    await ann.disconnect()


async def test_get_states_over_one_socket_are_priced_reads_and_meet_the_read_limit(settings):
    # A get-state over the socket counts against the same read limits as HTTP's, one token per started
    # JUNCTION_READ_PRICE_BYTES of its answer; the command limit does not see it.
    settings.JUNCTION_READ_SEAT_RATE = "40/hour"
    settings.JUNCTION_READ_PRICE_BYTES = 100
    settings.JUNCTION_COMMAND_SEAT_RATE = "1/hour"
    code, tokens = await database_sync_to_async(make_game)()
    seat1, _ = await connected(code, tokens[1])
    states, limited, size = 0, None, 0
    for i in range(40):  # a flood on one socket
        await seat1.send_to(text_data=json.dumps({"cmd": "get-state", "command_id": f"g{i:02}"}))
        text = await seat1.receive_from(timeout=3)
        frame = json.loads(text)
        if frame["type"] == "error":
            limited = frame
            break
        assert (frame["type"], frame["command_id"], frame["seat"]) == ("state", f"g{i:02}", 1)
        states, size = states + 1, len(text)
    assert limited is not None, "40 get-states never met the read limit"
    assert limited["error"]["code"] == "rate-limited" and limited["retry_after"] >= 1
    assert limited["command_id"] == f"g{states:02}"
    price = -(-size // 100)  # one token per started 100 bytes of each answer
    assert price > 1 and states == 40 // price
    # The socket stays open, and HTTP reads with the same token meet the same limit.
    await seat1.send_to(text_data='{"type":"ping"}')
    assert await seat1.receive_from(timeout=3) == '{"type":"pong"}'
    from django.test import Client

    answer = await database_sync_to_async(Client().get)(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert answer.status_code == 429
    await seat1.disconnect()
