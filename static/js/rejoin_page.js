/* The rejoin page (/games/CODE/rejoin#REJOINCODE): the host's one-time code moves a seat to
 * this browser. The code comes in the link's fragment (or is typed); the page takes the seat
 * over the API, keeps the new token as joining does, and opens the game. */
"use strict";
(() => {
  const game = Junction.readJson("game-data");
  const $ = (id) => document.getElementById(id);
  const form = $("rejoin-form"), input = $("rejoin-code"), errorBox = $("rejoin-error");
  const fromLink = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  if (fromLink) {
    input.value = fromLink;
    // Out of the address bar and history: the code is used once, and nobody should copy it on.
    history.replaceState(null, "", location.pathname + location.search);
  }

  // This browser already holds a seat (or the host's token) in this game: taking another one
  // here replaces it, so ask first instead of taking it at once.
  const held = Junction.seatFor(game.code);
  const holds = held && held.token;
  if (holds) {
    const seat = (game.seats || []).find((s) => s.index === held.seat);
    const what = seat ? seat.name + "’s seat" : held.host ? "the host’s controls" : "a seat";
    const note = $("rejoin-replaces");
    note.textContent = "This browser already holds " + what + " in this game; taking the seat of the code replaces it here.";
    note.hidden = false;
  }

  let busy = false;
  async function take() {
    if (busy) return;
    const value = input.value.trim();
    if (!value) { Junction.showError(errorBox, "Type the code the host shows you."); input.focus(); return; }
    busy = true;
    Junction.showError(errorBox, "");
    $("rejoin-submit").disabled = true;
    $("rejoin-working").hidden = false;
    const result = await Junction.api("POST", "/api/games/" + game.code + "/rejoin", { code: value });
    if (!result.ok) {
      busy = false;
      $("rejoin-submit").disabled = false;
      $("rejoin-working").hidden = true;
      Junction.showError(errorBox, Junction.errorText(result));
      return;
    }
    const data = result.data;
    Junction.saveSeat(game.code, { token: data.token, seat: data.seat, host: !!data.host });
    document.body.dataset.rejoined = "true";
    location.href = "/games/" + game.code + "/";
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); take(); });
  if (fromLink && !holds) take();  // one scan: nothing to tap
})();
