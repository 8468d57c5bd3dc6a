// A bare WebSocket echo on Node's `ws` (the library boardgame.io's socket.io client and the bench
// driver use): what Node itself costs a frame.  node server.js <port>
'use strict';
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[2]) });
wss.on('connection', (ws) => ws.on('message', (data) => ws.send(data.toString())));
wss.on('listening', () => console.log('listening'));
