/* Slipway's play surface: the action track, the timer, the wheels and the markets, everyone's yard,
 * canals and fleet, and — on your turn — controls driven by the engine's listing (view.listing:
 * {command, price, reason}): a refused entry shows its reason. Builds, outfits and cruises are planned
 * by the server before they are sent (POST /api/games/{code}/plan); nothing here knows a rule. Every
 * component is drawn from the kind's content (GET /api/kinds/slipway/content) by slipway_draw.js. */
"use strict";
(() => {
  const KIND = "slipway";
  const $ = (id) => document.getElementById(id);
  const { el, plural, text } = Junction;
  const D = window.SlipwayDraw;
  const key = Junction.commandKey;
  const ACTION_NAMES = {
    build: "Build ships", canal: "Rent a canal", commodity: "Purchase commodities", equipment: "Manufacture equipment",
    crew: "Recruit crew", employee: "Hire an employee", exchange: "Exchange commodities", subsidy: "Receive subsidy",
  };
  const PHASES = { play: "Playing", "final-action": "Final actions", "final-build": "Final build", finished: "Game over" };
  const ITEMS = ["smokestack", "sail", "crane", "cannon", "captain", "stoker", "marine", "merchant"];
  const ITEM_ROOM = { smokestack: "takes a rig mount", sail: "takes a rig mount", crane: "takes a crane mount", cannon: "takes a cannon mount",
    captain: "the first needs no cabin, more take a cabin each", stoker: "takes a stoker cabin", marine: "takes a cabin", merchant: "takes a cabin" };
  const ROOM = { cabin: "cabins", stoker_cabin: "stoker cabins", rig: "rig mounts", crane: "crane mounts", cannon: "cannon mounts" };
  const SPOT_WORDS = { N: "north mouth", E: "east mouth", S: "south mouth", W: "west mouth", C: "centre" };
  const andList = new Intl.ListFormat("en", { type: "conjunction" });
  /* Styles set through element.style (the CSP allows no style attribute): custom properties too. */
  function styled(node, props) {
    for (const [k, v] of Object.entries(props)) if (v !== null && v !== undefined) node.style.setProperty(k, v);
    return node;
  }
  /* A feature's round mark, as on the canal tiles (its letter in its colours). */
  const spotMark = (f, label) => styled(el("span", { class: "sw-step-spot" }, label), f ? { background: f.fill, color: f.ink } : {});

  // ---- content ----------------------------------------------------------------------------------
  let content = null, contentLoading = null;
  const ships = {}, canals = {}, goods = {}, kinds = {}, kindNames = {}, kindTrades = {}, employees = {}, contracts = {};
  function loadContent() {
    if (content) return Promise.resolve(content);
    if (!contentLoading) {
      contentLoading = Junction.api("GET", "/api/kinds/" + KIND + "/content").then((result) => {
        if (!result.ok || !result.data || !result.data.ships) { contentLoading = null; throw new Error(Junction.errorText(result)); }
        content = result.data;
        for (const t of content.ships.tiles) ships[t.id] = t;
        for (const t of content.canals.tiles) canals[t.id] = t;
        const start = Object.assign({ id: "start" }, content.canals.start);
        canals[start.id] = start;
        for (const t of content.goods.tiles) goods[t.id] = t;
        for (const k of content.goods.kinds) { kinds[k.id] = k; kindNames[k.id] = k.name; kindTrades[k.id] = k.trades; }
        for (const e of content.employees.tiles) employees[e.id] = e;
        for (const c of content.contracts.tiles) contracts[c.id] = c;
        return content;
      });
    }
    return contentLoading;
  }

  // ---- what each thing does: the engine's own words (GET /api/kinds: each command's help) ---------------
  const help = {};
  let helpAsked = false;
  // The command that performs each action (the engine's ACTION_COMMAND), to read its help.
  const ACTION_COMMAND = { build: "build", canal: "rent-canal", commodity: "buy-commodity", equipment: "manufacture", crew: "recruit",
    employee: "hire", exchange: "exchange", subsidy: "subsidy" };
  const actionHelp = (action) => help[ACTION_COMMAND[action]] || "";
  const FAMILY_WORDS = { trader: "a trader (more for a good sold, and points at the end)", builder: "a builder (more room on every ship)",
    engineer: "an engineer (an extra item with every Manufacture)", recruiter: "a recruiter (an extra crew member with every Recruit)",
    mover: "a mover (free steps on a wheel)", speed: "a speed expert (faster ships)" };
  function loadHelp() {
    if (helpAsked) return;
    helpAsked = true;
    Junction.api("GET", "/api/kinds").then((result) => {
      const kind = result.ok && Array.isArray(result.data) ? result.data.find((k) => k.kind === KIND) : null;
      for (const c of (kind && kind.commands) || []) help[c.cmd] = c.help;
      if (last && content) redraw();
    }, () => { helpAsked = false; });
  }
  /* A short what-it-is on a node: its title (hover on a laptop) and data-tip, shown in the tip bar when a
   * tile or a term is tapped, or a button pressed and held, on a phone. */
  function tip(node, words) {
    if (!node || !words) return node;
    node.setAttribute("title", words);
    node.dataset.tip = words;
    if (!/^(BUTTON|A|SELECT|INPUT|SUMMARY|LABEL)$/.test(node.tagName)) {
      node.classList.add("sw-tip");
      if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
    }
    return node;
  }
  const term = (words, what) => tip(el("span", { class: "sw-term" }, words), what);
  let tipTimer = null, held = null, heldShown = false;
  function showTip(words) {
    const bar = $("sw-tipbar");
    if (!bar || !words) return;
    bar.textContent = words;
    bar.hidden = false;
    clearTimeout(tipTimer);
    tipTimer = setTimeout(() => { bar.hidden = true; }, 10000);
  }
  document.addEventListener("click", (ev) => {
    const bar = $("sw-tipbar");
    if (heldShown) { heldShown = false; ev.preventDefault(); ev.stopPropagation(); return; }  // a long press showed the tip: no tap
    const t = ev.target.closest ? ev.target.closest(".sw-tip") : null;
    if (t && t.dataset.tip && !ev.target.closest("button")) { showTip(t.dataset.tip); return; }
    if (bar && !bar.hidden) bar.hidden = true;  // any other tap (the bar itself too) puts it away
  }, true);
  document.addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList && ev.target.classList.contains("sw-tip")) { ev.preventDefault(); showTip(ev.target.dataset.tip); }
    if (ev.key === "Escape" && $("sw-tipbar")) $("sw-tipbar").hidden = true;
  });
  // Press and hold a button on a touch screen: its what-it-does, and no tap.
  document.addEventListener("pointerdown", (ev) => {
    const b = ev.pointerType !== "mouse" && ev.target.closest ? ev.target.closest("button[data-tip]") : null;
    clearTimeout(held);
    if (!b) return;
    held = setTimeout(() => { heldShown = true; showTip(b.dataset.tip); }, 550);
  });
  for (const type of ["pointerup", "pointercancel", "pointermove"]) document.addEventListener(type, (ev) => { if (type !== "pointermove" || Math.abs(ev.movementX) + Math.abs(ev.movementY) > 6) clearTimeout(held); });
  document.addEventListener("contextmenu", (ev) => { if (ev.target.closest && ev.target.closest("button[data-tip]")) ev.preventDefault(); });

  // ---- names and words ------------------------------------------------------------------------------
  let names = {}, colors = {};
  const who = (seat) => names[seat] || "seat " + (Number(seat) + 1);
  /* A seat's colour: the one its player chose in the waiting room (the summary's seat.color, drawn from
   * Junction.PALETTE); a game without the summary's seats (none known) falls back to the view's. */
  function seatOf(seat) {
    const summary = last && last.ctx && last.ctx.summary;
    return (summary && Array.isArray(summary.seats) ? summary.seats : []).find((s) => s.index === Number(seat)) || null;
  }
  function colorOf(seat) {
    const chosen = seatOf(seat);
    return (chosen && Junction.seatColor(chosen.color, null)) || (content && content.colors[colors[seat]]) || "#888";
  }
  function colorName(seat) {
    const chosen = seatOf(seat);
    return chosen && chosen.color ? Junction.colorLabel(chosen.color) : text(colors[seat], "");
  }
  const coins = (n) => plural(n, "coin");
  const slotName = (slot) => "slot " + (Number(slot) + 1);  // commands count from 0, people from 1
  /* A place on a player's canals in words: the spot and the name of the canal tile it is on ("the north
   * mouth of Ebb Cut"); `tiles` is the system's tiles ({x, y, tile}), the ones a cruise left included. */
  function where(p, tiles) {
    if (!p) return "";
    const x = p.x === undefined ? p[0] : p.x, y = p.y === undefined ? p[1] : p.y, spot = p.spot || p[2];
    const t = (tiles || []).find((u) => u.x === x && u.y === y);
    return "the " + (SPOT_WORDS[spot] || "spot") + " of " + canalName(t ? t.tile : null);
  }
  const canalName = (id) => text((canals[id] || {}).name, "a canal tile");
  const SIDE_WORDS = { N: "north", E: "east", S: "south", W: "west" };
  /* An empty cell in words, by the tile beside it ("east of Ebb Cut"). */
  function besideWords(x, y, tiles) {
    for (const [side, dx, dy] of [["W", -1, 0], ["N", 0, -1], ["E", 1, 0], ["S", 0, 1]]) {
      const t = tiles.find((u) => u.x === x + dx && u.y === y + dy);
      if (t) return SIDE_WORDS[{ W: "E", N: "S", E: "W", S: "N" }[side]] + " of " + canalName(t.tile);
    }
    return "a cell of your canals";
  }
  const a = (word) => (/^[aeiou]/i.test(word) ? "an " : "a ") + word;
  /* Items in words, alike ones counted: "2 captains and a crane". */
  function items(list) {
    const counts = new Map();
    for (const it of list || []) counts.set(it, (counts.get(it) || 0) + 1);
    return andList.format([...counts].map(([it, n]) => (n > 1 ? plural(n, it) : a(it))));
  }
  const forCost = (cost) => (cost ? " for " + coins(cost) : " for nothing");
  const shipPart = (id) => (ships[id] ? a(ships[id].part) + " (" + coins(ships[id].cost) + ")" : "a ship tile");
  /* A commodity tile by its goods ("coal and rum"). */
  const goodsName = (id) => (goods[id] ? andList.format(goods[id].goods.map((k) => text(kindNames[k], k).toLowerCase())) : "a commodity tile");

  function describe(e) {
    switch (e.type) {
      case "advanced": return who(e.seat) + " moved " + ACTION_NAMES[e.action] + " to the front of the track.";
      case "queue-cube-removed": return "A queue cube was removed (" + plural(e.left, "cube") + " left).";
      case "discard-owed": return who(e.seat) + " owes a contract discard.";
      case "end-triggered": return e.reason === "stack" ? "The " + text(e.part) + " stack ran out: the game is ending." : "The queue is empty: the game is ending.";
      case "turn-ended": return who(e.seat) + " ended the turn.";
      case "phase": return e.phase === "final-action" ? "The final actions begin: one more action each, without cubes or income." : e.phase === "final-build" ? "The final build begins: a tile that completes a ship, or nothing." : (PHASES[e.phase] || text(e.phase)) + ".";
      case "contract-discarded": return who(e.seat) + " discarded a government contract.";
      case "chose": return who(e.seat) + " chose " + ACTION_NAMES[e.action] + (e.income ? " (+" + coins(e.income) + ")" : "") + ".";
      case "forfeited": return who(e.seat) + " could not perform " + ACTION_NAMES[e.action] + ", so that action is lost.";
      case "bonus": return who(e.seat) + " paid " + coins(e.cost) + " for a bonus action: " + ACTION_NAMES[e.action] + ".";
      case "built": return who(e.seat) + " built " + andList.format((e.tiles || []).map((w) => (ships[w.tile] ? a(ships[w.tile].part) : "a ship tile") + " in " + slotName(w.slot))) + forCost(e.cost) + ".";
      case "ship-completed": return who(e.seat) + " completed a ship of " + plural(e.length, "piece") + " (bow in " + slotName(e.slot) + ").";
      case "canal-rented": return who(e.seat) + " rented the canal " + canalName(e.tile) + forCost(e.cost) + ".";
      case "commodity-bought": return who(e.seat) + " bought " + goodsName(e.tile) + forCost(e.cost) + ".";
      case "manufactured": return who(e.seat) + " manufactured " + items(e.items) + (e.cost ? " for " + coins(e.cost) : "") + ".";
      case "recruited": return who(e.seat) + " recruited " + items(e.items) + (e.cost ? " for " + coins(e.cost) : "") + ".";
      case "hired": return who(e.seat) + " hired " + text((employees[e.employee] || {}).name, "an employee") + forCost(e.cost) + ".";
      case "exchanged": return who(e.seat) + " exchanged " + goodsName(e.tile) + ": " + andList.format((e.uses || []).map((u, i) => {
        const good = goods[e.tile] ? text(kindNames[goods[e.tile].goods[i]], "a good").toLowerCase() : "a good";
        return u === "sell" ? "sold the " + good : "traded the " + good + " for " + a(u);
      })) + (e.income ? " (+" + coins(e.income) + ")" : "") + ".";
      case "subsidy": return who(e.seat) + " received a subsidy of " + coins(e.amount) + ".";
      case "outfitted": return who(e.seat) + " put " + items(e.items) + " on board the ship in " + slotName(e.slot) + ".";
      case "ship-lost": return who(e.seat) + "'s ship in " + slotName(e.slot) + " was lost (" + (e.reason === "no-captain" ? "no captain" : "its canals were too short for speed " + text(e.speed)) + ").";
      case "cruised": return who(e.seat) + "'s ship (speed " + text(e.speed) + ") made its cruise: " + plural(e.score && e.score.total, "point") + ".";
      case "passed": return who(e.seat) + " built nothing in the final build.";
      case "game-over": return "The game is over: " + andList.format((e.winners || []).map(who)) + ((e.winners || []).length > 1 ? " share first place." : " won.");
      default: return Junction.platformEvent(e, who) || Junction.unknownEvent(e, who);
    }
  }
  function describeAction(action) { return action && action.events ? action.events.map(describe).filter(Boolean).join(" ") : ""; }

  // ---- what this page is doing (reset with every new version) ---------------------------------------
  let ui = null, uiVersion = -1, last = null;
  const fresh = () => ({ build: { pending: [], tile: null, plan: null, ticket: 0 }, canal: { tile: null, cell: null, turn: 0 },
    outfit: {}, cruise: {}, exchange: {} });

  // ---- tiles in words (their tips) -----------------------------------------------------------------------
  function shipTip(t) {
    if (!t) return "";
    return "Ship tile: " + D.shipWords(t) + ". Build " + (t.part === "bow" ? "a bow, then middles, then a stern" : t.part === "middle" ? "middles between a bow and a stern" : "a stern after a bow and its middles") +
      " in a row of your yard to complete a ship of " + content.setup.ship_max + " pieces at most.";
  }
  function goodsTip(id) {
    const g = goods[id];
    if (!g) return "";
    const each = g.goods.map((k) => text(kindNames[k], k) + " (sell it, or trade it for " + andList.format((kindTrades[k] || []).map(a)).replace(" and ", " or ") + ")");
    return "Commodity tile of " + goodsName(id) + ", cost " + coins(g.cost) + ": " + andList.format(each) + ". Exchange it with the Exchange commodities action.";
  }
  function contractTip(c) {
    if (!c) return "";
    return "Government contract " + text(c.name) + ": at the end, points for " + D.measureWords(c) + " (" + (c.table || []).map(([n, pts]) => "at least " + n + ": " + plural(pts, "point")).join(", ") +
      "). You keep your best " + content.setup.contracts_kept + "; the others score nothing.";
  }

  // ---- listing helpers ---------------------------------------------------------------------------------
  let entries = [], legal = new Set(), status = "active";
  function blockedBy(entry) {
    if (status && status !== "active" && Junction.STATUS_REASONS[status]) return { code: status, message: Junction.STATUS_REASONS[status] };
    if (entry.reason) return entry.reason;
    if (legal.has(key(entry.command))) return null;
    return { code: "unavailable", message: "Not possible right now." };
  }
  const listed = (cmd, test) => entries.filter((e) => e.command.cmd === cmd && (!test || test(e.command)));
  let reasonCount = 0;
  /* A button for one listing entry: its price on it, disabled with the reason beside it when refused. */
  function entryButton(entry, label, opts) {
    const o = opts || {};
    const blocked = entry ? blockedBy(entry) : o.blocked;
    const id = "sw-why-" + (++reasonCount);
    const priced = entry && entry.price ? label + " · " + coins(entry.price) : label;
    const button = el("button", { type: "button", class: o.primary ? "primary" : null, "data-cmd": entry ? entry.command.cmd : o.cmd, "data-key": entry ? key(entry.command) : null,
      disabled: !!blocked, "aria-describedby": blocked ? id : null, "aria-label": o.aria || null,
      onclick: (ev) => (o.onclick ? o.onclick(ev.currentTarget) : send(entry.command, ev.currentTarget)) }, o.icon || null, priced);
    const cmd = entry ? entry.command.cmd : o.cmd;
    tip(button, o.tip || (cmd === "choose" || cmd === "bonus" ? actionHelp(entry && entry.command.action) : help[cmd]));
    return el("div", { class: "sw-option" + (blocked ? " refused" : "") }, button, blocked ? el("span", { class: "sw-reason", id }, text(blocked.message)) : null,
      o.what ? el("small", { class: "sw-what" }, o.what) : null);
  }
  async function send(command, button) {
    Junction.showError($("play-error"), "");
    if (button) button.disabled = true;
    const result = await last.ctx.send(command);
    if (result.type === "error") {
      if (button) button.disabled = false;
      Junction.showError($("play-error"), text(result.error.message, "That did not work."), button && button.isConnected ? button : undefined);
    }
    return result;
  }
  async function plan(body) {
    const result = await last.ctx.api("POST", "/api/games/" + last.ctx.code + "/plan", body);
    if (!result.ok) { Junction.showError($("play-error"), Junction.errorText(result), null); return null; }
    return result.data;
  }

  // ---- the board -------------------------------------------------------------------------------------
  function renderBoard(view) {
    $("sw-track").replaceChildren(actionTrack(view));
    const t = view.timer;
    $("sw-timer").replaceChildren(term("Timer", "The timer moves a space each time a player's cube is moved to the front of the track; every " +
      plural(t.spaces, "space") + " it takes a cube off the queue."), " " + text(t.space) + " of " + text(t.spaces) + " · ",
      term("queue", "The queue counts down the game: when the timer comes round with the queue empty, the round is finished, then a final action each and a final build."),
      ": " + plural(t.queue, "cube") + " left" + (t.end ? " · the game is ending" : ""));
    const w = content.wheels;
    $("sw-wheels").replaceChildren(
      tip(el("figure", { class: "sw-wheel-fig" }, D.itemWheel("Equipment", w.equipment_ring, view.markers.equipment), el("figcaption", {}, "Equipment")), "The equipment wheel. " + (help["manufacture"] || "")),
      tip(el("figure", { class: "sw-wheel-fig" }, D.itemWheel("Crew", w.crew_ring, view.markers.crew), el("figcaption", {}, "Crew")), "The crew wheel. " + (help["recruit"] || "")),
      tip(el("figure", { class: "sw-wheel-fig" }, D.employeeWheel(view.markets.employees, view.markers.employee), el("figcaption", {}, "Employees")), "The employee wheel. " + (help["hire"] || "")),
      tip(el("figure", { class: "sw-wheel-fig" }, D.priceRing(content.goods.price_ring, content.goods.kinds, view.markers.price), el("figcaption", {}, "Prices")),
        "The price ring: the four goods' prices at each space (colours as on the commodity tiles). " + (help["exchange"] || "")));
    $("sw-stops").replaceChildren(...employeeStops(view));
    const m = view.markets;
    $("sw-market-ships").replaceChildren(...["bow", "middle", "stern"].map((part) =>
      el("div", { class: "sw-part" }, el("b", {}, part + "s (" + plural(m.ship_supply[part], "tile") + " in the stack)"),
        el("div", { class: "sw-row" }, m.ships[part].map((id) => tip(el("span", { class: "sw-tile", "data-tile": id }, D.shipTile(ships[id])), shipTip(ships[id])))))));
    $("sw-market-canals").replaceChildren(el("div", { class: "sw-row" }, m.canals.map((id) => tip(el("span", { class: "sw-tile", "data-tile": id }, D.canalTile(canals[id], 0), el("small", {}, text(canals[id].name))), "Canal tile " + D.canalWords(canals[id], 0) + ". Rent it to lengthen your canals: your ships cruise through them."))),
      el("p", { class: "muted" }, plural(m.canal_supply, "canal tile") + " in the supply."));
    $("sw-market-goods").replaceChildren(el("div", { class: "sw-row" }, m.goods.map((id) => tip(el("span", { class: "sw-tile", "data-tile": id }, D.commodityTile(goods[id], kindNames, kindTrades)), goodsTip(id)))),
      el("p", { class: "muted" }, plural(m.goods_supply, "commodity tile") + " in the supply."));
    if (!$("sw-legend").childElementCount) {
      $("sw-legend").replaceChildren(...legend());
      $("sw-legend-box").open = !window.matchMedia || window.matchMedia("(min-width: 720px)").matches;  // a phone: folded
    }
  }

  /* The action track, back to front: a drawn tile per action (its icon, what it does, the cube on it in
   * its seat's colour, or the income a cube put there would take now: 1 per cube nearer the front). */
  function actionTrack(view) {
    const track = view.track, front = (view.turn || {}).front;
    return el("ol", { class: "sw-track", "aria-label": "Action track, from the back to the front" }, track.map((t, i) => {
      const cube = t.cube !== null && t.cube !== undefined;
      const income = view.phase === "play" ? track.slice(i + 1).filter((u) => u.cube !== null && u.cube !== undefined).length : null;
      const moved = t.action === front;
      const label = ACTION_NAMES[t.action] + (moved ? " (just moved to the front)" : cube ? " (cube: " + who(t.cube) + ")" : income !== null ? " (income +" + income + ")" : "");
      return tip(el("li", { "data-action": t.action }, D.actionTile(t, { label, front: moved, color: cube ? colorOf(t.cube) : null, cubeName: cube ? who(t.cube) : null, income: cube ? null : income })),
        label + ". " + (cube ? who(t.cube) + "'s cube is on it: no other cube can go there. " : moved ? "The tile its cube just left: not for that player this turn. " : income ? "A cube placed here now takes " + coins(income) + " (1 a cube nearer the front). " : "") + actionHelp(t.action));
    }), el("li", { class: "sw-track-front", "aria-hidden": "true" }, "front ▸"));
  }
  /* The employee wheel's stops: each stop's employees in words, the marker's stop marked, and how far
   * each stop is (what a hire there costs: the first step free, the viewer's movers' steps free too). */
  function employeeStops(view) {
    const n = view.markets.employees.length, marker = view.markers.employee;
    const me = view.players.find((p) => p.seat === view.you);
    const free = me ? me.employees.map((e) => employees[e].effect).filter((f) => f.type === "mover" && f.wheel === "employee").reduce((a, f) => a + f.steps, 0) : 0;
    return view.markets.employees.map((stop, i) => {
      const steps = ((i - marker + n - 1) % n) + 1;  // the marker's own stop is a whole turn away
      const cost = Math.max(0, steps - 1 - free);
      const head = i === marker ? "Stop " + (i + 1) + " · the marker is here (" + plural(steps, "step") + " round)" : "Stop " + (i + 1) + " · " + plural(steps, "step") + " away";
      return el("li", { class: "sw-stop" + (i === marker ? " marker" : ""), "data-stop": i },
        el("b", {}, head), el("span", { class: "sw-stop-cost" }, " · steps cost " + (cost ? coins(cost) : "nothing")),
        el("ul", { class: "sw-staff" }, stop.map((id) => {
          const e = id && employees[id];
          if (!e) return el("li", { class: "muted" }, "empty place");
          return staffLine(e, true);
        })));
    });
  }
  /* An employee in words: the family's colour, name, family, cost (when it is for hire) and effect. */
  function staffLine(e, priced) {
    return styled(tip(el("li", { class: "sw-staff-one", "data-employee": e.id },
      el("span", { class: "sw-fam", "aria-hidden": "true" }), el("b", {}, text(e.name)), " (" + e.family + ")" + (priced ? " · " + (e.cost ? coins(e.cost) : "free") : "") + " · " + D.effectWords(e.effect, kindNames)),
      text(e.name) + ", " + (FAMILY_WORDS[e.family] || e.family) + ": " + D.effectWords(e.effect, kindNames) + ". An employee works for you for the rest of the game."), { "--family": D.FAMILY_COLORS[e.family] });
  }
  /* The legend: every mark on the board, drawn as the board draws it, and what it means. */
  function legend() {
    const li = (mark, words) => el("li", {}, mark, " " + words);
    const box = (cls, words) => el("span", { class: "sw-key " + cls, "aria-hidden": "true" }, words || "");
    const syms = Object.keys(D.SYMBOL_WORDS).map((k) => li(D.legendSymbol(k), D.SYMBOL_WORDS[k]));
    const spots = Object.entries(D.FEATURE).map(([k, f]) => li(spotMark(f, f.mark), D.FEATURE_WORDS[k]));
    const stock = ITEMS.map((it) => li(D.svg(16, 16, null).appendChild(D.itemMark(8, 8, it, 7.5)).ownerSVGElement, it + ": " + ITEM_ROOM[it]));
    const families = Object.keys(D.FAMILY_COLORS).map((f) => li(styled(el("span", { class: "sw-fam", "aria-hidden": "true" }), { "--family": D.FAMILY_COLORS[f] }), FAMILY_WORDS[f] || f));
    const crates = content.goods.kinds.map((k) => li(styled(box("sw-crate-key", k.name.charAt(0)), { background: D.GOOD_COLORS[k.id] || "#999", color: k.id === "cotton" ? "#1b1b1b" : "#fff" }),
      k.name + ": sell it, or trade it for " + andList.format(k.trades.map(a)).replace(" and ", " or ")));
    return [
      el("p", { class: "muted" }, "Tap a tile or a dotted word to see what it is; press and hold a button to see what it does (a mouse: hover)."),
      el("h4", {}, "The action track"), el("ul", { class: "sw-legend" },
        li(box("sw-cube-key"), "a player's cube, in their colour: that action is taken until the cube moves on"),
        li(box("sw-income-key", "+1"), "income: the coins a cube placed there takes now (1 a cube nearer the front)"),
        li(box("sw-moved-key", "moved"), "just moved: the tile went to the front and its cube back to its player, who cannot choose it this turn"),
        li(box("sw-front-key", "▸"), "the front of the track: a player with every cube placed starts the turn by moving the tile of their oldest cube here")),
      el("h4", {}, "Ship tiles and the yard"), el("ul", { class: "sw-legend" }, ...syms,
        li(box("sw-deck-key", "II"), "a deck-2 tile (from the second stack)"),
        li(box("sw-cost-key", "¤1"), "a cost in coins"),
        li(box("sw-slot-key sw-complete-key"), "a completed ship in the yard: outfit it and send it on its cruise"),
        li(box("sw-slot-key sw-pending-key"), "a tile you are placing (not bought yet)")),
      el("h4", {}, "Canal tiles"), el("ul", { class: "sw-legend" }, ...spots,
        li(spotMark(null, ""), "a spot with no feature"),
        li(box("sw-token-key"), "a player's ship token, where the last cruise stopped (the next one goes on from there)"),
        li(box("sw-badge-key", "1"), "a step of a cruise path, by its number"),
        li(box("sw-left-key"), "a tile left behind by a cruise (used up)")),
      el("h4", {}, "Items on the wheels and in stock"), el("ul", { class: "sw-legend" }, stock),
      el("h4", {}, "Employees' families"), el("ul", { class: "sw-legend" }, families),
      el("h4", {}, "Goods on commodity tiles and the price ring"), el("ul", { class: "sw-legend" }, crates),
      el("h4", {}, "Contracts"), el("p", { class: "sw-legend-p" }, "“1→3” reads: at least 1 of what the contract counts is worth 3 points at the end. You keep your best " +
        content.setup.contracts_kept + " contracts."),
    ];
  }

  // ---- a canal grid (HTML cells, each a drawn tile; candidate cells are buttons) ---------------------------
  function canalGrid(player, opts) {
    const o = opts || {};
    const tiles = o.tiles || player.canal.tiles;
    const cells = new Map(tiles.map((t) => [t.x + "," + t.y, t]));
    const extra = o.candidates || [];
    const xs = tiles.map((t) => t.x).concat(extra.map((c) => c.x)), ys = tiles.map((t) => t.y).concat(extra.map((c) => c.y));
    if (!xs.length) return el("p", { class: "muted" }, "No canal tiles.");
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    // A wide grid scrolls on a phone: without a candidate button inside, the grid itself takes the focus
    // so a keyboard can scroll it.
    const grid = styled(el("div", { class: "sw-grid", role: "group", "aria-label": o.label || text(player.name) + "'s canals",
      tabindex: extra.length ? null : "0" }), { "grid-template-columns": "repeat(" + (x1 - x0 + 1) + ", var(--sw-cell))" });
    const token = o.token !== undefined ? o.token : player.canal.token;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const t = cells.get(x + "," + y);
      const cand = extra.find((c) => c.x === x && c.y === y);
      const path = o.path ? o.path[x + "," + y] : null;
      const tok = token && token.x === x && token.y === y ? token.spot : null;
      if (t) grid.append(tip(el("div", { class: "sw-cell" + (t.left ? " left" : ""), "data-x": x, "data-y": y },
        D.canalTile(canals[t.tile], t.rotation, { path, token: tok, tokenColor: colorOf(player.seat), left: t.left,
          label: t.left ? D.canalWords(canals[t.tile], t.rotation) + ", left behind by this cruise" : undefined })),
        D.canalWords(canals[t.tile], t.rotation) + (t.left ? ", left behind by this cruise" : "")));
      else if (cand) grid.append(cand.node);
      else grid.append(el("div", { class: "sw-cell empty", "aria-hidden": "true" }));
    }
    return grid;
  }

  // ---- everyone's boards ------------------------------------------------------------------------------
  function stockMarks(items) {
    const have = ITEMS.filter((it) => items[it] > 0);
    if (!have.length) return el("span", { class: "muted" }, "no items");
    return el("span", { class: "sw-stock" }, have.map((it) => el("span", { class: "sw-item", "data-item": it }, D.svg(16, 16, null).appendChild(D.itemMark(8, 8, it, 7)).ownerSVGElement, " " + it + " ×" + items[it])));
  }
  function yardRow(player, marks) {
    const done = new Map((player.completed || []).map((c) => [c.slot, c]));
    const inShip = new Set();
    for (const c of player.completed || []) for (let s = c.slot; s <= c.last; s++) inShip.add(s);
    return el("div", { class: "sw-yard-box" }, el("div", { class: "sw-yard", role: "group", "aria-label": text(player.name) + "'s yard, slots 1 to " + player.yard.length },
      player.yard.map((id, slot) => {
        if (marks && marks[slot]) return marks[slot];
        return tip(el("div", { class: "sw-slot" + (inShip.has(slot) ? " complete" : "") + (done.has(slot) ? " bow" : ""), "data-slot": slot },
          id ? D.shipTile(ships[id], { label: "Slot " + (slot + 1) + ": " + D.shipWords(ships[id]) }) : D.emptySlot(slot + 1)),
          id ? "Slot " + (slot + 1) + (inShip.has(slot) ? ", part of a completed ship" : "") + ". " + shipTip(ships[id]) : null);
      })));
  }
  function renderPlayers(view) {
    const bySeat = Object.fromEntries(view.players.map((p) => [p.seat, p]));
    $("sw-players").replaceChildren(...view.order.filter((s) => bySeat[s]).map((seat) => {
      const p = bySeat[seat];
      const fleet = p.fleet.map((s, i) => el("li", {}, "Ship " + (i + 1) + ": " + plural(s.tiles.length, "piece") + ", speed " + text(s.speed) + ", " + plural(s.score.total, "point") + (s.items.length ? " (" + items(s.items) + ")" : "")));
      const lost = p.lost.map((s) => el("li", { class: "lost" }, "Lost: " + plural(s.tiles.length, "piece") + " (" + (s.reason === "no-captain" ? "no captain" : "canals too short") + ")"));
      const mine = view.you === seat;
      const facts = [plural(p.cruise_points, "cruise point"), plural(p.fleet.length, "ship") + " in the fleet",
        plural(p.used_canals, "canal tile") + " used" + (!p.used_canals ? "" : p.used_canal_tiles ? " (" + p.used_canal_tiles.map(canalName).join(", ") + ")" : " (face down)")];
      if (!p.contracts) facts.push(plural(p.contract_count, "contract") + " (hidden)");
      if (p.discards_owed) facts.push("owes " + (p.discards_owed > 1 ? plural(p.discards_owed, "contract discard") : "a contract discard"));
      return styled(el("article", { class: "sw-player" + (seat === view.active_seat ? " active" : "") + (mine ? " me" : ""), "data-seat": seat },
        el("h4", { class: "row between" }, el("span", {}, el("span", { class: "sw-dot", role: "img", "aria-label": colorName(seat), title: colorName(seat) }), text(p.name) + (mine ? " (you)" : "") + (seat === view.active_seat ? " · on turn" : "")),
          el("span", { class: "sw-money" }, coins(p.money))),
        el("p", { class: "sw-facts" }, facts.join(" · ")),
        el("div", { class: "sw-line" }, el("b", {}, term("Stock", "Equipment and crew held, to put on board a completed ship (they stay on it for good).")), stockMarks(p.items)),
        p.goods.length ? el("div", { class: "sw-line" }, el("b", {}, term("Commodities", "Commodity tiles held: the Exchange commodities action sells their goods or trades them for items.")), el("span", { class: "sw-row" }, p.goods.map((g) => tip(el("span", { class: "sw-tile", "data-tile": g }, D.commodityTile(goods[g], kindNames, kindTrades)), goodsTip(g))))) : null,
        p.employees.length ? el("div", { class: "sw-line" }, el("b", {}, term("Employees", "Employees hired from the employee wheel: each helps for the rest of the game.")), el("ul", { class: "sw-staff" }, p.employees.map((e) => staffLine(employees[e], false)))) : null,
        el("div", { class: "sw-line" }, el("b", {}, term("Yard", "The slipways, " + content.setup.yard_slots + " slots in a row: a bow, middles and a stern side by side (bow on the left) make a ship; a completed ship (green) must be outfitted and go on its cruise that turn.")), yardRow(p)),
        el("div", { class: "sw-line" }, el("b", {}, term("Canals", "This player's canal system: a ship's cruise goes forward through it, as many steps as its speed, scoring the features it passes; each tile it leaves is used up.")), canalGrid(p)),
        fleet.length || lost.length ? el("ol", { class: "sw-fleet" }, fleet, lost) : null,
        p.contracts ? el("div", { class: "sw-line" }, el("b", {}, term(mine ? "Your contracts" : "Contracts", "Government contracts: secret until the end, then points for what the fleet did; the best " + content.setup.contracts_kept + " count.")), el("span", { class: "sw-row" }, p.contracts.map((c) => tip(el("span", { class: "sw-tile sw-contract-box", "data-contract": c }, D.contract(contracts[c])), contractTip(contracts[c]))))) : null), { "--seat": colorOf(seat) });
    }));
  }

  // ---- your turn ------------------------------------------------------------------------------------
  function renderActions(view, payload) {
    const card = $("sw-actions-card"), box = $("sw-actions"), note = $("sw-actions-note");
    const turn = view.turn;
    const me = view.you === null || view.you === undefined ? null : view.players.find((p) => p.seat === view.you);
    if (!me || !turn || view.finished || last.ctx.readOnly) { card.hidden = true; box.replaceChildren(); return; }
    card.hidden = false;
    if (view.active_seat !== view.you) {
      $("sw-actions-title").textContent = "Waiting";
      note.hidden = false; note.textContent = "It is " + who(view.active_seat) + "'s turn.";
      box.replaceChildren();
      return;
    }
    $("sw-actions-title").textContent = "Your turn";
    const shared = status !== "active" ? Junction.STATUS_REASONS[status] : "";
    note.hidden = !shared; note.textContent = shared || "";
    const parts = [];
    if (turn.stage === "discard") {
      parts.push(el("p", {}, "Discard a government contract (one is owed)."));
      for (const entry of listed("discard-contract")) parts.push(el("div", { class: "sw-choice" }, D.contract(contracts[entry.command.contract]), entryButton(entry, "Discard " + contracts[entry.command.contract].name)));
    } else if (turn.stage === "choose") {
      parts.push(el("p", {}, "Choose an action tile for your cube" + (view.phase === "final-action" ? " (the final action: no cube, no income)." : ": you take a coin per cube nearer the front.")));
      const track = view.track;
      for (const entry of listed("choose")) {
        const i = track.findIndex((t) => t.action === entry.command.action);
        const income = view.phase === "play" ? track.slice(i + 1).filter((t) => t.cube !== null && t.cube !== undefined).length : 0;
        parts.push(entryButton(entry, ACTION_NAMES[entry.command.action] + (income ? " · income +" + income : ""), { primary: true, what: actionHelp(entry.command.action) || null }));
      }
    } else {
      const open = [];
      if (turn.main && !turn.main_done) open.push(turn.main);
      if (turn.bonus && !turn.bonus_done) open.push(turn.bonus);
      if (turn.stage === "final-build") parts.push(...finalBuild(view, me));
      else for (const action of open) parts.push(el("section", { class: "sw-act", "data-action": action }, el("h4", {}, ACTION_NAMES[action] + (action === turn.bonus ? " (bonus)" : "")), ...actionPanel(action, view, me)));
      const bonus = listed("bonus");
      if (bonus.length) parts.push(el("details", { class: "sw-bonus" }, el("summary", {}, "Bonus action (" + coins(content.setup.bonus_cost) + ")"),
        ...bonus.map((entry) => entryButton(entry, "Bonus: " + ACTION_NAMES[entry.command.action]))));
      for (const ship of me.completed || []) parts.push(launchPanel(view, me, ship));
      for (const entry of listed("end-turn")) parts.push(entryButton(entry, "End my turn"));
      for (const entry of listed("pass")) parts.push(entryButton(entry, "Pass: build nothing"));
    }
    box.replaceChildren(...parts);
  }

  function finalBuild(view) {
    const out = [el("p", {}, "Final build: a tile that completes one of your ships, or pass.")];
    for (const entry of listed("build")) {
      const w = entry.command.tiles[0];
      out.push(entryButton(entry, "Build " + shipPart(w.tile) + " in " + slotName(w.slot), { icon: D.shipTile(ships[w.tile], { label: null }) }));
    }
    return out;
  }

  function actionPanel(action, view, me) {
    switch (action) {
      case "build": return buildPanel(view, me);
      case "canal": return canalPanel(view, me);
      case "commodity": return listed("buy-commodity").map((entry) => entryButton(entry, "Buy " + goodsName(entry.command.tile), { icon: D.commodityTile(goods[entry.command.tile], kindNames, kindTrades), aria: "Buy the commodity tile of " + goodsName(entry.command.tile) + (entry.price ? " for " + coins(entry.price) : "") }));
      case "equipment": case "crew": return ringPanel(action, view, me);
      case "employee": return hirePanel(view);
      case "exchange": return exchangePanel(view, me);
      default: return listed("subsidy").map((entry) => entryButton(entry, "Take the subsidy (+" + coins(content.setup.subsidy) + ")", { primary: true }));
    }
  }

  function ringPanel(action, view, me) {
    const ring = action === "equipment" ? content.wheels.equipment_ring : content.wheels.crew_ring;
    const kind = action === "equipment" ? "engineer" : "recruiter";
    const extra = me.employees.map((e) => employees[e].effect).filter((f) => f.type === kind).map((f) => f.item);
    return listed(action === "equipment" ? "manufacture" : "recruit").map((entry) => {
      const steps = entry.command.steps;
      const item = ring[(view.markers[action] + steps) % ring.length];
      return entryButton(entry, plural(steps, "step") + (entry.price ? "" : " · free") + " → " + andList.format([item, ...extra]), { icon: D.svg(16, 16, null).appendChild(D.itemMark(8, 8, item, 7)).ownerSVGElement });
    });
  }

  function hirePanel(view) {
    const byStep = new Map();
    for (const entry of listed("hire")) { const s = entry.command.steps; if (!byStep.has(s)) byStep.set(s, []); byStep.get(s).push(entry); }
    const stops = view.markets.employees.length;
    return [...byStep.entries()].map(([steps, list]) => el("div", { class: "sw-hire-stop" }, el("b", {}, "Stop " + (((view.markers.employee + steps) % stops) + 1) + " (" + plural(steps, "step") + ")"),
      ...list.map((entry) => {
        const id = view.markets.employees[(view.markers.employee + steps) % stops][entry.command.choice];
        const e = employees[id];
        return el("div", { class: "sw-choice" }, el("ul", { class: "sw-staff" }, staffLine(e, true)), entryButton(entry, "Hire " + e.name));
      })));
  }

  function exchangePanel(view, me) {
    const out = [];
    const ring = content.goods.price_ring;
    const next = ring[(view.markers.price + 1) % ring.length];
    const traders = me.employees.map((e) => employees[e].effect).filter((f) => f.type === "trader");
    for (const tile of me.goods) {
      const g = goods[tile];
      const uses = ui.exchange[tile] || (ui.exchange[tile] = g.goods.map(() => "sell"));
      const selects = g.goods.map((k, i) => {
        const price = next[k] + traders.filter((f) => f.good === k).reduce((a, f) => a + f.price, 0);
        const id = "sw-ex-" + tile + "-" + i;
        const select = el("select", { id, onchange: (ev) => { uses[i] = ev.target.value; redraw(); } },
          el("option", { value: "sell", selected: uses[i] === "sell" }, "Sell for " + coins(price)),
          ...kinds[k].trades.map((item) => el("option", { value: item, selected: uses[i] === item }, "Trade for a " + item)));
        return el("label", { for: id, class: "sw-ex-good" }, kindNames[k], select);
      });
      const entry = listed("exchange", (c) => c.tile === tile && key({ cmd: "exchange", tile, uses }) === key(c))[0];
      out.push(el("div", { class: "sw-exchange", "data-tile": tile }, D.commodityTile(g, kindNames, kindTrades), ...selects,
        entry ? entryButton(entry, "Exchange " + goodsName(tile)) : entryButton(null, "Exchange " + goodsName(tile), { blocked: { message: "Two goods of one exchange cannot buy the same item." }, cmd: "exchange" })));
    }
    return out;
  }

  /* A market tile to tap (a drawn tile in a button); a refused one says why under it. */
  function pick(o, drawing, refused) {
    const id = "sw-why-" + (++reasonCount);
    const button = el("button", { type: "button", class: "sw-pick" + (o.selected ? " selected" : ""), "data-tile": o["data-tile"], "aria-pressed": o.selected ? "true" : "false",
      disabled: !!refused, "aria-label": o.label, "aria-describedby": refused ? id : null, onclick: o.onclick }, drawing);
    return el("span", { class: "sw-pick-box" }, button, refused ? el("small", { class: "sw-reason", id }, refused) : null);
  }

  // -- build: tap a market tile, then a yard slot (the server plans which slots are legal) -------------
  function buildPanel(view, me) {
    const b = ui.build;
    const taken = new Set(b.pending.map((w) => w.tile));
    const market = ["bow", "middle", "stern"].map((part) => el("div", { class: "sw-row sw-market-pick", role: "group", "aria-label": part + "s in the market" },
      view.markets.ships[part].map((id) => {
        const t = ships[id];
        const refused = taken.has(id) ? "Already placed in this build." : b.pending.length >= 3 ? "A build is at most 3 tiles." : t.cost > me.money ? "That costs " + coins(t.cost) + "; you have " + me.money + "." : null;
        return pick({ "data-tile": id, selected: b.tile === id, label: D.shipWords(t), onclick: () => pickShip(id) }, D.shipTile(t, { label: null }), refused);
      })));
    const marks = {};
    const slots = b.plan && b.plan.slots ? new Map(b.plan.slots.map((s) => [s.slot, s.reason])) : null;
    const reasons = [];
    for (const w of b.pending) marks[w.slot] = el("div", { class: "sw-slot pending", "data-slot": w.slot }, D.shipTile(ships[w.tile], { label: "Slot " + (w.slot + 1) + ": " + D.shipWords(ships[w.tile]) + " (to build)" }));
    if (b.tile && slots) for (const [slot, reason] of slots) {
      const id = "sw-slot-why-" + slot;
      if (reason) reasons.push(el("li", { id }, "Slot " + (slot + 1) + ": " + text(reason.message)));
      marks[slot] = el("button", { type: "button", class: "sw-slot sw-slot-button" + (reason ? " illegal" : " legal"), "data-slot": slot, disabled: !!reason,
        "aria-describedby": reason ? id : null, "aria-label": "Slot " + (slot + 1) + (reason ? ": cannot take it" : ": place it here"), onclick: () => placeShip(slot) }, D.emptySlot(slot + 1));
    }
    const cost = b.pending.reduce((a, w) => a + ships[w.tile].cost, 0);
    const problem = b.plan && b.plan.problem;
    const why = !b.pending.length ? { message: b.tile ? "Tap a slot of your yard for " + shipPart(b.tile) + "." : "Tap a tile in the market, then a slot of your yard." }
      : problem ? problem : cost > me.money ? { message: "These tiles cost " + coins(cost) + "; you have " + me.money + "." } : null;
    return [
      el("p", { class: "muted", id: "sw-build-hint" }, b.tile ? "Now tap a slot of your yard for " + shipPart(b.tile) + " (illegal slots say why)." : "Tap a ship tile in the market (up to 3), then a slot of your yard."),
      ...market, yardRow(me, marks), reasons.length ? el("ul", { class: "sw-slot-reasons" }, reasons) : null,
      el("div", { class: "row" },
        entryButton(null, "Confirm build · " + coins(cost), { blocked: why, cmd: "build", primary: true, onclick: (btn) => send({ cmd: "build", tiles: b.pending }, btn) }),
        b.pending.length || b.tile ? el("button", { type: "button", id: "sw-build-clear", onclick: () => { ui.build = fresh().build; redraw(); } }, "Clear") : null),
    ];
  }
  async function pickShip(id) {
    const b = ui.build;
    b.tile = b.tile === id ? null : id;
    b.plan = null;
    redraw();
    if (!b.tile) return;
    const ticket = ++b.ticket;
    const result = await plan({ plan: "build", tiles: b.pending, tile: id });
    if (ticket !== b.ticket || ui.build !== b) return;
    b.plan = result;
    redraw();
  }
  async function placeShip(slot) {
    const b = ui.build;
    b.pending.push({ tile: b.tile, slot });
    b.tile = null;
    b.plan = null;
    const ticket = ++b.ticket;
    redraw();
    const result = await plan({ plan: "build", tiles: b.pending });
    if (ticket !== b.ticket || ui.build !== b) return;
    b.plan = result;
    redraw();
  }

  // -- canal: tap a market tile, a legal cell, turn it, confirm -------------------------------------------
  function canalPanel(view, me) {
    const c = ui.canal;
    const rent = listed("rent-canal");
    const picks = view.markets.canals.map((id) => {
      const has = rent.filter((e) => e.command.tile === id);
      const refused = !has.length ? "It fits nowhere in your canal system." : has.every((e) => blockedBy(e)) ? text(blockedBy(has[0]).message) : null;
      return pick({ "data-tile": id, selected: c.tile === id, label: D.canalWords(canals[id], 0), onclick: () => { ui.canal = { tile: c.tile === id ? null : id, cell: null, turn: 0 }; redraw(); } },
        D.canalTile(canals[id], 0, { label: null }), refused);
    });
    const out = [el("p", { class: "muted" }, c.tile ? "Tap a highlighted cell of your canals, turn the tile, confirm." : "Tap a canal tile in the market."),
      el("div", { class: "sw-row sw-market-pick", role: "group", "aria-label": "Canal tiles in the market" }, picks)];
    if (c.tile) {
      const options = rent.filter((e) => e.command.tile === c.tile && !blockedBy(e));
      const byCell = new Map();
      for (const e of options) { const k = e.command.x + "," + e.command.y; if (!byCell.has(k)) byCell.set(k, []); byCell.get(k).push(e); }
      const candidates = [...byCell.entries()].map(([k, list]) => {
        const [x, y] = k.split(",").map(Number);
        const chosen = c.cell === k;
        const entry = chosen ? list[c.turn % list.length] : null;
        return { x, y, node: el("button", { type: "button", class: "sw-cell candidate" + (chosen ? " selected" : ""), "data-x": x, "data-y": y,
          "aria-label": "The cell " + besideWords(x, y, me.canal.tiles) + (chosen ? ": " + D.canalWords(canals[c.tile], entry.command.rotation) : ": put it here"),
          onclick: () => { ui.canal.cell = k; ui.canal.turn = 0; redraw(); } }, chosen ? D.canalTile(canals[c.tile], entry.command.rotation, { label: null }) : el("span", { class: "sw-plus", "aria-hidden": "true" }, "+")) };
      });
      out.push(canalGrid(me, { candidates, label: "Your canals: cells where the tile may go" }));
      const list = c.cell ? byCell.get(c.cell) || [] : [];
      const entry = list.length ? list[c.turn % list.length] : null;
      out.push(el("div", { class: "row" },
        el("button", { type: "button", id: "sw-canal-turn", disabled: list.length < 2, onclick: () => { ui.canal.turn++; redraw(); } }, list.length ? "Turn it (" + (c.turn % list.length + 1) + " of " + list.length + ")" : "Turn it"),
        entry ? entryButton(entry, "Confirm canal", { primary: true }) : entryButton(null, "Confirm canal", { blocked: { message: "Tap a cell first." }, cmd: "rent-canal", primary: true })));
    }
    return out;
  }

  // -- launch: outfit and cruise a completed ship ---------------------------------------------------------
  function launchPanel(view, me, ship) {
    const slot = ship.slot;
    const tiles = me.yard.slice(slot, ship.last + 1);
    const o = ui.outfit[slot] || (ui.outfit[slot] = { items: [], plan: null });
    const head = el("h4", {}, "Your completed ship in " + slotName(slot) + " (" + plural(tiles.length, "piece") + ")");
    const room = Object.entries(ROOM).map(([k, words]) => plural(ship.room[k], words.replace(/s$/, ""), words)).join(", ");
    const needs = o.plan ? o.plan.needs : null;
    const outfitEntries = listed("outfit", (c) => c.slot === slot);
    const stock = ITEMS.filter((it) => me.items[it] > 0).map((it) => {
      const left = me.items[it] - o.items.filter((x) => x === it).length;
      const entry = outfitEntries.find((e) => e.command.items[0] === it);
      const reason = left <= 0 ? { message: "None left in your stock." } : entry ? blockedBy(entry) : { message: "Not possible right now." };
      return entryButton(null, "Add " + it + " (" + left + " left)", { blocked: reason, cmd: "outfit-add", tip: "Add " + a(it) + " to the load; it goes on board when you confirm (" + ITEM_ROOM[it] + ").", onclick: () => addItem(slot, it), icon: D.svg(16, 16, null).appendChild(D.itemMark(8, 8, it, 7)).ownerSVGElement });
    });
    const planWords = o.plan ? (o.plan.problem ? text(o.plan.problem.message) : "Fits: needs " + Object.entries(needs).filter(([, n]) => n).map(([k, n]) => plural(n, ROOM[k].replace(/s$/, ""), ROOM[k])).join(", ").replace(/^$/, "no room") + "; speed " + o.plan.speed + (o.plan.captain ? "" : "; no captain yet") + ".") : "";
    const outfit = el("div", { class: "sw-outfit" },
      el("div", { class: "sw-row" }, tiles.map((id) => D.shipTile(ships[id]))),
      el("p", {}, "Room: " + room + ". On board: " + (ship.outfit.length ? items(ship.outfit) : "nothing yet") + ". Speed now " + text(ship.speed) + "."),
      el("div", { class: "sw-row sw-stock-pick" }, stock.length ? stock : el("span", { class: "muted" }, "Your stock is empty.")),
      o.items.length ? el("p", { id: "sw-outfit-plan", "aria-live": "polite" }, "To put on board: " + items(o.items) + ". " + planWords) : null,
      o.items.length ? el("div", { class: "row" },
        entryButton(null, "Put on board", { blocked: o.plan && o.plan.problem ? o.plan.problem : !o.plan ? { message: "Planning…" } : null, cmd: "outfit", primary: true,
          onclick: (btn) => send({ cmd: "outfit", slot, items: o.items }, btn) }),
        el("button", { type: "button", onclick: () => { o.items.pop(); o.plan = null; replanOutfit(slot); } }, "Remove last")) : null);
    return el("section", { class: "sw-launch", "data-slot": slot }, head, outfit, cruisePanel(view, me, ship));
  }
  async function addItem(slot, item) {
    ui.outfit[slot].items.push(item);
    replanOutfit(slot);
  }
  async function replanOutfit(slot) {
    const o = ui.outfit[slot];
    o.plan = null;
    redraw();
    if (!o.items.length) return;
    const ticket = (o.ticket = (o.ticket || 0) + 1);
    const result = await plan({ plan: "outfit", slot, items: o.items });
    if (ticket !== o.ticket || ui.outfit[slot] !== o) return;
    o.plan = result;
    redraw();
  }
  function cruisePanel(view, me, ship) {
    const slot = ship.slot;
    const cruise = listed("cruise", (c) => c.slot === slot);
    const c = ui.cruise[slot] || (ui.cruise[slot] = { plan: null, chosen: 0, asked: false });
    const box = el("div", { class: "sw-cruise-plan" }, el("h5", {}, "The cruise"));
    const early = cruise.find((e) => e.reason && e.reason.code === "act-first");
    if (early) { box.append(el("p", { class: "sw-reason" }, text(early.reason.message))); return box; }
    const lostEntry = cruise.find((e) => e.command.path.length === 0 && !e.reason);
    if (lostEntry) {
      const why = !ship.outfit.includes("captain") ? "it has no captain." : "your canals have no forward path of " + plural(ship.speed, "step") + ".";
      box.append(el("p", { class: "sw-reason", id: "sw-cannot-cruise" }, "This ship cannot cruise: " + why + " Put a captain on board or add canals first, if you can."),
        entryButton(lostEntry, "Send it (it is lost)"));
      return box;
    }
    if (!c.asked) { c.asked = true; planCruise(slot); }
    if (!c.plan) { box.append(el("p", { class: "muted" }, "Planning the paths…")); return box; }
    const paths = c.plan.paths || [];
    box.append(el("p", {}, "Speed " + text(c.plan.speed) + ": choose a path of " + plural(c.plan.speed, "step") + " (highlighted on your canals)."));
    const chosen = paths[c.chosen] || paths[0];
    const pathMap = {};
    if (chosen) chosen.path.forEach(([x, y, spot], i) => { const k = x + "," + y; (pathMap[k] || (pathMap[k] = {}))[spot] = i + 1; });
    box.append(el("div", { class: "sw-paths", role: "group", "aria-label": "Cruise paths" }, paths.slice(0, 12).map((p, i) => el("button", { type: "button", class: "sw-path" + (i === c.chosen ? " selected" : ""),
      "aria-pressed": i === c.chosen ? "true" : "false", "data-path": i, onclick: () => { c.chosen = i; redraw(); } },
      "Path " + (i + 1) + ": " + plural(p.score.total, "point") + (p.start ? " from " + where(p.start, me.canal.tiles) : "") + " to " + where(p.path[p.path.length - 1], me.canal.tiles) + (p.spots.some(Boolean) ? " · " + p.spots.filter(Boolean).map((f) => D.FEATURE_NAMES[f] || f).join(", ") : "")))));
    const start = chosen && chosen.start ? { x: chosen.start[0], y: chosen.start[1], spot: chosen.start[2] } : undefined;  // a first cruise: where it sets off
    box.append(canalGrid(me, { path: pathMap, token: start, label: "Your canals with the chosen path numbered" }));
    if (chosen) {
      const command = { cmd: "cruise", slot, path: chosen.path.map(([x, y, spot]) => ({ x, y, spot })) };
      if (chosen.start) command.start = { x: chosen.start[0], y: chosen.start[1], spot: chosen.start[2] };
      box.append(entryButton(null, "Send it on this cruise (" + plural(chosen.score.total, "point") + ")", { blocked: status !== "active" ? { message: Junction.STATUS_REASONS[status] } : null, cmd: "cruise", primary: true, onclick: (btn) => send(command, btn) }));
    }
    return box;
  }
  async function planCruise(slot) {
    const result = await plan({ plan: "cruise", slot });
    const c = ui.cruise[slot];
    if (!c) return;
    c.plan = result || { paths: [], speed: null };
    redraw();
  }

  // ---- the last cruise, step by step (for everyone) ------------------------------------------------------
  let cruiseSeen = null, cruiseTimer = null, logAfter = 0, logActions = [], fleetCount = -1;
  function lastCruise(actions) {
    for (let i = actions.length - 1; i >= 0; i--) {
      const evs = actions[i].events || [];
      for (let j = evs.length - 1; j >= 0; j--) if (evs[j].type === "cruised" || evs[j].type === "ship-lost") return { action: actions[i], event: evs[j] };
    }
    return null;
  }
  async function refreshCruise(view, ctx, version) {
    const count = view.players.reduce((a, p) => a + p.fleet.length + p.lost.length, 0);
    if (ctx.readOnly) { showCruise(view, lastCruise(ctx.log || [])); return; }
    if (count === fleetCount) return;
    fleetCount = count;
    if (!count) { showCruise(view, null); return; }
    if (!logAfter && version > 40) logAfter = version - 40;
    const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + logAfter);
    if (result.ok && Array.isArray(result.data)) {
      for (const a of result.data) if (a.sequence > logAfter) { logActions.push(a); logAfter = a.sequence; }
      logActions = logActions.slice(-60);
    }
    showCruise(last.payload.state, lastCruise(logActions));
  }
  /* The cruise drawn on the canals it sailed (the owner's system now, with the tiles it left), the token
   * moving spot by spot beside the list of steps (each step's feature and points), then the total. */
  function showCruise(view, found) {
    const card = $("sw-cruise-card");
    if (!found) { card.hidden = true; return; }
    card.hidden = false;
    const e = found.event, seq = found.action.sequence;
    if (cruiseSeen === seq) return;
    cruiseSeen = seq;
    clearTimeout(cruiseTimer);
    $("sw-cruise-title").textContent = who(e.seat) + "'s cruise";
    card.dataset.trail = "";
    if (e.type === "ship-lost") {
      $("sw-cruise-steps").replaceChildren();
      $("sw-cruise-grid").replaceChildren();
      $("sw-cruise-total").textContent = "The ship was lost: " + (e.reason === "no-captain" ? "it had no captain." : "its canals had no path of " + plural(e.speed, "step") + ".");
      return;
    }
    const player = view.players.find((p) => p.seat === e.seat);
    const record = player && player.fleet.length ? player.fleet[player.fleet.length - 1] : { items: [], tiles: [] };
    const count = (it) => record.items.filter((x) => x === it).length;
    const safety = (k) => record.tiles.reduce((a, t) => a + ((ships[t] || {}).safety || []).filter((s) => s === k).length, 0);
    const path = e.path || ((found.action.command && found.action.command.path) || []).map((p) => [p.x, p.y, p.spot]);
    // The canals it sailed: the tiles it left first (a cell rented again since shows the sailed tile).
    const sailed = new Map();
    for (const t of (player ? player.canal.tiles : [])) sailed.set(t.x + "," + t.y, t);
    for (const t of e.left || []) sailed.set(t.x + "," + t.y, Object.assign({}, t, { left: true }));
    const tiles = [...sailed.values()];
    const lastRiband = e.spots.lastIndexOf("riband");
    const points = e.spots.map((f, i) => (f === "riband" ? (i === lastRiband ? i + 1 : 0) : f === "navy" ? count("marine") + count("cannon") : f === "trade" ? count("merchant") + count("crane") : f ? safety(f) : 0));
    const steps = e.spots.map((f, i) => {
      const pts = points[i];
      const mark = f ? D.FEATURE[f] : null;
      return el("li", { class: "sw-step", "data-step": i + 1 }, spotMark(mark, mark ? mark.mark : String(i + 1)),
        el("span", {}, "Step " + (i + 1) + (path[i] ? " · " + where(path[i], tiles) : "") + (f ? " · " + (D.FEATURE_NAMES[f] || f) + (pts ? " +" + pts : f === "riband" ? " (a later riband counts)" : " +0") : "")));
    });
    $("sw-cruise-steps").replaceChildren(...steps);
    card.style.setProperty("--seat", colorOf(e.seat));  // the ship's token, in its owner's colour
    const at = (p) => (p ? { x: p[0], y: p[1], spot: p[2] } : null);
    const drawGrid = (i) => {  // after step i (0: the token at its start)
      const pathMap = {};
      path.slice(0, i).forEach(([x, y, spot], k) => { const c = x + "," + y; (pathMap[c] || (pathMap[c] = {}))[spot] = k + 1; });
      const token = i ? at(path[i - 1]) : at(e.start);
      $("sw-cruise-grid").replaceChildren(player && tiles.length ? canalGrid(player, { tiles, path: pathMap, token, label: who(e.seat) + "'s canals as the ship sailed them" + (i ? ", step " + i : "") }) : "");
      const now = $("sw-cruise-now");
      now.textContent = i ? "Step " + i + " of " + path.length + ": " + where(path[i - 1], tiles) + (e.spots[i - 1] ? " · " + (D.FEATURE_NAMES[e.spots[i - 1]] || e.spots[i - 1]) + " +" + points[i - 1] : " · no feature") : (e.start ? "The token starts at " + where(e.start, tiles) + "." : "The token sets off.");
      if (token) card.dataset.trail = (card.dataset.trail ? card.dataset.trail + " " : "") + token.x + "," + token.y + "," + token.spot;
    };
    const s = e.score;
    const total = "Crew " + s.crew + " + cranes and cannons " + s.equipment + " + speed " + s.speed + " + officials " + s.officials + " + riband " + s.riband + " = " + plural(s.total, "point") + ".";
    $("sw-cruise-total").textContent = "";
    const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    let i = 0;
    const tick = () => {
      steps.forEach((li, k) => { li.classList.toggle("now", k === i - 1); li.classList.toggle("done", k < i - 1); });
      drawGrid(i);
      if (i >= steps.length) {
        steps.forEach((li) => li.classList.add("done"));
        $("sw-cruise-total").textContent = total;
        document.body.dataset.cruiseShown = String(seq);
        return;
      }
      i++;
      cruiseTimer = setTimeout(tick, reduce ? 0 : 600);
    };
    tick();
  }

  // ---- the game over screen: the ending (Junction.ending) from the payload's result (Engine.result) ----
  /* The seats as the summary has them (name, colour, bot), else from the view (a replay without one). */
  function seatList(view) {
    const summary = last && last.ctx && last.ctx.summary;
    if (summary && Array.isArray(summary.seats) && summary.seats.length) return summary.seats;
    return view.players.map((p) => ({ index: p.seat, name: p.name }));
  }
  function renderScores(view, payload) {
    const box = $("sw-scores");
    const section = view.finished ? Junction.ending(payload.result, { seats: seatList(view), you: view.you, code: last.ctx.code,
      kind: KIND, title: "Slipway", unit: "point" }) : null;
    box.hidden = !section;
    box.replaceChildren(...(section ? [section] : []));
  }

  // ---- render --------------------------------------------------------------------------------------
  const orList = new Intl.ListFormat("en", { type: "disjunction" });
  /* What the player on turn can do now, in words, from the payload's legal commands (grouped by command,
   * in the order a turn goes): "Your turn: rent a canal tile, pay 6 coins for a bonus action, or end your turn." */
  function nextWords(view, legalCommands) {
    const by = {};
    for (const c of legalCommands) (by[c.cmd] || (by[c.cmd] = [])).push(c);
    const n = (cmd) => (by[cmd] || []).length;
    const final = view.phase === "final-build";
    const out = [];
    if (n("discard-contract")) out.push("discard one of your " + plural(n("discard-contract"), "contract"));
    if (n("choose")) out.push("choose an action for your " + (view.phase === "final-action" ? "final action" : "cube") + " (" + orList.format(by.choose.map((c) => ACTION_NAMES[c.action])) + ")");
    if (n("build")) out.push(final ? "complete a ship with one tile" : "build ships");
    if (n("rent-canal")) out.push("rent a canal tile");
    if (n("buy-commodity")) out.push("buy a commodity tile");
    if (n("manufacture")) out.push("manufacture equipment");
    if (n("recruit")) out.push("recruit crew");
    if (n("hire")) out.push("hire an employee");
    if (n("exchange")) out.push("exchange a commodity tile");
    if (n("subsidy")) out.push("take the subsidy of " + coins(content ? content.setup.subsidy : 2));
    if (n("bonus")) out.push("pay " + coins(content ? content.setup.bonus_cost : 6) + " for a bonus action");
    const slots = new Set([...(by.outfit || []), ...(by.cruise || [])].map((c) => c.slot));
    if (n("outfit")) out.push("put items on board your completed ship" + (slots.size > 1 ? "s" : ""));
    if (n("cruise")) out.push("send " + (slots.size > 1 ? "a ship" : "your ship") + " on its cruise");
    if (n("pass")) out.push("build nothing");
    if (n("end-turn")) out.push("end your turn");
    return out;
  }
  function turnText(view, payload) {
    if (view.finished) return view.winners && view.winners.length ? andList.format(view.winners.map(who)) + (view.winners.length > 1 ? " share first place." : " won.") : "";
    const turn = view.turn || {};
    if (view.active_seat === view.you && view.you !== null && view.you !== undefined && !(last && last.ctx.readOnly)) {
      if (payload.status && payload.status !== "active" && Junction.STATUS_REASONS[payload.status]) return "Your turn, but " + Junction.STATUS_REASONS[payload.status].replace(/^./, (c) => c.toLowerCase());
      const can = nextWords(view, payload.legal_commands || []);
      return can.length ? "Your turn: you can " + orList.format(can) + "." : "Your turn.";
    }
    const doing = { discard: "discarding a contract", choose: "choosing an action", act: "performing " + (ACTION_NAMES[turn.main] || "an action") + (turn.bonus ? " and a bonus " + ACTION_NAMES[turn.bonus] : ""),
      launch: "sending ships on their cruise", "final-build": "making the final build" }[turn.stage];
    return who(view.active_seat) + "'s turn" + (doing ? ": " + doing : "") + ".";
  }
  let feed = null;
  function redraw() { if (last) draw(last.payload, last.ctx); }
  function draw(payload, ctx) {
    const view = payload.state;
    reasonCount = 0;
    entries = view.listing || [];
    legal = new Set((payload.legal_commands || []).map(key));
    status = payload.status;
    names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
    colors = Object.fromEntries(view.players.map((p) => [p.seat, p.color]));
    document.body.dataset.phase = view.phase;
    $("version").textContent = text(payload.version);
    $("sw-heading").textContent = PHASES[view.phase] || text(view.phase);
    const turnLine = $("sw-turn");
    turnLine.textContent = turnText(view, payload);
    turnLine.classList.toggle("mine", view.active_seat === view.you && !view.finished);
    renderScores(view, payload);
    // The ending says "Game over" and who won once: the heading is the title's then, the turn line empty.
    const ended = !$("sw-scores").hidden;
    if (ended) $("sw-heading").textContent = "Slipway";
    turnLine.hidden = ended;
    renderActions(view, payload);
    renderBoard(view);
    renderPlayers(view);
  }

  window.JunctionPlay = {
    describe, describeAction,
    render(payload, ctx) {
      const view = payload.state;
      if (!view) return;
      if (payload.version !== uiVersion) { ui = fresh(); uiVersion = payload.version; }
      last = { payload, ctx };
      // The names first: the replay words the step's action (describeAction) right after this call.
      names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
      colors = Object.fromEntries(view.players.map((p) => [p.seat, p.color]));
      if (!feed) feed = Junction.feed($("sw-feed"), describe);
      loadHelp();
      loadContent().then(() => {
        if (last.payload !== payload) return;  // a newer state came meanwhile: it draws
        $("sw-loading").hidden = true;
        draw(payload, ctx);
        feed.refresh(ctx, payload.version);
        refreshCruise(view, ctx, payload.version);
        document.body.dataset.drawn = String(payload.version);
      }, (err) => Junction.showError($("play-error"), "Cannot load the game's components: " + err.message, null));
    },
  };
})();
