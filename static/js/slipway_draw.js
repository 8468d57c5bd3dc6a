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
  const text = (x, y, words, attrs) => node("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central", class: "sw-t" }, attrs || {}), words);
  const itemMark = (x, y, item, r) => node("g", {}, node("circle", { cx: x, cy: y, r: r || 7, fill: ITEM_FILL[item] || "#999", stroke: "#1b1b1b", "stroke-width": 0.8 }),
    text(x, y, ITEM_MARK[item] || "?", { "font-size": (r || 7) * 1.05, fill: item === "sail" ? "#1b1b1b" : "#fff" }));

  // ---- a ship tile --------------------------------------------------------------------------
  function shipWords(t) {
    const parts = [];
    if (t.cabins) parts.push(t.cabins + " cabin" + (t.cabins > 1 ? "s" : ""));
    if (t.stoker_cabins) parts.push(t.stoker_cabins + " stoker cabin" + (t.stoker_cabins > 1 ? "s" : ""));
    for (const [m, n] of Object.entries(t.mounts || {})) if (n) parts.push(n + " " + m + " mount" + (n > 1 ? "s" : ""));
    for (const s of t.safety || []) parts.push(s);
    return t.part + " " + t.id + " (cost " + t.cost + (parts.length ? ": " + parts.join(", ") : "") + ")";
  }
  /* A ship tile 60×44: the hull by its part (bows point left, the yard's bow end), cabins as windows,
   * stoker cabins dark, rig/crane/cannon mounts and safety items as marks, its cost in the corner. */
  function shipTile(t, opts) {
    const o = opts || {};
    const s = svg(60, 44, o.label === undefined ? shipWords(t) : o.label, "sw-ship");
    const hull = t.part === "bow" ? "M14 10 H60 V36 H14 L2 23 Z" : t.part === "stern" ? "M0 10 H50 Q58 10 58 20 V36 H0 Z" : "M0 10 H60 V36 H0 Z";
    s.append(node("path", { d: hull, fill: t.deck === 2 ? "#d9c7a3" : "#e8dcc2", stroke: "#5b4631", "stroke-width": 1.2 }));
    let x = t.part === "bow" ? 17 : 4;
    for (let i = 0; i < (t.cabins || 0); i++, x += 7) s.append(node("rect", { x, y: 25, width: 5, height: 6, fill: "#fff", stroke: "#5b4631", "stroke-width": 0.8 }));
    for (let i = 0; i < (t.stoker_cabins || 0); i++, x += 7) s.append(node("rect", { x, y: 25, width: 5, height: 6, fill: "#7c2d12" }));
    let mx = t.part === "bow" ? 20 : 8;
    const mounts = t.mounts || {};
    for (let i = 0; i < (mounts.rig || 0); i++, mx += 9) s.append(node("line", { x1: mx, y1: 10, x2: mx, y2: 1, stroke: "#3b2f23", "stroke-width": 2 }));
    for (let i = 0; i < (mounts.crane || 0); i++, mx += 9) s.append(node("path", { d: `M${mx} 10 V2 H${mx + 6} V6`, fill: "none", stroke: "#a16207", "stroke-width": 1.6 }));
    for (let i = 0; i < (mounts.cannon || 0); i++, mx += 9) s.append(node("rect", { x: mx - 1, y: 6, width: 8, height: 3, fill: "#1e293b" }));
    let sx = 56;
    for (const k of t.safety || []) { const f = FEATURE[k]; s.append(node("circle", { cx: sx - 4, cy: 17, r: 3.5, fill: f.fill, stroke: "#1b1b1b", "stroke-width": 0.6 })); sx -= 9; }
    s.append(text(t.part === "stern" ? 8 : 52, 40, "¤" + t.cost, { "font-size": 7, class: "sw-t sw-cost" }));
    return s;
  }
  /* An empty yard slot: a dashed berth with its number (1–8, as the page and the engine's messages count). */
  function emptySlot(number) {
    const s = svg(60, 44, null, "sw-ship sw-empty");
    s.append(node("rect", { x: 1, y: 10, width: 58, height: 26, fill: "none", stroke: "#8b8b8b", "stroke-dasharray": "4 3" }));
    s.append(text(30, 23, String(number), { "font-size": 12, fill: "#555" }));
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
  const SPOT_AT = { N: [30, 9], E: [51, 30], S: [30, 51], W: [9, 30], C: [30, 30] };
  const EDGE_AT = { N: [30, 0], E: [60, 30], S: [30, 60], W: [0, 30] };
  function canalWords(def, rotation) {
    const { mouths, spots } = rotated(def, rotation);
    const feats = Object.entries(spots).filter(([, f]) => f).map(([s, f]) => f + " at " + (s === "C" ? "the centre" : s));
    return (def.name || def.id) + " (cost " + (def.cost || 0) + ", mouths " + mouths.join(" ") + (def.centre ? ", a centre spot" : "") + (feats.length ? "; " + feats.join(", ") : "") + ")";
  }
  /* A canal tile 60×60 turned `rotation`: banks, the water from each mouth to the middle, a circle per
   * spot with its feature's mark. opts.token / opts.path: spots to mark ({spot: step number}). */
  function canalTile(def, rotation, opts) {
    const o = opts || {};
    const s = svg(60, 60, o.label === undefined ? canalWords(def, rotation) : o.label, "sw-canal");
    s.append(node("rect", { x: 0.5, y: 0.5, width: 59, height: 59, fill: "#cfe3b4", stroke: "#5f7a3a" }));
    const { mouths, spots } = rotated(def, rotation);
    for (const m of mouths) s.append(node("line", { x1: EDGE_AT[m][0], y1: EDGE_AT[m][1], x2: 30, y2: 30, stroke: "#3b82c4", "stroke-width": 16, "stroke-linecap": mouths.length === 1 ? "round" : "butt" }));
    if (mouths.length) s.append(node("circle", { cx: 30, cy: 30, r: 8, fill: "#3b82c4" }));
    for (const [spot, feature] of Object.entries(spots)) {
      const [x, y] = SPOT_AT[spot];
      const f = feature ? FEATURE[feature] : null;
      const step = o.path && o.path[spot];
      s.append(node("circle", { cx: x, cy: y, r: 6.5, fill: f ? f.fill : "#e6f0fa", stroke: step ? "#f59e0b" : "#123a63", "stroke-width": step ? 2.5 : 1, class: "sw-spot" + (step ? " sw-on-path" : "") }));
      if (f) s.append(text(x, y, f.mark, { "font-size": 8, fill: f.ink, "font-weight": 700 }));
      if (step) s.append(text(x + (spot === "E" ? -13 : 11), y + (spot === "S" ? -11 : spot === "N" ? 11 : -8), String(step), { "font-size": 8, class: "sw-t sw-step" }));
    }
    if (o.token) {
      const [x, y] = SPOT_AT[o.token];
      s.append(node("circle", { cx: x, cy: y, r: 4, fill: o.tokenColor || "#f59e0b", stroke: "#1b1b1b", "stroke-width": 1.2, class: "sw-token" }));
    }
    if (def.cost) s.append(text(53, 7, "¤" + def.cost, { "font-size": 7, class: "sw-t sw-cost" }));
    return s;
  }

  // ---- an employee, a commodity tile, a contract -----------------------------------------------
  function effectWords(effect, kindNames) {
    const good = (k) => (kindNames && kindNames[k]) || k;
    switch (effect.type) {
      case "trader": return "+" + effect.price + " per " + good(effect.good) + " sold; " + effect.points + " pt" + (effect.points > 1 ? "s" : "") + " (level " + effect.level + ")";
      case "builder": return "+1 " + effect.capacity.replace("_", " ") + " on every ship";
      case "engineer": return "+1 " + effect.item + " with every Manufacture";
      case "recruiter": return "+1 " + effect.item + " with every Recruit";
      case "mover": return effect.steps + " free step" + (effect.steps > 1 ? "s" : "") + " on the " + effect.wheel + " wheel";
      case "speed": return "+1 speed" + (effect.needs === "long" ? " (5+ pieces)" : effect.needs ? " (with a " + effect.needs + ")" : "");
      default: return effect.type;
    }
  }
  /* An employee tile 120×44 with its family's colour band, name, effect and cost. */
  function employeeTile(e, kindNames) {
    const words = e.name + " (" + e.family + ", cost " + e.cost + "): " + effectWords(e.effect, kindNames);
    const s = svg(120, 44, words, "sw-employee");
    s.append(node("rect", { x: 0.5, y: 0.5, width: 119, height: 43, rx: 4, fill: "#fffdf7", stroke: "#6b5b45" }));
    s.append(node("rect", { x: 0.5, y: 0.5, width: 8, height: 43, rx: 2, fill: FAMILY_COLORS[e.family] || "#999" }));
    s.append(text(14, 12, e.name, { "text-anchor": "start", "font-size": 8.5, "font-weight": 700 }));
    s.append(text(14, 29, effectWords(e.effect, kindNames), { "text-anchor": "start", "font-size": 6.5, textLength: 100, lengthAdjust: "spacingAndGlyphs" }));
    s.append(text(112, 12, "¤" + e.cost, { "font-size": 7, class: "sw-t sw-cost" }));
    return s;
  }
  /* A commodity tile: a crate per good in the good's colour, its cost. */
  function commodityTile(g, kindNames) {
    const names = g.goods.map((k) => (kindNames && kindNames[k]) || k);
    const s = svg(60, 36, "Commodity tile " + g.id + ": " + names.join(", ") + " (cost " + g.cost + ")", "sw-goods");
    s.append(node("rect", { x: 0.5, y: 0.5, width: 59, height: 35, rx: 4, fill: "#f3ead8", stroke: "#6b5b45" }));
    g.goods.forEach((k, i) => {
      const x = 6 + i * 16;
      s.append(node("rect", { x, y: 12, width: 13, height: 13, rx: 2, fill: GOOD_COLORS[k] || "#999", stroke: "#1b1b1b", "stroke-width": 0.8 }));
      s.append(text(x + 6.5, 18.5, (names[i] || "?").charAt(0), { "font-size": 7, fill: k === "cotton" ? "#1b1b1b" : "#fff" }));
    });
    s.append(text(53, 7, "¤" + g.cost, { "font-size": 7, class: "sw-t sw-cost" }));
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
  /* The action track, back (left) to front (right): each tile with its cube's seat colour, the tile
   * just moved to the front marked. `colorOf(seat)` gives a seat's colour. */
  function actionTrack(track, front, colorOf, nameOf) {
    const w = 52, h = 54, gap = 4, width = track.length * (w + gap) + 16;
    const words = track.map((t) => t.action + (t.cube !== null && t.cube !== undefined ? " (cube: " + nameOf(t.cube) + ")" : "") + (t.action === front ? " (just moved to the front)" : "")).join(", ");
    const s = svg(width, h + 14, "Action track from the back to the front: " + words, "sw-track");
    track.forEach((t, i) => {
      const x = 2 + i * (w + gap);
      s.append(node("rect", { x, y: 12, width: w, height: h, rx: 4, fill: "#f3ead8", stroke: t.action === front ? "#b45309" : "#6b5b45", "stroke-width": t.action === front ? 3 : 1 }));
      s.append(text(x + w / 2, 24, ACTION_SHORT[t.action] || t.action, { "font-size": 9, "font-weight": 700 }));
      if (t.cube !== null && t.cube !== undefined) s.append(node("rect", { x: x + w / 2 - 9, y: 36, width: 18, height: 18, rx: 2, fill: colorOf(t.cube), stroke: "#1b1b1b", class: "sw-cube" }));
      if (t.action === front) s.append(text(x + w / 2, 6, "moved", { "font-size": 7.5, fill: "#b45309" }));
    });
    const ax = width - 12;
    s.append(node("path", { d: `M${ax} 32 L${ax + 9} 39 L${ax} 46 Z`, fill: "#6b5b45" }));
    return s;
  }

  return { svg, node, shipTile, shipWords, emptySlot, canalTile, canalWords, rotated, employeeTile, effectWords, commodityTile, contract, measureWords,
           itemWheel, employeeWheel, priceRing, actionTrack, itemMark, FEATURE, FAMILY_COLORS, GOOD_COLORS, ITEM_MARK };
})();
