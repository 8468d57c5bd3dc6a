"""The table screen's city labels, in Chromium against Daphne: at 1920×1080 every label is
at least 16 px tall and no two overlap, nor does a label cover another city's dot or leave
the board; the same holds on smaller screens, the labels at least 11 px there."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

# Every city label's box on the screen, its font size in screen pixels and the city dots' boxes.
MEASURE = """() => {
  const labels = [...document.querySelectorAll('#ws-board text.ws-label')].map((t) => {
    const r = t.getBoundingClientRect();
    return { name: t.textContent, city: t.dataset.city, x: r.left, y: r.top, w: r.width, h: r.height,
             px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a };
  });
  const dots = [...document.querySelectorAll('#ws-board circle.ws-city')].map((c) => {
    const r = c.getBoundingClientRect();
    return { city: c.dataset.city, x: r.left, y: r.top, w: r.width, h: r.height };
  });
  return { labels, dots };
}"""


def overlap(a: dict, b: dict, slack: float = 0.5) -> bool:
    return a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"] and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"]


@pytest.mark.layout
@pytest.mark.parametrize(("width", "height", "least_px"), [(1920, 1080, 16), (1600, 900, 16), (1366, 768, 11), (1280, 720, 11), (1024, 768, 11)])
def test_city_labels_are_large_and_none_overlap(live_server_url, new_page, width, height, least_px):
    SHOTS.mkdir(parents=True, exist_ok=True)
    created = httpx.post(f"{live_server_url}/api/games", json={"kind": "wood-and-steel"})
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    board = httpx.get(f"{live_server_url}/api/wood-and-steel/boards/default").json()
    page = new_page(width=width, height=height)
    page.goto(f"{live_server_url}/games/{code}/table")
    page.wait_for_selector("#ws-board[data-labels=placed]")
    found = page.evaluate(MEASURE)
    labels, dots = found["labels"], found["dots"]
    assert len(labels) == len(board["cities"]) == 56
    small = [(x["name"], round(x["px"], 1)) for x in labels if x["px"] < least_px - 0.01]
    assert not small, f"labels under {least_px} px: {small}"
    clashes = [(a["name"], b["name"]) for i, a in enumerate(labels) for b in labels[i + 1:] if overlap(a, b)]
    assert not clashes, f"labels that overlap: {clashes}"
    covered = [(x["name"], d["city"]) for x in labels for d in dots if d["city"] != x["city"] and overlap(x, d)]
    assert not covered, f"labels over another city's dot: {covered}"
    box = page.locator("#ws-board").bounding_box()
    outside = [x["name"] for x in labels if x["x"] < box["x"] - 0.5 or x["x"] + x["w"] > box["x"] + box["width"] + 0.5
               or x["y"] < box["y"] - 0.5 or x["y"] + x["h"] > box["y"] + box["height"] + 0.5]
    assert not outside, f"labels outside the board: {outside}"
    page.screenshot(path=str(SHOTS / f"ws-table-labels-{width}.png"))
