/* Slipway's components drawn as SVG from the kind's data (GET /api/kinds/slipway/content), no image
 * files: a ship tile, a canal tile (turned, with its spots and features), an employee tile (its family's
 * colour), a commodity tile, a contract, the four wheels and the action track. Pure: each function takes
 * data and returns a new <svg> element; nothing here reads the page or knows a rule. */
"use strict";
window.SlipwayDraw = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SIDES = ["N", "E", "S", "W"];
  const FAMILY_COLORS = { trader: "#b3261e", builder: "#1f5fa8", engineer: "#6b6b6b", recruiter: "#2e7d32", mover: "#c99a00", speed: "#0b3d91" };
  const GOOD_COLORS = { coal: "#222222", iron: "#5a6f84", cotton: "#f4f1ea", rum: "#8a4b16" };
  const FEATURE = {  // a spot's feature: its fill and a one-letter mark (the legend names them)
    riband: { fill: "#1d4ed8", mark: "R", ink: "#fff" }, navy: { fill: "#1e293b", mark: "N", ink: "#fff" },
    trade: { fill: "#a16207", mark: "T", ink: "#fff" }, lantern: { fill: "#facc15", mark: "L", ink: "#1b1b1b" },
    lifeboat: { fill: "#f97316", mark: "B", ink: "#1b1b1b" }, lifebuoy: { fill: "#dc2626", mark: "O", ink: "#fff" },
  };
  const ITEM_MARK = { smokestack: "St", sail: "Sa", crane: "Cr", cannon: "Ca", captain: "Cp", stoker: "Sk", marine: "Ma", merchant: "Me" };
  const ITEM_FILL = { smokestack: "#444", sail: "#f8f5ec", crane: "#a16207", cannon: "#1e293b", captain: "#0b3d91", stoker: "#7c2d12", marine: "#b91c1c", merchant: "#15803d" };
  const ACTION_SHORT = { build: "Build", canal: "Canal", commodity: "Goods", equipment: "Equip", crew: "Crew", employee: "Hire", exchange: "Trade", subsidy: "Subsidy" };

  function node(tag, attrs, ...children) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) n.setAttribute(k, String(v));
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) n.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return n;
  }
  /* An <svg> of the given box that scales with its CSS width; `label` is what a screen reader hears. */
  function svg(width, height, label, cls) {
    const attrs = { viewBox: "0 0 " + width + " " + height, class: "sw-svg " + (cls || ""), width, height, focusable: "false" };
    if (label) { attrs.role = "img"; attrs["aria-label"] = label; } else attrs["aria-hidden"] = "true";
    const s = node("svg", attrs);
    if (label) s.append(node("title", {}, label));
    return s;
  }
  // Text's fill is an attribute (a CSS fill on the class would override every white letter on a dark mark).
  const text = (x, y, words, attrs) => node("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central", class: "sw-t", fill: "#1b1b1b" }, attrs || {}), words);
  const itemMark = (x, y, item, r) => node("g", {}, node("circle", { cx: x, cy: y, r: r || 7, fill: ITEM_FILL[item] || "#999", stroke: "#1b1b1b", "stroke-width": 0.8 }),
    text(x, y, ITEM_MARK[item] || "?", { "font-size": (r || 7) * 1.05, fill: item === "sail" ? "#1b1b1b" : "#fff" }));

  // ---- symbols: a ship tile's cabins, mounts and safety items (each with its <title>) ---------------
  const SYMBOL_WORDS = {
    cabin: "cabin (a captain beyond the first, a marine or a merchant)", stoker_cabin: "stoker cabin (a stoker)",
    rig: "rig mount (a sail or a smokestack)", crane: "crane mount (a crane)", cannon: "cannon mount (a cannon)",
    lantern: "lantern (safety item)", lifeboat: "lifeboat (safety item)", lifebuoy: "lifebuoy (safety item)",
  };
  /* One symbol in a 16×16 box whose top left is (x, y), with a <title> naming it. */
  function symbol(kind, x, y) {
    const g = node("g", { class: "sw-sym", "data-sym": kind, transform: "translate(" + x + " " + y + ")" }, node("title", {}, SYMBOL_WORDS[kind] || kind));
    const add = (tag, attrs) => g.append(node(tag, attrs));
    switch (kind) {
      case "cabin":
        add("rect", { x: 0.5, y: 0.5, width: 15, height: 15, rx: 2, fill: "#fff", stroke: "#3b2f23", "stroke-width": 1.4 });
        add("path", { d: "M8 1 V15 M1 8 H15", stroke: "#3b2f23", "stroke-width": 1 });
        break;
      case "stoker_cabin":
        add("rect", { x: 0.5, y: 0.5, width: 15, height: 15, rx: 2, fill: "#5b1a0b", stroke: "#1b1b1b", "stroke-width": 1 });
        add("path", { d: "M8 2.5 C12 6 12.5 9 11.5 11.5 C10.8 13.5 5.2 13.5 4.5 11.5 C3.5 9 5 7.5 6.2 6 C6.4 8 7.4 8.6 8 8.8 C7.2 6.5 7.5 4.5 8 2.5 Z", fill: "#fb923c" });
        break;
      case "rig":
        add("path", { d: "M8 16 V1 M3 5 H13 M4 10 H12", stroke: "#3b2f23", "stroke-width": 2.2, fill: "none" });
        add("path", { d: "M8 1 L13 2.5 L8 4 Z", fill: "#b91c1c" });
        break;
      case "crane":
        add("path", { d: "M4 16 V2 L15 6 M4 6 H15 M14 6 V11", stroke: "#a16207", "stroke-width": 2.2, fill: "none" });
        add("path", { d: "M12 11 H16 L14 14 Z", fill: "#a16207" });
        break;
      case "cannon":
        add("rect", { x: 1, y: 5, width: 14, height: 5, rx: 2.5, fill: "#1e293b", transform: "rotate(-20 8 8)" });
        add("circle", { cx: 6, cy: 12, r: 3.3, fill: "#64748b", stroke: "#1e293b", "stroke-width": 1.2 });
        break;
      case "lantern":
        add("path", { d: "M5 3.5 Q8 0 11 3.5", fill: "none", stroke: "#1b1b1b", "stroke-width": 1.2 });
        add("rect", { x: 3.5, y: 4, width: 9, height: 10.5, rx: 1.5, fill: "#facc15", stroke: "#1b1b1b", "stroke-width": 1.2 });
        add("path", { d: "M8 6 V12.5", stroke: "#b45309", "stroke-width": 2 });
        break;
      case "lifeboat":
        add("path", { d: "M0.5 7 H15.5 L12.5 14 H3.5 Z", fill: "#f97316", stroke: "#1b1b1b", "stroke-width": 1.2 });
        add("path", { d: "M8 7 V1.5 M5 3 H11", stroke: "#1b1b1b", "stroke-width": 1.2 });
        break;
      case "lifebuoy":
        add("circle", { cx: 8, cy: 8, r: 5.5, fill: "none", stroke: "#dc2626", "stroke-width": 4 });
        add("circle", { cx: 8, cy: 8, r: 5.5, fill: "none", stroke: "#fff", "stroke-width": 4, "stroke-dasharray": "2.9 5.74", "stroke-dashoffset": 1.4 });
        add("circle", { cx: 8, cy: 8, r: 7.5, fill: "none", stroke: "#1b1b1b", "stroke-width": 0.6 });
        break;
      default:
        add("circle", { cx: 8, cy: 8, r: 7, fill: "#999" });
    }
    return g;
  }
  /* A legend of the symbols on ship tiles (a list: a drawn symbol and its words each). */
  function legendSymbol(kind) {
    const s = svg(16, 16, null, "sw-sym-svg");
    s.append(symbol(kind, 0, 0));
    return s;
  }

  // ---- a ship tile --------------------------------------------------------------------------
  function shipWords(t) {
    const parts = [];
    if (t.cabins) parts.push(t.cabins + " cabin" + (t.cabins > 1 ? "s" : ""));
    if (t.stoker_cabins) parts.push(t.stoker_cabins + " stoker cabin" + (t.stoker_cabins > 1 ? "s" : ""));
    for (const [m, n] of Object.entries(t.mounts || {})) if (n) parts.push(n + " " + m + " mount" + (n > 1 ? "s" : ""));
    for (const s of t.safety || []) parts.push("a " + s);
    return t.part + (t.deck === 2 ? " (deck 2)" : "") + ", cost " + t.cost + (parts.length ? ", with " + parts.join(", ") : "");
  }
  const SHIP_W = 64, SHIP_H = 64;
  /* A ship tile 64×64 (as wide as a yard slot: about 60 px on a 360 px phone, 84 in the market): its
   * mounts on deck (rig, crane, cannon), the hull by its part (bows point left, the yard's bow end)
   * holding a window per cabin and stoker cabin, then its safety items, three a row; its cost under it.
   * Every symbol carries a <title>; the symbols are big for the tile so that they read when small. */
  function shipTile(t, opts) {
    const o = opts || {};
    const s = svg(SHIP_W, SHIP_H, o.label === undefined ? shipWords(t) : o.label, "sw-ship");
    const hull = t.part === "bow" ? "M11 18 H64 V52 H11 L1 35 Z" : t.part === "stern" ? "M0 18 H52 Q63 18 63 29 V52 H0 Z" : "M0 18 H64 V52 H0 Z";
    s.append(node("path", { d: hull, fill: t.deck === 2 ? "#d9c7a3" : "#eee3cb", stroke: "#5b4631", "stroke-width": 1.3 }));
    const left = t.part === "bow" ? 12 : 3;
    const mounts = t.mounts || {};
    let x = left + 1;
    for (const m of ["rig", "crane", "cannon"]) for (let i = 0; i < (mounts[m] || 0); i++, x += 17) s.append(symbol(m, x, 1));
    const inside = [];
    for (let i = 0; i < (t.cabins || 0); i++) inside.push("cabin");
    for (let i = 0; i < (t.stoker_cabins || 0); i++) inside.push("stoker_cabin");
    inside.push(...(t.safety || []));
    inside.forEach((k, i) => {
      const g = symbol(k, 0, 0);
      g.setAttribute("transform", "translate(" + (left + (i % 3) * 16) + " " + (20 + Math.floor(i / 3) * 16) + ") scale(0.9)");
      s.append(g);
    });
    s.append(text(t.part === "stern" ? 9 : 55, 58.5, "¤" + t.cost, { "font-size": 9, class: "sw-t sw-cost" }));
    if (t.deck === 2) s.append(text(32, 58.5, "II", { "font-size": 8, fill: "#5b4631" }));  // a deck-2 tile (its words say so)
    return s;
  }
  /* An empty yard slot: a dashed berth with its number (1–8, as the page and the engine's messages count). */
  function emptySlot(number) {
    const s = svg(SHIP_W, SHIP_H, null, "sw-ship sw-empty");
    s.append(node("rect", { x: 1, y: 18, width: SHIP_W - 2, height: 34, fill: "none", stroke: "#767676", "stroke-dasharray": "5 4" }));
    s.append(text(SHIP_W / 2, 35, String(number), { "font-size": 14, fill: "#555" }));
    return s;
  }

  // ---- a canal tile -------------------------------------------------------------------------
  const turn = (side, rotation) => SIDES[(SIDES.indexOf(side) + rotation) % 4];
  /* The tile's world mouths and spots ({spot: feature}) once turned `rotation` quarter turns clockwise. */
  function rotated(def, rotation) {
    const mouths = (def.mouths || []).map((m) => turn(m, rotation || 0));
    const spots = {};
    for (const [name, feature] of Object.entries(def.spots || {})) spots[name === "C" ? "C" : turn(name, rotation || 0)] = feature;
    for (const m of mouths) if (!(m in spots)) spots[m] = null;
    if (def.centre && !("C" in spots)) spots.C = null;
    return { mouths, spots };
  }
  const SPOT_AT = { N: [30, 10], E: [50, 30], S: [30, 50], W: [10, 30], C: [30, 30] };
  const EDGE_AT = { N: [30, 0], E: [60, 30], S: [30, 60], W: [0, 30] };
  const SPOT_NAMES = { N: "north mouth", E: "east mouth", S: "south mouth", W: "west mouth", C: "centre" };
  const FEATURE_WORDS = {
    riband: "the Blue Riband (the step number of the last one entered)", navy: "navy official (1 point per marine and cannon)",
    trade: "trade official (1 point per merchant and crane)", lantern: "lantern official (1 point per lantern)",
    lifeboat: "lifeboat official (1 point per lifeboat)", lifebuoy: "lifebuoy official (1 point per lifebuoy)",
  };
  const FEATURE_NAMES = { riband: "Blue Riband", navy: "navy official", trade: "trade official", lantern: "lantern official",
    lifeboat: "lifeboat official", lifebuoy: "lifebuoy official" };
  function canalWords(def, rotation) {
    const { mouths, spots } = rotated(def, rotation);
    const feats = Object.entries(spots).filter(([, f]) => f).map(([s, f]) => FEATURE_NAMES[f] + " at " + (s === "C" ? "the centre" : "the " + SPOT_NAMES[s]));
    const sides = mouths.map((m) => SPOT_NAMES[m].replace(" mouth", ""));
    return (def.name || def.id) + " (cost " + (def.cost || 0) + "; " + (sides.length === 1 ? "a mouth to the " : "mouths to the ") + sides.join(", ") +
      (def.centre ? "; a centre spot" : "") + (feats.length ? "; " + feats.join(", ") : "") + ")";
  }
  const BADGE_R = 5.5;
  const BADGE_PLACES = [[15.5, -45], [15.5, 45], [15.5, 135], [15.5, -135], [15.5, 0], [15.5, 90], [15.5, 180], [15.5, -90],
    [23, -45], [23, 45], [23, 135], [23, -135]];
  /* Where a step badge goes beside the spot at `at`: the first of the places around it (15.5 away, then
   * into a corner of the tile) inside the tile and clear of `keepClear` ([x, y, r] circles); else the clearest. */
  function badgeAt(at, keepClear) {
    let best = null, bestGap = -Infinity;
    for (const [d, deg] of BADGE_PLACES) {
      const x = at[0] + d * Math.cos((deg * Math.PI) / 180), y = at[1] + d * Math.sin((deg * Math.PI) / 180);
      if (x < BADGE_R || x > 60 - BADGE_R || y < BADGE_R || y > 60 - BADGE_R) continue;
      const gap = Math.min(...keepClear.map(([cx, cy, r]) => Math.hypot(x - cx, y - cy) - r - BADGE_R));
      if (gap >= 0.5) return [x, y];
      if (gap > bestGap) { best = [x, y]; bestGap = gap; }
    }
    return best || [at[0], at[1]];
  }
  /* A canal tile 60×60 turned `rotation`: banks, the water from each mouth to the middle, a circle per
   * spot with its feature's letter (and a <title> in words). opts.path: {spot: step number} drawn beside
   * the spots; opts.token: the spot the ship's token is on; opts.left: a tile the cruise left (faded). */
  function canalTile(def, rotation, opts) {
    const o = opts || {};
    const s = svg(60, 60, o.label === undefined ? canalWords(def, rotation) : o.label, "sw-canal" + (o.left ? " sw-left" : ""));
    s.append(node("rect", { x: 0.5, y: 0.5, width: 59, height: 59, fill: o.left ? "#e7eddf" : "#cfe3b4", stroke: "#5f7a3a", "stroke-dasharray": o.left ? "4 3" : null }));
    const { mouths, spots } = rotated(def, rotation);
    const water = o.left ? "#9cc3e6" : "#3b82c4";
    for (const m of mouths) s.append(node("line", { x1: EDGE_AT[m][0], y1: EDGE_AT[m][1], x2: 30, y2: 30, stroke: water, "stroke-width": 18, "stroke-linecap": mouths.length === 1 ? "round" : "butt" }));
    if (mouths.length) s.append(node("circle", { cx: 30, cy: 30, r: 9, fill: water }));
    for (const [spot, feature] of Object.entries(spots)) {
      const [x, y] = SPOT_AT[spot];
      const f = feature ? FEATURE[feature] : null;
      const step = o.path && o.path[spot];
      const g = node("g", { class: "sw-spot-g", "data-spot": spot }, node("title", {}, SPOT_NAMES[spot] + ": " + (f ? FEATURE_WORDS[feature] : "no feature") + (step ? "; step " + step : "")));
      g.append(node("circle", { cx: x, cy: y, r: 8, fill: f ? f.fill : "#e6f0fa", stroke: step ? "#f59e0b" : "#123a63", "stroke-width": step ? 3 : 1, class: "sw-spot" + (step ? " sw-on-path" : "") }));
      if (f) g.append(text(x, y, f.mark, { "font-size": 10, fill: f.ink, "font-weight": 700 }));
      s.append(g);
    }
    // Each step's number in a badge beside its spot, clear of every spot circle (its path ring
    // included), the cost and the other badges, inside the tile.
    const keepClear = Object.keys(spots).map((spot) => [SPOT_AT[spot][0], SPOT_AT[spot][1], 9.5]);
    if (def.cost) keepClear.push([52, 7, 7]);
    const stepped = Object.keys(spots).filter((spot) => o.path && o.path[spot]).sort((a, b) => o.path[a] - o.path[b]);
    for (const spot of stepped) {
      const [bx, by] = badgeAt(SPOT_AT[spot], keepClear);
      keepClear.push([bx, by, BADGE_R]);
      // drawn over every spot (a later spot's circle never covers it)
      s.append(node("g", { class: "sw-step-badge", "data-spot": spot, "aria-hidden": "true" },
        node("circle", { cx: bx, cy: by, r: BADGE_R, fill: "#fff", stroke: "#b45309", "stroke-width": 1.2 }),
        text(bx, by, String(o.path[spot]), { "font-size": 8, "font-weight": 700, class: "sw-t sw-step-no" })));
    }
    if (o.token) {
      const [x, y] = SPOT_AT[o.token];
      s.append(node("circle", { cx: x, cy: y, r: 6, fill: o.tokenColor || "#f59e0b", stroke: "#1b1b1b", "stroke-width": 2, class: "sw-token" }, node("title", {}, "the ship token")));
    }
    if (def.cost) s.append(text(52, 7, "¤" + def.cost, { "font-size": 8, class: "sw-t sw-cost" }));
    return s;
  }

  // ---- an employee, a commodity tile, a contract -----------------------------------------------
  function effectWords(effect, kindNames) {
    const good = (k) => (kindNames && kindNames[k]) || k;
    switch (effect.type) {
      case "trader": return "+" + effect.price + " per " + good(effect.good) + " sold; " + effect.points + " point" + (effect.points === 1 ? "" : "s") + " (level " + effect.level + ")";
      case "builder": return "+1 " + effect.capacity.replace("_", " ") + " on every ship";
      case "engineer": return "+1 " + effect.item + " with every Manufacture";
      case "recruiter": return "+1 " + effect.item + " with every Recruit";
      case "mover": return effect.steps + " free step" + (effect.steps > 1 ? "s" : "") + " on the " + effect.wheel + " wheel";
      case "speed": return "+1 speed" + (effect.needs === "long" ? " (5+ pieces)" : effect.needs ? " (with a " + effect.needs + ")" : "");
      default: return effect.type;
    }
  }
  /* A commodity tile 90×44: a crate per good in the good's colour with its initial (its name and trades
   * in a <title>), its cost. */
  function commodityTile(g, kindNames, kindTrades) {
    const names = g.goods.map((k) => (kindNames && kindNames[k]) || k);
    const s = svg(90, 44, "Commodity tile: " + names.join(", ") + " (cost " + g.cost + ")", "sw-goods");
    s.append(node("rect", { x: 0.5, y: 0.5, width: 89, height: 43, rx: 4, fill: "#f3ead8", stroke: "#6b5b45" }));
    g.goods.forEach((k, i) => {
      const x = 4 + i * 27;
      const trades = kindTrades && kindTrades[k] ? "; sell it, or trade it for a " + kindTrades[k].join(" or a ") : "";
      s.append(node("g", { class: "sw-crate", "data-good": k }, node("title", {}, (names[i] || k) + trades),
        node("rect", { x, y: 14, width: 24, height: 24, rx: 3, fill: GOOD_COLORS[k] || "#999", stroke: "#1b1b1b", "stroke-width": 1 }),
        text(x + 12, 26, (names[i] || "?").charAt(0), { "font-size": 13, "font-weight": 700, fill: k === "cotton" ? "#1b1b1b" : "#fff" })));
    });
    s.append(text(82, 8, "¤" + g.cost, { "font-size": 9, class: "sw-t sw-cost" }));
    return s;
  }
  function measureWords(c) {
    const arg = c.arg === null || c.arg === undefined ? "" : String(c.arg);
    switch (c.measure) {
      case "ships_with": return "ships with a " + arg;
      case "items": return arg + "s on your ships";
      case "ships_min_length": return "ships of " + arg + "+ pieces";
      case "ships_min_speed": return "ships of speed " + arg + "+";
      case "fleet": return "ships in your fleet";
      case "canals_used": return "canal tiles used";
      case "ships_all_safety": return "ships with all three safety items";
      case "safety_items": return "safety items on your ships";
      case "lengths": return "different ship lengths";
      case "ships_sail_and_smokestack": return "ships with a sail and a smokestack";
      case "best_riband": return "your best Blue Riband step";
      case "officers": return "officers (captains beyond the first)";
      default: return c.measure;
    }
  }
  /* A government contract 150×50: its name, what it counts and its table (at least → points). */
  function contract(c) {
    const table = (c.table || []).map(([n, p]) => n + "→" + p).join("  ");
    const s = svg(150, 50, c.name + ": " + measureWords(c) + "; " + table + " points", "sw-contract");
    s.append(node("rect", { x: 0.5, y: 0.5, width: 149, height: 49, rx: 3, fill: "#fbf6e9", stroke: "#7a5c2e" }));
    s.append(text(75, 11, c.name, { "font-size": 8.5, "font-weight": 700, textLength: c.name.length > 26 ? 140 : null, lengthAdjust: "spacingAndGlyphs" }));
    s.append(text(75, 25, measureWords(c), { "font-size": 7, textLength: measureWords(c).length > 34 ? 140 : null, lengthAdjust: "spacingAndGlyphs" }));
    s.append(text(75, 39, table, { "font-size": 7.5, "font-weight": 700 }));
    return s;
  }

  // ---- the wheels and the track ---------------------------------------------------------------
  const polar = (cx, cy, r, a) => [cx + r * Math.sin(a), cy - r * Math.cos(a)];
  function sector(cx, cy, r0, r1, a0, a1) {
    const [x0, y0] = polar(cx, cy, r1, a0), [x1, y1] = polar(cx, cy, r1, a1), [x2, y2] = polar(cx, cy, r0, a1), [x3, y3] = polar(cx, cy, r0, a0);
    return `M${x0} ${y0} A${r1} ${r1} 0 0 1 ${x1} ${y1} L${x2} ${y2} A${r0} ${r0} 0 0 0 ${x3} ${y3} Z`;
  }
  /* A ring of spaces (clockwise from the top) with the marker's space outlined and pointed at.
   * `labels[i]` is a list of {mark, fill} drawn in space i; `title` names the wheel. */
  function ring(title, count, marker, drawSpace, size) {
    const box = size || 140, c = box / 2, r1 = c - 4, r0 = c * 0.42;
    const s = svg(box, box, title, "sw-wheel");
    for (let i = 0; i < count; i++) {
      const a0 = (2 * Math.PI * i) / count, a1 = (2 * Math.PI * (i + 1)) / count;
      const on = i === marker;
      s.append(node("path", { d: sector(c, c, r0, r1, a0, a1), fill: on ? "#fde68a" : i % 2 ? "#f3ead8" : "#ece0c6", stroke: on ? "#b45309" : "#8b7355", "stroke-width": on ? 2.5 : 1 }));
      const [x, y] = polar(c, c, (r0 + r1) / 2, (a0 + a1) / 2);
      drawSpace(s, i, x, y);
    }
    const am = (2 * Math.PI * (marker + 0.5)) / count;
    const [tx, ty] = polar(c, c, r0 - 3, am), [bx1, by1] = polar(c, c, 8, am - 0.5), [bx2, by2] = polar(c, c, 8, am + 0.5);
    s.append(node("path", { d: `M${tx} ${ty} L${bx1} ${by1} L${bx2} ${by2} Z`, fill: "#b45309", class: "sw-marker" }));
    s.append(node("circle", { cx: c, cy: c, r: 6, fill: "#5b4631" }));
    return s;
  }
  /* The equipment or crew wheel: each space's item. */
  function itemWheel(name, items, marker) {
    const title = name + " wheel: " + items.map((it, i) => (i === marker ? "[" + it + "]" : it)).join(", ") + "; the marker is on " + items[marker];
    return ring(title, items.length, marker, (s, i, x, y) => s.append(itemMark(x, y, items[i], 9)));
  }
  /* The employee wheel: its stops (numbered from the marker's next) with how many tiles each holds. */
  function employeeWheel(stops, marker) {
    const n = stops.length;
    const title = "Employee wheel: " + n + " stops of up to 3 employees; the marker is on stop " + (marker + 1);
    return ring(title, n, marker, (s, i, x, y) => {
      s.append(text(x, y - 6, String(i + 1), { "font-size": 11, "font-weight": 700 }));
      (stops[i] || []).forEach((e, k) => s.append(node("rect", { x: x - 10 + k * 7, y: y + 3, width: 5, height: 7, fill: e ? "#6b5b45" : "none", stroke: "#6b5b45", "stroke-width": 0.6 })));
    });
  }
  /* The price ring: every space's four prices (one per good), the marker on the space last used. */
  function priceRing(ring_, kinds, marker) {
    const ids = kinds.map((k) => k.id);
    const title = "Price ring: " + ring_.map((sp, i) => (i === marker ? "[" : "") + ids.map((k) => k + " " + sp[k]).join(" ") + (i === marker ? "]" : "")).join("; ");
    return ring(title, ring_.length, marker, (s, i, x, y) => {
      ids.forEach((k, j) => {
        const dx = (j % 2) * 10 - 5, dy = Math.floor(j / 2) * 10 - 5;
        s.append(node("rect", { x: x + dx - 4.5, y: y + dy - 4.5, width: 9, height: 9, rx: 1.5, fill: GOOD_COLORS[k] || "#999", stroke: "#1b1b1b", "stroke-width": 0.5 }));
        s.append(text(x + dx, y + dy, String(ring_[i][k]), { "font-size": 7, fill: k === "cotton" ? "#1b1b1b" : "#fff" }));
      });
    }, 160);
  }
  /* An action's icon in a 28×28 box at (x, y): a hull, a canal, a crate, a smokestack, a sailor, an
   * employee's badge, the two-way arrows of an exchange, a coin. */
  function actionIcon(action, x, y) {
    const g = node("g", { transform: "translate(" + x + " " + y + ")", class: "sw-action-icon" });
    const add = (tag, attrs) => g.append(node(tag, attrs));
    switch (action) {
      case "build": add("path", { d: "M1 14 H27 L23 24 H5 Z", fill: "#8b5e34", stroke: "#3b2f23" }); add("path", { d: "M14 14 V2 M14 3 L22 10 H14", stroke: "#3b2f23", fill: "#f8f5ec", "stroke-width": 1.4 }); break;
      case "canal": add("rect", { x: 1, y: 1, width: 26, height: 26, fill: "#cfe3b4", stroke: "#5f7a3a" }); add("path", { d: "M14 1 V14 H27", stroke: "#3b82c4", "stroke-width": 8, fill: "none" }); break;
      case "commodity": add("rect", { x: 2, y: 8, width: 12, height: 12, fill: "#222", stroke: "#1b1b1b" }); add("rect", { x: 14, y: 8, width: 12, height: 12, fill: "#8a4b16", stroke: "#1b1b1b" }); add("rect", { x: 8, y: 0, width: 12, height: 8, fill: "#5a6f84", stroke: "#1b1b1b" }); add("path", { d: "M0 24 H28", stroke: "#3b2f23", "stroke-width": 2 }); break;
      case "equipment": add("rect", { x: 9, y: 2, width: 10, height: 18, fill: "#444", stroke: "#1b1b1b" }); add("rect", { x: 7, y: 2, width: 14, height: 4, fill: "#b91c1c" }); add("path", { d: "M3 26 H25 L22 20 H6 Z", fill: "#a16207" }); break;
      case "crew": add("circle", { cx: 14, cy: 7, r: 5, fill: "#f1c27d", stroke: "#3b2f23" }); add("path", { d: "M4 27 Q4 14 14 14 Q24 14 24 27 Z", fill: "#0b3d91" }); add("path", { d: "M8 4 H20 L18 1 H10 Z", fill: "#1b1b1b" }); break;
      case "employee": add("rect", { x: 3, y: 4, width: 22, height: 20, rx: 3, fill: "#fffdf7", stroke: "#6b5b45" }); add("rect", { x: 3, y: 4, width: 5, height: 20, fill: "#1f5fa8" }); add("path", { d: "M11 11 H22 M11 17 H19", stroke: "#6b5b45", "stroke-width": 2 }); break;
      case "exchange": add("path", { d: "M3 9 H22 M17 4 L23 9 L17 14 M25 19 H6 M11 14 L5 19 L11 24", stroke: "#1b1b1b", "stroke-width": 2.2, fill: "none" }); break;
      default: add("circle", { cx: 14, cy: 14, r: 11, fill: "#facc15", stroke: "#a16207", "stroke-width": 2 }); g.append(text(14, 14.5, "2", { "font-size": 12, "font-weight": 700 }));
    }
    return g;
  }
  const ACTION_WORDS = { build: "1–3 ship tiles", canal: "a canal tile", commodity: "a commodity tile", equipment: "an item", crew: "a crew member",
    employee: "an employee", exchange: "sell or trade", subsidy: "+2 coins" };
  /* One action tile 76×96: its name, icon and what it does, the cube on it (in its seat's colour) or
   * the income a cube put there would take (1 per cube nearer the front), the tile just moved marked.
   * tile: {action, cube}; income: a number or null (no income shown). */
  function actionTile(tile, opts) {
    const o = opts || {};
    const cube = tile.cube !== null && tile.cube !== undefined;
    const s = svg(76, 96, o.label, "sw-action");
    s.append(node("rect", { x: 1, y: 1, width: 74, height: 94, rx: 5, fill: o.front ? "#fff7e6" : "#f3ead8", stroke: o.front ? "#b45309" : "#6b5b45", "stroke-width": o.front ? 3 : 1.2 }));
    s.append(text(38, 12, ACTION_SHORT[tile.action] || tile.action, { "font-size": 11, "font-weight": 700 }));
    s.append(actionIcon(tile.action, 10, 22));
    s.append(text(38, 60, ACTION_WORDS[tile.action] || "", { "font-size": 8, textLength: (ACTION_WORDS[tile.action] || "").length > 14 ? 68 : null, lengthAdjust: "spacingAndGlyphs" }));
    if (cube) s.append(node("rect", { x: 44, y: 26, width: 22, height: 22, rx: 3, fill: o.color || "#888", stroke: "#1b1b1b", "stroke-width": 1.5, class: "sw-cube" }));
    if (o.front) s.append(text(38, 82, "just moved", { "font-size": 9, "font-weight": 700, fill: "#9a3412" }));
    else if (cube) s.append(text(38, 82, o.cubeName || "", { "font-size": 9, textLength: (o.cubeName || "").length > 12 ? 66 : null, lengthAdjust: "spacingAndGlyphs" }));
    else if (o.income !== null && o.income !== undefined) s.append(text(38, 82, "income +" + o.income, { "font-size": 10, "font-weight": 700, fill: "#14532d", class: "sw-t sw-income" }));
    return s;
  }

  return { svg, node, shipTile, shipWords, emptySlot, canalTile, canalWords, rotated, effectWords, commodityTile, contract, measureWords,
           itemWheel, employeeWheel, priceRing, actionTile, itemMark, symbol, legendSymbol, SYMBOL_WORDS, FEATURE_WORDS, FEATURE_NAMES, FEATURE, FAMILY_COLORS, GOOD_COLORS, ITEM_MARK };
})();
