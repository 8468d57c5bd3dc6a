// Drives one two-seat game and prints JSON figures. The same driver (same
// runtime, same measurement) is used against both systems:
//
//   node drive.js bgio <http-base> <moves> <gap-ms> <pingpong-moves>
//   node drive.js junction <ws-base> <code> <token0> <token1> <moves> <gap-ms> <pingpong-moves>
//   node drive.js junction-http <http-base> <ws-base> <code> <token0> <token1> <moves> <gap-ms>
//   node drive.js bgio-http <http-base> <moves> <gap-ms>
//
// The -http modes send each move as an HTTP request (keep-alive): Junction's
// POST /api/games/{code}/commands, timed to the other seat's socket update and to the
// HTTP answer. boardgame.io has no HTTP move endpoint (moves go over its socket); its
// nearest HTTP write, the lobby's POST /games/{name}/{matchID}/update (a player's
// name), is timed to its answer as the floor of one HTTP request on that server.
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

async function runJunctionHttp(args) {
  const WebSocket = require('ws');
  const [httpBase, wsBase, code, t0, t1, moves, gap] = args;
  const tokens = [t0, t1];
  const seats = tokens.map((t) => new JunctionSeat(WebSocket, `${wsBase}/ws/games/${code}/?token=${t}`));
  await Promise.all(seats.map((s) => s.opened));
  await Promise.all(seats.map((s) => s.waitVersion(1)));
  const lat = [], rtt = [], errors = [];
  let version = Math.max(seats[0].version, seats[1].version);
  for (let i = 0; i < Number(moves); i++) {
    const mover = seats[0].turn;
    const other = seats[1 - mover];
    const start = performance.now();
    const answer = fetch(`${httpBase}/api/games/${code}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[mover]}` },
      body: JSON.stringify({ cmd: 'add', n: 1, command_id: `h${i}`, expected_version: version }),
    }).then(async (r) => { const body = await r.json(); rtt.push(performance.now() - start); if (!r.ok) errors.push(body); });
    await other.waitVersion(version + 1);
    lat.push(performance.now() - start);
    await answer;
    version += 1;
    await seats[mover].waitVersion(version);
    if (Number(gap)) await sleep(Number(gap));
  }
  seats.forEach((s) => s.close());
  return { lat, rtt, errors };
}

async function runBgioHttp(args) {
  const [base, moves, gap] = args;
  const post = async (path, body) => {
    const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
  const { matchID } = await post('/games/race/create', { numPlayers: 2 });
  const { playerCredentials } = await post(`/games/race/${matchID}/join`, { playerID: '0', playerName: 'p0' });
  const rtt = [];
  for (let i = 0; i < Number(moves); i++) {
    const start = performance.now();
    await post(`/games/race/${matchID}/update`, { playerID: '0', credentials: playerCredentials, newName: `p0-${i}` });
    rtt.push(performance.now() - start);
    if (Number(gap)) await sleep(Number(gap));
  }
  return { lat: [], rtt, errors: [] };
}

(async () => {
  const [which, ...args] = process.argv.slice(2);
  const modes = { bgio: runBgio, junction: runJunction, 'junction-http': runJunctionHttp, 'bgio-http': runBgioHttp };
  const out = await modes[which](args);
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
