/* Junction.RailMap: the hex-milepost map shared by the crayon-rail games (Resourceful Rails,
 * the fantasy rail game), drawn in SVG from a junction/rail-map@1 map and nothing else:
 * terrain, cities and their goods, rivers and other crossings, links, the players' track,
 * trains, a planned path and marked mileposts. Pan by dragging or with the arrow keys; zoom
 * with the wheel, two fingers, + and - or the buttons; a tap reports the nearest milepost.
 *
 * Positions are games/engines/rail_core/hexgrid.py's pixel centres for hexes of SIZE (both
 * layouts, y growing downward), so a milepost sits where the engine's geometry puts it.
 * Terrain is a few combined paths (one per terrain), not a node per milepost: the first draw
 * of a 1,720-milepost map stays fast on a slow phone. Sizes meant for the eye (labels, line
 * widths, trains) follow the zoom through one CSS variable, --rm-u (map units per CSS pixel).
 * No inline style attributes (the site's Content-Security-Policy): SVG presentation
 * attributes and CSSOM only. Needs junction.js (the Junction namespace) loaded first.
 * A map with a `sea` (sea points [l, q, r], no mileposts: a fantasy map's ships sail them)
 * draws them as water hexes; trains may stand at a sea point (a ship at sea), taps may choose
 * sea points (setSeaTaps), and areas (an event's mileposts, milepost pairs and sea points) are
 * drawn as an overlay (setAreas). */
"use strict";
Junction.RailMap = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SIZE = 10;  // a hex's size (centre to corner) in map units: hexgrid.pixel's `size`
  const SQRT3 = Math.sqrt(3);
  const STEP = SQRT3 * SIZE;  // between two neighbouring mileposts
  const TAP_REACH = 0.6 * STEP;  // a tap further than this from every milepost is no tap
  const DRAG_PX = 8;  // a pointer that moves less than this (CSS px) between down and up taps
  const MAX_STEP_PX = 110;  // closest zoom: neighbouring mileposts this far apart on screen
  const GOODS_STEP_PX = 30;  // goods show once neighbouring mileposts are this far apart
  const LABEL_PX = 12, GOODS_PX = 11;  // label sizes on screen (match railmap.css)
  const CONTROLS_PX = 56;  // the zoom buttons' column at the right (railmap.css .rm-controls), kept clear by fit
  const LAYOUTS = ["odd-q-up", "odd-r"];
  // The seats' colour names in the site's palette (Junction.PALETTE, Okabe–Ito: static/js/junction.js);
  // any other CSS colour passes. Without junction.js (a test page), the same eight in seat order.
  const SITE = typeof Junction !== "undefined" && Junction.PALETTE ? Junction : null;
  const OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"];
  const FALLBACK_COLORS = SITE ? SITE.PALETTE.map((c) => c.hex) : OKABE_ITO;
  // Terrains other than clear and mountain: a shape and a fill each, in order of first use.
  const OTHER_SHAPES = ["square", "diamond", "plus", "bar", "pentagon", "star"];
  const OTHER_FILLS = ["#3f7a34", "#2f6f8f", "#8a6a1d", "#6b4a8a", "#8a3b3b", "#406060"];

  const fmt = (v) => Math.round(v * 100) / 100;
  let uid = 0;

  // ---- geometry (rail_core/hexgrid.py) --------------------------------------------------------

  /* Centre of the hex at offset (q, r), hexgrid.pixel's formula: [x, y], y downward. */
  function pixel(layout, q, r, size) {
    const s = size === undefined ? SIZE : size;
    if (layout === "odd-q-up") return [1.5 * s * q, -SQRT3 * s * (r + 0.5 * (q & 1))];
    if (layout === "odd-r") return [SQRT3 * s * (q + 0.5 * (r & 1)), 1.5 * s * r];
    throw new Error("RailMap: unknown hex layout " + JSON.stringify(layout) + "; expected odd-q-up or odd-r");
  }

  /* The six corners of the hex centred at (x, y): flat-top for odd-q-up, pointy-top for odd-r. */
  function corners(layout, x, y, size) {
    const s = size === undefined ? SIZE : size;
    const offset = layout === "odd-q-up" ? 0 : 30;
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = (60 * i - offset) * Math.PI / 180;
      out.push([x + s * Math.cos(a), y + s * Math.sin(a)]);
    }
    return out;
  }

  /* "l,q,r" or [l, q, r] → [l, q, r] (integers), or null. */
  function parseKey(value) {
    const parts = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : null;
    if (!parts || parts.length !== 3) return null;
    const out = parts.map((p) => (typeof p === "string" && p.trim() !== "" ? Number(p) : p));
    return out.every((n) => typeof n === "number" && Number.isInteger(n)) ? out : null;
  }
  const keyOf = (value) => { const at = parseKey(value); return at ? at.join(",") : null; };

  /* The edge key of a milepost pair, as the rail core writes it (pair_key): the two keys in
   * coordinate order joined by "|". */
  function edgeKey(a, b) {
    let x = parseKey(a), y = parseKey(b);
    if (!x || !y) return null;
    for (let i = 0; i < 3; i++) {
      if (x[i] === y[i]) continue;
      if (y[i] < x[i]) [x, y] = [y, x];
      break;
    }
    return x.join(",") + "|" + y.join(",");
  }

  // ---- shapes as path data (map units) -------------------------------------------------------
  /* A hex as path data: its first corner absolute, the other five relative ("l…z"), the same short
   * tail for every hex of a layout (a map's thousands of hexes are one path: less to parse). */
  const hexTails = new Map();
  function hexPath(layout, x, y) {
    let tail = hexTails.get(layout);
    if (tail === undefined) {
      const cs = corners(layout, 0, 0);
      tail = "l" + cs.slice(1).map((p, i) => fmt(p[0] - cs[i][0]) + " " + fmt(p[1] - cs[i][1])).join(" ") + "Z";
      hexTails.set(layout, tail);
    }
    const [x0, y0] = corners(layout, x, y)[0];
    return "M" + fmt(x0) + " " + fmt(y0) + tail;
  }


  const dot = (x, y, r) => `M${fmt(x - r)} ${fmt(y)}a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(2 * r)} 0a${fmt(r)} ${fmt(r)} 0 1 0 ${fmt(-2 * r)} 0Z`;
  const polygon = (points) => "M" + points.map(([x, y]) => fmt(x) + " " + fmt(y)).join("L") + "Z";
  function regular(x, y, r, n, turn) {
    const pts = [];
    for (let i = 0; i < n; i++) { const a = turn + 2 * Math.PI * i / n; pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]); }
    return pts;
  }
  const SHAPES = {
    dot: (x, y) => dot(x, y, 0.17 * SIZE),
    mountain: (x, y) => polygon([[x, y - 0.42 * SIZE], [x + 0.4 * SIZE, y + 0.26 * SIZE], [x - 0.4 * SIZE, y + 0.26 * SIZE]]),
    square: (x, y) => { const h = 0.24 * SIZE; return polygon([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]); },
    diamond: (x, y) => polygon(regular(x, y, 0.34 * SIZE, 4, -Math.PI / 2)),
    plus: (x, y) => {
      const a = 0.1 * SIZE, b = 0.32 * SIZE;
      return polygon([[x - a, y - b], [x + a, y - b], [x + a, y - a], [x + b, y - a], [x + b, y + a], [x + a, y + a],
                      [x + a, y + b], [x - a, y + b], [x - a, y + a], [x - b, y + a], [x - b, y - a], [x - a, y - a]]);
    },
    bar: (x, y) => { const w = 0.36 * SIZE, h = 0.12 * SIZE; return polygon([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]]); },
    pentagon: (x, y) => polygon(regular(x, y, 0.3 * SIZE, 5, -Math.PI / 2)),
    star: (x, y) => {
      const outer = regular(x, y, 0.38 * SIZE, 5, -Math.PI / 2), inner = regular(x, y, 0.16 * SIZE, 5, -Math.PI / 2 + Math.PI / 5);
      const pts = [];
      for (let i = 0; i < 5; i++) pts.push(outer[i], inner[i]);
      return polygon(pts);
    },
  };

  /* The side two neighbouring hexes share: perpendicular to the line between their centres,
   * through its midpoint, one hex size long (the two corners the hexes have in common). */
  function sharedSide(a, b) {
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const px = -dy / len * SIZE / 2, py = dx / len * SIZE / 2;
    return [[mx + px, my + py], [mx - px, my - py]];
  }

  /* Segments as one path, joining a segment to the one before where they touch. */
  function chain(segments) {
    let d = "", last = null;
    const same = (p, q) => q && Math.abs(p[0] - q[0]) < 1e-6 && Math.abs(p[1] - q[1]) < 1e-6;
    for (const [p, q] of segments) {
      if (same(p, last)) { d += `L${fmt(q[0])} ${fmt(q[1])}`; last = q; }
      else if (same(q, last)) { d += `L${fmt(p[0])} ${fmt(p[1])}`; last = p; }
      else { d += `M${fmt(p[0])} ${fmt(p[1])}L${fmt(q[0])} ${fmt(q[1])}`; last = q; }
    }
    return d;
  }

  /* The outline of a set of hexes (a major city's seven): the sides only one of them has,
   * walked into closed rings. */
  function outline(layout, cells) {
    const pk = (p) => fmt(p[0]) + "," + fmt(p[1]);
    const sides = new Map();
    for (const c of cells) {
      const cs = corners(layout, c.x, c.y);
      for (let i = 0; i < 6; i++) {
        const p = cs[i], q = cs[(i + 1) % 6];
        const k = [pk(p), pk(q)].sort().join("|");
        if (sides.has(k)) sides.get(k).n++; else sides.set(k, { p, q, n: 1 });
      }
    }
    const edges = [...sides.values()].filter((s) => s.n === 1);
    const from = new Map();
    for (const e of edges) {
      for (const [a, b] of [[e.p, e.q], [e.q, e.p]]) {
        if (!from.has(pk(a))) from.set(pk(a), []);
        from.get(pk(a)).push({ e, to: b });
      }
    }
    const used = new Set();
    let d = "";
    for (const start of edges) {
      if (used.has(start)) continue;
      used.add(start);
      const ring = [start.p, start.q];
      for (let at = start.q; ;) {
        const next = (from.get(pk(at)) || []).find((x) => !used.has(x.e));
        if (!next) break;
        used.add(next.e);
        at = next.to;
        if (pk(at) === pk(ring[0])) break;
        ring.push(at);
      }
      d += polygon(ring);
    }
    return d;
  }

  // ---- the map's data ----------------------------------------------------------------------------

  function indexMap(data) {
    if (!data || typeof data !== "object") throw new TypeError("RailMap: the map must be a junction/rail-map@1 object");
    const layout = data.layout;
    if (!LAYOUTS.includes(layout)) throw new Error("RailMap: unknown hex layout " + JSON.stringify(layout) + "; expected odd-q-up or odd-r");
    const cities = new Map();
    for (const c of Array.isArray(data.cities) ? data.cities : []) if (c && typeof c.id === "string") cities.set(c.id, c);
    const nodes = [], byKey = new Map();
    for (const raw of Array.isArray(data.nodes) ? data.nodes : []) {
      const at = parseKey(raw && raw.at);
      if (!at) continue;
      const [x, y] = pixel(layout, at[1], at[2]);
      const node = { key: at.join(","), layer: at[0], q: at[1], r: at[2], x, y,
                     terrain: typeof raw.terrain === "string" ? raw.terrain : "", city: cities.has(raw.city) ? raw.city : null, raw };
      nodes.push(node);
      byKey.set(node.key, node);
    }
    // Sea points: water a ship sails, not mileposts (no terrain, no track); keyed like mileposts.
    const sea = [], seaByKey = new Map();
    for (const raw of Array.isArray(data.sea) ? data.sea : []) {
      const at = parseKey(raw);
      if (!at || byKey.has(at.join(","))) continue;
      const [x, y] = pixel(layout, at[1], at[2]);
      const node = { key: at.join(","), layer: at[0], q: at[1], r: at[2], x, y, terrain: "sea", city: null, sea: true, raw: { at } };
      sea.push(node);
      seaByKey.set(node.key, node);
    }
    const layers = (Array.isArray(data.layers) ? data.layers : []).filter((l) => l && Number.isInteger(l.id));
    if (!layers.length) layers.push({ id: 0, name: "surface" });
    const find = (key) => byKey.get(key) || seaByKey.get(key);
    return { data, layout, cities, nodes, byKey, layers, sea, seaByKey, find };
  }

  function svgEl(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.setAttribute("class", v);
      else if (k === "text") node.textContent = String(v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }
  const titled = (node, title) => { if (title) node.prepend(svgEl("title", { text: title })); return node; };

  function icon(d) {
    return svgEl("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", focusable: "false", class: "rm-icon" },
      svgEl("path", { d, fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  }

  function colorOf(value, seat) {
    if (typeof value === "string" && value.trim()) return (SITE && SITE.seatColor(value, null)) || value.trim();
    const n = Number(seat);
    return FALLBACK_COLORS[Number.isInteger(n) && n >= 0 ? n % FALLBACK_COLORS.length : 0];
  }

  // ---- one map on the page -------------------------------------------------------------------

  /* Draw `mapData` (junction/rail-map@1) into `container` (an empty element the page sizes;
   * railmap.css gives it a height). options: {colors: {seat: colour}, onTap(key, info),
   * label(city) → text, goodsNames: {id: name} or (id) → name, goodsKey: the cities' key listing what
   * they offer ("goods" unless given: the map format leaves it to the title), ariaLabel, layer, seaTaps,
   * shrinkToFit (the whole map shown in a box taller than the map's shape: the box takes the map's height)}. */
  function create(container, mapData, options) {
    if (!container || !container.append) throw new TypeError("RailMap: a container element is needed");
    const opts = Object.assign({}, options);
    const m = indexMap(mapData);
    const id = "railmap-" + (++uid);
    let colors = Object.assign({}, opts.colors);
    // The layer drawn: the option's if the map has it, else layer 0, else the first listed.
    const hasLayer = (lid) => m.layers.some((l) => l.id === lid);
    let layer = opts.layer !== null && opts.layer !== undefined && opts.layer !== "" && hasLayer(Number(opts.layer)) ? Number(opts.layer)
      : (hasLayer(0) ? 0 : m.layers[0].id);
    let track = {}, trains = [], plan = null, areas = [], linkStates = {}, seaTaps = !!opts.seaTaps;
    const marks = new Map();  // class name → keys
    let onLayer = [], tapNodes = [], xs = new Float64Array(0), ys = new Float64Array(0);
    let bounds = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
    let labels = [], trainMarks = [];
    let view = { cx: 0, cy: 0, u: 1 }, W = 0, H = 0, lastU = null, fitted = true, destroyed = false;

    const goodsName = (gid) => {
      const g = opts.goodsNames;
      if (typeof g === "function") return g(gid) || gid;
      if (g instanceof Map) return g.get(gid) || gid;
      if (g && typeof g === "object" && typeof g[gid] === "string") return g[gid];
      return String(gid);
    };
    const cityName = (city) => {
      const custom = typeof opts.label === "function" ? opts.label(city) : null;
      return custom !== null && custom !== undefined && custom !== "" ? String(custom) : String(city.name || city.id);
    };
    const layerName = (lid) => { const l = m.layers.find((x) => x.id === lid); return (l && l.name) || "layer " + lid; };

    // The page's element: focusable, labelled, with the keys explained.
    const added = { tabindex: !container.hasAttribute("tabindex"), role: !container.hasAttribute("role"), label: container.getAttribute("aria-label"),
                    describedby: container.getAttribute("aria-describedby") };
    container.classList.add("railmap");
    if (added.tabindex) container.setAttribute("tabindex", "0");
    if (added.role) container.setAttribute("role", "group");
    if (opts.ariaLabel || added.label === null) container.setAttribute("aria-label", opts.ariaLabel || (m.data.name ? "Map: " + m.data.name : "Map"));
    container.setAttribute("aria-roledescription", "map");
    const help = Junction.el("p", { class: "sr-only", id: id + "-help" },
      "Drag or use the arrow keys to move the map; the wheel, two fingers, plus and minus zoom; zero shows the whole map. " +
      "Tap a milepost to choose it; with the keyboard, Enter chooses the milepost under the cross in the middle.");
    container.setAttribute("aria-describedby", (added.describedby ? added.describedby + " " : "") + help.id);

    // The drawing itself is hidden from screen readers: the container names the map and
    // explains its keys; what is on it (cities, track) is the page's to say in words.
    const svg = svgEl("svg", { class: "rm-svg", "data-layout": m.layout, "aria-hidden": "true", focusable: "false",
                               preserveAspectRatio: "xMidYMid meet", viewBox: "0 0 1 1" });
    const groups = {};
    const root = svgEl("g", { class: "rm-map" });
    for (const name of ["sea", "land", "majors", "crossings", "terrain", "areas", "cities", "links", "track", "path", "marks", "trains", "labels"]) {
      groups[name] = svgEl("g", { class: "rm-g-" + name });
      root.append(groups[name]);
    }
    svg.append(root);
    const button = (cls, label, d, onclick) =>
      Junction.el("button", { type: "button", class: "rm-" + cls, "aria-label": label, title: label, onclick }, icon(d));
    const controls = Junction.el("div", { class: "rm-controls" },
      button("zoom-in", "Zoom in", "M5 12h14M12 5v14", () => { unfit(); zoomBy(1 / 1.6); }),
      button("zoom-out", "Zoom out", "M5 12h14", () => { unfit(); zoomBy(1.6); }),
      button("fit", "Show the whole map", "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5", () => fit()));
    const crosshair = Junction.el("div", { class: "rm-crosshair", "aria-hidden": "true" });
    container.append(svg, controls, crosshair, help);

    // ---- drawing ----------------------------------------------------------------------------

    function drawBase() {
      for (const name of ["sea", "land", "majors", "crossings", "terrain", "cities", "links", "labels"]) groups[name].replaceChildren();
      container.dataset.layer = String(layer);
      onLayer = m.nodes.filter((n) => n.layer === layer);
      xs = Float64Array.from(onLayer, (n) => n.x);
      ys = Float64Array.from(onLayer, (n) => n.y);
      if (onLayer.length) {
        bounds = { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
      } else {
        bounds = { minX: 0, minY: 0, maxX: STEP, maxY: STEP };
      }
      setTapNodes();

      // The sea: every sea point's hex, one path (under the land).
      const seaHere = m.sea.filter((n) => n.layer === layer);
      if (seaHere.length) groups.sea.append(svgEl("path", { class: "rm-sea", fill: "#b9d4e6", "data-count": seaHere.length, d: seaHere.map((n) => hexPath(m.layout, n.x, n.y)).join("") }));
      const here = (key) => { const n = m.byKey.get(keyOf(key)); return n && n.layer === layer ? n : null; };

      // Land: every milepost's hex, one path.
      groups.land.append(svgEl("path", { class: "rm-hexes", d: onLayer.map((n) => hexPath(m.layout, n.x, n.y)).join("") }));

      // Cities: the markers, one group each; names (and goods) as labels, placed by zoom.
      labels = [];
      const cityNodes = new Map();
      for (const n of onLayer) if (n.city) { if (!cityNodes.has(n.city)) cityNodes.set(n.city, []); cityNodes.get(n.city).push(n); }
      for (const [cid, cells] of cityNodes) {
        const city = m.cities.get(cid);
        const size = ["small", "medium", "major"].includes(city.size) ? city.size : "small";
        const name = cityName(city);
        const offered = city[opts.goodsKey || "goods"];
        const goods = (Array.isArray(offered) ? offered : []).map(goodsName);
        const title = name + (goods.length ? " — " + goods.join(", ") : "");
        const g = svgEl("g", { class: "rm-city rm-city-" + size, "data-city": cid });
        let x, y, bottom;
        if (size === "major") {
          x = cells.reduce((s, c) => s + c.x, 0) / cells.length;  // the label hangs under the lowest corner
          g.append(svgEl("path", { class: "rm-major", d: outline(m.layout, cells) }));
          groups.majors.append(titled(g, title));
          bottom = Math.max(...cells.map((c) => Math.max(...corners(m.layout, c.x, c.y).map((p) => p[1]))));
        } else {
          [x, y] = [cells[0].x, cells[0].y];
          const h = size === "medium" ? 0.62 * SIZE : 0.5 * SIZE;
          g.append(svgEl("path", { class: "rm-town", d: size === "medium" ? polygon([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]) : dot(x, y, h) }));
          groups.cities.append(titled(g, title));
          bottom = y + h;
        }
        addLabel({ x, y: bottom, name, goods: goods.join(" · "), cls: "rm-label-" + size, city: cid, rank: { major: 0, medium: 1, small: 2 }[size] });
      }
      // Named mileposts that are no city (a fantasy map's places) are labelled last.
      for (const n of onLayer) {
        if (!n.city && typeof n.raw.name === "string" && n.raw.name) addLabel({ x: n.x, y: n.y + 0.3 * SIZE, name: n.raw.name, goods: "", cls: "rm-label-place", rank: 3 });
      }

      // Terrain: one path per terrain; city mileposts but a major city's carry no mark.
      const byTerrain = new Map();
      for (const n of onLayer) {
        if (n.city && m.cities.get(n.city).size !== "major") continue;
        if (!byTerrain.has(n.terrain)) byTerrain.set(n.terrain, []);
        byTerrain.get(n.terrain).push(n);
      }
      let other = 0;
      const terrains = [];
      for (const [terrain, list] of byTerrain) {
        let shape, cls, fill = null;
        if (terrain === "clear") { shape = "dot"; cls = "rm-clear"; }
        else if (terrain === "mountain") { shape = "mountain"; cls = "rm-mountain"; }
        else { shape = OTHER_SHAPES[other % OTHER_SHAPES.length]; fill = OTHER_FILLS[other % OTHER_FILLS.length]; cls = "rm-other"; other++; }
        const draw = SHAPES[shape];
        groups.terrain.append(titled(svgEl("path", { class: "rm-terrain " + cls, "data-terrain": terrain, "data-shape": shape, "data-count": list.length,
                                                     fill, d: list.map((n) => draw(n.x, n.y)).join("") }), terrain || "terrain"));
        terrains.push({ terrain, shape, fill: fill || null, count: list.length });
      }
      api.terrains = terrains;
      const ports = onLayer.filter((n) => n.raw.port === true);
      if (ports.length) groups.cities.append(titled(svgEl("path", { class: "rm-port", d: ports.map((n) => dot(n.x, n.y, 0.68 * SIZE)).join("") }), "port"));

      // Crossings: the side each pair shares (a river a blue line, any other kind dashed).
      for (const group of Array.isArray(m.data.crossings) ? m.data.crossings : []) {
        const sides = [];
        for (const pair of Array.isArray(group.edges) ? group.edges : []) {
          const a = here(pair && pair[0]), b = here(pair && pair[1]);
          if (a && b) sides.push(sharedSide(a, b));
        }
        if (!sides.length) continue;
        const kind = String(group.kind || "crossing");
        groups.crossings.append(titled(svgEl("path", { class: kind === "river" ? "rm-river" : "rm-crossing", "data-kind": kind, "data-name": group.name || kind,
                                                       "data-pairs": sides.length, d: chain(sides) }), group.name || kind));
      }

      // Links: a dashed curve between two mileposts of this layer; a ring where one leads to another layer.
      const curve = (a, b) => {
        const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, dx = b.x - a.x, dy = b.y - a.y;
        return `M${fmt(a.x)} ${fmt(a.y)}Q${fmt(mx - dy * 0.2)} ${fmt(my + dx * 0.2)} ${fmt(b.x)} ${fmt(b.y)}`;
      };
      const middle = (list) => ({ x: list.reduce((t, n) => t + n.x, 0) / list.length, y: list.reduce((t, n) => t + n.y, 0) / list.length });
      for (const group of Array.isArray(m.data.links) ? m.data.links : []) {
        let curves = "", rings = "", far = new Set();
        const sameLayer = [];
        for (const pair of Array.isArray(group.edges) ? group.edges : []) {
          const ka = keyOf(pair && pair[0]), kb = keyOf(pair && pair[1]);
          const a = m.byKey.get(ka), b = m.byKey.get(kb);
          if (!a || !b) continue;
          if (a.layer === layer && b.layer === layer) {
            sameLayer.push([a, b]);
            curves += curve(a, b);
          } else if (a.layer === layer || b.layer === layer) {
            const [near, away] = a.layer === layer ? [a, b] : [b, a];
            rings += dot(near.x, near.y, 0.62 * SIZE);
            far.add(layerName(away.layer));
          }
        }
        // Many pairs between two places (a link from any milepost of one city to any of another):
        // one curve between the middles of the two ends, not a sheaf of them.
        if (sameLayer.length > 4) curves = curve(middle([...new Set(sameLayer.map((p) => p[0]))]), middle([...new Set(sameLayer.map((p) => p[1]))]));
        const name = group.name || group.kind || "link";
        const enabled = typeof linkStates[name] === "boolean" ? linkStates[name] : group.enabled !== false;
        const attrs = { "data-kind": group.kind, "data-name": name, "data-enabled": enabled ? "true" : "false" };
        if (curves) groups.links.append(titled(svgEl("path", Object.assign({ class: "rm-link", d: curves }, attrs)), name));
        if (rings) groups.links.append(titled(svgEl("path", Object.assign({ class: "rm-portal", d: rings }, attrs)), name + " (to " + [...far].join(", ") + ")"));
      }

      for (const l of labels) groups.labels.append(l.el);
      drawAreas();
      drawTrack();
      drawPath();
      drawMarks();
      drawTrains();
      lastU = null;
    }

    /* What a tap may choose on this layer: its mileposts, and its sea points while sea taps are on. */
    function setTapNodes() {
      tapNodes = seaTaps ? onLayer.concat(m.sea.filter((n) => n.layer === layer)) : onLayer;
      xs = Float64Array.from(tapNodes, (n) => n.x);
      ys = Float64Array.from(tapNodes, (n) => n.y);
    }

    /* Areas (an event's): each a group of its mileposts' and sea points' hexes on this layer and
     * the shared sides of its milepost pairs, with its class and id. */
    function drawAreas() {
      groups.areas.replaceChildren();
      for (const a of areas) {
        const cells = [], sides = [];
        for (const k of a.nodes) { const n = m.find(keyOf(k)); if (n && n.layer === layer) cells.push(n); }
        for (const k of a.sea) { const n = m.seaByKey.get(keyOf(k)); if (n && n.layer === layer) cells.push(n); }
        for (const pair of a.pairs) {
          const [ka, kb] = Array.isArray(pair) ? pair : String(pair).split("|");
          const p = m.byKey.get(keyOf(ka)), q = m.byKey.get(keyOf(kb));
          if (p && q && p.layer === layer && q.layer === layer) sides.push(sharedSide(p, q));
        }
        const g = svgEl("g", { class: "rm-area" + (a.cls ? " " + a.cls : ""), "data-area": a.id, "data-count": cells.length + sides.length,
                               "data-total": a.nodes.length + a.sea.length + a.pairs.length });
        if (cells.length) g.append(svgEl("path", { class: "rm-area-cells", fill: "#b3261e", "fill-opacity": 0.22, d: cells.map((n) => hexPath(m.layout, n.x, n.y)).join("") }));
        if (sides.length) g.append(svgEl("path", { class: "rm-area-sides", fill: "none", stroke: "#b3261e", d: chain(sides) }));
        groups.areas.append(titled(g, a.label));
      }
    }

    function addLabel(spec) {
      const el = svgEl("text", { class: "rm-label " + spec.cls, x: fmt(spec.x), y: fmt(spec.y), "data-city": spec.city || null },
        svgEl("tspan", { class: "rm-name", x: fmt(spec.x), dy: "1em", text: spec.name }));
      if (spec.goods) el.append(svgEl("tspan", { class: "rm-goods", x: fmt(spec.x), dy: "1.2em", text: spec.goods }));
      labels.push(Object.assign({ el, shown: true }, spec));
    }

    function drawTrack() {
      groups.track.replaceChildren();
      const bySeat = new Map();
      let casing = "";
      for (const [edge, seat] of Object.entries(track || {})) {
        const [ka, kb] = String(edge).split("|");
        const a = m.byKey.get(keyOf(ka)), b = m.byKey.get(keyOf(kb));
        if (!a || !b || a.layer !== layer || b.layer !== layer) continue;
        const d = `M${fmt(a.x)} ${fmt(a.y)}L${fmt(b.x)} ${fmt(b.y)}`;
        casing += d;
        const s = String(seat);
        if (!bySeat.has(s)) bySeat.set(s, { d: "", n: 0 });
        const entry = bySeat.get(s);
        entry.d += d;
        entry.n++;
      }
      if (!casing) return;
      groups.track.append(svgEl("path", { class: "rm-track-casing", d: casing }));
      for (const [seat, { d, n }] of bySeat) {
        groups.track.append(svgEl("path", { class: "rm-track-line", "data-seat": seat, "data-sections": n, stroke: colorOf(colors[seat], seat), d }));
      }
    }

    function drawPath() {
      groups.path.replaceChildren();
      if (!plan || !plan.keys.length) return;
      let d = "", prev = null;
      for (const key of plan.keys) {
        const n = m.find(keyOf(key));
        if (!n || n.layer !== layer) { prev = null; continue; }
        d += (prev ? "L" : "M") + fmt(n.x) + " " + fmt(n.y);
        prev = n;
      }
      const kind = plan.kind === "move" ? "move" : "build";
      const cls = "rm-plan rm-plan-" + kind + (plan.ok === false ? " rm-plan-bad" : "");
      const ends = [plan.keys[0], plan.keys[plan.keys.length - 1]].map((k) => m.find(keyOf(k))).filter((n) => n && n.layer === layer);
      const g = svgEl("g", { class: cls, "data-kind": kind, "data-ok": plan.ok === false ? "false" : "true", "data-count": plan.keys.length });
      if (d) g.append(svgEl("path", { class: "rm-plan-halo", d }), svgEl("path", { class: "rm-plan-line", d }));
      if (ends.length) g.append(svgEl("path", { class: "rm-plan-ends", d: ends.map((n) => dot(n.x, n.y, 0.42 * SIZE)).join("") }));
      groups.path.append(g);
    }

    function drawMarks() {
      groups.marks.replaceChildren();
      for (const [cls, keys] of marks) {
        const list = keys.map((k) => m.find(keyOf(k))).filter((n) => n && n.layer === layer);
        if (!list.length) continue;
        groups.marks.append(svgEl("path", { class: "rm-mark " + cls, "data-count": list.length, d: list.map((n) => dot(n.x, n.y, 0.86 * SIZE)).join("") }));
      }
    }

    function drawTrains() {
      groups.trains.replaceChildren();
      trainMarks = [];
      const atKey = new Map();
      for (const t of trains || []) {
        const n = t && m.find(keyOf(t.at));
        if (!n || n.layer !== layer) continue;
        if (!atKey.has(n.key)) atKey.set(n.key, []);
        atKey.get(n.key).push(t);
      }
      for (const [key, list] of atKey) {
        const n = m.find(key);
        list.forEach((t, i) => {
          const seat = String(t.seat);
          const label = t.label === undefined || t.label === null ? seat : String(t.label);
          // A train aboard a ship rides on a hull (at a port or a sea point).
          const hull = t.ship ? svgEl("path", { class: "rm-ship-hull", fill: "#5b3a1e", d: "M-17 2L17 2L11 13L-11 13Z" }) : null;
          const g = titled(svgEl("g", { class: "rm-train" + (t.ship ? " rm-ship" : ""), "data-seat": seat, "data-at": key, "data-sea": n.sea ? "true" : null }, hull,
            svgEl("circle", { class: "rm-train-body", r: 10, fill: colorOf(colors[seat], seat) }),
            svgEl("text", { class: "rm-train-label", text: Array.from(label).slice(0, 3).join("") })), t.title || label);
          groups.trains.append(g);
          trainMarks.push({ g, x: n.x, y: n.y, i, count: list.length });
        });
      }
      placeTrains();
    }

    // Trains keep a size a finger can see at any zoom: at least 11 CSS px in radius.
    function placeTrains() {
      const R = Math.max(11 * view.u, 0.8 * SIZE), k = R / 10;
      for (const t of trainMarks) {
        let x = t.x, y = t.y;
        if (t.count > 1) { const a = -Math.PI / 2 + 2 * Math.PI * t.i / t.count; x += Math.cos(a) * R * 1.05; y += Math.sin(a) * R * 1.05; }
        t.g.setAttribute("transform", `translate(${fmt(x)} ${fmt(y)}) scale(${Math.round(k * 1000) / 1000})`);
      }
    }

    // Labels that would overlap a more important one hide until the zoom makes room: major
    // cities first, then medium, small, other places. Boxes are estimated from the text's
    // length (no layout reads), in CSS pixels at the current zoom.
    function placeLabels() {
      const u = view.u, near = STEP / u >= GOODS_STEP_PX;
      svg.classList.toggle("rm-near", near);
      const placed = [];
      const order = labels.map((l, i) => [l, i]).sort((a, b) => a[0].rank - b[0].rank || a[1] - b[1]);
      for (const [l] of order) {
        const cx = l.x / u, top = l.y / u + 0.15 * LABEL_PX;
        let w = l.name.length * 0.56 * LABEL_PX, h = 1.1 * LABEL_PX;
        if (near && l.goods) { w = Math.max(w, l.goods.length * 0.52 * GOODS_PX); h += 1.25 * GOODS_PX; }
        const box = [cx - w / 2 - 2, top - 1, cx + w / 2 + 2, top + h + 1];
        const free = placed.every((p) => box[2] <= p[0] || box[0] >= p[2] || box[3] <= p[1] || box[1] >= p[3]);
        if (free) placed.push(box);
        if (free !== l.shown) { l.shown = free; l.el.classList.toggle("rm-off", !free); }
      }
    }

    // ---- the view: centre and scale, shown through the viewBox ------------------------------

    function measure() {
      const r = svg.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) { W = r.width; H = r.height; }
      return r;
    }
    const size = () => [W || 360, H || 240];
    /* The box the whole map needs at scale u (map units per CSS pixel): the mileposts' hexes and every
     * label's estimated box (labels keep their size on screen, so the farther out the zoom, the more
     * of the map a label at the edge covers), so no edge label is cut ("ortland, OR"). */
    function extent(u) {
      let x0 = bounds.minX - 1.2 * SIZE, x1 = bounds.maxX + 1.2 * SIZE, y0 = bounds.minY - 1.2 * SIZE, y1 = bounds.maxY + 1.2 * SIZE;
      for (const l of labels) {
        const hw = (l.name.length * 0.56 * LABEL_PX / 2 + 4) * u;
        x0 = Math.min(x0, l.x - hw); x1 = Math.max(x1, l.x + hw);
        y1 = Math.max(y1, l.y + (0.15 + 1.1) * LABEL_PX * u + 4 * u);
      }
      return { x0, x1, y0, y1 };
    }
    /* The scale and centre that show the whole map, labels and all, in a w × h box. */
    function fitView(w0, h) {
      const w = Math.max(w0 / 2, w0 - CONTROLS_PX);  // the zoom buttons' column stays clear of the map
      let u = Math.max((bounds.maxX - bounds.minX + 2.4 * SIZE) / w, (bounds.maxY - bounds.minY + 2.4 * SIZE) / h);
      let e = extent(u);
      for (let i = 0; i < 4; i++) { u = Math.max((e.x1 - e.x0) / w, (e.y1 - e.y0) / h); e = extent(u); }
      return { cx: (e.x0 + e.x1) / 2 + (w0 - w) / 2 * u, cy: (e.y0 + e.y1) / 2, u, e };
    }
    function fitScale() {
      const [w, h] = size();
      return fitView(w, h).u;
    }
    // From a mileposts' spacing of MAX_STEP_PX on screen out to a little beyond the whole map.
    const clampScale = (u) => Math.min(fitScale() * 1.6, Math.max(STEP / MAX_STEP_PX, u));
    function apply() {
      if (destroyed) return;
      const [w, h] = size();
      view.u = clampScale(view.u);
      view.cx = Math.min(bounds.maxX, Math.max(bounds.minX, view.cx));
      view.cy = Math.min(bounds.maxY, Math.max(bounds.minY, view.cy));
      const vw = w * view.u, vh = h * view.u;
      svg.setAttribute("viewBox", `${fmt(view.cx - vw / 2)} ${fmt(view.cy - vh / 2)} ${fmt(vw)} ${fmt(vh)}`);
      if (lastU === null || Math.abs(view.u - lastU) > lastU * 1e-9) {
        lastU = view.u;
        svg.style.setProperty("--rm-u", String(Math.round(view.u * 1e6) / 1e6));
        placeTrains();
        placeLabels();
      }
    }
    /* Show the whole map. With opts.shrinkToFit a box taller than the map's shape (a phone) shrinks to the
     * map's height meanwhile, so no half of it is empty bands; a zoom gives the page's height back. */
    function fit() {
      fitted = true;
      const wasShrunk = container.classList.contains("rm-fitted");
      container.classList.remove("rm-fitted");
      measure();
      let [w, h] = size();
      const byWidth = fitView(w, 1e9);  // the scale the width allows, and the height the map needs at it
      const want = Math.ceil((byWidth.e.y1 - byWidth.e.y0) / byWidth.u);
      if (opts.shrinkToFit && want < h - 8) {
        container.style.setProperty("--railmap-fit-height", Math.max(164, want) + "px");  // room for the three buttons
        container.classList.add("rm-fitted");
        measure();
        [w, h] = size();
      } else if (wasShrunk) measure();
      const v = fitView(w, h);
      view = { cx: v.cx, cy: v.cy, u: v.u };
      apply();
    }
    /* Any view but the whole map: the box takes the page's height again. */
    function unfit() {
      fitted = false;
      if (container.classList.contains("rm-fitted")) { container.classList.remove("rm-fitted"); measure(); }
    }
    /* Fill the container with the map, no empty bands (the longer side cropped), centred on
     * the milepost `key` if given (as far as the map's edges allow), else on the middle. */
    function cover(key) {
      unfit();
      measure();
      const [w, h] = size();
      const bw = bounds.maxX - bounds.minX + 2.4 * SIZE, bh = bounds.maxY - bounds.minY + 2.4 * SIZE;
      const u = Math.min(bw / w, bh / h);
      const n = key === undefined || key === null ? null : m.byKey.get(keyOf(key));
      const on = n && n.layer === layer ? n : null;
      const half = (span, lo, hi) => [lo - 1.2 * SIZE + span / 2, hi + 1.2 * SIZE - span / 2];
      const [x0, x1] = half(w * u, bounds.minX, bounds.maxX), [y0, y1] = half(h * u, bounds.minY, bounds.maxY);
      const mid = (v, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.min(hi, Math.max(lo, v)));
      view = { cx: mid(on ? on.x : (bounds.minX + bounds.maxX) / 2, x0, x1), cy: mid(on ? on.y : (bounds.minY + bounds.maxY) / 2, y0, y1), u };
      apply();
    }
    /* Zoom by `factor` (below 1: closer) keeping the map point under (px, py) — CSS pixels
     * from the map's top left, default its middle — where it is. */
    function zoomBy(factor, px, py) {
      const [w, h] = size();
      const ox = (px === undefined ? w / 2 : px) - w / 2, oy = (py === undefined ? h / 2 : py) - h / 2;
      const mx = view.cx + ox * view.u, my = view.cy + oy * view.u;
      view.u = clampScale(view.u * factor);
      view.cx = mx - ox * view.u;
      view.cy = my - oy * view.u;
      apply();
    }
    function panBy(dxPx, dyPx) {
      view.cx += dxPx * view.u;
      view.cy += dyPx * view.u;
      apply();
    }
    /* The map point under a client position. */
    function mapPoint(clientX, clientY) {
      const r = measure();
      const [w, h] = size();
      return [view.cx + (clientX - r.left - w / 2) * view.u, view.cy + (clientY - r.top - h / 2) * view.u];
    }
    function nearest(mx, my) {
      let best = -1, bestD = TAP_REACH * TAP_REACH;
      for (let i = 0; i < xs.length; i++) {
        const dx = xs[i] - mx, dy = ys[i] - my, d = dx * dx + dy * dy;
        if (d <= bestD) { bestD = d; best = i; }
      }
      return best < 0 ? null : tapNodes[best];
    }
    function info(n) {
      return { key: n.key, layer: n.layer, q: n.q, r: n.r, x: n.x, y: n.y, terrain: n.terrain,
               city: n.city ? m.cities.get(n.city) : null, node: n.raw, sea: !!n.sea };
    }
    function tap(n) {
      if (n && typeof opts.onTap === "function") opts.onTap(n.key, info(n));
    }

    // ---- pointers: drag to pan, two fingers to zoom, a tap to choose --------------------------

    const pointers = new Map();
    let gesture = null;
    svg.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      try { svg.setPointerCapture(e.pointerId); } catch (err) { /* a pointer the browser already released */ }
      measure();
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) gesture = { x0: e.clientX, y0: e.clientY, moved: false, multi: false };
      else if (gesture) gesture.multi = true;
    });
    svg.addEventListener("pointermove", (e) => {
      const prev = pointers.get(e.pointerId);
      if (!prev || !gesture) return;
      const next = { x: e.clientX, y: e.clientY };
      if (pointers.size === 1) {
        // Under the drag threshold the start stays the reference: once past it, the map
        // catches up with the whole movement and then sticks to the finger.
        if (!gesture.moved && Math.hypot(next.x - gesture.x0, next.y - gesture.y0) < DRAG_PX) return;
        gesture.moved = true;
        fitted = false;  // a finger on the map: the box keeps its height under it
        svg.classList.add("rm-dragging");
        pointers.set(e.pointerId, next);
        panBy(prev.x - next.x, prev.y - next.y);
        return;
      }
      const other = [...pointers.entries()].find(([pid]) => pid !== e.pointerId);
      if (!other) return;
      const o = other[1];
      const oldMid = [(prev.x + o.x) / 2, (prev.y + o.y) / 2], oldDist = Math.hypot(prev.x - o.x, prev.y - o.y);
      const newMid = [(next.x + o.x) / 2, (next.y + o.y) / 2], newDist = Math.hypot(next.x - o.x, next.y - o.y);
      pointers.set(e.pointerId, next);
      gesture.moved = true;
      fitted = false;
      const r = svg.getBoundingClientRect();
      if (oldDist > 4 && newDist > 4) zoomBy(oldDist / newDist, oldMid[0] - r.left, oldMid[1] - r.top);
      panBy(oldMid[0] - newMid[0], oldMid[1] - newMid[1]);
    });
    const release = (e) => {
      if (!pointers.has(e.pointerId)) return;
      const wasTap = e.type === "pointerup" && gesture && !gesture.moved && !gesture.multi && pointers.size === 1;
      pointers.delete(e.pointerId);
      if (!pointers.size) { gesture = null; svg.classList.remove("rm-dragging"); }
      if (wasTap) { const [mx, my] = mapPoint(e.clientX, e.clientY); tap(nearest(mx, my)); }
    };
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      const r = measure();
      unfit();
      zoomBy(Math.exp(Math.max(-300, Math.min(300, e.deltaY * unit)) * 0.0025), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });

    // ---- keys: arrows pan, + and - zoom, 0 fits, Enter chooses the milepost in the middle ----

    const onKey = (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const [w, h] = size();
      const step = { ArrowLeft: [-w / 5, 0], ArrowRight: [w / 5, 0], ArrowUp: [0, -h / 5], ArrowDown: [0, h / 5] }[e.key];
      if (step) { unfit(); panBy(step[0], step[1]); }
      else if (e.key === "+" || e.key === "=") { unfit(); zoomBy(1 / 1.4); }
      else if (e.key === "-" || e.key === "_") { unfit(); zoomBy(1.4); }
      else if (e.key === "0") fit();
      else if ((e.key === "Enter" || e.key === " ") && e.target === container) tap(nearest(view.cx, view.cy));
      else return;
      e.preventDefault();
    };
    container.addEventListener("keydown", onKey);

    const resized = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
      const w = W, h = H;
      measure();
      if (W === w && H === h) return;
      if (fitted) fit(); else apply();
    }) : null;
    if (resized) resized.observe(svg);

    // ---- the API --------------------------------------------------------------------------------

    const api = {
      terrains: [],
      get layout() { return m.layout; },
      get layer() { return layer; },
      get layers() { return m.layers.map((l) => ({ id: l.id, name: l.name || "layer " + l.id })); },
      /* The viewBox as [x, y, width, height]. */
      get viewBox() { return svg.getAttribute("viewBox").split(" ").map(Number); },
      get element() { return svg; },
      /* {edgeKey "l,q,r|l,q,r": seat}: each section a line between the two mileposts in its seat's colour. */
      setTrack(value) { track = value && typeof value === "object" ? Object.assign({}, value) : {}; drawTrack(); },
      setColors(value) { colors = Object.assign({}, colors, value); drawTrack(); drawTrains(); },
      /* [{seat, at: "l,q,r", label}]: a marker per train (several at one milepost fan out). */
      setTrains(list) { trains = Array.isArray(list) ? list.slice() : []; drawTrains(); },
      /* A planned path through `keys` ({kind: "build"|"move", ok}); null clears it. */
      setPath(keys, how) {
        const h = how || {};
        plan = Array.isArray(keys) && keys.length ? { keys: keys.slice(), kind: h.kind, ok: h.ok } : null;
        drawPath();
      },
      /* Rings around `keys`, one set per class name (e.g. "tappable"); null clears that set,
       * or every set when no class is named. */
      setMarks(keys, className) {
        const cls = typeof className === "string" && className.trim() ? className.trim() : "rm-marked";
        if (!Array.isArray(keys)) { if (typeof className === "string" && className.trim()) marks.delete(cls); else marks.clear(); }
        else marks.set(cls, keys.slice());
        drawMarks();
      },
      /* [{id, nodes: keys, pairs: edge keys or [a, b], sea: keys, cls, label}]: areas drawn over the
       * land (an event's), each on the layers it has mileposts or sea points on; null clears. */
      setAreas(list) {
        areas = (Array.isArray(list) ? list : []).filter((a) => a && typeof a === "object").map((a) => ({
          id: a.id === undefined || a.id === null ? "" : String(a.id), cls: typeof a.cls === "string" ? a.cls : "", label: a.label ? String(a.label) : "",
          nodes: Array.isArray(a.nodes) ? a.nodes : [], pairs: Array.isArray(a.pairs) ? a.pairs : [], sea: Array.isArray(a.sea) ? a.sea : [] }));
        drawAreas();
      },
      /* {link name: open}: a closed passage is drawn faded (the map's own `enabled` otherwise). */
      setLinks(value) {
        linkStates = Object.assign({}, value);
        for (const node of groups.links.querySelectorAll("[data-name]")) {
          const name = node.getAttribute("data-name");
          if (typeof linkStates[name] === "boolean") node.setAttribute("data-enabled", linkStates[name] ? "true" : "false");
        }
      },
      /* Whether a tap may choose a sea point (a voyage's destination) as well as a milepost. */
      setSeaTaps(on) { if (!!on !== seaTaps) { seaTaps = !!on; setTapNodes(); } },
      get seaTaps() { return seaTaps; },
      /* Show another layer of the map (a fantasy map's underground). */
      setLayer(id) {
        const next = Number(id);
        if (!hasLayer(next) || next === layer) return;
        layer = next;
        drawBase();
        fit();
      },
      /* Pan (changing layer if need be) so the milepost is in view, well inside the edges. */
      focus(key) {
        const n = m.find(keyOf(key));
        if (!n) return false;
        if (n.layer !== layer) api.setLayer(n.layer);
        measure();
        const [w, h] = size();
        const hw = w * view.u / 2 * 0.8, hh = h * view.u / 2 * 0.8;
        if (Math.abs(n.x - view.cx) > hw || Math.abs(n.y - view.cy) > hh) { view.cx = n.x; view.cy = n.y; unfit(); apply(); }
        return true;
      },
      fit,
      cover,
      /* How much closer cover() is than fit(): 1 when the map's shape matches the container's. */
      get coverRatio() {
        // measured in the page's box, not the whole map's shrunk one (shrinkToFit)
        const shrunk = container.classList.contains("rm-fitted");
        if (shrunk) container.classList.remove("rm-fitted");
        measure();
        const [w, h] = size();
        if (shrunk) { container.classList.add("rm-fitted"); measure(); }
        const bw = bounds.maxX - bounds.minX + 2.4 * SIZE, bh = bounds.maxY - bounds.minY + 2.4 * SIZE;
        return Math.max(bw / w, bh / h) / Math.min(bw / w, bh / h); },
      zoomIn() { unfit(); zoomBy(1 / 1.6); },
      zoomOut() { unfit(); zoomBy(1.6); },
      /* Zoom by `factor` (below 1: closer) about the middle; pan by CSS pixels. */
      zoomBy(factor) { if (factor > 0) { unfit(); zoomBy(factor); } },
      panBy(dx, dy) { unfit(); panBy(Number(dx) || 0, Number(dy) || 0); },
      /* The milepost key a tap at this client position would choose, or null. */
      keyAt(clientX, clientY) { const [mx, my] = mapPoint(clientX, clientY); const n = nearest(mx, my); return n ? n.key : null; },
      /* Where a milepost is on screen now (client pixels), or null if it is not on this layer. */
      clientPoint(key) {
        const n = m.find(keyOf(key));
        if (!n || n.layer !== layer) return null;
        const r = measure();
        const [w, h] = size();
        return { x: r.left + w / 2 + (n.x - view.cx) / view.u, y: r.top + h / 2 + (n.y - view.cy) / view.u };
      },
      info(key) { const n = m.find(keyOf(key)); return n ? info(n) : null; },
      destroy() {
        if (destroyed) return;
        destroyed = true;
        if (resized) resized.disconnect();
        container.removeEventListener("keydown", onKey);
        svg.remove(); controls.remove(); crosshair.remove(); help.remove();
        container.classList.remove("railmap");
        if (added.tabindex) container.removeAttribute("tabindex");
        if (added.role) container.removeAttribute("role");
        if (added.label !== null) container.setAttribute("aria-label", added.label); else container.removeAttribute("aria-label");
        container.removeAttribute("aria-roledescription");
        if (added.describedby) container.setAttribute("aria-describedby", added.describedby); else container.removeAttribute("aria-describedby");
        delete container.dataset.layer;
      },
    };

    drawBase();
    fit();
    return api;
  }

  // ---- a legend's pieces: each mark drawn as the map draws it ---------------------------------

  /* One map mark as a small SVG (CSS px `px`, default 30), drawn with the map's own classes and
   * shapes so a legend shows exactly what the map shows. kind: "small" | "medium" | "major" (cities),
   * "terrain" ({shape, fill} from api.terrains), "river", "crossing" (another kind, e.g. an inlet),
   * "port", "sea", "link" (a passage between two places), "portal" (a way to another layer), "track"
   * ({color}), "train" ({color, label, ship}), "plan-build", "plan-move", "mark" ({cls}: a ring), "area"
   * ({cls}: an event's area). o.layout: the map's hex layout. */
  function swatch(kind, o) {
    const opt = Object.assign({ layout: "odd-q-up", px: 30 }, o);
    const L = LAYOUTS.includes(opt.layout) ? opt.layout : "odd-q-up";
    let half = 12;
    const parts = [];
    const land = () => svgEl("path", { class: "rm-hexes", d: hexPath(L, 0, 0) });
    const zigzag = "M-13 -3L-6.5 3L0 -3L6.5 3L13 -3";
    switch (kind) {
      case "small": case "medium": {
        const h = kind === "medium" ? 0.62 * SIZE : 0.5 * SIZE;
        parts.push(land(), svgEl("g", { class: "rm-city rm-city-" + kind }, svgEl("path", { class: "rm-town",
          d: kind === "medium" ? polygon([[-h, -h], [h, -h], [h, h], [-h, h]]) : dot(0, 0, h) })));
        break;
      }
      case "major": {
        half = 27;
        const turn = L === "odd-q-up" ? 30 : 0;
        const cells = [{ x: 0, y: 0 }];
        for (let i = 0; i < 6; i++) { const a = (60 * i + turn) * Math.PI / 180; cells.push({ x: STEP * Math.cos(a), y: STEP * Math.sin(a) }); }
        parts.push(svgEl("g", { class: "rm-city rm-city-major" }, svgEl("path", { class: "rm-major", d: outline(L, cells) })));
        break;
      }
      case "terrain": {
        const shape = SHAPES[opt.shape] ? opt.shape : "dot";
        const cls = opt.terrain === "clear" ? "rm-clear" : opt.terrain === "mountain" ? "rm-mountain" : "rm-other";
        half = 9;
        parts.push(land(), svgEl("path", { class: "rm-terrain " + cls, fill: opt.fill || null, d: SHAPES[shape](0, 0) }));
        break;
      }
      case "river": case "crossing":
        parts.push(land(), svgEl("path", { class: kind === "river" ? "rm-river" : "rm-crossing", d: zigzag }));
        break;
      case "port":
        parts.push(land(), svgEl("path", { class: "rm-town", d: dot(0, 0, 0.5 * SIZE) }), svgEl("path", { class: "rm-port", d: dot(0, 0, 0.68 * SIZE) }));
        break;
      case "sea":
        half = 9;
        parts.push(svgEl("path", { class: "rm-sea", fill: "#b9d4e6", d: hexPath(L, 0, 0) }));
        break;
      case "link":
        parts.push(svgEl("path", { class: "rm-link", "data-enabled": opt.enabled === false ? "false" : "true", d: "M-12 6Q0 -12 12 6" }));
        break;
      case "portal":
        parts.push(land(), svgEl("path", { class: "rm-portal", d: dot(0, 0, 0.62 * SIZE) }));
        break;
      case "track":
        parts.push(svgEl("path", { class: "rm-track-casing", d: "M-12 5L12 -5" }),
          svgEl("path", { class: "rm-track-line", stroke: colorOf(opt.color, opt.seat), d: "M-12 5L12 -5" }));
        break;
      case "train": {
        const hull = opt.ship ? svgEl("path", { class: "rm-ship-hull", fill: "#5b3a1e", d: "M-17 2L17 2L11 13L-11 13Z" }) : null;
        half = opt.ship ? 18 : 12;
        parts.push(svgEl("g", { class: "rm-train" + (opt.ship ? " rm-ship" : "") }, hull,
          svgEl("circle", { class: "rm-train-body", r: 10, fill: colorOf(opt.color, opt.seat) }),
          svgEl("text", { class: "rm-train-label", text: Array.from(String(opt.label || "A")).slice(0, 3).join("") })));
        break;
      }
      case "plan-build": case "plan-move": {
        const d = "M-11 6L0 -4L11 6";
        const g = svgEl("g", { class: "rm-plan rm-" + kind }, svgEl("path", { class: "rm-plan-halo", d }), svgEl("path", { class: "rm-plan-line", d }),
          svgEl("path", { class: "rm-plan-ends", d: dot(-11, 6, 0.42 * SIZE) + dot(11, 6, 0.42 * SIZE) }));
        parts.push(g);
        break;
      }
      case "mark":
        parts.push(land(), svgEl("path", { class: "rm-terrain rm-clear", d: SHAPES.dot(0, 0) }), svgEl("path", { class: "rm-mark " + (opt.cls || ""), d: dot(0, 0, 0.86 * SIZE) }));
        break;
      case "area":
        parts.push(land(), svgEl("g", { class: "rm-area " + (opt.cls || "") }, svgEl("path", { class: "rm-area-cells", fill: "#b3261e", "fill-opacity": 0.22, d: hexPath(L, 0, 0) })));
        break;
      default:
        throw new Error("RailMap.swatch: unknown mark " + JSON.stringify(kind));
    }
    const node = svgEl("svg", { class: "rm-swatch", viewBox: `${-half} ${-half} ${2 * half} ${2 * half}`, width: opt.px, height: opt.px,
                                "aria-hidden": "true", focusable: "false", "data-mark": kind }, ...parts);
    node.style.setProperty("--rm-u", String(Math.round(2 * half / opt.px * 1000) / 1000));  // map units per CSS px, as on the map
    return node;
  }

  return { create, pixel, corners, edgeKey, parseKey, swatch, SIZE };
})();
