"""Chat (games/chat.py): the table's messages reach every seat, the host and spectators, live over the socket
and through GET …/chat; the spectators' are kept from the players until the game is over; text follows the
names' rules and a length limit; a guest watching cannot write; a game master hides a message (gone live);
a muted player's messages are left out; chat is in the data download; over HTTP with the same error shape."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from games import chat, services
from games.errors import ServiceError, Unauthorized
from games.models import ChatMessage, Game
from players.data import account_export
from players.models import ChatMute
from tests.games.factories import actor, make_game

from .test_consumers import connected, receive_type


@pytest.mark.django_db
def test_the_table_chat_and_the_spectators_chat_reach_whom_they_should():
    code, tokens = make_game(players=2, options={"target": 50})
    game = Game.objects.get(code=code)
    ann = chat.chat_post(game=game, actor=actor(code, tokens[1]), user=None, text="  Hello\u0301 table ")
    assert (ann.name, ann.audience, ann.seat, ann.text) == ("P1", "table", 1, "Helló table")  # NFC, stripped
    watcher = get_user_model().objects.create_user("wendy")
    aside = chat.chat_post(game=game, actor=actor(code, None), user=watcher, text="Ooh, a bold move")
    assert (aside.name, aside.audience, aside.seat) == ("wendy", "watchers", None)
    as_player = chat.chat_read(game=game, actor=actor(code, tokens[0]), user=None)
    assert [m["text"] for m in as_player["messages"]] == ["Helló table"] and as_player["writes"] and as_player["audience"] == "table"
    as_watcher = chat.chat_read(game=game, actor=actor(code, None), user=None)
    assert [m["text"] for m in as_watcher["messages"]] == ["Helló table", "Ooh, a bold move"]
    assert not as_watcher["writes"] and as_watcher["audience"] is None  # a guest watching reads only
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    after = chat.chat_read(game=game, actor=actor(code, tokens[0]), user=None)
    assert len(after["messages"]) == 2  # once the game is over, the players read the spectators too
    assert [m["text"] for m in chat.chat_read(game=game, actor=actor(code, tokens[0]), user=None, after=ann.pk)["messages"]] == ["Ooh, a bold move"]


@pytest.mark.django_db
@pytest.mark.parametrize("text, why", [
    ("", "blank"), ("   ", "blank"), ("x" * 301, "at most 300"), ("a\u202eb", "invisible formatting"),
    ("a\x00b", "control character"), (["a"], "must be text"),
])
def test_what_cannot_be_a_message_is_refused_and_nothing_is_stored(text, why):
    code, tokens = make_game(players=2)
    with pytest.raises(ServiceError) as refused:
        chat.chat_post(game=Game.objects.get(code=code), actor=actor(code, tokens[0]), user=None, text=text)
    assert refused.value.code == "invalid-request" and why in refused.value.message
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_a_guest_watching_cannot_write_and_an_ended_game_is_closed():
    code, tokens = make_game(players=2)
    game = Game.objects.get(code=code)
    with pytest.raises(Unauthorized) as guest:
        chat.chat_post(game=game, actor=actor(code, None), user=None, text="hi")
    assert guest.value.code == "sign-in-required"
    services.game_end(game_id=game.pk, by="gm", reason="test")
    with pytest.raises(ServiceError) as ended:
        chat.chat_post(game=Game.objects.get(code=code), actor=actor(code, tokens[0]), user=None, text="hi")
    assert ended.value.code == "game-abandoned" and not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_a_muted_player_is_left_out_and_chat_is_in_the_data_download():
    ann, bob = (get_user_model().objects.create_user(n) for n in ("ann", "bob"))
    code, tokens = make_game(players=2)
    from games.models import Seat

    Seat.objects.filter(game__code=code, index=0).update(user=ann)
    Seat.objects.filter(game__code=code, index=1).update(user=bob)
    game = Game.objects.get(code=code)
    chat.chat_post(game=game, actor=actor(code, tokens[0]), user=ann, text="from ann")
    chat.chat_post(game=game, actor=actor(code, tokens[1]), user=bob, text="from bob")
    ChatMute.objects.create(user=ann, muted=bob)
    read = chat.chat_read(game=game, actor=actor(code, tokens[0]), user=ann)
    assert [m["text"] for m in read["messages"]] == ["from ann"] and read["muted"] == ["bob"]
    exported = account_export(user=bob)
    assert [(c["code"], c["text"], c["seat"]) for c in exported["chat"]] == [(code, "from bob", 1)]
    assert account_export(user=ann)["chat_muted"] == ["bob"]


@pytest.mark.django_db
def test_a_game_master_hides_a_message_from_every_reader():
    code, tokens = make_game(players=2)
    game = Game.objects.get(code=code)
    message = chat.chat_post(game=game, actor=actor(code, tokens[0]), user=None, text="something rude")
    assert chat.chat_hide(message_id=message.pk, by="gm") and not chat.chat_hide(message_id=message.pk, by="gm")
    assert chat.chat_read(game=game, actor=actor(code, None), user=None)["messages"] == []
    assert ChatMessage.objects.get(pk=message.pk).hidden_by == "gm"  # kept, for the record


@pytest.mark.django_db
def test_over_http_with_the_error_shape_and_the_mute_form():
    code, tokens = make_game(players=2)
    client = Client()
    sent = client.post(f"/api/games/{code}/chat", {"text": "Good game!"}, content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert sent.status_code == 201, sent.content
    assert sent.json() | {"id": 0, "created_at": None} == {"id": 0, "seat": 1, "name": "P1", "text": "Good game!", "audience": "table",
                                                           "user": None, "created_at": None}
    read = client.get(f"/api/games/{code}/chat").json()
    assert [m["text"] for m in read["messages"]] == ["Good game!"] and "Good game!" in read["quick_phrases"]
    bad = client.post(f"/api/games/{code}/chat", {"text": "x" * 301}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid-request"
    guest = client.post(f"/api/games/{code}/chat", {"text": "hi"}, content_type="application/json")
    assert guest.status_code == 401 and guest.json()["error"]["code"] == "sign-in-required"
    assert client.get(f"/api/games/{code}/chat?after=x").status_code == 400

    ann, bob = (get_user_model().objects.create_user(n, password="pw-long-enough-1") for n in ("ann", "bob"))
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(ann)
    page = signed_in.get("/players/bob/")
    assert b"Mute bob in chat" in page.content
    token = page.cookies["csrftoken"].value
    assert signed_in.post("/players/bob/mute", {"mute": "1", "csrfmiddlewaretoken": token}).status_code == 302
    assert ChatMute.objects.filter(user=ann, muted=bob).exists()
    assert b"Unmute bob in chat" in signed_in.get("/players/bob/").content
    no_csrf = signed_in.post(f"/api/games/{code}/chat", {"text": "hi"}, content_type="application/json")
    assert no_csrf.status_code == 403  # a signed-in browser writes with its CSRF token
    watching = signed_in.post(f"/api/games/{code}/chat", {"text": "hi from the stands"}, content_type="application/json",
                              HTTP_X_CSRFTOKEN=token)
    assert watching.status_code == 201 and watching.json()["audience"] == "watchers"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_live_over_the_socket_and_hidden_live():
    code, tokens = await database_sync_to_async(make_game)(players=2, options={"target": 50})
    seat0, _ = await connected(code, tokens[0])
    watcher, _ = await connected(code)
    wendy = await database_sync_to_async(get_user_model().objects.create_user)("wendy")

    def post(token, user, text):
        from django.db import transaction

        with transaction.atomic():
            return chat.chat_post(game=Game.objects.get(code=code), actor=actor(code, token), user=user, text=text)

    said = await database_sync_to_async(post)(tokens[1], None, "Your turn!")
    for comm in (seat0, watcher):
        frame = await receive_type(comm, "chat")
        assert frame["message"]["text"] == "Your turn!" and frame["message"]["id"] == said.pk
    await database_sync_to_async(post)(None, wendy, "psst")
    assert (await receive_type(watcher, "chat"))["message"]["audience"] == "watchers"
    await database_sync_to_async(post)(tokens[1], None, "after the aside")
    frame = await receive_type(seat0, "chat")
    assert frame["message"]["text"] == "after the aside"  # the player never got the spectators' aside

    def hide():
        from django.db import transaction

        with transaction.atomic():
            return chat.chat_hide(message_id=said.pk, by="gm")

    await database_sync_to_async(hide)()
    assert json.loads(json.dumps(await receive_type(seat0, "chat-hidden")))["id"] == said.pk
    for comm in (seat0, watcher):
        await comm.disconnect()
