/* Resourceful Rails play surface (templates/games/play/resourceful-rails.html): the map with
 * everyone's track and trains (Junction.RailMap), building and moving by tapping mileposts,
 * your order cards, train and options with their prices, the players, and what happened.
 *
 * Nothing here knows a rule. A tap asks the server to plan (POST /api/games/{code}/plan: the
 * cheapest legal build through the tapped mileposts, or the shortest legal move to one, priced,
 * with the exact command); confirm sends that command, which the rules check again. Every other
 * control is one entry of the engine's listing (view.listing: command, price, reason). Names of
 * cities, goods, trains and colours come from the kind's content (GET /api/kinds/…/content),
 * fetched once per page and cached by the browser. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, plural, text } = Junction;
  const KIND = "resourceful-rails";
  const STATUS_REASONS = Junction.STATUS_REASONS;
  const andList = new Intl.ListFormat("en", { type: "conjunction" });

  // ---- content: the map and the names of things ------------------------------------------------
  // A game's board is its option "map" (the default board's content is fetched without ?map=, as preloaded).
  const DEFAULT_MAP = "pacific-northwest";
  let content = null, contentMap = null;
  const contentLoading = {};
  let cityNames = {}, cityNodes = {}, goodNames = {}, goodSources = {}, trainInfo = {}, colorHex = {}, colorNames = {};
  const boardOf = (view) => (view && view.options && view.options.map) || DEFAULT_MAP;
  function loadContent(board) {
    board = board || DEFAULT_MAP;
    if (!contentLoading[board]) {
      const url = "/api/kinds/" + KIND + "/content" + (board === DEFAULT_MAP ? "" : "?map=" + encodeURIComponent(board));
      contentLoading[board] = Junction.api("GET", url).then((result) => {
        if (!result.ok || !result.data || !result.data.map) { delete contentLoading[board]; throw new Error(Junction.errorText(result)); }
        return result.data;
      });
    }
    return contentLoading[board];
  }
  function useContent(board, data) {
    content = data;
    contentMap = board;
    cityNames = {}; cityNodes = {}; goodNames = {}; goodSources = {};
    for (const c of content.map.cities) { cityNames[c.id] = c.name; cityNodes[c.id] = []; }
    for (const n of content.map.nodes) if (n.city && cityNodes[n.city]) cityNodes[n.city].push(n.at.join(","));
    for (const g of content.goods) { goodNames[g.id] = g.name; goodSources[g.id] = g.sources || []; }
    trainInfo = content.trains || {};
    colorHex = content.colors || {};
    colorNames = content.color_names || {};
  }
  const cityName = (id) => text(cityNames[id], text(id));
  const goodName = (id) => text(goodNames[id], text(id));
  const trainName = (id) => text((trainInfo[id] || {}).name, text(id));
  const colorName = (id) => text(colorNames[id], text(id));
  const place = Junction.RailPage.places(() => content, () => map, cityName);
  const cityAt = place.cityAt;
  /* A milepost in words: its city, or the open country near the closest city. */
  const placeName = (key) => { const c = cityAt(key); return c ? cityName(c) : place.openCountry(key); };
  /* A city milepost the train may be placed on: the city, and for a major city (seven mileposts) which side of
   * it when the track reaches it at more than one ("Copperton (north-east side)"). */
  function placeLabel(key) {
    const c = cityAt(key);
    if (!c) return placeName(key);
    const view = last && last.payload.state;
    const same = view ? (view.listing || []).filter((e) => e.command.cmd === "place-train" && cityAt(e.command.at.join(",")) === c) : [];
    const nodes = cityNodes[c] || [];
    if (same.length < 2 || nodes.length < 7 || !content) return cityName(c);
    const px = (k) => { const a = Junction.RailMap.parseKey(k); return Junction.RailMap.pixel(content.map.layout, a[1], a[2]); };
    const pts = nodes.map(px);
    const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length, cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const [x, y] = px(key);
    const sides = ["east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east"];
    const turn = Math.round(Math.atan2(y - cy, x - cx) / (Math.PI / 4));
    return cityName(c) + " (" + sides[(turn + 8) % 8] + " side)";
  }
  /* Where a train stands, as a place in a sentence: "at Boise, ID", "in the open country near Boise, ID". */
  const atPlace = (key) => (cityAt(key) ? "at " : "in ") + placeName(key);

  // ---- words -------------------------------------------------------------------------------------
  let names = {};
  // A seat's name: from the view drawn last, else the game's seats (the replay's first step).
  const { who, people } = Junction.RailPage.namer(() => names, () => last && last.ctx);
  const dollars = (n) => "$" + Junction.number(n);
  const sections = (n) => plural(n, "section");
  const mileposts = (n) => plural(n, "milepost");

  function describe(e) {
    switch (e.type) {
      case "game-started": return "The game started.";
      case "turn-started": return e.phase === "build" ? who(e.seat) + "'s build turn (build round " + text(e.build_round) + ")." : who(e.seat) + "'s turn (round " + text(e.round) + ").";
      case "turn-ended": return null;
      case "color-chosen": return who(e.seat) + " chose " + colorName(e.color) + ".";
      case "built": return who(e.seat) + " built " + sections(e.sections) + " for " + dollars(e.cost) + ".";
      case "upgraded": return who(e.seat) + " upgraded the train from " + trainName(e.from) + " to " + trainName(e.to) + " for " + dollars(e.cost) + ".";
      case "train-placed": return who(e.seat) + " put the train on the map at " + cityName(e.city) + ".";
      case "moved": {
        const path = e.path || [];
        const to = path.length ? placeName(path[path.length - 1]) : "—";
        const tolls = (e.tolls || []).map((t) => dollars(t.amount) + " to " + who(t.payee));
        return who(e.seat) + " moved " + mileposts(e.moves) + " to " + to + (tolls.length ? ", paying " + andList.format(tolls) + " for the use of their track" : "") + ".";
      }
      case "picked-up": return who(e.seat) + " loaded " + goodName(e.good) + " at " + cityName(e.city) + ".";
      case "dropped": return who(e.seat) + " unloaded " + goodName(e.good) + " at " + cityName(e.city) + " (no pay).";
      case "delivered": return who(e.seat) + " delivered " + goodName(e.good) + " to " + cityName(e.city) + " for " + dollars(e.payout) + ".";
      case "card-drawn": return who(e.seat) + " drew a new order card.";
      case "cards-discarded": return who(e.seat) + " discarded " + plural(e.count, "starting card") + ".";
      case "discard-started": return who(e.seat) + " discards " + plural(e.count, "starting card") + " (everyone keeps 3 once the build rounds are over).";
      case "hand-discarded": return who(e.seat) + " discarded " + plural(e.count, "order card") + " and drew as many new ones.";
      case "build-rounds-over": return "The build rounds are over: trains go on the map and normal turns begin.";
      case "qualified": return who(e.seat) + " has joined 6 major cities and holds " + dollars(e.cash) + ".";
      case "game-over": return e.reason === "round-limit"
        ? "The round limit was reached: " + people(e.winners) + (e.winners && e.winners.length === 1 ? " has" : " have") + " the most cash and " + (e.winners && e.winners.length === 1 ? "wins." : "share the win.")
        : "Game over: " + people(e.winners) + ((e.winners || []).length === 1 ? " wins." : " share the win.");
      case "undone": return who(e.seat) + "'s last move was taken back" + (e.command && e.command.cmd ? " (" + text(e.command.cmd).replace(/-/g, " ") + ")" : "") + ".";
      default: return Junction.platformEvent(e, who) || Junction.unknownEvent(e, who);
    }
  }
  /* One action of the log in words (the replay's step line). */
  const describeAction = Junction.RailPage.describeActionWith(describe);
  const say = Junction.RailPage.say;

  // ---- the map -----------------------------------------------------------------------------------
  let map = null, last = null;  // last: {payload, ctx}
  function ensureMap(ctx) {
    if (map || !content) return map;
    $("rr-map-loading").hidden = true;
    $("rr-map").hidden = false;
    map = Junction.RailMap.create($("rr-map"), content.map, {
      goodsNames: goodNames,
      ariaLabel: "Map of " + text(content.map.name, "the railroads") + ": mileposts, cities, everyone's track and trains",
      onTap: (key, info) => onTap(key, info),
      shrinkToFit: true,
    });
    // A tall screen (a phone) would show the wide map as a strip with empty bands: fill it
    // instead, around this seat's train or track if it has some.
    if (map.coverRatio > 1.4) {
      const view = last && last.payload.state;
      const me = view && view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null;
      const own = me && Object.entries(view.track || {}).find(([, seat]) => seat === me.seat);
      map.cover(me && me.at ? me.at : own ? own[0].split("|")[1] : null);
    }
    return map;
  }
  function drawMap(view) {
    if (!map) return;
    Junction.RailPage.drawSeats(map, view, colorHex, (p) => p.at);
  }

  // ---- taps: build, move, place the train --------------------------------------------------------
  // mode: what a tap on the map does now ("build", "move", "place"), or null (it names the milepost).
  let mode = null, modes = [], points = [], plan = null, planning = false;
  const asker = Junction.RailPage.planAsker();  // one plan asked at a time: a newer tap wins
  let highlight = null;  // a demand shown on the map: {card, demand}
  const mine = (payload) => payload && !last.ctx.readOnly && payload.status === "active" && payload.state && payload.state.active_seat === payload.state.you && payload.state.you !== null && payload.state.you !== undefined;

  function modesFor(payload) {
    if (!mine(payload)) return [];
    const view = payload.state, me = view.players[view.you] || view.players.find((p) => p.seat === view.you);
    const out = [];
    if (view.stage === "discard") return out;
    if (view.phase === "play" && view.stage === "move") {
      if (!me.at) { if ((view.listing || []).some((e) => e.command.cmd === "place-train")) out.push("place"); }
      else if (view.turn.moves_left > 0) out.push("move");
    }
    if ((view.stage === "move" || view.stage === "build") && view.turn.build_left > 0) out.push("build");
    return out;
  }
  const MODE_LABELS = { build: "Build track", move: "Move the train", place: "Place the train" };
  const MODE_COMMANDS = { build: "build", move: "move", place: "place-train" };  // the command each mode plans
  const MODE_HINTS = {
    build: "Tap where the track should go: the cheapest legal way there from your track (or a major city) is planned. Tap more mileposts to choose the way.",
    move: "Tap where the train should go: the shortest legal way there is planned, with any fees.",
    place: "Tap a city your track reaches (ringed) to put your train there, or choose it below.",
  };

  function setMode(next, keepPlan) {
    if (next !== mode && !keepPlan) clearPlan();
    mode = next;
    const box = $("rr-modes");
    box.hidden = modes.length < 2;
    box.replaceChildren(...modes.map((m) => el("button", { type: "button", "data-mode": m, "aria-pressed": m === mode ? "true" : "false", class: m === mode ? "on" : null,
      title: Junction.RailPage.helpFor(MODE_COMMANDS[m]) || null, onclick: () => { setMode(m); renderPlan(); } }, MODE_LABELS[m])));
    say($("rr-tapped"), mode ? MODE_HINTS[mode] : (last && last.ctx.readOnly ? "" : "Tap a milepost to see what is there."));
    markPlaces();
  }
  function markPlaces() {
    if (!map) return;
    const view = last && last.payload.state;
    const keys = mode === "place" && view ? (view.listing || []).filter((e) => e.command.cmd === "place-train").map((e) => e.command.at.join(",")) : [];
    map.setMarks(keys.length ? keys : null, "rr-placeable");
    map.setMarks(mode === "build" && points.length ? points : null, "rr-point");
  }
  function clearPlan() {
    points = []; plan = null; asker.cancel(); planning = false;
    if (map) { map.setPath(null); map.setMarks(null, "rr-point"); }
  }

  function onTap(key, info) {
    const where = place.tapped(key, info, placeName, info && info.city ? (info.city.goods || []).map(goodName) : []);  // a place, never its coordinates
    if (!last || !mode) { $("rr-tapped").textContent = "You tapped " + where + "."; return; }
    Junction.showError($("rr-plan-error"), "");
    if (mode === "place") {
      // the tapped milepost if it is one offered, else the city's milepost the track reaches (a major city has seven)
      const offers = (last.payload.state.listing || []).filter((e) => e.command.cmd === "place-train" && info.city && cityAt(e.command.at.join(",")) === info.city.id);
      const entry = offers.find((e) => e.command.at.join(",") === key) || offers[0];
      if (!entry) {
        Junction.showError($("rr-plan-error"), info.city ? "Your track does not reach " + cityName(info.city.id) + " yet." : "A train goes on a city: tap one your track reaches.", null);
        return;
      }
      const at = entry.command.at.join(",");
      plan = { plan: "place", command: { cmd: "place-train", at: entry.command.at }, path: [at], ok: true, text: "Put your train at " + placeLabel(at) + "." };
      renderPlan();
      return;
    }
    if (mode === "build") points.push(key);
    requestPlan(mode === "build" ? { plan: "build", points: [null, ...points] } : { plan: "move", to: key.split(",").map(Number) }, mode === "move" ? key : null);
  }

  async function requestPlan(body, target) {
    planning = true;
    renderPlan();
    const result = await asker.ask(last.ctx, body);
    if (!result) return;  // a newer tap or a clear came first
    planning = false;
    if (!result.ok) {
      if (body.plan === "build") points.pop();
      plan = null;
      if (map) map.setPath(null);
      renderPlan();
      Junction.showError($("rr-plan-error"), Junction.errorText(result), null);
      markPlaces();
      return;
    }
    plan = Object.assign({ request: body, target }, result.data);
    plan.ok = plan.plan === "move" || plan.affordable;
    renderPlan();
  }

  function planText(p, view) {
    if (p.plan === "place") return p.text;
    if (p.plan === "build") {
      const count = (p.sections || []).length;
      const what = count ? "Build " + sections(count) + " to " + placeName(p.path[p.path.length - 1]) + " · " + dollars(p.cost) : "No new track on that way: it is yours or a major city's already.";
      return what + " (" + dollars(p.budget) + " left to build this turn" + (p.affordable ? "" : ": not enough") + ").";
    }
    const tolls = (p.tolls || []).map((t) => dollars(t.amount) + " to " + who(t.payee));
    return "Move " + mileposts(p.moves) + " to " + placeName(p.path[p.path.length - 1]) + " (" + mileposts(Math.max(0, p.moves_left - p.moves)) + " left after)" +
      (tolls.length ? " · fees " + andList.format(tolls) : " · no fees") + ".";
  }

  function renderPlan() {
    const box = $("rr-plan"), confirm = $("rr-confirm"), why = $("rr-confirm-why");
    const view = last && last.payload.state;
    const show = !!mode && (planning || !!plan || points.length > 0);
    box.hidden = !show;
    if (!show) { if (map) map.setPath(null); markPlaces(); return; }
    $("rr-back").hidden = mode !== "build";
    $("rr-back").disabled = planning || points.length === 0;
    if (planning && !plan) say($("rr-plan-text"), "Planning…");
    else if (plan) say($("rr-plan-text"), planText(plan, view) + (planning ? " Planning…" : ""));
    const empty = plan && plan.plan === "build" && !(plan.sections || []).length;
    const blocked = !plan ? "Tap a milepost first." : planning ? "Planning…" : empty ? "There is nothing new to build on that way." : plan.ok === false ? "You cannot pay for this build now: remove points or choose a cheaper way." : null;
    confirm.disabled = !!blocked;
    confirm.textContent = !plan ? "Confirm" : plan.plan === "build" ? "Build · " + dollars(plan.cost) : plan.plan === "move" ? "Move" + (plan.fee_total ? " · " + dollars(plan.fee_total) + " in fees" : "") : "Place the train here";
    why.hidden = !blocked || !plan;
    why.textContent = blocked && plan ? blocked : "";
    if (blocked && plan) confirm.setAttribute("aria-describedby", "rr-confirm-why"); else confirm.removeAttribute("aria-describedby");
    if (map) {
      if (plan) map.setPath(plan.path, { kind: plan.plan === "move" ? "move" : "build", ok: plan.ok !== false });
      else map.setPath(null);
      if (plan && plan.path && plan.path.length) map.focus(plan.path[plan.path.length - 1]);
    }
    markPlaces();
  }

  async function confirmPlan() {
    if (!plan || planning) return;
    const button = $("rr-confirm");
    button.disabled = true;
    const command = plan.command;
    const result = await last.ctx.send(command);
    if (result.type === "error") {
      Junction.showError($("rr-plan-error"), text(result.error.message, "That did not work."), button);
      renderPlan();
      return;
    }
    clearPlan();
    renderPlan();
  }
  $("rr-confirm").addEventListener("click", confirmPlan);
  $("rr-back").addEventListener("click", () => {
    if (mode !== "build" || !points.length) return;
    points.pop();
    Junction.showError($("rr-plan-error"), "");
    if (points.length) requestPlan({ plan: "build", points: [null, ...points] });
    else { clearPlan(); renderPlan(); }
  });
  $("rr-clear").addEventListener("click", () => { Junction.showError($("rr-plan-error"), ""); clearPlan(); renderPlan(); });

  // ---- your options, priced (the engine's listing) -----------------------------------------------
  const key = Junction.commandKey;

  const blockedBy = Junction.RailPage.blockedBy;
  const send = (command, button) => Junction.RailPage.send(last.ctx, command, button, $("play-error"));

  function labelFor(c, view, me) {
    switch (c.cmd) {
      case "place-train": return "Put the train at " + placeLabel(c.at.join(","));
      case "pick-up": return "Load " + goodName(c.good);
      case "drop": return "Unload " + goodName(c.good) + " (no pay)";
      case "deliver": {
        const card = (me.hand || []).find((h) => h.id === c.card);
        const d = card && card.demands[c.demand];
        return d ? "Deliver " + goodName(d.good) + " to " + cityName(d.city) + " · +" + dollars(d.payout) : "Deliver";
      }
      case "upgrade": {
        const t = trainInfo[c.train] || {};
        const speed = view.options && view.options.fast_trains ? t.fast_speed : t.speed;
        return "Upgrade to " + trainName(c.train) + " (" + mileposts(speed) + ", " + plural(t.capacity, "load") + ")";
      }
      case "discard-hand": return "Discard my order cards and draw new ones (ends my turn)";
      case "end-turn": return "End my turn";
      default: return text(c.cmd);
    }
  }

  const UNDO_HELP = "Take back the last thing you did this turn (a build, a move, a load); never a card drawn, and never once your turn is over.";
  function renderActions(payload) {
    const view = payload.state;
    const card = $("rr-actions-card");
    const me = view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null;
    const entries = (view.listing || []).filter((e) => e.command.cmd !== "discard-cards");
    card.hidden = !me || last.ctx.readOnly || view.finished;
    if (card.hidden) return;
    const legal = new Set((payload.legal_commands || []).map(key));
    const note = $("rr-actions-note");
    const myTurn = view.active_seat === view.you;
    $("rr-actions-title").textContent = myTurn ? "Your turn" : "Your options";
    if (!myTurn || payload.status !== "active") {
      note.hidden = false;
      note.textContent = payload.status !== "active" ? text(STATUS_REASONS[payload.status], "Not now.") : "Waiting for " + who(view.active_seat) + ". Your options show when it is your turn.";
      $("rr-actions").replaceChildren();
      return;
    }
    note.hidden = view.stage !== "discard";
    note.textContent = view.stage === "discard" ? "The build rounds are over: everyone keeps 3 order cards. Discard " + text(me.must_discard) + " of your starting cards: choose them in your order cards below." : "";
    let reasons = 0;
    const order = { deliver: 0, "pick-up": 1, drop: 2, "place-train": 3, upgrade: 4, "discard-hand": 5, "end-turn": 6 };
    const sorted = entries.slice().sort((a, b) => (order[a.command.cmd] ?? 9) - (order[b.command.cmd] ?? 9));
    const out = sorted.map((entry) => {
      const c = entry.command;
      const blocked = blockedBy(entry, legal, payload.status);
      const id = blocked ? "rr-why-" + (++reasons) : null;
      const price = entry.price ? " · " + dollars(entry.price) : "";
      const button = el("button", { type: "button", class: c.cmd === "deliver" || (c.cmd === "end-turn" && view.phase === "build") ? "primary" : null,
        "data-cmd": c.cmd, "data-key": key(c), disabled: !!blocked, "aria-describedby": id, onclick: (ev) => send(c, ev.currentTarget) }, labelFor(c, view, me) + price);
      const words = Junction.RailPage.helpFor(c.cmd);
      if (words) button.title = words;
      const [toggle, panel] = Junction.RailPage.help("cmd:" + key(c), labelFor(c, view, me), words);
      return el("div", { class: "rr-option", "data-cmd": c.cmd }, button, toggle, blocked ? el("span", { class: "rr-reason", id }, text(blocked)) : null, panel);
    });
    // Undo takes back this turn's last command (the platform's undo: never past a card drawn).
    if (view.turn.acted) {
      const [toggle, panel] = Junction.RailPage.help("cmd:undo", "Undo my last move", UNDO_HELP);
      out.push(el("div", { class: "rr-option", "data-cmd": "undo" },
        el("button", { type: "button", "data-cmd": "undo", title: UNDO_HELP, onclick: (ev) => send({ cmd: "undo" }, ev.currentTarget) }, "Undo my last move"), toggle, panel));
    }
    $("rr-actions").replaceChildren(...out);
  }

  // ---- your order cards ----------------------------------------------------------------------------
  let discardPick = new Set();
  function renderHand(payload) {
    const view = payload.state;
    const me = view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null;
    const card = $("rr-hand-card");
    card.hidden = !me || !Array.isArray(me.hand);
    if (card.hidden) return;
    const here = me.at ? cityAt(me.at) : null;
    const discarding = view.stage === "discard" && view.active_seat === view.you && payload.status === "active" && !last.ctx.readOnly;
    const hand = new Set(me.hand.map((h) => h.id));
    for (const id of [...discardPick]) if (!hand.has(id)) discardPick.delete(id);
    const cards = me.hand.map((h, i) => {
      const demands = h.demands.map((d, j) => {
        const can = here === d.city && me.loads.includes(d.good);
        const on = highlight && highlight.card === h.id && highlight.demand === j;
        const sources = goodSources[d.good] || [];
        return Junction.RailPage.demandItem({ prefix: "rr", kind: "good", what: goodName(d.good), city: cityName(d.city), payout: dollars(d.payout),
          sources: sources.map(cityName), on, can, onclick: () => showDemand(h.id, j, d) });
      });
      const pick = discarding ? el("label", { class: "rr-pick" }, el("input", { type: "checkbox", value: h.id, checked: discardPick.has(h.id) ? true : null,
        onchange: (ev) => { if (ev.target.checked) discardPick.add(h.id); else discardPick.delete(h.id); renderDiscard(me); } }), "Discard this card") : null;
      return el("div", { class: "rr-card", "data-card": h.id }, el("div", { class: "rr-card-head muted" }, "Card " + (i + 1)), el("ul", { class: "rr-demands" }, demands), pick);
    });
    if (discarding) cards.push(el("div", { class: "rr-discard" }, el("button", { type: "button", id: "rr-discard", class: "primary", onclick: (ev) => send({ cmd: "discard-cards", cards: [...discardPick] }, ev.currentTarget) }, ""), el("span", { id: "rr-discard-why", class: "rr-reason" })));
    $("rr-hand").replaceChildren(...cards);
    if (discarding) renderDiscard(me);
  }
  function renderDiscard(me) {
    const button = $("rr-discard");
    if (!button) return;
    const need = me.must_discard;
    button.textContent = "Discard " + plural(discardPick.size, "chosen card");
    const wrong = discardPick.size !== need;
    button.disabled = wrong;
    $("rr-discard-why").textContent = wrong ? "Choose exactly " + plural(need, "card") + " to discard." : "";
  }
  function showDemand(card, demand, d) {
    if (!map) return;
    const on = highlight && highlight.card === card && highlight.demand === demand;
    highlight = on ? null : { card, demand };
    if (highlight) {
      map.setMarks(cityNodes[d.city] || [], "rr-demand-city");
      map.setMarks((goodSources[d.good] || []).flatMap((c) => cityNodes[c] || []), "rr-demand-source");
      map.focus((cityNodes[d.city] || [])[0]);
      $("rr-tapped").textContent = goodName(d.good) + " for " + cityName(d.city) + " (" + dollars(d.payout) + "): the city is ringed in red, where it comes from in green.";
    } else {
      map.setMarks(null, "rr-demand-city");
      map.setMarks(null, "rr-demand-source");
    }
    if (last) renderHand(last.payload);
  }

  // ---- your train and colour -----------------------------------------------------------------------
  function renderTrain(payload) {
    const view = payload.state;
    const me = view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null;
    $("rr-train-card").hidden = !me;
    if (!me) return;
    const loads = me.loads.length ? andList.format(me.loads.map(goodName)) : "nothing";
    const parts = [
      el("p", {}, el("b", {}, trainName(me.train)), ": " + mileposts(me.speed) + " a turn, " + plural(me.capacity, "load") + "."),
      el("p", {}, me.at ? "Standing " + atPlace(me.at) + ", carrying " + loads + "." : "Not on the map yet: it goes on a city your track reaches at your first normal turn."),
    ];
    if (view.active_seat === view.you && view.phase === "play" && payload.status === "active") {
      parts.push(el("p", { class: "muted" }, "This turn: " + mileposts(view.turn.moves_left) + " of movement left, " + dollars(view.turn.build_left) + " left to build."));
    }
    if (view.phase === "build" && payload.status === "active" && !last.ctx.readOnly) {
      const taken = new Set(view.players.filter((p) => p.seat !== me.seat).map((p) => p.color));
      const choices = Object.keys(colorHex).filter((c) => !taken.has(c));
      const select = el("select", { id: "rr-color" }, choices.map((c) => el("option", { value: c, selected: c === me.color ? true : null }, colorName(c))));
      const button = el("button", { type: "button", id: "rr-color-go", onclick: (ev) => send({ cmd: "choose-color", color: select.value }, ev.currentTarget) }, "Use this colour");
      const mineNow = view.active_seat === view.you;
      button.disabled = !mineNow;
      parts.push(el("div", { class: "rr-color-row" }, el("label", { for: "rr-color" }, "Your colour (until the build rounds end)"),
        el("div", { class: "row" }, select, button), mineNow ? null : el("span", { class: "rr-reason" }, "You can change it on your turn.")));
    }
    $("rr-train").replaceChildren(...parts);
  }

  // ---- the players ---------------------------------------------------------------------------------
  const swatch = (color) => Junction.RailPage.colorSwatch("rr-swatch", color, colorHex[color], colorName(color));
  function renderPlayers(view) {
    const bySeat = Object.fromEntries(view.players.map((p) => [p.seat, p]));
    return view.order.filter((s) => bySeat[s]).map((seat, i) => {
      const p = bySeat[seat];
      const majors = (p.majors || []).map(cityName);
      return el("li", { class: "rr-player" + (seat === view.active_seat ? " active" : "") + (seat === view.you ? " me" : ""), "data-seat": seat },
        el("div", { class: "row between" },
          el("span", { class: "rr-who" }, swatch(p.color), el("b", {}, (i + 1) + ". " + text(p.name, who(seat)) + (seat === view.you ? " (you)" : ""))),
          el("b", { class: "rr-cash" }, dollars(p.cash))),
        el("div", { class: "rr-line" }, trainName(p.train) + " train" + (p.at ? " " + atPlace(p.at) : " (not placed)") + " · " + (p.loads.length ? "carrying " + andList.format(p.loads.map(goodName)) : "empty")),
        el("div", { class: "rr-line muted" }, plural(p.sections, "section") + " of track · " + plural(p.hand_size, "order card") + " · major cities joined: " + text(majors.length) + " of 7" + (majors.length ? " (" + majors.join(", ") + ")" : "")));
    });
  }

  // ---- what happened (newest first) ----------------------------------------------------------------
  const feedRefresh = Junction.RailPage.feedOf($("rr-feed"), describe);
  const refreshFeed = (ctx) => feedRefresh(ctx, last ? last.payload.version : 0);

  // ---- what the marks and the words mean ----------------------------------------------------------
  function renderLegend(view) {
    if (!map) return;
    Junction.RailPage.legend($("rr-legend"), Junction.RailPage.mapLegendGroups(map, content, view, dollars, { marks: [
      { cls: "rr-placeable", words: "A city where you may put your train (your first normal turn)" },
      { cls: "rr-point", words: "A milepost you tapped for the build" },
      { cls: "rr-demand-city", words: "The city of the demand you chose in your order cards" },
      { cls: "rr-demand-source", words: "Where that demand's good comes from" },
    ] }));
  }
  function renderTerms(view) {
    const RP = Junction.RailPage;
    RP.helpHeading($("rr-hand-title"), "term:orders", "Each order card lists three demands: a good, the city that wants it and what it pays. Carry the good there and deliver it: " +
      "you are paid, the card is discarded and a new one drawn. Only one demand of a card is ever delivered. Tap a demand to see its city and where the good comes from on the map.");
    RP.helpHeading($("rr-train-title"), "term:train", "How many mileposts your train moves a turn and how many loads it carries. " + RP.helpFor("upgrade"));
    RP.helpHeading($("rr-players-title"), "term:players", "Major cities joined: the major cities one network of a player's track connects. The first to join " +
      text(view.goal.majors) + " of the 7 and hold " + dollars(view.goal.cash) + " at the end of their turn wins. Using another player's track costs a toll paid to them.");
  }

  // ---- the whole surface ---------------------------------------------------------------------------
  function headingFor(view) {
    if (view.finished || view.phase === "finished") return "The last round: round " + text(view.round);
    if (view.phase === "build") return "Build round " + text(view.build_round) + " of " + (view.options && view.options.extra_build_turn ? "3" : "2");
    return "Round " + text(view.round) + (view.options && view.options.round_limit ? " of " + text(view.options.round_limit) : "");
  }
  /* What the player may do next, one phrase per kind of command the rules allow now (the turn line). */
  const STEP_ORDER = ["discard-cards", "deliver", "pick-up", "drop", "place-train", "move", "build", "upgrade", "discard-hand", "end-turn"];
  function stepWords(cmd, list, view, me, allowed) {
    const { either } = Junction.RailPage;
    switch (cmd) {
      case "discard-cards": return "discard " + text(me.must_discard) + " of your starting order cards (choose them below)";
      case "deliver": return "deliver " + either(list.map((c) => {
        const d = ((me.hand || []).find((h) => h.id === c.card) || { demands: [] }).demands[c.demand];
        return d ? goodName(d.good) + " to " + cityName(d.city) + " (+" + dollars(d.payout) + ")" : "a load";
      }));
      case "pick-up": return "load " + either(list.map((c) => goodName(c.good)));
      case "drop": return "unload " + either(list.map((c) => goodName(c.good))) + " (no pay)";
      case "place-train": {
        const cities = [...new Set(list.map((c) => cityAt(c.at.join(","))).filter(Boolean))];
        return "put your train on " + (cities.length && cities.length <= 3 ? either(cities.map(cityName)) : "a city your track reaches") + " (tap it on the map)";
      }
      case "move": return "move your train (" + mileposts(view.turn.moves_left) + " left; tap where it should go)";
      case "build": return "build up to " + dollars(view.turn.build_left) + " of track" + (view.phase === "build" ? "" : " this turn");
      case "upgrade": return "upgrade your train (" + dollars(((view.listing || []).find((e) => e.command.cmd === "upgrade") || {}).price || 0) + ")";
      case "discard-hand": return "swap all your order cards for new ones (ends your turn)";
      case "end-turn":  // in a turn's building part with no section left to afford: say why building is gone
        return !allowed.has("build") && (view.phase === "build" || view.stage === "build") ? "end your turn (nothing more to build this turn: " + dollars(view.turn.build_left) + " left)" : "end your turn";
      default: return null;  // the colour, undo: not a step of the turn
    }
  }
  function turnLine(payload, ctx) {
    const view = payload.state;
    if (view.finished || payload.status === "finished") {
      const w = view.winners || [];
      return w.length ? "Game over: " + people(w) + (w.length === 1 ? " won" : " share the win") + (view.end_reason === "round-limit" ? " (the most cash when the round limit was reached)." : ".") : "Game over.";
    }
    if (payload.status !== "active" && STATUS_REASONS[payload.status]) return STATUS_REASONS[payload.status];
    if (ctx.readOnly) return who(view.active_seat) + "'s turn.";
    if (view.active_seat !== view.you || view.you === null || view.you === undefined) return "Waiting for " + who(view.active_seat) + "…";
    const me = view.players.find((p) => p.seat === view.you);
    const steps = Junction.RailPage.nextSteps(payload, STEP_ORDER, (cmd, list, allowed) => stepWords(cmd, list, view, me, allowed));
    if (steps) return steps;
    if (view.stage === "discard") return "Your turn: first discard " + text(me.must_discard) + " of your " + plural(me.hand.length, "order card") + ".";
    if (view.phase === "build") return "Your turn: build up to " + dollars(view.turn.build_left) + " of track (or upgrade your train), then end your turn.";
    if (view.stage === "build") return "Your turn: build up to " + dollars(view.turn.build_left) + " more, then end your turn.";
    if (!me.at) return "Your turn: put your train on a city your track reaches, or build first.";
    return "Your turn: move (" + mileposts(view.turn.moves_left) + " left), load and deliver; then build up to " + dollars(view.turn.build_left) + " or upgrade.";
  }

  function renderAll() {
    if (!last || !content) return;
    const { payload, ctx } = last;
    const view = payload.state;
    ensureMap(ctx);
    names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
    $("version").textContent = text(payload.version);
    $("rr-heading").textContent = headingFor(view);
    const turn = $("rr-turn");
    say(turn, turnLine(payload, ctx));
    turn.classList.toggle("mine", !!mine(payload));
    // Game over: the ending (ranking, major cities and cash, how it was won) in place of the turn line.
    const winner = $("rr-winner");
    const ended = Junction.RailPage.showEnding(winner, payload, ctx, { kind: KIND, title: "Resourceful Rails" });
    if (ended) say(turn, "");
    else { winner.hidden = !view.finished; winner.textContent = view.finished ? turn.textContent : ""; }
    turn.hidden = !!view.finished;  // the box below says how it ended, once
    winner.classList.toggle("rr-ended", ended);
    $("rr-goal").hidden = !!view.finished;
    const me = view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null;
    $("rr-goal").textContent = "To win: join " + text(view.goal.majors) + " of the 7 major cities with one network of your track and hold " + dollars(view.goal.cash) + " at the end of your turn." +
      (me ? " You: " + text((me.majors || []).length) + " of 7, " + dollars(me.cash) + "." : "");
    drawMap(view);
    renderLegend(view);
    renderTerms(view);

    // Modes: a new turn or stage may change what a tap does; the plan is asked again for the new state.
    const before = modes.join();
    modes = modesFor(payload);
    let next = modes.includes(mode) ? mode : modes[0] || null;
    if (before !== modes.join() && !modes.includes(mode)) clearPlan();
    setMode(next, true);
    if (plan && plan.version !== undefined && plan.version !== payload.version && plan.plan !== "place") {
      if (plan.plan === "build" && points.length) requestPlan({ plan: "build", points: [null, ...points] });
      else if (plan.plan === "move" && plan.target) requestPlan({ plan: "move", to: plan.target.split(",").map(Number) }, plan.target);
      else clearPlan();
    }
    renderPlan();
    renderActions(payload);
    renderHand(payload);
    renderTrain(payload);
    $("rr-players").replaceChildren(...renderPlayers(view));
    $("rr-replay").hidden = !!ctx.readOnly;
    refreshFeed(ctx);
  }

  // The map is needed at once: ask for the default board now (the template preloads it), not when the first
  // state comes; a game on another board asks for that one when its state names it.
  loadContent(DEFAULT_MAP).catch(() => {});
  // The engine's words for each command (the buttons' help): drawn again once they come.
  Junction.RailPage.loadCommandHelp(KIND).then(() => { if (last && content) renderAll(); });

  window.JunctionPlay = {
    render(payload, ctx) {
      if (!payload || !payload.state) return;
      last = { payload, ctx };
      const board = boardOf(payload.state);
      if (content && contentMap === board) { renderAll(); return; }
      loadContent(board).then((data) => { if (contentMap !== board) useContent(board, data); renderAll(); })
        .catch((err) => { $("rr-map-loading").textContent = "The map did not load: " + text(err && err.message, "try again") + "."; });
    },
    describe,
    describeAction,
    get map() { return map; },
  };
})();
