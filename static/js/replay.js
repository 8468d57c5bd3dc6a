/* Step through a game action by action; each step is the spectator view rebuilt
 * on the server from the log, drawn by the game's own play surface. */
"use strict";
(() => {
  const game = Junction.readJson("game-data");
  const $ = (id) => document.getElementById(id);
  let step = 1, last = game.version, loading = 0;
  // The play surface draws the step as a spectator would see it; ctx.log holds the log up to
  // the step, so its feed says in words what happened until then, as the live page's does.
  const ctx = { code: game.code, readOnly: true, log: [], get summary() { return game; },
    send: async () => ({ type: "error", error: { code: "read-only", message: "This is a replay." } }),
    api: (method, path, body) => Junction.api(method, path, body) };

  // The log, read once and kept: fetched forward in pages (GET …/actions?after=n) as far as
  // the step shown needs, never again for a step already read.
  const log = [];
  let logRead = 0, logLoading = null;
  async function logThrough(n) {
    while (logRead < n) {
      if (!logLoading) {  // one request at a time: two steps asked at once share it
        logLoading = Junction.api("GET", "/api/games/" + game.code + "/actions?after=" + logRead).then((result) => {
          logLoading = null;
          if (!result.ok || !Array.isArray(result.data)) return false;
          const before = logRead;
          for (const action of result.data) if (action.sequence > logRead) { log.push(action); logRead = action.sequence; }
          return logRead > before;  // nothing new: the log ends here
        });
      }
      if (!(await logLoading)) return;
    }
  }
  const logUpTo = (n) => log.filter((a) => a.sequence <= n);
  // The game's status at a step: the game master's pause, resume and end are in the log; the
  // last step has the game's own (finished, say).
  const ADMIN_STATUS = { pause: "paused", resume: "active", end: "abandoned" };
  function statusAt(n, current) {
    if (n >= last) return current;
    let status = "active";
    for (const a of logUpTo(n)) if (a.command && a.command.cmd === "admin" && ADMIN_STATUS[a.command.action]) status = ADMIN_STATUS[a.command.action];
    return status;
  }

  // The platform's own events, which any title's log may hold (a game master's change, a seat
  // handed to a new device), in words (Junction.platformEvent); the play surface's describe()
  // speaks for its title's.
  const platformEvent = (e) => Junction.platformEvent(e, seatName);

  // A command's arguments as words: "route Chicago-Detroit, segments 2"; what is missing
  // (null) is left out, never shown.
  function argText(value) {
    if (value === null || value === undefined) return "";
    if (Array.isArray(value)) return value.map(argText).filter(Boolean).join(", ");
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => { const t = argText(v); return t ? k.replace(/_/g, " ") + " " + t : ""; }).filter(Boolean).join(", ");
    if (typeof value === "number") return Junction.number(value);
    return Junction.text(value, "");
  }
  const seatName = (index) => { const s = game.seats.find((x) => x.index === index); return s ? s.name : "seat " + (Number(index) + 1); };
  function describeAction(action) {
    if (!action || !action.command) return "";
    // A title that tells its own actions in words (its play surface's describeAction) does.
    const own = window.JunctionPlay && window.JunctionPlay.describeAction && action.command.cmd !== "admin" ? window.JunctionPlay.describeAction(action) : "";
    if (own) return own;
    const command = action.command;
    const who = action.seat === null || action.seat === undefined ? "The host" : seatName(action.seat);
    if (command.cmd === "start") return who + " started the game.";
    // A game master's change ({"cmd": "admin", "action", "by", ...}): who made it, and what.
    const admin = command.cmd === "admin";
    // "hidden": the arguments another seat's choice keeps back (games/redaction.py), null here: not said
    const skip = new Set(admin ? ["cmd", "action", "by", "seat", "hidden"] : ["cmd", "hidden"]);
    const args = Object.entries(command).filter(([k]) => !skip.has(k)).map(([k, v]) => { const t = argText(v); return t ? k.replace(/_/g, " ") + " " + t : ""; }).filter(Boolean).join(", ");
    if (admin) {
      const said = (action.events || []).map(platformEvent).filter(Boolean);
      if (said.length) return said.join(" ");
      const on = command.seat !== null && command.seat !== undefined ? " for " + seatName(command.seat) : "";
      return "The game master" + (command.by ? " (" + Junction.text(command.by) + ")" : "") + ": " + String(command.action || "change").replace(/-/g, " ") + on + (args ? " (" + args + ")" : "");
    }
    return who + ": " + String(command.cmd || "").replace(/-/g, " ") + (args ? " (" + args + ")" : "");
  }

  async function show(n) {
    step = Math.max(1, Math.min(last, n));
    const ticket = ++loading;
    const [result] = await Promise.all([Junction.api("GET", "/api/games/" + game.code + "/replay?step=" + step), logThrough(step)]);
    if (ticket !== loading) return;  // a newer request is on its way
    if (!result.ok) { Junction.showError($("rp-error"), Junction.errorText(result)); return; }
    Junction.showError($("rp-error"), "");
    last = result.data.last;
    $("rp-slider").max = last; $("rp-slider").value = step;
    $("rp-step").textContent = step; $("rp-last-step").textContent = last;
    ctx.log = logUpTo(step);
    document.body.dataset.step = step;
    if (window.JunctionPlay) window.JunctionPlay.render({ version: step, status: statusAt(step, result.data.status), seat: null, state: result.data.state, legal_commands: [], result: result.data.result }, ctx);
    // After the surface has drawn the step: a title that words its own actions knows the names by then.
    $("rp-action").textContent = describeAction(result.data.action);
  }

  $("rp-first").onclick = () => show(1);
  $("rp-prev").onclick = () => show(step - 1);
  $("rp-next").onclick = () => show(step + 1);
  $("rp-last").onclick = () => show(last);
  $("rp-slider").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.closest && e.target.closest(".railmap, input, select, textarea")) return;  // the map's own arrows pan it
    if (e.key === "ArrowRight") show(step + 1);
    if (e.key === "ArrowLeft") show(step - 1);
  });
  window.addEventListener("load", () => show(Number(new URLSearchParams(location.search).get("step")) || 1));
})();
