/* Wood and Steel table / host screen: the board drawn from the map data (routes in
 * segment blocks, cities, the independent railroads in their colours, the players'
 * track and cities in their seat colours), whose turn, the round, the players, the
 * market and what happened — following the game live as a spectator.
 * Only public table information is ever shown here (this screen faces the room). */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Junction.el;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const money = (n) => (n < 0 ? "−$" : "$") + Math.abs(n || 0).toLocaleString("en-US");
  const plural = (n, word) => Junction.plural(n, word);
  const cityCount = (n) => Junction.plural(n, "city", "cities");
  const PHASES = { ranking: "Choosing starting routes", engines: "Placing engines", play: "Play", auction: "Bankruptcy auction", finished: "Game over" };
  // Independents differ from the players in hue and in shape, and from one another in colour
  // and pattern at once. Hue: the gaps between the seat colours' hues (teal, magenta, olive,
  // indigo; each dark and light), at least 30° from every seat colour's. Shape: an independent's
  // route is a chain of round beads in one of five patterns (beads, pairs, capsules, bead and
  // capsule, triples: .ws-indie.p0–p4 in ws_table.css), its legend swatch the same chain; a
  // player's track is solid blocks with a dark casing and a player's marker a square block. The
  // k-th railroad of the game (by id) takes colour k mod 8 and pattern k mod 5: as 8 and 5 share
  // no factor, the first 40 railroads all differ, each from the next in both; from the 41st the
  // beads are hollow (80 in all; a game holds at most 29).
  const INDIE_COLORS = ["#0f8f91", "#c2307e", "#5a8f1a", "#5a4fcf", "#4fc3c0", "#e07ab0", "#9cc24a", "#9a92ea"];
  const INDIE_PATTERNS = 5;
  let indieStyles = new Map();  // railroad id → { color, pattern, hollow }
  function indieStylesFor(railroads) {
    const ids = [...new Set((railroads || []).map((r) => Number(r.id)))].sort((a, b) => a - b);
    return new Map(ids.map((id, k) => [id, { color: INDIE_COLORS[k % INDIE_COLORS.length], pattern: k % INDIE_PATTERNS,
      hollow: Math.floor(k / (INDIE_COLORS.length * INDIE_PATTERNS)) % 2 === 1 }]));
  }
  const indieStyle = (id) => indieStyles.get(Number(id)) || { color: INDIE_COLORS[0], pattern: 0, hollow: false };

  const initial = Junction.readJson("game-data");
  const code = initial.code;
  let summary = initial;
  let board = Junction.readJson("board-data");
  let view = null, status = initial.status, lastSeq = 0;
  let result = null;  // a finished game's ending (payload.result, Engine.result)
  const shown = (slug) => (view && view.names && view.names[slug]) || slug;  // the engine's display name
  let geo = null;  // city positions and route geometry, built once per board

  document.body.classList.add("ws-table-body");

  // Connect with a host token only when it has no seat: a seat's token would bring
  // that seat's secrets onto a screen the whole table can read.
  const mine = Junction.seatFor(code) || {};
  const seatless = mine.seat === undefined || mine.seat === null;
  const token = mine.host && seatless ? mine.token : null;
  document.body.dataset.viewer = token ? "host" : "spectator";

  // ---- helpers -----------------------------------------------------------------------
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const seatInfo = (seat) => (summary.seats || []).find((s) => s.index === seat);
  const seatColor = (seat) => Junction.seatColor((seatInfo(seat) || {}).color, "#777");  // the seats' palette (junction.js)
  const playerName = (seat) => {
    if (seat === null || seat === undefined) return "the host";
    const p = view && view.players.find((x) => x.seat === seat);
    return p ? p.name : (seatInfo(seat) || {}).name || "seat " + seat;
  };
  // Colours are set through the element's style object, never a style="" attribute (which
  // the Content-Security-Policy refuses).
  const painted = (node, color) => { node.style.background = color; return node; };
  const dot = (color, extra) => painted(el("span", { class: "ws-t-dot" + (extra ? " " + extra : "") }), color);
  // An independent's swatch: a stretch of its chain of beads, as its routes show on the board.
  const beads = (style) => svg("svg", { class: "ws-t-swatch", viewBox: "0 0 40 12", "aria-hidden": "true", "data-pattern": style.pattern },
    svg("line", { x1: 5, y1: 6, x2: 36, y2: 6, class: "ws-indie p" + style.pattern + (style.hollow ? " hollow" : ""), stroke: style.color }),
    style.hollow ? svg("line", { x1: 5, y1: 6, x2: 36, y2: 6, class: "ws-indie-core p" + style.pattern }) : null);
  const routeKey = (a, b) => [a, b].sort().join("-");

  // ---- the static board: routes in segment blocks, cities, labels ------------------------
  const GAP = 4.2;  // gap between segment blocks, in board pixels
  const radius = (city) => (city.large ? 7.5 : 5);

  function buildGeometry() {
    const cities = new Map(board.cities.map((c) => [c.name, c]));
    const routes = new Map();
    for (const r of board.routes) {
      const a = cities.get(r.a), b = cities.get(r.b);
      if (!a || !b) continue;
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len;
      const ra = radius(a) + 2, rb = radius(b) + 2;
      const visible = Math.max(4, len - ra - rb);
      const n = r.length;
      const block = Math.max(1, (visible - (n - 1) * GAP) / n);
      routes.set(routeKey(r.a, r.b), {
        route: r, a, b, ux, uy, nx: -uy, ny: ux, visible, block,
        p1: { x: a.x + ux * ra, y: a.y + uy * ra }, p2: { x: b.x - ux * rb, y: b.y - uy * rb },
      });
    }
    const xs = board.cities.map((c) => c.x), ys = board.cities.map((c) => c.y);
    const box = { x: Math.min(...xs) - 30, y: Math.min(...ys) - 26, w: Math.max(...xs) - Math.min(...xs) + 130, h: Math.max(...ys) - Math.min(...ys) + 52 };
    return { cities, routes, box };
  }

  // A stretch of one route, offset sideways, from one end for `segments` blocks.
  function stretch(g, fromCity, segments, offset, attrs) {
    const reverse = fromCity === g.b.name;
    const start = reverse ? g.p2 : g.p1;
    const dir = reverse ? -1 : 1;
    const n = Math.min(segments, g.route.length);
    const length = n * g.block + (n - 1) * GAP;
    const ox = g.nx * offset, oy = g.ny * offset;
    return svg("line", Object.assign({
      x1: (start.x + ox).toFixed(1), y1: (start.y + oy).toFixed(1),
      x2: (start.x + ox + dir * g.ux * length).toFixed(1), y2: (start.y + oy + dir * g.uy * length).toFixed(1),
      "stroke-dasharray": g.block.toFixed(2) + " " + GAP,
    }, attrs));
  }

  function drawStaticBoard() {
    geo = buildGeometry();
    const root = $("ws-board");
    const { box } = geo;
    root.setAttribute("viewBox", [box.x, box.y, box.w, box.h].map((v) => v.toFixed(0)).join(" "));
    const title = root.querySelector("title");
    root.replaceChildren(title);
    root.append(svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 14, class: "ws-sea" }));

    // Faint region names at the middle of their cities.
    const regions = svg("g", { class: "ws-regions", "aria-hidden": "true" });
    for (const region of board.regions || []) {
      const inside = board.cities.filter((c) => c.region === region.code);
      if (!inside.length) continue;
      const cx = inside.reduce((s, c) => s + c.x, 0) / inside.length, cy = inside.reduce((s, c) => s + c.y, 0) / inside.length;
      regions.append(svg("text", { x: cx.toFixed(0), y: (cy + 4).toFixed(0), class: "ws-region-label" }, region.label));
    }
    root.append(regions);

    const routes = svg("g", { class: "ws-routes", id: "ws-routes" });
    for (const [key, g] of geo.routes) {
      const r = g.route;
      const line = stretch(g, g.a.name, r.length, 0, { class: "ws-route" + (r.mountainous ? " mountain" : ""), "data-route": key });
      line.append(svg("title", {}, key.replace("-", " – ") + ": " + plural(r.length, "segment") + (r.mountainous ? ", mountainous" : "")));
      routes.append(line);
      if (r.mountainous) {
        const mx = (g.p1.x + g.p2.x) / 2 + g.nx * 6.5, my = (g.p1.y + g.p2.y) / 2 + g.ny * 6.5;
        routes.append(svg("path", { d: `M${(mx - 3.6).toFixed(1)} ${(my + 2.6).toFixed(1)} l3.6 -6 l3.6 6 z`, class: "ws-peak", "aria-hidden": "true" }));
      }
    }
    root.append(routes);
    root.append(svg("g", { id: "ws-highlights" }), svg("g", { id: "ws-overlays" }));

    const cities = svg("g", { class: "ws-cities", id: "ws-cities" });
    const labels = svg("g", { class: "ws-labels", id: "ws-labels", "aria-hidden": "true" });
    for (const c of board.cities) {
      const dotNode = svg("circle", { cx: c.x, cy: c.y, r: radius(c), class: "ws-city" + (c.large ? " large" : ""), "data-city": c.name });
      dotNode.append(svg("title", {}, c.name + (c.commodities && c.commodities.length ? " — " + c.commodities.join(", ") : "")));
      cities.append(dotNode);
      // right of the dot until placeLabels finds each label its spot (once the board is drawn)
      labels.append(svg("text", { x: (c.x + radius(c) + 3).toFixed(1), y: (c.y + 3.6).toFixed(1), class: "ws-label" + (c.large ? " large" : ""), "data-city": c.name }, c.label || c.name));
    }
    root.append(svg("g", { id: "ws-rings" }), svg("g", { id: "ws-leaders", "aria-hidden": "true" }), cities, labels, svg("g", { id: "ws-markers" }));
    labelSize = null;
    fitLabels();
  }

  // ---- city labels: placed so that none overlaps another or covers a city ------------------
  // Each label takes the best free spot around its dot: right, left, above, below, then the
  // diagonals, then the same a step further out with a leader line to the dot. Large cities
  // choose first, then the most crowded ones; a spot is free when it stays on the board and
  // clear of every label already placed and of every city's dot; among free spots, the nearest
  // in that order wins unless it crosses more routes, hides a region's name or sits close to
  // another city. Labels are placed again whenever their size changes.
  const SPOTS = [[1, 0], [-1, 0], [0, -1], [0, 1], [1, -1], [-1, -1], [1, 1], [-1, 1]];
  const RINGS = [{ reach: 0, cost: 0 }, { reach: 1, cost: 8 }, { reach: 2, cost: 16 }, { reach: 3.2, cost: 24 }, { reach: 4.5, cost: 32 }];
  const hits = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  function crosses(rect, g) {  // does the route's line (p1–p2) pass through the rectangle?
    let t0 = 0, t1 = 1;
    const dx = g.p2.x - g.p1.x, dy = g.p2.y - g.p1.y;
    for (const [p, q] of [[-dx, g.p1.x - rect.x], [dx, rect.x + rect.w - g.p1.x], [-dy, g.p1.y - rect.y], [dy, rect.y + rect.h - g.p1.y]]) {
      if (p === 0) { if (q < 0) return false; continue; }
      const t = q / p;
      if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
  }
  let labelSize = null;
  function placeLabels() {
    const root = $("ws-board");
    const group = $("ws-labels");
    if (!geo || !group) return;
    const texts = [...group.querySelectorAll("text.ws-label")];
    const sizeNow = getComputedStyle(texts[0] || root).fontSize;
    if (sizeNow === labelSize) return;
    labelSize = sizeNow;
    const { box } = geo;
    const dots = board.cities.map((c) => ({ name: c.name, x: c.x - radius(c) - 1, y: c.y - radius(c) - 1, w: 2 * radius(c) + 2, h: 2 * radius(c) + 2 }));
    const routes = [...geo.routes.values()];
    const regions = [...root.querySelectorAll(".ws-region-label")].map((t) => { const b = t.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height }; });
    const near = (d, m) => ({ x: d.x - m, y: d.y - m, w: d.w + 2 * m, h: d.h + 2 * m });
    const items = texts.map((t) => {
      t.setAttribute("x", 0); t.setAttribute("y", 0); t.removeAttribute("text-anchor");
      const b = t.getBBox();
      const c = geo.cities.get(t.dataset.city);
      const crowd = board.cities.filter((o) => o !== c && Math.hypot(o.x - c.x, o.y - c.y) < b.width + 2 * b.height).length;
      return { t, c, w: b.width, h: b.height, dx: b.x, dy: b.y, crowd };
    });
    items.sort((a, b) => (b.c.large - a.c.large) || (b.crowd - a.crowd) || (a.c.x - b.c.x));
    const placed = [], leaders = [];
    for (const item of items) {
      const { c, w, h } = item;
      const gap = Math.max(2.5, h * 0.2), r = radius(c);
      let best = null, least = null;  // the best free spot; the spot overlapping least, should none be free
      for (const ring of RINGS) {
        const out = r + gap + ring.reach * h;
        SPOTS.forEach(([sx, sy], k) => {
          const diagonal = sx !== 0 && sy !== 0 ? Math.SQRT1_2 : 1;
          const ax = c.x + sx * out * diagonal, ay = c.y + sy * out * diagonal;
          const rect = { x: sx > 0 ? ax : sx < 0 ? ax - w : ax - w / 2, y: sy > 0 ? ay : sy < 0 ? ay - h : ay - h / 2, w, h };
          if (rect.x < box.x + 2 || rect.y < box.y + 2 || rect.x + w > box.x + box.w - 2 || rect.y + h > box.y + box.h - 2) return;
          const clash = placed.filter((p) => hits(rect, p)).length + dots.filter((d) => d.name !== c.name && hits(rect, d)).length;
          if (clash) {
            if (!least || clash < least.clash) least = { rect, clash, ring, ax, ay };
            return;
          }
          // fewer routes crossed, no faint region name hidden, no other dot close enough to
          // seem the label's own
          const cost = ring.cost + k + 3 * routes.filter((g) => crosses(rect, g)).length + 3 * regions.filter((x) => hits(rect, x)).length
            + 2 * dots.filter((d) => d.name !== c.name && hits(rect, near(d, h * 0.6))).length;
          if (!best || cost < best.cost) best = { rect, cost, ring, sx, sy, ax, ay };
        });
        if (best && best.ring === ring) break;  // a free spot this close: no need to go further out
      }
      // nowhere free (a board far denser than the default one): where it overlaps least
      if (!best) best = least || { rect: { x: c.x + r + gap, y: c.y - h / 2, w, h }, ring: RINGS[0] };
      placed.push(best.rect);
      item.t.setAttribute("x", (best.rect.x - item.dx).toFixed(1));
      item.t.setAttribute("y", (best.rect.y - item.dy).toFixed(1));
      item.t.dataset.spot = best.ring.reach ? "leader" : "near";
      if (best.ring.reach) {  // a leader line from the dot's edge to the label's near side
        const len = Math.hypot(best.ax - c.x, best.ay - c.y) || 1;
        leaders.push(svg("line", { class: "ws-leader", "data-city": c.name,
          x1: (c.x + (best.ax - c.x) / len * (r + 1)).toFixed(1), y1: (c.y + (best.ay - c.y) / len * (r + 1)).toFixed(1),
          x2: best.ax.toFixed(1), y2: best.ay.toFixed(1) }));
      }
    }
    $("ws-leaders").replaceChildren(...leaders);
    root.dataset.labels = "placed";
  }

  // City labels readable from across the table: 16 px on a table-sized screen (1200 px wide or
  // more) and 11 px on a tablet, however the board is scaled to fit — but never more than
  // LABEL_MOST board units (one twentieth of the board's height), so that a small laptop's
  // board (720 px high) still has room for all 56 of them: there they get down to 11 px. On a
  // phone the board is too small for that many labels: they scale with it (pinch to zoom).
  const LABEL_MOST = 20;
  function fitLabels() {
    const root = $("ws-board");
    const ctm = root && root.getScreenCTM && root.getScreenCTM();
    if (!ctm || !ctm.a) return;
    let px = window.innerWidth >= 1200 ? 16 : window.innerWidth >= 700 ? 11 : 0;
    if (px > 11) px = Math.max(11, Math.min(px, LABEL_MOST * ctm.a));
    if (px) root.style.setProperty("--ws-label", (Math.ceil((px / ctm.a) * 100) / 100) + "px");
    else root.style.removeProperty("--ws-label");
    placeLabels();
  }
  if (window.ResizeObserver) new ResizeObserver(() => fitLabels()).observe($("ws-board"));
  else window.addEventListener("resize", fitLabels);

  // ---- the live board: independents, players' track and cities, engines ----------------
  function drawLiveBoard() {
    if (!geo || !view) return;
    const overlays = [];  // per route: [{color, from, segments, cls, ...}]
    const add = (key, item) => {
      const g = geo.routes.get(key);
      if (!g) return;
      overlays.push(Object.assign({ key, g }, item));
    };
    const indieOf = new Map();
    for (const rr of view.railroads || []) {
      if (rr.acquired_by !== null && rr.acquired_by !== undefined) continue;
      const style = indieStyle(rr.id), color = style.color;
      for (const c of rr.cities) indieOf.set(c, color);
      for (const x of rr.routes) {
        const g = geo.routes.get(x.route);
        if (g) add(x.route, { color, from: g.a.name, segments: g.route.length, cls: "ws-indie p" + style.pattern + (style.hollow ? " hollow" : ""), pattern: style.pattern, hollow: style.hollow, railroad: rr.id, grew: rr.grew_last_round.includes(x.route), title: rr.name });
      }
    }
    for (const p of view.players || []) {
      const network = new Set(p.network || []);
      for (const t of p.track || []) {
        const g = geo.routes.get(t.route);
        if (!g) continue;
        // Partial track grows out of the player's network.
        const from = network.has(g.a.name) || !network.has(g.b.name) ? g.a.name : g.b.name;
        add(t.route, { color: seatColor(p.seat), from, segments: t.segments, cls: "ws-track", seat: p.seat, title: p.name + (t.segments < t.length ? " (" + t.segments + " of " + t.length + " segments)" : "") });
      }
    }
    const byRoute = new Map();
    for (const o of overlays) { if (!byRoute.has(o.key)) byRoute.set(o.key, []); byRoute.get(o.key).push(o); }
    const layer = $("ws-overlays");
    const glow = $("ws-highlights");
    const parts = [], halos = [], casings = [];
    const SPACING = 5.2;
    for (const list of byRoute.values()) {
      list.forEach((o, i) => {
        const offset = (i - (list.length - 1) / 2) * SPACING;
        if (o.grew) halos.push(stretch(o.g, o.from, o.segments, offset, { class: "ws-grew-halo" }));
        const attrs = { class: o.cls + (o.grew ? " grew" : ""), stroke: o.color, "data-route": o.key };
        if (o.railroad !== undefined) attrs["data-railroad"] = o.railroad;
        if (o.seat !== undefined) attrs["data-seat"] = o.seat;
        if (o.seat !== undefined) casings.push(stretch(o.g, o.from, o.segments, offset, { class: "ws-track-casing" }));
        const line = stretch(o.g, o.from, o.segments, offset, attrs);
        line.append(svg("title", {}, o.title + ": " + o.key.replace("-", " – ")));
        parts.push(line);
        if (o.hollow) parts.push(stretch(o.g, o.from, o.segments, offset, { class: "ws-indie-core p" + o.pattern, "data-railroad": o.railroad }));
      });
    }
    // Starting routes while players rank them: show what is on offer.
    if (view.phase === "ranking") {
      for (const s of view.starting_routes || []) {
        const g = geo.routes.get(s.route);
        if (g) halos.push(stretch(g, g.a.name, g.route.length, 0, { class: "ws-start-halo", "data-start": s.route }));
      }
    }
    glow.replaceChildren(...halos);
    layer.replaceChildren(...casings, ...parts);

    // City dots: an independent's cities take its colour.
    for (const node of document.querySelectorAll("#ws-cities circle.ws-city")) {
      const color = indieOf.get(node.dataset.city);
      node.style.fill = color || "";
      node.classList.toggle("indie", !!color);
    }
    // Players' active cities: a ring per player in the seat colour, engines as diamonds.
    const rings = [], markers = [];
    const ringCount = new Map();
    for (const p of view.players || []) {
      for (const name of p.active_cities || []) {
        const c = geo.cities.get(name);
        if (!c) continue;
        const k = ringCount.get(name) || 0;
        ringCount.set(name, k + 1);
        rings.push(svg("circle", { cx: c.x, cy: c.y, r: (radius(c) + 2.6 + k * 2.6).toFixed(1), class: "ws-ring", stroke: seatColor(p.seat), "data-seat": p.seat, "data-city": name }));
      }
      if (p.engine_city && geo.cities.has(p.engine_city)) {
        const c = geo.cities.get(p.engine_city);
        const x = c.x - radius(c) - 5, y = c.y - radius(c) - 5;
        const m = svg("rect", { x: (x - 4.5).toFixed(1), y: (y - 4.5).toFixed(1), width: 9, height: 9, transform: `rotate(45 ${x.toFixed(1)} ${y.toFixed(1)})`, class: "ws-engine", fill: seatColor(p.seat), "data-seat": p.seat, "data-city": p.engine_city });
        m.append(svg("title", {}, p.name + "'s engine in " + p.engine_city));
        markers.push(m);
      }
    }
    $("ws-rings").replaceChildren(...rings.reverse());
    $("ws-markers").replaceChildren(...markers);
  }

  // ---- the side panels ------------------------------------------------------------------
  function renderStatus() {
    const round = $("ws-t-round"), phase = $("ws-t-phase"), turn = $("ws-t-turn"), note = $("ws-t-note");
    document.body.dataset.status = status;
    if (!view) {
      round.textContent = "";
      phase.textContent = status === "lobby" ? "Waiting to start" : "Loading…";
      const joined = (summary.seats || []).map((s) => s.name);  // none yet: no colon with nothing after it
      turn.replaceChildren(status !== "lobby" ? "" : joined.length ? "Players are joining: " + joined.join(", ") : "Waiting for players to join");
      $("ws-t-headline").textContent = status === "lobby" ? "Join with code " + code : "";
      $("ws-t-order").replaceChildren();
      note.textContent = "";
      return;
    }
    document.body.dataset.phase = view.phase;
    const last = view.options && view.options.max_rounds;  // a game shortened on the create form: "Round 2 of 3"
    round.textContent = view.round ? "Round " + view.round + (last ? " of " + last : "") : "Setup";
    phase.textContent = PHASES[view.phase] || view.phase;
    let headline = "", noteText = "";
    if (view.phase === "ranking") {
      const waiting = view.players.filter((p) => !p.ranked);
      turn.replaceChildren("Everyone ranks three starting routes");
      noteText = waiting.length ? "Waiting for " + waiting.map((p) => p.name).join(", ") + "." : "";
      headline = "The highlighted routes are the starting routes.";
    } else if (view.phase === "engines") {
      const waiting = view.players.filter((p) => !p.engine_city);
      turn.replaceChildren("Everyone places their engine");
      noteText = waiting.length ? "Waiting for " + waiting.map((p) => p.name).join(", ") + "." : "";
      headline = view.players.map((p) => p.name + ": " + (p.start_route || "?").replace("-", " – ")).join(" · ");
    } else if (view.phase === "finished") {
      // The engine decides: most ties, then money minus debt (view.final.winners, in seat numbers).
      const final = view.final || {};
      const scores = final.scores || [];
      const winnerSeats = final.winners && final.winners.length ? final.winners : scores.length ? [scores[0].seat] : [];
      const won = scores.filter((s) => winnerSeats.includes(s.seat));
      const top = won[0];
      const names = won.map((s) => s.name);
      const nameList = names.length <= 1 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
      const level = top ? scores.filter((s) => s.ties === top.ties) : [];
      turn.replaceChildren(el("span", { id: "ws-t-winner" }, top ? nameList + (won.length > 1 ? " share the win with " : " won with ") + plural(top.ties, "tie") : "Game over"));
      if (top && won.length === 1 && level.length > 1) noteText = "Tiebreak on money minus debt: " + level.map((s) => s.name + " " + money(s.net_worth)).join(", ") + ".";
      else if (top && won.length > 1) noteText = "Level on ties and on money minus debt (" + money(top.net_worth) + ").";
      headline = "Final scores: " + scores.map((s) => s.name + " " + s.ties).join(" · ");
    } else if (view.phase === "auction" && view.auction) {
      const a = view.auction;
      const bidder = a.bidder !== null && a.bidder !== undefined;
      turn.replaceChildren(...(bidder ? [dot(seatColor(a.bidder)), playerName(a.bidder) + (a.choosing ? " chooses a lot" : " bids")] : ["Auction"]));
      noteText = playerName(a.seller) + " is selling track" + (a.lot && a.lot.route ? " (" + String(a.lot.route).replace("-", " – ") + ")" : "")
        + (a.high ? "; high bid " + money(a.high) + (a.high_bidder !== null && a.high_bidder !== undefined ? " by " + playerName(a.high_bidder) : "") : "; no bid yet") + ".";
    } else {
      const current = view.current_seat;
      turn.replaceChildren(dot(seatColor(current), "big"), el("span", {}, el("span", { id: "ws-t-current", "data-seat": current }, playerName(current)), "’s turn"));
      const p = view.players.find((x) => x.seat === current);
      noteText = p ? (p.turn_actions.length ? "Actions so far: " + p.turn_actions.join(", ").replace(/-/g, " ") + "." : "No action taken yet this turn.") : "";
      if (view.go_first !== null && view.go_first !== undefined) noteText += " " + playerName(view.go_first) + " goes first next round.";
    }
    note.textContent = noteText;
    $("ws-t-headline").textContent = headline;
    const order = view.order || [];
    $("ws-t-order").replaceChildren(...order.map((seat) => el("li", { class: "ws-t-chip" + (seat === view.current_seat && view.phase === "play" ? " current" : ""), "data-seat": seat },
      dot(seatColor(seat)), playerName(seat))));
  }

  function renderPlayers() {
    const tbody = $("ws-t-players");
    if (!view) {
      tbody.replaceChildren(...(summary.seats || []).map((s) => el("tr", { "data-seat": s.index }, el("td", {}, dot(seatColor(s.index)), s.name), el("td", { class: "num" }, "–"), el("td", { class: "num" }, "–"), el("td", {}, ""))));
      return;
    }
    const order = view.order && view.order.length ? view.order : view.players.map((p) => p.seat);
    const target = view.options && view.options.target_ties;
    tbody.replaceChildren(...order.map((seat) => view.players.find((p) => p.seat === seat)).filter(Boolean).map((p) => {
      const engine = p.engines && p.engines.length ? shown(p.engines[p.engines.length - 1].slug) : "";
      const held = p.market_contract ? (view.contracts || []).find((c) => c.id === p.market_contract) : null;
      return el("tr", { class: p.seat === view.current_seat && view.phase === "play" ? "current" : "", "data-seat": p.seat },
        el("td", {}, el("div", { class: "ws-t-pname" }, dot(seatColor(p.seat)), el("b", {}, p.name)),
          el("div", { class: "ws-t-psub" }, cityCount((p.active_cities || []).length) + (p.engine_city ? " · engine " + p.engine_city : "") + (held && !held.hidden ? " · holds " + held.commodity + " → " + held.destination : ""))),
        el("td", { class: "num ws-t-ties", title: target ? "first to " + target + " ties" : "" }, String(p.ties)),
        el("td", { class: "num" }, money(p.money), p.debt ? el("div", { class: "ws-t-psub" }, "debt " + money(p.debt)) : null),
        el("td", { class: "ws-t-engine" }, engine));
    }));
  }

  function contractRow(c, extra) {
    return el("li", { class: "ws-t-contract", "data-contract": c.id },
      el("span", { class: "ws-t-cmain" }, el("b", {}, c.commodity), " → ", el("b", {}, c.destination)),
      el("span", { class: "ws-t-cval" }, money(c.value)),
      el("span", { class: "ws-t-cties" }, plural(c.ties, "tie")),
      extra || null);
  }

  function renderMarket() {
    const box = $("ws-t-market");
    if (!view) { box.replaceChildren(el("p", { class: "muted" }, "The market opens once a player owns a Mogul or better.")); return; }
    const byId = new Map((view.contracts || []).map((c) => [c.id, c]));
    const open = (view.market || []).map((id) => byId.get(id)).filter((c) => c && !c.hidden);
    const held = (view.contracts || []).filter((c) => c.type === "market" && c.status === "held" && !c.hidden);
    const parts = [];
    if (!view.market_open) parts.push(el("p", { class: "muted" }, "Closed: the market opens once a player owns a Mogul or better."));
    else if (!open.length) parts.push(el("p", { class: "muted" }, "No open market contracts."));
    if (open.length) parts.push(el("ul", { class: "ws-t-contracts", id: "ws-t-open" }, open.map((c) => contractRow(c))));
    if (held.length) parts.push(el("h3", {}, "Claimed"), el("ul", { class: "ws-t-contracts held" }, held.map((c) => contractRow(c, el("span", { class: "ws-t-holder" }, dot(seatColor(c.holder)), playerName(c.holder))))));
    const privates = (view.contracts || []).filter((c) => c.type === "private" && c.status === "held");
    if (privates.length) parts.push(el("p", { class: "muted ws-t-privnote" }, "Private contracts held: " + privates.map((c) => playerName(c.holder)).join(", ") + " (secret)."));
    box.replaceChildren(...parts);
  }

  function renderLegend() {
    const list = $("ws-t-legend");
    if (!view) { list.replaceChildren(el("li", { class: "muted" }, "Placed when the game starts.")); return; }
    const growthRound = view.growth && view.growth.round;
    const rows = (view.railroads || []).map((r) => {
      const merged = r.acquired_by !== null && r.acquired_by !== undefined;
      return el("li", { class: "ws-t-rr" + (merged ? " merged" : "") + (r.grew_last_round.length ? " grew" : ""), "data-railroad": r.id },
        beads(indieStyle(r.id)),
        el("div", { class: "ws-t-rrbody" },
          el("b", { class: "ws-t-rrname", title: r.name }, r.name),
          merged
            ? el("div", { class: "ws-t-merged" }, dot(seatColor(r.acquired_by)), "merged into " + playerName(r.acquired_by) + "’s railroad" + (r.acquired_round ? " in round " + r.acquired_round : "") + (r.price ? " for " + money(r.price) : ""))
            : el("div", { class: "ws-t-rrmeta", title: r.cities.join(", ") }, plural(r.segments, "segment") + " · " + money(r.price) + " · " + r.cities.join(", ")),
          r.grew_last_round.length && !merged ? el("div", { class: "ws-t-grew" }, "grew" + (growthRound ? " in round " + growthRound : "") + ": " + r.grew_last_round.map((x) => x.replace("-", " – ")).join(", ")) : null));
    });
    list.replaceChildren(...rows);
  }

  // ---- what happened --------------------------------------------------------------------
  function describe(e) {
    const n = playerName;
    const route = (r) => String(r).replace("-", " – ");
    const debtService = (d) => d ? "; debt service on the next delivery: east " + money(d.east) + ", central " + money(d.central) + ", west " + money(d.west) : "";
    switch (e.type) {
      case "game-started": return "The game started.";
      case "routes-ranked": return n(e.seat) + " ranked their starting routes.";
      case "starting-routes": return "Starting routes: " + Object.entries(e.routes).map(([s, r]) => n(Number(s)) + " " + route(r)).join("; ") + ". " + n(e.order[0]) + " goes first.";
      case "engine-placed": return n(e.seat) + " placed their engine in " + e.city + ".";
      case "round-started": return "Round " + e.round + " begins.";
      case "turn-started": return n(e.seat) + "’s turn.";
      case "turn-ended": return n(e.seat) + " ended their turn.";
      case "track-built": return n(e.seat) + " built " + plural(e.segments, "segment") + " on " + route(e.route) + " (" + money(e.cost) + ").";
      case "cities-connected": return n(e.seat) + " reached " + e.cities.join(", ") + ".";
      case "borrowed": return n(e.seat) + " borrowed " + money(e.amount) + " (debt now " + money(e.debt) + debtService(e.debt_service) + ").";
      case "repaid": return n(e.seat) + " repaid " + money(e.amount) + " of debt (debt now " + money(e.debt) + debtService(e.debt_service) + ").";
      case "railroad-grew": return e.name + " grew: " + route(e.route) + ".";
      case "railroads-unchanged": return "No independent railroad grew.";
      case "round-ended": return "Round " + e.round + " ended.";
      case "final-round": return "Final round! (round " + e.round + ")";
      case "engine-bought": return n(e.seat) + " bought a " + e.name + ".";
      case "service-yard-available": return "Service yards are now available.";
      case "contract-fulfilled": return n(e.seat) + " delivered " + e.commodity + " to " + e.destination + ": " + money(e.income) + (e.debt_service ? " less " + money(e.debt_service) + " debt service" : "") + (e.bankrupt ? " — not enough to pay." : ", " + plural(e.ties, "tie") + ".");
      case "offers-dealt": return n(e.seat) + " drew new contract offers.";
      case "offer-chosen": return n(e.seat) + " took a new private contract.";
      case "private-contract-discarded": return n(e.seat) + " discarded their private contract.";
      case "starting-contract-dealt": return n(e.seat) + " got a starting contract.";
      case "market-opened": return "The market is open.";
      case "market-contract-added": return "New market contract: " + e.commodity + " → " + e.destination + " (" + money(e.value) + ").";
      case "market-contract-claimed": return n(e.seat) + " claimed a market contract.";
      case "connection-bonus": return n(e.seat) + " claimed a connection bonus (" + plural(e.ties, "tie") + ").";
      case "railroad-acquired": return n(e.seat) + " merged with " + e.name + " for " + money(e.price) + ".";
      case "upgrade-bought": return n(e.seat) + " bought " + shown(e.upgrade) + ".";
      case "monopoly": return n(e.seat) + " holds the " + e.commodity + " monopoly.";
      case "go-first": return n(e.seat) + " will go first next round.";
      case "action-passed": return n(e.seat) + " passed an action.";
      case "bankruptcy": return n(e.seat) + " went bankrupt: " + money(e.shortfall) + " short, loses " + plural(e.ties_lost, "tie") + ".";
      case "track-sold": return n(e.seat) + " sold their track on " + route(e.route) + " for " + money(e.value) + ".";
      case "bankruptcy-settled": return n(e.seat) + "’s bankruptcy is settled" + (e.unpaid ? " (" + money(e.unpaid) + " forgiven)" : "") + ".";
      case "bid": return n(e.seat) + " bid " + money(e.amount) + " for " + route(e.route) + ".";
      case "lot-chosen": return n(e.seat) + " put " + route(e.route) + " on the block (lowest bid " + money(e.price) + ").";
      case "bid-passed": return n(e.seat) + " passed on this lot.";
      case "lot-sold": return n(e.seat) + " bought " + route(e.route) + " at auction for " + money(e.price) + ".";
      case "lot-unsold": {
        const rr = e.railroad !== null && e.railroad !== undefined ? (view && view.railroads || []).find((r) => r.id === e.railroad) : null;
        return "No bid for " + route(e.route) + (e.railroad !== null && e.railroad !== undefined ? ": it joins " + (rr ? rr.name : "an independent railroad") + "." : ": the route is free again.");
      }
      case "auction-over": return "The auction is over.";
      case "game-over": {
        const names = (e.winners || []).map(n);
        return "Game over in round " + e.round + (names.length ? ": " + names.join(" and ") + (names.length > 1 ? " share the win." : " won.") : ".");
      }
      case "undone": return n(e.seat) + "’s move was undone.";
      default: return Junction.platformEvent(e, n, "’s") || Junction.unknownEvent(e, n);
    }
  }
  const QUIET = new Set(["turn-started"]);
  let feedBusy = false, feedAgain = false;
  async function refreshFeed() {
    if (feedBusy) { feedAgain = true; return; }  // one fetch at a time, so nothing shows twice
    feedBusy = true;
    try {
      const result = await Junction.api("GET", "/api/games/" + encodeURIComponent(code) + "/actions?after=" + lastSeq);
      if (result.ok && Array.isArray(result.data)) {
        const feed = $("ws-t-feed");
        for (const action of result.data) {
          if (action.sequence <= lastSeq) continue;
          lastSeq = action.sequence;
          for (const e of action.events || []) {
            if (QUIET.has(e.type)) continue;
            const seat = e.seat !== undefined && e.seat !== null ? e.seat : null;
            feed.prepend(el("li", { class: "ev-" + e.type, "data-seq": action.sequence }, seat !== null ? dot(seatColor(seat), "small") : null, describe(e)));
          }
        }
        while (feed.children.length > 40) feed.lastChild.remove();
      }
    } finally { feedBusy = false; }
    if (feedAgain) { feedAgain = false; refreshFeed(); }
  }

  // ---- wiring -----------------------------------------------------------------------------
  function renderAll() {
    indieStyles = indieStylesFor(view && view.railroads);
    renderStatus();
    renderPlayers();
    renderMarket();
    renderLegend();
    drawLiveBoard();
  }

  async function loadBoard() {
    for (let attempt = 0; !board && attempt < 20; attempt++) {
      const result = await Junction.api("GET", "/api/wood-and-steel/games/" + encodeURIComponent(code) + "/board");
      if (result.ok) { board = result.data; break; }
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * (attempt + 1))));
    }
    if (board) { drawStaticBoard(); drawLiveBoard(); }
  }

  // The seatless host (this screen holds the host token) hands a seat to a new device: a
  // phone that died comes back (static/js/rejoin.js); once the game is on, a seat whose player
  // is away goes to a bot until they take it back.
  const rejoinPanel = token && typeof JunctionRejoin !== "undefined"
    ? JunctionRejoin.hostPanel(document.querySelector(".ws-t-side"), { code, token, seats: () => summary.seats,
      toBot: (seat) => ["active", "paused"].includes(status) && !seat.is_bot }) : null;
  const rejoinShow = () => {
    if (!rejoinPanel) return;
    rejoinPanel.update(summary.seats);
    rejoinPanel.element.hidden = !["lobby", "active", "paused"].includes(status);
  };

  // Before the start this screen is the table's waiting room (the host that made the game without a
  // seat lands here and stays through the start): who joined, open table or unlisted, and the host's
  // Add a bot, Open table (or Make unlisted), Remove (a person or a bot: games/seating.py) and Start game.
  function renderLobby() {
    const lobby = $("ws-t-lobby");
    lobby.hidden = status !== "lobby";
    if (lobby.hidden) return;
    const seats = summary.seats || [];
    $("ws-t-joined").textContent = seats.length
      ? Junction.plural(seats.length, "player") + " at the table: " + seats.map((s) => s.name).join(", ") + "."
      : "Nobody has joined yet.";
    // The host's controls: a Remove button for each seat, named.
    const list = $("ws-t-seats");
    list.hidden = !token || !seats.length;
    if (token) list.replaceChildren(...seats.map((s) => Junction.el("li", { "data-seat": s.index }, removeButton(s))));
    $("listing-line").textContent = summary.listed
      ? "Open table: listed on the home page for anyone to join."
      : "Unlisted table: only people with the code, the link or the QR code can join or watch.";
    $("listing-toggle").textContent = summary.listed ? "Make unlisted" : "Open table";
    $("ws-t-hostctl").hidden = !token;
    $("ws-t-start").disabled = seats.length < (summary.min_players || 1);
    $("ws-t-addbot").disabled = seats.length >= (summary.max_players || 6);
  }
  async function hostAction(button, method, path, body) {
    const errorBox = $("ws-t-lobby-error");
    Junction.showError(errorBox, "");
    button.disabled = true;
    const result = await Junction.api(method, path, body, token);
    button.disabled = false;
    if (!result.ok) Junction.showError(errorBox, Junction.errorText(result));
    else if (result.data && result.data.game) { summary = result.data.game; status = summary.status; }
    renderLobby();
  }
  function removeButton(seat) {
    const words = "Remove " + seat.name;
    return Junction.el("button", { type: "button", class: "seat-remove", text: words,
      onclick: (e) => hostAction(e.currentTarget, "POST", "/api/games/" + code + "/seats/" + seat.index + "/remove") });
  }
  $("listing-toggle").addEventListener("click", (e) => hostAction(e.currentTarget, "POST", "/api/games/" + code + "/listing", { listed: !summary.listed }));
  $("ws-t-start").addEventListener("click", (e) => hostAction(e.currentTarget, "POST", "/api/games/" + code + "/start"));
  $("ws-t-addbot").addEventListener("click", (e) => hostAction(e.currentTarget, "POST", "/api/games/" + code + "/seats", { bot: "planner" }));

  // The ending at game over: every seat ranked by ties, its ties by source and money minus debt.
  function renderEnding() {
    const box = $("ws-t-ending");
    const ending = view && view.phase === "finished" ? Junction.ending(result, { seats: summary.seats || [], you: null, code, kind: "wood-and-steel",
      title: "Wood and Steel", unit: "tie", part: (p) => p.label + " " + (p.label === "Money minus debt" ? money(p.value) : Junction.number(p.value)) }) : null;
    box.hidden = !ending;
    box.replaceChildren(...(ending ? [ending] : []));
  }

  Junction.connectGame(code, token, {
    onStatus: Junction.liveBadge($("conn")),
    onGame(game) { summary = game; status = game.status; renderAll(); renderLobby(); rejoinShow(); },
    onState(payload) {
      document.body.dataset.version = payload.version;
      status = payload.status || status;
      view = payload.state || null;
      result = payload.result || null;
      renderAll();
      renderEnding();
      renderLobby();
      if (payload.version > 0) refreshFeed();
    },
    onError(error) { Junction.showError($("ws-t-error"), error.message); },
  });

  if (board) drawStaticBoard(); else loadBoard();
  renderAll();
  renderLobby();
  rejoinShow();
})();
