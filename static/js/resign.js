/* Leave this game (games/resign.py): at the foot of every game page, for a player whose seat is still theirs
 * while the game is on. Two taps: "Resign", then "Yes, resign from this game". The game's summary (live over
 * the socket: the junction:game event) decides whether it shows; the page redraws from the broadcast. */
(() => {
  "use strict";
  const box = document.getElementById("resign-box");
  const room = document.getElementById("room");
  if (!box || !room) return;
  const code = room.dataset.code;
  const ask = document.getElementById("resign"), confirm = document.getElementById("resign-confirm");
  const error = document.getElementById("resign-error");

  function show(game) {
    const mine = Junction.seatFor(code);
    const seat = mine && Number.isInteger(mine.seat) ? (game.seats || []).find((s) => s.index === mine.seat) : null;
    const playing = ["active", "paused"].includes(game.status) && !!(mine && mine.token) && !!seat && !seat.is_bot && !seat.resigned;
    box.hidden = !playing;
    if (!playing) { confirm.hidden = true; ask.hidden = false; }
  }

  ask.addEventListener("click", () => { ask.hidden = true; confirm.hidden = false; confirm.focus(); });
  confirm.addEventListener("click", async () => {
    const mine = Junction.seatFor(code);
    confirm.disabled = true;
    const result = await Junction.api("POST", "/api/games/" + encodeURIComponent(code) + "/seats/me/resign", undefined, mine && mine.token);
    confirm.disabled = false;
    if (!result.ok) { Junction.showError(error, Junction.errorText(result), confirm); return; }
    Junction.showError(error, "");
    box.open = false;
    if (result.data && result.data.game) show(result.data.game);
  });
  document.addEventListener("junction:game", (event) => show(event.detail || {}));
  const initial = Junction.readJson("game-data");
  if (initial) show(initial);
})();
