"""The site has a favicon: every page links it, and /favicon.ico (which browsers ask for
anyway) leads to it instead of a 404."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_pages_link_the_icon_and_favicon_ico_leads_to_it(client):
    page = client.get("/")
    assert page.status_code == 200
    assert b'rel="icon"' in page.content and b"favicon.svg" in page.content
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith(".svg")
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert icon["Content-Type"].startswith("image/svg+xml")
    body = b"".join(icon.streaming_content) if icon.streaming else icon.content
    assert body.startswith(b"<svg") and b"viewBox" in body
