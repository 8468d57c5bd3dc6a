"""A hand-written hostile corpus against a real Daphne, over HTTP and over WebSocket frames:
nested JSON, NUL, bidirectional overrides, overlong strings, wrong types, huge integers,
duplicate keys, invalid UTF-8 and Unicode look-alikes in every field and every path parameter.

Every answer is below 500; every error under /api (and every socket error) is the JSON shape
with a code; a refused request leaves the game's log as it was; a socket survives every bad
frame. The counts are printed (docs/PERFORMANCE.md records them)."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from urllib.parse import quote

import httpx
import pytest
import websockets

from bench.common import UNLIMITED

from .conftest import auth, run_async, toy_game, ws_next, ws_state

pytestmark = pytest.mark.processes


HOSTILE_STRINGS = [
    "\x00", "a\x00b", "\u202eevil\u202c", "\u2066x\u2069", "\u200b", "\ufeffBOM", "\u0007bell", "\r\nX-Injected: 1",
    "x" * 10_000, "ＡＢＣＤＥ", "АВСDЕ", "𝐀𝐁𝐂", "🙂" * 50, "' OR 1=1 --", "../../../etc/passwd", "%00", "<script>alert(1)</script>",
    "", " ", "null",
]
WRONG_TYPES = [5, -1, 0, 2**63, 10**40, -(10**40), 1.5, 1e308, True, False, None, [], {}, ["a"], {"a": 1}]
HOSTILE_VALUES = [*HOSTILE_STRINGS, *WRONG_TYPES]
RAW_BODIES = [
    b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000, b"[" * 100_000,
    b'{"cmd": "add", "cmd": "pass", "n": 1}', b'{"name": "Ann", "name": "\\u202eBob"}',
    b"\xff\xfe\x00", b"\xef\xbb\xbf{}", b"", b"null", b"[]", b'"string"', b"1e999999", b"NaN", b'{"n": 1e999}',
    b'{"cmd": "\\ud800"}', b'{"n": 123456789012345678901234567890}',
]


def legal_looking(field: str, value) -> bool:
    """Whether ``{"cmd": "add", "n": 1, field: value}`` might be a legal move of the toy game
    (then the seat on turn would rightly move: not a hostile request)."""
    if field == "n":
        return type(value) is int and 1 <= value <= 3
    if field == "command_id":
        return isinstance(value, str) and 0 < len(value.strip()) and len(value) <= 64 and "\x00" not in value
    if field == "expected_version":
        return value is None or (type(value) is int and value >= 0)
    return False


class Tally:
    def __init__(self) -> None:
        self.statuses: Counter = Counter()
        self.failures: list[str] = []

    def check(self, what: str, response: httpx.Response, api: bool) -> None:
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.failures.append(f"{what} -> {response.status_code} {response.text[:120]!r}")
        elif api and response.status_code >= 400:
            try:
                body = response.json()
                ok = body["status"] == "error" and body["error"]["code"] and body["error"]["message"]
            except Exception:  # noqa: BLE001 - not JSON, or not the shape
                ok = False
            if not ok:
                self.failures.append(f"{what} -> {response.status_code} not the error shape: {response.text[:120]!r}")


def log_of(client: httpx.Client, code: str) -> tuple[int, list]:
    state = client.get(f"/api/games/{code}/state").json()
    return state["version"], [a["sequence"] for a in client.get(f"/api/games/{code}/actions").json()]


def test_hostile_http_corpus_gets_no_5xx_and_changes_no_log(daphne):
    server = daphne(extra_env=UNLIMITED)
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    tally = Tally()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        lobby = client.post("/api/games", json={"kind": "toy", "name": "Host"}).json()
        before = log_of(client, code)

        # Every path parameter that names a game.
        routes = [("GET", "/api/games/{}"), ("POST", "/api/games/{}/seats"), ("POST", "/api/games/{}/start"),
                  ("GET", "/api/games/{}/state"), ("POST", "/api/games/{}/commands"), ("GET", "/api/games/{}/actions"),
                  ("GET", "/api/games/{}/replay"), ("GET", "/api/wood-and-steel/games/{}/board"),
                  ("GET", "/games/{}/"), ("GET", "/join/{}"), ("GET", "/games/{}/replay"), ("GET", "/games/{}/qr.svg"),
                  ("GET", "/games/{}/table"), ("GET", "/api/games/{}/chat"), ("POST", "/api/games/{}/chat"),
                  ("POST", "/api/games/{}/rematch"), ("POST", "/api/games/{}/listing"), ("POST", "/api/games/{}/seats/me/resign")]
        for value in [*HOSTILE_STRINGS, "A" * 300, "ABCDE\x00", "abcde", "12345"]:
            for method, route in routes:
                path = route.format(quote(value, safe=""))
                response = client.request(method, path, json={"name": "Ann"} if method == "POST" else None,
                                          headers=auth(tokens[0]))
                tally.check(f"{method} {route} code={value[:20]!r}", response, route.startswith("/api/"))

        # Every free-text path parameter: a player's name, a kind, the admin's object ids, allauth's
        # key (a NUL there reached PostgreSQL from /players/NAME/: a 500).
        free_text = [("GET", "/players/{}/", False), ("GET", "/ratings/{}/", False), ("GET", "/api/kinds/{}/content", True),
                     ("GET", "/accounts/password/reset/key/1-{}/", False), ("GET", "/admin/games/game/{}/change/", False),
                     ("GET", "/admin/r/1/{}/", False)]
        for value in [*HOSTILE_STRINGS, "A" * 300, "ann\x00", "toy\x00"]:
            for method, route, api in free_text:
                path = route.replace("{}", quote(value, safe=""))
                response = client.request(method, path)
                tally.check(f"{method} {route} value={value[:20]!r}", response, api)
                if "\x00" in value:
                    assert response.status_code == 404, (path, response.status_code)

        # The fantasy rail notes' protocol: a player_id with no credentials at all is 401, not 403.
        for player_id in (0, 1, 99):
            for cmd in ("add", "get-state"):
                response = client.post("/api", json={"cmd": cmd, "n": 1, "game": code, "player_id": player_id})
                tally.check(f"POST /api player_id={player_id} no token", response, True)
                assert response.status_code == 401 and response.json()["error"]["code"] == "token-required", response.text

        # Every field of every body, and every query parameter.
        bodies = {
            "/api/games": {"kind": "toy", "name": "Ann", "color": "vermilion", "options": {"target": 10}},
            "/api/games ": {"kind": "toy", "name": "Ann", "bank_seconds": 600, "increment_seconds": 20},  # a time bank
            f"/api/games/{code}/chat": {"text": "Good move!"},
            f"/api/games/{lobby['code']}/seats": {"name": "Bo", "color": "blue"},
            f"/api/games/{code}/commands": {"cmd": "add", "n": 1, "command_id": "c-1", "expected_version": before[0]},
        }
        for path, body in bodies.items():
            path = path.strip()  # (a second body for one path: its key has a space after it)
            for field in body:
                for value in HOSTILE_VALUES:
                    response = client.post(path, json={**body, field: value}, headers=auth(tokens[1]))
                    tally.check(f"POST {path} {field}={value!r:.30}", response, True)
            for raw in RAW_BODIES:
                response = client.post(path, content=raw, headers={**auth(tokens[1]), "Content-Type": "application/json"})
                tally.check(f"POST {path} raw={raw[:30]!r}", response, True)
        # The seat on turn is tokens[0]: hostile commands from it must not change the log either,
        # except a well-formed legal one (none of these is both).
        for value in HOSTILE_VALUES:
            for field in ("n", "cmd", "command_id", "expected_version"):
                body = {"cmd": "add", "n": 1, field: value}
                if legal_looking(field, value):
                    continue  # could be a legal move: not what this loop is about
                response = client.post(f"/api/games/{code}/commands", json=body, headers=auth(tokens[0]))
                tally.check(f"POST commands {field}={value!r:.30} (on turn)", response, True)
        for query in ("after", "step"):
            for value in [*HOSTILE_STRINGS, "-1", "1e9", str(10**40), "0x10", "1.5"]:
                for route in ("actions", "replay"):
                    response = client.get(f"/api/games/{code}/{route}", params={query: value})
                    tally.check(f"GET {route}?{query}={value[:20]!r}", response, True)
        for header in ("Bearer \x00", "Bearer " + "x" * 5000, "Basic abc", "Bearer \u202e", "bearer"):
            try:
                response = client.get(f"/api/games/{code}/state", headers={"Authorization": header})
            except (httpx.LocalProtocolError, UnicodeEncodeError):  # the client refuses to send it
                continue
            tally.check(f"Authorization {header[:20]!r}", response, True)

        # A player's away period takes a signed-in session: hostile bodies without one are 401, never more.
        for value in HOSTILE_VALUES:
            response = client.post("/api/me/away", json={"days": value})
            tally.check(f"POST /api/me/away days={value!r:.30}", response, True)
            assert response.status_code in (401, 403), response.text

        # What chat kept of it is clean text: NFC, no control or format characters.
        assert client.post(f"/api/games/{code}/chat", json={"text": "Good move!"}, headers=auth(tokens[1])).status_code == 201
        kept = client.get(f"/api/games/{code}/chat", headers=auth(tokens[1])).json()["messages"]
        assert kept and any(m["text"] == "Good move!" for m in kept)
        for message in kept:
            text = message["text"]
            assert unicodedata.is_normalized("NFC", text), text
            assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in text), repr(text)

        after = log_of(client, code)
    assert not tally.failures, "\n".join(tally.failures[:30])
    assert after == before, "a refused request changed the log"
    print(f"\nhostile HTTP corpus: {sum(tally.statuses.values())} requests, statuses {dict(sorted(tally.statuses.items()))}, 5xx 0")


def test_hostile_websocket_frames_each_get_a_coded_error_and_change_nothing(daphne):
    server = daphne(extra_env=UNLIMITED)
    game = toy_game(server.url)
    code, tokens = game["code"], game["tokens"]
    before = httpx.get(f"{server.url}/api/games/{code}/state").json()["version"]
    frames: list[str] = []
    for field in ("cmd", "n", "command_id", "expected_version"):
        for value in HOSTILE_VALUES:
            if not legal_looking(field, value):
                frames.append(json.dumps({"cmd": "add", "n": 1, field: value}))
    frames += [raw.decode("utf-8", "replace") for raw in RAW_BODIES if raw.strip()]
    codes: Counter = Counter()

    async def scenario():
        async with websockets.connect(f"{server.ws_url}/ws/games/{code}/?token={tokens[0]}", max_size=None) as ws:
            await ws_state(ws, before)
            for frame in frames:
                await ws.send(frame)
                message = await ws_next(ws, lambda m: m.get("type") in ("error", "result"))
                assert message["type"] == "error", (frame[:60], message)
                assert message["error"]["code"] and message["error"]["message"], message
                assert message["error"]["code"] != "internal-error", (frame[:60], message)
                codes[message["error"]["code"]] += 1
            await ws.send(json.dumps({"cmd": "get-state"}))
            return (await ws_state(ws, 0))["version"]

    assert run_async(scenario, timeout=120) == before  # alive after all of it, and unchanged
    # A socket asked for on a hostile path is refused cleanly, never a 500.
    for value in ("\x00", "\u202e", "A" * 300, "../x", "ＡＢＣＤＥ"):
        async def refused(value=value):
            try:
                async with websockets.connect(f"{server.ws_url}/ws/games/{quote(value, safe='')}/") as ws:
                    message = json.loads(await ws.recv())
                    return message["error"]["code"]
            except websockets.InvalidStatus as exc:
                return exc.response.status_code
        outcome = run_async(refused)
        assert outcome in (403, 404, "not-found"), (value, outcome)
    print(f"\nhostile WebSocket frames: {len(frames)} sent, error codes {dict(codes)}, internal errors 0")
