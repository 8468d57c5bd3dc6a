/* Seats that come back (a phone died or lost its storage), for every page of a game:
 *  - JunctionRejoin.hostPanel(mount, options): the host's "hand a seat to a new device" panel:
 *    one button per seat; each asks the API for a one-time rejoin code and shows it with its
 *    QR code and link, until it is used or expires (the room page for a seated host, the table
 *    screen for a seatless one).
 *  - JunctionRejoin.seatMoved(code, error, hide): what a page shows when the server says this
 *    browser's token no longer holds its seat (error code "seat-moved"): a notice instead of
 *    the game, and the dead token is forgotten. */
"use strict";
const JunctionRejoin = (() => {
  const el = (...args) => Junction.el(...args);

  function minutes(seconds) {
    const m = Math.round(seconds / 60);
    return m <= 1 ? "a minute" : m + " minutes";
  }

  /* options: { code, token, seats: () => [summary seats], title?: string, toBot?: (seat) => bool }
   * toBot: whether the panel also offers to hand that seat to a bot while its player is away
   * (POST …/seats/{index}/bot; the player takes it back from their own device). */
  function hostPanel(mount, options) {
    const { code, token } = options;
    const list = el("ul", { class: "seats rejoin-seats" });
    const error = el("p", { class: "error", role: "alert", hidden: true });
    const shown = el("div", { class: "rejoin-shown stack", id: "rejoin-shown", hidden: true, "aria-live": "polite" });
    const summary = el("summary", { text: "A phone died? Hand its seat to a new device" });
    summary.style.padding = "12px 0";
    summary.style.cursor = "pointer";
    summary.style.fontWeight = "600";
    const panel = el("details", { class: "card rejoin-host", id: "rejoin-host" },
      summary,
      el("p", { class: "muted", text: "Pick the seat, then the player scans the code with the new phone (or opens the link, or types the code on this game's rejoin page). It works once, for a few minutes; the old device loses the seat. Every player is told, and a player's seat can be handed on only once their phone has been away for a minute." }),
      options.toBot ? el("p", { class: "muted", text: "A player away? A bot can play their seat until they take it back from their own device." }) : null,
      list, error, shown);
    mount.append(panel);
    let expiry = null;

    function hide() {
      clearInterval(expiry);
      shown.hidden = true;
      shown.replaceChildren();
    }

    function show(data) {
      // The server's SVG element, parsed as HTML would (it carries no xmlns): inert, no script.
      const qr = new DOMParser().parseFromString(data.qr_svg, "text/html").body.firstElementChild;
      const left = el("p", { class: "muted", id: "rejoin-expires" });
      const until = Date.now() + data.expires_in * 1000;
      const tick = () => {
        const seconds = Math.max(0, Math.round((until - Date.now()) / 1000));
        if (!seconds) { hide(); return; }
        left.textContent = "Works once, for " + minutes(seconds) + ".";
      };
      shown.replaceChildren(
        el("h3", { text: "For " + data.name + "’s new device" }),
        el("div", { class: "qr-block" },
          el("div", { class: "qr", role: "img", "aria-label": "QR code to take " + data.name + "’s seat" }, document.importNode(qr, true)),
          el("p", { class: "big-code" }, "Code ", el("span", { class: "code", id: "rejoin-code-shown", text: data.code })),
          el("p", { class: "join-url" }, el("a", { id: "rejoin-url", href: data.url, text: data.url }))),
        left,
        el("button", { type: "button", text: "Done", onclick: hide }));
      shown.hidden = false;
      shown.scrollIntoView({ block: "nearest" });
      clearInterval(expiry);
      tick();
      expiry = setInterval(tick, 5000);
    }

    async function issue(seat, button) {
      Junction.showError(error, "");
      button.disabled = true;
      const result = await Junction.api("POST", "/api/games/" + code + "/seats/" + seat.index + "/rejoin-code", undefined, token);
      button.disabled = false;
      if (!result.ok) { Junction.showError(error, Junction.errorText(result)); return; }
      show(result.data);
    }

    async function toBot(seat, button) {
      Junction.showError(error, "");
      button.disabled = true;
      const result = await Junction.api("POST", "/api/games/" + code + "/seats/" + seat.index + "/bot", undefined, token);
      button.disabled = false;
      if (!result.ok) { Junction.showError(error, Junction.errorText(result)); return; }
      if (result.data && result.data.game) update(result.data.game.seats);
    }

    function update(seats) {
      list.replaceChildren(...(seats || []).map((seat) => {
        const button = el("button", { type: "button", "data-seat": seat.index, text: "New device for " + seat.name });
        button.addEventListener("click", () => issue(seat, button));
        // A seat whose player is away, to a bot until they are back (clocks: games/clocks.py).
        const bot = options.toBot && options.toBot(seat)
          ? el("button", { type: "button", "data-seat-bot": seat.index, text: "Bot plays for " + seat.name }) : null;
        if (bot) bot.addEventListener("click", () => toBot(seat, bot));
        const li = el("li", { class: "seat" },
          el("span", { class: "dot dot-" + seat.color }),
          seat.is_bot ? el("span", { class: "tag", text: (seat.bot || "a") + " bot plays it" + (seat.away ? " until they are back" : "") }) : null,
          button, bot);
        if (bot) li.style.flexWrap = "wrap";
        return li;
      }));
    }

    update(options.seats());
    return { update, element: panel };
  }

  let moved = false;
  /* The server said this browser's token lost its seat: show why, stop showing the game
   * (hide: the elements to hide), forget the token (a reload watches as a spectator). */
  function seatMoved(code, error, hide) {
    if (moved) return;
    moved = true;
    const mine = Junction.seatFor(code);
    if (mine) Junction.saveSeat(code, { token: null, seat: null, host: false });
    for (const node of hide || []) if (node) node.hidden = true;
    // A link as tall as a button: a tap target of its own, not a word in a sentence.
    const link = (href, text) => {
      const a = el("a", { href, text });
      Object.assign(a.style, { display: "inline-flex", alignItems: "center", minHeight: "44px", minWidth: "44px" });
      return a;
    };
    const notice = el("section", { class: "card seat-moved", id: "seat-moved", role: "alert" },
      el("h2", { text: "This device no longer holds your seat" }),
      el("p", { text: "Another device took it with a new-device code (the host's or a game master's), and every player was told. If this is your phone, ask the host for a new code to take the seat back here." }),
      el("p", { class: "row" }, link("/games/" + code + "/rejoin", "I have a rejoin code"), link("/games/" + code + "/", "Watch the game")));
    const page = document.querySelector("main.page") || document.body;
    page.prepend(notice);
    document.body.dataset.seatMoved = "true";
  }

  return { hostPanel, seatMoved };
})();
