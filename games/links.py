"""Links phones follow (the join link and its QR code): at the address phones reach.

``JUNCTION_PUBLIC_URL`` wins (a reverse proxy or a tunnel in front). Otherwise the address the
page was opened at, except when a hosted table (``JUNCTION_HOST``, `make host`) was opened at
localhost on the host's own laptop: a phone cannot reach "localhost", so the link carries this
machine's LAN address with the same port (config/lan.py; found without sending anything).
"""

from __future__ import annotations

from django.conf import settings
from django.http.request import split_domain_port

from config.lan import is_loopback_host, lan_address


def public_url(request, path: str) -> str:
    """The absolute URL of ``path`` (starting with "/") as a phone at the table must open it."""
    base = getattr(settings, "JUNCTION_PUBLIC_URL", "")
    if base:
        return base.rstrip("/") + path
    if getattr(settings, "JUNCTION_HOST", False):
        name, port = split_domain_port(request.get_host())
        if is_loopback_host(name):
            lan = lan_address()
            if lan:
                return f"{request.scheme}://{lan}{':' + port if port else ''}{path}"
    return request.build_absolute_uri(path)
