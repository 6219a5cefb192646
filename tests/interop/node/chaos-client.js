'use strict'
/*
 * A Feathers client app on the real @feathersjs/socketio-client (socket.io-client 4.8) and
 * @feathersjs/authentication-client that logs in and records what it hears, for the chaos tests.
 *
 *   node chaos-client.js <url> <email> <password> <record file> [websocket|polling]
 *
 * Appends one JSON line to the record file for each thing that happens:
 *   {"kind": "login"}                                   the first login answered
 *   {"kind": "connect", "recovered": true}              every connect, with socket.recovered
 *   {"kind": "event", "event": "created", "data": {...}, "offset": "12"}   every `people` event
 *   {"kind": "error", "message": "..."}
 * socket.io-client reconnects by itself after a lost connection and the authentication client
 * logs in again; the app runs until it is terminated.
 */
const fs = require('fs')
const io = require('socket.io-client')
const { feathers } = require('@feathersjs/feathers')
const socketio = require('@feathersjs/socketio-client')
const authentication = require('@feathersjs/authentication-client')

const [url, email, password, recordFile, transport = 'websocket'] = process.argv.slice(2)

function record (entry) {
  fs.appendFileSync(recordFile, JSON.stringify(entry) + '\n')
}

const socket = io(url, {
  transports: [transport],
  forceNew: true,
  reconnectionDelay: 100,
  reconnectionDelayMax: 500,
  randomizationFactor: 0
})
const app = feathers()
app.configure(socketio(socket))
app.configure(authentication({ storage: new authentication.MemoryStorage() }))

socket.on('connect', () => record({ kind: 'connect', recovered: socket.recovered === true }))
for (const event of ['created', 'patched']) {
  // socket.io-client hands listeners the offset too, as a last argument, when the server
  // recovers connections.
  app.service('people').on(event, (data, offset) => record({ kind: 'event', event, data, offset }))
}

app
  .authenticate({ strategy: 'local', email, password })
  .then(() => record({ kind: 'login' }))
  .catch((error) => record({ kind: 'error', message: String(error && error.message) }))

process.on('SIGTERM', () => {
  socket.close()
  process.exit(0)
})
