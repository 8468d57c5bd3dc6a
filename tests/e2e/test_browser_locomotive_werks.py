"""Locomotive Werks in Chromium: a person against two server-side bots, a
spectator following live, the automatic phases explained, then the replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def is_generic(event_type: str, line: str) -> bool:
    """The play scripts' fallbacks for an event they do not know: the raw type, or 'the type (who).'"""
    import re

    return line == event_type or re.fullmatch(re.escape(event_type.replace("-", " ")) + r"( \(.*\))?\.", line) is not None


def test_play_rounds_against_bots_watch_and_replay(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann = new_page(width=390, height=844)
    code = create_game(ann, live_server_url, kind="locomotive-werks", name="Ann")
    for level in ("greedy", "random"):
        ann.select_option("#bot-level", level)
        ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='2']")
    assert "greedy bot" in ann.inner_text("#seat-list")

    watcher = new_page(width=1280, height=900)
    watcher.goto(f"{live_server_url}/games/{code}/")
    watcher.wait_for_selector("#conn[data-state=open]")

    ann.click("#start-game")
    ann.wait_for_selector("#lw-board .lw-space[data-space='14']")
    assert ann.locator("#lw-players .lw-player").count() == 3

    # The Locomotive Werks narration has a sentence of its own for every event type the engine emits.
    import re

    source = Path(__file__).resolve().parents[2] / "games" / "engines" / "locomotive_werks"
    emitted = sorted({m for f in source.glob("*.py") for m in re.findall(r'"type": "([a-z-]+)"', f.read_text())} | {"game-started"})
    sample = {
        "seat": 0, "space": 2, "cost": 4, "units": 3, "die": 4, "count": 1, "from": 1, "to": 2, "phase": "production", "round": 1,
        "case": "lower", "sold": 3, "income": 6, "die_after": 1, "die_to": "existing-orders", "tax": 2, "coins_before": 20, "coins": 18,
        "finished": False, "winners": [], "threshold": 300, "reached": [], "before": [0, 1], "after": [1, 0], "color": "green",
        "locomotive": "passenger", "generations": [1], "role": "only", "added": 1, "removed": 0, "pool_short": 1, "rolled": [3],
        "existing_orders": [3], "cards": 2,
    }
    lines = ann.evaluate("(events) => events.map((e) => window.JunctionPlay.describe(e))", [dict(sample, type=t) for t in emitted])
    generic = [t for t, line in zip(emitted, lines, strict=True) if is_generic(t, line)]
    assert not generic, f"events shown with generic text: {generic}"
    assert "board-cards-retired" in emitted and "space-unlock-waiting" in emitted

    # Ann plays: develop when she can, buy a unit when she can, else pass — until round 3.
    for _ in range(40):
        ann.wait_for_function("document.querySelector('#lw-turn').textContent.startsWith('Your turn') || document.body.dataset.status === 'finished'")
        heading = ann.inner_text("#lw-heading")
        if heading.startswith("Round 3"):
            break
        version = int(ann.evaluate("document.body.dataset.version"))
        develop = ann.locator("#lw-actions button[data-cmd=develop]")
        if develop.count():
            develop.first.click()
        else:
            ann.click("#lw-actions button[data-cmd=pass]")
        ann.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    assert ann.inner_text("#lw-heading").startswith("Round 3")

    # The automatic phases of round 2 are explained in words, on the player's and the watcher's page.
    report = ann.inner_text("#lw-report")
    assert "What happened in round 2" in ann.inner_text("#lw-report-title")
    assert "tax" in report and "New turn order" in report and "Market for passenger locomotives" in report
    watcher.wait_for_function(f"document.body.dataset.version === '{ann.evaluate('document.body.dataset.version')}'")
    assert watcher.inner_text("#lw-heading") == ann.inner_text("#lw-heading")
    assert watcher.locator("#lw-actions button").count() == 0
    assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ann.screenshot(path=str(SHOTS / "lw-phone.png"), full_page=True)
    watcher.screenshot(path=str(SHOTS / "lw-watcher.png"), full_page=False)

    # Replay: step through from the start to the last action.
    replay = new_page(width=390, height=844)
    replay.goto(f"{live_server_url}/games/{code}/replay")
    replay.wait_for_selector("body[data-step='1']")
    assert replay.inner_text("#lw-heading").startswith("Round 1")
    replay.click("#rp-next")
    replay.wait_for_selector("body[data-step='2']")
    replay.click("#rp-last")
    last = replay.inner_text("#rp-last-step")
    replay.wait_for_selector(f"body[data-step='{last}']")
    assert replay.inner_text("#lw-heading").startswith("Round 3")
    replay.screenshot(path=str(SHOTS / "lw-replay.png"), full_page=False)
