"""The table screen's independent railroads, in Chromium against Daphne: however many a game
has, each is drawn in a colour and bead pattern of its own (no two alike, each unlike the
next in both), in hues away from every player's colour and in a shape no player's marker
has (round beads; players' track is solid blocks, their markers square)."""

from __future__ import annotations

import colorsys
from pathlib import Path

import httpx
import pytest

from .conftest import auth

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
# the seat colours (games/models.py's palette as the table screen draws it) that have a hue
SEAT_HEX = {"red": "#c0392b", "blue": "#2467b0", "green": "#2e8b57", "yellow": "#e0b400", "purple": "#7d3c98", "orange": "#e67e22"}

STYLES = """() => [...document.querySelectorAll('#ws-overlays line.ws-indie')].map((line) => ({
  railroad: line.dataset.railroad, route: line.dataset.route, stroke: line.getAttribute('stroke'),
  pattern: [...line.classList].find((c) => /^p[0-9]+$/.test(c)) || null, hollow: line.classList.contains('hollow'),
  cap: getComputedStyle(line).strokeLinecap, dashes: getComputedStyle(line).strokeDasharray }))"""
SWATCHES = """() => [...document.querySelectorAll('#ws-t-legend li[data-railroad]')].map((li) => {
  const line = li.querySelector('svg.ws-t-swatch line.ws-indie');
  return { railroad: li.dataset.railroad, stroke: line && line.getAttribute('stroke'), cap: line && getComputedStyle(line).strokeLinecap,
           pattern: line && [...line.classList].find((c) => /^p[0-9]+$/.test(c)), hollow: !!line && line.classList.contains('hollow') };
})"""


def hue(hex_color: str) -> float:
    r, g, b = (int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


def hue_gap(a: float, b: float) -> float:
    return min(abs(a - b), 360 - abs(a - b))


@pytest.mark.layout
def test_every_independent_has_a_look_of_its_own_unlike_any_player(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server_url
    options = {"railroads_min": 30, "railroads_max": 30, "indie_distance": 1}  # as many independents as the board holds
    created = httpx.post(f"{url}/api/games", json={"kind": "wood-and-steel", "options": options})
    assert created.status_code == 201, created.text
    code, host_token = created.json()["code"], created.json()["host_token"]
    token = httpx.post(f"{url}/api/games/{code}/seats", json={"name": "Ada", "color": "blue"}).json()["token"]
    assert httpx.post(f"{url}/api/games/{code}/start", headers=auth(host_token)).status_code == 200
    for cmd in ("rank-starting-routes", "place-engine"):
        legal = httpx.get(f"{url}/api/games/{code}/state", headers=auth(token)).json()["legal_commands"]
        done = httpx.post(f"{url}/api/games/{code}/commands", json=next(c for c in legal if c["cmd"] == cmd), headers=auth(token))
        assert done.status_code == 200, done.text
    railroads = httpx.get(f"{url}/api/games/{code}/state").json()["state"]["railroads"]
    assert len(railroads) > 12, "more independents than the old palette had colours"

    table = new_page(width=1920, height=1080)
    table.goto(f"{url}/games/{code}/table")
    table.wait_for_function(f"Number(document.body.dataset.version || 0) >= {done.json()['version']}")
    lines = table.evaluate(STYLES)
    looks: dict[str, set] = {}
    for line in lines:
        looks.setdefault(line["railroad"], set()).add((line["stroke"], line["pattern"], line["hollow"]))
        assert line["cap"] == "round" and line["dashes"] not in ("", "none"), "an independent is a chain of round beads"
    assert sorted(looks, key=int) == sorted((str(r["id"]) for r in railroads), key=int)
    assert all(len(seen) == 1 for seen in looks.values()), "one look per railroad on all its routes"
    look = {rid: next(iter(seen)) for rid, seen in looks.items()}
    assert len(set(look.values())) == len(look), f"two independents look alike: {look}"
    ordered = [look[str(r["id"])] for r in sorted(railroads, key=lambda r: r["id"])]
    for a, b in zip(ordered, ordered[1:], strict=False):
        assert a[0] != b[0] and a[1] != b[1], "each railroad differs from the next in colour and in pattern"

    # The legend shows each railroad's own chain of beads.
    swatches = {s["railroad"]: s for s in table.evaluate(SWATCHES)}
    for rid, (stroke, pattern, hollow) in look.items():
        s = swatches[rid]
        assert (s["stroke"], s["pattern"], s["hollow"], s["cap"]) == (stroke, pattern, hollow, "round")

    # Hue: away from every player's colour. Shape: players' track is solid blocks (butt ends on
    # a dark casing) and their markers are square, never round beads.
    for stroke in {v[0] for v in look.values()}:
        assert stroke not in SEAT_HEX.values()
        gap = min(hue_gap(hue(stroke), hue(seat)) for seat in SEAT_HEX.values())
        assert gap >= 30, f"{stroke} is {gap:.0f}° from a player's hue"
    track = table.locator("#ws-overlays line.ws-track").first
    assert track.evaluate("(l) => [getComputedStyle(l).strokeLinecap, getComputedStyle(l).strokeDasharray]")[0] == "butt"
    assert table.locator("#ws-overlays line.ws-track-casing").count() == table.locator("#ws-overlays line.ws-track").count()
    radii = table.eval_on_selector_all("#ws-t-players .ws-t-dot", "(dots) => dots.map((d) => parseFloat(getComputedStyle(d).borderTopLeftRadius))")
    assert radii and all(r <= 3 for r in radii), "a player's marker is a square block"
    table.screenshot(path=str(SHOTS / "ws-table-independents.png"))
