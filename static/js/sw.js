/* Junction's service worker: the installable companion's app shell.
 *
 * Served at /sw.js (scope: the whole site) by players/install_views.py, which puts
 * self.JUNCTION_SW = {version, shell, static, offline, start, push} before this text: the version
 * is a hash of the static files, so a deploy that changes any of them installs a new worker with
 * a new cache and the old one is dropped.
 *
 * - Install: the app shell is cached (the offline page, then the pages' styles, scripts and
 *   images and the start page, each as it comes).
 * - Pages of play (home, a game's room, the table screen): network first, their last good copy
 *   kept and shown when the network fails, is slower than PATIENCE or a gateway answers 502-504,
 *   so a phone opens the table even on a flaky network; the page's socket then says
 *   "reconnecting…" and catches up by itself. Joining, the replay and the rejoin page are not
 *   kept, but are answered with the offline page when the network is down.
 * - Static files: from the cache first (their names carry their hash in production).
 * - Never: the API (/api), WebSockets (/ws/), anything but GET, other sites, other pages
 *   (accounts, admin): the browser does those as if there were no worker.
 * - The offline page, when the network is down and the page was never kept: "Reconnecting…",
 *   and it opens the page by itself when the connection is back. */
"use strict";

const CONFIG = self.JUNCTION_SW || { version: "unversioned", shell: [], static: "/static/", offline: "/offline", start: "/", push: null };
const SHELL_CACHE = "junction-shell-" + CONFIG.version;
const PAGES_CACHE = "junction-pages-" + CONFIG.version;
const PAGES_KEPT = 40;  // pages of play kept (the oldest go first)
const PATIENCE = 6000;  // ms a navigation waits for the network before a kept copy is shown

// Pages of play kept for offline use, and pages answered with the offline page when down.
const KEPT_PAGES = [/^\/$/, /^\/games\/[^/]+\/$/, /^\/games\/[^/]+\/table$/];
const FALLBACK_PAGES = [/^\/join\/[^/]+$/, /^\/games\/[^/]+\/(replay|rejoin)$/];

// Turn notices' push handlers (a separate script): the worker installs without them.
if (CONFIG.push) {
  try { importScripts(CONFIG.push); } catch (e) { /* missing or broken: no push handlers */ }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // The offline page or no worker (a failed install is tried again at the next visit); it and
    // the start page are fetched as nobody in particular (they are the same for everyone).
    const offline = await fetch(CONFIG.offline, { cache: "no-store", credentials: "omit" });
    if (!offline.ok) throw new Error("offline page: " + offline.status);
    await cache.put(CONFIG.offline, offline);
    // The rest as it comes: a file that failed now is kept the next time a page uses it.
    await Promise.allSettled(CONFIG.shell.map((url) => cache.add(url)));
    try {
      const start = await fetch(CONFIG.start, { cache: "no-store", credentials: "omit" });
      if (keepable(start)) await (await caches.open(PAGES_CACHE)).put(CONFIG.start, start);
    } catch (e) { /* offline or busy: kept on the next visit */ }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("junction-") && n !== SHELL_CACHE && n !== PAGES_CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/ws/")) return;
  if (request.mode === "navigate") {
    if (KEPT_PAGES.some((re) => re.test(path))) event.respondWith(page(event, true));
    else if (FALLBACK_PAGES.some((re) => re.test(path))) event.respondWith(page(event, false));
    return;
  }
  if (path.startsWith(CONFIG.static)) event.respondWith(staticFile(event));
});

// Keep the worker alive for a cache write that may finish after the answer went out.
function extend(event, promise) {
  try { event.waitUntil(promise); } catch (e) { /* the event is over: the write goes on regardless */ }
}

function keepable(response) {
  // A whole, direct, same-site answer the server did not forbid storing.
  return response.ok && response.type === "basic" && !response.redirected
    && !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

async function page(event, keep) {
  const request = event.request;
  const cache = await caches.open(PAGES_CACHE);
  const kept = keep ? await cache.match(request, { ignoreVary: true }) : undefined;
  const network = fetch(request).then((response) => {
    if (keep && keepable(response)) {
      const copy = response.clone();
      extend(event, cache.put(request, copy).then(() => trim(cache)));
    }
    return response;
  });
  try {
    if (!kept) return await network;
    network.catch(() => { /* the kept copy answered */ });
    let timer;
    const patience = new Promise((resolve) => { timer = setTimeout(() => resolve(kept), PATIENCE); });
    let answer;
    try { answer = await Promise.race([network, patience]); } finally { clearTimeout(timer); }
    // A proxy or a load balancer that cannot reach the server: the kept copy does better.
    return answer.status >= 502 && answer.status <= 504 ? kept : answer;
  } catch (e) {
    return kept || (await caches.match(CONFIG.offline, { cacheName: SHELL_CACHE, ignoreVary: true }))
      || new Response("Reconnecting…", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

async function trim(cache) {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT)).map((k) => cache.delete(k)));
}

async function staticFile(event) {
  const request = event.request;
  const cache = await caches.open(SHELL_CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (keepable(response)) {
    const copy = response.clone();
    extend(event, cache.put(request, copy));
  }
  return response;
}
