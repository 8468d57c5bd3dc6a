"""Benchmark: the rail map component's weight and its time to the first drawn map.

Prints the gzip size (level 9, what the static files are served compressed as) of
static/js/railmap.js, static/css/railmap.css and the Resourceful Rails map.json, then the time
from navigation to the first drawn map in Debian's Chromium, headless, on a 360 x 640 phone
viewport, with the CPU slowed ``--throttle`` times (CDP Emulation.setCPUThrottlingRate, 4 by
default: the issue's "slow phone") and without. The page is the static fixture
tests/e2e/railmap_page.html served by a plain local HTTP server (no Django, no network
latency): it loads junction.css/js and railmap.css/js, fetches map.json and goods.json, draws
the map, and notes the time in the frame after the drawing (two animation frames after
``create``, so the map has been painted). Every run is a new browser context (cold cache).
Then the frame time (p90) while the map pans (a pan every frame) and while it zooms.

Aim (issue 14): under 1 s to the first drawn map with 4x throttling.

    .venv/bin/python bench/bench_railmap_page.py [--runs N] [--throttle R] [--map PATH]

SKIPPED (exit 0) if Debian's chromium is not installed.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import shutil
import statistics
import sys
import threading
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "e2e"
RR_DATA = ROOT / "games" / "engines" / "resourceful_rails" / "data"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]


def gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))


class Handler(http.server.SimpleHTTPRequestHandler):
    """/ → the fixture page, /railmap_page.js, /map.json (the map benchmarked), /goods.json,
    /static/… from the repository."""

    map_path: Path = RR_DATA / "map.json"

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            return str(FIXTURE / "railmap_page.html")
        if path == "/railmap_page.js":
            return str(FIXTURE / "railmap_page.js")
        if path == "/map.json":
            return str(self.map_path)
        if path == "/goods.json":
            return str(RR_DATA / "goods.json")
        if path.startswith("/static/") and ".." not in path:
            return str(ROOT / path.lstrip("/"))
        return str(ROOT / "missing")

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


# Frame times while the map moves: a pan (or a zoom step) in every animation frame for
# FRAME_COUNT frames, the 90th percentile of the time between frames (16.7 ms: every frame on
# time). It sees the main thread's work (script, style, layout, paint records), not rasterising.
FRAME_COUNT = 30
FRAMES = """async (count) => {
  const frames = (step) => new Promise((resolve) => {
    const stamps = [];
    const tick = (t) => { stamps.push(t); if (stamps.length > count) { resolve(stamps); return; } step(stamps.length); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const p90 = (stamps) => { const d = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b); return d[Math.floor(d.length * 0.9)]; };
  const pan = p90(await frames((i) => rm.panBy(i % 10 < 5 ? 12 : -12, 4)));
  rm.fit();
  const zoom = p90(await frames((i) => rm.zoomBy(i % 10 < 5 ? 0.9 : 1 / 0.9)));
  return { pan, zoom };
}"""


def one_run(browser, url: str, throttle: float) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 360, "height": 640}, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.goto(url)
        page.wait_for_function("() => window.railmapDrawn > 0", timeout=60_000)
        times = page.evaluate("window.railmapTimes")
        labels = page.locator(".rm-label").count()
        if labels == 0:
            raise RuntimeError("the map drew no city")
        frames = page.evaluate(FRAMES, FRAME_COUNT)
        return {
            "pan": frames["pan"],
            "zoom": frames["zoom"],
            "drawn": times["drawn"],
            "create": times["created"] - times["fetched"],
            "fetch": times["fetched"] - times["scripts"],
            "scripts": times["scripts"],
        }
    finally:
        context.close()


def describe(label: str, runs: list[dict[str, float]]) -> str:
    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    drawn = sorted(r["drawn"] for r in runs)
    return (
        f"{label:<18} first drawn map: median {med('drawn'):6.0f} ms (min {drawn[0]:.0f}, max {drawn[-1]:.0f}); "
        f"scripts ready {med('scripts'):5.0f} ms, map fetched +{med('fetch'):4.0f} ms, create() {med('create'):5.1f} ms; "
        f"frame p90 while panning {med('pan'):4.1f} ms, zooming {med('zoom'):4.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="page loads per setting (median kept)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown for the slow-phone run")
    parser.add_argument("--map", type=Path, default=RR_DATA / "map.json", help="a junction/rail-map@1 file")
    args = parser.parse_args()

    files = [ROOT / "static" / "js" / "railmap.js", ROOT / "static" / "css" / "railmap.css", args.map]
    total = 0
    for path in files:
        size = gzip_size(path)
        total += size
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size:,} bytes, gzip {size:,} bytes")
    print(f"railmap.js + railmap.css + map: gzip {total:,} bytes")

    if not Path(CHROMIUM).exists():
        print("SKIPPED: Debian's chromium is not installed (apt-get install -y chromium)")
        return 0
    from playwright.sync_api import sync_playwright

    handler = type("MapHandler", (Handler,), {"map_path": args.map.resolve()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            one_run(browser, url, 1)  # warm the browser process itself
            for rate in (args.throttle, 1.0):
                runs = [one_run(browser, url, rate) for _ in range(args.runs)]
                print(describe(f"CPU x{rate:g}:", runs))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
