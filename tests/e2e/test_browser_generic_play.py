"""In Chromium against Daphne: the generic play page builds a form for each of the kind's
commands from GET /api/kinds (its help, each argument's input from its JSON Schema) and plays
with it; what the rules refuse shows as an error beside the form."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_the_generic_page_plays_the_toy_race_through_forms_built_from_the_specs(live_server_url, new_page):
    host = new_page(width=360, height=740)
    code = create_game(host, live_server_url, kind="toy", name="Ann")
    host.wait_for_selector("#conn[data-state=open]")
    phone = new_page(width=360, height=740)
    phone.goto(f"{live_server_url}/join/{code}")
    phone.fill("#join-name", "Bo")
    phone.click("text=Take a seat")
    phone.wait_for_url(f"**/games/{code}/")
    host.wait_for_selector("#seat-list li[data-seat='1']")
    host.click("#start-game")
    host.wait_for_selector("body[data-status=active][data-version='1']")

    host.wait_for_selector("#command-forms form[data-cmd=add]", state="attached")
    host.click("#command-forms > summary")
    form = host.locator("#command-forms form[data-cmd=add]")
    assert "Add 1, 2 or 3 to the counter." in form.inner_text()  # the command's help
    n = form.locator("input[name=n]")
    assert (n.get_attribute("type"), n.get_attribute("min"), n.get_attribute("max")) == ("number", "1", "3")
    assert host.get_attribute("#legal button[data-cmd=add] >> nth=0", "title") == "Add 1, 2 or 3 to the counter."

    n.fill("3")
    form.locator("button[type=submit]").click()
    host.wait_for_selector("body[data-version='2']")
    phone.wait_for_selector("body[data-version='2']")
    assert '"counter": 3' in host.text_content("#state-json")

    # not Ann's turn now: the rules' refusal shows beside the form's button, nothing changes
    form.locator("button[type=submit]").click()
    error = form.locator(".inline-error")
    error.wait_for()
    assert "not your turn" in error.inner_text().lower()
    assert host.get_attribute("body", "data-version") == "2"
    assert host.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    SHOTS.mkdir(parents=True, exist_ok=True)
    host.screenshot(path=str(SHOTS / "generic-play-forms.png"), full_page=True)
