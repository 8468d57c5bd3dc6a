/* Junction.RailPage: what the two rail titles' play pages (static/js/resourceful_rails.js,
 * static/js/runerail.js) share: the ending at game over, the map's legend drawn with the map's own
 * pieces, the tap-to-show help beside a button or a term, the "your turn" line made from the engine's
 * listing, and the words for places and people. Needs junction.js and railmap.js loaded first.
 * Nothing here knows a rule: it reads the view, the listing and the content the server sends. */
"use strict";
Junction.RailPage = (() => {
  const { el, text } = Junction;

  const andList = new Intl.ListFormat("en", { type: "conjunction" });

  // ---- words both pages use ------------------------------------------------------------------------
  /* Set a live region's text only when it changes: a redraw with the same words is not read out again. */
  const say = (node, words) => { if (node.textContent !== words) node.textContent = words; };
  /* One action of the log in words (the replay's step line), each event through `describe`. */
  const describeActionWith = (describe) => (action) => (action && action.events ? action.events.map(describe).filter(Boolean).join(" ") : "");
  /* who(seat) and people(seats): a seat's name from the view drawn last (names() → {seat: name}), else the
   * game's seats (ctx() → the page's context: the replay's first step has no view yet). */
  function namer(names, ctx) {
    const who = (seat) => {
      const drawn = names();
      if (drawn[seat]) return text(drawn[seat]);
      const c = ctx();
      const listed = c && c.summary && (c.summary.seats || []).find((s) => s.index === seat);
      return listed ? text(listed.name) : "seat " + text(seat);
    };
    return { who, people: (seats) => andList.format((seats || []).map(who)) };
  }

  // ---- places in words, never coordinates ----------------------------------------------------------
  /* Words for the mileposts of `content.map` as `map()` (the page's RailMap, once drawn) knows them:
   * cityAt(key) the city there, nearest(key, fits) the closest milepost on its layer that fits,
   * nearestCity(key, ports) the closest city (a port when asked), openCountry(key) "the open country
   * near Boise, ID", and tapped(key, info, extra) what a tap chose: "Boise, ID (Cattle)", "a mountain
   * milepost in the open country near Boise, ID". */
  function places(content, map, cityName) {
    const cityAt = (key) => { const m = map(); const info = m && m.info(key); return info && info.city ? info.city.id : null; };
    function nearest(key, fits) {
      const at = Junction.RailMap.parseKey(key);
      const c = content();
      if (!at || !c) return null;
      const [x, y] = Junction.RailMap.pixel(c.map.layout, at[1], at[2]);
      let best = null, bestD = Infinity;
      for (const n of c.map.nodes) {
        if (n.at[0] !== at[0] || !fits(n)) continue;
        const [cx, cy] = Junction.RailMap.pixel(c.map.layout, n.at[1], n.at[2]);
        const d = (cx - x) ** 2 + (cy - y) ** 2;
        if (d < bestD) { bestD = d; best = n; }
      }
      return best;
    }
    const nearestCity = (key, ports) => { const n = nearest(key, (x) => x.city && (!ports || x.port)); return n ? n.city : null; };
    const openCountry = (key) => { const c = nearestCity(key, false); return c ? "the open country near " + cityName(c) : "a milepost"; };
    function tapped(key, info, placeName, goods) {
      if (info && info.city) return cityName(info.city.id) + (goods && goods.length ? " (" + goods.join(", ") + ")" : "");
      if (info && info.sea) return placeName(key);
      return (info && info.terrain ? "a " + info.terrain + " milepost in " : "") + placeName(key);
    }
    return { cityAt, nearest, nearestCity, openCountry, tapped };
  }

  // ---- the options: refused why, and sent -----------------------------------------------------------
  /* Why a listed option cannot be sent now (null: it can): the game's status, the engine's reason, or
   * not among the commands the rules allow (`legal`: their Junction.commandKey). */
  function blockedBy(entry, legal, status) {
    const STATUS_REASONS = Junction.STATUS_REASONS;
    if (status && status !== "active" && STATUS_REASONS[status]) return STATUS_REASONS[status];
    if (entry.reason) return entry.reason;
    if (legal.has(Junction.commandKey(entry.command))) return null;
    return STATUS_REASONS[status] || "Not possible right now.";
  }
  /* Send a command from a button (disabled meanwhile); a refusal is shown in `errorBox` and the button
   * comes back. Resolves to the page's send result. */
  async function send(ctx, command, button, errorBox) {
    Junction.showError(errorBox, "");
    button.disabled = true;
    const result = await ctx.send(command);
    if (result.type === "error") {
      button.disabled = false;
      Junction.showError(errorBox, text(result.error.message, "That did not work."), button.isConnected ? button : undefined);
    }
    return result;
  }
  /* A seat's colour as a square, its colour set through CSSOM (the site's CSP allows no inline style). */
  function colorSwatch(cls, color, hex, name) {
    const node = el("span", { class: cls, "data-color": color, title: name });
    node.style.backgroundColor = text(hex, "#555555");
    return node;
  }

  // ---- the map: the seats' track and trains; plans asked one at a time ------------------------------
  /* Draw every seat's track and train in its colour (`hex`: colour name → CSS colour); where(p) is where
   * a player's train stands (null: not on the map), extra(p) adds to its marker ({ship, title}). */
  function drawSeats(map, view, hex, where, extra) {
    if (!map) return;
    const colors = {};
    for (const p of view.players) colors[p.seat] = text(hex[p.color], "#555555");
    map.setColors(colors);
    map.setTrack(view.track || {});
    map.setTrains(view.players.filter((p) => where(p)).map((p) => Object.assign({ seat: p.seat, at: where(p), label: text(p.name, "?").slice(0, 1).toUpperCase() },
      extra ? extra(p) : null)));
  }
  /* Plans asked of the server (POST /api/games/{code}/plan) one at a time: ask(ctx, body) resolves to the
   * answer, or to null when a newer ask or a cancel() came first (a newer tap, a cleared plan). */
  function planAsker() {
    let ticket = 0;
    return {
      async ask(ctx, body) {
        const mine = ++ticket;
        const result = await ctx.api("POST", "/api/games/" + ctx.code + "/plan", body);
        return mine === ticket ? result : null;
      },
      cancel() { ticket++; },
    };
  }
  /* The log, newest first, in `node` (Junction.feed), made at the first refresh. */
  function feedOf(node, describe) {
    let feed = null;
    return (ctx, version) => { if (!feed) feed = Junction.feed(node, describe); feed.refresh(ctx, version); };
  }

  // ---- a demand card's line ----------------------------------------------------------------------------
  /* One demand of a card: a button that shows it on the map (pressed while shown), what it pays, where its
   * good or load comes from, and whether the train could deliver it here. o: {prefix ("rr"), kind ("good",
   * "load"), what, city, payout (words), sources (city names), on, can, data (attributes), onclick}. */
  function demandItem(o) {
    const p = o.prefix;
    return el("li", { class: p + "-demand" + (o.can ? " can" : "") },
      el("button", Object.assign({ type: "button", class: p + "-demand-show" + (o.on ? " on" : ""), "aria-pressed": o.on ? "true" : "false",
        title: "Show " + o.city + " and where " + o.what + " comes from on the map", onclick: o.onclick }, o.data || {}),
        el("span", { class: p + "-" + o.kind }, o.what), " → ", el("span", { class: p + "-city" }, o.city), el("b", { class: p + "-payout" }, o.payout)),
      el("span", { class: p + "-from muted" }, o.sources.length ? "from " + andList.format(o.sources) : "no source on this map"),
      o.can ? el("span", { class: p + "-can" }, "deliverable here") : null);
  }

  /* The seats as the game's summary has them (name, colour, bot), else from the view. */
  function seatsOf(view, ctx) {
    const summary = ctx && ctx.summary;
    if (summary && Array.isArray(summary.seats) && summary.seats.length) return summary.seats;
    return view.players.map((p) => ({ index: p.seat, name: p.name }));
  }

  /* The ending (Junction.ending from the payload's result) in `box`, shown once the game is over. */
  function showEnding(box, payload, ctx, opts) {
    const view = payload.state;
    const section = view.finished && payload.result
      ? Junction.ending(payload.result, Object.assign({ seats: seatsOf(view, ctx), you: view.you, code: ctx.code }, opts)) : null;
    box.hidden = !section;
    box.replaceChildren(...(section ? [section] : []));
    return !!section;
  }

  // ---- what a button or a term does: a title on a laptop, a "?" to tap on a phone ------------------
  const openHelp = new Set();  // the help shown, by its key: a redraw of the page keeps it open
  let helpIds = 0;
  /* [the "?" toggle, the words it shows] for `words` about `what` (a button's label, a term); `key`
   * names it across redraws. The toggle is a real button (aria-expanded, aria-controls): a tap, Enter or
   * Space shows and hides the words under it. */
  function help(key, what, words) {
    if (!words) return [null, null];
    const id = "rp-help-" + (++helpIds);
    const open = openHelp.has(key);
    const panel = el("p", { class: "rp-help", id, hidden: !open, "data-help": key }, words);
    const toggle = el("button", { type: "button", class: "rp-help-toggle", "aria-expanded": open ? "true" : "false", "aria-controls": id,
      "aria-label": "What does “" + what + "” mean?", title: words,
      onclick: (ev) => {
        const now = panel.hidden;
        panel.hidden = !now;
        ev.currentTarget.setAttribute("aria-expanded", now ? "true" : "false");
        if (now) openHelp.add(key); else openHelp.delete(key);
      } }, "?");
    return [toggle, panel];
  }
  /* A heading's term with its "?" beside it: the heading's text stays, the help follows the heading. */
  function helpHeading(heading, key, words) {
    if (!heading || heading.dataset.help === key) return;
    heading.dataset.help = key;
    const [toggle, panel] = help(key, heading.textContent.trim(), words);
    heading.append(" ", toggle);
    heading.after(panel);
  }

  /* The engine's own words for each command (GET /api/kinds: the kind's commands and their help). */
  const commandHelp = {};
  let helpLoading = null;
  function loadCommandHelp(kind) {
    if (!helpLoading) {
      helpLoading = Junction.api("GET", "/api/kinds").then((result) => {
        const kinds = result.ok && Array.isArray(result.data) ? result.data : (result.data && result.data.kinds) || [];
        const mine = kinds.find((k) => k.kind === kind);
        for (const c of (mine && mine.commands) || []) commandHelp[c.cmd] = c.help;
        return commandHelp;
      }).catch(() => commandHelp);
    }
    return helpLoading;
  }
  const helpFor = (cmd) => text(commandHelp[cmd], "");

  // ---- the map's legend: every mark, drawn with the map's own pieces ------------------------------
  /* Fill `details` (a <details>, closed on a phone, open from 1000 px the first time) with the groups
   * [{title, items: [{mark: swatch or null, words}]}], redrawn only when they change. */
  function legend(details, groups) {
    const key = JSON.stringify(groups.map((g) => [g.title, g.items.map((i) => [i.key || i.words])]));
    if (details.dataset.key === key) return;
    const first = details.dataset.key === undefined;
    details.dataset.key = key;
    details.hidden = false;
    if (first && window.matchMedia && window.matchMedia("(min-width: 1000px)").matches) details.open = true;
    const body = groups.filter((g) => g.items.length).map((g) => el("div", { class: "rp-legend-group" },
      el("h4", {}, g.title),
      el("ul", { class: "rp-legend-list" }, g.items.map((i) => el("li", { "data-mark": i.key || null }, i.mark || null, el("span", {}, i.words))))));
    const summary = details.querySelector("summary");
    details.replaceChildren(summary, ...body);
  }
  /* The marks every rail map shares: cities by size, the mileposts by terrain (this layer's), the
   * crossings, and each player's track and train; `money(n)` words a price. */
  function mapLegendGroups(map, content, view, money, opts) {
    const o = opts || {};
    const sw = (kind, x) => Junction.RailMap.swatch(kind, Object.assign({ layout: map.layout }, x));
    const costs = content.build_costs || {};
    const cityCost = costs.city || {}, terrainCost = costs.terrain || {}, crossingCost = costs.crossing || {};
    const priced = (words, n) => (n === null || n === undefined ? words : words + " · " + money(n) + " to build to");
    const cities = [
      { key: "major", mark: sw("major"), words: priced("Major city: seven mileposts; track may start from any of them", cityCost.major) },
      { key: "medium", mark: sw("medium"), words: priced("Medium city", cityCost.medium) },
      { key: "small", mark: sw("small"), words: priced("Small city", cityCost.small) },
    ];
    if (o.port) cities.push({ key: "port", mark: sw("port"), words: o.port });
    const terrains = (map.terrains || []).map((t) => ({ key: "terrain-" + t.terrain, mark: sw("terrain", t),
      words: terrainCost[t.terrain] === null ? cap(t.terrain) + ": no track" : priced(cap(t.terrain) + " milepost", terrainCost[t.terrain]) }));
    const kinds = [...new Set((content.map.crossings || []).map((c) => String(c.kind || "crossing")))];
    const crossings = kinds.map((k) => ({ key: "crossing-" + k, mark: sw(k === "river" ? "river" : "crossing"),
      words: cap(k) + (crossingCost[k] !== undefined && crossingCost[k] !== null ? ": + " + money(crossingCost[k]) + " to build across" : "") }));
    const players = [];
    for (const p of view.players) {
      const color = text((content.colors || {})[p.color], "#555555");
      const name = text(p.name, "Seat " + (p.seat + 1));
      players.push({ key: "track-" + p.seat + "-" + color, mark: sw("track", { color }), words: p.seat === view.you ? "Your track (" + name + ")" : name + "'s track" });
    }
    const me = view.players.find((p) => p.seat === view.you) || view.players[0];
    if (me) players.push({ key: "train", mark: sw("train", { color: text((content.colors || {})[me.color], "#555555"), label: text(me.name, "?").slice(0, 1).toUpperCase() }),
      words: "A train: its player's initial, in their colour" });
    return [
      { title: "Cities", items: cities },
      { title: "Mileposts (what building to one costs)", items: terrains.concat(crossings) },
      ...(o.groups || []),
      { title: "Players", items: players.concat(o.players || []) },
      { title: "While you plan", items: [
        { key: "plan-build", mark: sw("plan-build"), words: "A build you are planning (dashed; red dots: you cannot pay for it)" },
        { key: "plan-move", mark: sw("plan-move"), words: "A move you are planning" },
        ...(o.marks || []).map((m) => ({ key: "mark-" + m.cls, mark: sw("mark", { cls: m.cls }), words: m.words })),
      ] },
    ];
  }
  const cap = (s) => { const t = text(s, ""); return t ? t.charAt(0).toUpperCase() + t.slice(1) : "Milepost"; };

  // ---- "your turn": what this player may do now, in words --------------------------------------------
  const orList = new Intl.ListFormat("en", { type: "disjunction" });
  /* "Your turn: build up to $20 of track, upgrade your train ($20) or end your turn." from the commands
   * the rules allow this seat now (payload.legal_commands), one phrase per kind of command, in `order`
   * (then any other kind). phrase(cmd, commands, allowed) words a kind (null: left out; `allowed`: every kind
 * allowed now). "" when none is allowed. */
  function nextSteps(payload, order, phrase) {
    const by = new Map();
    for (const c of payload.legal_commands || []) { if (!by.has(c.cmd)) by.set(c.cmd, []); by.get(c.cmd).push(c); }
    const kinds = order.filter((cmd) => by.has(cmd)).concat([...by.keys()].filter((cmd) => !order.includes(cmd)));
    const allowed = new Set(by.keys());
    const parts = kinds.map((cmd) => phrase(cmd, by.get(cmd), allowed)).filter(Boolean);
    return parts.length ? "Your turn: " + orList.format(parts) + "." : "";
  }
  /* "Dairy", "Dairy or Wool": distinct names, in the order given. */
  const either = (names) => orList.format([...new Set(names)]);

  return { drawSeats, planAsker, feedOf, demandItem, say, describeActionWith, namer, places, blockedBy, send, colorSwatch, seatsOf, showEnding, nextSteps, either, help, helpHeading, loadCommandHelp, helpFor, legend, mapLegendGroups };
})();
