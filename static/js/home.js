/* Home page: create a game (with its options), join by code, the live list of open games. */
"use strict";
(() => {
  const el = Junction.el;
  const form = document.getElementById("create-form");
  const errorBox = document.getElementById("create-error");
  const kindSelect = document.getElementById("create-kind");
  const optionsBox = document.getElementById("create-options");
  const fieldsBox = document.getElementById("options-fields");

  // ---- game options: one field per option of the chosen kind (GET /api/kinds has the same list) ----
  const kinds = Object.fromEntries((Junction.readJson("kinds-data") || []).map((k) => [k.kind, k]));
  const optionsOf = () => (kinds[kindSelect.value] || {}).options || [];

  function field(opt) {
    const id = "opt-" + opt.name;
    let help = opt.help ? el("small", { class: "muted opt-help", id: id + "-help" }, opt.help) : null;
    const described = opt.help ? id + "-help" : null;
    let input;
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox", id, name: opt.name, "data-option": opt.name, "aria-describedby": described, checked: !!opt.default });
      return el("div", { class: "opt opt-bool", "data-option-field": opt.name }, el("label", { class: "opt-check", for: id }, input, opt.label || opt.name), help);
    }
    if (opt.type === "choice") {
      input = el("select", { id, name: opt.name, "data-option": opt.name, "aria-describedby": described },
        (opt.choices || []).map((c, i) => el("option", { value: JSON.stringify(c), selected: c === opt.default }, ((opt.choice_labels || [])[i] || String(c)) + (c === opt.default ? " (default)" : ""))));
    } else {
      const range = opt.min !== null && opt.min !== undefined && opt.max !== null && opt.max !== undefined ? opt.min + "–" + opt.max : "";
      input = el("input", { type: "number", id, name: opt.name, "data-option": opt.name, inputmode: "numeric", step: 1, min: opt.min ?? null, max: opt.max ?? null, value: opt.default, required: true, "aria-describedby": described });
      if (range) help = el("small", { class: "muted opt-help", id: id + "-help" }, (opt.help ? opt.help + " " : "") + "(" + range + ", default " + opt.default + ")");
    }
    return el("div", { class: "opt", "data-option-field": opt.name }, el("label", { for: id }, opt.label || opt.name, input), help);
  }

  function readOption(opt) {
    const input = fieldsBox.querySelector('[data-option="' + opt.name + '"]');
    if (!input) return opt.default;
    if (opt.type === "bool") return input.checked;
    if (opt.type === "choice") return JSON.parse(input.value);
    return input.value === "" ? NaN : Number(input.value);
  }
  // Only what differs from the defaults is sent: the server fills in the rest.
  function chosenOptions() {
    const out = {};
    for (const opt of optionsOf()) {
      const value = readOption(opt);
      if (value !== opt.default) out[opt.name] = value;
    }
    return out;
  }
  function updateState() {
    const n = Object.keys(chosenOptions()).length;
    document.getElementById("options-state").textContent = n ? "(" + n + " changed)" : "(defaults)";
    for (const opt of optionsOf()) {
      const node = fieldsBox.querySelector('[data-option-field="' + opt.name + '"]');
      if (node) node.classList.toggle("changed", readOption(opt) !== opt.default);
    }
  }
  function renderOptions() {
    const options = optionsOf();
    optionsBox.hidden = options.length === 0;
    fieldsBox.replaceChildren(...options.map(field));
    updateState();
  }
  kindSelect.addEventListener("change", renderOptions);
  fieldsBox.addEventListener("input", updateState);
  fieldsBox.addEventListener("change", updateState);
  document.getElementById("options-reset").addEventListener("click", renderOptions);
  // A wrong number inside the closed options block: open it so the browser can point at it.
  document.getElementById("create-submit").addEventListener("click", () => {
    if (fieldsBox.querySelector(":invalid")) optionsBox.open = true;
  });
  // "Play … again" at a game's end links here with ?kind=: that title is chosen already.
  const askedKind = new URLSearchParams(location.search).get("kind");
  if (askedKind && kinds[askedKind]) kindSelect.value = askedKind;
  renderOptions();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    Junction.showError(errorBox, "");
    const name = document.getElementById("create-name").value.trim();
    const body = { kind: kindSelect.value };
    if (name) body.name = name;
    const options = chosenOptions();
    if (Object.keys(options).length) body.options = options;
    // "300": seconds per turn; "600+20": a bank with its increment; "": no clock.
    const clock = document.getElementById("create-clock").value;
    if (clock.includes("+")) {
      const [bank, increment] = clock.split("+").map(Number);
      body.bank_seconds = bank;
      body.increment_seconds = increment;
    } else if (clock) body.turn_seconds = Number(clock);
    // An open table is listed under Open games for anyone; unticked (the default), the game is unlisted (games/listing.py).
    if (document.getElementById("create-listed").checked) body.listed = true;
    const result = await Junction.api("POST", "/api/games", body);
    if (!result.ok) {
      Junction.showError(errorBox, Junction.errorText(result));
      if (result.data && result.data.error && result.data.error.code === "invalid-option") optionsBox.open = true;
      return;
    }
    const game = result.data;
    Junction.saveSeat(game.code, { token: game.host_token, host: true, seat: game.seat });
    // Wood and Steel made without a name: this screen is the table's (README "Wood and Steel at the table"),
    // so it goes to the board, which is the waiting room until the start.
    const tableScreen = game.kind === "wood-and-steel" && (game.seat === null || game.seat === undefined);
    location.href = "/games/" + game.code + (tableScreen ? "/table" : "/");
  });

  document.getElementById("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = document.getElementById("code-input").value.trim().toUpperCase();
    if (code) location.href = "/join/" + encodeURIComponent(code);
  });

  // The list of open games refreshes itself when games are created, filled or started. The API
  // gives it a page at a time (newest first, the next page in the Link header): "More games"
  // walks on, so however many games a flood creates, every open game can be reached.
  const list = document.getElementById("open-games");
  const more = el("button", { type: "button", id: "open-games-more", hidden: true }, "More games");
  list.after(more);
  let nextPage = null, pagesShown = 1;
  const item = (g) => el("li", {}, el("a", { href: "/join/" + g.code }, g.title + " · ", el("b", { text: g.code }), " · " + g.seats.length + "/" + g.max_players));
  async function page(url) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) return { ok: false, retryAfter: Number(response.headers.get("Retry-After")) || 0 };
      const link = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get("Link") || "");
      return { ok: true, games: await response.json(), next: link ? link[1] : null };
    } catch (e) {
      return { ok: false, retryAfter: 0 };
    }
  }
  function showMore(next) {
    nextPage = next;
    more.hidden = !next;
  }
  async function refresh() {  // the pages already shown, afresh
    const games = [];
    let url = "/api/games?status=lobby", next = null;
    for (let n = 0; n < pagesShown && url; n++) {
      const result = await page(url);
      if (!result.ok) { if (result.retryAfter) setTimeout(scheduleRefresh, result.retryAfter * 1000); return; }
      games.push(...result.games);
      url = next = result.next;
    }
    list.replaceChildren(...(games.length ? games.map(item) : [el("li", { class: "muted", text: "No open games yet." })]));
    showMore(next);
  }
  more.addEventListener("click", async () => {
    if (!nextPage) return;
    more.disabled = true;
    const result = await page(nextPage);
    more.disabled = false;
    if (!result.ok) return;
    pagesShown++;
    list.append(...result.games.map(item));
    showMore(result.next);
  });
  // Many changes at once (a busy lobby) make one refresh, not one each.
  let refreshTimer = null;
  function scheduleRefresh() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(async () => { try { await refresh(); } finally { refreshTimer = null; } }, 250);
  }
  let socket, retry = 0;
  function listen() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(proto + "//" + location.host + "/ws/lobby/");
    socket.onopen = () => { retry = 0; scheduleRefresh(); };
    socket.onmessage = () => scheduleRefresh();
    socket.onclose = () => setTimeout(listen, Math.min(10000, 500 * Math.pow(2, retry++)));
  }
  listen();
})();
