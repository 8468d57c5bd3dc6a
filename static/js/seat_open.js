/* Open my seat on this device (/me/games/CODE/open?seat=N, from My games): the server makes this
 * device a token of its own for the signed-in player's seat; it is kept the way joining keeps
 * one, and the game opens. */
"use strict";
(() => {
  const data = Junction.readJson("seat-open-data");
  const $ = (id) => document.getElementById(id);
  const form = $("seat-open-form"), errorBox = $("seat-open-error");
  let busy = false;

  async function open() {
    if (busy) return;
    busy = true;
    Junction.showError(errorBox, "");
    $("seat-open-submit").disabled = true;
    $("seat-open-working").hidden = false;
    let response = null, body;
    try {
      response = await fetch(location.pathname, {
        method: "POST",
        headers: { "Accept": "application/json", "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value },
        body: new FormData(form),
        credentials: "same-origin",
      });
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response || !response.ok || !body || !body.token) {
      busy = false;
      $("seat-open-submit").disabled = false;
      $("seat-open-working").hidden = true;
      Junction.showError(errorBox, Junction.errorText({ status: response ? response.status : 0, data: body }));
      return;
    }
    Junction.saveSeat(body.code, { token: body.token, seat: body.seat, host: !!body.host });
    location.replace(body.url);
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); open(); });
  if (data) open();  // one tap on My games was the choice: nothing more to tap
})();
