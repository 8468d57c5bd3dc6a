"""The leak test: hidden information never leaves the server, for every title, against a real Daphne.

Bot games are played through the HTTP API. Every seat and a spectator read the state (``GET …/state``)
after every move; ``get-state`` through ``…/commands`` and through the notes' ``POST /api``, and the log's
last moves, one viewer a move in turn; the WebSocket frames they received all along; at checkpoints and
at the end also the whole log, the replay at every step, the data download (each seat is a signed-in player), the
game's pages, the lobby socket and the admin as a game master who is not a superuser.

What is secret comes from the engine (``Engine.secrets``: each seat's hidden holdings and the decks'
next cards, as probes); what the rules reveal is what the engine's spectator view and its public
events have shown so far. A seat's reads may hold its own secrets and what was revealed, nothing
else: no probe of another seat's (or the deck's) secret, and neither the seed nor any state of the
random generator the game went through, so nothing readable can rebuild a hand or the deck.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from bench.common import UNLIMITED
from games.engines.registry import get_engine, load_builtin_engines
from games.models import Action, Game, Seat

from .conftest import auth, ensure_wood_and_steel_board, in_db_thread, run_async, walk, ws_record

pytestmark = pytest.mark.processes

# title → (players, moves played; the rail titles' moves are long, so fewer)
TITLES = {
    "slipway": (3, 90),
    "resourceful-rails": (3, 60),
    "runerail": (3, 60),
    "wood-and-steel": (3, 60),
    "locomotive-werks": (3, 60),
}


# -- probes ----------------------------------------------------------------------------------


class Index:
    """What a set of JSON documents holds, for probe matching: every (key, scalar) of every dict
    (a list's scalars count under its key), every string, every whole number, and the dicts
    themselves for probes of several keys."""

    def __init__(self) -> None:
        self.pairs: set[tuple[str, Any]] = set()
        self.strings: set[str] = set()
        self.ints: set[int] = set()
        self.dicts: dict[tuple[str, Any], list[dict]] = {}

    def add(self, doc: Any) -> Index:
        stack = [doc]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                actor = node.get("seat", node.get("player_id"))
                if isinstance(node.get("command"), dict) and isinstance(actor, int):
                    # a logged action: its command is its seat's ({"seat", **command}, as views put a seat's things)
                    merged = {**node["command"], "seat": actor}
                    self.dicts.setdefault(("seat", actor), []).append(merged)
                for key, value in node.items():
                    if isinstance(value, (dict, list)):
                        stack.append(value)
                        if isinstance(value, list):
                            for item in value:
                                if _scalar(item):
                                    self.pairs.add((key, item))
                    elif _scalar(value):
                        self.pairs.add((key, value))
                        self.dicts.setdefault((key, value), []).append(node)
                    self._leaf(value)
            elif isinstance(node, list):
                stack.extend(node)
            else:
                self._leaf(node)
        return self

    def _leaf(self, value: Any) -> None:
        if isinstance(value, str):
            self.strings.add(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            self.ints.add(value)

    def holds(self, probe: dict[str, Any]) -> bool:
        if "*" in probe:
            return probe["*"] in self.strings
        items = list(probe.items())
        key, value = items[0]
        if len(items) == 1:
            return _scalar(value) and (key, value) in self.pairs
        candidates = self.dicts.get((key, value), []) if _scalar(value) else []
        return any(all(d.get(k) == v for k, v in items) for d in candidates)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def probe_key(probe: dict[str, Any]) -> str:
    return json.dumps(probe, sort_keys=True)


@dataclass
class Truth:
    """What the test knows from the server's own state (the database), move after move."""

    secrets: dict[Any, dict[str, dict]] = field(default_factory=dict)  # owner (seat or None) → probes ever held
    public: Index = field(default_factory=Index)  # the spectator's views and the public events so far
    rngs: set[int] = field(default_factory=set)  # every state of the random generator
    seed: int = 0

    def learn(self, engine, state: dict, events: list) -> None:
        for owner, probes in engine.secrets(state).items():
            held = self.secrets.setdefault(owner, {})
            for probe in probes:
                held.setdefault(probe_key(probe), probe)
        self.public.add(engine.view(state, seat=None))
        self.public.add(events)
        for _path, key, value in walk(state):
            if key == "rng" and isinstance(value, int):
                self.rngs.add(value)

    def leaks(self, index: Index, viewer: int | None) -> list[str]:
        found = []
        for owner, probes in self.secrets.items():
            if owner == viewer and viewer is not None:
                continue
            mine = self.secrets.get(viewer, {}) if viewer is not None else {}
            for key, probe in probes.items():
                if key in mine or self.public.holds(probe):
                    continue
                if index.holds(probe):
                    found.append(f"{'the deck' if owner is None else f'seat {owner}'}'s {key}")
        if self.seed in index.ints:
            found.append("the seed")
        found += [f"a random generator state {r}" for r in sorted(self.rngs & index.ints)]
        return found


# -- the game --------------------------------------------------------------------------------


def signed_in_cookie(user) -> dict[str, str]:
    """A session for ``user`` in the shared database (what signing in leaves), as the browser's cookie."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value}


def create_game(url: str, kind: str, players: int) -> tuple[str, list[str]]:
    created = httpx.post(f"{url}/api/games", json={"kind": kind, "name": "p0"}).json()
    assert "code" in created, created
    code = created["code"]
    tokens = [created["token"]]
    for i in range(1, players):
        joined = httpx.post(f"{url}/api/games/{code}/seats", json={"name": f"p{i}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


# When make test runs both passes, each title is read once: Wood and Steel (whose read models PostgreSQL writes
# in the move's own statement) and Resourceful Rails on PostgreSQL + Redis, the others on the embedded default.
SECOND_PASS = {"wood-and-steel", "resourceful-rails"}


@pytest.mark.parametrize("kind", [pytest.param(kind, marks=pytest.mark.pass_only(2 if kind in SECOND_PASS else 1))
                                  for kind in sorted(TITLES)])
def test_no_seat_reads_another_seats_secrets_at_any_door(daphne, django_user_model, kind):
    load_builtin_engines()
    engine = get_engine(kind)
    players, moves_wanted = TITLES[kind]
    if kind == "wood-and-steel":
        ensure_wood_and_steel_board()
    server = daphne(extra_env=UNLIMITED)
    code, tokens = create_game(server.url, kind, players)
    users = [django_user_model.objects.create_user(f"leak{i}", f"leak{i}@example.com", "pw-leak-test") for i in range(players)]
    for i, user in enumerate(users):  # each seat a signed-in player (the data download's door)
        Seat.objects.filter(game__code=code, index=i).update(user=user)
    staff = django_user_model.objects.create_user("gm", "gm@example.com", "pw-leak-test", is_staff=True)
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_game", "view_action", "view_seat", "view_contract"]))
    cookies = [signed_in_cookie(u) for u in users]
    staff_cookie = signed_in_cookie(staff)
    assert httpx.post(f"{server.url}/api/games/{code}/start", headers=auth(tokens[0])).status_code == 200

    game = Game.objects.get(code=code)
    truth = Truth(seed=game.seed)
    truth.learn(engine, game.state, [])
    viewers = [*range(players), None]
    token_of = {seat: tokens[seat] for seat in range(players)} | {None: None}
    problems: list[str] = []
    reads = {"count": 0}

    def check(viewer, door: str, doc: Any) -> None:
        reads["count"] += 1
        for leak in truth.leaks(Index().add(doc), viewer):
            problems.append(f"{'spectator' if viewer is None else f'seat {viewer}'} read {leak} at {door}")

    async def read_doors(client: httpx.AsyncClient, version: int) -> None:
        """Every viewer reads the state after every move; the other doors (get-state both ways, the log's last
        moves) one viewer a move in turn, so each viewer reads each of them every few moves (what a move
        reveals stays in the state and the log, which every viewer reads whole at the checkpoints)."""
        for v in viewers:
            headers = auth(token_of[v])
            state = await client.get(f"/api/games/{code}/state", headers=headers)
            assert state.status_code == 200, state.text
            check(v, f"GET state v{version}", state.json())
            if v != viewers[version % len(viewers)]:
                continue
            got = await client.post(f"/api/games/{code}/commands", json={"cmd": "get-state"}, headers=headers)
            if v is not None:
                assert got.status_code == 200, got.text
                check(v, f"get-state v{version}", got.json())
                notes = await client.post("/api", json={"cmd": "get-state", "game": code, "player_id": v}, headers=headers)
                assert notes.status_code == 200, notes.text
                check(v, f"POST /api get-state v{version}", notes.json())
            log = await client.get(f"/api/games/{code}/actions", params={"after": max(0, version - len(viewers) - 1)}, headers=headers)
            assert log.status_code == 200, log.text
            check(v, f"actions v{version}", log.json())

    async def read_everything(client: httpx.AsyncClient, version: int, *, replay: bool) -> None:
        """The doors read at checkpoints: the whole log, every replay step (``replay``: at the last checkpoint,
        while the game is still on, every step so far; a step reads the same whenever it is read until the
        game ends), the download, the pages, the admin."""
        for v in viewers:
            headers = auth(token_of[v])
            check(v, f"the whole log at v{version}", (await client.get(f"/api/games/{code}/actions", headers=headers)).json())
            for step in range(1, version + 1 if replay else 1):
                replayed = await client.get(f"/api/games/{code}/replay", params={"step": step}, headers=headers)
                assert replayed.status_code == 200, replayed.text
                check(v, f"replay step {step} at v{version}", replayed.json())
        for i, cookie in enumerate(cookies):
            download = await client.get("/me/account/download", cookies=cookie)
            assert download.status_code == 200, download.text[:300]
            check(i, f"the data download at v{version}", download.json())
        pages = [f"/games/{code}/", f"/games/{code}/replay", f"/api/games/{code}"]
        for page in pages:
            body = (await client.get(page)).text
            check(None, f"page {page} at v{version}", _words(body) | _json_or_empty(body))
        game_id = await in_db_thread(lambda: Game.objects.get(code=code).pk)
        admin_pages = [f"/admin/games/game/{game_id}/change/", "/admin/games/action/?q=" + code, "/admin/games/game/"]
        if kind == "wood-and-steel":  # the companion's read model: every contract, private ones too
            admin_pages.append("/admin/companion/contract/?q=" + code)
        for page in admin_pages:
            response = await client.get(page, cookies=staff_cookie)
            assert response.status_code == 200, (page, response.status_code)
            check(None, f"admin {page} at v{version}", _words(response.text))

    async def scenario() -> int:
        frames = {v: [] for v in viewers}
        lobby: list = []
        stop = asyncio.Event()
        listeners = [asyncio.create_task(ws_record(server.ws_url, f"/ws/games/{code}/" + (f"?token={token_of[v]}" if token_of[v] else ""), frames[v], stop))
                     for v in viewers]
        listeners.append(asyncio.create_task(ws_record(server.ws_url, "/ws/lobby/", lobby, stop)))
        await asyncio.sleep(0.5)
        rng = random.Random(29)
        moves = 0
        replayed = False
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            while moves < moves_wanted:
                game = await in_db_thread(lambda: Game.objects.get(code=code))
                active = engine.active_seats(game.state)
                if game.status != "active" or not active:
                    break
                seat = active[0]
                command = engine.bot_command(game.state, seat=seat, bot=engine.bot_default(), rng=rng)
                ahead = copy.deepcopy(game.state)
                engine.apply(ahead, seat=seat, command=command)
                if engine.is_finished(ahead) and not replayed:  # the last move: every replay step while it is still secret
                    await read_everything(client, game.version, replay=True)
                    replayed = True
                answer = await client.post(f"/api/games/{code}/commands", json=command, headers=auth(tokens[seat]))
                assert answer.status_code == 200, (command, answer.text)
                moves += 1
                game = await in_db_thread(lambda: Game.objects.get(code=code))
                game_id, version = game.pk, game.version
                events = await in_db_thread(lambda game_id=game_id, version=version: list(
                    Action.objects.filter(game_id=game_id, sequence=version).values_list("events", flat=True)))
                truth.learn(engine, game.state, [_public_events(engine, e) for e in events])
                check(seat, f"the answer to {command['cmd']} v{game.version}", answer.json())
                await read_doors(client, game.version)
                if moves in (moves_wanted // 2,):
                    await read_everything(client, game.version, replay=False)
            last = await in_db_thread(lambda: Game.objects.get(code=code))
            await read_everything(client, last.version, replay=not replayed)
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*listeners)
        for v in viewers:
            assert any(f.get("type") == "state" for f in frames[v]), v  # followed the game live
            for frame in frames[v]:
                check(v, f"a WebSocket frame v{frame.get('version')}", frame)
        for frame in lobby:
            check(None, "the lobby socket", frame)
        return moves

    moves = run_async(scenario, timeout=900)
    assert moves >= 20, moves
    secrets_held = sum(len(p) for owner, p in truth.secrets.items() if owner is not None)
    if kind != "locomotive-werks":  # Locomotive Werks has no hidden holdings: its secrets are the dice (the seed)
        assert secrets_held > 0, "the test saw no secret at all"
    assert truth.rngs and reads["count"] > moves * len(viewers)
    assert not problems, "\n".join(problems[:40])


def _public_events(engine, events: list) -> list:
    """A move's events as a spectator reads them (the engine's own declaration of its private fields)."""
    return engine.redact_action({"cmd": "?"}, events, actor=None, viewer=None)[1]


def _words(text: str) -> dict:
    """A page's text as what probes look for: its words (ids are words) and its whole numbers."""
    return {"words": re.findall(r"[A-Za-z0-9_-]+", text), "numbers": [int(n) for n in re.findall(r"\d+", text)]}


def _json_or_empty(body: str) -> dict:
    try:
        doc = json.loads(body)
    except ValueError:
        return {}
    return {"json": doc}
