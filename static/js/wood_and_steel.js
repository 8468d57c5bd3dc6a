/* Wood and Steel companion, phone surface: my turn, my contracts and offers, the
 * market, my ties and how they add up, the independent railroads, commodities and
 * cities. Every action is one tap, or two where a mis-tap would cost. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Junction.el;
  // Dollars, grouped ("$5,000", "−$2,000"). In a <select> the amount comes first (optionText): a phone
  // clips a chosen option's text at the box's right edge, mid-number ("…John Bull) · $5,00") when last.
  const money = (n) => (n < 0 ? "−$" : "$") + Junction.number(Math.abs(n));
  const signed = (n) => (n < 0 ? "−" : "+") + Math.abs(n);  // a tie line: +3 or −5, never +-5
  const plural = (n, word) => n + " " + word + (n === 1 || n === -1 ? "" : "s");
  const joinNames = (list) => (list.length <= 1 ? list.join("") : list.slice(0, -1).join(", ") + " and " + list[list.length - 1]);
  const PHASES = { ranking: "Choose starting routes", engines: "Place engines", play: "Play", auction: "Bankruptcy auction", finished: "Game over" };
  const TAKE_BACK_WORDS = { "build-track": "my build", "fulfill-contract": "my delivery", "end-turn": "ending my turn", "end-round": "ending the round",
    "borrow": "my loan", "repay-debt": "my repayment", "buy-engine": "my engine purchase", "buy-upgrade": "my upgrade", "acquire-railroad": "my merger",
    "claim-market-contract": "my market claim", "claim-connection-bonus": "my connection bonus", "go-first": "going first", "pass-action": "my pass",
    "choose-offer": "my choice of offer", "place-engine": "my engine placement", "sell-track": "my track sale", "bid": "my bid", "pass-bid": "my pass" };
  let takeBack = null;  // payload.take_back: {sequence, cmd} of my own last action I may take back, or null
  const CONFIRM = new Set(["take-back", "fulfill-contract", "discard-private-contract", "claim-market-contract", "acquire-railroad", "buy-engine", "buy-upgrade", "borrow", "repay-debt", "end-turn", "end-round", "sell-track", "go-first", "pass-action", "undo"]);
  let view = null, ctx = null, board = null, lastSeq = 0, ranking = [], version = 0;
  const shown = (slug) => (view && view.names && view.names[slug]) || slug;  // the engine's display name
  let undoConfirmAt = null;  // the version at which the server asked the host to confirm an undo
  const names = () => Object.fromEntries((view ? view.players : []).map((p) => [p.seat, p.name]));
  const who = (seat) => (seat === null || seat === undefined ? "the host" : names()[seat] || "seat " + seat);
  const contractById = (id) => (view.contracts || []).find((c) => c.id === id) || (view.offers || []).find((c) => c.id === id);
  const routeName = (r) => String(r).replace("-", "–");  // "Chicago-Detroit" → "Chicago–Detroit" (city names have no "-")
  // Prices come from the engine's priced listing (view.listing: {command, price, reason} for every
  // money-spending command): the page shows its prices and reasons and computes none.

  // ---- sending, with two-tap confirmation where it matters ----------------------------
  async function send(command, button) {
    Junction.showError($("play-error"), "");
    if (button) button.disabled = true;
    const result = await ctx.send(command);
    if (result.type === "error") {
      if (command.cmd === "undo" && !command.confirm && result.error.code === "confirm-required") showUndoConfirm();
      else Junction.showError($("play-error"), result.error.message);
      if (button) button.disabled = false;
    } else if (command.cmd === "undo") {
      hideUndoConfirm();
    }
    return result;
  }

  // The server refuses to undo a move whose random draw everyone has seen (new contract
  // offers, a market contract, a railroad's growth) unless the host confirms it.
  function showUndoConfirm() {
    undoConfirmAt = version;
    const box = $("ws-undo-confirm");
    const yes = el("button", { type: "button", class: "danger", id: "ws-undo-anyway", "data-cmd": "undo" }, "Undo anyway (it revealed a random draw)");
    yes.addEventListener("click", () => send({ cmd: "undo", confirm: true }, yes));
    box.replaceChildren(
      el("p", {}, el("b", {}, "That move revealed a random draw."), " Everyone has already seen what it drew (new contracts or a railroad's growth). As the host you can still take it back."),
      el("div", { class: "row" }, yes, el("button", { type: "button", id: "ws-undo-keep", onclick: hideUndoConfirm }, "Keep the move")));
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }
  function hideUndoConfirm() {
    undoConfirmAt = null;
    const box = $("ws-undo-confirm");
    box.hidden = true;
    box.replaceChildren();
  }
  function actionButton(label, command, opts = {}) {
    const cmd = typeof command === "function" ? opts.cmd : command.cmd;
    const needsConfirm = opts.confirm !== undefined ? opts.confirm : CONFIRM.has(cmd);
    const button = el("button", { type: "button", class: opts.primary ? "primary" : "", "data-cmd": cmd }, label);
    let armed = null;
    button.addEventListener("click", () => {
      if (needsConfirm && !armed) {
        button.classList.add("confirming");
        button.textContent = opts.confirmLabel || "Tap again: " + label;
        armed = setTimeout(() => { armed = null; button.classList.remove("confirming"); button.textContent = label; }, 4000);
        return;
      }
      clearTimeout(armed); armed = null;
      button.classList.remove("confirming");
      send(typeof command === "function" ? command() : command, button);
    });
    return button;
  }
  function chooser(label, commands, optionLabel, opts = {}) {
    if (commands.length === 1) return actionButton(label + ": " + optionLabel(commands[0]), commands[0], opts);
    const select = el("select", { "aria-label": label }, commands.map((c, i) => el("option", { value: i }, optionLabel(c))));
    return el("div", { class: "row ws-chooser", "data-cmd": commands[0].cmd }, el("span", { class: "ws-chooser-label" }, label), select,
      actionButton("Go", () => commands[Number(select.value)], Object.assign({ confirmLabel: "Confirm", cmd: commands[0].cmd }, opts)));
  }

  // ---- contract cards ------------------------------------------------------------------
  function contractCard(c, buttons) {
    if (!c) return null;
    if (c.hidden) return el("div", { class: "ws-contract hidden-contract" }, "A private contract (secret)");
    return el("div", { class: "ws-contract ws-" + c.type, "data-contract": c.id },
      el("div", { class: "ws-contract-main" }, el("b", {}, c.commodity), " → ", el("b", {}, c.destination)),
      el("div", { class: "ws-contract-meta" }, money(c.value) + " · " + c.ties + " tie" + (c.ties === 1 ? "" : "s") + " · " + c.type + (c.status !== "held" && c.status !== "open" ? " · " + c.status : "")),
      buttons && buttons.length ? el("div", { class: "row" }, buttons) : null);
  }

  // ---- panels --------------------------------------------------------------------------
  function renderSetup(legal) {
    const box = $("ws-setup");
    const me = view.viewer;
    if (view.phase === "ranking") {
      box.hidden = false;
      const mine = me !== null && me !== undefined ? view.players[me] : null;
      const canRank = legal.some((c) => c.cmd === "rank-starting-routes");
      const routes = view.starting_routes || [];
      const list = el("ol", { class: "ws-routes" }, routes.map((r) => {
        const rank = ranking.indexOf(r.route);
        return el("li", {},
          el("button", { type: "button", class: "ws-route" + (rank >= 0 ? " picked" : ""), "data-route": r.route, disabled: !canRank,
            onclick: () => { const i = ranking.indexOf(r.route); if (i >= 0) ranking.splice(i, 1); else if (ranking.length < 3) ranking.push(r.route); renderSetup(legal); } },
          el("span", { class: "ws-rank" }, rank >= 0 ? String(rank + 1) : ""), r.route, el("span", { class: "muted" }, " · desirability " + r.desirability)));
      }));
      const waiting = view.players.filter((p) => !p.ranked).map((p) => p.name);
      box.replaceChildren(...[el("h3", {}, "Rank your three favourite starting routes"),
        el("p", { class: "muted" }, "Tap in order of preference. Clashes are settled fairly; the least desirable start plays first."),
        list,
        canRank ? actionButton(mine && mine.ranked ? "Change my ranking" : "Send my ranking", () => ({ cmd: "rank-starting-routes", choices: ranking.slice() }), { primary: true, confirm: false, cmd: "rank-starting-routes" }) : null,
        mine && mine.ranked && mine.choices ? el("p", { class: "ws-ranked" }, "Your ranking is in: " + mine.choices.map((r, k) => (k + 1) + ". " + r).join("  ")) : null,
        el("p", { class: "muted" }, waiting.length ? "Waiting for: " + waiting.join(", ") : "")].filter(Boolean));  // replaceChildren writes a null as "null"
      const send = box.querySelector("button[data-cmd=rank-starting-routes]");
      if (send) send.disabled = ranking.length !== 3;
    } else if (view.phase === "engines") {
      box.hidden = false;
      const places = legal.filter((c) => c.cmd === "place-engine");
      const assigned = view.players.map((p) => el("li", {}, p.name + ": " + (p.start_route || "?") + " (desirability " + (p.desirability ?? "?") + ")" + (p.engine_city ? " · engine in " + p.engine_city : "")));
      box.replaceChildren(el("h3", {}, "Starting routes"), el("ul", { class: "ws-assigned" }, assigned),
        places.length ? el("p", {}, "Which of your two cities holds your engine?") : el("p", { class: "muted" }, "Waiting for the others to place their engines…"),
        el("div", { class: "row" }, places.map((c) => actionButton("Engine in " + c.city, c, { primary: true, confirm: false }))));
    } else {
      box.hidden = true;
    }
  }

  function renderMine(legal) {
    const me = view.viewer;
    const card = $("ws-mine");
    if (me === null || me === undefined || !["play", "auction", "finished"].includes(view.phase)) { card.hidden = true; return; }
    card.hidden = false;
    const p = view.players[me];
    const byCmd = (cmd) => legal.filter((c) => c.cmd === cmd);
    const priv = p.private_contract ? contractById(p.private_contract) : null;
    const privButtons = [];
    if (priv) {
      for (const c of byCmd("fulfill-contract").filter((c) => c.contract === priv.id)) privButtons.push(actionButton("Fulfil", c, { primary: true }));
      for (const c of byCmd("discard-private-contract")) privButtons.push(actionButton("Discard & draw", c));
    }
    $("ws-private").replaceChildren(el("h4", {}, "Private contract"), priv ? contractCard(priv, privButtons) : el("p", { class: "muted" }, view.offers && view.offers.length ? "Choose one of your offers below." : "None held."));
    const offers = view.offers || [];
    $("ws-offers").replaceChildren(...(offers.length ? [el("h4", {}, "Offers — pick one"), ...offers.map((o) => contractCard(o, byCmd("choose-offer").filter((c) => c.offer === o.id).map((c) => actionButton("Take this one", c, { primary: true, confirm: false }))))] : []));
    const held = p.market_contract ? contractById(p.market_contract) : null;
    const heldButtons = held ? byCmd("fulfill-contract").filter((c) => c.contract === held.id).map((c) => actionButton("Fulfil", c, { primary: true })) : [];
    $("ws-held-market").replaceChildren(...(held ? [el("h4", {}, "Market contract I hold"), contractCard(held, heldButtons)] : []));
  }

  function renderActions(legal) {
    const card = $("ws-actions-card");
    const shown = new Set(["rank-starting-routes", "place-engine", "choose-offer"]);
    const mineIds = new Set();
    if (view.viewer !== null && view.viewer !== undefined) {
      const p = view.players[view.viewer];
      if (p && p.private_contract) mineIds.add(p.private_contract);
      if (p && p.market_contract) mineIds.add(p.market_contract);
    }
    // money-spending commands and bids have controls of their own (prices, reasons and amounts
    // from the engine's listing)
    const own = new Set(["discard-private-contract", "bid", "pass-bid", ...PRICED.map((x) => x[0])]);
    const rest = legal.filter((c) => !shown.has(c.cmd) && !(c.cmd === "fulfill-contract" && mineIds.has(c.contract)) && !own.has(c.cmd));
    const groups = new Map();
    for (const c of rest) { if (!groups.has(c.cmd)) groups.set(c.cmd, []); groups.get(c.cmd).push(c); }
    const out = [...auctionControls(legal), ...pricedControls()];
    const label = {
      "borrow": ["Borrow", (c) => money(c.amount)],
      "claim-market-contract": ["Claim market contract", (c) => { const m = contractById(c.contract); return m ? money(m.value) + " · " + m.commodity + " → " + m.destination : "#" + c.contract; }],
      "fulfill-contract": ["Fulfil", (c) => { const m = contractById(c.contract); return m ? m.commodity + " → " + m.destination : "#" + c.contract; }],
      "claim-connection-bonus": ["Claim connection bonus", (c) => { const b = (view.connection_bonuses || []).find((x) => x.id === c.bonus); return b ? b.name + " (" + b.ties + " ties)" : "#" + c.bonus; }],
      "sell-track": ["Sell track", (c) => routeName(c.route)],
    };
    const order = ["fulfill-contract", "claim-market-contract", "build-track", "claim-connection-bonus", "buy-engine", "buy-upgrade", "acquire-railroad", "borrow", "repay-debt", "go-first", "sell-track", "bid", "pass-bid", "pass-action", "end-turn", "end-round"];
    const keys = [...groups.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
    for (const cmd of keys) {
      const cmds = groups.get(cmd);
      if (label[cmd]) out.push(chooser(label[cmd][0], cmds, label[cmd][1]));
      else for (const c of cmds) out.push(actionButton({ "go-first": "Go first next round", "pass-action": "Pass an action", "end-turn": "End my turn", "end-round": "End the round", "pass-bid": "Pass" }[cmd] || cmd, c, { primary: cmd === "end-turn" }));
    }
    // Take back my own last action (payload.take_back: the server offers it only when it would
    // accept it: nothing hidden drawn, nobody else has acted since), even once my turn is over.
    if (takeBack) out.push(actionButton("Take back " + (TAKE_BACK_WORDS[takeBack.cmd] || "my last action (" + String(takeBack.cmd).replace(/-/g, " ") + ")"),
      { cmd: "take-back" }, { confirmLabel: "Tap again to take it back" }));
    // The host may still undo anyone's last move of this turn, even a random draw (confirmed).
    if (ctx.host && view.phase === "play") out.push(actionButton("Undo the last move (host)", { cmd: "undo" }, { confirmLabel: "Tap again to undo" }));
    card.hidden = out.length === 0;
    const me = view.viewer !== null && view.viewer !== undefined ? view.players[view.viewer] : null;
    const onTurn = view.phase === "play" && me && view.current_seat === view.viewer;  // off turn the count is the last turn's
    $("ws-actions-note").textContent = onTurn && me.turn_actions ? "(" + me.turn_actions.length + " of 2 actions used)" : "";
    $("ws-actions").replaceChildren(...out);
  }

  // A money-spending command's control, built from the engine's priced listing: a chooser of
  // every entry ("Chicago–Detroit · $4,000", the ones not possible now with the engine's reason)
  // and a button naming the choice and its price, disabled with the reason when it cannot be
  // sent now ("Build Chicago–Detroit · $4,000"). Only on my turn. Two taps where a mis-tap
  // would cost (as the other actions), one for building (track is reported as laid).
  function pricedControl(cmd, title, verb, what, opts = {}) {
    const me = view.viewer;
    if (view.phase !== "play" || me === null || me === undefined || view.current_seat !== me) return null;
    const listed = (view.listing || []).filter((e) => e.command.cmd === cmd);
    if (!listed.length || listed.every((e) => e.reason && e.reason.code === "bankrupt")) return null;
    const open = listed.filter((e) => !e.reason);
    const entries = [...open, ...listed.filter((e) => e.reason)];
    const full = (e) => what(e.command) + " · " + money(e.price);
    const select = el("select", { id: opts.id ? opts.id + "-choice" : null, "aria-label": title },
      entries.map((e, i) => el("option", { value: i, "data-route": e.command.route }, money(e.price) + " · " + what(e.command) + (e.reason ? " — " + e.reason.message : ""))));
    const button = el("button", { type: "button", class: opts.primary ? "primary" : "", id: opts.id || null, "data-cmd": cmd }, "");
    const why = el("p", { class: "muted ws-why", id: opts.id ? opts.id + "-why" : null });
    const chosen = () => entries[Number(select.value) || 0];
    let armed = null;
    const sync = () => {
      clearTimeout(armed); armed = null;
      button.classList.remove("confirming");
      const e = chosen();
      button.textContent = verb + " " + full(e);
      button.disabled = Boolean(e.reason);
      why.textContent = e.reason ? e.reason.message : "";
    };
    select.addEventListener("change", sync);
    button.addEventListener("click", () => {
      const e = chosen();
      if (e.reason) return;
      if (opts.confirm && !armed) {
        button.classList.add("confirming");
        button.textContent = "Tap again: " + verb + " " + full(e);
        armed = setTimeout(sync, 4000);
        return;
      }
      clearTimeout(armed); armed = null;
      send(e.command, button);
    });
    sync();
    const note = open.length ? open.length + " possible now" : "none possible now";
    return el("div", { class: "ws-priced", "data-cmd": cmd },
      el("div", { class: "ws-chooser-label" }, title + " ", el("span", { class: "muted" }, "(" + note + ")")),
      el("div", { class: "row" }, select), el("div", { class: "row" }, button), why);
  }

  const PRICED = [
    ["build-track", "Build track", "Build", (c) => routeName(c.route) + (c.segments ? " (" + plural(c.segments, "segment") + ")" : ""), { id: "ws-build", primary: true }],
    ["buy-engine", "Buy engine", "Buy", (c) => shown(c.engine) + (c.trade_in ? " (trade in " + shown(c.trade_in) + ")" : ""), { confirm: true }],
    ["buy-upgrade", "Buy upgrade", "Buy", (c) => [shown(c.upgrade), c.city, c.region, c.commodity].filter(Boolean).join(" · "), { confirm: true }],
    ["acquire-railroad", "Merge with an independent", "Merge with", (c) => { const r = view.railroads.find((x) => x.id === c.railroad); return r ? r.name : "railroad " + c.railroad; }, { confirm: true }],
    ["repay-debt", "Repay debt", "Repay", () => "debt", { confirm: true }],
  ];
  const pricedControls = () => PRICED.map(([cmd, title, verb, what, opts]) => pricedControl(cmd, title, verb, what, opts)).filter(Boolean);

  // The bankruptcy auction: the first bidder chooses a lot; every bidder may bid any amount from
  // the lowest bid in $1,000 steps up to their cash (the range comes from the engine's listing).
  function auctionControls(legal) {
    const a = view.auction;
    if (view.phase !== "auction" || !a) return [];
    const me = view.viewer;
    const mine = me !== null && me !== undefined && a.bidder === me;
    const head = a.choosing
      ? (mine ? "Choose which piece of " + who(a.seller) + "'s track goes on the block, then bid or pass." : who(a.bidder) + " chooses which piece of " + who(a.seller) + "'s track goes on the block.")
      : "On the block: " + routeName(a.lot.route) + (a.high !== null ? " · high bid " + money(a.high) + " by " + who(a.high_bidder) : " · no bid yet") + (mine ? "" : " · " + who(a.bidder) + " to bid");
    const out = [el("div", { class: "ws-auction-head" }, el("b", {}, head), el("span", { class: "muted" }, " (" + plural(a.lots_left, "lot") + " left)"))];
    if (!mine) return out;
    const bids = new Map((view.listing || []).filter((e) => e.command.cmd === "bid").map((e) => [e.command.route, e]));
    for (const lot of a.lots) {
      const entry = bids.get(lot.route);
      const span = entry && !entry.reason ? entry.range : null;
      const reason = entry && entry.reason ? entry.reason.message : lot.blocked;
      const part = lot.segments < lot.length ? " · " + lot.segments + " of " + plural(lot.length, "segment") + " built" : "";
      const input = el("input", { type: "number", class: "ws-bid-amount", inputmode: "numeric", "aria-label": "Bid for " + routeName(lot.route),
        min: span ? span.min : lot.minimum, max: span ? span.max : lot.minimum, step: span ? span.step : a.amount_step, value: lot.minimum, disabled: !span });
      const bid = el("button", { type: "button", class: "primary", "data-cmd": "bid", "data-route": lot.route }, "");
      const step = (dir) => { input.value = String(Math.min(span.max, Math.max(span.min, (Number(input.value) || span.min) + dir * span.step))); sync(); };
      const less = el("button", { type: "button", class: "ws-step", "aria-label": "$1,000 less", disabled: !span, onclick: () => step(-1) }, "−");
      const more = el("button", { type: "button", class: "ws-step", "aria-label": "$1,000 more", disabled: !span, onclick: () => step(1) }, "+");
      const why = el("p", { class: "muted ws-why" }, span ? "" : reason || "");
      function sync() {
        const amount = Number(input.value);
        const ok = span && Number.isInteger(amount) && amount >= span.min && amount <= span.max && (amount - span.min) % span.step === 0;
        bid.textContent = "Bid " + (Number.isFinite(amount) ? money(amount) : "");
        bid.disabled = !ok;
        why.textContent = span ? (ok ? "" : "Bid " + money(span.min) + " to " + money(span.max) + " in " + money(span.step) + " steps.") : reason || "";
      }
      input.addEventListener("input", sync);
      bid.addEventListener("click", () => { if (!bid.disabled) send({ cmd: "bid", route: lot.route, amount: Number(input.value) }, bid); });
      sync();
      const pass = legal.find((c) => c.cmd === "pass-bid" && c.route === lot.route);
      const passButton = pass ? actionButton(a.choosing ? "Put it on the block and pass" : "Pass", pass, { confirm: false }) : null;
      out.push(el("div", { class: "ws-lot", "data-lot": lot.route },
        el("div", {}, el("b", {}, routeName(lot.route)), el("span", { class: "muted" }, part + " · sold for " + money(lot.price) + " · lowest bid " + money(lot.minimum))),
        el("div", { class: "row ws-bid-row" }, less, input, more), el("div", { class: "row ws-bid-buttons" }, bid, passButton), why));
    }
    return out;
  }

  function renderMarket(legal) {
    const claims = legal.filter((c) => c.cmd === "claim-market-contract");
    const market = (view.market || []).map(contractById).filter(Boolean);
    const me = view.viewer !== null && view.viewer !== undefined ? view.players[view.viewer] : null;
    $("ws-market").replaceChildren(
      el("p", { class: "muted" }, view.market_open ? (me && !me.market_eligible ? "You need a Mogul or better to claim market contracts." : "Claim one when you pick it up; you may hold one at a time.") : "The market opens once a player owns a Mogul or better."),
      ...market.map((m) => contractCard(m, claims.filter((c) => c.contract === m.id).map((c) => actionButton("Claim", c, { primary: true })))),
      market.length ? null : el("p", { class: "muted" }, "No market contracts."));
  }

  function renderTies() {
    const rows = [...view.players].sort((a, b) => b.ties - a.ties).map((p) => el("li", { class: p.seat === view.viewer ? "me" : "" }, el("b", {}, p.name), " — " + p.ties + " ties"));
    const me = view.viewer !== null && view.viewer !== undefined ? view.players[view.viewer] : null;
    const target = view.options && view.options.target_ties;
    const last = view.options && view.options.max_rounds;
    const parts = [el("h3", {}, "Railroad ties" + (target ? " (first to " + target + (last ? ", or the most after round " + last : "") + ")" : "")), el("ol", { class: "ws-leaders" }, rows)];
    if (me) {
      parts.push(el("h4", {}, "How my " + me.ties + " ties add up"),
        me.tie_breakdown.length ? el("ul", { class: "ws-breakdown" }, me.tie_breakdown.map((t) => el("li", {}, el("b", {}, signed(t.ties)), " " + t.detail + (t.round ? " (round " + t.round + ")" : "")))) : el("p", { class: "muted" }, "No ties yet: deliver contracts to earn them."));
      parts.push(el("p", { class: "muted" }, "Money " + money(me.money) + " · debt " + money(me.debt) + (me.debt ? " · debt service per delivery: east " + money(me.debt_service.east) + ", central " + money(me.debt_service.central) + ", west " + money(me.debt_service.west) : "")));
    }
    const bonuses = view.connection_bonuses || [];
    if (bonuses.length) parts.push(el("h4", {}, "Connection bonuses"), el("ul", {}, bonuses.map((b) => el("li", {}, b.name + " — " + b.ties + " ties (" + b.segments + " segments)" + (b.claimed_by && b.claimed_by.length ? " · claimed by " + b.claimed_by.map(who).join(", ") : "")))));
    $("ws-ties").replaceChildren(...parts);
  }

  // The ending (Junction.ending from payload.result, Engine.result): every seat ranked by ties with its
  // ties by source and money minus debt (the tiebreak); then every tie line by line, per player.
  const NET_WORTH = "Money minus debt";
  const endingPart = (p) => p.label + " " + (p.label === NET_WORTH ? money(p.value) : Junction.number(p.value));
  function endingSeats() {
    const summary = ctx && ctx.summary;
    return summary && Array.isArray(summary.seats) && summary.seats.length ? summary.seats : view.players.map((p) => ({ index: p.seat, name: p.name }));
  }
  function renderFinal(payload) {
    const box = $("ws-final");
    if (!view.final) { box.hidden = true; return; }
    box.hidden = false;
    const winners = view.final.winners || [];
    const ending = Junction.ending(payload.result, { seats: endingSeats(), you: view.viewer, code: ctx.code, kind: "wood-and-steel", title: "Wood and Steel",
      unit: "tie", part: endingPart });
    box.replaceChildren(...(ending ? [ending] : [el("h3", {}, "Game over")]),
      el("h3", {}, "Every tie, line by line (round " + view.final.round + ")"),
      ...view.final.scores.map((s) =>
        el("details", { open: s.seat === view.viewer, class: winners.includes(s.seat) ? "ws-won" : "", "data-seat": s.seat },
          el("summary", {}, el("b", {}, s.name), " — " + plural(s.ties, "tie") + (s.net_worth !== undefined ? " · " + money(s.net_worth) + " money minus debt" : ""), winners.includes(s.seat) ? el("span", { class: "tag ws-won-tag" }, "winner") : null),
          el("ul", { class: "ws-breakdown" }, s.breakdown.map((t) => el("li", {}, el("b", {}, signed(t.ties)), " " + t.detail))))));
  }

  function renderRailroads(legal) {
    const acquire = legal.filter((c) => c.cmd === "acquire-railroad");
    const grew = view.growth && view.growth.round ? " (round " + view.growth.round + ")" : "";
    $("ws-railroads").replaceChildren(...(view.railroads || []).map((r) => el("div", { class: "ws-railroad" + (r.acquired_by !== null ? " acquired" : ""), "data-railroad": r.id },
      el("div", { class: "row between" }, el("b", {}, r.name), el("span", { class: "muted" }, r.acquired_by !== null ? "merged into " + who(r.acquired_by) : money(r.price))),
      el("div", { class: "ws-rr-routes" }, r.routes.map((x) => el("span", { class: "ws-rr-route" + (r.grew_last_round.includes(x.route) ? " grew" : "") }, x.route))),
      r.grew_last_round.length ? el("div", { class: "ws-grew" }, "Grew last round" + grew + ": " + r.grew_last_round.join(", ")) : null,
      el("div", { class: "row" }, acquire.filter((c) => c.railroad === r.id).map((c) => actionButton("Merge (" + money(r.price) + ")", c))))));
  }

  function renderCommodities() {
    if (!board) return;
    const inContracts = {};
    // Open market contracts have status "market"; claimed ones and private ones are "held"
    // (another seat's private contract is hidden unless the game makes them public).
    for (const c of view.contracts || []) {
      if (c.hidden || !["market", "held"].includes(c.status)) continue;
      (inContracts[c.commodity] = inContracts[c.commodity] || []).push(c);
    }
    const where = (c) => c.status === "market" ? "open market contract" : (c.type === "market" ? "market contract" : "private contract") + " held by " + (c.holder === view.viewer ? "you" : who(c.holder));
    const producers = {};
    for (const city of board.cities) for (const m of city.commodities) (producers[m] = producers[m] || []).push(city.name);
    const monopoly = Object.fromEntries((view.monopoly_commodities || []).map((m) => [m.commodity, m]));
    $("ws-commodities").replaceChildren(...board.commodities.map((m) => el("div", { class: "ws-commodity", "data-commodity": m },
      el("div", { class: "row between" }, el("b", {}, m), monopoly[m] ? el("span", { class: "tag" }, "monopoly " + monopoly[m].ties + " ties" + (monopoly[m].holder !== null ? " · " + who(monopoly[m].holder) : "")) : null),
      el("div", { class: "muted" }, "Produced in " + (producers[m] || []).join(", ")),
      inContracts[m] ? el("div", { class: "ws-in-contracts" }, "In contracts: " + inContracts[m].map((c) => "→ " + c.destination + " " + money(c.value) + " (" + where(c) + ")").join("; ")) : null)));
  }

  function renderCities() {
    if (!board) return;
    const filter = ($("ws-city-filter").value || "").toLowerCase();
    const active = {};
    for (const p of view.players) for (const c of p.active_cities || []) (active[c] = active[c] || []).push(p.name);
    const indie = {};
    for (const r of view.railroads || []) if (r.acquired_by === null) for (const c of r.cities) (indie[c] = indie[c] || []).push(r.name);
    const region = Object.fromEntries(board.regions.map((r) => [r.code, r.label]));
    $("ws-cities").replaceChildren(...board.cities.filter((c) => !filter || c.name.toLowerCase().includes(filter)).map((c) => el("div", { class: "ws-city", "data-city": c.name },
      el("div", { class: "row between" }, el("b", {}, c.name), el("span", { class: "muted" }, region[c.region] || c.region)),
      el("div", { class: "muted" }, (c.commodities.join(", ") || "no commodities") + (c.large ? " · large city" : "") + (c.west_coast ? " · West Coast" : "")),
      active[c.name] ? el("div", {}, "Active for " + active[c.name].join(", ")) : null,
      indie[c.name] ? el("div", {}, "Independent: " + indie[c.name].join(", ")) : null)));
  }

  // ---- the event feed -------------------------------------------------------------------
  const debtService = (d) => d ? "east " + money(d.east) + ", central " + money(d.central) + ", west " + money(d.west) : "";
  function describe(e) {
    const c = e.contract !== undefined ? contractById(e.contract) : null;
    const contract = (fallback) => (c && !c.hidden && c.commodity ? c.commodity + " → " + c.destination : fallback);
    switch (e.type) {
      case "game-started": return "The game started.";
      case "routes-ranked": return who(e.seat) + " ranked their starting routes.";
      case "starting-routes": return "Starting routes: " + Object.entries(e.routes).map(([s, r]) => who(Number(s)) + " " + r).join("; ") + ". " + who(e.order[0]) + " goes first.";
      case "starting-contract-dealt": return who(e.seat) + " was dealt a starting private contract.";
      case "engine-placed": return who(e.seat) + " placed their engine in " + e.city + ".";
      case "round-started": return "Round " + e.round + " begins: " + e.order.map(who).join(", ") + ".";
      case "turn-started": return who(e.seat) + "'s turn.";
      case "turn-ended": return who(e.seat) + " ended their turn.";
      case "track-built": return who(e.seat) + " built " + plural(e.segments, "segment") + " on " + e.route + " for " + money(e.cost) + (e.complete ? " (route complete)" : "") + ".";
      case "cities-connected": return who(e.seat) + " reached " + e.cities.join(", ") + ".";
      case "borrowed": return who(e.seat) + " borrowed " + money(e.amount) + " (debt now " + money(e.debt) + (e.debt_service ? "; debt service on the next delivery: " + debtService(e.debt_service) : "") + ").";
      case "repaid": return who(e.seat) + " repaid " + money(e.amount) + " of debt (debt now " + money(e.debt) + (e.debt_service ? "; debt service on the next delivery: " + debtService(e.debt_service) : "") + ").";
      case "railroad-grew": return e.name + " grew: " + e.route + ".";
      case "railroads-unchanged": return "No independent railroad grew this round.";
      case "round-ended": return "Round " + e.round + " ended.";
      case "final-round": return "Someone reached the target: round " + e.round + " is the final round.";
      case "engine-bought": return who(e.seat) + " bought a " + e.name + " for " + money(e.cost) + (e.trade_in ? ", trading in the " + shown(e.trade_in) : "") + ".";
      case "service-yard-available": return "Service yards are now available as an upgrade.";
      case "contract-fulfilled": return who(e.seat) + " delivered " + e.commodity + " to " + e.destination + ": " + money(e.income) + (e.debt_service ? " less " + money(e.debt_service) + " debt service" : "") + (e.bankrupt ? " — not enough to pay." : ", " + plural(e.ties, "tie") + ".");
      case "offers-dealt": return who(e.seat) + " was offered " + e.count + " new contracts.";
      case "offer-chosen": return who(e.seat) + " chose a new private contract.";
      case "private-contract-discarded": return who(e.seat) + " discarded their private contract" + (c && !c.hidden && c.commodity ? " (" + contract("") + ")" : "") + " and draws new offers.";
      case "market-opened": return "The market is open.";
      case "market-contract-added": return "New market contract: " + e.commodity + " → " + e.destination + " (" + money(e.value) + ").";
      case "market-contract-claimed": return who(e.seat) + " claimed " + contract("a market contract") + ".";
      case "connection-bonus": {
        const b = (view && view.connection_bonuses || []).find((x) => x.id === e.bonus);
        return who(e.seat) + " claimed " + (b ? "the " + b.name + " connection bonus" : "a connection bonus") + ": " + plural(e.ties, "tie") + ".";
      }
      case "railroad-acquired": return who(e.seat) + " merged with " + e.name + " for " + money(e.price) + ".";
      case "upgrade-bought": return who(e.seat) + " bought " + shown(e.upgrade) + " for " + money(e.cost) + ".";
      case "monopoly": return who(e.seat) + " holds the " + e.commodity + " monopoly (" + plural(e.ties, "tie") + ").";
      case "go-first": return who(e.seat) + " will go first next round.";
      case "action-passed": return who(e.seat) + " passed an action.";
      case "bankruptcy": return who(e.seat) + " went bankrupt: " + money(e.shortfall) + " short, owes " + money(e.owed) + " and loses " + plural(e.ties_lost, "tie") + "; their track is sold to pay.";
      case "track-sold": return who(e.seat) + " sold their track on " + e.route + " for " + money(e.value) + ".";
      case "bankruptcy-settled": return who(e.seat) + "'s bankruptcy is settled" + (e.unpaid ? " (" + money(e.unpaid) + " left unpaid and forgiven)" : "") + ".";
      case "bid": return who(e.seat) + " bid " + money(e.amount) + " for the track on " + e.route + ".";
      case "lot-chosen": return who(e.seat) + " put the track on " + routeName(e.route) + " on the block (lowest bid " + money(e.price) + ").";
      case "bid-passed": return who(e.seat) + " passed on " + (e.route ? "the track on " + routeName(e.route) : "this lot") + ".";
      case "lot-sold": return who(e.seat) + " bought " + (e.segments && e.length && e.segments < e.length ? e.segments + " of " + plural(e.length, "segment") + " of the track on " : "the track on ") + routeName(e.route) + " at auction for " + money(e.price) + ".";
      case "lot-unsold": {
        const r = e.railroad !== null && e.railroad !== undefined ? (view && view.railroads || []).find((x) => x.id === e.railroad) : null;
        return "No one bid for the track on " + e.route + (e.railroad !== null && e.railroad !== undefined ? ": it joins " + (r ? r.name : "an independent railroad") + "." : ": the route is free again.");
      }
      case "auction-over": return "The auction is over; play goes on.";
      case "game-over": return "Game over in round " + e.round + ": " + joinNames((e.winners || []).map(who)) + ((e.winners || []).length > 1 ? " share the win." : " won.");
      case "undone": return who(e.seat) + "'s move was undone" + (e.command && e.command.cmd ? " (" + String(e.command.cmd).replace(/-/g, " ") + ")" : "") + ".";
      default: return Junction.platformEvent(e, who) || Junction.unknownEvent(e, who);
    }
  }
  const feedLine = (action, e) => el("li", { class: "ev-" + e.type, "data-seq": action.sequence }, describe(e));
  const FEED_QUIET = new Set(["turn-started"]);
  const FEED_MAX = 60;
  // A replay's feed: the log up to the step shown (ctx.log), newest first as live, the lines
  // of the step itself marked.
  function replayFeed(actions) {
    const lines = [];
    for (let i = actions.length - 1; i >= 0 && lines.length < FEED_MAX; i--) {
      const action = actions[i];
      const events = (action.events || []).filter((e) => !FEED_QUIET.has(e.type));
      for (let j = events.length - 1; j >= 0 && lines.length < FEED_MAX; j--) {
        const line = feedLine(action, events[j]);
        if (action.sequence === version) line.classList.add("ws-now");
        lines.push(line);
      }
    }
    $("ws-feed").replaceChildren(...lines);
  }
  let feedBusy = false, feedAgain = false;
  async function refreshFeed() {
    if (ctx.readOnly) { replayFeed(ctx.log || []); return; }
    if (feedBusy) { feedAgain = true; return; }  // one fetch at a time: no duplicates
    feedBusy = true;
    try { await fetchFeed(); } finally { feedBusy = false; }
    if (feedAgain) { feedAgain = false; refreshFeed(); }
  }
  async function fetchFeed() {
    const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + lastSeq);
    if (!result.ok) return;
    const feed = $("ws-feed");
    for (const action of result.data) {
      if (action.sequence <= lastSeq) continue;
      lastSeq = action.sequence;
      for (const e of action.events) if (!FEED_QUIET.has(e.type)) feed.prepend(feedLine(action, e));
    }
    while (feed.children.length > FEED_MAX) feed.lastChild.remove();
  }

  // ---- tabs -------------------------------------------------------------------------------
  function showTab(name) {
    for (const b of document.querySelectorAll(".ws-tabs [data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
    for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== name;
  }
  document.querySelectorAll(".ws-tabs [data-tab]").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("ws-city-filter").addEventListener("input", () => view && renderCities());

  async function loadBoard(code) {
    const result = await Junction.api("GET", "/api/wood-and-steel/games/" + code + "/board");
    if (result.ok) { board = result.data; if (view) { renderCommodities(); renderCities(); } }
  }

  // What I can do now, in words, from the server's legal commands (payload.legal_commands): one
  // phrase per kind of command, in the order the actions card lists them.
  const WHAT_NOW = [
    ["rank-starting-routes", "rank three starting routes, your first choice first"], ["place-engine", "place your engine in a city of your starting route"],
    ["choose-offer", "choose one of your contract offers"], ["fulfill-contract", "deliver a contract you hold"],
    ["claim-market-contract", "claim a market contract"], ["build-track", "build track"], ["claim-connection-bonus", "claim a connection bonus"],
    ["buy-engine", "buy a faster engine"], ["buy-upgrade", "buy an upgrade"], ["acquire-railroad", "merge with an independent railroad"],
    ["borrow", "borrow"], ["repay-debt", "repay debt"], ["discard-private-contract", "discard your private contract for new offers"],
    ["go-first", "go first next round"], ["sell-track", "sell track to pay what you owe"], ["bid", "bid on the track for sale"],
    ["pass-bid", "pass"], ["pass-action", "pass an action"], ["end-turn", "end your turn"], ["end-round", "end the round"],
  ];
  function whatNow(legal) {
    const cmds = new Set(legal.map((c) => c.cmd));
    const phrases = WHAT_NOW.filter(([cmd]) => cmds.has(cmd)).map(([, words]) => words);
    const known = new Set(WHAT_NOW.map(([cmd]) => cmd));
    for (const cmd of cmds) if (!known.has(cmd)) phrases.push(String(cmd).replace(/-/g, " "));
    if (!phrases.length) return "nothing to do.";
    const me = view.viewer !== null && view.viewer !== undefined ? view.players[view.viewer] : null;
    const used = view.phase === "play" && me && me.turn_actions ? me.turn_actions.length : null;
    const list = phrases.length === 1 ? phrases[0] : phrases.slice(0, -1).join(", ") + " or " + phrases[phrases.length - 1];
    return (phrases.length > 1 && view.phase === "play" ? "you can " : "") + list + "." + (used !== null ? " " + plural(2 - used, "action") + " left this turn." : "");
  }

  // Whose move it was, for a replay (and any page that only watches the game go by).
  function watchedTurn() {
    if (view.phase === "ranking") return "The players rank their starting routes.";
    if (view.phase === "engines") return "The players place their engines.";
    if (view.phase === "auction" && view.auction) {
      const a = view.auction;
      return a.bidder !== null && a.bidder !== undefined ? who(a.bidder) + (a.choosing ? " chooses a lot" : " bids") + " at " + who(a.seller) + "'s auction." : "Bankruptcy auction.";
    }
    return view.current_seat !== null && view.current_seat !== undefined ? who(view.current_seat) + "'s turn." : "";
  }

  window.JunctionPlay = {
    render(payload, context) {
      ctx = context;
      view = payload.state;
      if (!view) return;
      if (!board) loadBoard(ctx.code);
      const legal = payload.legal_commands || [];
      takeBack = ctx.readOnly ? null : payload.take_back || null;
      $("version").textContent = payload.version;
      version = payload.version;
      if (undoConfirmAt !== null && undoConfirmAt !== version) hideUndoConfirm();  // the game moved on: that undo is stale
      const last = view.options && view.options.max_rounds;  // a game shortened on the create form: "Round 2 of 3"
      $("ws-heading").textContent = (view.round ? "Round " + view.round + (last ? " of " + last : "") + " · " : "") + (PHASES[view.phase] || view.phase);
      const me = view.viewer;
      const myMove = legal.length > 0;
      let turn;
      if (view.phase === "finished") turn = payload.result ? "" : "Game over.";
      else if (ctx.readOnly) turn = watchedTurn();  // a replay: what was going on, no one waits
      else if (view.phase === "ranking" || view.phase === "engines") turn = myMove ? "Your move: " + whatNow(legal) : "Waiting for the others…";
      else if (myMove) turn = (view.phase === "auction" ? "Your bid: " : "Your turn: ") + whatNow(legal);
      else turn = view.phase === "auction" && view.auction ? watchedTurn() : "Waiting for " + who(view.current_seat) + "…";
      if (!myMove && takeBack && view.phase !== "finished") turn += " Until the next player acts you can take back " + (TAKE_BACK_WORDS[takeBack.cmd] || "your last action").replace(/\bmy\b/g, "your") + ".";
      $("ws-turn").textContent = turn;
      $("ws-turn").classList.toggle("mine", myMove);
      document.body.dataset.myTurn = String(myMove);
      document.body.dataset.phase = view.phase;
      const p = me !== null && me !== undefined ? view.players[me] : null;
      $("ws-me").hidden = !p && !!ctx.readOnly;  // "Watching." is for a live page
      $("ws-me").textContent = p ? p.name + " · " + p.ties + " ties · " + money(p.money) + (p.debt ? " (debt " + money(p.debt) + ")" : "") + (p.engines && p.engines.length ? " · " + p.engines[p.engines.length - 1].name : "") : "Watching.";
      if (view.phase !== "ranking") ranking = [];
      renderSetup(legal);
      renderMine(legal);
      renderActions(legal);
      renderFinal(payload);
      renderMarket(legal);
      renderTies();
      renderRailroads(legal);
      renderCommodities();
      renderCities();
      refreshFeed();
    },
    describe,
  };
})();
