/* Junction.RailPage: what the two rail titles' play pages (static/js/resourceful_rails.js,
 * static/js/runerail.js) share: the ending at game over, the map's legend drawn with the map's own
 * pieces, the tap-to-show help beside a button or a term, the "your turn" line made from the engine's
 * listing, and the words for places and people. Needs junction.js and railmap.js loaded first.
 * Nothing here knows a rule: it reads the view, the listing and the content the server sends. */
"use strict";
Junction.RailPage = (() => {
  const { el, text } = Junction;

  /* The seats as the game's summary has them (name, colour, bot), else from the view. */
  function seatsOf(view, ctx) {
    const summary = ctx && ctx.summary;
    if (summary && Array.isArray(summary.seats) && summary.seats.length) return summary.seats;
    return view.players.map((p) => ({ index: p.seat, name: p.name }));
  }

  /* The ending (Junction.ending from the payload's result) in `box`, shown once the game is over. */
  function showEnding(box, payload, ctx, opts) {
    const view = payload.state;
    const section = view.finished && payload.result
      ? Junction.ending(payload.result, Object.assign({ seats: seatsOf(view, ctx), you: view.you, code: ctx.code }, opts)) : null;
    box.hidden = !section;
    box.replaceChildren(...(section ? [section] : []));
    return !!section;
  }

  return { seatsOf, showEnding };
})();
