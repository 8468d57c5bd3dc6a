"""Benchmark: a title's play page (Resourceful Rails, Runerail, Slipway: ``--kind``) as a seated player gets it: its
weight and its time to the first drawn board (a rail title's map with its track; Slipway's action track).

One Daphne serving the app the way a hosted table does (``make host``: JUNCTION_HOST=1, so DEBUG
off and the static files collected, hashed and gzip-compressed by WhiteNoise; ``collectstatic``
runs into a temporary directory first), on the embedded default (a temporary SQLite file and the
in-memory channel layer) unless ``--database-url`` and ``--redis-url`` are given (PostgreSQL +
Redis). A 3-seat game is created, filled and started over HTTP; then ``--moves`` commands are sent
over HTTP, each by the seat whose turn it is, chosen from its ``legal_commands`` (a build section
that extends the line the seat built last, else any build section, else keeping a foreman (Runerail's
draft), else placing the train, else the end of the turn; seeded), so the map has everyone's track on it.

Each run is a new browser context (cold cache) in Debian's Chromium, headless, 360 x 640 phone
viewport (device scale 2, touch), with the CPU slowed ``--throttle`` times (CDP
Emulation.setCPUThrottlingRate; 4 by default: the issue's "slow phone") and, in a second set of
runs, not slowed. The seat's token is put into localStorage before any script runs
(``junction.tokens``, as static/js/junction.js ``saveSeat`` stores it), and the page
``/games/{code}/`` is opened. Measured from navigation start (``performance.timeOrigin``):

- **first drawn map**: an animation-frame loop (an init script) checks for the map's ``svg`` (``#rr-map``,
  ``#rn-map``), ``document.body.dataset.version`` and, when the game has track, at least one
  ``.rm-track-line`` in it; the time is ``performance.now()`` in the next animation frame after the
  one in which all three were first seen, i.e. two animation frames after the drawing, once the
  map has been painted;
- on the way there: the HTML and the last script or style received, first contentful paint,
  DOMContentLoaded (the navigation entry's ``domContentLoadedEventEnd``), the WebSocket opened and
  its first ``state`` frame (``WebSocket`` subclassed by the init script to note them), the content
  fetch (``GET /api/kinds/{kind}/content``, Resource Timing: when it started and its
  duration), the content received → the map drawn, and drawn → painted;
- the renderer main thread's work until the map was painted (CDP Performance.getMetrics:
  TaskDuration, and its ScriptDuration, RecalcStyleDuration, LayoutDuration; throttled time).

Weight: the bytes the browser received for the page load until the map was drawn and the page
settled (CDP Network ``loadingFinished.encodedDataLength``: body as sent plus response headers),
per resource with its ``Content-Encoding`` (and, for a body that came uncompressed, its size
gzipped at level 6, asked again over HTTP: what compression would send); WebSocket frames are listed apart (their payload
length). Then the same page is opened again in the same context (via about:blank, a new
navigation, not a reload): the warm-cache time and bytes, and how each resource came (network,
cache, 304). The content's ETag is also checked directly: ``If-None-Match`` must get 304.

Aim (issues 14 and 15): under 1 s to the first drawn map with 4x throttling.

    .venv/bin/python bench/bench_rail_page.py [--kind resourceful-rails|runerail] [--runs 5] [--throttle 4] [--moves 80]
        [--database-url postgres://… --redis-url redis://…]

SKIPPED (exit 0) if Debian's chromium is not installed (or the given services are not reachable).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    PYTHON,
    ROOT,
    flush_redis,
    percentile,
    prepare_database,
    processes,
    services_reachable,
    start_daphne,
    started_game,
)

# Each title's page: the element its board is drawn in, and what shows the game's track on it (None: a title
# without track: its board drawn is enough).
KINDS = {"resourceful-rails": {"map": "#rr-map", "lines": ".rm-track-line"},
         "runerail": {"map": "#rn-map", "lines": ".rm-track-line"},
         "slipway": {"map": "#sw-track", "lines": None}}
KIND = "resourceful-rails"  # set by --kind
CONTENT_PATH = f"/api/kinds/{KIND}/content"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]
AIM_MS = 1000.0

# Runs before any of the page's scripts: the seat's token where the site keeps it, the WebSocket's
# first state frame noted, and the animation-frame loop that notes the first drawn map.
INIT_SCRIPT = """(() => {
  const setup = %s;
  try {  // (about:blank, between the two loads, has no storage)
    const all = JSON.parse(localStorage.getItem("junction.tokens") || "{}");
    all[setup.code] = setup.seat;
    localStorage.setItem("junction.tokens", JSON.stringify(all));
  } catch (e) { /* not this page */ }
  const bench = window.__bench = { seen: null, drawn: null, wsOpened: null, wsState: null };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (bench.wsOpened === null) bench.wsOpened = performance.now();
      const onMessage = (event) => {
        if (typeof event.data === "string" && /"type":\\s*"state"/.test(event.data)) {
          if (bench.wsState === null) bench.wsState = performance.now();
          this.removeEventListener("message", onMessage);
        }
      };
      this.addEventListener("message", onMessage);
    }
  };
  const drawn = () => document.body && document.body.dataset.version && document.querySelector(setup.map + " svg")
    && (!setup.track || !setup.lines || document.querySelector(setup.map + " " + setup.lines));
  const check = () => {
    if (drawn()) {
      bench.seen = performance.now();
      requestAnimationFrame(() => { bench.drawn = performance.now(); });
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();"""

TIMES = """([contentPath, map, lines]) => {
  const nav = performance.getEntriesByType("navigation")[0];
  const content = performance.getEntriesByType("resource").find((e) => e.name.includes(contentPath));
  return Object.assign({}, window.__bench, {
    html: nav.responseEnd, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, navType: nav.type,
    statics: Math.max(0, ...performance.getEntriesByType("resource").filter((e) => /[.](js|css)$/.test(e.name)).map((e) => e.responseEnd)),
    paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
    contentStart: content ? content.startTime : null, contentEnd: content ? content.responseEnd : null,
    contentTransfer: content ? content.transferSize : null,
    tracks: lines ? document.querySelectorAll(map + " " + lines).length : null,
    version: document.body.dataset.version,
  });
}"""


# -- the server and the game ---------------------------------------------------------------------------

def server_env(args: argparse.Namespace, tmp: Path) -> dict[str, str]:
    """What Daphne, migrate and collectstatic run with: a hosted table's settings."""
    env = {
        "JUNCTION_HOST": "1",  # DEBUG off, CompressedManifestStaticFilesStorage (config/settings.py)
        "JUNCTION_STATIC_ROOT": str(tmp / "static"),  # not the repository's staticfiles/
        "DJANGO_SECRET_KEY": "bench-rail-page",  # not var/host-secret-key
    }
    if args.database_url:
        env.update({"DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url})
    else:
        env["SQLITE_PATH"] = str(tmp / "db.sqlite3")
    return env


def prepare_server(args: argparse.Namespace, env: dict[str, str]) -> None:
    if args.database_url:
        prepare_database(args.database_url)
        flush_redis(args.redis_url)
    full = {**os.environ, **env}
    if not args.database_url:
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=full, check=True)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=full, check=True)


def play(base: str, code: str, tokens: list[str], moves: int, seed: int) -> dict:
    """``moves`` commands over HTTP, each by the seat whose turn it is; the last view of each seat."""
    import httpx

    rng = random.Random(seed)
    last_end: dict[int, str] = {}  # seat → the milepost its last build ended at
    with httpx.Client(base_url=base, timeout=30) as client:
        def view(token: str) -> dict:
            response = client.get(f"/api/games/{code}/state", headers={"Authorization": f"Bearer {token}"})
            response.raise_for_status()
            return response.json()

        for _ in range(moves):
            payload = view(tokens[0])
            if payload["status"] != "active":
                break
            seat = payload["state"]["active_seat"]
            payload = view(tokens[seat])
            legal = payload["legal_commands"]
            if not legal:
                raise RuntimeError(f"seat {seat} has no legal command at version {payload['version']}")
            if KIND == "slipway":  # ships rather than track: build, outfit and cruise first
                ships = [c for c in legal if c["cmd"] in ("build", "outfit", "cruise")]
                command = rng.choice(ships or [c for c in legal if c["cmd"] != "end-turn"] or legal)
                response = client.post(f"/api/games/{code}/commands", headers={"Authorization": f"Bearer {tokens[seat]}"},
                                       json={**command, "expected_version": payload["version"]})
                response.raise_for_status()
                continue
            builds = [c for c in legal if c["cmd"] == "build"]
            onward = [c for c in builds if json.dumps(c["path"][0]) == last_end.get(seat)]
            by_name = {c["cmd"]: c for c in legal}
            command = (rng.choice(onward) if onward else rng.choice(builds) if builds
                       else by_name.get("keep-foreman") or by_name.get("place-train") or by_name.get("discard-cards") or by_name.get("end-turn") or legal[0])
            if command["cmd"] == "place-train":
                command = rng.choice([c for c in legal if c["cmd"] == "place-train"])
            response = client.post(f"/api/games/{code}/commands", headers={"Authorization": f"Bearer {tokens[seat]}"},
                                   json={**command, "expected_version": payload["version"]})
            response.raise_for_status()
            if command["cmd"] == "build":
                last_end[seat] = json.dumps(command["path"][-1])
        return {seat: view(token) for seat, token in enumerate(tokens)}


def check_etag(base: str) -> str:
    """The content endpoint's revalidation, asked directly: what If-None-Match gets."""
    import httpx

    with httpx.Client(base_url=base, timeout=30) as client:
        first = client.get(CONTENT_PATH, headers={"Accept-Encoding": "gzip, deflate"})
        etag = first.headers.get("etag")
        again = client.get(CONTENT_PATH, headers={"If-None-Match": etag or "", "Accept-Encoding": "gzip, deflate"})
    encoding = first.headers.get("content-encoding", "none")
    return (f"content endpoint: {first.status_code}, {int(first.headers.get('content-length', len(first.content))):,} bytes "
            f"(Content-Encoding {encoding}; Cache-Control {first.headers.get('cache-control')}), ETag {etag}; "
            f"with If-None-Match: {again.status_code}, {len(again.content)} bytes")


# -- one page load -----------------------------------------------------------------------------------------

class Network:
    """What the browser received, per request (CDP Network events)."""

    def __init__(self, cdp) -> None:
        self.requests: dict[str, dict] = {}
        self.ws_frames: list[int] = []
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.requestServedFromCache", self._cached)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", lambda e: self.ws_frames.append(len(e["response"]["payloadData"].encode())))
        cdp.send("Network.enable")

    def reset(self) -> None:
        self.requests, self.ws_frames = {}, []

    def _entry(self, event: dict) -> dict:
        return self.requests.setdefault(event["requestId"], {"url": "", "status": None, "encoding": "", "bytes": 0, "cache": False})

    def _sent(self, event: dict) -> None:
        self._entry(event)["url"] = event["request"]["url"]

    def _response(self, event: dict) -> None:
        entry, response = self._entry(event), event["response"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        entry.update(url=response["url"], status=response["status"], encoding=headers.get("content-encoding", ""),
                     mime=response.get("mimeType", ""))
        entry["cache"] = entry["cache"] or response.get("fromDiskCache") or response.get("fromPrefetchCache")

    def _cached(self, event: dict) -> None:
        self._entry(event)["cache"] = True

    def _finished(self, event: dict) -> None:
        self._entry(event)["bytes"] = int(event["encodedDataLength"])

    def rows(self) -> list[dict]:
        return [r for r in self.requests.values() if r["url"].startswith("http")]


def plan_latency(base: str, code: str, token: str, samples: int, seed: int) -> str:
    """A tap's round trip: ``samples`` build plans (POST /api/games/{code}/plan, ``[null, milepost]``:
    the cheapest legal way from the seat's network to a random land milepost) over HTTP, as the page
    asks after every tap. Refused plans (no legal way, not the seat's turn) are timed apart."""
    import httpx

    content = httpx.get(base + CONTENT_PATH).json()
    rng = random.Random(seed)
    if KIND == "slipway":  # a tap on a market ship tile: the yard's slots planned for it
        tiles = [t["id"] for t in content["ships"]["tiles"]]
        bodies = [{"plan": "build", "tiles": [], "tile": rng.choice(tiles)} for _ in range(samples)]
        what = "a ship tile's slots"
    else:
        keys = [n["at"] for n in content["map"]["nodes"]]
        bodies = [{"plan": "build", "points": [None, rng.choice(keys)]} for _ in range(samples)]
        what = "build to a random milepost"
    ok: list[float] = []
    refused: list[float] = []
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as client:
        for body in bodies:
            t0 = time.perf_counter()
            response = client.post(f"/api/games/{code}/plan", json=body)
            (ok if response.status_code == 200 else refused).append((time.perf_counter() - t0) * 1000)
    part = lambda xs: (f"{len(xs)} answered, p50 {percentile(xs, 50):.1f} ms, p99 {percentile(xs, 99):.1f} ms"  # noqa: E731
                       if xs else "none")
    return f"a tap's plan over HTTP ({what}): {part(ok)}; refused: {part(refused)}"


def label(url: str) -> str:
    path = urlsplit(url).path
    query = urlsplit(url).query
    if path.startswith("/games/") and path.endswith("/"):
        return "the page (HTML)"
    return path + ("?" + query if query else "")


MAIN_THREAD = {"ScriptDuration": "script", "LayoutDuration": "layout", "RecalcStyleDuration": "style", "TaskDuration": "busy"}


def main_thread(cdp) -> dict[str, float]:
    """The renderer's main-thread time so far, ms (CDP Performance.getMetrics; throttled time when throttled)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {key: metrics.get(name, 0.0) * 1000 for name, key in MAIN_THREAD.items()}


def load(page, cdp, network: Network, url: str, track: bool) -> dict:
    network.reset()
    before = main_thread(cdp)
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_function("() => window.__bench && window.__bench.drawn !== null", timeout=120_000, polling=50)
    after = main_thread(cdp)
    work = {key: after[key] - before[key] if after[key] >= before[key] else after[key] for key in after}
    try:  # let the rest of the load (the feed's fetch, late images) finish before counting bytes
        page.wait_for_load_state("networkidle", timeout=3000)
    except Exception:  # noqa: BLE001 - a socket keeps the page from "idle" on some versions: counted as is
        pass
    times = page.evaluate(TIMES, [CONTENT_PATH, KINDS[KIND]["map"], KINDS[KIND]["lines"]])
    if track and KINDS[KIND]["lines"] and not times["tracks"]:
        raise RuntimeError("the map was drawn without the game's track")
    rows = network.rows()
    return {**times, **work, "rows": rows, "bytes": sum(r["bytes"] for r in rows), "ws": sum(network.ws_frames),
            "ws_frames": len(network.ws_frames)}


def one_run(browser, base: str, code: str, seat: dict, track: bool, throttle: float) -> tuple[dict, dict]:
    """A cold load in a new context, then a warm one in the same context."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        context.add_init_script(INIT_SCRIPT % json.dumps({"code": code, "seat": seat, "track": track, **KINDS[KIND]}))
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        network = Network(cdp)
        cdp.send("Performance.enable")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        url = f"{base}/games/{code}/"
        cold = load(page, cdp, network, url, track)
        page.goto("about:blank")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        warm = load(page, cdp, network, url, track)
        return cold, warm
    finally:
        context.close()


# -- the report --------------------------------------------------------------------------------------------

def stats(values: list[float]) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return f"{'-':>7}{'-':>7}{'-':>7}"
    return f"{percentile(values, 50):7.0f}{percentile(values, 90):7.0f}{max(values):7.0f}"


TIMING_ROWS = [
    ("first drawn map", lambda r: r["drawn"]),
    ("  HTML received", lambda r: r["html"]),
    ("  scripts and styles received (the last)", lambda r: r["statics"]),
    ("  first contentful paint", lambda r: r["paint"]),
    ("  DOMContentLoaded", lambda r: r["dcl"]),
    ("  WebSocket opened", lambda r: r["wsOpened"]),
    ("  WebSocket's first state frame", lambda r: r["wsState"]),
    ("  content fetch started", lambda r: r["contentStart"]),
    ("  content fetch duration", lambda r: None if r["contentStart"] is None else r["contentEnd"] - r["contentStart"]),
    ("  content received -> map drawn (seen)", lambda r: None if r["contentEnd"] is None else r["seen"] - r["contentEnd"]),
    ("  drawn -> painted (the next frame)", lambda r: r["drawn"] - r["seen"]),
    ("main thread busy until painted (ms of tasks)", lambda r: r["busy"]),
    ("  of which script", lambda r: r["script"]),
    ("  of which style", lambda r: r["style"]),
    ("  of which layout", lambda r: r["layout"]),
]


def timing_table(label_: str, cold: list[dict], warm: list[dict]) -> list[str]:
    lines = [f"{label_}  (ms from navigation start; {len(cold)} runs)",
             f"  {'':42}{'cold cache':>21}   {'warm cache':>21}",
             f"  {'':42}{'p50':>7}{'p90':>7}{'max':>7}   {'p50':>7}{'p90':>7}{'max':>7}"]
    for name, get in TIMING_ROWS:
        lines.append(f"  {name:42}{stats([get(r) for r in cold])}   {stats([get(r) for r in warm])}")
    return lines


def gzip_sizes(rows: list[dict], token: str) -> dict[str, int]:
    """For each response that came uncompressed: its body's size gzipped (level 6), asked again as the seat."""
    import httpx

    out = {}
    with httpx.Client(timeout=30, headers={"Authorization": f"Bearer {token}"}) as client:
        for r in rows:
            if r["status"] == 200 and not r["cache"] and not r["encoding"]:
                out[r["url"]] = len(gzip.compress(client.get(r["url"]).content, compresslevel=6, mtime=0))
    return out


def weight_table(title: str, rows: list[dict], gz: dict[str, int] | None = None) -> list[str]:
    gz = gz or {}
    lines = [title, f"  {'resource':54}{'status':>7}{'bytes':>9}  encoding / from"]
    for r in sorted(rows, key=lambda r: -r["bytes"]):
        how = "cache" if r["cache"] else (r["encoding"] or "none")
        if r["url"] in gz:
            how += f" (gzip -6 would send {gz[r['url']]:,} bytes of body)"
        lines.append(f"  {label(r['url'])[:54]:54}{r['status'] or '-':>7}{r['bytes']:9,}  {how}")
    lines.append(f"  {'total received (bodies as sent + headers)':61}{sum(r['bytes'] for r in rows):9,}")
    return lines


def main() -> int:
    global KIND, CONTENT_PATH
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=sorted(KINDS), default="resourceful-rails", help="the title whose page is loaded")
    parser.add_argument("--runs", type=int, default=5, help="page loads per setting (each a new browser context)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown for the slow-phone runs")
    parser.add_argument("--moves", type=int, default=80, help="commands played before the page is opened (track on the map)")
    parser.add_argument("--seat", type=int, default=None, help="the seat the page is opened as (default: whose turn it is)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plans", type=int, default=200, help="build plans asked over HTTP (a tap's round trip)")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""),
                        help="PostgreSQL (with --redis-url) instead of the embedded SQLite + in-memory layer")
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", ""))
    args = parser.parse_args()
    KIND, CONTENT_PATH = args.kind, f"/api/kinds/{args.kind}/content"

    if not Path(CHROMIUM).exists():
        print("SKIPPED: Debian's chromium is not installed (apt-get install -y chromium)")
        return 0
    if bool(args.database_url) != bool(args.redis_url):
        parser.error("--database-url and --redis-url go together")
    if args.database_url:
        why = services_reachable(args.database_url, args.redis_url)
        if why:
            print(f"SKIPPED: {why}")
            return 0
    else:  # the embedded default: no DATABASE_URL / REDIS_URL from this shell may reach the server
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-rail-page-") as tmp_name, processes() as started:
        tmp = Path(tmp_name)
        env = server_env(args, tmp)
        prepare_server(args, env)
        daphne = start_daphne(env)
        started.append(daphne)
        base = f"http://127.0.0.1:{daphne.port}"

        code, tokens = started_game(base, KIND, 3)
        t0 = time.perf_counter()
        views = play(base, code, tokens, args.moves, args.seed)
        played = time.perf_counter() - t0
        state = views[0]["state"]
        seat = args.seat if args.seat is not None else (state["active_seat"] if state["active_seat"] is not None else 0)
        view = views[seat]
        track = len(state["track"]) if KINDS[KIND]["lines"] else sum(len(p["fleet"]) for p in state["players"])
        seat_info = {"token": tokens[seat], "seat": seat, **({"host": True} if seat == 0 else {})}
        print(f"one Daphne ({'PostgreSQL + Redis' if args.database_url else 'embedded: SQLite + in-memory channel layer'}), "
              f"as `make host` serves (JUNCTION_HOST=1: DEBUG off, collected + compressed static files)")
        print(f"game {code} ({KIND}): 3 seats, version {view['version']} after {args.moves} commands ({played:.1f} s), "
              f"{track} {'track sections' if KINDS[KIND]['lines'] else 'ships launched'}, {state['phase']} phase, "
              f"stage {state['stage'] if 'stage' in state else (state.get('turn') or {}).get('stage')}; the page opened as seat {seat}"
              f"{' (its turn)' if seat == state['active_seat'] else ''}, its view {len(json.dumps(view)):,} bytes of JSON")
        print(check_etag(base))
        active = state["active_seat"] if state["active_seat"] is not None else 0
        print(plan_latency(base, code, tokens[active], args.plans, args.seed))

        results: dict[float, tuple[list[dict], list[dict]]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            one_run(browser, base, code, seat_info, track > 0, 1.0)  # warm the browser process and the server
            for rate in (args.throttle, 1.0):
                cold, warm = [], []
                for _ in range(args.runs):
                    c, w = one_run(browser, base, code, seat_info, track > 0, rate)
                    cold.append(c)
                    warm.append(w)
                results[rate] = (cold, warm)
            browser.close()
        gz = gzip_sizes(results[args.throttle][0][0]["rows"], tokens[seat])
    load_after = os.getloadavg()

    print(f"Chromium {CHROMIUM}, headless, 360 x 640 (scale 2, touch); load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after, on {os.cpu_count()} CPUs")
    for rate, (cold, warm) in results.items():
        print()
        print("\n".join(timing_table(f"CPU x{rate:g}", cold, warm)))
    cold, warm = results[args.throttle]
    print()
    print("\n".join(weight_table("weight, cold cache (first run):", cold[0]["rows"], gz)))
    print(f"  WebSocket frames received: {cold[0]['ws_frames']}, {cold[0]['ws']:,} bytes of payload (uncompressed)")
    totals = sorted({r["bytes"] for r in cold})
    print(f"  totals over the runs: {', '.join(f'{t:,}' for t in totals)} bytes")
    print()
    print("\n".join(weight_table("weight, warm cache (the page opened again in the same context):", warm[0]["rows"])))
    content_warm = [r for r in warm[0]["rows"] if CONTENT_PATH in r["url"]]
    how = ("not requested" if not content_warm else
           f"{content_warm[0]['status']}{' from the HTTP cache' if content_warm[0]['cache'] else ''}, {content_warm[0]['bytes']:,} bytes")
    print(f"  content on the warm load: {how} (navigation type {warm[0]['navType']})")
    p50 = percentile([r["drawn"] for r in cold], 50)
    print()
    print(f"aim: first drawn map under {AIM_MS:.0f} ms at CPU x{args.throttle:g}, cold cache: p50 {p50:.0f} ms, "
          f"max {max(r['drawn'] for r in cold):.0f} ms: {'met' if p50 < AIM_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
