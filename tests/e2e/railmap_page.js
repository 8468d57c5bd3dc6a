/* The rail map fixture page (railmap_page.html): fetch map.json (and goods.json if served),
 * draw it, and note on window when it was first drawn (window.railmapDrawn: ms since the
 * navigation started, taken in the frame after the drawing, when it is painted). */
"use strict";
(async () => {
  const started = performance.now();
  const [map, goods] = await Promise.all([
    fetch("/map.json").then((r) => r.json()),
    fetch("/goods.json").then((r) => (r.ok ? r.json() : null)).catch(() => null),
  ]);
  const fetched = performance.now();
  const names = {};
  for (const g of (goods && goods.goods) || []) names[g.id] = g.name;
  const out = document.getElementById("tapped");
  window.taps = [];
  window.rm = Junction.RailMap.create(document.getElementById("map"), map, {
    goodsNames: names,
    onTap: (key, info) => { window.taps.push(key); out.textContent = "Milepost " + key + (info.city ? " (" + info.city.name + ")" : ""); },
  });
  const created = performance.now();
  requestAnimationFrame(() => requestAnimationFrame(() => {
    window.railmapTimes = { scripts: started, fetched, created, drawn: performance.now() };
    window.railmapDrawn = window.railmapTimes.drawn;
  }));
})();
