/* The turn notices page (/me/notices): "Allow notices on this device" subscribes this browser
 * through the service worker's pushManager (the worker at /sw.js imports /static/js/sw_push.js)
 * and hands the subscription to the server; "Stop" forgets it on both sides. */
"use strict";

(() => {
  const config = Junction.readJson("notices-config") || {};
  const allow = document.getElementById("notices-allow");
  const stop = document.getElementById("notices-stop");
  const status = document.getElementById("notices-device-status");
  const errorBox = document.getElementById("notices-device-error");
  if (!allow) return;

  function say(message) { status.textContent = message; }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  async function send(method, body) {
    let response;
    try {
      response = await fetch(config.devices_url, {
        method, credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": config.csrf_token },
        body: JSON.stringify(body),
      });
    } catch (e) {
      return { ok: false, message: "Cannot reach the server." };
    }
    let data;
    try { data = await response.json(); } catch (e) { data = null; }
    return { ok: response.ok, message: data && data.error ? data.error.message : "The server refused (" + response.status + ")." };
  }

  async function registration() {
    // The installable companion's worker; registering the same script again changes nothing.
    await navigator.serviceWorker.register("/sw.js");
    return navigator.serviceWorker.ready;
  }

  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!config.public_key) {
    allow.disabled = true;
    say("This server sends no device notices (it has no push keys); e-mail still works.");
    return;
  }
  if (!supported) {
    allow.disabled = true;
    say("This browser cannot receive notices; you will get an e-mail instead.");
    return;
  }

  async function refresh() {
    try {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = reg && await reg.pushManager.getSubscription();
      stop.hidden = !sub;
      if (sub) say("This device gets notices.");
    } catch (e) { /* no worker yet: nothing subscribed */ }
  }

  allow.addEventListener("click", async () => {
    allow.disabled = true;
    Junction.showError(errorBox, "");
    say("Asking…");
    try {
      if (await Notification.requestPermission() !== "granted") {
        Junction.showError(errorBox, "Notices are blocked for this site: allow them in the browser's site settings.", allow);
        say("");
        return;
      }
      const reg = await registration();
      const sub = await reg.pushManager.getSubscription()
        || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(config.public_key) });
      const answer = await send("POST", sub.toJSON());
      if (!answer.ok) { Junction.showError(errorBox, answer.message, allow); say(""); return; }
      say("This device gets notices.");
      stop.hidden = false;
    } catch (e) {
      Junction.showError(errorBox, "This device could not subscribe: " + Junction.text(e && e.message, "unknown error") + ".", allow);
      say("");
    } finally {
      allow.disabled = false;
    }
  });

  stop.addEventListener("click", async () => {
    stop.disabled = true;
    try {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = reg && await reg.pushManager.getSubscription();
      if (sub) {
        await send("DELETE", { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      stop.hidden = true;
      say("This device gets no notices.");
    } finally {
      stop.disabled = false;
    }
  });

  refresh();
})();
