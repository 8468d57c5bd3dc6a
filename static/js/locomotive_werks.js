/* Locomotive Werks play surface: the 14 spaces with their dice, every tableau,
 * your legal actions as buttons, and what the automatic phases did, in words. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Junction.el;
  const ROMAN = ["", "I", "II", "III", "IV", "V"];
  const PHASES = { development: "Development", capacity: "Production capacity", finished: "Game over" };
  let spaces = {}, names = {}, recentFrom = 0, lastVersion = 0;

  const spaceName = (n) => { const s = spaces[n]; return s ? s.locomotive + " " + ROMAN[s.generation] : "space " + n; };
  const who = (seat) => names[seat] || "seat " + seat;
  const die = (value, cls) => el("span", { class: "die " + (cls || ""), title: value === null ? "empty" : "die " + value }, value === null ? "" : String(value));

  function describe(e) {
    switch (e.type) {
      case "developed": return who(e.seat) + " developed " + spaceName(e.space) + " for " + e.cost + " coins.";
      case "initial-order-moved": return "The initial order (" + e.die + ") of " + spaceName(e.space) + " became an existing order.";
      case "space-unlocked": return spaceName(e.space) + " opened with an initial order of " + e.die + ".";
      case "space-unlock-waiting": return spaceName(e.space) + " is next to open, but the dice pool is empty: it gets its initial order when a die comes back.";
      case "units-bought": return who(e.seat) + " bought " + e.count + " unit(s) of " + spaceName(e.space) + " for " + e.cost + ".";
      case "units-shifted": return who(e.seat) + " shifted " + e.count + " unit(s) from " + spaceName(e.from) + " to " + spaceName(e.to) + " for " + e.cost + ".";
      case "passed": return who(e.seat) + " passed (" + (PHASES[e.phase] || e.phase) + ").";
      case "sale": {
        const rule = e.case === "equal" ? "matched the " + e.die + " die" : e.case === "lower" ? "used the highest die " + e.die + " (now " + e.die_after + ")" : "exceeded every die; the highest, " + e.die + ", was used";
        return who(e.seat) + " sold " + e.sold + " " + spaceName(e.space) + " (" + e.units + " units: " + rule + ") for " + e.income + " coins" + (e.die_to === "customer-base" ? "; the die moved to the customer base." : ".");
      }
      case "tax": return who(e.seat) + " paid " + e.tax + " tax (" + e.coins_before + " → " + e.coins + ").";
      case "end-check": return e.finished ? "Game over: " + e.winners.map(who).join(" and ") + " won." : "No one reached " + e.threshold + " coins.";
      case "turn-order": return "New turn order: " + e.after.map(who).join(", ") + ".";
      case "market": return "Market for " + e.locomotive + " locomotives: case " + e.case + (e.generations.length ? " (generations " + e.generations.map((g) => ROMAN[g]).join(", ") + ")" : " (no generation)") + ".";
      case "market-step": {
        const parts = [];
        if (e.removed) parts.push(e.removed + " die(s) back to the pool");
        if (e.added) parts.push(e.added + " die(s) added");
        if (e.rolled && e.rolled.length) parts.push("rolled " + e.rolled.join(", "));
        if (e.pool_short) parts.push(e.pool_short + " die(s) short: the pool was empty");
        const role = { only: "only generation", old: "older generation", new: "newer generation", obsolete: "now obsolete", middle: "middle generation", newest: "newest generation" }[e.role] || e.role;
        return "  " + spaceName(e.space) + " (" + role + "): " + (parts.join("; ") || "no change") + " → orders [" + e.existing_orders.join(", ") + "].";
      }
      case "card-retired": return who(e.seat) + "'s " + spaceName(e.space) + " card is obsolete and left the game (" + e.units + " units).";
      case "board-cards-retired": return "The " + e.cards + " undeveloped " + spaceName(e.space) + " card(s) left on the board are obsolete and left the game.";
      case "round-started": return "Round " + e.round + " begins.";
      case "phase-started": return (PHASES[e.phase] || e.phase.charAt(0).toUpperCase() + e.phase.slice(1)) + " phase" + (e.phase === "production" ? ": every player sells each locomotive type to one die." : ".");
      case "game-started": return "The game started.";
      case "state-edited": return "A game master corrected the game.";
      default: return e.type.replace(/-/g, " ") + (e.seat !== undefined && e.seat !== null ? " (" + who(e.seat) + ")" : "") + ".";
    }
  }

  function renderSpace(s) {
    const boxes = (values, capacity, cls) => {
      const out = values.map((v) => die(v, cls));
      for (let i = values.length; i < capacity; i++) out.push(die(null, "empty"));
      return out;
    };
    return el("div", { class: "lw-space lw-" + s.color + (s.obsolete ? " obsolete" : "") + (s.developable ? " open" : ""), "data-space": s.space },
      el("div", { class: "lw-space-head" }, el("b", {}, s.locomotive + " " + ROMAN[s.generation]), el("span", { class: "muted" }, "#" + s.space)),
      el("div", { class: "lw-stats" }, "cost " + s.cost + " · prod " + s.production + " · inc " + s.income),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, "initial"), s.initial_order !== null ? die(s.initial_order, "initial") : die(null, "empty")),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, "orders"), boxes(s.existing_orders, s.boxes, "order")),
      el("div", { class: "lw-row" }, el("span", { class: "lbl" }, "customers"), boxes(s.customer_base, s.boxes, "customer")),
      el("div", { class: "lw-stats muted" }, s.cards_left + " card(s) left" + (s.obsolete ? " · obsolete" : "")));
  }

  function renderPlayers(view) {
    const bySeat = Object.fromEntries(view.players.map((p) => [p.seat, p]));
    return view.turn_order.map((seat, i) => {
      const p = bySeat[seat];
      return el("div", { class: "lw-player" + (seat === view.active_seat ? " active" : "") + (seat === view.you ? " me" : ""), "data-seat": seat },
        el("div", { class: "row between" }, el("b", {}, (i + 1) + ". " + p.name + (seat === view.you ? " (you)" : "")), el("span", { class: "coins" }, p.coins + " coins")),
        el("div", { class: "lw-cards" }, p.cards.length ? p.cards.map((c) => el("span", { class: "lw-card lw-" + spaces[c.space].color, title: "production " + c.production + ", income " + c.income },
          spaceName(c.space) + " × " + c.units)) : el("span", { class: "muted" }, "no locomotives yet")));
    });
  }

  function renderActions(legal, ctx) {
    if (!legal.length) return [];
    const groups = new Map();
    for (const c of legal) {
      const key = c.cmd === "buy-units" ? "buy-" + c.space : c.cmd === "shift-units" ? "shift-" + c.from + "-" + c.to : JSON.stringify(c);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(c);
    }
    const send = async (command, button) => {
      Junction.showError($("play-error"), "");
      if (button) button.disabled = true;
      const result = await ctx.send(command);
      if (result.type === "error") { Junction.showError($("play-error"), result.error.message); if (button) button.disabled = false; }
    };
    const out = [];
    for (const cmds of groups.values()) {
      const c = cmds[0];
      if (c.cmd === "develop") {
        const s = spaces[c.space];
        out.push(el("button", { type: "button", class: "primary", "data-cmd": "develop", onclick: (ev) => send(c, ev.target) }, "Develop " + spaceName(c.space) + " (" + s.cost + ")"));
      } else if (c.cmd === "pass") {
        out.push(el("button", { type: "button", "data-cmd": "pass", onclick: (ev) => send(c, ev.target) }, "Pass"));
      } else {
        const select = el("select", { "aria-label": "how many" }, cmds.map((x) => el("option", { value: x.count }, String(x.count))));
        const label = c.cmd === "buy-units" ? "Buy units: " + spaceName(c.space) : "Shift " + spaceName(c.from) + " → " + spaceName(c.to);
        out.push(el("div", { class: "row lw-count", "data-cmd": c.cmd }, el("span", {}, label), select,
          el("button", { type: "button", onclick: (ev) => send(Object.assign({}, c, { count: Number(select.value) }), ev.target) }, c.cmd === "buy-units" ? "Buy" : "Shift")));
      }
    }
    return out;
  }

  async function refreshRecent(ctx, view) {
    if (ctx.readOnly) return;
    const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + lastVersion);
    if (!result.ok) return;
    for (const action of result.data) {
      lastVersion = action.sequence;
      for (const e of action.events) {
        if (e.type === "round-started") $("lw-recent").replaceChildren();
        if (["developed", "units-bought", "units-shifted", "passed", "initial-order-moved", "space-unlocked", "space-unlock-waiting", "card-retired", "board-cards-retired", "phase-started", "round-started", "game-started"].includes(e.type)) {
          $("lw-recent").append(el("li", {}, describe(e)));
        }
      }
    }
  }

  window.JunctionPlay = {
    render(payload, ctx) {
      const view = payload.state;
      if (!view) return;
      spaces = Object.fromEntries(view.spaces.map((s) => [s.space, s]));
      names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
      $("version").textContent = payload.version;
      $("lw-heading").textContent = "Round " + view.round + " · " + (PHASES[view.phase] || view.phase);
      const finished = view.finished || payload.status === "finished";
      const mine = payload.legal_commands || [];
      $("lw-turn").textContent = finished ? "Game over — " + (view.winners || []).map(who).join(" and ") + " won."
        : mine.length ? "Your turn: " + (view.phase === "development" ? "develop one new locomotive, or pass." : "buy or shift production units, then pass.")
        : view.active_seat !== null && view.active_seat !== undefined ? "Waiting for " + who(view.active_seat) + "…" : "";
      $("lw-turn").classList.toggle("mine", mine.length > 0);
      $("lw-actions").replaceChildren(...renderActions(mine, ctx));
      $("lw-players").replaceChildren(...renderPlayers(view));
      $("lw-board").replaceChildren(...view.spaces.map(renderSpace));
      const report = view.last_round;
      $("lw-report-title").textContent = report ? "What happened in round " + report.round : "Last round";
      $("lw-report").replaceChildren(...(report ? report.events.map((e) => el("li", { class: "ev-" + e.type }, describe(e))) : [el("li", { class: "muted" }, "Selling, tax, turn order and the market run automatically after the capacity phase; they are explained here.")]));
      refreshRecent(ctx, view);
    },
    describe,
  };
})();
