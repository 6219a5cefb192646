'use strict'
/*
 * Feathers client apps on the real @feathersjs/socketio-client and
 * @feathersjs/authentication-client, over one socket.io transport.
 *
 *   const { app, socket } = connectSocket('websocket')      // or 'polling'
 *   await app.service('people').find()
 *   close(app)
 *
 * The server's base URL comes from FEATHERS_URL (run.js sets it from its --url argument).
 */
const io = require('socket.io-client')
const { feathers } = require('@feathersjs/feathers')
const socketio = require('@feathersjs/socketio-client')
const authentication = require('@feathersjs/authentication-client')
const { STANDARD_METHODS, baseUrl } = require('./connect')

const SOCKET_TRANSPORTS = ['websocket', 'polling']

/*
 * A client app on `transport`, with the authentication client (on `storage`, a fresh in-memory
 * one by default) and the custom method of `todos` declared. `socketOptions` go to
 * socket.io-client (`extraHeaders`, `reconnection`...).
 */
function connectSocket (transport, { storage, socketOptions = {} } = {}) {
  if (!SOCKET_TRANSPORTS.includes(transport)) {
    throw new Error(`Unknown transport ${transport}: one of ${SOCKET_TRANSPORTS.join(', ')}`)
  }
  const socket = io(baseUrl(), { transports: [transport], forceNew: true, ...socketOptions })
  const app = feathers()
  const connection = socketio(socket)
  app.configure(connection)
  app.configure(authentication({ storage: storage || new authentication.MemoryStorage() }))
  app.use('todos', connection.service('todos'), {
    methods: [...STANDARD_METHODS, 'markAllComplete']
  })
  return { app, socket }
}

// The socket's next `name` event (its first argument), or an error after `ms`.
function nextEvent (socket, name, ms = 5000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} within ${ms} ms`)), ms)
    socket.once(name, (value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}

// The socket's answer to a raw emit: every argument of its ack.
function rawCall (socket, ...args) {
  return new Promise((resolve) => socket.emit(...args, (...answer) => resolve(answer)))
}

module.exports = { SOCKET_TRANSPORTS, connectSocket, nextEvent, rawCall }
