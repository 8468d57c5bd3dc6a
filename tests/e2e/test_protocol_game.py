"""A whole Runerail game played through ``POST /api`` alone, the server notes' protocol, with a plain HTTP
client (urllib) against Daphne: the lobby routes create the game and its two seats, then every move is a
notes-style body ``{"cmd", "game", "player_id", ...}`` with the seat's token as a Bearer header.

The client decides each command as a third party would: it keeps a replica of the game (the engine with
the same seed and options, applying what it sends) and asks the engine's planner bot. Every answer must be
``{"response": "<cmd>-response", "status": "ok"}`` at the next version; every few commands the notes'
get-state must agree with the replica (turn, gold, track, the log), and the game ends with the replica's
winner. Seed 2, seated: a planner-against-planner game of 259 commands (``games.engines.runerail.simulate
--bots planner,planner --seed 2 --option turn_order=seated``)."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

from games.engines.runerail.rules import Runerail
from games.models import Game

ENGINE = Runerail()
SEED = 2
OPTIONS = {"turn_order": "seated"}
NAMES = ["Ann", "Bo"]
CHECK_EVERY = 20
MAX_COMMANDS = 1500


def call(url: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    """POST ``body`` as JSON (GET without one); the status and the JSON answer, errors included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def links(track: list) -> list[set]:
    return [{tuple(map(tuple, link)) for link in mine} for mine in track]


def replica_links(state: dict) -> list[set]:
    from games.engines.runerail import data

    m = data.core().map
    out: list[set] = [set() for _ in state["players"]]
    for key, owner in state["rail"]["track"].items():
        a, b = m.edge_nodes[key]
        out[owner].add((tuple(m.address(a)), tuple(m.address(b))))
    return out


def agrees(document: dict, replica: dict, version: int) -> None:
    assert document["turn"] == replica["turn_no"] and document["round"] == replica["round"]
    assert [p["gold"] for p in document["players"]] == [p["gold"] for p in replica["players"]]
    assert links(document["track"]) == replica_links(replica)
    assert [p["loads"] for p in document["players"]] == [p["loads"] for p in replica["players"]]
    assert [c["sequence"] for c in document["commands"]] == list(range(1, version + 1))


def test_a_whole_runerail_game_through_post_api_alone(daphne):
    url = daphne().url
    status, created = call(url, "/api/games", {"kind": "runerail", "name": NAMES[0], "options": OPTIONS})
    assert status == 201, created
    code = created["code"]
    status, joined = call(url, f"/api/games/{code}/seats", {"name": NAMES[1]})
    assert status == 201, joined
    tokens = [created["token"], joined["token"]]
    Game.objects.filter(code=code).update(seed=SEED)  # the replica's seed, set before the start
    status, started = call(url, f"/api/games/{code}/start", {}, created["host_token"])
    assert status == 200 and started["version"] == 1, started

    replica = ENGINE.setup(players=NAMES, options=OPTIONS, seed=SEED)
    status, first = call(url, "/api", {"cmd": "get-state", "game": code, "player_id": 0}, tokens[0])
    assert status == 200 and first["state"]["geography"]["layout"] == "odd-r"
    assert [c["id"] for c in first["state"]["you"]["demand_cards"]] == replica["players"][0]["hand"]
    agrees(first["state"], replica, 1)

    rng = random.Random(SEED)
    version = 1
    last: dict = {}
    while not replica["finished"]:
        assert version < MAX_COMMANDS, "the game did not end"
        seat = ENGINE.active_seats(replica)[0]
        command = ENGINE.bot_command(replica, seat=seat, bot="planner", rng=rng)
        status, last = call(url, "/api", {**command, "game": code, "player_id": seat}, tokens[seat])
        assert status == 200, (version, command, last)
        assert (last["response"], last["status"], last["version"]) == (f"{command['cmd']}-response", "ok", version + 1)
        ENGINE.apply(replica, seat=seat, command=command)
        version += 1
        if version % CHECK_EVERY == 0:
            asker = version // CHECK_EVERY % 2  # each seat in turn, and its own hand
            status, got = call(url, "/api", {"cmd": "get-state", "game": code, "geography": False}, tokens[asker])
            assert status == 200 and got["version"] == version and "geography" not in got["state"]
            agrees(got["state"], replica, version)
            assert [c["id"] for c in got["state"]["you"]["demand_cards"]] == replica["players"][asker]["hand"]
            assert got["state"]["commands"][-1] == {"sequence": version, "player_id": seat, "command": command}

    assert {"type": "game-over", "winners": replica["winners"], "reason": "won"} in last["events"]
    status, end = call(url, "/api", {"cmd": "get-state", "game": code, "geography": False})
    assert status == 200 and end["seat"] is None and end["legal_commands"] == []
    assert end["state"]["phase"] == "finished" and end["state"]["winner"] == replica["winners"][0]
    agrees(end["state"], replica, version)
    # the game is over: the protocol refuses another move with the platform's error shape
    status, refused = call(url, "/api", {"cmd": "end-turn", "game": code, "player_id": 0}, tokens[0])
    assert status in (400, 409) and refused["status"] == "error" and refused["error"]["code"] and refused["error"]["message"]
    assert Game.objects.get(code=code).status == "finished"
    print(f"runerail through POST /api: {version - 1} commands, winner seat {replica['winners'][0]}")
