/* My games (/me/games): the signed-in player's seats are listed by the server. This script
 * offers to add the seats this browser holds (Junction.allTokens) that the account does not
 * have yet, and adds them at once right after sign-up (?welcome=1): POST /api/me/seats/claim
 * with the session and its CSRF token. An "Open" link of a seat this browser already holds goes
 * straight to the game. */
"use strict";
(() => {
  const data = Junction.readJson("my-games-data") || { held: [] };
  const $ = (id) => document.getElementById(id);
  const RESULT = "junction.claimed";  // the last claim's words, shown once after the reload
  const mine = new Set(data.held.map((h) => h.code + "/" + h.seat));
  const here = Junction.allTokens();

  // A seat this browser already holds: open it without a new device token.
  for (const link of document.querySelectorAll("#my-games-list .my-game")) {
    const held = here[link.dataset.code];
    if (held && held.token && String(held.seat) === link.dataset.seat) {
      link.querySelector(".my-game-open").href = "/games/" + link.dataset.code + "/";
    }
  }

  const said = sessionStorage.getItem(RESULT);
  if (said) {
    sessionStorage.removeItem(RESULT);
    $("claim-result").textContent = said;
    $("claim-result").hidden = false;
  }

  const candidates = Object.entries(here)
    .filter(([code, held]) => held && held.token && held.seat !== null && held.seat !== undefined && !mine.has(code + "/" + held.seat))
    .map(([code, held]) => ({ code, token: held.token }));
  if (!candidates.length) return;

  const form = $("claim"), errorBox = $("claim-error");
  $("claim-offer").textContent = "This device holds " + Junction.plural(candidates.length, "seat", "seats") +
    " your account does not have yet (" + candidates.map((c) => c.code).join(", ") + ").";
  form.hidden = false;

  function words(result) {
    const parts = [];
    if (result.claimed.length) parts.push("Added to your account: " + result.claimed.map((s) => s.name + " in " + s.code).join(", ") + ".");
    if (result.taken.length) parts.push("Held by another account: " + result.taken.map((s) => s.name + " in " + s.code).join(", ") + ".");
    if (result.unknown) parts.push(Junction.plural(result.unknown, "seat", "seats") + " of this device no longer exist or moved to another device.");
    return parts.join(" ") || "Nothing to add.";
  }

  let busy = false;
  async function claim() {
    if (busy) return;
    busy = true;
    Junction.showError(errorBox, "");
    $("claim-submit").disabled = true;
    $("claim-working").hidden = false;
    let response = null, body;
    try {
      response = await fetch(data.claim_url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "application/json",
                   "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value },
        body: JSON.stringify({ tokens: candidates.map((c) => c.token) }),
        credentials: "same-origin",
      });
      body = await response.json();
    } catch (e) {
      body = null;
    }
    $("claim-working").hidden = true;
    if (!response || !response.ok || !body) {
      busy = false;
      $("claim-submit").disabled = false;
      Junction.showError(errorBox, Junction.errorText({ status: response ? response.status : 0, data: body }));
      return;
    }
    sessionStorage.setItem(RESULT, words(body));
    location.replace(location.pathname);  // the list again, with the added seats
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); claim(); });
  if (data.welcome) claim();  // just signed up: the seats come along
})();
