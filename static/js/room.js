/* The room page: waiting room (code, QR, seats live, host starts) and, once the
 * game is on, hands each state to the game's play script (window.JunctionPlay). */
"use strict";
(() => {
  const initial = Junction.readJson("game-data");
  const code = initial.code;
  const mine = Junction.seatFor(code) || {};
  const $ = (id) => document.getElementById(id);
  const errorBox = $("room-error");
  let summary = initial;
  let filling = false;

  function renderGame(game) {
    // An HTTP answer read before a change whose summary the socket already brought: keep the newer.
    if (Junction.summaryOlder(game, summary)) return;
    summary = game;
    $("seat-count").textContent = game.seats.length + "/" + game.max_players;
    const lobby = game.status === "lobby";
    const reorder = lobby && mine.host && game.seats.length > 1;  // the host's ↑/↓: the seats' order is the game's
    $("seat-list").replaceChildren(...game.seats.map((s, k) =>
      Junction.el("li", { class: "seat" + (s.index === mine.seat ? " me" : ""), "data-seat": s.index, "data-color": s.color },
        Junction.el("span", { class: "dot dot-" + s.color, title: Junction.colorLabel(s.color) }), s.name,
        s.is_host ? Junction.el("span", { class: "tag", text: "host" }) : null,
        s.is_bot ? Junction.el("span", { class: "tag", text: s.bot + " bot" }) : null,
        s.index === mine.seat ? Junction.el("span", { class: "tag you", text: "you" }) : null,
        reorder ? Junction.el("span", { class: "seat-move" },
          moveButton(game, k, -1, "↑", "Move " + s.name + " up"), moveButton(game, k, 1, "↓", "Move " + s.name + " down")) : null,
        lobby && mine.host && !s.is_host ? removeButton(s) : null)));
    listing(game);
    $("waiting-room").hidden = !lobby;
    $("play").hidden = lobby;
    $("host-controls").hidden = !(lobby && mine.host);
    $("waiting-host").hidden = !(lobby && !mine.host && mine.seat !== undefined && mine.seat !== null);
    $("not-seated").hidden = !(lobby && (mine.seat === undefined || mine.seat === null) && !mine.host);
    const start = $("start-game");
    if (start && !filling) start.disabled = game.seats.length < game.min_players;
    const full = game.seats.length >= game.max_players;
    for (const id of ["add-bot", "fill-bots"]) { const b = $(id); if (b && !filling) b.disabled = full; }
    document.body.dataset.status = game.status;
    if (rejoinPanel) { rejoinPanel.update(game.seats); rejoinPanel.element.hidden = !["lobby", "active", "paused"].includes(game.status); }
    unrated(game);
    seatClock(game);  // the clock and, for a seat a bot keeps while its player is away, the way back
    if (window.JunctionPlay && window.JunctionPlay.onGame) window.JunctionPlay.onGame(game);
  }
  // Open table or unlisted (games/listing.py): said to everyone in the waiting room; the host's switch.
  function listing(game) {
    $("listing-line").textContent = game.listed
      ? "Open table: listed on the home page for anyone to join."
      : "Unlisted table: only people with the code, the link or the QR code can join or watch.";
    const toggle = $("listing-toggle");
    if (toggle) { toggle.textContent = game.listed ? "Make unlisted" : "Open table"; toggle.dataset.listed = game.listed ? "true" : "false"; }
  }
  const listingToggle = $("listing-toggle");
  if (listingToggle) listingToggle.addEventListener("click", async () => {
    Junction.showError(errorBox, "");
    listingToggle.disabled = true;
    const result = await Junction.api("POST", "/api/games/" + code + "/listing", { listed: !summary.listed }, mine.token);
    listingToggle.disabled = false;
    if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); return; }
    renderGame(result.data.game);
  });

  /* The host removes a person (or a bot) from the waiting room (POST …/seats/{index}/remove,
   * games/seating.py): their seat is freed, their page is told. */
  function removeButton(seat) {
    const words = "Remove " + seat.name;
    const button = Junction.el("button", { type: "button", class: "seat-remove", "aria-label": words, title: words, text: "Remove" });
    button.addEventListener("click", async () => {
      Junction.showError(errorBox, "");
      button.disabled = true;
      const result = await Junction.api("POST", "/api/games/" + code + "/seats/" + seat.index + "/remove", undefined, mine.token);
      if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); button.disabled = false; return; }
      renderGame(result.data.game);
    });
    return button;
  }
  // This browser's seat was removed by the host (the error seat-removed): say so in words instead of
  // the room, and forget the token.
  let removed = false;
  function seatRemoved() {
    if (removed) return;
    removed = true;
    Junction.saveSeat(code, { token: null, seat: null, host: false });
    $("room").hidden = true;
    $("conn").hidden = true;  // closed on purpose: no "offline" badge
    const link = (href, text) => Junction.el("a", { href, text, class: "button-link" });
    const notice = Junction.el("section", { class: "card seat-removed", id: "seat-removed", role: "alert" },
      Junction.el("h2", { text: "The host removed you from this table" }),
      Junction.el("p", { text: "Your seat in the waiting room is free again, and this device no longer holds it. If that was a mistake, ask the host for the link and join again." }),
      Junction.el("p", { class: "row" }, link("/", "Back to the home page"), link("/games/" + code + "/", "Watch the game")));
    (document.querySelector("main.page") || document.body).prepend(notice);
  }

  // The host hands a seat to a new device (static/js/rejoin.js): a phone that died comes back; once
  // the game is on, a seat whose player is away goes to a bot until they take it back.
  const rejoinPanel = mine.host && typeof JunctionRejoin !== "undefined"
    ? JunctionRejoin.hostPanel($("room"), { code, token: mine.token, seats: () => summary.seats,
      toBot: (seat) => !!$("bot-level") && ["active", "paused"].includes(summary.status) && !seat.is_bot && seat.index !== mine.seat }) : null;
  const seatClock = Junction.seatClock($("room"), { code, seat: mine.seat, token: mine.token });
  // At the end of a game of signed-in players that a seat handed to another device made unrated
  // (games/rejoin.py: summary.unrated_reason), the page says so above the game.
  function unrated(game) {
    let line = $("game-unrated");
    if (game.status !== "finished" || !game.unrated_reason) { if (line) line.hidden = true; return; }
    if (!line) { line = Junction.el("p", { class: "card game-unrated", id: "game-unrated", role: "status" }); $("play").prepend(line); }
    line.textContent = "Not rated: " + game.unrated_reason + ".";
    line.hidden = false;
  }

  // A state that came before the play script ran (a fast socket, a slow script download) is
  // drawn once the deferred scripts have run, not left undrawn until the next move.
  let early = null;
  document.addEventListener("DOMContentLoaded", () => {
    if (early && window.JunctionPlay) { const payload = early; early = null; window.JunctionPlay.render(payload, context); }
  });

  const connection = Junction.connectGame(code, mine.token, {
    onStatus: Junction.liveBadge($("conn")),
    onGame: renderGame,
    onSeat(seat) {  // the host reordered the seats: this device's seat has this index now (junction.js saved it)
      mine.seat = seat;
      context.seat = seat;
      renderGame(summary);
    },
    onState(payload) {
      document.body.dataset.version = payload.version;
      if (window.JunctionPlay) window.JunctionPlay.render(payload, context);
      else early = payload;  // the play script (deferred) is not in yet: it draws this once it is
    },
    onError(error) {
      // Its seat was handed to another device: say so instead of showing the game.
      if (error.code === "seat-moved" && typeof JunctionRejoin !== "undefined") { JunctionRejoin.seatMoved(code, error, [$("room")]); return; }
      if (error.code === "seat-removed") { seatRemoved(); return; }
      Junction.showError(errorBox, error.message);
    },
  });

  /* The host moves the seat at position k of the list one place (POST …/seats/order, games/seating.py):
   * the summary the change broadcasts redraws the list. */
  function moveButton(game, k, step, label, words) {
    const to = k + step;
    const button = Junction.el("button", { type: "button", class: "seat-move-" + (step < 0 ? "up" : "down"), "aria-label": words, title: words,
      text: label, disabled: to < 0 || to >= game.seats.length });
    button.addEventListener("click", async () => {
      Junction.showError(errorBox, "");
      const order = game.seats.map((s) => s.index);
      [order[k], order[to]] = [order[to], order[k]];
      button.disabled = true;
      const result = await Junction.api("POST", "/api/games/" + code + "/seats/order", { order }, mine.token);
      if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); button.disabled = false; return; }
      renderGame(result.data.game);
    });
    return button;
  }

  const context = {
    code, seat: mine.seat, token: mine.token, host: !!mine.host,
    get summary() { return summary; },
    send: (command) => connection.send(command),
    api: (method, path, body) => Junction.api(method, path, body, mine.token),
  };
  window.JunctionRoom = context;

  const start = $("start-game");
  if (start) start.addEventListener("click", async () => {
    Junction.showError(errorBox, "");
    start.disabled = true;
    const result = await Junction.api("POST", "/api/games/" + code + "/start", undefined, mine.token);
    if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); start.disabled = false; }
  });
  const addBot = $("add-bot");
  const seatBot = () => Junction.api("POST", "/api/games/" + code + "/seats", { bot: $("bot-level").value }, mine.token);
  if (addBot) addBot.addEventListener("click", async () => {
    Junction.showError(errorBox, "");
    const result = await seatBot();
    if (!result.ok) Junction.showError(errorBox, Junction.errorText(result));
    else if (result.data && result.data.game) renderGame(result.data.game);
  });
  // One bot at a time (the same call as "Add bot") until the table is full.
  const fill = $("fill-bots");
  if (fill) fill.addEventListener("click", async () => {
    Junction.showError(errorBox, "");
    filling = true;
    for (const id of ["fill-bots", "add-bot", "start-game"]) { const b = $(id); if (b) b.disabled = true; }
    const label = fill.textContent;
    try {
      for (let guard = 0; summary.seats.length < summary.max_players && guard < summary.max_players; guard++) {
        fill.textContent = "Seating bots… " + summary.seats.length + "/" + summary.max_players;
        const result = await seatBot();
        if (!result.ok) {
          const errCode = result.data && result.data.error && result.data.error.code;
          if (errCode !== "game-full") Junction.showError(errorBox, Junction.errorText(result));
          break;
        }
        if (result.data && result.data.game) renderGame(result.data.game);
      }
    } finally {
      filling = false;
      fill.textContent = label;
      renderGame(summary);
    }
  });
  renderGame(initial);
})();
