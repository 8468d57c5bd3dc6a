// Drives one two-seat game and prints JSON figures. The same driver (same
// runtime, same measurement) is used against both systems:
//
//   node drive.js bgio <http-base> <moves> <gap-ms> <pingpong-moves>
//   node drive.js junction <ws-base> <code> <token0> <token1> <moves> <gap-ms> <pingpong-moves>
//
// Latency: a seat sends a move; the clock stops when the OTHER seat's client
// receives the update. Moves are spaced by <gap-ms>. Throughput: each seat
// moves as soon as it sees its turn (ping-pong), back to back.
'use strict';

const { performance } = require('perf_hooks');

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

// A seat: wait for an update newer than `seen`, and send a move.
class JunctionSeat {
  constructor(WebSocket, url) {
    this.version = 0;
    this.waiters = [];
    this.errors = [];
    this.ws = new WebSocket(url);
    this.ws.on('message', (data) => {
      const receivedNs = process.hrtime.bigint();
      const msg = JSON.parse(data.toString());
      if (msg.type === 'state' && msg.version > this.version) {
        this.version = msg.version;
        this.stateNs = receivedNs;
        this.turn = msg.state.turn;
        this.waiters = this.waiters.filter((w) => !w(msg));
      } else if (msg.type === 'error') {
        this.errors.push(msg.error);
      }
    });
    this.opened = new Promise((r, j) => { this.ws.on('open', r); this.ws.on('error', j); });
  }
  waitVersion(v) {
    if (this.version >= v) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push((m) => (m.version >= v ? (resolve(), true) : false)));
  }
  move(n, id) { this.ws.send(JSON.stringify({ cmd: 'add', n, command_id: id })); }
  close() { this.ws.close(); }
}

async function runJunction(args) {
  const WebSocket = require('ws');
  const [base, code, t0, t1, moves, gap, pingpong] = args;
  const seats = [t0, t1].map((t) => new JunctionSeat(WebSocket, `${base}/ws/games/${code}/?token=${t}`));
  await Promise.all(seats.map((s) => s.opened));
  await Promise.all(seats.map((s) => s.waitVersion(1)));
  const lat = [];
  // CLOCK_MONOTONIC ns (the clock Python's time.monotonic_ns reads): the move sent, the
  // other seat's state received; bench_move_stages.py lines them up with Daphne's stamps.
  const stamps = [];
  let version = 1;
  for (let i = 0; i < Number(moves); i++) {
    const mover = seats[0].turn;
    const other = seats[1 - mover];
    const start = performance.now();
    const sentNs = process.hrtime.bigint();
    seats[mover].move(1, `l${i}`);
    await other.waitVersion(version + 1);
    lat.push(performance.now() - start);
    stamps.push([String(sentNs), String(other.stateNs)]);
    version += 1;
    await seats[mover].waitVersion(version);
    if (Number(gap)) await sleep(Number(gap));
  }
  // Ping-pong: whoever receives its turn moves at once.
  const n = Number(pingpong);
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const mover = seats[0].turn;
    seats[mover].move(1, `p${i}`);
    await seats[1 - mover].waitVersion(version + 1);
    version += 1;
    await seats[mover].waitVersion(version);
  }
  const elapsed = (performance.now() - start) / 1000;
  const errors = seats.flatMap((s) => s.errors);
  seats.forEach((s) => s.close());
  return { lat, stamps, pingpong_moves: n, pingpong_seconds: elapsed, errors };
}

async function runBgio(args) {
  const { Client } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { Race } = require('./game');
  const [base, moves, gap, pingpong] = args;
  const post = async (path, body) => {
    const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
  const { matchID } = await post('/games/race/create', { numPlayers: 2 });
  const creds = [];
  for (const playerID of ['0', '1']) {
    creds.push((await post(`/games/race/${matchID}/join`, { playerID, playerName: 'p' + playerID })).playerCredentials);
  }
  const seats = ['0', '1'].map((playerID, i) => {
    const client = Client({ game: Race, multiplayer: SocketIO({ server: base }), matchID, playerID, credentials: creds[i], debug: false });
    const seat = { client, stateID: -1, waiters: [] };
    client.subscribe((state) => {
      if (!state || state._stateID <= seat.stateID) return;
      seat.stateID = state._stateID;
      seat.current = state.ctx.currentPlayer;
      seat.waiters = seat.waiters.filter((w) => !w(state));
    });
    seat.waitState = (id) => (seat.stateID >= id ? Promise.resolve()
      : new Promise((resolve) => seat.waiters.push((s) => (s._stateID >= id ? (resolve(), true) : false))));
    client.start();
    return seat;
  });
  await Promise.all(seats.map((s) => s.waitState(0)));
  await sleep(200);
  const lat = [];
  for (let i = 0; i < Number(moves); i++) {
    const mover = Number(seats[0].current);
    const other = seats[1 - mover];
    const target = other.stateID + 1;
    const start = performance.now();
    seats[mover].client.moves.add(1);
    await other.waitState(target);
    lat.push(performance.now() - start);
    await seats[mover].waitState(other.stateID);
    if (Number(gap)) await sleep(Number(gap));
  }
  const n = Number(pingpong);
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const mover = Number(seats[0].current);
    const other = seats[1 - mover];
    const target = other.stateID + 1;
    seats[mover].client.moves.add(1);
    await other.waitState(target);
    await seats[mover].waitState(other.stateID);
  }
  const elapsed = (performance.now() - start) / 1000;
  const counter = seats[0].client.getState().G.counter;
  seats.forEach((s) => s.client.stop());
  return { lat, pingpong_moves: n, pingpong_seconds: elapsed, errors: [], final_counter: counter };
}

(async () => {
  const [which, ...args] = process.argv.slice(2);
  const out = which === 'bgio' ? await runBgio(args) : await runJunction(args);
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
