/* Runerail play surface (templates/games/play/runerail.html): the shared rail map
 * (Junction.RailMap) with both layers (the surface and the Deepways) and a switch between them,
 * the sea and the ships on it, the areas of the events in force; the foreman draft, building and
 * moving by tapping, sailing, the options with their prices, the decision an event asks of a
 * player, the demand cards, the train, the players and what happened, in words.
 *
 * Nothing here knows a rule. A tap asks the server to plan (POST /api/games/{code}/plan: the
 * cheapest legal build through the tapped mileposts, the legal move to one with its tolls and
 * bribes, or a voyage to a sea point or port), and confirm sends the plan's command, which the
 * rules check again. Every other control is one entry of the engine's listing (view.listing:
 * command, price, reason). Names of places, loads, foremen, locos, ships and events, and each
 * event's area, come from the kind's content (GET /api/kinds/runerail/content). */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, plural, text } = Junction;
  const KIND = "runerail";
  const STATUS_REASONS = Junction.STATUS_REASONS;
  const andList = new Intl.ListFormat("en", { type: "conjunction" });

  // ---- content: the map and the names of things ------------------------------------------------
  let content = null, contentLoading = null;
  let cityNames = {}, cityNodes = {}, cityRegion = {}, loadNames = {}, loadSources = {}, foremen = {}, locos = {}, events = {}, ships = {},
    colorHex = {}, regionNames = {}, areaKeys = {}, layerNames = {};
  function loadContent() {
    if (!contentLoading) {
      contentLoading = Junction.api("GET", "/api/kinds/" + KIND + "/content").then((result) => {
        if (!result.ok || !result.data || !result.data.map) { contentLoading = null; throw new Error(Junction.errorText(result)); }
        content = result.data;
        for (const c of content.map.cities) { cityNames[c.id] = c.name; cityNodes[c.id] = []; cityRegion[c.id] = c.region; }
        for (const n of content.map.nodes) if (n.city && cityNodes[n.city]) cityNodes[n.city].push(n.at.join(","));
        for (const l of content.loads || []) { loadNames[l.id] = l.name; loadSources[l.id] = l.sources || []; }
        for (const f of content.foremen || []) foremen[f.id] = f;
        for (const x of content.locos || []) locos[x.id] = x;
        for (const e of content.events || []) events[e.id] = e;
        for (const s of content.ships || []) ships[s.id] = s;
        for (const r of content.map.regions || []) regionNames[r.id] = r.name;
        for (const l of content.map.layers || []) layerNames[l.id] = l.name;
        areaKeys = content.areas || {};
        colorHex = content.colors || {};
        return content;
      });
    }
    return contentLoading;
  }
  const cityName = (id) => text(cityNames[id], text(id));
  const loadName = (id) => text(loadNames[id], text(id));
  const locoName = (id) => text((locos[id] || {}).name, text(id));
  const shipName = (id) => text((ships[id] || {}).name, text(id));
  const foremanName = (id) => (id && foremen[id] ? foremen[id].name + " (" + foremen[id].kind_name + ")" : "no foreman");
  const eventTitle = (id) => text((events[id] || {}).title, text(id));
  const colorName = (id) => { const s = text(id, ""); return s ? s.charAt(0).toUpperCase() + s.slice(1) : "—"; };
  const layerOf = (key) => { const at = Junction.RailMap.parseKey(key); return at ? at[0] : 0; };
  const place = Junction.RailPage.places(() => content, () => map, cityName);
  const { cityAt, nearest, nearestCity } = place;
  /* A milepost or sea point in words: its city, its name (a gate), the sea near a port, or the
   * open country near the closest city (in the Deepways: the Deepways near the gate). */
  function placeName(key) {
    const c = cityAt(key);
    if (c) return cityName(c);
    const info = map && map.info(key);
    if (info && info.sea) { const port = nearestCity(key, true); return "the sea off " + (port ? cityName(port) : "the coast"); }
    if (info && info.node && info.node.name) return text(info.node.name);
    if (layerOf(key) !== 0) {  // below: the galleries near the closest gate
      const gate = nearest(key, (x) => !!x.name);
      return text(layerNames[layerOf(key)], "the underground") + (gate ? " near the " + gate.name : "");
    }
    return place.openCountry(key);
  }
  const atPlace = (key) => (cityAt(key) ? "at " : "in ") + placeName(key);

  // ---- words -------------------------------------------------------------------------------------
  let names = {};
  const { who, people } = Junction.RailPage.namer(() => names, () => last && last.ctx);
  const gold = (n) => Junction.number(n) + " gold";
  const sections = (n) => plural(n, "section");
  const mileposts = (n) => plural(n, "milepost");
  const seaPoints = (n) => plural(n, "sea point");
  const payee = (seat) => (seat === null || seat === undefined ? "the bank" : who(seat));
  function feeWords(fees) {
    return (fees || []).map((f) => f.kind === "toll" ? gold(f.amount) + " to " + who(f.payee) + " for their track"
      : f.kind === "bribe" ? "a Deepways bribe of " + gold(f.amount) + " to " + payee(f.payee) : gold(f.amount) + " to " + payee(f.payee));
  }

  /* An event's area in words (its params.area). */
  function areaWords(spec) {
    if (!spec || typeof spec !== "object") return "";
    if (spec.region) return text(regionNames[spec.region], spec.region);
    if (spec.within !== undefined) return "within " + mileposts(spec.within) + " of " + cityName(spec.of);
    if (spec.terrain) return "every " + text(spec.terrain) + " milepost";
    if (spec.river) return "the crossings of the " + text(spec.river);
    if (spec.crossing) return "every " + text(spec.crossing) + " crossing";
    if (spec.cities) return andList.format(spec.cities.map(cityName));
    if (spec.any) return andList.format(spec.any.map(areaWords));
    if (spec.everywhere) return "everywhere";
    return "";
  }
  function seatsNamed(players, drawer) {
    if (players === "all") return "anyone";
    if (players === "drawer") return who(drawer);
    if (players === "others") return "anyone but " + who(drawer);
    return "anyone";
  }
  /* What an effect does, in words. */
  function effectWords(e) {
    const p = e.params || {}, area = areaWords(p.area);
    switch (e.kind) {
      case "no-build": return "No building " + (area ? "in " + area : "") + " for " + seatsNamed(p.players, e.drawn_by) + ".";
      case "halt": return "Trains standing in " + area + " cannot move on.";
      case "half-rate": return "Trains in " + area + " move at half their speed.";
      case "no-loading": return "No loading or delivering in " + area + ".";
      case "lose-turn": return "Every train in " + area + " lost its player's next turn.";
      case "lose-load": return "Every train in " + area + " carrying a load lost " + plural(p.loads || 1, "load") + ", chosen by its player.";
      case "track-destroyed": {
        const n = Object.keys(e.sections || {}).length;
        return e.status === "rebuild" ? "Track destroyed in " + area + ": only its owners may rebuild those " + sections(n) + " now."
          : "Track destroyed in " + area + " (" + sections(n) + ").";
      }
      case "open-bridge": return "The Prism Bridge is open.";
      case "suspend-magic": return "The Ley Line is closed: no crossing it, and it joins nothing for the win.";
      case "no-upgrade": return "Nobody upgrades a loco.";
      case "no-foreman-change": return "Nobody hires or changes a foreman.";
      case "no-boarding": return "Nobody boards or leaves a ship.";
      case "ships-to-port": return "Every ship at sea put in at the nearest port.";
      case "war-tax": return "Every player paid the levy by the gold they held.";
      default: return text(e.kind).replace(/-/g, " ") + ".";
    }
  }
  function endWords(e) {
    if (!e.ends) return "For the rest of the game.";
    const round = e.ends.round;
    const what = e.status === "rebuild" ? "The rights last" : e.status === "done" ? "Listed" : "Lasts";
    return what + " until the end of " + who(e.ends.seat) + "'s turn in round " + text(round) + ".";
  }

  function describe(e) {
    switch (e.type) {
      case "game-started": return "The game started.";
      case "foreman-drafted": return who(e.seat) + " chose " + foremanName(e.foreman) + " as foreman.";
      case "foreman-passed": return who(e.seat) + " kept none of the foremen dealt, waiting for the re-deal.";
      case "foremen-redealt": return "The foremen nobody kept were dealt again to " + people(e.seats) + ".";
      case "draft-over": return "Every player has a foreman: the build rounds begin.";
      case "foreman-drawn": return who(e.seat) + " drew a foreman from the " + (e.source === "discard" ? "discard pile" : "foreman deck") + " for " + gold(e.price) + ".";
      case "foreman-kept": return who(e.seat) + " kept " + foremanName(e.foreman) + (e.discarded ? " and let " + foremanName(e.discarded) + " go" : "") + ".";
      case "foreman-hired": return who(e.seat) + " hired " + foremanName(e.foreman) + " for " + gold(e.price) + (e.discarded ? ", letting " + foremanName(e.discarded) + " go" : "") + ".";
      case "turn-started": return e.phase === "build" ? who(e.seat) + "'s build turn (build round " + text(e.build_round) + ")." : who(e.seat) + "'s turn (round " + text(e.round) + ").";
      case "turn-ended": return null;
      case "turn-lost": return who(e.seat) + "'s turn is lost: skipped.";
      case "built": return who(e.seat) + " built " + sections(e.sections) + " for " + gold(e.cost) + (e.bribe ? " (a Deepways bribe of " + gold(e.bribe) + " included)" : "") + ".";
      case "upgraded": return who(e.seat) + " upgraded from the " + locoName(e.from) + " to the " + locoName(e.to) + " for " + gold(e.cost) + ".";
      case "train-placed": return who(e.seat) + " put the train on the map at " + cityName(e.city) + ".";
      case "moved": {
        const path = e.path || [];
        const fees = feeWords(e.fees);
        return who(e.seat) + " moved " + mileposts(e.moves) + " to " + (path.length ? placeName(path[path.length - 1]) : "—") + (fees.length ? ", paying " + andList.format(fees) : "") + ".";
      }
      case "half-rate": return who(e.seat) + "'s train is in a half-rate area: " + mileposts(e.moves_left) + " of movement left.";
      case "picked-up": return who(e.seat) + " loaded " + loadName(e.load) + " at " + cityName(e.city) + ".";
      case "dropped": return who(e.seat) + " unloaded " + loadName(e.load) + " at " + cityName(e.city) + " (no pay).";
      case "delivered": return who(e.seat) + " delivered " + loadName(e.load) + " to " + cityName(e.city) + " for " + gold(e.payout) + ".";
      case "card-drawn": return who(e.seat) + " drew a new demand card.";
      case "hand-discarded": return who(e.seat) + " discarded " + plural(e.count, "demand card") + " to draw as many new ones.";
      case "event-drawn": return who(e.seat) + " drew an event: " + eventTitle(e.card) + ". " + text((events[e.card] || {}).text, "");
      case "bridge-closed": return "The Prism Bridge closed again.";
      case "war-tax": {
        const paid = Object.entries(e.paid || {}).map(([s, n]) => who(Number(s)) + " " + (n ? gold(n) : "nothing"));
        return "The levy was paid: " + andList.format(paid) + ".";
      }
      case "turns-lost": return (e.seats || []).length ? people(e.seats) + ((e.seats.length === 1) ? " loses" : " lose") + " the next turn." : "No train was in the area: nobody loses a turn.";
      case "loads-to-lose": return (e.seats || []).length ? people(e.seats) + (e.seats.length === 1 ? " must" : " must each") + " choose a load to lose." : "No train with a load was in the area: nobody loses a load.";
      case "load-lost": return who(e.seat) + " lost " + loadName(e.load) + " (" + eventTitle(e.card) + ").";
      case "track-destroyed": {
        const by = {};
        for (const owner of Object.values(e.sections || {})) by[owner] = (by[owner] || 0) + 1;
        const parts = Object.entries(by).map(([s, n]) => text(n) + " of " + who(Number(s)) + "'s");
        return parts.length ? sections(Object.keys(e.sections).length) + " of track destroyed (" + andList.format(parts) + "); only their owners may rebuild them for a while." : "No track was in the area.";
      }
      case "ships-to-port": {
        const landed = Object.entries(e.landed || {}).map(([s, port]) => who(Number(s)) + " at " + placeName(port));
        return landed.length ? "The ships at sea put in: " + andList.format(landed) + "." : "No ship was at sea.";
      }
      case "rebuild-rights-over": return "The rights to rebuild after " + eventTitle(e.card) + " ran out.";
      case "event-over": return eventTitle(e.card) + " is over.";
      case "ships-drawn": return who(e.seat) + " drew " + plural(e.count, "ship") + " to choose one from.";
      case "boarded": return who(e.seat) + " boarded " + shipName(e.ship) + " at " + placeName(e.at) + (e.fee ? " for " + gold(e.fee) : " free") + ".";
      case "sailed": {
        const path = e.path || [];
        return who(e.seat) + " sailed " + seaPoints(e.points) + " to " + (path.length ? placeName(path[path.length - 1]) : "—") + ".";
      }
      case "landed": return who(e.seat) + " landed at " + placeName(e.at) + "; " + shipName(e.ship) + " sails off.";
      case "build-rounds-over": return "The build rounds are over: normal turns begin.";
      case "game-over": return e.reason === "round-limit" ? "The round limit was reached: " + people(e.winners) + ((e.winners || []).length === 1 ? " wins." : " share the win.")
        : "Game over: " + people(e.winners) + ((e.winners || []).length === 1 ? " wins." : " share the win.");
      case "undone": return who(e.seat) + "'s last move was taken back" + (e.command && e.command.cmd ? " (" + text(e.command.cmd).replace(/-/g, " ") + ")" : "") + ".";
      default: return Junction.platformEvent(e, who) || Junction.unknownEvent(e, who);
    }
  }
  const describeAction = Junction.RailPage.describeActionWith(describe);
  const say = Junction.RailPage.say;

  // ---- the map -----------------------------------------------------------------------------------
  let map = null, last = null;  // last: {payload, ctx}
  let followedLayer = null;  // the layer of the train the map follows, as last drawn
  const meOf = (view) => (view.you !== null && view.you !== undefined ? view.players.find((p) => p.seat === view.you) : null);
  const whereOf = (p) => (p ? p.sea_at || p.at : null);
  function ensureMap() {
    if (map || !content) return map;
    $("rn-map-loading").hidden = true;
    $("rn-map").hidden = false;
    map = Junction.RailMap.create($("rn-map"), content.map, {
      goodsKey: "loads",
      goodsNames: loadNames,
      ariaLabel: "Map of " + text(content.map.name, "the realm") + ": mileposts, cities, the sea, everyone's track, trains and ships",
      onTap: (key, info) => onTap(key, info),
      shrinkToFit: true,
    });
    if (map.coverRatio > 1.4) {
      const view = last && last.payload.state;
      const me = view ? meOf(view) : null;
      const where = whereOf(me);
      map.cover(where && layerOf(where) === map.layer ? where : null);
    }
    return map;
  }
  function renderLayers() {
    const box = $("rn-layers");
    if (!map) return;
    const layers = map.layers;
    box.hidden = layers.length < 2;
    box.replaceChildren(...layers.map((l) => el("button", { type: "button", "data-layer": l.id, "aria-pressed": l.id === map.layer ? "true" : "false", class: l.id === map.layer ? "on" : null,
      onclick: () => { map.setLayer(l.id); renderLayers(); } }, l.id === 0 ? "Surface" : text(l.name))));
    if (last) renderLegend(last.payload.state);  // this layer's terrains
  }
  function drawMap(view) {
    if (!map) return;
    Junction.RailPage.drawSeats(map, view, colorHex, whereOf, (p) => ({ ship: !!p.ship, title: text(p.name) + (p.ship ? " aboard " + shipName(p.ship) : "") }));
    map.setLinks(view.links || {});
    // Destroyed sections only their owners may rebuild: both ends ringed.
    const reserved = Object.keys(view.rebuild_rights || {}).flatMap((edge) => edge.split("|"));
    map.setMarks(reserved.length ? [...new Set(reserved)] : null, "rn-rebuild");
    map.setAreas(view.effects.filter((e) => areaKeys[e.card]).map((e) => Object.assign({ id: e.card, cls: "rn-area-" + e.kind, label: eventTitle(e.card) }, areaKeys[e.card])));
    // The layer follows the train: yours, or (a spectator) the active player's.
    const me = meOf(view);
    const followed = me || view.players.find((p) => p.seat === view.active_seat);
    const where = whereOf(followed);
    const layer = where ? layerOf(where) : null;
    if (layer !== null && layer !== followedLayer) { followedLayer = layer; if (map.layer !== layer) map.setLayer(layer); }
    renderLayers();
  }

  // ---- taps: build, move, place the train, sail ---------------------------------------------------
  let mode = null, modes = [], points = [], plan = null, planning = false;
  const asker = Junction.RailPage.planAsker();  // one plan asked at a time: a newer tap wins
  let highlight = null;  // a demand shown on the map: {card, demand}
  const mine = (payload) => payload && !last.ctx.readOnly && payload.status === "active" && payload.state && !payload.state.pending &&
    payload.state.active_seat === payload.state.you && payload.state.you !== null && payload.state.you !== undefined;

  function modesFor(payload) {
    if (!mine(payload)) return [];
    const view = payload.state, me = meOf(view);
    const out = [];
    if (view.hire || view.ship_offer || view.phase === "draft") return out;
    if (view.phase === "play" && view.stage === "move") {
      if (me.ship) out.push("sail");
      else if (!me.at) { if ((view.listing || []).some((e) => e.command.cmd === "place-train")) out.push("place"); }
      else if (view.turn.moves_left > 0) out.push("move");
    }
    if ((view.stage === "move" || view.stage === "build") && view.turn.budget_left > 0 && !me.ship) out.push("build");
    return out;
  }
  const MODE_LABELS = { build: "Build track", move: "Move the train", place: "Place the train", sail: "Sail" };
  const MODE_COMMANDS = { build: "build", move: "move", place: "place-train", sail: "sail" };  // the command each mode plans
  const MODE_HINTS = {
    build: "Tap where the track should go: the cheapest legal way there from your track (or a major city) is planned, with your foreman's prices. Tap more mileposts to choose the way.",
    move: "Tap where the train should go: the way there is planned, with the movement it uses, the tolls and any Deepways bribe.",
    place: "Tap any city to put your train there.",
    sail: "Tap a sea point or a port: the voyage is planned, with this turn's leg.",
  };
  function setMode(next, keepPlan) {
    if (next !== mode && !keepPlan) clearPlan();
    mode = next;
    if (map) map.setSeaTaps(mode === "sail");
    const box = $("rn-modes");
    box.hidden = modes.length < 2;
    box.replaceChildren(...modes.map((m) => el("button", { type: "button", "data-mode": m, "aria-pressed": m === mode ? "true" : "false", class: m === mode ? "on" : null,
      title: Junction.RailPage.helpFor(MODE_COMMANDS[m]) || null, onclick: () => { setMode(m); renderPlan(); } }, MODE_LABELS[m])));
    say($("rn-tapped"), mode ? MODE_HINTS[mode] : (last && last.ctx.readOnly ? "" : "Tap a milepost to see what is there."));
    markPoints();
  }
  function markPoints() { if (map) map.setMarks(mode === "build" && points.length ? points : null, "rn-point"); }
  function clearPlan() {
    points = []; plan = null; asker.cancel(); planning = false;
    if (map) { map.setPath(null); map.setMarks(null, "rn-point"); }
  }

  function onTap(key, info) {
    const where = place.tapped(key, info, placeName, info && info.city ? (info.city.loads || []).map(loadName) : []);  // a place, never its coordinates
    if (!last || !mode) { $("rn-tapped").textContent = "You tapped " + where + "."; return; }
    Junction.showError($("rn-plan-error"), "");
    if (mode === "place") {
      const entry = info.city && (last.payload.state.listing || []).find((e) => e.command.cmd === "place-train" && cityAt(e.command.at.join(",")) === info.city.id);
      if (!entry) { Junction.showError($("rn-plan-error"), "A train goes on a city: tap one.", null); return; }
      plan = { plan: "place", command: { cmd: "place-train", at: key.split(",").map(Number) }, path: [key], ok: true, text: "Put your train at " + cityName(info.city.id) + "." };
      renderPlan();
      return;
    }
    if (mode === "build") points.push(key);
    const to = key.split(",").map(Number);
    requestPlan(mode === "build" ? { plan: "build", points: [null, ...points] } : { plan: mode, to }, mode === "build" ? null : key);
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
      Junction.showError($("rn-plan-error"), Junction.errorText(result), null);
      markPoints();
      return;
    }
    plan = Object.assign({ request: body, target }, result.data);
    plan.ok = plan.plan === "move" || (plan.plan === "sail" ? !plan.reason : plan.affordable);
    renderPlan();
  }

  function planText(p) {
    if (p.plan === "place") return p.text;
    if (p.plan === "build") {
      const count = (p.sections || []).length;
      const what = count ? "Build " + sections(count) + " to " + placeName(p.path[p.path.length - 1]) + " · " + gold(p.cost) + (p.bribe ? " (a Deepways bribe of " + gold(p.bribe) + " included)" : "")
        : "No new track on that way: it is yours or a major city's already.";
      return what + " (" + gold(p.budget) + " left to spend this turn" + (p.affordable ? "" : ": not enough") + ").";
    }
    if (p.plan === "sail") {
      const to = placeName(p.route[p.route.length - 1]);
      const leg = p.command.path.length - 1;
      return "Sail " + seaPoints(p.points) + " to " + to + ": " + (p.arrives ? (cityAt(p.route[p.route.length - 1]) ? "you land there this turn." : "you get there this turn.") : "it takes " + plural(p.turns, "turn") + "; this turn " + seaPoints(leg) + " (the ship's speed is " + text(p.speed) + ").");
    }
    const fees = feeWords(p.fees);
    const usedBefore = last && last.payload.state.turn ? last.payload.state.turn.moves_used || 0 : 0;
    return "Move " + mileposts(p.moves) + " to " + placeName(p.path[p.path.length - 1]) + " (then " + text(usedBefore + p.moves) + " used this turn, " + mileposts(Math.max(0, p.moves_left - p.moves)) + " left)" +
      (fees.length ? " · paying " + andList.format(fees) : " · no tolls or bribes") + ".";
  }
  function renderPlan() {
    const box = $("rn-plan"), confirm = $("rn-confirm"), why = $("rn-confirm-why");
    const show = !!mode && (planning || !!plan || points.length > 0);
    box.hidden = !show;
    if (!show) { if (map) map.setPath(null); markPoints(); return; }
    $("rn-back").hidden = mode !== "build";
    $("rn-back").disabled = planning || points.length === 0;
    if (planning && !plan) say($("rn-plan-text"), "Planning…");
    else if (plan) say($("rn-plan-text"), planText(plan) + (planning ? " Planning…" : ""));
    const empty = plan && plan.plan === "build" && !(plan.sections || []).length;
    const blocked = !plan ? "Tap a milepost first." : planning ? "Planning…" : empty ? "There is nothing new to build on that way."
      : plan.plan === "sail" && plan.reason ? text(plan.reason) : plan.ok === false ? "You cannot pay for this build now: remove points or choose a cheaper way." : null;
    confirm.disabled = !!blocked;
    confirm.textContent = !plan ? "Confirm" : plan.plan === "build" ? "Build · " + gold(plan.cost) : plan.plan === "move" ? "Move" + (plan.fee_total ? " · " + gold(plan.fee_total) + " in tolls and bribes" : "")
      : plan.plan === "sail" ? "Sail " + seaPoints(plan.command.path.length - 1) : "Place the train here";
    why.hidden = !blocked || !plan;
    why.textContent = blocked && plan ? blocked : "";
    if (blocked && plan) confirm.setAttribute("aria-describedby", "rn-confirm-why"); else confirm.removeAttribute("aria-describedby");
    if (map) {
      const path = plan ? (plan.plan === "sail" ? plan.route : plan.path) : null;
      if (path) map.setPath(path, { kind: plan.plan === "build" ? "build" : "move", ok: plan.ok !== false });
      else map.setPath(null);
      if (path && path.length) map.focus(path[path.length - 1]);
      renderLayers();
    }
    markPoints();
  }
  let confirming = false;  // the plan's command is on its way: the state it makes needs no new plan
  async function confirmPlan() {
    if (!plan || planning) return;
    const button = $("rn-confirm");
    button.disabled = true;
    confirming = true;
    const result = await last.ctx.send(plan.command).finally(() => { confirming = false; });
    if (result.type === "error") {
      Junction.showError($("rn-plan-error"), text(result.error.message, "That did not work."), button);
      renderPlan();
      return;
    }
    clearPlan();
    renderPlan();
  }
  $("rn-confirm").addEventListener("click", confirmPlan);
  $("rn-back").addEventListener("click", () => {
    if (mode !== "build" || !points.length) return;
    points.pop();
    Junction.showError($("rn-plan-error"), "");
    if (points.length) requestPlan({ plan: "build", points: [null, ...points] });
    else { clearPlan(); renderPlan(); }
  });
  $("rn-clear").addEventListener("click", () => { Junction.showError($("rn-plan-error"), ""); clearPlan(); renderPlan(); });

  // ---- your options, priced (the engine's listing) -----------------------------------------------
  const key = Junction.commandKey;
  const blockedBy = Junction.RailPage.blockedBy;
  const send = (command, button, errorBox) => Junction.RailPage.send(last.ctx, command, button, errorBox || $("play-error"));
  function foremanLine(id) {
    const f = foremen[id];
    return f ? f.name + " — " + f.kind_name + ": " + f.rule : text(id);
  }
  function labelFor(c, view, me) {
    switch (c.cmd) {
      case "keep-foreman":
        if (c.foreman === null) return "Keep none of them (wait for the re-deal)";
        return (view.hire && c.foreman === me.foreman ? "Keep my foreman, " : "Keep ") + foremanLine(c.foreman);
      case "hire-foreman":
        return c.mode === "draw" ? "Hire by drawing from the " + (c.source === "discard" ? "foreman discard pile" : "foreman deck") : "Hire " + foremanLine(c.foreman);
      case "pick-up": return "Load " + loadName(c.load);
      case "drop": return "Unload " + loadName(c.load) + " (no pay)";
      case "deliver": {
        const card = (me.hand || []).find((h) => h.id === c.card);
        const d = card && card.demands[c.demand];
        return d ? "Deliver " + loadName(d.load) + " to " + cityName(d.city) + " · +" + gold(d.payout) : "Deliver";
      }
      case "upgrade": {
        const t = locos[c.loco] || {};
        return "Upgrade to the " + locoName(c.loco) + " (" + mileposts(t.speed) + ", " + plural(t.loads, "load") + ")";
      }
      case "board-ship": return "Board a ship here (draw a ship card" + ((me.foreman && foremen[me.foreman] && (foremen[me.foreman].ability || {}).boarding_fee !== undefined) ? "s: choose one" : "; you pay its boarding cost") + ")";
      case "choose-ship": { const s = ships[c.ship] || {}; return "Board " + shipName(c.ship) + " (" + seaPoints(s.speed) + " a turn)"; }
      case "discard-hand": return "Discard my demand cards and draw new ones (ends my turn)";
      case "end-turn": return "End my turn";
      default: return text(c.cmd).replace(/-/g, " ");
    }
  }
  function optionRow(entry, legal, payload, me, reasons, className) {
    const view = payload.state, c = entry.command;
    const blocked = blockedBy(entry, legal, payload.status);
    const id = blocked ? "rn-why-" + (++reasons.n) : null;
    const price = entry.price ? (c.cmd === "board-ship" ? " · up to " : " · ") + gold(entry.price) : "";
    const primary = c.cmd === "deliver" || (c.cmd === "end-turn" && view.phase === "build");
    const button = el("button", { type: "button", class: primary ? "primary" : className || null, "data-cmd": c.cmd, "data-key": key(c), disabled: !!blocked, "aria-describedby": id,
      onclick: (ev) => send(c, ev.currentTarget) }, labelFor(c, view, me) + price);
    const words = Junction.RailPage.helpFor(c.cmd);
    if (words) button.title = words;
    const [toggle, panel] = Junction.RailPage.help("cmd:" + key(c), labelFor(c, view, me), words);
    return el("div", { class: "rn-option", "data-cmd": c.cmd }, button, toggle, blocked ? el("span", { class: "rn-reason", id }, text(blocked)) : null, panel);
  }
  const UNDO_HELP = "Take back the last thing you did this turn (a build, a move, a load); never a card drawn, and never once your turn is over.";
  function renderActions(payload) {
    const view = payload.state;
    const card = $("rn-actions-card");
    const me = meOf(view);
    card.hidden = !me || last.ctx.readOnly || view.finished;
    if (card.hidden) return;
    const legal = new Set((payload.legal_commands || []).map(key));
    const note = $("rn-actions-note");
    const myTurn = mine(payload);
    $("rn-actions-title").textContent = view.phase === "draft" ? "The foreman draft" : myTurn ? "Your turn" : "Your options";
    if (!myTurn) {
      note.hidden = false;
      const dealt = view.draft && view.draft.yours && view.draft.yours.length ? " Dealt to you: " + andList.format(view.draft.yours.map((f) => foremanName(f))) + "." : "";
      note.textContent = payload.status !== "active" ? text(STATUS_REASONS[payload.status], "Not now.")
        : view.pending ? (view.pending.yours ? "First choose the load to lose (above)." : "Waiting for " + who(view.pending.seat) + " to choose a load to lose.")
        : "Waiting for " + who(view.active_seat) + "." + dealt + " Your options show when it is your turn.";
      $("rn-actions").replaceChildren();
      return;
    }
    note.hidden = !(view.phase === "draft" || view.hire || view.ship_offer);
    note.textContent = view.phase === "draft" ? "Keep one of the foremen dealt to you" + (view.draft && view.draft.deal > 1 ? " (a re-deal: you must keep one)." : ", or none to wait for the re-deal.")
      : view.hire ? "You drew a foreman: keep it or the one you have (the other is discarded)."
      : view.ship_offer ? "Choose the ship to board (free); the others are discarded." : "";
    const reasons = { n: 0 };
    const entries = (view.listing || []).filter((e) => e.command.cmd !== "place-train");
    const order = { "choose-ship": 0, "keep-foreman": 0, deliver: 1, "pick-up": 2, drop: 3, "board-ship": 4, upgrade: 5, "hire-foreman": 6, "discard-hand": 7, "end-turn": 8 };
    const sorted = entries.slice().sort((a, b) => (order[a.command.cmd] ?? 9) - (order[b.command.cmd] ?? 9));
    const chosen = sorted.filter((e) => e.command.cmd === "hire-foreman" && e.command.mode === "choose");
    const out = [];
    for (const entry of sorted) {
      if (entry.command.cmd === "hire-foreman" && entry.command.mode === "choose") continue;
      if (entry.command.cmd === "end-turn" && chosen.length) {
        const open = chosen.some((e) => !blockedBy(e, legal, payload.status));
        out.push(el("details", { class: "rn-choose", id: "rn-choose" }, el("summary", {}, "Hire a foreman of your choice · " + gold(chosen[0].price) + (open ? "" : " (not now)")),
          ...chosen.map((e) => optionRow(e, legal, payload, me, reasons))));
      }
      out.push(optionRow(entry, legal, payload, me, reasons));
    }
    if (view.turn.acted && view.phase === "play") {
      const [toggle, panel] = Junction.RailPage.help("cmd:undo", "Undo my last move", UNDO_HELP);
      out.push(el("div", { class: "rn-option", "data-cmd": "undo" },
        el("button", { type: "button", "data-cmd": "undo", title: UNDO_HELP, onclick: (ev) => send({ cmd: "undo" }, ev.currentTarget) }, "Undo my last move"), toggle, panel));
    }
    $("rn-actions").replaceChildren(...out);
  }

  // ---- the decision an event asks (a lost load) ----------------------------------------------------
  let askShown = false;
  function renderAsk(payload) {
    const view = payload.state, box = $("rn-ask");
    const pending = view.pending;
    box.hidden = !pending;
    if (!pending) { $("rn-ask-choices").replaceChildren(); askShown = false; return; }
    const head = (pending.queue || [])[0] || {};
    const title = eventTitle(head.card);
    const yours = pending.yours && !last.ctx.readOnly && payload.status === "active" ? pending.yours : null;
    box.classList.toggle("mine", !!yours);
    // Asked just now: the question comes into view, wherever the page was scrolled to.
    if (yours && !askShown) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
    askShown = !!yours;
    const rest = (pending.queue || []).slice(1).map((q) => q.seat).filter((s) => s !== pending.seat);
    const after = rest.length ? " Then " + people([...new Set(rest)]) + (rest.length === 1 ? " chooses." : " choose, in seat order.") : "";
    if (yours) {
      say($("rn-ask-title"), title + ": you lose " + plural(yours.loads, "load"));
      say($("rn-ask-text"), text((events[head.card] || {}).text, "") + " Choose the load your train loses (it goes back to the supply)." + after);
      $("rn-ask-choices").replaceChildren(...yours.choices.map((load) => el("button", { type: "button", class: "primary", "data-load": load,
        onclick: (ev) => send({ cmd: "choose-load-to-lose", load }, ev.currentTarget, $("rn-ask-error")) }, "Lose " + loadName(load))));
    } else {
      say($("rn-ask-title"), title + ": " + who(pending.seat) + " is choosing");
      say($("rn-ask-text"), who(pending.seat) + " must choose a load to lose; the game goes on after." + after);
      $("rn-ask-choices").replaceChildren();
    }
  }

  // ---- events in force, rebuild rights -------------------------------------------------------------
  function renderEffects(view) {
    const list = view.effects || [];
    $("rn-effects-none").hidden = list.length > 0;
    $("rn-effects").replaceChildren(...list.map((e) => {
      const area = areaKeys[e.card];
      const layers = area ? [...new Set([...area.nodes, ...area.sea].map(layerOf))] : [];
      const first = area ? area.nodes[0] || area.sea[0] || (area.pairs[0] || "").split("|")[0] : null;
      return el("li", { class: "rn-effect", "data-card": e.card, "data-kind": e.kind, "data-status": e.status },
        el("b", {}, eventTitle(e.card)), el("span", { class: "muted" }, " — drawn by " + who(e.drawn_by)),
        el("div", {}, effectWords(e)),
        el("div", { class: "muted rn-ends" }, endWords(e)),
        area ? el("button", { type: "button", class: "rn-show-area", "data-card": e.card,
          onclick: () => { if (map && first) { if (layers.length === 1 && map.layer !== layers[0]) map.setLayer(layers[0]); map.focus(first); renderLayers();
            say($("rn-tapped"), "The area of " + eventTitle(e.card) + " is shaded in red on the map" + (layers.length === 1 && layers[0] !== 0 ? " (" + text(layerNames[layers[0]]) + ")" : "") + "."); } } },
          "Show its area on the map") : null);
    }));
    const rights = {};
    for (const seat of Object.values(view.rebuild_rights || {})) rights[seat] = (rights[seat] || 0) + 1;
    const lines = Object.entries(rights).map(([seat, n]) => who(Number(seat)) + " may rebuild " + sections(n) + " of destroyed track, ringed in brown on the map (nobody else may build there for now)");
    // The passages an event opens or closes (the gates between the layers are always open).
    const passages = (content.map.links || []).filter((l) => l.kind !== "entrance" && typeof (view.links || {})[l.name] === "boolean");
    $("rn-links").textContent = passages.map((l) => l.name + " is " + (view.links[l.name] ? "open" : "closed")).join("; ") + (passages.length ? "." : "");
    $("rn-rebuild").hidden = !lines.length;
    $("rn-rebuild").replaceChildren(...lines.map((l) => el("p", {}, l + ".")));
  }

  // ---- your demand cards -----------------------------------------------------------------------------
  function renderHand(payload) {
    const view = payload.state;
    const me = meOf(view);
    const card = $("rn-hand-card");
    card.hidden = !me || !Array.isArray(me.hand);
    if (card.hidden) return;
    const here = me.at ? cityAt(me.at) : null;
    const cards = me.hand.map((h, i) => {
      const demands = h.demands.map((d, j) => {
        const can = here === d.city && me.loads.includes(d.load);
        const on = highlight && highlight.card === h.id && highlight.demand === j;
        const sources = loadSources[d.load] || [];
        return Junction.RailPage.demandItem({ prefix: "rn", kind: "load", what: loadName(d.load), city: cityName(d.city), payout: gold(d.payout),
          sources: sources.map(cityName), on, can, data: { "data-card": h.id, "data-demand": j }, onclick: () => showDemand(h.id, j, d) });
      });
      return el("div", { class: "rn-card", "data-card": h.id }, el("div", { class: "rn-card-head muted" }, "Card " + (i + 1)), el("ul", { class: "rn-demands" }, demands));
    });
    $("rn-hand").replaceChildren(...cards);
  }
  function showDemand(card, demand, d) {
    if (!map) return;
    const on = highlight && highlight.card === card && highlight.demand === demand;
    highlight = on ? null : { card, demand };
    if (highlight) {
      map.setMarks(cityNodes[d.city] || [], "rn-demand-city");
      map.setMarks((loadSources[d.load] || []).flatMap((c) => cityNodes[c] || []), "rn-demand-source");
      map.focus((cityNodes[d.city] || [])[0]);
      renderLayers();
      $("rn-tapped").textContent = loadName(d.load) + " for " + cityName(d.city) + " (" + gold(d.payout) + "): the city is ringed in red, where it comes from (" +
        andList.format((loadSources[d.load] || []).map(cityName)) + ") in green.";
    } else {
      map.setMarks(null, "rn-demand-city");
      map.setMarks(null, "rn-demand-source");
    }
    if (last) renderHand(last.payload);
  }

  // ---- your train ------------------------------------------------------------------------------------
  function trainWhere(p) {
    if (p.sea_at) return "at sea (" + placeName(p.sea_at) + ") aboard " + shipName(p.ship);
    if (p.at) return atPlace(p.at) + (p.ship ? ", aboard " + shipName(p.ship) : "");
    return "not on the map yet";
  }
  function renderTrain(payload) {
    const view = payload.state;
    const me = meOf(view);
    $("rn-train-card").hidden = !me;
    if (!me) return;
    const loads = me.loads.length ? andList.format(me.loads.map(loadName)) : "nothing";
    const parts = [
      el("p", {}, el("b", {}, locoName(me.loco)), ": " + mileposts(me.speed) + " a turn, " + plural(me.capacity, "load") + "."),
      el("p", {}, "Foreman: " + (me.foreman ? foremanLine(me.foreman) : "none yet.")),
      el("p", {}, "The train is " + trainWhere(me) + ", carrying " + loads + "."),
    ];
    if (me.ship) { const s = ships[me.ship] || {}; parts.push(el("p", {}, shipName(me.ship) + ": " + seaPoints(s.speed) + " a turn. " + text(s.text, ""))); }
    if (me.lost_turns) parts.push(el("p", { class: "rn-warn" }, "Your next " + plural(me.lost_turns, "turn") + " will be skipped (an event)."));
    if (view.active_seat === view.you && view.phase !== "draft" && payload.status === "active" && !view.finished) {
      const t = view.turn;
      const paid = [];
      if (t.tolls_paid && t.tolls_paid.length) paid.push("tolls paid to " + people(t.tolls_paid));
      if (t.move_bribe_paid) paid.push("the Deepways movement bribe paid");
      if (t.build_bribe_paid) paid.push("the Deepways build bribe paid");
      parts.push(el("p", { class: "muted rn-turn-facts" }, "This turn: " + (view.phase === "play" ? mileposts(t.moves_used) + " of movement used, " + mileposts(t.moves_left) + " left" + (t.half_rate ? " (half rate)" : "") + "; " : "") +
        gold(t.budget_left) + " left to spend" + (paid.length ? "; " + andList.format(paid) : "") + "."));
    }
    $("rn-train").replaceChildren(...parts);
  }

  // ---- the players -----------------------------------------------------------------------------------
  const swatch = (color) => Junction.RailPage.colorSwatch("rn-swatch", color, colorHex[color], colorName(color));
  function renderPlayers(view) {
    const bySeat = Object.fromEntries(view.players.map((p) => [p.seat, p]));
    const asked = view.pending ? view.pending.seat : null;
    return view.order.filter((s) => bySeat[s]).map((seat, i) => {
      const p = bySeat[seat];
      const majors = (p.majors || []).map(cityName);
      return el("li", { class: "rn-player" + (seat === view.active_seat ? " active" : "") + (seat === asked ? " asked" : "") + (seat === view.you ? " me" : ""), "data-seat": seat },
        el("div", { class: "row between" },
          el("span", { class: "rn-who" }, swatch(p.color), el("b", {}, (i + 1) + ". " + text(p.name, who(seat)) + (seat === view.you ? " (you)" : ""))),
          el("b", { class: "rn-gold" }, gold(p.gold))),
        el("div", { class: "rn-line" }, locoName(p.loco) + ", " + trainWhere(p) + " · ", el("span", { class: "rn-loads" }, p.loads.length ? "carrying " + andList.format(p.loads.map(loadName)) : "empty")),
        el("div", { class: "rn-line muted" }, "Foreman: " + (p.foreman ? foremanName(p.foreman) : "none yet") + (view.draft && view.draft.dealt_counts && view.draft.dealt_counts[seat] ? " (" + plural(view.draft.dealt_counts[seat], "card") + " dealt)" : "")),
        el("div", { class: "rn-line muted" }, plural(p.sections, "section") + " of track · " + plural(p.hand_size, "demand card") + " · major cities joined: " + text(majors.length) + " of 8" + (majors.length ? " (" + majors.join(", ") + ")" : "")),
        p.lost_turns ? el("div", { class: "rn-line rn-warn" }, "Loses the next " + plural(p.lost_turns, "turn") + ".") : null,
        seat === asked ? el("div", { class: "rn-line rn-warn" }, "Choosing a load to lose…") : null);
    });
  }

  // ---- what happened (newest first) ----------------------------------------------------------------
  const feedRefresh = Junction.RailPage.feedOf($("rn-feed"), describe);
  const refreshFeed = (ctx) => feedRefresh(ctx, last ? last.payload.version : 0);

  // ---- what the marks and the words mean ----------------------------------------------------------
  function renderLegend(view) {
    if (!map) return;
    const sw = (kind, x) => Junction.RailMap.swatch(kind, Object.assign({ layout: map.layout }, x));
    const links = content.map.links || [];
    const passages = links.filter((l) => l.kind !== "entrance").map((l) => ({ key: "link-" + l.name, mark: sw("link"),
      words: text(l.name) + ": a passage between its two ends (one milepost of movement); it joins them for the win while open (faded: closed)" }));
    const gates = links.some((l) => l.kind === "entrance") ? [{ key: "gate", mark: sw("portal"),
      words: "A gate to " + text(layerNames[1], "the layer below") + ": the way between the layers (switch the map's layer with the buttons above it)" }] : [];
    const me = meOf(view) || view.players[0];
    const color = me ? text(colorHex[me.color], "#555555") : "#555555";
    Junction.RailPage.legend($("rn-legend"), Junction.RailPage.mapLegendGroups(map, content, view, gold, {
      port: "Port: a train boards a ship here",
      groups: [
        { title: "Sea, passages and gates", items: [{ key: "sea", mark: sw("sea"), words: "Sea: ships sail it from port to port" }, ...passages, ...gates] },
        { title: "Events", items: [
          { key: "area-stop", mark: sw("area", { cls: "rn-area-no-build" }), words: "An event's area where no one builds or no one loads" },
          { key: "area-slow", mark: sw("area", { cls: "rn-area-halt" }), words: "An event's area where trains are halted or slowed" },
          { key: "area-other", mark: sw("area", { cls: "rn-area-lose-turn" }), words: "Any other event's area (see Events in force)" },
          { key: "rebuild", mark: sw("mark", { cls: "rn-rebuild" }), words: "Destroyed track only its owner may rebuild for now" },
        ] },
      ],
      players: me ? [{ key: "ship", mark: sw("train", { color, ship: true, label: text(me.name, "?").slice(0, 1).toUpperCase() }), words: "A train aboard a ship" }] : [],
      marks: [
        { cls: "rn-point", words: "A milepost you tapped for the build" },
        { cls: "rn-demand-city", words: "The city of the demand you chose in your demand cards" },
        { cls: "rn-demand-source", words: "Where that demand's load comes from" },
      ],
    }));
  }
  function renderTerms(view) {
    const RP = Junction.RailPage;
    RP.helpHeading($("rn-hand-title"), "term:demands", "Each demand card lists three demands: a load, the city that wants it and the gold it pays. Carry the load there and deliver it: " +
      "you are paid, the card is discarded and a new one drawn (it may be an event, which takes effect at once). Tap a demand to see its city and where the load comes from.");
    RP.helpHeading($("rn-train-title"), "term:train", "Your loco: how many mileposts it moves a turn and how many loads it carries. " + RP.helpFor("upgrade") +
      " Your foreman changes some prices and rules for you alone (its card says how). " + RP.helpFor("hire-foreman"));
    RP.helpHeading($("rn-players-title"), "term:players", "Major cities joined: the major cities one network of a player's track connects. The first to join " +
      text(view.goal.majors) + " of the 8 and hold " + gold(view.goal.gold) + " wins. Using another player's track costs a toll paid to them.");
    RP.helpHeading($("rn-effects-title"), "term:events", "Events come up when demand cards are drawn: storms, closures, levies. Each says where and how long it lasts; its area is shaded on the map.");
  }

  // ---- the whole surface ---------------------------------------------------------------------------
  function headingFor(view) {
    if (view.finished || view.phase === "finished") return "The last round: round " + text(view.round);
    if (view.phase === "draft") return "The foreman draft" + (view.draft && view.draft.deal > 1 ? " (deal " + text(view.draft.deal) + ")" : "");
    if (view.phase === "build") return "Build round " + text(view.build_round) + " of " + text(view.build_rounds);
    return "Round " + text(view.round) + (view.options && view.options.round_limit ? " of " + text(view.options.round_limit) : "");
  }
  /* What the player may do next, one phrase per kind of command the rules allow now (the turn line). */
  const STEP_ORDER = ["keep-foreman", "choose-ship", "choose-load-to-lose", "deliver", "pick-up", "drop", "place-train", "move", "board-ship", "sail",
    "build", "upgrade", "hire-foreman", "discard-hand", "end-turn"];
  function stepWords(cmd, list, view, me, allowed) {
    const { either } = Junction.RailPage;
    switch (cmd) {
      case "keep-foreman":
        if (view.hire) return "keep the foreman you drew or the one you have";
        return "keep one of the foremen dealt to you" + (list.some((c) => c.foreman === null) ? " (or none, to wait for the re-deal)" : "");
      case "choose-ship": return "choose the ship to board";
      case "choose-load-to-lose": return "choose the load your train loses";
      case "deliver": return "deliver " + either(list.map((c) => {
        const d = ((me.hand || []).find((h) => h.id === c.card) || { demands: [] }).demands[c.demand];
        return d ? loadName(d.load) + " to " + cityName(d.city) + " (+" + gold(d.payout) + ")" : "a load";
      }));
      case "pick-up": return "load " + either(list.map((c) => loadName(c.load)));
      case "drop": return "unload " + either(list.map((c) => loadName(c.load))) + " (no pay)";
      case "place-train": return "put your train on any city (tap it on the map)";
      case "move": return "move your train (" + mileposts(view.turn.moves_left) + " left; tap where it should go)";
      case "board-ship": return "board a ship here";
      case "sail": return "sail (tap a sea point or a port)";
      case "build": return "build up to " + gold(view.turn.budget_left) + " of track";
      case "upgrade": return "upgrade your loco";
      case "hire-foreman": return "hire a foreman";
      case "discard-hand": return "swap all your demand cards for new ones (ends your turn)";
      case "end-turn":  // in a turn's spending part with no section left to afford: say why building is gone
        return !allowed.has("build") && (view.phase === "build" || view.stage === "build") ? "end your turn (nothing more to build this turn: " + gold(view.turn.budget_left) + " left)" : "end your turn";
      default: return null;
    }
  }
  function turnLine(payload, ctx) {
    const view = payload.state;
    if (view.finished || payload.status === "finished") {
      return "The game is over.";
    }
    if (payload.status !== "active" && STATUS_REASONS[payload.status]) return STATUS_REASONS[payload.status];
    if (view.pending) {
      if (view.pending.yours && !ctx.readOnly) return "An event takes a load from your train: choose which one.";
      return "Waiting for " + who(view.pending.seat) + " to choose a load to lose.";
    }
    if (ctx.readOnly) return who(view.active_seat) + "'s turn.";
    const me = meOf(view);
    if (!me || view.active_seat !== view.you) {
      if (view.phase === "draft") return who(view.active_seat) + " is choosing a foreman…";
      if (view.ship_offer) return "Waiting for " + who(view.active_seat) + " to choose a ship…";
      if (view.hire) return "Waiting for " + who(view.active_seat) + " to choose between two foremen…";
      return "Waiting for " + who(view.active_seat) + "…";
    }
    const steps = Junction.RailPage.nextSteps(payload, STEP_ORDER, (cmd, list, allowed) => stepWords(cmd, list, view, me, allowed));
    if (steps) return steps;
    if (view.phase === "draft") return "Your turn: keep one of the foremen dealt to you.";
    if (view.hire) return "Your turn: keep the foreman you drew, or the one you have.";
    if (view.ship_offer) return "Your turn: choose the ship to board.";
    if (view.phase === "build") return "Your turn: build up to " + gold(view.turn.budget_left) + " of track (or hire a foreman, or upgrade), then end your turn.";
    if (view.stage === "build") return "Your turn: spend up to " + gold(view.turn.budget_left) + " more on track, a foreman or an upgrade, then end your turn.";
    if (me.ship) return "Your turn: your train is aboard " + shipName(me.ship) + ": sail (tap a sea point or a port), then build or end your turn.";
    if (!me.at) return "Your turn: put your train on any city, or discard your demand cards.";
    return "Your turn: move (" + mileposts(view.turn.moves_left) + " left), load and deliver; then spend up to " + gold(view.turn.budget_left) + ".";
  }

  function renderAll() {
    if (!last || !content) return;
    const { payload, ctx } = last;
    const view = payload.state;
    ensureMap();
    names = Object.fromEntries(view.players.map((p) => [p.seat, p.name]));
    $("version").textContent = text(payload.version);
    $("rn-heading").textContent = headingFor(view);
    const turn = $("rn-turn");
    say(turn, turnLine(payload, ctx));
    turn.classList.toggle("mine", !!mine(payload) || !!(view.pending && view.pending.yours && !ctx.readOnly));
    // Game over: the ending (ranking, major cities and gold, how it was won) in place of the turn line.
    const winner = $("rn-winner");
    const ended = Junction.RailPage.showEnding(winner, payload, ctx, { kind: KIND, title: "Runerail" });
    if (ended) say(turn, "");
    else {
      winner.hidden = !view.finished;
      const won = (view.winners || []).map((s) => view.players.find((p) => p.seat === s)).filter(Boolean);
      winner.textContent = !view.finished ? "" : won.length ? andList.format(won.map((p) => text(p.name) + " (" + plural((p.majors || []).length, "major city", "major cities") + " joined, " + gold(p.gold) + ")")) +
        (won.length === 1 ? " won." : " share the win.") : "The game is over.";
    }
    turn.hidden = !!view.finished;  // the box below says how it ended, once
    winner.classList.toggle("rn-ended", ended);
    $("rn-goal").hidden = !!view.finished;
    const me = meOf(view);
    $("rn-goal").textContent = "To win: join " + text(view.goal.majors) + " of the 8 major cities with one network of your track and hold " + gold(view.goal.gold) + " at the end of your turn." +
      (me ? " You: " + text((me.majors || []).length) + " of 8, " + gold(me.gold) + "." : "");
    drawMap(view);
    renderLegend(view);
    renderTerms(view);
    renderAsk(payload);
    const before = modes.join();
    modes = modesFor(payload);
    const next = modes.includes(mode) ? mode : modes[0] || null;
    if (before !== modes.join() && !modes.includes(mode)) clearPlan();
    setMode(next, true);
    if (plan && !confirming && plan.version !== undefined && plan.version !== payload.version && plan.plan !== "place") {
      if (plan.plan === "build" && points.length) requestPlan({ plan: "build", points: [null, ...points] });
      else if ((plan.plan === "move" || plan.plan === "sail") && plan.target) requestPlan({ plan: plan.plan, to: plan.target.split(",").map(Number) }, plan.target);
      else clearPlan();
    }
    renderPlan();
    renderActions(payload);
    renderEffects(view);
    renderHand(payload);
    renderTrain(payload);
    $("rn-players").replaceChildren(...renderPlayers(view));
    $("rn-replay").hidden = !!ctx.readOnly;
    refreshFeed(ctx);
  }

  loadContent().catch(() => {});
  // The engine's words for each command (the buttons' help): drawn again once they come.
  Junction.RailPage.loadCommandHelp(KIND).then(() => { if (last && content) renderAll(); });

  window.JunctionPlay = {
    render(payload, ctx) {
      if (!payload || !payload.state) return;
      last = { payload, ctx };
      if (content) { renderAll(); return; }
      loadContent().then(renderAll).catch((err) => { $("rn-map-loading").textContent = "The map did not load: " + text(err && err.message, "try again") + "."; });
    },
    describe,
    describeAction,
    get map() { return map; },
  };
})();
