// A boardgame.io server for the latency benchmark: `node server.js <port>`.
// Needs boardgame.io resolvable (NODE_PATH pointing at a throwaway install).
'use strict';

const { Server, Origins } = require('boardgame.io/server');
const { Race } = require('./game');

const port = Number(process.argv[2] || 8001);
const server = Server({ games: [Race], origins: [Origins.LOCALHOST, 'http://127.0.0.1:' + port] });
server.run({ port, callback: () => console.log('boardgame.io listening on ' + port) });
