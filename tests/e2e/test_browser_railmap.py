"""In Chromium: the shared hex-milepost map (static/js/railmap.js) draws the Resourceful Rails
map from its data (every city named, the 17 rivers along the hex sides the rail core's geometry
gives, track in the seats' colours), reports the milepost a tap lands near, pans and zooms by
drag, wheel, two fingers, buttons and keys, fits a 360 px phone; and draws a hand-made odd-r
map with two layers one layer at a time. No Django: the page is set from a string (or, for the
Content-Security-Policy, served by a plain HTTP server) with the static files."""

from __future__ import annotations

import functools
import http.server
import json
import math
import re
import threading
from pathlib import Path

import pytest

from games.engines.rail_core import hexgrid
from games.engines.rail_core.mapdata import validate_map

pytestmark = [pytest.mark.browser, pytest.mark.layout]  # the map component on a page of its own: no server behind it

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
RR_DATA = ROOT / "games" / "engines" / "resourceful_rails" / "data"
SIZE = 10  # railmap.js's hex size: hexgrid.pixel(..., size=10)
STEP = math.sqrt(3) * SIZE
SHOTS = ROOT / "var" / "screenshots"
SVG = "#map .rm-svg"


@functools.cache
def rr_map() -> dict:
    return json.loads((RR_DATA / "map.json").read_text(encoding="utf-8"))


@functools.cache
def rr_goods() -> dict[str, str]:
    return {g["id"]: g["name"] for g in json.loads((RR_DATA / "goods.json").read_text(encoding="utf-8"))["goods"]}


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main class="page"><h1>Map</h1><div id="map"></div><p>Below the map.</p></main></body></html>"""

CREATE = """([data, options]) => {
  window.taps = [];
  const opts = Object.assign({}, options, {onTap: (key, info) => window.taps.push({key, info})});
  window.rm = Junction.RailMap.create(document.getElementById("map"), data, opts);
}"""


def open_map(page, data: dict, **options):
    page.set_content(PAGE)
    page.add_style_tag(path=str(ROOT / "static" / "css" / "junction.css"))
    page.add_style_tag(path=str(ROOT / "static" / "css" / "railmap.css"))
    page.add_script_tag(path=str(ROOT / "static" / "js" / "junction.js"))
    page.add_script_tag(path=str(ROOT / "static" / "js" / "railmap.js"))
    page.evaluate(CREATE, [data, options])
    return page


def view_box(page) -> list[float]:
    return page.evaluate("rm.viewBox")


def client_point(page, layout: str, q: int, r: int) -> tuple[float, float]:
    """Where hexgrid.pixel's centre of (q, r) is on screen, through the SVG's own transform."""
    x, y = hexgrid.pixel(layout, q, r, SIZE)
    return tuple(page.evaluate(
        """([x, y]) => { const svg = rm.element, p = svg.createSVGPoint(); p.x = x; p.y = y;
           const s = p.matrixTransform(svg.getScreenCTM()); return [s.x, s.y]; }""", [x, y]))


def map_point(page, cx: float, cy: float) -> tuple[float, float]:
    return tuple(page.evaluate(
        """([x, y]) => { const svg = rm.element, p = svg.createSVGPoint(); p.x = x; p.y = y;
           const s = p.matrixTransform(svg.getScreenCTM().inverse()); return [s.x, s.y]; }""", [cx, cy]))


def points_of(d: str) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[0::2], numbers[1::2], strict=True))


def near(p, q, tol=0.02) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


def visible_label_boxes(page) -> list[list[float]]:
    return page.evaluate("""() => [...document.querySelectorAll('.rm-label')]
        .filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, t.textContent]; })""")


def overlaps(boxes) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1:
                out.append((a[4], b[4]))
    return out


# --- the Resourceful Rails map -------------------------------------------------------------


def test_it_draws_every_city_river_and_milepost_of_the_resourceful_rails_map(new_page):
    data = rr_map()
    page = open_map(new_page(1024, 800), data, goodsNames=rr_goods())

    # Every city: its marker by size and its name.
    names = page.eval_on_selector_all(".rm-label .rm-name", "els => els.map((e) => e.textContent)")
    assert sorted(names) == sorted(c["name"] for c in data["cities"])
    sizes = page.eval_on_selector_all(".rm-city", "els => els.map((e) => e.getAttribute('class'))")
    assert len(sizes) == 48
    for size in ("small", "medium", "major"):
        assert sum(f"rm-city-{size}" in s for s in sizes) == sum(c["size"] == size for c in data["cities"])
    # A major city is the outline of its seven hexes: one ring of 18 sides.
    ring = points_of(page.get_attribute(".rm-city[data-city='seattle-wa'] .rm-major", "d"))
    assert len(ring) == 18

    # Terrain: every milepost but a small or medium city's (its marker is the milepost) is in
    # one path per terrain, each listed once.
    counts = dict(page.eval_on_selector_all(".rm-terrain", "els => els.map((e) => [e.dataset.terrain, Number(e.dataset.count)])"))
    towns = {c["id"] for c in data["cities"] if c["size"] != "major"}
    for terrain in ("clear", "mountain"):
        assert counts[terrain] == sum(n["terrain"] == terrain and n.get("city") not in towns for n in data["nodes"])
    assert page.locator(".rm-terrain").count() == 2  # combined paths, not a node per milepost
    assert page.evaluate("document.querySelectorAll('#map .rm-svg *').length") < 600

    # The 17 rivers, each the sides its pairs share: the two corners both hexes have.
    rivers = page.eval_on_selector_all(".rm-river", "els => els.map((e) => [e.dataset.name, Number(e.dataset.pairs), e.getAttribute('d')])")
    assert sorted(r[0] for r in rivers) == sorted(c["name"] for c in data["crossings"]) and len(rivers) == 17
    layout = data["layout"]
    for (name, pairs, d), crossing in zip(sorted(rivers), sorted(data["crossings"], key=lambda c: c["name"]), strict=True):
        assert name == crossing["name"] and pairs == len(crossing["edges"])
        drawn = points_of(d)
        for a, b in crossing["edges"]:
            ca = hexgrid.corners(layout, *hexgrid.pixel(layout, a[1], a[2], SIZE), SIZE)
            cb = hexgrid.corners(layout, *hexgrid.pixel(layout, b[1], b[2], SIZE), SIZE)
            shared = [p for p in ca if any(near(p, q, 1e-6) for q in cb)]
            assert len(shared) == 2
            for corner in shared:
                assert any(near(corner, p) for p in drawn), (name, a, b, corner)

    # Goods show once zoomed in: by name (the goods file's), not by id.
    seattle_goods = page.locator(".rm-label[data-city='seattle-wa'] .rm-goods")
    assert seattle_goods.text_content() == "Seafood"
    assert not seattle_goods.is_visible()
    page.evaluate("rm.focus('0,10,43'); for (let i = 0; i < 5; i++) rm.zoomIn(); rm.focus('0,10,43')")
    assert page.locator(".rm-svg.rm-near").count() == 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "railmap-zoomed.png"))


def test_labels_never_overlap_at_any_zoom(new_page):
    for width, height in ((360, 640), (1024, 800)):
        page = open_map(new_page(width, height), rr_map(), goodsNames=rr_goods())
        shown = []
        for step in range(6):
            boxes = visible_label_boxes(page)
            assert overlaps(boxes) == [], (width, step)
            shown.append(len(boxes))
            page.evaluate("rm.zoomIn()")
        assert shown[0] >= 7  # at least every major city is named on the whole map
        assert page.locator(".rm-label.rm-off").count() < 48


def test_track_is_drawn_between_milepost_centres_in_each_seats_colour(new_page):
    page = open_map(new_page(), rr_map(), colors={"0": "#c0392b", "1": "blue"})
    page.evaluate("""rm.setTrack({
        [Junction.RailMap.edgeKey('0,31,20', '0,31,21')]: 0, '0,31,21|0,32,21': 0,
        '0,10,30|0,10,31': 1, '0,99,99|0,99,98': 1})""")
    lines = {seat: (stroke, int(n), d) for seat, stroke, n, d in page.eval_on_selector_all(
        ".rm-track-line", "els => els.map((e) => [e.dataset.seat, getComputedStyle(e).stroke, e.dataset.sections, e.getAttribute('d')])")}
    assert set(lines) == {"0", "1"}
    assert lines["0"][:2] == ("rgb(192, 57, 43)", 2)
    assert lines["1"][:2] == ("rgb(0, 114, 178)", 1)  # the palette's blue (Okabe-Ito #0072B2), not the CSS keyword's; the unknown milepost skipped
    ends = points_of(lines["1"][2])
    assert near(ends[0], hexgrid.pixel("odd-q-up", 10, 30, SIZE)) and near(ends[1], hexgrid.pixel("odd-q-up", 10, 31, SIZE))

    page.evaluate("rm.setColors({1: '#2e8b57'})")
    assert page.eval_on_selector(".rm-track-line[data-seat='1']", "e => getComputedStyle(e).stroke") == "rgb(46, 139, 87)"
    page.evaluate("rm.setTrack({})")
    assert page.locator(".rm-track-line").count() == 0


def test_trains_path_and_marks_draw_and_clear(new_page):
    page = open_map(new_page(), rr_map(), colors={"0": "red", "1": "yellow"})
    page.evaluate("rm.setTrains([{seat: 0, at: '0,31,20', label: 'Ann'}, {seat: 1, at: [0, 31, 20], label: 'Bo'}, {seat: 2, at: '0,5,5'}])")
    trains = page.eval_on_selector_all(".rm-train", "els => els.map((e) => [e.dataset.seat, e.dataset.at, e.textContent])")
    assert [t[:2] for t in trains] == [["0", "0,31,20"], ["1", "0,31,20"]]  # 0,5,5 is no milepost
    assert trains[0][2] == "AnnAnn"  # the title and the label
    centres = page.eval_on_selector_all(".rm-train", "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width]; })")
    assert math.dist(centres[0][:2], centres[1][:2]) > 10  # two trains at one milepost side by side
    assert min(c[2] for c in centres) >= 20  # a finger's target at the whole-map zoom

    page.evaluate("rm.setPath(['0,31,20', '0,31,21', '0,32,21'], {kind: 'build', ok: false})")
    plan = page.locator(".rm-plan")
    assert plan.get_attribute("class") == "rm-plan rm-plan-build rm-plan-bad" and plan.get_attribute("data-ok") == "false"
    assert len(points_of(page.get_attribute(".rm-plan-line", "d"))) == 3
    assert page.eval_on_selector(".rm-plan-line", "e => getComputedStyle(e).strokeDasharray") != "none"  # not colour alone
    page.evaluate("rm.setPath(['0,31,20', '0,31,21'], {kind: 'move', ok: true})")
    assert plan.get_attribute("class") == "rm-plan rm-plan-move"
    page.evaluate("rm.setPath(null)")
    assert page.locator(".rm-plan").count() == 0

    page.evaluate("rm.setMarks(['0,31,20', '0,31,21', 'nowhere'], 'tappable'); rm.setMarks(['0,10,30'], 'goal')")
    assert page.get_attribute(".rm-mark.tappable", "data-count") == "2"
    assert page.locator(".rm-mark.goal").count() == 1
    page.evaluate("rm.setMarks(null, 'tappable')")
    assert page.locator(".rm-mark").count() == 1
    page.evaluate("rm.setMarks(null)")
    assert page.locator(".rm-mark").count() == 0


def test_a_tap_near_a_milepost_reports_it_and_a_tap_far_from_the_map_nothing(new_page):
    page = open_map(new_page(360, 640), rr_map())
    for q, r in ((31, 20), (10, 43), (60, 45)):
        x, y = client_point(page, "odd-q-up", q, r)
        step = math.dist((x, y), client_point(page, "odd-q-up", q, r + 1))  # neighbouring mileposts on screen
        page.mouse.click(x + 0.25 * step, y - 0.12 * step)  # beside the dot, not on it
        assert page.evaluate("window.taps.map((t) => t.key)")[-1] == f"0,{q},{r}"
    tap = page.evaluate("window.taps[window.taps.length - 1].info")
    assert tap["q"] == 60 and tap["r"] == 45 and tap["terrain"] in ("clear", "mountain")
    # A city's milepost tells its city.
    seattle = next(n for n in rr_map()["nodes"] if n.get("city") == "seattle-wa")
    page.mouse.click(*client_point(page, "odd-q-up", seattle["at"][1], seattle["at"][2]))
    assert page.evaluate("window.taps[window.taps.length - 1].info.city.name") == "Seattle, WA"

    # Far from every milepost (the sea above the board): no tap.
    box = page.locator(SVG).bounding_box()
    far = (box["x"] + 30, box["y"] + 12)
    mx, my = map_point(page, *far)
    nearest = min(math.dist((mx, my), hexgrid.pixel("odd-q-up", n["at"][1], n["at"][2], SIZE)) for n in rr_map()["nodes"])
    assert nearest > 0.6 * STEP
    before = page.evaluate("window.taps.length")
    page.mouse.click(*far)
    assert page.evaluate("window.taps.length") == before
    assert page.evaluate("([x, y]) => rm.keyAt(x, y)", list(far)) is None


def test_a_finger_taps_drags_and_pinches(chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    try:
        page = open_map(context.new_page(), rr_map())
        x, y = client_point(page, "odd-q-up", 31, 20)
        page.touchscreen.tap(x, y)
        assert page.evaluate("window.taps.map((t) => t.key)") == ["0,31,20"]

        cdp = context.new_cdp_session(page)

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)]})

        box = page.locator(SVG).bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        # Two fingers apart: closer in, the map point between them stays between them.
        under = map_point(page, cx, cy)
        width = view_box(page)[2]
        touch("touchStart", [(cx - 30, cy), (cx + 30, cy)])
        for k in range(1, 6):
            touch("touchMove", [(cx - 30 - 12 * k, cy), (cx + 30 + 12 * k, cy)])
        touch("touchEnd", [])
        assert view_box(page)[2] == pytest.approx(width * 60 / 180, rel=0.02)
        assert math.dist(map_point(page, cx, cy), under) < 1
        # One finger drags: the map follows it, the page does not scroll, no tap.
        scroll = page.evaluate("window.scrollY")
        vb = view_box(page)
        touch("touchStart", [(cx, cy)])
        for k in range(1, 6):
            touch("touchMove", [(cx - 10 * k, cy - 6 * k)])
        touch("touchEnd", [])
        after = view_box(page)
        scale = vb[2] / box["width"]
        assert after[0] - vb[0] == pytest.approx(50 * scale, rel=0.05) and after[1] - vb[1] == pytest.approx(30 * scale, rel=0.05)
        assert page.evaluate("window.scrollY") == scroll
        assert page.evaluate("window.taps.length") == 1
    finally:
        context.close()


def test_wheel_buttons_and_keys_zoom_and_a_drag_pans(new_page):
    page = open_map(new_page(1024, 800), rr_map())
    whole = view_box(page)
    box = page.locator(SVG).bounding_box()
    px, py = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6
    under = map_point(page, px, py)
    page.mouse.move(px, py)
    page.mouse.wheel(0, -240)
    page.wait_for_function("(w) => rm.viewBox[2] < w", arg=whole[2])
    assert math.dist(map_point(page, px, py), under) < 0.5  # zoomed about the pointer
    page.mouse.wheel(0, 240)
    page.wait_for_function("(w) => Math.abs(rm.viewBox[2] - w) < 0.1", arg=whole[2])

    page.click("button.rm-zoom-in")
    closer = view_box(page)
    assert closer[2] == pytest.approx(whole[2] / 1.6, rel=1e-3)
    page.click("button.rm-zoom-out")
    page.click("button.rm-zoom-out")
    assert view_box(page)[2] > whole[2]
    page.click("button.rm-fit")
    assert view_box(page) == pytest.approx(whole, abs=0.02)

    # A drag pans (and is no tap); the map point under the pointer follows it.
    page.click("button.rm-zoom-in")
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    grabbed = map_point(page, *start)
    page.mouse.move(*start)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(start[0] - 12 * k, start[1] + 5 * k)
    page.mouse.up()
    assert math.dist(map_point(page, start[0] - 120, start[1] + 50), grabbed) < 0.5
    assert page.evaluate("window.taps.length") == 0

    # Keys on the focused map: arrows pan, + and - zoom, 0 fits; Enter chooses the middle.
    page.focus("#map")
    vb = view_box(page)
    page.keyboard.press("ArrowRight")
    assert view_box(page)[0] > vb[0] and view_box(page)[1] == vb[1]
    page.keyboard.press("ArrowUp")
    assert view_box(page)[1] < vb[1]
    page.keyboard.press("+")
    assert view_box(page)[2] < vb[2]
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert view_box(page)[2] > vb[2]
    page.keyboard.press("0")
    assert view_box(page) == pytest.approx(whole, abs=0.02)
    # And from the page's own controls: pan by CSS pixels, zoom by a factor.
    vb = view_box(page)
    page.evaluate("rm.panBy(-40, 30)")
    moved = view_box(page)
    assert moved[0] - vb[0] == pytest.approx(-40 * vb[2] / box["width"], rel=1e-3) and moved[1] > vb[1]
    page.evaluate("rm.zoomBy(0.5)")
    assert view_box(page)[2] == pytest.approx(vb[2] / 2, rel=1e-3)
    page.keyboard.press("0")
    page.keyboard.press("+")
    page.keyboard.press("Enter")
    chosen = page.evaluate("window.taps.map((t) => t.key)")
    assert len(chosen) == 1
    _, q, r = map(int, chosen[0].split(","))
    centre = map_point(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert math.dist(centre, hexgrid.pixel("odd-q-up", q, r, SIZE)) <= 0.6 * STEP


def test_focus_brings_a_milepost_into_view(new_page):
    page = open_map(new_page(600, 700), rr_map())
    page.evaluate("rm.focus('0,5,20'); for (let i = 0; i < 4; i++) rm.zoomIn(); rm.focus('0,5,20')")
    box = page.locator(SVG).bounding_box()
    for key in ("0,60,45", "0,5,20"):
        page.evaluate("(k) => rm.focus(k)", key)
        x, y = page.evaluate("(k) => { const p = rm.clientPoint(k); return [p.x, p.y]; }", key)
        assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"], key


def test_it_fits_a_360_px_phone_with_44_px_buttons(new_page):
    page = open_map(new_page(360, 640), rr_map())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for name in ("Zoom in", "Zoom out", "Show the whole map"):
        b = page.get_by_role("button", name=name).bounding_box()
        assert b["width"] >= 44 and b["height"] >= 44, name
    assert page.eval_on_selector(SVG, "e => getComputedStyle(e).touchAction") == "none"
    assert page.eval_on_selector("#map", "e => getComputedStyle(e).touchAction") == "auto"  # the page still scrolls around it
    assert page.get_attribute("#map", "tabindex") == "0"
    assert page.get_attribute("#map", "aria-label") == "Map: " + rr_map()["name"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "railmap-phone.png"))


def test_destroy_leaves_the_container_as_it_was(new_page):
    page = open_map(new_page(), rr_map())
    state = "e => [e.childElementCount, e.className, e.getAttribute('tabindex'), e.getAttribute('aria-label'), e.getAttribute('aria-describedby')]"
    page.evaluate("rm.destroy()")
    assert page.eval_on_selector("#map", state) == [0, "", None, None, None]
    # A page's own label and description come back; the map's label option names it meanwhile.
    page.evaluate("""(data) => { const box = document.getElementById('map');
        box.setAttribute('aria-label', 'Board'); box.setAttribute('aria-describedby', 'legend');
        window.rm = Junction.RailMap.create(box, data, {ariaLabel: 'The board, Pacific Northwest'}); }""", rr_map())
    assert page.eval_on_selector("#map", state)[3:] == ["The board, Pacific Northwest", "legend " + page.eval_on_selector("#map .sr-only", "e => e.id")]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "map"
    page.evaluate("rm.destroy()")
    assert page.eval_on_selector("#map", state) == [0, "", None, "Board", "legend"]
    assert page.locator(".rm-svg").count() == 0


# --- a hand-made odd-r map with two layers ----------------------------------------------------


def odd_r_map() -> dict:
    """Rows 0-4, columns 0-5 of pointy-top odd-r hexes on the surface (a major city, a small and
    a medium city, forest, a river and an inlet), a few mileposts underground with a city, a
    tunnel link between the layers and a magic link on the surface."""
    surface = []
    for r in range(5):
        for q in range(6):
            surface.append({"at": [0, q, r], "terrain": "forest" if (q, r) in ((0, 0), (5, 4)) else "mountain" if q == 4 else "clear"})
    centre = (2, 2)
    major = {centre, *hexgrid.neighbours("odd-r", *centre)}
    for node in surface:
        if tuple(node["at"][1:]) in major:
            node["city"] = "crown"
    by_at = {tuple(n["at"][1:]): n for n in surface}
    by_at[(5, 0)]["city"] = "mill"
    by_at[(0, 4)]["city"] = "dock"
    by_at[(0, 4)]["port"] = True
    by_at[(4, 0)]["name"] = "Old Tower"
    deep = [{"at": [1, q, r], "terrain": "cave"} for q, r in ((1, 1), (2, 1), (3, 1))]
    deep[1]["city"] = "hollow"
    return {
        "format": "junction/rail-map@1", "name": "Tiny odd-r", "layout": "odd-r",
        "layers": [{"id": 0, "name": "surface"}, {"id": 1, "name": "underground"}],
        "cities": [{"id": "crown", "name": "Crown", "size": "major", "goods": ["gems"]},
                   {"id": "mill", "name": "Mill", "size": "medium"},
                   {"id": "dock", "name": "Dock", "size": "small"},
                   {"id": "hollow", "name": "Hollow", "size": "small"}],
        "nodes": surface + deep,
        "crossings": [{"kind": "river", "name": "Brook", "edges": [[[0, 4, 1], [0, 5, 1]], [[0, 4, 2], [0, 5, 2]]]},
                      {"kind": "inlet", "name": "Cove", "edges": [[[0, 0, 3], [0, 1, 3]]]}],
        "links": [{"kind": "tunnel", "name": "Deep stair", "edges": [[[0, 1, 1], [1, 1, 1]]]},
                  {"kind": "magic", "name": "Ley line", "edges": [[[0, 0, 1], [0, 5, 3]]], "enabled": False}],
    }


def test_an_odd_r_map_draws_its_first_layer_only_until_asked(new_page):
    data = odd_r_map()
    validate_map(data)  # the rail core takes it: a fair test map
    page = open_map(new_page(480, 700), data, goodsNames={"gems": "Gems"})
    assert page.get_attribute("#map", "data-layer") == "0"
    assert page.get_attribute(SVG, "data-layout") == "odd-r"
    assert sorted(page.eval_on_selector_all(".rm-name", "els => els.map((e) => e.textContent)")) == ["Crown", "Dock", "Mill", "Old Tower"]
    assert page.locator(".rm-city-major").count() == 1 and page.locator(".rm-city-medium").count() == 1
    assert page.locator(".rm-city-small").count() == 1  # Hollow is underground

    # Terrain of the surface only; forest is neither clear nor mountain: its own shape, named.
    terrains = {t["terrain"]: t for t in page.evaluate("rm.terrains")}
    assert set(terrains) == {"clear", "mountain", "forest"}
    assert terrains["forest"]["count"] == 2 and terrains["forest"]["shape"] not in ("dot", "mountain")
    assert page.eval_on_selector(".rm-terrain[data-terrain='forest'] > title", "e => e.textContent") == "forest"
    assert sum(t["count"] for t in terrains.values()) == 30 - 2  # the medium and the small city are their markers

    # Positions are hexgrid's odd-r centres: a tap at the centre of (3, 3) (an odd row) gives it.
    x, y = client_point(page, "odd-r", 3, 3)
    page.mouse.click(x, y)
    assert page.evaluate("window.taps.map((t) => t.key)") == ["0,3,3"]
    clear_dots = points_of(page.get_attribute(".rm-terrain[data-terrain='clear']", "d"))
    px, py = hexgrid.pixel("odd-r", 3, 3, SIZE)
    assert any(near(p, (px - 1.7, py)) for p in clear_dots)  # the dot's path starts at its left edge

    # The river a solid line along the shared side, the inlet dashed; a link a dashed curve,
    # a link to the other layer a ring.
    river = points_of(page.get_attribute(".rm-river", "d"))
    shared = [p for p in hexgrid.corners("odd-r", *hexgrid.pixel("odd-r", 4, 1, SIZE), SIZE)
              if any(near(p, c, 1e-6) for c in hexgrid.corners("odd-r", *hexgrid.pixel("odd-r", 5, 1, SIZE), SIZE))]
    assert all(any(near(c, p) for p in river) for c in shared)
    assert page.eval_on_selector(".rm-river", "e => getComputedStyle(e).strokeDasharray") == "none"
    assert page.eval_on_selector(".rm-crossing[data-kind='inlet']", "e => getComputedStyle(e).strokeDasharray") != "none"
    assert "Q" in page.get_attribute(".rm-link[data-name='Ley line']", "d")
    assert page.get_attribute(".rm-link[data-name='Ley line']", "data-enabled") == "false"
    assert page.eval_on_selector(".rm-portal > title", "e => e.textContent") == "Deep stair (to underground)"
    assert page.locator(".rm-port").count() == 1

    # Track and trains on the other layer wait for it.
    page.evaluate("rm.setTrack({'0,0,0|0,1,0': 0, '1,1,1|1,2,1': 1}); rm.setTrains([{seat: 1, at: '1,2,1'}])")
    assert page.eval_on_selector_all(".rm-track-line", "els => els.map((e) => e.dataset.seat)") == ["0"]
    assert page.locator(".rm-train").count() == 0
    page.evaluate("rm.setLayer(1)")
    assert page.get_attribute("#map", "data-layer") == "1"
    assert page.eval_on_selector_all(".rm-name", "els => els.map((e) => e.textContent)") == ["Hollow"]
    assert page.eval_on_selector_all(".rm-track-line", "els => els.map((e) => e.dataset.seat)") == ["1"]
    assert page.locator(".rm-train").count() == 1
    assert page.evaluate("rm.terrains.map((t) => [t.terrain, t.count])") == [["cave", 2]]

    # Or drawn from the start with the option, and focus switches to a milepost's layer.
    page.evaluate("rm.destroy()")
    page.evaluate(CREATE, [data, {"layer": 1}])
    assert page.evaluate("rm.layer") == 1
    page.evaluate("rm.focus('0,5,4')")
    assert page.evaluate("rm.layer") == 0
    page.evaluate("rm.destroy()")
    page.evaluate(CREATE, [data, {"layer": 7}])  # no such layer: the surface
    assert page.evaluate("rm.layer") == 0 and page.locator(".rm-city").count() == 3


# --- under the site's Content-Security-Policy ---------------------------------------------------

CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'"


class FixtureHandler(http.server.SimpleHTTPRequestHandler):
    """/ → railmap_page.html, /railmap_page.js, /map.json, /goods.json, /static/… from the
    repository; every answer with the production Content-Security-Policy."""

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            return str(HERE / "railmap_page.html")
        if path == "/railmap_page.js":
            return str(HERE / "railmap_page.js")
        if path in ("/map.json", "/goods.json"):
            return str(RR_DATA / path.lstrip("/"))
        if path.startswith("/static/") and ".." not in path:
            return str(ROOT / path.lstrip("/"))
        return str(HERE / "missing")

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":  # no icon, and no 404 in the console
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def fixture_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FixtureHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_it_works_under_the_content_security_policy(fixture_server, new_page):
    page = new_page(360, 640)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.on("pageerror", lambda e: console.append(str(e)))
    page.add_init_script("""window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.sourceFile + ':' + e.lineNumber));""")
    page.goto(fixture_server + "/")
    page.wait_for_function("() => window.railmapDrawn > 0")
    assert page.locator(".rm-label").count() == 48
    page.click("button.rm-zoom-in")  # sets --rm-u through the CSSOM, which the policy allows
    assert float(page.eval_on_selector(SVG, "e => e.style.getPropertyValue('--rm-u')")) > 0
    x, y = client_point(page, "odd-q-up", 31, 20)
    page.mouse.click(x, y)
    assert page.text_content("#tapped").startswith("Milepost 0,31,20")
    assert page.evaluate("window.__csp") == [] and console == []
