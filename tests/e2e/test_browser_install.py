"""The installable companion in Chromium against Daphne: the browser's own installability check
passes on the home page and on a Wood and Steel table screen (its manifest's icons load and
decode); the service worker takes the page over, and with the network gone a reload of the table
screen shows the kept page saying "reconnecting…" (a page never kept: the offline page, saying
"Reconnecting…") instead of a browser error; back online both are live again by themselves.
The screen is kept on while the game is open."""

from __future__ import annotations

import time

import httpx
import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

# Browsers driven by tests register the service worker only when asked (static/js/pwa.js).
WORKER_ON = "try { localStorage.setItem('junction.sw', 'on'); } catch (e) { /* about:blank */ }"

INSTALLABILITY_ERRORS = "Page.getInstallabilityErrors"

KEPT = """async (url) => {
  for (const name of await caches.keys()) {
    if (name.startsWith("junction-pages-") && await (await caches.open(name)).match(url)) return true;
  }
  return false;
}"""

# The text of the kept copy of a page (null: none kept).
KEPT_TEXT = """async (url) => {
  for (const name of await caches.keys()) {
    const kept = name.startsWith("junction-pages-") && await (await caches.open(name)).match(url);
    if (kept) return await kept.text();
  }
  return null;
}"""


def eventually(page, script: str, arg, check, timeout: float = 10) -> None:
    """Until ``check`` holds for what the async ``script`` gives (page.wait_for_function does not wait
    for a promise: a pending one counts as true)."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(script, arg)
        if check(value):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r:.200}")
        page.wait_for_timeout(100)


ICON_LOADS = """async (src) => {
  const img = new Image();
  img.src = src;
  await img.decode();
  return [img.naturalWidth, img.naturalHeight];
}"""


@pytest.fixture(scope="module")
def profile(chromium_browser, tmp_path_factory):
    """A browser profile on disk: Chromium offers no install in a throwaway (incognito) context,
    which is what new_page gives (its check says "in-incognito")."""
    context = chromium_browser.browser_type.launch_persistent_context(
        str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
    )
    context.set_default_timeout(10_000)
    context.add_init_script(WORKER_ON)
    yield context
    context.close()


@pytest.fixture
def phone(profile):
    """New pages of the profile; what they log about the Content-Security-Policy is collected
    in ``phone.violations``."""
    pages = []

    def factory():
        page = profile.new_page()
        page.on("console", lambda m: "Content Security Policy" in m.text and factory.violations.append(m.text))
        pages.append(page)
        return page

    factory.violations = []
    yield factory
    profile.set_offline(False)
    for page in pages:
        page.close()


@pytest.fixture
def server_url(daphne) -> str:
    """A Daphne serving the production Content-Security-Policy (worker-src, manifest-src)."""
    return daphne(extra_env={"JUNCTION_CSP": "1"}).url


def table_game(url: str) -> str:
    created = httpx.post(f"{url}/api/games", json={"kind": "wood-and-steel", "name": "Ann"})
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    assert httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Bo"}).status_code == 201
    return code


def installability_errors(page) -> list:
    cdp = page.context.new_cdp_session(page)
    try:
        return cdp.send(INSTALLABILITY_ERRORS)["installabilityErrors"]
    finally:
        cdp.detach()


@pytest.mark.layout
def test_chromium_finds_the_home_page_and_the_table_installable(server_url, phone):
    code = table_game(server_url)
    page = phone()
    page.goto(server_url + "/")
    assert installability_errors(page) == []
    manifest = page.evaluate("async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
    for icon in manifest["icons"]:
        width, height = page.evaluate(ICON_LOADS, icon["src"])
        if icon["sizes"] != "any":
            assert f"{width}x{height}" == icon["sizes"], icon

    page.goto(f"{server_url}/games/{code}/table")
    page.wait_for_selector("#conn[data-state=open]")
    assert installability_errors(page) == []
    assert phone.violations == []


@pytest.mark.layout
def test_the_table_opens_offline_from_the_cache_and_recovers(server_url, phone):
    url = server_url
    code, other = table_game(url), table_game(url)
    page = phone()
    context = page.context
    table_url = f"{url}/games/{code}/table"
    page.goto(table_url)
    page.wait_for_selector("#conn[data-state=open]")
    # The game is open at the table: the screen stays on.
    page.wait_for_selector("body[data-wake-lock=held]")
    # The worker takes the page over; the next load of the table screen is kept.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    page.wait_for_selector("#conn[data-state=open]")
    eventually(page, KEPT, table_url, bool)

    context.set_offline(True)
    page.reload()  # no network: the kept table screen, not a browser error
    page.wait_for_selector("#ws-table")
    page.wait_for_selector("#conn[data-state=closed]")
    assert page.inner_text("#conn") == "reconnecting…"
    assert code in page.inner_text(".ws-t-topcode")
    # A table screen this phone never opened: the offline page, trying again by itself.
    second = phone()
    second.goto(f"{url}/games/{other}/table")
    assert second.inner_text("h1") == "Reconnecting…"
    assert second.locator("#ws-table").count() == 0

    context.set_offline(False)
    page.wait_for_selector("#conn[data-state=open]", timeout=15_000)
    assert page.inner_text("#conn") == "live"
    second.wait_for_selector("#ws-table", timeout=15_000)  # the real page, opened by itself
    second.wait_for_selector("#conn[data-state=open]", timeout=15_000)

    # The game is over: the screen may sleep again.
    page.evaluate("document.dispatchEvent(new CustomEvent('junction:game', {detail: {status: 'finished'}}))")
    page.wait_for_selector("body[data-wake-lock=released]")
    assert phone.violations == []


def test_the_kept_pages_forget_a_player_who_deletes_their_account(server_url, phone):
    """The kept home page's top bar names the signed-in player: once the account is deleted, no kept
    page names them (offline, a phone must not show a deleted player as signed in)."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("kit", "kit@example.org", "tracks-and-ties-42")
    page = phone()
    page.goto(f"{server_url}/accounts/login/")
    page.fill("#id_login", "kit")
    page.fill("#id_password", "tracks-and-ties-42")
    page.click("#login-submit")
    page.wait_for_url("**/me/games")
    page.goto(f"{server_url}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    eventually(page, KEPT_TEXT, f"{server_url}/", lambda text: "nav-my-games" in (text or ""))

    page.goto(f"{server_url}/me/account")
    page.fill("#account-delete-confirm", "kit")
    page.click("#account-delete-submit")
    page.wait_for_url("**/me/account/deleted")
    eventually(page, KEPT_TEXT, f"{server_url}/", lambda text: "nav-my-games" not in (text or ""))
    page.goto(f"{server_url}/")  # kept again, as a guest's
    eventually(page, KEPT_TEXT, f"{server_url}/", lambda text: "nav-sign-in" in (text or ""))
    assert "nav-my-games" not in page.evaluate(KEPT_TEXT, f"{server_url}/")
    assert phone.violations == []
