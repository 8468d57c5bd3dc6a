"""The installable companion's endpoints: the web app manifest, the service worker (its headers,
scope and the configuration put before it: the app shell and a version that follows the static
files' contents), the offline page, the links every page carries, and the icons drawn by
scripts/make_icons.py."""

from __future__ import annotations

import json
import re
import struct
import sys
from pathlib import Path

import pytest

from players import install_views

ROOT = Path(__file__).resolve().parents[2]


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def worker_config(text: str) -> dict:
    first, _, rest = text.partition("\n")
    assert first.startswith("self.JUNCTION_SW = ") and first.endswith(";")
    assert "addEventListener(\"fetch\"" in rest  # the worker itself follows
    return json.loads(first[len("self.JUNCTION_SW = "):-1])


def test_the_manifest_makes_the_site_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Junction" and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    # The site's own colours: what static/css/junction.css declares.
    css = (ROOT / "static" / "css" / "junction.css").read_text()
    assert f"--ink: {manifest['theme_color']};" in css and f"--bg: {manifest['background_color']};" in css
    icons = {(i["sizes"], i["purpose"], i["type"]): i["src"] for i in manifest["icons"]}
    assert set(icons) == {("192x192", "any", "image/png"), ("512x512", "any", "image/png"),
                          ("512x512", "maskable", "image/png"), ("any", "any", "image/svg+xml")}
    for (sizes, _purpose, kind), src in icons.items():
        icon = client.get(src)
        assert icon.status_code == 200, src
        data = body(icon)
        if kind == "image/png":  # the PNG's own size is the one the manifest states
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert f"{width}x{height}" == sizes
        else:
            assert data.startswith(b"<svg")


def test_the_service_worker_is_served_from_the_root_with_the_app_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    config = worker_config(response.content.decode())
    shell = set(config["shell"])
    for name in ("css/junction.css", "css/ws_table.css", "js/junction.js", "js/pwa.js", "js/ws_table.js",
                 "js/room.js", "js/offline.js", "img/icon-192.png"):
        assert f"/static/{name}" in shell, name
    assert "/static/js/sw.js" not in shell  # the worker itself is not part of the shell
    assert config["offline"] == "/offline" and config["start"] == "/" and config["static"] == "/static/"
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    # Served again: the same version (the browser sees the same bytes: no needless update).
    assert worker_config(client.get("/sw.js").content.decode())["version"] == config["version"]
    # Only reading methods.
    assert client.post("/sw.js").status_code == 405


def test_the_version_follows_the_files_contents(tmp_path):
    a, b = tmp_path / "a.css", tmp_path / "b.js"
    a.write_text("body { color: red }")
    b.write_text("console.log(1)")
    files = [("css/a.css", a), ("js/b.js", b)]
    first = install_views._version(files)
    assert install_views._version(files) == first
    b.write_text("console.log(2)")  # a deploy changed a script: a new worker, a new cache
    assert install_views._version(files) != first


@pytest.mark.django_db
def test_the_offline_page_says_reconnecting(client):
    response = client.get("/offline")
    assert response.status_code == 200
    text = response.content.decode()
    assert "<h1>Reconnecting…</h1>" in text and "js/offline.js" in text


@pytest.mark.django_db
def test_every_page_links_the_manifest(client):
    text = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in text
    assert f'<meta name="theme-color" content="{install_views.THEME_COLOUR}">' in text
    assert 'rel="apple-touch-icon" href="/static/img/icon-180.png"' in text
    assert "js/pwa.js" in text


def test_the_committed_icons_are_what_the_script_draws():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_icons
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert (make_icons.OUT / "icon.svg").read_text() == make_icons.svg_text(make_icons.ICON)
    name, size, full_bleed, scale = make_icons.PNGS[0]
    assert (make_icons.OUT / name).read_bytes() == make_icons.draw(make_icons.ICON, size, full_bleed, scale).png()
