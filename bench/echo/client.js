// Round trips of a command-sized frame to an echo server, <gap-ms> apart; prints JSON latencies (ms).
//   node client.js <ws-url> <frames> <gap-ms>
'use strict';
const WebSocket = require('ws');
const { performance } = require('perf_hooks');

const [url, frames, gap] = process.argv.slice(2);
const ws = new WebSocket(url);
ws.on('open', async () => {
  const lat = [];
  for (let i = 0; i < Number(frames); i++) {
    await new Promise((r) => setTimeout(r, Number(gap)));
    const start = performance.now();
    await new Promise((r) => { ws.once('message', r); ws.send(JSON.stringify({ cmd: 'add', n: 1, command_id: `e${i}` })); });
    lat.push(performance.now() - start);
  }
  console.log(JSON.stringify({ lat }));
  ws.close();
});
ws.on('error', (err) => { console.error(err.message); process.exit(1); });
