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
  // allTokens(): every game this browser holds a token for, {code: {token, seat, host}} (My games
  // offers to add their seats to the signed-in account: static/js/my_games.js).

  // ---- the seats' colours: one palette for the waiting room and every title ------------------
  /* The Okabe–Ito palette (Okabe & Ito 2002, "Color Universal Design"): eight colours told apart
   * with the common colour-vision deficiencies (protan, deutan, tritan). The names are
   * games/services.py PALETTE's, in its order (a seat's default colour is the first one free), and
   * the colour a seat picks in the waiting room is the colour it plays (the engines take it at
   * setup). The CSS reads them as --seat-NAME (set below). Games seated before this palette keep
   * their old colour names: LEGACY draws them as they were. */
  const PALETTE = [
    { name: "orange", hex: "#E69F00", label: "Orange" }, { name: "sky", hex: "#56B4E9", label: "Sky blue" },
    { name: "green", hex: "#009E73", label: "Bluish green" }, { name: "yellow", hex: "#F0E442", label: "Yellow" },
    { name: "blue", hex: "#0072B2", label: "Blue" }, { name: "vermilion", hex: "#D55E00", label: "Vermilion" },
    { name: "purple", hex: "#CC79A7", label: "Reddish purple" }, { name: "black", hex: "#000000", label: "Black" },
  ];
  const LEGACY = { red: "#c0392b", white: "#f8f8f8" };
  const SEAT_HEX = Object.assign({}, LEGACY, Object.fromEntries(PALETTE.map((c) => [c.name, c.hex])));
  /* The colour (#rrggbb) to draw a seat of colour `name` in; for a name not in the palette, `fallback`
   * (when given, even null) else grey. */
  function seatColor(name, fallback) {
    return SEAT_HEX[String(name || "").trim().toLowerCase()] || (fallback === undefined ? "#777777" : fallback);
  }
  function colorLabel(name) { const c = PALETTE.find((p) => p.name === name); return c ? c.label : String(name || ""); }
  if (typeof document !== "undefined" && document.documentElement) {
    for (const c of PALETTE) document.documentElement.style.setProperty("--seat-" + c.name, c.hex);
  }

  // The socket's heartbeat: the exact frames games/consumers.py answers without other work.
  const PING = '{"type":"ping"}', PONG = '{"type":"pong"}';

  const BUSY_RETRIES = 5;  // a busy server (503 + Retry-After) is asked again this many times
  const RETRIED_CODES = new Set(["database-busy", "database-unavailable"]);  // the socket's 503s: safe again with the same command_id
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
      let data;
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
   * onStatus("open"|"connecting"|"closed"|"offline"), onError(error).
   * "open" means live: the socket is up and the server's snapshot (the resync) has arrived.
   * "closed" means the socket dropped (or went silent: see HEARTBEAT) and it is reconnecting;
   * it stays "closed" until the next socket is live again. "connecting" is only the first
   * connection of the page; "offline" is final (no such game, a token refused). */
  const HEARTBEAT = { every: 1000, quiet: 2400, dead: 8000 };  // ms; see watch() below

  // ---- "your turn" with the page open (turn notices: players/notices.py tells the others) -----
  // A seat's payload whose legal_commands turned non-empty (the engines list none for a seat
  // that may not act) became that seat's turn: a short beep (Web Audio, no file) and a vibration,
  // and while the page is hidden or unfocused the tab's title says so until it is seen.
  const TURN_PREFIX = "● Your turn — ";
  let turnAudio = null;
  function turnTitle(on) {
    const plain = document.title.startsWith(TURN_PREFIX) ? document.title.slice(TURN_PREFIX.length) : document.title;
    document.title = on ? TURN_PREFIX + plain : plain;
  }
  function turnSeen() { if (document.visibilityState === "visible" && document.hasFocus()) turnTitle(false); }
  document.addEventListener("visibilitychange", turnSeen);
  window.addEventListener("focus", turnSeen);
  function turnBeep() {
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return false;
      turnAudio = turnAudio || new Context();
      if (turnAudio.state === "suspended") turnAudio.resume();
      const tone = turnAudio.createOscillator(), gain = turnAudio.createGain(), t = turnAudio.currentTime;
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
      tone.connect(gain).connect(turnAudio.destination);
      tone.start(t);
      tone.stop(t + 0.3);
      return true;
    } catch (e) { return false; }
  }
  /* Called with each state payload a game socket receives and whether it was this seat's turn
   * before (null: the first payload, which only sets it); returns whether it is now. */
  function turnAlert(payload, wasMine) {
    const mine = payload.seat !== null && payload.seat !== undefined && payload.status === "active"
      && Array.isArray(payload.legal_commands) && payload.legal_commands.length > 0;
    if (mine && wasMine === false) {
      // Browsers allow sound and vibration only after the person used the page (a tap, a key):
      // without it both are skipped rather than refused with a console message.
      const used = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (used) {
        try { if (navigator.vibrate) navigator.vibrate(200); } catch (e) { /* not allowed here */ }
        turnBeep();
      }
      if (document.visibilityState !== "visible" || !document.hasFocus()) turnTitle(true);
    } else if (!mine && wasMine) {
      turnTitle(false);
    }
    return mine;
  }

  /* Whether the game summary `a` was read before `b` (null: none yet). A change of seats or status
   * bumps the game's revision before its summary is read, a move its version (Game.revision), so of
   * two summaries the newer has neither lower: keep it when an older one arrives late. */
  function summaryOlder(a, b) {
    return !!b && a !== b && (a.revision < b.revision || a.version < b.version);
  }

  function connectGame(code, token, handlers) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = proto + "//" + location.host + "/ws/games/" + encodeURIComponent(code) + "/" + (token ? "?token=" + encodeURIComponent(token) : "");
    let socket = null, retry = 0, stopped = false, version = -1, timer = null;
    let current = "", everLive = false, synced = false, heard = 0, watchdog = null;
    let myTurn = null;  // turnAlert's memory: was it this seat's turn in the last payload
    let newest = null;  // the newest summary: an older one that arrives later is stale (Junction.summaryOlder)
    const pending = new Map();

    function status(s) {
      if (s === "connecting" && everLive) s = "closed";  // a reconnection: still "reconnecting"
      if (s === current) return;
      current = s;
      if (handlers.onStatus) handlers.onStatus(s);
    }

    function failPending() {
      for (const waiter of pending.values()) waiter({ type: "error", error: { code: "disconnected", message: "Connection lost; please retry." } });
      pending.clear();
    }

    // The socket has gone (closed, or silent for too long): tell the page, and try again.
    function dropped(which, permanent) {
      if (which !== socket) return;  // an older socket we already gave up on
      socket = null;
      synced = false;
      status(stopped || permanent ? "offline" : "closed");
      failPending();
      if (stopped || permanent) return;
      const delay = Math.min(10000, 300 * Math.pow(2, retry++)) + Math.random() * 200;
      clearTimeout(timer);
      timer = setTimeout(open, delay);
    }

    // A dropped Wi-Fi or a sleeping server closes nothing: the socket just goes quiet. While
    // the page is visible a ping goes out after HEARTBEAT.every of silence (the server answers
    // at once, without touching the database); after HEARTBEAT.quiet with no frame at all the
    // badge says "reconnecting" (live again with the next frame), after HEARTBEAT.dead the
    // socket is given up and a new one opened (which resyncs).
    function watch() {
      if (!socket || socket.readyState !== 1 || document.visibilityState !== "visible") return;
      const silent = Date.now() - heard;
      if (silent >= HEARTBEAT.dead) {
        const old = socket;
        dropped(old, false);
        try { old.close(); } catch (e) { /* already closing */ }
        return;
      }
      if (silent >= HEARTBEAT.quiet) status("closed");
      if (silent >= HEARTBEAT.every) { try { socket.send(PING); } catch (e) { /* the close event follows */ } }
    }

    function open() {
      if (stopped) return;
      clearTimeout(timer);
      // Opened with no network (the service worker's kept copy of the page): "reconnecting…"
      // from the start; the socket is tried all the same (a table served on this very machine).
      status(navigator.onLine === false ? "closed" : "connecting");
      const mine = socket = new WebSocket(url);
      mine.onopen = () => { if (mine !== socket) return; retry = 0; heard = Date.now(); };
      mine.onmessage = (event) => {
        if (mine !== socket) return;
        heard = Date.now();
        if (event.data === PONG) { if (synced) status("open"); return; }
        let msg;
        try { msg = JSON.parse(event.data); } catch (e) { return; }
        // The snapshot (the resync) starts with the game's summary after every (re)connection;
        // the page is live once it is drawn: with the state, or the summary alone at version 0
        // (the lobby: no state yet).
        if (msg.type === "game" || msg.type === "state") synced = true;
        if (msg.type === "state") {
          if (msg.version >= version) {  // else an older broadcast overtaken by a newer one
            version = msg.version;
            myTurn = turnAlert(msg, myTurn);
            if (handlers.onState) handlers.onState(msg);
          }
        } else if (msg.type === "game") {
          // The installable companion (static/js/pwa.js) keeps the screen on while a game is open.
          if (msg.game && !summaryOlder(msg.game, newest)) {  // else read before a change another summary brought
            newest = msg.game;
            document.dispatchEvent(new CustomEvent("junction:game", { detail: msg.game }));
            if (handlers.onGame) handlers.onGame(msg.game);
          }
        } else if (msg.type === "seat") {
          // The host reordered the waiting room's seats: this token's seat has this index now.
          if (Number.isInteger(msg.seat)) { saveSeat(code, { seat: msg.seat }); if (handlers.onSeat) handlers.onSeat(msg.seat); }
        } else if (msg.type === "chat" || msg.type === "chat-hidden") {
          // The game's chat (games/chat.py; static/js/chat.js draws it).
          document.dispatchEvent(new CustomEvent("junction:chat", { detail: msg }));
        } else if (msg.type === "result" || msg.type === "error") {
          const waiter = msg.command_id && pending.get(msg.command_id);
          if (waiter) { pending.delete(msg.command_id); waiter(msg); }
          else if (msg.type === "error" && handlers.onError) handlers.onError(msg.error);
        }
        if (synced && (msg.type !== "game" || (msg.game && !(msg.game.version > 0)))) { everLive = true; status("open"); }
      };
      mine.onclose = (event) => dropped(mine, event.code === 4404 || event.code === 4401 || event.code === 4403);
    }

    // Phones sleep: when the page becomes visible again, make sure we are live.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") return;
      if (!socket || socket.readyState > 1) { retry = 0; open(); } else heard = Math.max(heard, Date.now() - HEARTBEAT.every);
    });
    window.addEventListener("online", () => { if (!socket || socket.readyState > 1) { retry = 0; open(); } });
    // The device says its network is gone: the socket is as good as dead.
    window.addEventListener("offline", () => {
      if (!socket) return;
      const old = socket;
      dropped(old, false);
      try { old.close(); } catch (e) { /* already closing */ }
    });

    open();
    watchdog = setInterval(watch, 500);

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
          // A busy or unreachable database (503): the same command (same id: it applies once) again after the time it gave.
          if (answer.type !== "error" || !RETRIED_CODES.has(answer.error.code) || attempt >= BUSY_RETRIES) return answer;
          await sleep(retryDelay(answer.retry_after));
        }
      },
      close() { stopped = true; clearTimeout(timer); clearInterval(watchdog); if (socket) socket.close(); },
    };
  }

  // ---- text that never shows null, undefined, NaN or [object Object] --------------------
  const MISSING = "—";
  const numberFormat = new Intl.NumberFormat("en-US");
  /* Any value as page text: numbers grouped ("1,234"), lists joined, a missing or unprintable
   * value (null, undefined, NaN, ±Infinity, an object, "") as `fallback` ("—" unless given). */
  function text(value, fallback) {
    const none = fallback === undefined ? MISSING : fallback;
    if (value === null || value === undefined) return none;
    if (typeof value === "number") return Number.isFinite(value) ? numberFormat.format(value) : none;
    if (typeof value === "string") return value === "" ? none : value;
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) { const parts = value.map((v) => text(v, "")).filter(Boolean); return parts.length ? parts.join(", ") : none; }
    return none;  // an object (or a function, a symbol) has no text of its own
  }
  /* A whole number for a count or a price: `fallback` ("—") when it is not a finite number. */
  function number(value, fallback) {
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    return typeof n === "number" && Number.isFinite(n) ? numberFormat.format(n) : (fallback === undefined ? MISSING : fallback);
  }

  // ---- the platform's own events, which any title's log may hold ---------------------------
  /* A game master's change or a seat handed to a new device, in words; `who(seat)` names a seat,
   * `s` is the possessive ("'s", or "’s" on the table screen). null for any other event: the
   * title's describe() speaks for its own. A seat goes to a new device in the open
   * (games/rejoin.py): the code made for it is said, then its use, and whose code it was. */
  function platformEvent(e, who, s) {
    const own = s === undefined ? "'s" : s;
    const name = text(e.name, who(e.seat));
    const whose = e.by === "host" ? "the host" + own : "a game master" + own;
    switch (e.type) {
      case "state-edited": return "A game master corrected the game.";
      case "rejoin-code-made": return (e.by === "host" ? "The host" : "A game master") + " made a new-device code for " + name + own + " seat.";
      case "seat-moved": return name + own + " seat went to another device with " + whose + " code" + (e.bot ? " (no longer a bot)" : "") + "."
        + (e.unrated ? " This game will not be rated." : "");
      case "seat-renamed": return text(e.from, who(e.seat)) + " is now called " + text(e.to) + ".";
      case "seat-to-bot":  // away: a bot plays the seat for a turn (the clock) or until its player takes it back (the clock, the host)
        if (e.away && e.by === "clock" && e.turn_only) return "Time ran out for " + name + ": a bot (" + text(e.bot) + ") plays this turn for them; the seat stays theirs.";
        if (e.away && e.by === "clock") return "Time ran out for " + name + (e.expiries > 1 ? " " + plural(e.expiries, "turn") + " in a row" : "")
          + ": a bot (" + text(e.bot) + ") plays " + name + own + " seat until they take it back.";
        if (e.away) return "The host handed " + name + own + " seat to a bot (" + text(e.bot) + ") until they take it back.";
        return "A bot (" + text(e.bot) + ") plays " + name + own + " seat from now on.";
      case "seat-returned": return name + " took their seat back from the bot.";
      case "seat-resigned": return name + " resigned" + (e.then === "game-over" ? ": the game is over." : "; a bot plays their seat to the end.");
      case "game-paused": return "The game master paused the game" + (e.reason ? ": " + text(e.reason) : "") + ".";
      case "game-resumed": return "The game master resumed the game.";
      case "game-ended": return "The game master ended the game" + (e.reason ? ": " + text(e.reason) : "") + ".";
      default: return null;
    }
  }
  // ---- clocks: the time left of the seat on turn, and a seat a bot keeps for its player ----------
  /* What is left of `ms`, in a few characters: "4:32", "3 h 12 min", "2 days 5 h". */
  function timeLeft(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    if (s < 3600) return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    if (h < 24) return h + " h" + (m ? " " + m + " min" : "");
    return plural(Math.floor(h / 24), "day") + (h % 24 ? " " + (h % 24) + " h" : "");
  }
  /* A duration in words: 20 → "20 s", 300 → "5 minutes", 86400 → "1 day". */
  function duration(seconds) {
    if (seconds < 60) return seconds + " s";
    if (seconds < 3600) return plural(Math.round(seconds / 60), "minute");
    if (seconds < 86400) return plural(Math.round(seconds / 3600), "hour");
    return plural(Math.round(seconds / 86400), "day");
  }
  /* A game's clock in words: "5 minutes per turn", or a bank: "10 minutes + 20 s a turn". */
  function clockWords(game) {
    if (game.bank_seconds) return duration(game.bank_seconds) + " + " + duration(game.increment_seconds || 0) + " a turn";
    return duration(game.turn_seconds) + " per turn";
  }
  /* A day and time in a few words: "Tue 1 Dec, 15:41" (away periods). */
  const dayFormat = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  /* seatClock(mount, ctx) → update(summary), for every game page (room.js calls update with each
   * game summary). A game with a clock gets a line at the top of `mount`: its clock, and whose turn
   * it is with the time left, counting down (the summary's seats carry turn_deadline; a bank's is the
   * bank left), and who is away in a slow game (seat.away_until: their clock waits). The device
   * holding a seat a bot plays while its player is away (seat.away; for this turn only: turn_only)
   * gets a banner that gives it back: "Take my seat back" (POST …/seats/me/return). ctx: {code, seat, token}. */
  function seatClock(mount, ctx) {
    const line = el("p", { class: "turn-clock", id: "turn-clock", hidden: true });
    const words = el("p", { id: "seat-away-words" });
    const button = el("button", { type: "button", class: "primary", id: "seat-return" }, "Take my seat back");
    const error = el("p", { class: "error", id: "seat-away-error", role: "alert", hidden: true });
    const banner = el("section", { class: "card seat-away", id: "seat-away", role: "status", hidden: true }, words, el("p", {}, button), error);
    mount.prepend(banner, line);
    let game = null, timer = null;
    const mine = () => ctx.seat !== null && ctx.seat !== undefined;

    function draw() {
      const clocked = game && (game.turn_seconds || game.bank_seconds);
      line.hidden = !clocked || !["lobby", "active", "paused"].includes(game.status);
      if (line.hidden) { clearInterval(timer); timer = null; return; }
      const clock = "Clock: " + clockWords(game) + ".";
      const away = (game.seats || []).filter((s) => s.away_until && Date.parse(s.away_until) > Date.now())
        .map((s) => (mine() && s.index === ctx.seat ? "You are" : text(s.name) + " is") + " away until " + dayFormat.format(new Date(s.away_until)) + ": the clock waits.");
      const running = game.status === "active" ? (game.seats || []).filter((s) => s.turn_deadline) : [];
      // Your own time first; else the seat whose time runs out soonest.
      running.sort((a, b) => (b.index === ctx.seat) - (a.index === ctx.seat) || Date.parse(a.turn_deadline) - Date.parse(b.turn_deadline));
      const seat = running[0];
      line.classList.remove("urgent");
      if (!seat) {
        line.textContent = [clock + (game.status === "lobby" ? " When a player's time runs out, a bot plays that turn for them; the seat stays theirs."
          : game.status === "paused" ? " It waits while the game is paused." : ""), ...away].join(" ");
        delete line.dataset.deadline;
      } else {
        const left = Date.parse(seat.turn_deadline) - Date.now();
        const whose = mine() && seat.index === ctx.seat ? "Your turn" : text(seat.name) + "'s turn";
        line.textContent = [left > 0 ? whose + ": " + timeLeft(left) + " left." : whose + ": time is up; a bot plays this turn…", ...away].join(" ");
        line.classList.toggle("urgent", left < 60000);
        line.dataset.deadline = seat.turn_deadline;
      }
      if (seat && !timer) timer = setInterval(draw, 1000);
      if (!seat && timer) { clearInterval(timer); timer = null; }
    }
    function update(summary) {
      game = summary;
      const me = mine() && summary ? (summary.seats || []).find((s) => s.index === ctx.seat) : null;
      const away = !!(me && me.away) && ["active", "paused"].includes(summary.status);
      const said = !me || !away ? "" : me.turn_only ? "Your time ran out: a bot is playing this turn for you. The seat is yours again when it ends."
        : summary.turn_seconds || summary.bank_seconds ? "Your time ran out: a bot is playing your seat." : "A bot is playing your seat while you are away.";
      if (banner.hidden === away || (away && words.textContent !== said)) {
        words.textContent = said;
        banner.hidden = !away;
        document.body.dataset.away = away ? "true" : "false";
        if (!away) showError(error, "");
      }
      draw();
    }
    button.addEventListener("click", async () => {
      showError(error, "");
      button.disabled = true;
      const result = await api("POST", "/api/games/" + encodeURIComponent(ctx.code) + "/seats/me/return", undefined, ctx.token);
      button.disabled = false;
      if (!result.ok) { showError(error, errorText(result), button); return; }
      if (result.data && result.data.game) update(result.data.game);
    });
    return update;
  }

  /* An event no describe() knows: its type in words and whose it was ("train placed (Ann)."). */
  function unknownEvent(e, who) {
    return text(e.type, "something").replace(/-/g, " ") + (e.seat !== undefined && e.seat !== null ? " (" + who(e.seat) + ")" : "") + ".";
  }

  // ---- a title's priced options (the engine's listing) -----------------------------------------
  /* Why nothing can be sent while the game is not active, in words. */
  const STATUS_REASONS = { paused: "The game is paused.", abandoned: "The game was abandoned.", finished: "The game is over.", lobby: "The game has not started." };
  /* A command as a string, the same whatever the order of its keys: a listing entry's command is
   * found among payload.legal_commands by it. */
  const commandKey = (command) => JSON.stringify(Object.keys(command).sort().map((k) => [k, command[k]]));

  // ---- what happened, newest first (a title's feed of its log in words) --------------------------
  /* feed(list, describe) → {refresh(ctx, version)}: fills the <ol>/<ul> `list` with a line per event
   * of the game's log (describe(e) → words, or null to leave it out), newest first, at most `max`
   * lines. Live, each refresh reads only what came after the last action read (a page opened late
   * reads the last `actions` actions); read-only (the replay), it shows ctx.log with its last action's
   * lines marked "now". */
  function feed(list, describe, options) {
    const max = (options && options.max) || 200, recent = (options && options.actions) || 120;
    let after = 0, queue = Promise.resolve();
    const lines = (actions) => {
      const out = [];
      for (const action of actions) for (const e of action.events || []) {
        const line = describe(e);
        if (line) out.push(el("li", { class: "ev-" + e.type, "data-seq": action.sequence }, line));
      }
      return out;
    };
    function refresh(ctx, version) {
      if (ctx.readOnly) {
        const all = lines(ctx.log || []);
        const step = ctx.log && ctx.log.length ? ctx.log[ctx.log.length - 1].sequence : 0;
        for (const li of all) if (Number(li.dataset.seq) === step) li.classList.add("now");
        list.replaceChildren(...all.reverse().slice(0, max));
        return;
      }
      if (!after && version > recent) after = version - recent;
      queue = queue.then(async () => {
        const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + after);
        if (!result.ok || !Array.isArray(result.data)) return;
        const fresh = result.data.filter((a) => a.sequence > after);
        if (!fresh.length) return;
        after = fresh[fresh.length - 1].sequence;
        list.prepend(...lines(fresh).reverse());
        while (list.children.length > max) list.lastElementChild.remove();
      }).catch(() => {});
    }
    return { refresh };
  }

  // ---- the ending: ranking, score by part, how it was won, what next -------------------------
  const ORDINALS = new Intl.PluralRules("en-US", { type: "ordinal" });
  const ORDINAL_SUFFIX = { one: "st", two: "nd", few: "rd", other: "th" };
  /* "1st", "2nd", "3rd", "4th". */
  function ordinal(n) { return numberFormat.format(n) + ORDINAL_SUFFIX[ORDINALS.select(n)]; }
  /* ending(result, opts) → a <section class="ending"> for a finished game: the payload's `result`
   * (games/engines/base.py Engine.result: `how`, `columns`, `ranking`), opts {seats (the summary's),
   * you (this page's seat or null), code, kind, title, unit (one, other: "point"), score(value)
   * (words for a score: default "N points"), part({label, value}) (words for a part: default "Label N")}. One list item per seat in place order (fits a 360 px
   * phone: the score's parts wrap under the name, never a wide table), then the replay and a new game
   * of the same title. Null when there is no result (a game that did not finish by its rules). */
  function ending(result, opts) {
    if (!result || !Array.isArray(result.ranking)) return null;
    const o = opts || {};
    const seats = o.seats || [];
    const unitOne = o.unit || "point", unitOther = o.units || unitOne + "s";
    const score = o.score || ((v) => plural(v, unitOne, unitOther));
    const list = el("ol", { class: "ending-ranking" });
    for (const row of result.ranking) {
      const seat = seats.find((s) => s.index === row.seat) || {};
      const name = text(seat.name, "Seat " + (row.seat + 1));
      const mine = o.you !== null && o.you !== undefined && row.seat === o.you;
      const parts = (row.parts || []).map((p) => el("span", { class: "ending-part" }, o.part ? o.part(p) : text(p.label, "") + " " + number(p.value)));
      list.append(el("li", { class: "ending-row" + (row.place === 1 ? " ending-first" : "") + (mine ? " ending-you" : ""), "data-seat": row.seat },
        el("span", { class: "ending-place" }, ordinal(row.place)),
        el("span", { class: "ending-name" },
          seat.color ? el("span", { class: "dot dot-" + seat.color, title: colorLabel(seat.color) }) : null,
          name + (mine ? " (you)" : "") + (seat.is_bot ? " · bot" : "")),
        row.score === null || row.score === undefined ? null : el("span", { class: "ending-score" }, score(row.score)),
        parts.length ? el("span", { class: "ending-parts" }, ...parts) : null));
    }
    const winners = result.ranking.filter((r) => r.place === 1).map((r) => (seats.find((s) => s.index === r.seat) || {}).name || "Seat " + (r.seat + 1));
    const headline = winners.length > 1 ? "A tie: " + winners.join(" and ") + " share first place." : winners.length ? winners[0] + " won." : "Nobody won.";
    const held = o.code ? seatFor(o.code) : null;
    const links = el("p", { class: "ending-links" },
      held && held.token ? rematchButton(o.code, held.token)
        : o.kind ? el("a", { href: "/?kind=" + encodeURIComponent(o.kind) + "#create", class: "ending-again" }, "Play " + text(o.title, "this game") + " again") : null,
      o.code ? el("a", { href: "/games/" + encodeURIComponent(o.code) + "/replay", class: "ending-replay" }, "Watch the replay") : null);
    return el("section", { class: "ending", "aria-label": "How the game ended" },
      el("h2", {}, "Game over"),
      el("p", { class: "ending-headline" }, headline),
      result.how ? el("p", { class: "ending-how" }, result.how) : null,
      list, links);
  }

  // ---- play again (games/rematch.py): one tap makes the table's next game or joins it -------------
  // The next game of each finished game this page heard of (the summary's `next_game`, live over the socket).
  const nextGames = {};
  const REMATCH_ASK = "Play again with this table", REMATCH_JOIN = "Join the next game";
  /* The ending's button for a browser that holds a seat (or the host's token) in game `code`: the first tap
   * at the table makes the next game (same title, options and people; the turn order turned by one), every
   * other phone's then says "Join the next game"; either way this browser keeps its new token and goes there. */
  function rematchButton(code, token) {
    const button = el("button", { type: "button", class: "primary ending-rematch", "data-code": code }, nextGames[code] ? REMATCH_JOIN : REMATCH_ASK);
    button.addEventListener("click", async () => {
      button.disabled = true;
      const result = await api("POST", "/api/games/" + encodeURIComponent(code) + "/rematch", undefined, token);
      if (!result.ok || !result.data) {
        button.disabled = false;
        showError(document.getElementById("play-error"), errorText(result), button);
        return;
      }
      saveSeat(result.data.code, { token: result.data.token, seat: result.data.seat, host: result.data.host });
      location.assign("/games/" + encodeURIComponent(result.data.code) + "/");
    });
    return button;
  }
  document.addEventListener("junction:game", (event) => {
    const game = event.detail || {};
    if (!game.code || !game.next_game || nextGames[game.code] === game.next_game) return;
    nextGames[game.code] = game.next_game;
    for (const button of document.querySelectorAll(".ending-rematch")) {
      if (button.dataset.code === game.code) button.textContent = REMATCH_JOIN;
    }
  });

  // ---- plurals through the language's plural rules ---------------------------------------
  const pluralRules = new Intl.PluralRules("en-US");
  /* "1 unit", "2 units", "0 units", "1,500 units": plural(n, "unit", "units"). `other`
   * defaults to `one` + "s". A missing count shows as "— units". */
  function plural(n, one, other) {
    const many = other === undefined ? one + "s" : other;
    const count = typeof n === "number" ? n : n === null || n === undefined || n === "" ? NaN : Number(n);
    if (!Number.isFinite(count)) return MISSING + " " + many;
    return numberFormat.format(count) + " " + (pluralRules.select(count) === "one" ? one : many);
  }
  /* Only the word: pluralWord(3, "tie") → "ties". */
  function pluralWord(n, one, other) {
    return pluralRules.select(Number(n)) === "one" ? one : (other === undefined ? one + "s" : other);
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = typeof v === "number" ? (Number.isFinite(v) ? String(v) : MISSING) : text(v, "");
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      if (child instanceof Node) { node.append(child); continue; }
      // Plain numbers keep their digits ("1500"): use Junction.number for grouping.
      node.append(document.createTextNode(typeof child === "number" ? (Number.isFinite(child) ? String(child) : MISSING) : text(child, "")));
    }
    return node;
  }

  function readJson(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // ---- errors next to the control that caused them -----------------------------------------
  // The control a person used last (a tap, a key, a submitted form): an error that follows it
  // within ERROR_WINDOW is shown beside it, where their eyes and finger are, not at the top.
  const ERROR_WINDOW = 15000;
  const CONTROLS = "button, input, select, textarea, summary, a[href], [role=tab], [role=button]";
  let lastControl = null, lastControlAt = 0;
  function noteControl(node) {
    const control = node && node.closest ? node.closest(CONTROLS) : null;
    if (control) { lastControl = control; lastControlAt = Date.now(); }
  }
  document.addEventListener("click", (e) => noteControl(e.target), true);
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") noteControl(e.target); }, true);
  document.addEventListener("submit", (e) => noteControl(e.submitter || e.target.querySelector("[type=submit]") || e.target), true);

  // One polite-but-prompt announcer for screen readers, made on first use.
  function announce(message) {
    let region = document.getElementById("junction-announcer");
    if (!region) {
      region = el("div", { id: "junction-announcer", class: "sr-only", role: "alert", "aria-live": "assertive", "aria-atomic": "true" });
      document.body.append(region);
    }
    region.textContent = "";
    // A change of text after a tick is announced even when the same message repeats.
    if (message) setTimeout(() => { region.textContent = message; }, 50);
  }

  function inView(node) {
    const r = node.getBoundingClientRect();
    const top = (document.querySelector(".topbar") || { offsetHeight: 0 }).offsetHeight;
    return r.bottom > top && r.top < window.innerHeight && r.height > 0;
  }
  function reveal(node) {
    if (!inView(node)) node.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  const inlineFor = new WeakMap();  // page-level error box → the inline error shown instead
  function clearInline(box) {
    const inline = box && inlineFor.get(box);
    if (!inline) return;
    inlineFor.delete(box);
    if (inline.control && inline.control.getAttribute("aria-describedby") === inline.node.id) inline.control.removeAttribute("aria-describedby");
    inline.node.remove();
  }

  /* Show `message` for a failed act (or clear it with ""). `node` is the page's error box for
   * that area; `control` the control that caused it (default: the control the person used
   * last, if within ERROR_WINDOW and still on the page). With a control the message appears
   * right after it (a line of its own in a row of buttons), tied to it by aria-describedby;
   * either way it is announced and scrolled into view when off screen. */
  function showError(node, message, control) {
    if (!node) return;
    clearInline(node);
    node.textContent = message ? text(message) : "";
    node.hidden = !message;
    if (!message) return;
    let near = control;
    if (near === undefined && lastControl && Date.now() - lastControlAt < ERROR_WINDOW) near = lastControl;
    if (near && near.isConnected && !node.contains(near) && near.offsetParent !== null) {
      const id = "err-" + Math.random().toString(36).slice(2, 9);
      const inline = el("p", { class: "error inline-error", id, "data-error-for": node.id || null }, text(message));
      // After the control, or after the label or summary it sits in.
      const anchor = near.closest("label, summary") || near;
      (anchor.tagName === "SUMMARY" ? anchor.parentElement : anchor).after(inline);
      if (!near.hasAttribute("aria-describedby")) near.setAttribute("aria-describedby", id);
      inlineFor.set(node, { node: inline, control: near });
      node.hidden = true;  // one place only: next to the control
      announce(text(message));
      reveal(inline);
      return;
    }
    announce(node.getAttribute("role") === "alert" ? "" : text(message));  // role=alert speaks for itself
    reveal(node);
  }

  // ---- the live badge ----------------------------------------------------------------------
  /* A connectGame onStatus handler that keeps a badge true: "connecting…", "live",
   * "reconnecting…" (a socket that dropped or went quiet, until the page is live again) and
   * "offline" once given up. The badge's data-state is the status itself. */
  function liveBadge(node) {
    const words = { open: "live", connecting: "connecting…", closed: "reconnecting…", offline: "offline" };
    return (status) => {
      if (!node) return;
      node.dataset.state = status;
      node.textContent = words[status] || status;
      node.setAttribute("role", "status");
      node.title = status === "closed" ? "The connection dropped; reconnecting and catching up by itself." : "";
    };
  }

  return { seatClock, timeLeft, platformEvent, unknownEvent, STATUS_REASONS, commandKey, feed, api, errorText, saveSeat, seatFor, allTokens, connectGame, summaryOlder, el, readJson, showError, newCommandId,
           text, number, plural, pluralWord, ordinal, ending, announce, liveBadge, MISSING, turnAlert, PALETTE, seatColor, colorLabel, dayFormat };
})();
