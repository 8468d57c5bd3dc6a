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
