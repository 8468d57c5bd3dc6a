/* Locomotive Werks play surface: the 14 spaces with their dice, every tableau,
 * your options with their prices (the engine's listing: view.listing), and what
 * the automatic phases did, in words. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, plural, text } = Junction;
  const ROMAN = ["", "I", "II", "III", "IV", "V"];
  const PHASES = { development: "Development", capacity: "Production capacity", finished: "Game over" };
  const STATUS_REASONS = Junction.STATUS_REASONS;
  const RECENT_TYPES = new Set(["developed", "units-bought", "units-shifted", "passed", "initial-order-moved", "space-unlocked", "space-unlock-waiting", "card-retired", "board-cards-retired", "phase-started", "round-started", "game-started",
    "rejoin-code-made", "seat-moved", "seat-renamed", "seat-to-bot", "seat-returned", "seat-resigned", "game-paused", "game-resumed", "game-ended"]);
  const andList = new Intl.ListFormat("en", { type: "conjunction" });
  let spaces = {}, names = {};

  const roman = (g) => ROMAN[g] || text(g);
  const spaceName = (n) => { const s = spaces[n]; return s ? s.locomotive + " " + roman(s.generation) : "space " + text(n); };
  const who = (seat) => names[seat] || "seat " + text(seat);
  const people = (seats) => andList.format((seats || []).map(who));
  const coins = (n) => plural(n, "coin");
  const units = (n) => plural(n, "unit");
  const dice = (n) => plural(n, "die", "dice");
  const die = (value, cls) => el("span", { class: "die " + (cls || ""), title: value === null || value === undefined ? "empty" : "die " + value }, value === null || value === undefined ? "" : text(value));

  function describe(e) {
    switch (e.type) {
      case "developed": return who(e.seat) + " developed " + spaceName(e.space) + " for " + coins(e.cost) + ".";
      case "initial-order-moved": return "The initial order (" + text(e.die) + ") of " + spaceName(e.space) + " became an existing order.";
      case "space-unlocked": return spaceName(e.space) + " opened with an initial order of " + text(e.die) + ".";
      case "space-unlock-waiting": return spaceName(e.space) + " is next to open, but the dice pool is empty: it gets its initial order when a die comes back.";
      case "units-bought": return who(e.seat) + " bought " + units(e.count) + " of " + spaceName(e.space) + " for " + coins(e.cost) + ".";
      case "units-shifted": return who(e.seat) + " shifted " + units(e.count) + " from " + spaceName(e.from) + " to " + spaceName(e.to) + " for " + coins(e.cost) + ".";
      case "passed": return who(e.seat) + " passed (" + (PHASES[e.phase] || text(e.phase)) + ").";
      case "sale": {
        const rule = e.case === "equal" ? "matched the " + text(e.die) + " die"
          : e.case === "lower" ? "used the highest die, " + text(e.die) + " (now " + text(e.die_after) + ")"
          : "exceeded every die; the highest, " + text(e.die) + ", was used";
        return who(e.seat) + " sold " + text(e.sold) + " " + spaceName(e.space) + " (" + units(e.units) + ": " + rule + ") for " + coins(e.income) + (e.die_to === "customer-base" ? "; the die moved to the customer base." : ".");
      }
      case "tax": return who(e.seat) + " paid " + coins(e.tax) + " tax (" + text(e.coins_before) + " → " + text(e.coins) + ").";
      case "end-check": return e.finished ? "Game over: " + people(e.winners) + " won." : "No one reached " + coins(e.threshold) + ".";
      case "turn-order": return "New turn order: " + (e.after || []).map(who).join(", ") + ".";
      case "market": {
        const gens = e.generations || [];
        return "Market for " + text(e.locomotive) + " locomotives: case " + text(e.case) + (gens.length ? " (" + Junction.pluralWord(gens.length, "generation") + " " + gens.map(roman).join(", ") + ")" : " (no generation)") + ".";
      }
      case "market-step": {
        const parts = [];
        if (e.removed) parts.push(dice(e.removed) + " back to the pool");
        if (e.added) parts.push(dice(e.added) + " added");
        if (e.rolled && e.rolled.length) parts.push("rolled " + e.rolled.join(", "));
        if (e.pool_short) parts.push(dice(e.pool_short) + " short: the pool was empty");
        const role = { only: "only generation", old: "older generation", new: "newer generation", obsolete: "now obsolete", middle: "middle generation", newest: "newest generation" }[e.role] || text(e.role);
        return spaceName(e.space) + " (" + role + "): " + (parts.join("; ") || "no change") + " → orders [" + (e.existing_orders || []).join(", ") + "].";
      }
      case "card-retired": return who(e.seat) + "'s " + spaceName(e.space) + " card is obsolete and left the game (" + units(e.units) + ").";
      case "board-cards-retired": return "The " + plural(e.cards, "undeveloped " + spaceName(e.space) + " card", "undeveloped " + spaceName(e.space) + " cards") + " left on the board " + (e.cards === 1 ? "is" : "are") + " obsolete and left the game.";
      case "round-started": return "Round " + text(e.round) + " begins.";
      case "phase-started": {
        const phase = PHASES[e.phase] || (typeof e.phase === "string" ? e.phase.charAt(0).toUpperCase() + e.phase.slice(1) : "A new");
        return phase + " phase" + (e.phase === "production" ? ": every player sells each locomotive type to one die." : ".");
      }
      case "game-started": return "The game started.";
      default: return Junction.platformEvent(e, who) || Junction.unknownEvent(e, who);
    }
  }

  /* ---- what each term and mark means: a title on a laptop, a tap on a phone, and the legend ---- */
  const TERMS = {
    cost: ["cost", "Development cost: the coins you pay once to develop this locomotive type and take one of its cards."],
    prod: ["prod", "Production cost: the coins for each production unit you buy for this type (a unit makes one locomotive a round)."],
    inc: ["inc", "Income: the coins you earn for each locomotive of this type you sell in the production phase."],
    initial: ["initial", "Initial order: a die on a type nobody has developed yet. Whoever develops it first turns it into an existing order."],
    orders: ["orders", "Existing orders: dice of demand. In production every player sells to one die: as many locomotives as the die shows, at most their units."],
    customers: ["customers", "Customer base: dice of orders already filled. In the market phase they are rolled again and become new orders."],
    units: ["units", "Production units: how many locomotives of a type you make each round; one card never sells more than 6."],
    cards: ["cards left", "Cards left: how many more players can still develop this type."],
  };
  // A term: its word, underlined; hover shows the title, a tap (or Enter) shows the sentence under
  // the term's box (.lw-tip), a second tap hides it.
  const term = (key, shown) => el("span", { class: "lw-term", role: "button", tabindex: "0", "data-term": key, title: TERMS[key][1], "aria-expanded": "false" }, shown || TERMS[key][0]);
  function toggleTip(target) {
    const box = target.closest(".lw-space, .lw-player, .lw-option, .card") || target.parentElement;
    const old = box.querySelector(":scope > .lw-tip");
    const same = old && old.dataset.term === target.dataset.term;
    document.querySelectorAll(".lw-term[aria-expanded=true]").forEach((t) => t.setAttribute("aria-expanded", "false"));
    if (old) old.remove();
    if (same) return;
    target.setAttribute("aria-expanded", "true");
    box.append(el("p", { class: "lw-tip", role: "note", "data-term": target.dataset.term }, TERMS[target.dataset.term][1]));
  }
  document.addEventListener("click", (ev) => { const t = ev.target.closest && ev.target.closest(".lw-term"); if (t) toggleTip(t); });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target.closest && ev.target.closest(".lw-term");
    if (t && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); toggleTip(t); }
  });
  /* The legend under the board: every term once (open on a laptop, a tap away on a phone). */
  function renderLegend() {
    const box = $("lw-legend");
    if (!box || box.dataset.drawn) return;
    box.dataset.drawn = "1";
    box.open = window.matchMedia("(min-width: 720px)").matches;
    box.append(el("dl", { class: "lw-legend-list" }, ...Object.values(TERMS).flatMap(([word, says]) => [el("dt", {}, word), el("dd", {}, says)]),
      el("dt", {}, "colours"), el("dd", {}, "Green passenger, red fast, yellow freight and blue special locomotives: each colour's generations I to V compete for the same buyers."),
      el("dt", {}, "gold edge"), el("dd", {}, "A type that can be developed now.")));
  }

  function renderSpace(s) {
    const boxes = (values, capacity, cls) => {
      const out = (values || []).map((v) => die(v, cls));
      for (let i = out.length; i < capacity; i++) out.push(die(null, "empty"));
      return out;
    };
    const left = s.cards_left ? plural(s.cards_left, "card") + " left" : "no cards left";
    return el("div", { class: "lw-space lw-" + s.color + (s.obsolete ? " obsolete" : "") + (s.developable ? " open" : ""), "data-space": s.space },
      el("div", { class: "lw-space-head" }, el("b", {}, s.locomotive + " " + roman(s.generation)), el("span", { class: "muted" }, "#" + text(s.space))),
      el("div", { class: "lw-stats" }, term("cost"), " " + text(s.cost) + " · ", term("prod"), " " + text(s.production) + " · ", term("inc"), " " + text(s.income)),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, term("initial")), s.initial_order !== null ? die(s.initial_order, "initial") : die(null, "empty")),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, term("orders")), boxes(s.existing_orders, s.boxes, "order")),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, term("customers")), boxes(s.customer_base, s.boxes, "customer")),
      el("div", { class: "lw-stats muted" }, s.cards_left ? term("cards", left) : left, s.obsolete ? " · obsolete" : ""));
  }

  function renderPlayers(view) {
    const bySeat = Object.fromEntries(view.players.map((p) => [p.seat, p]));
    return view.turn_order.filter((seat) => bySeat[seat]).map((seat, i) => {
      const p = bySeat[seat];
      return el("div", { class: "lw-player" + (seat === view.active_seat ? " active" : "") + (seat === view.you ? " me" : ""), "data-seat": seat },
        el("div", { class: "row between" }, el("b", {}, (i + 1) + ". " + text(p.name, who(seat)) + (seat === view.you ? " (you)" : "")), el("span", { class: "coins" }, coins(p.coins))),
        el("div", { class: "lw-cards" }, p.cards.length ? p.cards.map((c) => el("span", { class: "lw-card lw-" + ((spaces[c.space] || {}).color || "none"), title: "production cost " + text(c.production) + ", income " + text(c.income) },
          el("span", { class: "lw-name" }, spaceName(c.space)), " · ", term("units", units(c.units)))) : el("span", { class: "muted" }, "no locomotives yet")));
    });
  }

  /* ---- your options, priced ---------------------------------------------------------------
   * Every control comes from one entry of the engine's listing ({command, price, reason}): its
   * price is on it, and it is enabled only when the entry has no reason and the server listed
   * the command as legal (payload.legal_commands: empty while the game is paused). */
  const key = Junction.commandKey;
  // What each kind of action does, in a sentence (said once above its first control, and its title).
  const DOES = {
    "develop": "Develop: pay the cost once to take a card of a new locomotive type; you can then buy units to make it.",
    "pass-development": "Pass: develop nothing this round and keep your coins.",
    "buy-units": "Buy units: each unit makes one locomotive of that type a round, sold in production for its income.",
    "shift-units": "Shift units: move units from an older type to a newer one, paying only the difference in production cost.",
    "pass-capacity": "Done: end your turn. When everyone is done, production, tax, the new turn order and the market run by themselves.",
  };
  let failed = null;  // {key, message, version}: an error shown beside its control, kept over a redraw

  function blockedBy(entry, legal, status) {
    // A paused (or ended) game holds every control, whatever else would stop it.
    if (status && status !== "active" && STATUS_REASONS[status]) return { code: status, message: STATUS_REASONS[status] };
    if (entry.reason) return entry.reason;
    if (legal.has(key(entry.command))) return null;
    return { code: status || "unavailable", message: STATUS_REASONS[status] || "Not possible right now." };
  }

  function renderActions(view, payload, ctx) {
    const listing = view.listing || [];
    const legal = new Set((payload.legal_commands || []).map(key));
    const note = $("lw-actions-note");
    const entries = listing.map((entry) => Object.assign({}, entry, { blocked: blockedBy(entry, legal, payload.status) }));
    // A reason every control shares (not your turn, the game is paused) is said once, above them.
    const shared = entries.length && entries.every((e) => e.blocked && e.blocked.code !== "cannot-afford") ? entries[0].blocked : null;
    note.hidden = !shared;
    note.textContent = shared ? (shared.code === "not-your-turn" ? "Not your turn. What each would cost when it is:" : text(shared.message)) : "";

    const send = async (command, button) => {
      failed = null;
      Junction.showError($("play-error"), "");
      button.disabled = true;
      const result = await ctx.send(command);
      if (result.type === "error") {
        button.disabled = false;
        failed = { key: key(command), message: result.error.message, version: payload.version };
        if (button.isConnected) Junction.showError($("play-error"), text(result.error.message, "That did not work."), button);
        else Junction.showError($("play-error"), text(result.error.message, "That did not work."));
      }
    };
    // The reason a control is disabled, beside it and read with it (aria-describedby).
    let reasons = 0;
    const reasonFor = (blocked) => {
      if (!blocked) return [null, null];
      if (shared) return [null, "lw-actions-note"];
      const id = "lw-why-" + (++reasons);
      return [el("span", { class: "lw-reason", id }, text(blocked.message)), id];
    };
    const priced = (label, price) => (price ? label + " · " + coins(price) : label);

    const out = [];
    const groups = new Map();  // buy-units per card and shift-units per pair: one control with a count
    for (const entry of entries) {
      const c = entry.command;
      if (c.cmd === "buy-units" || c.cmd === "shift-units") {
        const g = c.cmd === "buy-units" ? "buy-" + c.space : "shift-" + c.from + "-" + c.to;
        if (!groups.has(g)) { groups.set(g, []); out.push(g); }
        groups.get(g).push(entry);
      } else out.push(entry);
    }
    const told = new Set();  // what a kind of action does: said once, under its first control
    const does = (cmd) => {
      const key = cmd === "pass" ? "pass-" + view.phase : cmd;
      if (told.has(key) || !DOES[key]) return null;
      told.add(key);
      return el("p", { class: "lw-does muted" }, DOES[key]);
    };
    return out.map((item) => {
      if (typeof item !== "string") {
        const c = item.command;
        const label = c.cmd === "develop" ? priced("Develop " + spaceName(c.space), item.price)
          : c.cmd === "pass" ? (view.phase === "development" ? "Pass: develop nothing" : "Done: end my turn")
          : priced(c.cmd, item.price);
        const [why, whyId] = reasonFor(item.blocked);
        const doesKey = c.cmd === "pass" ? "pass-" + view.phase : c.cmd;
        const button = el("button", { type: "button", class: c.cmd === "develop" ? "primary" : null, "data-cmd": c.cmd, "data-key": key(c),
          disabled: !!item.blocked, "aria-describedby": whyId, title: DOES[doesKey] || null, onclick: (ev) => send(c, ev.currentTarget) }, label);
        return el("div", { class: "lw-option", "data-cmd": c.cmd }, does(c.cmd), button, why);
      }
      const options = groups.get(item);
      const first = options[0].command;
      const buying = first.cmd === "buy-units";
      const title = buying ? "Buy units for " + spaceName(first.space) : "Shift units from " + spaceName(first.from) + " to " + spaceName(first.to);
      const selectId = "lw-count-" + item;
      const select = el("select", { id: selectId, "data-cmd": first.cmd },
        options.map((o, i) => el("option", { value: i }, units(o.command.count) + " · " + coins(o.price) + (o.blocked && o.blocked.code === "cannot-afford" ? " (cannot afford)" : ""))));
      const holder = el("span", {});
      const button = el("button", { type: "button", "data-cmd": first.cmd }, "");
      const update = () => {
        const o = options[Number(select.value)] || options[0];
        button.textContent = priced((buying ? "Buy " : "Shift ") + units(o.command.count), o.price);
        button.dataset.key = key(o.command);
        button.disabled = !!o.blocked;
        const [why, whyId] = reasonFor(o.blocked);
        holder.replaceChildren(...(why ? [why] : []));
        if (whyId) button.setAttribute("aria-describedby", whyId); else button.removeAttribute("aria-describedby");
      };
      select.addEventListener("change", () => { Junction.showError($("play-error"), ""); update(); });
      button.addEventListener("click", () => send((options[Number(select.value)] || options[0]).command, button));
      update();
      button.title = DOES[first.cmd];
      return el("div", { class: "lw-option lw-count", "data-cmd": first.cmd, "data-group": item },
        does(first.cmd), el("label", { for: selectId }, title), el("div", { class: "row" }, select, button), holder);
    });
  }

  /* ---- this round so far: one line per event, each action once ---------------------------- */
  let recentAfter = 0, recentQueue = Promise.resolve();
  const recentLines = (list, actions) => {
    for (const action of actions) {
      for (const e of action.events || []) {
        if (e.type === "round-started") list.replaceChildren();
        if (RECENT_TYPES.has(e.type)) list.append(el("li", { class: "ev-" + e.type, "data-seq": action.sequence }, describe(e)));
      }
    }
    list.scrollTop = list.scrollHeight;
  };
  function refreshRecent(ctx) {
    if (ctx.readOnly) {  // a replay: the round so far, from the log up to the step shown (ctx.log)
      $("lw-recent").replaceChildren();
      recentLines($("lw-recent"), ctx.log || []);
      return;
    }
    // One request at a time, each from where the last ended: a burst of states never repeats a line.
    recentQueue = recentQueue.then(async () => {
      const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + recentAfter);
      if (!result.ok || !Array.isArray(result.data)) return;
      const fresh = result.data.filter((action) => action.sequence > recentAfter);
      if (fresh.length) recentAfter = fresh[fresh.length - 1].sequence;
      recentLines($("lw-recent"), fresh);
    }).catch(() => {});
  }

  /* ---- what I can do now, in words, from the server's legal commands (payload.legal_commands) ---- */
  const orList = new Intl.ListFormat("en", { type: "disjunction" });
  function whatNow(view, legal) {
    const price = new Map((view.listing || []).map((e) => [key(e.command), e.price]));
    const develop = legal.filter((c) => c.cmd === "develop");
    const buyFor = [...new Set(legal.filter((c) => c.cmd === "buy-units").map((c) => c.space))];
    const shifts = [...new Set(legal.filter((c) => c.cmd === "shift-units").map((c) => c.from + ">" + c.to))];
    const parts = [];
    if (develop.length) {
      parts.push("develop " + (develop.length <= 3 ? orList.format(develop.map((c) => spaceName(c.space) + " (" + coins(price.get(key(c)) || 0) + ")"))
        : "one of " + develop.length + " locomotive types you can afford"));
    }
    if (buyFor.length) parts.push("buy units for " + orList.format(buyFor.map(spaceName)));
    if (shifts.length) parts.push("shift units to a newer type (" + plural(shifts.length, "way") + ")");
    const end = view.phase === "development" ? "pass" : "tap Done to end your turn";
    if (!parts.length) return view.phase === "development" ? "you cannot afford a new type this round: pass." : "no units you can afford: tap Done to end your turn.";
    return andList.format(parts) + ", or " + end + ".";
  }

  /* ---- the ending: every seat ranked by coins with the last round's sales and tax (Engine.result) ---- */
  function renderEnding(view, payload, ctx) {
    const summary = ctx.summary;
    const seats = summary && Array.isArray(summary.seats) && summary.seats.length ? summary.seats : view.players.map((p) => ({ index: p.seat, name: p.name }));
    const section = view.finished ? Junction.ending(payload.result, { seats, you: view.you, code: ctx.code, kind: "locomotive-werks", title: "Locomotive Werks", unit: "coin" }) : null;
    const box = $("lw-ending");
    box.hidden = !section;
    box.replaceChildren(...(section ? [section] : []));
  }

  window.JunctionPlay = {
    render(payload, ctx) {
      const view = payload.state;
      if (!view) return;
      spaces = Object.fromEntries(view.spaces.map((s) => [s.space, s]));
      names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
      $("version").textContent = text(payload.version);
      $("lw-heading").textContent = "Round " + text(view.round) + " · " + (PHASES[view.phase] || text(view.phase));
      const finished = view.finished || payload.status === "finished";
      const mine = (payload.legal_commands || []).length > 0;
      const turn = $("lw-turn");
      turn.textContent = finished ? (payload.result ? "" : "Game over: " + ((view.winners || []).length ? people(view.winners) + " won." : "no winner."))
        : payload.status === "paused" ? "The game is paused."
        : mine ? "Your turn: " + whatNow(view, payload.legal_commands || [])
        : view.active_seat !== null && view.active_seat !== undefined ? (ctx.readOnly ? who(view.active_seat) + "'s turn." : "Waiting for " + who(view.active_seat) + "…") : "";
      turn.classList.toggle("mine", mine);
      const keep = failed && failed.version === payload.version ? failed : null;
      failed = null;
      Junction.showError($("play-error"), "");
      $("lw-actions").replaceChildren(...renderActions(view, payload, ctx));
      if (keep) {  // a redraw at the same version keeps the error beside its control
        const control = [...$("lw-actions").querySelectorAll("button[data-key]")].find((b) => b.dataset.key === keep.key);
        if (control) { failed = keep; Junction.showError($("play-error"), keep.message, control); }
      }
      $("lw-players").replaceChildren(...renderPlayers(view));
      $("lw-board").replaceChildren(...view.spaces.map(renderSpace));
      renderLegend();
      const report = view.last_round;
      $("lw-report-title").textContent = report ? "What happened in round " + text(report.round) : "Last round";
      $("lw-report").replaceChildren(...(report ? report.events.map((e) => el("li", { class: "ev-" + e.type }, describe(e))) : [el("li", { class: "muted" }, "Selling, tax, turn order and the market run automatically after the capacity phase; they are explained here.")]));
      renderEnding(view, payload, ctx);
      $("lw-replay").hidden = !!ctx.readOnly;  // a replay does not link to itself
      refreshRecent(ctx);
    },
    describe,
  };
})();
