"""In Chromium against a Daphne serving the production Content-Security-Policy
(JUNCTION_CSP=1): the home page, creating a game, the waiting room's socket, a move, the
Wood and Steel table screen and the API docs all work, and the browser reports no violation."""

from __future__ import annotations

import httpx
import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser

# Violations are events of the document that saw them; Chromium also logs each one to the
# console ("Refused to ... because it violates the following Content Security Policy
# directive"), which outlives navigations.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber));
"""


def watched(new_page, **size):
    page = new_page(**size)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.add_init_script(LISTEN)
    return page, console


def violations(page, console: list[str]) -> list[str]:
    events = page.evaluate("window.__cspViolations || []")
    return events + [m for m in console if "Content Security Policy" in m or "Content-Security-Policy" in m]


def test_the_pages_work_under_the_content_security_policy(daphne, new_page):
    server = daphne(extra_env={"JUNCTION_CSP": "1"})
    policy = httpx.get(server.url + "/").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy

    page, console = watched(new_page, width=1024, height=800)
    # The listener hears a violation (the check below can fail): an inline style attribute.
    page.goto(server.url + "/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.wait_for_function("() => window.__cspViolations.length > 0")
    assert any(v.startswith("style-src") for v in violations(page, console))
    console.clear()

    # Create a game from the home page, seat a bot, start, move: the socket connects and follows.
    code = create_game(page, server.url, kind="toy", name="Ann")
    page.wait_for_selector("#conn[data-state=open]")  # connect-src 'self' covers ws: of this host
    page.click("#add-bot")
    page.wait_for_selector("#seat-list li[data-seat='1']")
    page.click("#start-game")
    page.wait_for_selector("body[data-status=active]")
    page.click("#legal button >> nth=0")
    page.wait_for_function("() => Number(document.body.dataset.version) >= 2")
    assert violations(page, console) == []

    # The table screen paints its players' colours from script (never a style attribute).
    table = httpx.post(server.url + "/api/games", json={"kind": "wood-and-steel"}).json()
    assert httpx.post(f"{server.url}/api/games/{table['code']}/seats", json={"name": "Bo"}).status_code == 201
    page.goto(f"{server.url}/games/{table['code']}/table")
    page.wait_for_selector("#ws-t-players .ws-t-dot")
    painted = page.eval_on_selector("#ws-t-players .ws-t-dot", "e => getComputedStyle(e).backgroundColor")
    assert painted not in ("", "rgba(0, 0, 0, 0)", "transparent"), painted
    page.wait_for_selector("#conn[data-state=open]")
    assert violations(page, console) == []

    # Swagger UI under its own, relaxed policy.
    page.goto(server.url + "/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Junction API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock")
    assert violations(page, console) == []
    assert code
