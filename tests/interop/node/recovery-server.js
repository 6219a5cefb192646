'use strict'
/*
 * A plain socket.io 4.8 server with connection state recovery on, for the Python client's tests.
 *
 *   node recovery-server.js 0     # 0 picks a free port
 *   -> "socket.io recovery server listening on http://127.0.0.1:<port>"
 *
 * Its socket.io is at /socket.io/; beside it, a small HTTP API the tests drive it with:
 *
 *   POST /emit?count=N&from=K   emits N events "todos created" {n: K..K+N-1} to every socket
 *                               (each with its offset, as recovery sends them); answers the
 *                               number of sockets connected
 *   POST /expire                every saved session is past the recovery window
 *   GET  /handshakes            the auth payload of every CONNECT, and whether it recovered
 *
 * A socket answers "create" on "authentication" (the Feathers login) with a token, and counts
 * its logins in /handshakes.
 */
const http = require('http')
const { Server } = require('socket.io')

const handshakes = []
const logins = []

const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1')
  const answer = (body) => {
    response.writeHead(200, { 'Content-Type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  if (request.method === 'POST' && url.pathname === '/emit') {
    const count = Number(url.searchParams.get('count') || 1)
    const from = Number(url.searchParams.get('from') || 0)
    for (let n = from; n < from + count; n++) {
      io.emit('todos created', { n })
    }
    answer({ sockets: io.of('/').sockets.size })
  } else if (request.method === 'POST' && url.pathname === '/expire') {
    for (const session of io.of('/').adapter.sessions.values()) {
      session.disconnectedAt = 0
    }
    answer({ expired: true })
  } else if (url.pathname === '/handshakes') {
    answer({ handshakes, logins, sockets: io.of('/').sockets.size })
  } else if (!url.pathname.startsWith('/socket.io/')) {
    response.writeHead(404)
    response.end()
  }
})

// A long-polling client cut off between two polls is seen gone at its ping timeout: short here.
const io = new Server(server, {
  pingInterval: 1000,
  pingTimeout: 2000,
  connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: true }
})

io.on('connection', (socket) => {
  handshakes.push({ auth: socket.handshake.auth, recovered: socket.recovered, id: socket.id })
  socket.on('create', (path, data, params, ack) => {
    if (path === 'authentication' && typeof ack === 'function') {
      logins.push({ id: socket.id, strategy: data && data.strategy })
      ack(null, { accessToken: `token-${logins.length}`, authentication: { strategy: 'jwt' } })
    } else if (typeof ack === 'function') {
      ack({ name: 'NotFound', message: `No service ${path}`, code: 404, className: 'not-found' })
    }
  })
})

server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  const { port } = server.address()
  console.log(`socket.io recovery server listening on http://127.0.0.1:${port}`)
})
