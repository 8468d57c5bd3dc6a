"use strict";
(() => {
  const form = document.getElementById("create-form");
  const errorBox = document.getElementById("create-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    Junction.showError(errorBox, "");
    const name = document.getElementById("create-name").value.trim();
    const body = { kind: document.getElementById("create-kind").value };
    if (name) body.name = name;
    const result = await Junction.api("POST", "/api/games", body);
    if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); return; }
    const game = result.data;
    Junction.saveSeat(game.code, { token: game.host_token, host: true, seat: game.seat });
    location.href = "/games/" + game.code + "/";
  });

  document.getElementById("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = document.getElementById("code-input").value.trim().toUpperCase();
    if (code) location.href = "/join/" + encodeURIComponent(code);
  });

  // The list of open games refreshes itself when games are created, filled or started.
  const list = document.getElementById("open-games");
  async function refresh() {
    const result = await Junction.api("GET", "/api/games?status=lobby");
    if (!result.ok) return;
    list.replaceChildren(...(result.data.length ? result.data.map((g) =>
      Junction.el("li", {}, Junction.el("a", { href: "/join/" + g.code }, g.title + " · ", Junction.el("b", { text: g.code }), " · " + g.seats.length + "/" + g.max_players))
    ) : [Junction.el("li", { class: "muted", text: "No open games yet." })]));
  }
  let socket, retry = 0;
  function listen() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(proto + "//" + location.host + "/ws/lobby/");
    socket.onopen = () => { retry = 0; refresh(); };
    socket.onmessage = () => refresh();
    socket.onclose = () => setTimeout(listen, Math.min(10000, 500 * Math.pow(2, retry++)));
  }
  listen();
})();
