"use strict";
(() => {
  const game = Junction.readJson("game-data");
  const form = document.getElementById("join-form");
  if (!form) return;
  const known = Junction.seatFor(game.code);
  if (known && known.seat !== null && known.seat !== undefined) { location.href = "/games/" + game.code + "/"; return; }
  const colors = Junction.PALETTE.map((c) => c.name);  // the seats' palette (Okabe–Ito): the colour you play
  const taken = new Set(game.seats.map((s) => s.color));
  const box = document.getElementById("color-choices");
  let first = true;
  for (const color of colors) {
    const id = "color-" + color;
    const input = Junction.el("input", { type: "radio", name: "color", value: color, id, disabled: taken.has(color) });
    if (!taken.has(color) && first) { input.checked = true; first = false; }
    box.append(Junction.el("label", { class: "swatch swatch-" + color, for: id, title: Junction.colorLabel(color) }, input, Junction.el("span", { text: Junction.colorLabel(color) })));
  }
  const errorBox = document.getElementById("join-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    Junction.showError(errorBox, "");
    const checked = form.querySelector("input[name=color]:checked");
    const body = { name: document.getElementById("join-name").value.trim() };
    if (checked) body.color = checked.value;
    const mine = Junction.seatFor(game.code);
    const result = await Junction.api("POST", "/api/games/" + game.code + "/seats", body, mine && mine.token);
    if (!result.ok) { Junction.showError(errorBox, Junction.errorText(result)); return; }
    Junction.saveSeat(game.code, { token: result.data.token || (mine && mine.token), seat: result.data.seat, host: !!(mine && mine.host) });
    location.href = "/games/" + game.code + "/";
  });
})();
