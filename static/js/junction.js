/* Junction browser client: token store, JSON API calls and a live game socket
 * that reconnects by itself (after sleep, network loss or a server restart) and
 * always ends on the server's current version. Used by every page. */
"use strict";

const Junction = (() => {
  const STORE = "junction.tokens";

  function allTokens() {
    try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
  }
  function saveSeat(code, info) {
    const all = allTokens();
    all[code] = Object.assign({}, all[code] || {}, info);
    localStorage.setItem(STORE, JSON.stringify(all));
  }
  function seatFor(code) { return allTokens()[code] || null; }

  const BUSY_RETRIES = 5;  // a busy server (503 + Retry-After) is asked again this many times
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  function retryDelay(seconds) { return (Number(seconds) > 0 ? Number(seconds) * 1000 : 1000) + Math.random() * 300; }

  async function api(method, path, body, token) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (e) {
        return { ok: false, status: 0, data: { error: { code: "network", message: "Cannot reach the server." } } };
      }
      // Busy: nothing was done; ask again after the time the server gave (commands carry a
      // command_id, so a repeat can never apply twice).
      if (response.status === 503 && response.headers.has("Retry-After") && attempt < BUSY_RETRIES) {
        await sleep(retryDelay(response.headers.get("Retry-After")));
        continue;
      }
      let data = null;
      try { data = await response.json(); } catch (e) { data = null; }
      return { ok: response.ok, status: response.status, data };
    }
  }

  function errorText(result) {
    const err = result && result.data && result.data.error;
    return err ? err.message : "Something went wrong (" + (result ? result.status : "?") + ").";
  }

  function newCommandId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  /* A live connection to one game. handlers: onState(payload), onGame(summary),
   * onStatus("open"|"connecting"|"closed"), onError(error). */
  function connectGame(code, token, handlers) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = proto + "//" + location.host + "/ws/games/" + encodeURIComponent(code) + "/" + (token ? "?token=" + encodeURIComponent(token) : "");
    let socket = null, retry = 0, stopped = false, version = -1, timer = null;
    const pending = new Map();

    function status(s) { if (handlers.onStatus) handlers.onStatus(s); }

    function open() {
      if (stopped) return;
      clearTimeout(timer);
      status("connecting");
      socket = new WebSocket(url);
      socket.onopen = () => { retry = 0; status("open"); };
      socket.onmessage = (event) => {
        let msg;
        try { msg = JSON.parse(event.data); } catch (e) { return; }
        if (msg.type === "state") {
          if (msg.version < version) return;  // an older broadcast overtaken by a newer one
          version = msg.version;
          if (handlers.onState) handlers.onState(msg);
        } else if (msg.type === "game") {
          if (handlers.onGame) handlers.onGame(msg.game);
        } else if (msg.type === "result" || msg.type === "error") {
          const waiter = msg.command_id && pending.get(msg.command_id);
          if (waiter) { pending.delete(msg.command_id); waiter(msg); }
          else if (msg.type === "error" && handlers.onError) handlers.onError(msg.error);
        }
      };
      socket.onclose = (event) => {
        status("closed");
        for (const [id, waiter] of pending) waiter({ type: "error", error: { code: "disconnected", message: "Connection lost; please retry." } });
        pending.clear();
        if (stopped || event.code === 4404 || event.code === 4401 || event.code === 4403) return;
        const delay = Math.min(10000, 300 * Math.pow(2, retry++)) + Math.random() * 200;
        timer = setTimeout(open, delay);
      };
    }

    // Phones sleep: when the page becomes visible again, make sure we are live.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!socket || socket.readyState > 1)) { retry = 0; open(); }
    });
    window.addEventListener("online", () => { if (!socket || socket.readyState > 1) { retry = 0; open(); } });

    open();

    return {
      get version() { return version; },
      async send(command) {
        const body = Object.assign({ command_id: newCommandId() }, command);
        for (let attempt = 0; ; attempt++) {
          const answer = await new Promise((resolve) => {
            if (!socket || socket.readyState !== 1) {
              resolve({ type: "error", error: { code: "disconnected", message: "Not connected; reconnecting…" } });
              return;
            }
            pending.set(body.command_id, resolve);
            socket.send(JSON.stringify(body));
          });
          // A busy server did nothing: the same command (same id) again after the time it gave.
          if (answer.type !== "error" || answer.error.code !== "database-busy" || attempt >= BUSY_RETRIES) return answer;
          await sleep(retryDelay(answer.retry_after));
        }
      },
      close() { stopped = true; clearTimeout(timer); if (socket) socket.close(); },
    };
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function readJson(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function showError(node, message) {
    if (!node) return;
    node.textContent = message || "";
    node.hidden = !message;
  }

  return { api, errorText, saveSeat, seatFor, connectGame, el, readJson, showError, newCommandId };
})();
