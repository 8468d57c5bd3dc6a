"""Join links and QR codes carry the address phones reach (games/links.py)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from games import links

from .factories import make_game


def request_at(host: str, secure: bool = False):
    return RequestFactory().get("/games/ABCDE/", HTTP_HOST=host, secure=secure)


@pytest.fixture
def on_the_lan(monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")


def test_a_hosted_table_opened_at_localhost_links_to_the_lan_address_and_the_same_port(settings, on_the_lan):
    settings.JUNCTION_HOST, settings.JUNCTION_PUBLIC_URL, settings.ALLOWED_HOSTS = True, "", ["*"]
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        assert links.public_url(request_at(host), "/join/ABCDE") == "http://192.168.1.20:8000/join/ABCDE"
    assert links.public_url(request_at("localhost"), "/join/ABCDE") == "http://192.168.1.20/join/ABCDE"
    # Opened at an address phones reach already: that one.
    assert links.public_url(request_at("192.168.1.20:8000"), "/join/X") == "http://192.168.1.20:8000/join/X"
    assert links.public_url(request_at("table.lan:9000"), "/join/X") == "http://table.lan:9000/join/X"


def test_the_public_url_wins(settings, on_the_lan):
    settings.JUNCTION_HOST, settings.JUNCTION_PUBLIC_URL, settings.ALLOWED_HOSTS = True, "https://t.example.org", ["*"]
    assert links.public_url(request_at("localhost:8000"), "/join/ABCDE") == "https://t.example.org/join/ABCDE"
    settings.JUNCTION_HOST = False
    assert links.public_url(request_at("10.0.0.1:8000"), "/join/ABCDE") == "https://t.example.org/join/ABCDE"


def test_plain_development_and_a_machine_without_a_lan_keep_the_requests_address(settings, monkeypatch):
    settings.JUNCTION_HOST, settings.JUNCTION_PUBLIC_URL, settings.ALLOWED_HOSTS = False, "", ["*"]
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")
    assert links.public_url(request_at("127.0.0.1:8000"), "/join/A") == "http://127.0.0.1:8000/join/A"
    settings.JUNCTION_HOST = True
    monkeypatch.setattr(links, "lan_address", lambda: None)  # only loopback: nothing better to offer
    assert links.public_url(request_at("localhost:8000"), "/join/A") == "http://localhost:8000/join/A"


@pytest.mark.django_db
def test_the_waiting_room_opened_at_localhost_shows_the_lan_join_link_and_qr(client, settings, on_the_lan):
    import segno

    settings.JUNCTION_HOST, settings.JUNCTION_PUBLIC_URL, settings.ALLOWED_HOSTS = True, "", ["localhost", "192.168.1.20"]
    code, _ = make_game(start=False)
    page = client.get(f"/games/{code}/", HTTP_HOST="localhost:8000").content.decode()
    lan_link = f"http://192.168.1.20:8000/join/{code}"
    assert f'href="{lan_link}"' in page and "localhost:8000/join" not in page
    # The QR code in the page and the QR image both encode that link.
    expected = segno.make(lan_link, error="m").svg_inline(scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {code}")
    assert expected in page
    image = client.get(f"/games/{code}/qr.svg", HTTP_HOST="localhost:8000")
    assert image.status_code == 200
    assert segno.make(lan_link, error="m").svg_inline(scale=5, dark="#1b1b1b", light="#ffffff", title=f"Join {code}").split("<path")[1][:200] in image.content.decode()
