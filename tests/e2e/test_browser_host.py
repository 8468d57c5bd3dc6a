"""`make host` as a table uses it: Daphne on every interface in host mode, the table screen opened
at localhost on the laptop, and a phone following the join link the page shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from config.lan import is_loopback_host, lan_address

from .conftest import ROOT, create_game, database_env

pytestmark = pytest.mark.browser


def test_the_table_screen_at_localhost_shows_a_join_link_phones_can_open(daphne, new_page, tmp_path):
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no IPv4 address but loopback (ip -4 addr): no LAN address to link to")
    env = {"JUNCTION_HOST": "1", "JUNCTION_PUBLIC_URL": "", "JUNCTION_STATIC_ROOT": str(tmp_path / "static"),
           "DJANGO_ALLOWED_HOSTS": ""}
    # What `make host` does first: the static files, hashed and compressed (DEBUG is off).
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT, env={**os.environ, **database_env(), **env}, capture_output=True, text=True, timeout=300,
    )
    assert collected.returncode == 0, collected.stderr
    server = daphne(extra_env=env, bind="0.0.0.0")
    table = new_page(width=1920, height=1080)
    code = create_game(table, f"http://localhost:{server.port}", kind="toy", name=None)
    join_url = table.get_attribute("#join-url", "href")
    shown = urlsplit(join_url)
    assert not is_loopback_host(shown.hostname), f"the join link points at this laptop only: {join_url}"
    assert (shown.hostname, shown.port, shown.path) == (address, server.port, f"/join/{code}")
    assert table.inner_text("#join-url") == join_url
    # The static files came compressed and hashed (whitenoise's manifest storage), not from finders.
    css = table.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href)")
    assert css and all(re.search(r"\.[0-9a-f]{12}\.css$", href) for href in css), css
    sheet = table.request.get(css[0], headers={"accept-encoding": "gzip"})
    assert sheet.ok and sheet.headers.get("content-encoding") == "gzip"
    assert "max-age=315360000" in sheet.headers.get("cache-control", "")  # hashed: cached for good

    # A phone on the LAN opens that link (the server answers on the LAN address) and takes a seat.
    phone = new_page(width=360, height=740)
    phone.goto(join_url)
    phone.fill("#join-name", "Bo")
    phone.click("text=Take a seat")
    phone.wait_for_url(f"**/games/{code}/")
    table.wait_for_selector("#seat-list li[data-seat='0']")
    assert table.locator("#seat-list li").all_inner_texts()[0].startswith("Bo")
