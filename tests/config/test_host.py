"""`make host`: the settings a hosted table runs with, the LAN address and the banner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import lan

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_JSON = (
    "import django, json; django.setup(); from django.conf import settings as s; print(json.dumps({"
    "'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'static': s.STORAGES['staticfiles']['BACKEND'], "
    "'finders': s.WHITENOISE_USE_FINDERS, 'key': s.SECRET_KEY, 'csrf': s.CSRF_TRUSTED_ORIGINS}))"
)


def host_settings(**env: str) -> subprocess.CompletedProcess:
    drop = {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DJANGO_DEBUG",
            "JUNCTION_HOST", "JUNCTION_PUBLIC_URL"}
    base = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run(
        [sys.executable, "-c", SETTINGS_JSON], cwd=ROOT, env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True, text=True, timeout=60,
    )


def test_host_mode_is_debug_off_with_compressed_static_files_and_the_lan_hosts():
    out = host_settings(JUNCTION_HOST="1")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["debug"] is False
    assert got["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage" and got["finders"] is False
    assert {"localhost", "127.0.0.1"} <= set(got["hosts"]) and "*" not in got["hosts"]
    address = lan.lan_address()
    if address is not None:
        assert address in got["hosts"]
    # Its own secret key, kept between starts: never the public development key.
    assert got["key"] != "insecure-development-key-do-not-use-in-production" and len(got["key"]) >= 50
    again = json.loads(host_settings(JUNCTION_HOST="1").stdout)
    assert again["key"] == got["key"]


def test_plain_development_is_unchanged():
    got = json.loads(host_settings().stdout)
    assert got["debug"] is True and got["hosts"] == ["*"] and got["finders"] is True
    assert got["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_a_public_url_is_an_allowed_host_and_a_trusted_origin():
    got = json.loads(host_settings(JUNCTION_HOST="1", JUNCTION_PUBLIC_URL="https://table.example.org/").stdout)
    assert "table.example.org" in got["hosts"] and got["csrf"] == ["https://table.example.org"]


def test_unsafe_set_ups_are_refused():
    out = host_settings(JUNCTION_HOST="1", DJANGO_ENV="production", DJANGO_SECRET_KEY="s" * 50)
    assert out.returncode != 0 and "not for DJANGO_ENV=production" in out.stderr
    out = host_settings(JUNCTION_PUBLIC_URL="table.example.org")
    assert out.returncode != 0 and "JUNCTION_PUBLIC_URL must start with http" in out.stderr


@pytest.mark.parametrize(
    ("name", "loopback"),
    [("localhost", True), ("127.0.0.1", True), ("127.0.1.1", True), ("[::1]", True), ("app.localhost", True),
     ("LOCALHOST", True), ("192.168.1.20", False), ("table.example.org", False), ("10.0.0.5", False)],
)
def test_loopback_host_names(name, loopback):
    assert lan.is_loopback_host(name) is loopback


def test_usable_addresses():
    assert lan.usable("192.168.1.20") and lan.usable("10.1.2.3") and lan.usable("192.0.2.2")
    assert not any(map(lan.usable, ["127.0.0.1", "169.254.3.4", "0.0.0.0", "fd00::2", "nonsense"]))


def test_lan_address_takes_the_routes_answer_and_falls_back_to_the_interfaces(monkeypatch):
    monkeypatch.setattr(lan, "route_address", lambda probe: "192.168.7.9" if probe.startswith("192.168") else None)
    assert lan.lan_address() == "192.168.7.9"
    monkeypatch.setattr(lan, "route_address", lambda probe: None)  # no route at all
    monkeypatch.setattr(lan, "interface_addresses", lambda: ["127.0.0.1", "10.4.4.4"])
    assert lan.lan_address() == "10.4.4.4"
    monkeypatch.setattr(lan, "interface_addresses", lambda: ["127.0.0.1"])
    assert lan.lan_address() is None


def test_the_route_is_asked_without_sending_anything():
    """A UDP connect only consults the routing table: the socket never sends, and on this machine
    the answer is one of its own interfaces' addresses (or nothing)."""
    address = lan.route_address(lan.PROBES[0])
    assert address is None or address in lan.interface_addresses() or address == "0.0.0.0"


def test_the_banner_prints_the_address_and_its_qr_code():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import host
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert host.table_url(8000, "192.168.1.20") == "http://192.168.1.20:8000/"
    assert host.table_url(8000, "192.168.1.20", "https://t.example.org/") == "https://t.example.org/"
    text = host.banner("http://192.168.1.20:8000/", 8000)
    assert "http://192.168.1.20:8000/" in text and "█" in text  # the QR code, drawn in the terminal
    assert "no address on a local network" in host.banner(host.table_url(8000, None), 8000)
