"""The installable companion: the web app manifest, the service worker and its offline page.

- ``/manifest.webmanifest``: name, colours (the site's own, from static/css/junction.css), icons
  (drawn by scripts/make_icons.py) and ``start_url`` "/", standalone: what Chromium needs to offer
  "Install" and a phone its home-screen icon.
- ``/sw.js``: static/js/sw.js with its configuration put before it: a version derived from the
  contents of the static files it caches (a deploy that changes any of them is a new worker with
  a new cache, no manual bump), the app shell's URLs (as the static storage names them: hashed
  in production) and where the offline page and the push handlers are. Served from the root so its
  scope is the whole site; never cached by HTTP (the browser checks it on every navigation).
- ``/offline``: the page the worker answers a navigation with when the network is down and the
  page is not in its cache: "Reconnecting…", and it opens the page by itself once it can.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

# The site's colours (static/css/junction.css): the top bar's ink, and the page's background.
# A test checks the stylesheet still declares them.
THEME_COLOUR = "#1f1d1a"  # --ink
BACKGROUND_COLOUR = "#f4f1ea"  # --bg

# Static files the worker caches on install: the pages' styles, scripts and images.
SHELL_FOLDERS = ("css/", "js/", "img/")
WORKER = "js/sw.js"
PUSH_HANDLERS = "js/sw_push.js"  # imported by the worker (turn notices); cached by the browser with it
NOT_SHELL = {WORKER, PUSH_HANDLERS}
OFFLINE_TEMPLATE = "players/offline.html"

ICONS = [
    {"src": "img/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "img/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "img/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    {"src": "img/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
]


def _static_url(name: str) -> str | None:
    """The URL pages use for a static file (hashed under the manifest storage), None when the
    storage does not know it (a file added since collectstatic)."""
    try:
        return static(name)
    except ValueError:
        return None


def _own_static_files() -> list[tuple[str, Path]]:
    """(name, path) of every file in STATICFILES_DIRS, by name."""
    found = {}
    for finder in finders.get_finders():
        if not isinstance(finder, finders.FileSystemFinder):
            continue  # the apps' (admin, API docs) files are not the app shell
        for name, storage in finder.list([]):
            found.setdefault(name.replace("\\", "/"), Path(storage.path(name)))
    return sorted(found.items())


_version_memo: dict[tuple, str] = {}


def _version(files: list[tuple[str, Path]]) -> str:
    """A hash of the files' names and contents (read again only when a file's size or time changed)."""
    key = tuple((name, stat.st_mtime_ns, stat.st_size) for name, path in files for stat in (path.stat(),))
    if key not in _version_memo:
        digest = hashlib.sha256()
        for name, path in files:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        _version_memo.clear()
        _version_memo[key] = digest.hexdigest()[:16]
    return _version_memo[key]


def worker_config() -> dict:
    """What static/js/sw.js reads as ``self.JUNCTION_SW``."""
    files = _own_static_files()
    shell = []
    for name, _path in files:
        if name.startswith(SHELL_FOLDERS) and name not in NOT_SHELL:
            url = _static_url(name)
            if url:
                shell.append(url)
    hashed = [f for f in files if f[0].startswith(SHELL_FOLDERS)]
    for template in (OFFLINE_TEMPLATE, "base.html"):  # the kept offline page
        path = Path(settings.BASE_DIR) / "templates" / template
        if path.exists():
            hashed.append((template, path))
    push = _static_url(PUSH_HANDLERS) if finders.find(PUSH_HANDLERS) else None
    return {
        "version": _version(hashed),
        "shell": shell,
        "static": settings.STATIC_URL,
        "offline": reverse("offline"),
        "start": "/",
        "push": push,
    }


@require_safe
def manifest(request):
    data = {
        "id": "/",
        "name": "Junction",
        "short_name": "Junction",
        "description": "Train and ship board games: play online, or run the table of a physical game from every phone.",
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [{**icon, "src": _static_url(icon["src"]) or settings.STATIC_URL + icon["src"]} for icon in ICONS],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"indent": 1})
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request):
    source = finders.find(WORKER)
    text = Path(source).read_text(encoding="utf-8")
    config = json.dumps(worker_config(), separators=(",", ":"))
    body = f"self.JUNCTION_SW = {config};\n{text}"
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request):
    return render(request, OFFLINE_TEMPLATE)
