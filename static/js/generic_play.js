/* A play surface that works for any engine: whose turn, the legal commands as
 * buttons, the JSON state and the log. Game titles replace it with their own. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  let lastVersion = 0;

  function label(command) {
    const args = Object.entries(command).filter(([k]) => k !== "cmd").map(([k, v]) => k + " " + JSON.stringify(v));
    return command.cmd + (args.length ? " (" + args.join(", ") + ")" : "");
  }

  async function refreshLog(ctx, version) {
    if (ctx.readOnly) return;
    const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + Math.max(0, lastVersion));
    if (!result.ok) return;
    for (const action of result.data) {
      const seat = ctx.summary.seats.find((s) => s.index === action.seat);
      $("log").append(Junction.el("li", { value: action.sequence }, (seat ? seat.name : "host") + ": " + label(action.command)));
      lastVersion = action.sequence;
    }
  }

  window.JunctionPlay = {
    render(payload, ctx) {
      $("version").textContent = payload.version;
      $("state-json").textContent = JSON.stringify(payload.state, null, 2);
      const mine = payload.legal_commands || [];
      $("turn").textContent = payload.status === "finished" ? "Game over." : mine.length ? "Your move." : "Waiting for others…";
      $("legal").replaceChildren(...mine.map((command) => Junction.el("button", {
        type: "button", class: "command",
        onclick: async () => {
          Junction.showError($("play-error"), "");
          const result = await ctx.send(command);
          if (result.type === "error") Junction.showError($("play-error"), result.error.message);
        },
      }, label(command))));
      refreshLog(ctx, payload.version);
    },
  };
})();
