/* The installable companion on every page (templates/base.html loads it after junction.js):
 *
 * - registers the service worker (/sw.js: static/js/sw.js, the app shell and the offline page).
 *   A browser driven by tests (navigator.webdriver) registers it only when localStorage
 *   "junction.sw" is "on": the other browser tests stay about their page alone, and their many
 *   fresh browser contexts do not each download the shell (tests/e2e/test_browser_install.py
 *   turns it on). The pages the worker kept are forgotten when who is signed in changes.
 * - keeps the screen on while a game is open (Screen Wake Lock, where the browser has it): from
 *   the game's summary (the "junction:game" event junction.js's connectGame sends for every
 *   summary) until the game is over; the lock the browser drops when the page is hidden is taken
 *   again when it is visible. body[data-wake-lock] tells "held" or "released". */
"use strict";

const JunctionPWA = (() => {
  function workerWanted() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return false;
    if (!navigator.webdriver) return true;
    try { return localStorage.getItem("junction.sw") === "on"; } catch (e) { return false; }
  }

  function register() {
    if (!workerWanted()) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" })
      .catch(() => { /* no worker: the site works as before, online only */ });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);

  // The kept pages' top bar names who was signed in: they are forgotten on the first page whose top
  // bar names someone else (after signing in, out, or deleting the account).
  function forgetPages() {
    if (!window.caches) return;
    caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith("junction-pages-")).map((n) => caches.delete(n))))
      .catch(() => {});
  }
  const nav = document.querySelector(".account-nav[data-account]");
  if (nav) {
    try {
      const before = localStorage.getItem("junction.account");
      if (before !== null && before !== nav.dataset.account) forgetPages();
      localStorage.setItem("junction.account", nav.dataset.account);
    } catch (e) { /* no storage: nothing to compare with */ }
  }

  // ---- Screen Wake Lock --------------------------------------------------------------------
  const OPEN = new Set(["lobby", "active", "paused"]);  // a game at the table; finished or abandoned: over
  let wanted = false, lock = null, asking = false;

  function mark(state) { if (document.body) document.body.dataset.wakeLock = state; }

  async function acquire() {
    if (!wanted || lock || asking || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const got = await navigator.wakeLock.request("screen");
      if (!wanted) { got.release(); return; }  // the game ended while we asked
      lock = got;
      mark("held");
      got.addEventListener("release", () => { if (lock === got) { lock = null; mark("released"); } });
    } catch (e) {
      /* refused (battery saver, a hidden page, a policy): the screen may sleep */
    } finally {
      asking = false;
    }
  }

  function keepAwake(on) {
    wanted = !!on;
    if (wanted) { acquire(); return; }
    if (lock) { const old = lock; lock = null; old.release().catch(() => {}); mark("released"); }
  }

  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("junction:game", (event) => {
    const game = event.detail || {};
    keepAwake(OPEN.has(game.status));
  });

  return { keepAwake };
})();
