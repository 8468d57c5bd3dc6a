/* The offline page (templates/players/offline.html): the service worker shows it in place of a
 * page it never kept while the network is down. It asks the server for that page now and then
 * (at once when the device says it is back online, or on "Try again now") and opens it as soon
 * as the server answers. Opened at its own address, it goes home instead. */
"use strict";

(() => {
  const box = document.getElementById("offline");
  if (!box) return;
  const target = location.pathname === box.dataset.offlinePath ? box.dataset.home : location.href;
  const note = document.getElementById("offline-status");
  let delay = 2000, timer = null, asking = false;

  async function attempt() {
    if (asking) return;
    asking = true;
    clearTimeout(timer);
    try {
      const response = await fetch(target, { cache: "no-store", headers: { "Accept": "text/html" } });
      if (response.status < 500) {  // the server is there (a 5xx is a proxy without it, or a busy server)
        note.textContent = "Connected: opening the page…";
        location.replace(target);
        return;
      }
    } catch (e) { /* still offline */ }
    asking = false;
    note.textContent = "Still offline: trying again in " + Math.round(delay / 1000) + " s.";
    timer = setTimeout(attempt, delay);
    delay = Math.min(15000, Math.round(delay * 1.5));
  }

  document.getElementById("offline-retry").addEventListener("click", () => { delay = 2000; attempt(); });
  window.addEventListener("online", () => { delay = 2000; attempt(); });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") attempt(); });
  timer = setTimeout(attempt, delay);
})();
