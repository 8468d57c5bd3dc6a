"""A phone whose connection dies (sleep, network loss, server restart) comes back
by itself and shows the current state, without a reload."""

from __future__ import annotations

import httpx
import pytest

from .conftest import start_daphne

pytestmark = pytest.mark.browser


def test_page_reconnects_and_catches_up_without_reload(daphne, new_page):
    server = daphne()
    base = server.url
    created = httpx.post(f"{base}/api/games", json={"kind": "toy", "name": "Ann", "options": {"target": 100}}).json()
    code = created["code"]
    bo = httpx.post(f"{base}/api/games/{code}/seats", json={"name": "Bo"}).json()
    httpx.post(f"{base}/api/games/{code}/start", headers={"Authorization": f"Bearer {created['host_token']}"})

    phone = new_page(width=360, height=740)
    phone.add_init_script(f"localStorage.setItem('junction.tokens', JSON.stringify({{'{code}': {{token: '{bo['token']}', seat: 1}}}}))")
    phone.goto(f"{base}/games/{code}/")
    phone.wait_for_selector("#conn[data-state=open]")
    phone.wait_for_selector("body[data-version='1']")
    phone.evaluate("window.__loads = (window.__loads || 0) + 1")

    server.stop()  # the connection dies
    phone.wait_for_selector("#conn[data-state=closed]")
    server = start_daphne(port=server.port)  # back on the same address
    try:
        tokens = [created["host_token"], bo["token"]]
        for n in range(4):
            response = httpx.post(f"{base}/api/games/{code}/commands", json={"cmd": "add", "n": 1},
                                  headers={"Authorization": f"Bearer {tokens[n % 2]}"})
            assert response.status_code == 200
        phone.wait_for_selector("#conn[data-state=open]", timeout=20_000)
        phone.wait_for_selector("body[data-version='5']")
        assert phone.evaluate("window.__loads") == 1, "caught up without reloading the page"
        assert '"counter": 4' in phone.inner_text("#state-json")
    finally:
        server.stop()


def test_the_live_badge_says_reconnecting_within_3_s_of_a_silent_drop_and_live_after_resync(daphne, new_page):
    """A connection that goes quiet (Wi-Fi gone, server frozen) closes nothing: the page's
    heartbeat notices within 3 s; once frames flow again the badge is live."""
    import os
    import signal
    import time

    server = daphne()
    base = server.url
    created = httpx.post(f"{base}/api/games", json={"kind": "toy", "name": "Ann", "options": {"target": 100}}).json()
    code = created["code"]
    httpx.post(f"{base}/api/games/{code}/seats", json={"name": "Bo"})
    httpx.post(f"{base}/api/games/{code}/start", headers={"Authorization": f"Bearer {created['host_token']}"})
    phone = new_page(width=360, height=740)
    phone.goto(f"{base}/games/{code}/")
    phone.wait_for_selector("#conn[data-state=open]")
    assert phone.inner_text("#conn") == "live"
    phone.wait_for_timeout(1500)  # a heartbeat or two while live: the badge stays live
    assert phone.get_attribute("#conn", "data-state") == "open"

    os.kill(server.proc.pid, signal.SIGSTOP)  # the socket stays open but nothing answers
    try:
        stopped = time.monotonic()
        phone.wait_for_selector("#conn[data-state=closed]", timeout=4000)
        assert time.monotonic() - stopped < 3.5
        assert phone.inner_text("#conn") == "reconnecting…"
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    phone.wait_for_selector("#conn[data-state=open]", timeout=10_000)
    assert phone.inner_text("#conn") == "live"

    # The device going offline drops the socket at once; back online it resyncs and is live.
    phone.context.set_offline(True)
    phone.wait_for_selector("#conn[data-state=closed]", timeout=3000)
    httpx.post(f"{base}/api/games/{code}/commands", json={"cmd": "add", "n": 1},
               headers={"Authorization": f"Bearer {created['host_token']}"})
    phone.context.set_offline(False)
    phone.wait_for_selector("#conn[data-state=open]", timeout=15_000)
    phone.wait_for_selector("body[data-version='2']")
