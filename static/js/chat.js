/* The game's chat (games/chat.py) on every game page: its messages (read with GET …/chat, then live over the
 * game's socket: the junction:chat event), quick phrases for phones, and a line to type in. Every message is
 * inserted as text, never as markup. Messages of players this account muted are left out. */
(() => {
  "use strict";
  const box = document.getElementById("chat-box");
  if (!box) return;
  const code = box.dataset.code;
  const $ = (id) => document.getElementById(id);
  const list = $("chat-list"), form = $("chat-form"), input = $("chat-text"), error = $("chat-error");
  const shown = new Set();
  let muted = new Set(), last = 0, unread = 0, loaded = false;

  function token() { const mine = Junction.seatFor(code); return mine && mine.token; }
  function csrf() { const field = form.querySelector("[name=csrfmiddlewaretoken]"); return field ? field.value : ""; }

  function add(message) {
    if (!message || shown.has(message.id) || (message.user && muted.has(message.user))) return;
    shown.add(message.id);
    last = Math.max(last, message.id);
    const when = message.created_at ? new Date(message.created_at) : null;
    list.append(Junction.el("li", { class: "chat-message" + (message.audience === "watchers" ? " chat-watchers" : ""), "data-id": message.id },
      Junction.el("b", { class: "chat-name" }, Junction.text(message.name, "Someone") + (message.audience === "watchers" ? " (watching)" : "")),
      " ", Junction.el("span", { class: "chat-text" }, Junction.text(message.text, "")),
      when ? Junction.el("time", { class: "muted chat-time", datetime: message.created_at }, " " + when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })) : null));
    $("chat-none").hidden = true;
    list.scrollTop = list.scrollHeight;
    if (loaded && !box.open) { unread += 1; $("chat-new").textContent = unread + " new"; $("chat-new").hidden = false; }
  }

  async function load() {
    const result = await Junction.api("GET", "/api/games/" + encodeURIComponent(code) + "/chat?after=" + last, undefined, token());
    if (!result.ok || !result.data) return;
    muted = new Set(result.data.muted || []);
    if (!loaded) {
      $("chat-quick").replaceChildren(...(result.data.quick_phrases || []).map((phrase) =>
        Junction.el("button", { type: "button", class: "chat-phrase", onclick: () => send(phrase) }, phrase)));
      form.hidden = !result.data.writes;
      $("chat-sign-in").hidden = result.data.writes;
      $("chat-to").textContent = result.data.audience === "watchers" ? "Spectators read this; the players read it once the game is over." : "";
      input.placeholder = result.data.audience === "watchers" ? "Say something to the other spectators" : "Say something to the table";
    }
    for (const message of result.data.messages || []) add(message);
    loaded = true;
    box.hidden = false;
  }

  async function send(text) {
    Junction.showError(error, "");
    const headers = {};
    const result = await fetch("/api/games/" + encodeURIComponent(code) + "/chat", {
      method: "POST", credentials: "same-origin",
      headers: Object.assign(headers, { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
        token() ? { "Authorization": "Bearer " + token() } : {}),
      body: JSON.stringify({ text }),
    }).then(async (r) => ({ ok: r.ok, status: r.status, data: await r.json().catch(() => null) }),
      () => ({ ok: false, status: 0, data: { error: { code: "network", message: "Cannot reach the server." } } }));
    if (!result.ok) { Junction.showError(error, Junction.errorText(result), input); return false; }
    add(result.data);
    return true;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    $("chat-send").disabled = true;
    if (await send(text)) input.value = "";
    $("chat-send").disabled = false;
    input.focus();
  });
  box.addEventListener("toggle", () => { if (box.open) { unread = 0; $("chat-new").hidden = true; list.scrollTop = list.scrollHeight; } });
  document.addEventListener("junction:chat", (event) => {
    const msg = event.detail || {};
    if (msg.type === "chat") add(msg.message);
    else if (msg.type === "chat-hidden") {
      const node = list.querySelector('[data-id="' + Number(msg.id) + '"]');
      if (node) node.remove();
      if (!list.childElementCount) $("chat-none").hidden = false;
    }
  });
  // A reconnection may have missed messages: read what came after the last one on every fresh summary.
  document.addEventListener("junction:game", () => { if (loaded) load(); });
  box.open = window.matchMedia ? window.matchMedia("(min-width: 720px)").matches : true;  // a phone: folded, with a count of new ones
  load();
})();
