/* My games' "Going away" panel: declare an away period for slow games (POST /api/me/away {days}) or
 * end it now (DELETE /api/me/away), with the session's CSRF token; the panel then says what holds. */
(function () {
  "use strict";
  const form = document.getElementById("away-form");
  const endButton = document.getElementById("away-end");
  const status = document.getElementById("away-status");
  const error = document.getElementById("away-error");
  if (!form || !endButton || !status) return;

  function csrf() { const field = form.querySelector("[name=csrfmiddlewaretoken]"); return field ? field.value : ""; }
  function show(data) {
    status.textContent = data.away ? "You are away until " + Junction.dayFormat.format(new Date(data.ends_at)) + ". Your clocks in slow games wait until then."
      : "You have " + data.days_left + (data.days_left === 1 ? " day" : " days") + " of absence left in these 30 days.";
    form.hidden = !!data.away;
    endButton.hidden = !data.away;
    const select = document.getElementById("away-days");
    for (const option of select.options) option.disabled = Number(option.value) > data.days_left;
    document.getElementById("away-submit").disabled = data.days_left < 1;
  }
  async function send(method, body) {
    error.hidden = true;
    let response;
    try {
      response = await fetch("/api/me/away", {
        method, credentials: "same-origin", body: body ? JSON.stringify(body) : undefined,
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
      });
    } catch (_) {
      error.textContent = "No connection: nothing was changed. Try again.";
      error.hidden = false;
      return;
    }
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      error.textContent = (data && data.error && data.error.message) || "That did not work (" + response.status + ").";
      error.hidden = false;
      return;
    }
    show(data);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("POST", { days: Number(document.getElementById("away-days").value) });
  });
  endButton.addEventListener("click", () => send("DELETE"));
})();
