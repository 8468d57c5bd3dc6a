/* A play surface that works for any engine: whose turn, the legal commands as
 * buttons, the state and the log. Game titles replace it with their own. */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, text } = Junction;

  function label(command) {
    const args = Object.entries(command).filter(([k]) => k !== "cmd").map(([k, v]) => k + " " + shown(v));
    return text(command.cmd, "command") + (args.length ? " (" + args.join(", ") + ")" : "");
  }

  /* The state as indented JSON, with a missing value shown as "—" (never a bare null). */
  const NONE = "\u0000none\u0000";
  function shown(value, indent) {
    const json = JSON.stringify(value, (k, v) => (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v)) ? NONE : v), indent);
    return json === undefined ? Junction.MISSING : json.split(JSON.stringify(NONE)).join(Junction.MISSING);
  }

  // The log: one request at a time, each from where the last ended, so no line shows twice.
  let logAfter = 0, logQueue = Promise.resolve();
  function refreshLog(ctx) {
    if (ctx.readOnly) return;
    logQueue = logQueue.then(async () => {
      const result = await ctx.api("GET", "/api/games/" + ctx.code + "/actions?after=" + logAfter);
      if (!result.ok || !Array.isArray(result.data)) return;
      for (const action of result.data) {
        if (!(action.sequence > logAfter)) continue;
        logAfter = action.sequence;
        const seat = ctx.summary.seats.find((s) => s.index === action.seat);
        $("log").append(el("li", { value: action.sequence }, (seat ? text(seat.name, "seat " + action.seat) : "host") + ": " + label(action.command || {})));
      }
    }).catch(() => {});
  }

  /* A form for every command of this kind, built from its declared specs (GET /api/kinds: each
   * command's help, each argument's JSON Schema): a select for an enum, a number input with the
   * bounds for a whole number, a checkbox, text for a string or a list ("0, 3, 4" or JSON). The
   * legal commands stay one tap above; whatever the rules refuse shows as any error does. */
  let specs = null, specsAsked = false;
  function loadSpecs(ctx, then) {
    if (specsAsked) return;
    specsAsked = true;
    ctx.api("GET", "/api/kinds").then((result) => {
      const kind = result.ok && Array.isArray(result.data) ? result.data.find((k) => k.kind === ctx.summary.kind) : null;
      specs = kind && Array.isArray(kind.commands) ? kind.commands : [];
      then();
    }).catch(() => { specs = []; });
  }

  function argInput(arg, id) {
    const s = arg.schema || {};
    const required = !arg.optional;
    if (Array.isArray(s.enum)) {
      const choices = s.enum.map((v) => el("option", { value: JSON.stringify(v) }, String(v)));
      return el("select", { id, name: arg.name }, arg.optional ? [el("option", { value: "" }, Junction.MISSING), ...choices] : choices);
    }
    if (s.type === "boolean") return el("input", { id, name: arg.name, type: "checkbox" });
    if (s.type === "integer") return el("input", { id, name: arg.name, type: "number", inputmode: "numeric", step: s.multipleOf || 1, min: s.minimum, max: s.maximum, required });
    if (s.type === "array") return el("input", { id, name: arg.name, type: "text", placeholder: (s.items || {}).type === "integer" ? "e.g. 0, 3, 4" : "comma separated, or JSON", required });
    return el("input", { id, name: arg.name, type: "text", maxlength: s.maxLength, required });
  }

  function argValue(arg, input) {
    const s = arg.schema || {};
    if (s.type === "boolean") return input.checked ? true : (arg.optional ? undefined : false);
    const raw = input.value.trim();
    if (raw === "") return undefined;
    if (Array.isArray(s.enum)) return JSON.parse(raw);
    if (s.type === "integer") return Number(raw);
    if (s.type === "array") {
      try { const parsed = JSON.parse(raw.startsWith("[") ? raw : "[" + raw + "]"); if (Array.isArray(parsed)) return parsed; } catch (e) { /* plain words */ }
      return raw.split(",").map((x) => x.trim()).filter(Boolean);
    }
    return raw;
  }

  function commandForm(spec, ctx) {
    const inputs = spec.args.map((arg) => [arg, argInput(arg, "arg-" + spec.cmd + "-" + arg.name)]);
    const send = el("button", { type: "submit" }, "Send " + spec.cmd);
    return el("form", {
      class: "command-form", "data-cmd": spec.cmd,
      onsubmit: async (ev) => {
        ev.preventDefault();
        const command = { cmd: spec.cmd };
        for (const [arg, input] of inputs) {
          const value = argValue(arg, input);
          if (value !== undefined) command[arg.name] = value;
        }
        Junction.showError($("play-error"), "");
        send.disabled = true;
        const result = await ctx.send(command);
        send.disabled = false;
        if (result.type === "error") Junction.showError($("play-error"), text(result.error.message, "That did not work."), send.isConnected ? send : null);
      },
    },
    el("p", { class: "muted" }, spec.help),
    inputs.map(([arg, input]) => el("label", { for: input.id, title: arg.help }, arg.name + (arg.optional ? " (optional)" : ""), input, arg.help ? el("small", { class: "muted" }, arg.help) : null)),
    send);
  }

  function renderForms(payload, ctx) {
    if (ctx.readOnly || typeof ctx.api !== "function") return;
    let box = $("command-forms");
    if (!box) {
      box = el("details", { id: "command-forms", class: "command-forms" }, el("summary", {}, "Send any command"));
      $("legal").after(box);
    }
    if (specs === null) { loadSpecs(ctx, () => renderForms(payload, ctx)); return; }
    if (!box.querySelector("form") && specs.length) box.append(...specs.map((spec) => commandForm(spec, ctx)));
    box.hidden = !specs.length || payload.status !== "active" || ctx.seat === null || ctx.seat === undefined;
    const help = new Map(specs.map((spec) => [spec.cmd, spec.help]));
    for (const button of $("legal").querySelectorAll("button.command")) {
      const cmd = button.dataset.cmd;
      if (cmd && help.has(cmd)) button.title = help.get(cmd);
    }
  }

  window.JunctionPlay = {
    render(payload, ctx) {
      $("version").textContent = text(payload.version);
      $("state-json").textContent = shown(payload.state, 2);
      const mine = payload.legal_commands || [];
      const over = payload.status === "finished" && payload.result;
      $("turn").textContent = over ? "" : payload.status === "finished" ? "Game over." : payload.status === "paused" ? "The game is paused." : mine.length ? "Your move." : "Waiting for others…";
      $("turn").hidden = !!over;
      // The ending (the rules' ranking, the replay, play again) in place of the turn line once the rules ended it.
      const ending = over ? Junction.ending(payload.result, { seats: (ctx.summary && ctx.summary.seats) || [], you: ctx.seat, code: ctx.code,
        kind: ctx.summary && ctx.summary.kind, title: ctx.summary && ctx.summary.title }) : null;
      const before = $("generic-ending");
      if (ending) { ending.id = "generic-ending"; if (before) before.replaceWith(ending); else $("turn").after(ending); } else if (before) before.remove();
      Junction.showError($("play-error"), "");
      $("legal").replaceChildren(...mine.map((command) => el("button", {
        type: "button", class: "command", "data-cmd": command.cmd,
        onclick: async (ev) => {
          const button = ev.currentTarget;
          Junction.showError($("play-error"), "");
          button.disabled = true;
          const result = await ctx.send(command);
          button.disabled = false;
          if (result.type === "error") Junction.showError($("play-error"), text(result.error.message, "That did not work."), button.isConnected ? button : null);
        },
      }, label(command))));
      refreshLog(ctx);
      renderForms(payload, ctx);
    },
  };
})();
