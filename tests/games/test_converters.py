"""Every route with a game code takes only what can be a code (``<gamecode:code>``): a NUL,
an overlong code or odd characters are a 404 (the API's JSON error under /api, the 404 page
elsewhere, a refused handshake on the WebSocket) without a query; lower case still works."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from games.converters import GameCodeConverter
from games.tokens import CODE_ALPHABET, CODE_LENGTH, NEW_CODE_ALPHABET, new_join_code

from .factories import make_game

BAD_CODES = [
    "AB%00CD",  # NUL: PostgreSQL refuses it in a query (was a 500)
    "%00",
    "ABCDEF",  # overlong
    "ABCD" * 300,
    "ABCD",  # short
    "AB-CD",
    "ABCD%C3%89",  # É
    "ABCD%20",
    "ABCD0",  # not in the alphabet (no 0/O, 1/I/L)
    "ABCDI",
    "AB%2FCD",  # an encoded slash
]
API_ROUTES = [
    ("get", "/api/games/{}"),
    ("post", "/api/games/{}/seats"),
    ("post", "/api/games/{}/start"),
    ("get", "/api/games/{}/state"),
    ("post", "/api/games/{}/commands"),
    ("get", "/api/games/{}/actions"),
    ("get", "/api/games/{}/replay"),
    ("get", "/api/wood-and-steel/games/{}/board"),
]
PAGE_ROUTES = ["/join/{}", "/games/{}/", "/games/{}/replay", "/games/{}/qr.svg", "/games/{}/table"]


def test_the_converter_takes_every_code_in_either_case_and_nothing_else():
    pattern = re.compile(GameCodeConverter.regex)
    for _ in range(200):
        code = new_join_code()
        assert pattern.fullmatch(code) and pattern.fullmatch(code.lower())
    assert GameCodeConverter().to_python("kxqpm") == "KXQPM"
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        assert bool(pattern.fullmatch(letter * CODE_LENGTH)) == (letter in CODE_ALPHABET), letter
    for bad in ("ABCD\x00", "ABCDEF", "ABCD", "ABCD\n", "ÀBCDE", "ABCD5", " ABCD"):
        assert not pattern.fullmatch(bad), bad


def test_new_join_codes_are_consonants_only_and_older_codes_still_reach_their_games():
    codes = {new_join_code() for _ in range(2000)}
    assert set("".join(codes)) == set(NEW_CODE_ALPHABET)  # every consonant is used ...
    assert not set("".join(codes)) & set("AEIOUY")  # ... and no vowel, so no code spells a word
    assert GameCodeConverter().to_python("cencr") == "CENCR"  # a game made before keeps its code


@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD_CODES)
def test_bad_codes_are_json_404_under_api_without_a_query(api_client, django_assert_num_queries, bad):
    for method, route in API_ROUTES:
        with django_assert_num_queries(0):
            response = getattr(api_client, method)(route.format(bad), HTTP_AUTHORIZATION="Bearer t")
        assert response.status_code == 404, (route, bad, response.content[:200])
        body = response.json()
        assert body["status"] == "error" and body["error"]["code"] == "not-found" and body["error"]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD_CODES)
def test_bad_codes_are_the_404_page_elsewhere_without_a_query(client, django_assert_num_queries, bad):
    for route in PAGE_ROUTES:
        with django_assert_num_queries(0):
            response = client.get(route.format(bad))
        assert response.status_code == 404, (route, bad)
        assert not response["Content-Type"].startswith("application/json")


@pytest.mark.django_db
def test_lower_case_codes_still_reach_the_game(api_client, client):
    code, _ = make_game(kind="wood-and-steel", players=2)
    lower = code.lower()
    assert api_client.get(f"/api/games/{lower}").json()["code"] == code
    assert api_client.get(f"/api/games/{lower}/state").status_code == 200
    assert api_client.get(f"/api/wood-and-steel/games/{lower}/board").status_code == 200
    for route in PAGE_ROUTES:
        assert client.get(route.format(lower)).status_code == 200, route
    assert reverse("join", args=[code]) == f"/join/{code}"
    # a well-formed code of no game is the API's own answer, as before
    missing = "ZZZZZ" if code != "ZZZZZ" else "YYYYY"
    assert api_client.get(f"/api/games/{missing}").json()["error"]["code"] == "game-not-found"


def ws(path: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websocket_bad_codes_are_refused_before_any_consumer():
    for bad in ("AB%00CD", "ABCDEF", "AB-CD", "ABCD%C3%89", "ABCD0"):
        comm = ws(f"/ws/games/{bad}/")
        connected, _ = await comm.connect()
        assert not connected, bad
        await comm.wait()
    comm = ws("/ws/nothing-here/")
    connected, _ = await comm.connect()
    assert not connected
    await comm.wait()
    code, tokens = await database_sync_to_async(make_game)()
    comm = ws(f"/ws/games/{code.lower()}/?token={tokens[0]}")
    connected, _ = await comm.connect()
    assert connected
    await comm.disconnect()
