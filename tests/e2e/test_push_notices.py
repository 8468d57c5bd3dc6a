"""Turn notices over real processes: a Daphne process with VAPID keys, a fake push service in
this test, two signed-in players' seats and moves over HTTP. The push service gets exactly one
notice per turn change of a player with no open socket, and none for a player while their
WebSocket to the game is open (games.SeatSocket, written by the Daphne process)."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import websockets
from django.contrib.auth import get_user_model

from games.models import Game, Seat, SeatSocket
from games.turns import game_watch
from players.models import PushSubscription, TurnNotice
from tests.support.fake_push import FakePushService, vapid_pair

from .conftest import auth


def wait_for(check, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class OpenSocket:
    """A WebSocket to the game held open in a thread of its own (frames read and dropped)."""

    def __init__(self, url: str) -> None:
        self.url, self.done, self.error = url, threading.Event(), None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._hold()), daemon=True)
        self.thread.start()

    async def _hold(self) -> None:
        try:
            async with websockets.connect(self.url) as ws:
                while not self.done.is_set():
                    try:
                        await asyncio.wait_for(ws.recv(), 0.1)
                    except TimeoutError:
                        pass
        except Exception as exc:  # noqa: BLE001 (reported by close())
            self.error = exc

    def close(self) -> None:
        self.done.set()
        self.thread.join(10)
        assert self.error is None, self.error


def test_one_push_per_turn_change_and_none_while_a_socket_is_open(daphne, new_page):
    private, public = vapid_pair()
    push = FakePushService().start()
    try:
        server = daphne(extra_env={"JUNCTION_VAPID_PRIVATE_KEY": private, "JUNCTION_VAPID_PUBLIC_KEY": public})
        url = server.url
        created = httpx.post(f"{url}/api/games", json={"kind": "toy", "name": "Ann", "options": {"target": 9}}).json()
        code = created["code"]
        tokens = [created["token"], httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Bob"}).json()["token"]]

        # Two signed-in players hold the seats (as the accounts pages will do), each with a device.
        users, phones = [], []
        for name in ("ann", "bob"):
            owner = get_user_model().objects.create_user(name, f"{name}@example.com")  # no password: no hashing
            phone = push.device(name)
            PushSubscription.objects.create(user=owner, endpoint=phone.endpoint, **phone.keys)
            users.append(owner)
            phones.append(phone)
        game = Game.objects.get(code=code)
        for index, owner in enumerate(users):
            Seat.objects.filter(game=game, index=index).update(user=owner)
        game_watch(game_id=game.pk)

        expected = [0, 0]

        def pushed() -> list[int]:
            return [len(push.to(phone)) for phone in phones]

        def turn_begins(seat: int) -> None:
            expected[seat] += 1
            wait_for(lambda: pushed() == expected, f"push {expected} (got {pushed()})")

        def move(seat: int) -> None:
            r = httpx.post(f"{url}/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text

        started = httpx.post(f"{url}/api/games/{code}/start", headers=auth(tokens[0]))
        assert started.status_code == 200, started.text
        turn_begins(0)
        for _ in range(2):  # nobody has the game open: a push at every turn change
            move(0)
            turn_begins(1)
            move(1)
            turn_begins(0)
        assert phones[1].decrypt(push.to(phones[1])[0].body)["url"] == f"/games/{code}/"

        # Bob opens the game: while his socket is open, his turns send him nothing; Ann's still do.
        socket = OpenSocket(f"{server.ws_url}/ws/games/{code}/?token={tokens[1]}")
        try:
            wait_for(lambda: SeatSocket.objects.filter(game=game, seat=1).exists(), "Bob's open socket")
            for i in range(2):
                move(0)
                heard = expected[1] + 1 + i
                wait_for(lambda: TurnNotice.objects.filter(game=game, seat=1).count() == heard, "Bob's turn heard")  # noqa: B023
                time.sleep(0.5)  # his turn is still on: only the open socket keeps the notice back
                assert pushed() == expected
                move(1)
                turn_begins(0)
        finally:
            socket.close()
        wait_for(lambda: not SeatSocket.objects.filter(game=game).exists(), "the socket's row gone on disconnect")
        move(0)  # the counter reaches 9: the game ends, nobody's turn begins
        assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
        time.sleep(0.5)
        assert pushed() == expected == [5, 2]
        channels = list(TurnNotice.objects.filter(game=game).order_by("turn_started_at").values_list("seat", "channel"))
        assert channels == [(0, "push"), (1, "push"), (0, "push"), (1, "push"), (0, "push"),
                            (1, "none"), (0, "push"), (1, "none"), (0, "push")]

        page_open_alert(new_page, url)
    finally:
        push.stop()


# What an open page does instead (static/js/junction.js, turnAlert): a guest's seat in another
# game on the same server; Chromium's vibration recorded, the page made to look unfocused.
RECORD = """
window.__vibrations = [];
navigator.vibrate = (ms) => { window.__vibrations.push(ms); return true; };
"""


def page_open_alert(new_page, url: str) -> None:
    created = httpx.post(f"{url}/api/games", json={"kind": "toy", "name": "Cy", "options": {"target": 50}}).json()
    code = created["code"]
    joined = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Di"}).json()
    assert httpx.post(f"{url}/api/games/{code}/start", headers=auth(created["token"])).status_code == 200
    page = new_page()
    page.add_init_script(RECORD)
    page.goto(url + "/")
    page.evaluate("([c, t]) => Junction.saveSeat(c, {token: t, seat: 1})", [code, joined["token"]])
    page.goto(f"{url}/games/{code}/")
    page.wait_for_function("() => Number(document.body.dataset.version) >= 1")
    title = page.title()
    page.mouse.click(5, 200)  # a person used the page: sound and vibration are allowed
    page.evaluate("() => { document.hasFocus = () => false; }")  # Di looks at another tab
    r = httpx.post(f"{url}/api/games/{code}/commands", json={"cmd": "add", "n": 1}, headers=auth(created["token"]))
    assert r.status_code == 200, r.text
    page.wait_for_function("(t) => document.title === '● Your turn — ' + t", arg=title)
    assert page.evaluate("window.__vibrations") == [200]
    page.evaluate("() => { document.hasFocus = () => true; window.dispatchEvent(new Event('focus')); }")
    page.wait_for_function("(t) => document.title === t", arg=title)
